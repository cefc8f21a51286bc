"""What one seat may know.

Agents never touch the Game. Every request reaches them through the asking seat's
SeatView: players, cards, events and skills are wrapped in read-only views that
show what that seat may see at the table (its own hand, hidden heroes and identity;
public zones; counts of other hands; identities once shown; face-up heroes) and
nothing else. The interpreter, not the bots, hides the rest: a bot that tries to
read an opponent's hand card gets a card with no name, suit or rank.

A card's knowledge is a bit set of seats (Card.known) that zones.py keeps as cards
move: public zones make a card known to all; a hand adds its owner; a peek adds the
peeking seat; a shuffle forgets.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .requests import Request
from .state import VALUE_NAMES, Card, Player, visible_to


def mark_labels(rules, marks: dict, counters: bool = True) -> list[str]:
    """A player's marks and counters as a person reads them: the rules' Chinese names, a count where it is
    one (忍×2), a flag's name alone, a value by its name; the engine's own bookkeeping (a key no rules
    declare, such as a skill's uses this phase) is left out, and so are a skill's counters unless
    `counters` (its owner's view: another seat sees the marks on the table, not a face-down hero's tallies)."""
    out = []
    for k, v in marks.items():
        d = rules.counters.get(k)
        if not v or d is None or (d.kind != "mark" and not counters):
            continue
        if v is True:
            out.append(d.name)
        elif isinstance(v, int):
            out.append(f"{d.name}×{v}" if d.kind == "mark" else f"{d.name} {v}")
        elif isinstance(v, str):
            named = next((t[v].name for t in (rules.cards, rules.heroes, rules.skills) if v in t), None)
            out.append(f"{d.name} {named or rules.enum_names.get(v, VALUE_NAMES.get(v, v))}")
        else:
            out.append(d.name)
    return out


def _shown(attr: str) -> property:
    """A card's attribute, read only when the seat knows the card (`seen`; None otherwise)."""
    def get(s):
        return getattr(s._c, attr) if s.seen else None
    return property(get)


class CardView:
    """A card as one seat sees it: zone and owner always; name, suit and rank only when known."""

    __slots__ = ("_c", "_v")

    def __init__(self, card: Card, view: SeatView):
        self._c = card
        self._v = view

    @property
    def seen(self) -> bool:
        return visible_to(self._c, self._v.seat)

    def _if_seen(self, attr):
        return getattr(self._c, attr) if self.seen else None

    zone = property(lambda s: s._c.zone)
    owner = property(lambda s: s._v.wrap(s._c.owner))
    virtual = property(lambda s: s._c.virtual)
    uid = _shown("uid")
    cdef = _shown("cdef")
    name = _shown("name")
    title = _shown("title")
    suit = _shown("suit")
    color = _shown("color")
    red = property(lambda s: bool(s._if_seen("red")))
    black = property(lambda s: bool(s._if_seen("black")))
    rank = _shown("rank")
    kind = _shown("kind")
    slot = _shown("slot")
    range = _shown("range")
    subcards = property(lambda s: [s._v.wrap(c) for c in s._c.subcards])
    skill = property(lambda s: s._c.skill)
    skill_id = property(lambda s: s._c.skill_id)

    def label(self) -> str:
        return self._c.label() if self.seen else "一张牌"

    def __repr__(self) -> str:
        return self.label()


class PlayerView:
    """A player as one seat sees them."""

    __slots__ = ("_p", "_v")

    def __init__(self, player: Player, view: SeatView):
        self._p = player
        self._v = view

    @property
    def is_me(self) -> bool:
        return self._p.seat == self._v.seat

    def _cards(self, cards):
        return [self._v.wrap(c) for c in cards]

    seat = property(lambda s: s._p.seat)
    hp = property(lambda s: s._p.hp)
    max_hp = property(lambda s: s._p.max_hp)
    lost_hp = property(lambda s: s._p.lost_hp)
    alive = property(lambda s: s._p.alive)
    dead = property(lambda s: s._p.dead)
    wounded = property(lambda s: s._p.wounded)
    dying = property(lambda s: s._p.dying)
    hand_count = property(lambda s: s._p.hand_count)
    card_count = property(lambda s: s._p.card_count)
    flipped = property(lambda s: s._p.flipped)
    chained = property(lambda s: s._p.chained)
    kingdom = property(lambda s: s._p.kingdom)
    gender = property(lambda s: s._p.gender)
    identity_shown = property(lambda s: s._p.identity_shown)
    hand = property(lambda s: s._cards(s._p.hand))
    equips = property(lambda s: s._cards(s._p.equips))
    judges = property(lambda s: s._cards(s._p.judges))
    cards = property(lambda s: s._cards(s._p.cards))
    all_cards = property(lambda s: s._cards(s._p.all_cards))
    weapon = property(lambda s: s._v.wrap(s._p.weapon))
    armor = property(lambda s: s._v.wrap(s._p.armor))
    plus_horse = property(lambda s: s._v.wrap(s._p.plus_horse))
    minus_horse = property(lambda s: s._v.wrap(s._p.minus_horse))
    next = property(lambda s: s._v.wrap(s._p.next))
    prev = property(lambda s: s._v.wrap(s._p.prev))

    @property
    def equip(self) -> dict:
        return {slot: self._v.wrap(c) for slot, c in self._p.equip.items()}

    @property
    def marks(self) -> dict:
        return dict(self._p.marks)

    @property
    def reserve(self) -> list[str]:
        """Heroes waiting to enter play (1v1's 备用武将): drafted in the open, so public."""
        return list(self._p.reserve)

    @property
    def fallen(self) -> list[str]:
        """Heroes of this seat that died (阵亡): public."""
        return list(self._p.fallen)

    @property
    def armed(self) -> set[str]:
        """Skills of face-down heroes pre-shown (预亮): a secret of the seat's own."""
        return set(self._p.armed) if self.is_me else set()

    @property
    def mark_labels(self) -> list[str]:
        """The marks as a person in this seat reads them (mark_labels): a skill's counters on its own seat only."""
        return mark_labels(self._v.rules, self._p.marks, counters=self.is_me)

    def pile(self, pid: str) -> list:
        return self._cards(self._p.pile(pid))

    @property
    def piles(self) -> dict:
        return {pid: self._cards(cs) for pid, cs in self._p.piles.items()}

    pile_cards = property(lambda s: s._cards(s._p.pile_cards))

    @property
    def identity(self):
        return self._p.identity if self.is_me or self._p.identity_shown else None

    @property
    def heroes(self) -> list:
        """Hero cards in play: this seat's own all; another's only when face up (None when face down)."""
        p = self._p
        me = self._v.seat
        return [h if self.is_me or up or (me, i) in p.hero_known else None
                for i, (h, up) in enumerate(zip(p.heroes, p.shown))]

    @property
    def hero(self):
        hs = self.heroes
        return hs[0] if hs else None

    @property
    def shown(self) -> list[bool]:
        return list(self._p.shown)

    @property
    def skills(self) -> list:
        """Skills in play: this seat's own all; another's only those of face-up heroes and equipment."""
        p = self._p
        return [self._v.wrap(i) for i in p.skills
                if self.is_me or i.slot is None or i.slot >= len(p.shown) or p.shown[i.slot]]

    @property
    def name(self) -> str:
        names = [h.name for h in self.heroes if h is not None]
        return "/".join(names) if names else f"座位{self._p.seat + 1}"

    def __repr__(self) -> str:
        return self.name


@attrs.frozen
class SkillView:
    """A skill instance or a trigger listener: its rules (public data) and whose it is."""

    skill: object
    owner: object
    equip: bool
    trigger: object = None
    card: object = None
    slot: int | None = None  # the hero card it is printed on (国战: 0 main, 1 deputy); None: gained, equipment


class EventView:
    """An event being settled: its fields, each seen through the seat's view."""

    __slots__ = ("_e", "_v")

    def __init__(self, ev, view: SeatView):
        self._e = ev
        self._v = view

    @property
    def TYPE(self) -> str:  # noqa: N802 - mirrors the event classes
        return self._e.TYPE

    def __getattr__(self, name):
        if name in type(self._e).FIELDS or name == "cancelled":
            return self._v.wrap(getattr(self._e, name))
        raise AttributeError(name)


@attrs.frozen
class FrameView:
    kind: str
    name: str
    ident: str | None
    loc: str | None
    event: object
    owner: object = None  # whose skill


_PLAIN = frozenset({str, int, float, bool})
_UNREAD = object()  # an option not yet wrapped


class Options(Sequence):
    """A request's options as a seat sees them, each wrapped when it is first read: an agent that reads one
    option (the random agent) pays for one view, not for a view of every option."""

    __slots__ = ("_real", "_view", "_read")

    def __init__(self, real: list, view: SeatView):
        self._real = real
        self._view = view
        self._read = [_UNREAD] * len(real)

    def __len__(self) -> int:
        return len(self._real)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._real)))]
        w = self._read[i]
        if w is _UNREAD:
            w = self._read[i] = self._view.wrap(self._real[i])
        return w

    def __iter__(self):
        for i in range(len(self._real)):
            yield self[i]

    def __eq__(self, other):
        return list(self) == list(other) if isinstance(other, (list, tuple, Options)) else NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))

    def index_of(self, a) -> int | None:
        """The first option whose view is `a` (else the first equal to it), as if every option had been wrapped.
        A view the seat keeps (a player, a card, a value, rules data: keeps) is the view of one thing only, so
        the first option that is that thing; a view made afresh (a tuple, a skill …) can only be one already read."""
        if self._view.keeps(a):
            x = SeatView.unwrap(a)
            for k, r in enumerate(self._real):
                if r is x:
                    return k
        else:
            for k, w in enumerate(self._read):
                if w is a:
                    return k
        for k in range(len(self._real)):
            if self[k] == a:
                return k
        return None


class SeatView:
    """The game as one seat may know it; built by the interpreter for each decision."""

    def __init__(self, game, seat: int):
        self._g = game
        self.seat = seat
        self._players = [PlayerView(p, self) for p in game.players]
        self._cards: dict[int, CardView] = {}

    # ---- public data of the game ------------------------------------------------------------
    rules = property(lambda s: s._g.rules)
    mode = property(lambda s: s._g.mode)
    turn_no = property(lambda s: s._g.turn_no)
    phase = property(lambda s: s._g.phase)
    agent_rng = property(lambda s: s._g.agent_rng)
    help = property(lambda s: s._g.help)
    harm = property(lambda s: s._g.harm)
    me = property(lambda s: s.wrap(s._g.players[s.seat]))
    players = property(lambda s: list(s._players))
    current = property(lambda s: s.wrap(s._g.current))

    @property
    def stack(self) -> list[FrameView]:
        return [FrameView(f.kind, f.name, f.ident, f.loc, self.wrap(f.event), self.wrap(f.owner))
                for f in self._g.stack]

    def log_lines(self, start: int = 0) -> list[str]:
        """The game log from line `start`, when it is written from this seat's knowledge (GameLog(seat=…));
        the full log sees every card, so no seat reads it."""
        log = self._g.log
        return list(log.read(start)) if log is not None and log.seat == self.seat else []

    def alive_from_current(self) -> list[PlayerView]:
        return [self.wrap(p) for p in self._g.alive_from_current()]

    # ---- what the rules compute openly (legal targets are announced at a real table) -----------
    def target_candidates(self, me: PlayerView, card: CardView) -> list[PlayerView]:
        return [self.wrap(p) for p in self._g.target_candidates(self.unwrap(me), self.unwrap(card))]

    def active_candidates(self, inst: SkillView, active) -> list[PlayerView]:
        """Whom this seat could target now with an active skill (its own, or one `by` lets it use)."""
        g, me, owner = self._g, self._g.players[self.seat], self.unwrap(inst.owner)
        where = active.target.where if active.target is not None else None
        return [self.wrap(q) for q in g.alive_from_current() if where is None or where(g, owner, me, q)]

    def virtual(self, name: str, cards=(), skill=None) -> CardView:
        return self.wrap(self._g.virtual(name, [self.unwrap(c) for c in cards], skill))

    def q(self, qid: str, *args):
        return self.wrap(self._g.q(qid, *(self.unwrap(a) for a in args)))

    def show(self, x) -> str:
        """A value as the log would print it, as this seat may see it."""
        if isinstance(x, CardView):
            return x.label()
        if isinstance(x, PlayerView):
            return x.name
        if isinstance(x, (list, tuple)):
            return "、".join(self.show(y) for y in x) if x else "无"
        if isinstance(x, str):
            r = self.rules
            for table in (r.cards, r.heroes, r.skills):
                if x in table:
                    return table[x].name
            return r.enum_names.get(x, VALUE_NAMES.get(x, x))
        return {None: "无", True: "是", False: "否"}.get(x, str(x)) if not isinstance(x, int) else str(x)

    # ---- wrapping -------------------------------------------------------------------------------
    def wrap(self, x):
        t = type(x)
        if t is Player:
            return self._players[x.seat]
        if x is None or t in _PLAIN:
            return x
        if t is Card:
            if x.uid < 0:
                return CardView(x, self)
            v = self._cards.get(x.uid)
            if v is None:
                v = self._cards[x.uid] = CardView(x, self)
            return v
        if isinstance(x, list):
            return [self.wrap(y) for y in x]
        if isinstance(x, tuple):
            return tuple(self.wrap(y) for y in x)
        if isinstance(x, dict):
            return {k: self.wrap(y) for k, y in x.items()}
        kind = type(x).__name__
        if kind == "SkillInst":
            return SkillView(x.skill, self.wrap(x.owner), x.equip, card=self.wrap(x.card), slot=x.slot)
        if kind == "Listener":
            return SkillView(x.skill, self.wrap(x.owner), x.equip, trigger=x.trigger)
        if hasattr(type(x), "FIELDS"):
            return EventView(x, self)
        if attrs.has(type(x)) and type(x).__module__.endswith("tables"):
            return x  # rules data: public
        raise TypeError(f"no view of a {kind} for an agent")

    def keeps(self, a) -> bool:
        """Is `a` a view this seat keeps, one per thing (its players and cards, plain values, rules data), rather
        than one wrap makes afresh (a tuple, a skill, an event, a virtual card)?"""
        t = type(a)
        if t is PlayerView:
            return a._v is self
        if t is CardView:
            return a._c.uid >= 0 and self._cards.get(a._c.uid) is a
        return a is None or t in _PLAIN or (attrs.has(t) and t.__module__.endswith("tables"))

    @staticmethod
    def unwrap(x):
        if isinstance(x, CardView):
            return x._c
        if isinstance(x, PlayerView):
            return x._p
        return x

    def request(self, req: Request) -> Request:
        ctx = req.context
        if ctx is not None and type(ctx) not in _PLAIN:
            ctx = self.wrap(ctx)
        return Request(req.kind, self._players[req.player.seat], Options(req.options, self), req.lo, req.hi,
                       req.prompt, ctx, intent=req.intent, left_out=[self.wrap(x) for x in req.left_out])


def answer_of(seen: Request, real: Request, answer):
    """Map an agent's answer, given in views, back to the real option(s) it names."""
    if seen.kind == "confirm":
        return bool(answer)
    if answer is None:
        return None
    if seen.kind in ("cards", "players", "options"):
        return [_real(seen, real, a) for a in answer]
    return _real(seen, real, answer)


def _real(seen: Request, real: Request, a):
    if isinstance(seen.options, Options):
        k = seen.options.index_of(a)
        if k is not None:
            return real.options[k]
        raise ValueError(f"an agent answered {a!r}, which was not offered")
    for w, r in zip(seen.options, real.options):
        if w is a:
            return r
    for w, r in zip(seen.options, real.options):
        if w == a:
            return r
    raise ValueError(f"an agent answered {a!r}, which was not offered")


__all__ = ["CardView", "Options", "PlayerView", "SeatView", "answer_of", "mark_labels", "visible_to"]
