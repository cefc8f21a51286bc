"""What one seat may know: data, not handles.

An agent never touches the Game, a Player or a Card. Before each decision the seat's Desk (engine side,
kept in `Game.views`) writes down what that seat may see at the table: its own hand, hidden heroes and
identity; public zones; counts of other hands; identities once shown; face-up heroes. What the agent gets
is that snapshot: read-only objects made of plain values, rules data (public) and other views, with no
reference back to the game (docs/agents.md). The interpreter, not the bots, hides the rest: a bot that
looks at an opponent's hand card finds a card with no name, suit or rank, and nothing behind it.

Cards carry a per-seat `handle`. A card the seat knows keeps its handle for as long as the seat has known
it without a break (Card.era counts the breaks: a shuffle forgets); a card the seat does not know gets a
fresh handle at every decision. So an agent can follow a card exactly as far as a person at the table
could, and no further. The Desk maps handles back to cards; answers name offered options, which it maps
back to the real ones.

A view's few questions (target_candidates, active_candidates, virtual, q, log_lines) need the game, and its
parts most agents never read (another seat's cards, piles, marks and skills, the event stack) are written
when first read. Both find their Desk through the call stack (`consult` below), the one channel a walk of
the view's objects cannot follow; they work only during the decision the view was made for, and questions
answer only about cards the seat sees (anything else is refused with Unseen). Code that reads interpreter
frames or the garbage collector can reach anything in the process: agents run in-process and are trusted
that far (docs/agents.md).

A card's knowledge is a bit set of seats (Card.known) that zones.py keeps as cards move: public zones make
a card known to all; a hand adds its owner; a peek adds the peeking seat; a shuffle forgets (Card.forget).
"""

from __future__ import annotations

import sys
from types import MappingProxyType

from .requests import MANY, Request
from .state import EQUIP_SLOTS, RED, SUIT_SYMBOL, VALUE_NAMES, Card, Player, rank_text, visible_to

_set = object.__setattr__
_PLAIN = frozenset({str, int, float, bool})
_EMPTY = MappingProxyType({})
_NONE = frozenset()


def _veiled(v):
    """A hidden mark's value as another seat sees it: as many unknowns as it holds."""
    return [None] * len(v) if isinstance(v, (list, tuple)) else None  # compares with a rule's list literal


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
        if d.hidden and not counters:  # 扣置: another seat sees how many, not what
            out.append(f"{d.name}×{len(v)}" if isinstance(v, (list, tuple)) else d.name)
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


class Unseen(ValueError):
    """A question about something the seat does not see, or asked outside its decision: refused."""


class Data:
    """A view: slotted and read-only once the Desk has written it."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} is read-only: it is what the seat saw")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} is read-only: it is what the seat saw")


class _Unread:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<not read yet>"


_LAZY = _Unread()


def _lazy(slot: str, doc: str) -> property:
    """A part of a view written when it is first read, during its decision: most agents never read most parts
    (another seat's skills and marks, the event stack), and writing them all at every decision is slow."""
    def get(self):
        v = getattr(self, slot)
        if v is _LAZY:
            v = _desk_of(self).part(self, slot)
            _set(self, slot, v)
        return v

    return property(get, doc=doc)


class CardView(Data):
    """A card as one seat sees it: handle, zone and owner always; what it is only when the seat knows it."""

    __slots__ = ("handle", "seen", "zone", "owner", "virtual", "cdef", "name", "title", "suit", "color", "rank",
                 "kind", "slot", "range", "subcards", "skill", "skill_id")

    red = property(lambda s: s.color == "red")
    black = property(lambda s: s.color == "black")

    def label(self) -> str:
        if not self.seen:
            return "一张牌"
        if not self.virtual:
            return f"{self.title}({SUIT_SYMBOL.get(self.suit, '')}{rank_text(self.rank)})"
        inner = "".join(f"{SUIT_SYMBOL.get(c.suit, '')}{rank_text(c.rank)}" for c in self.subcards)
        return f"{self.title}({inner})" if inner else self.title

    def __eq__(self, other):
        return self is other or (type(other) is CardView and other.handle == self.handle)

    def __hash__(self) -> int:
        return hash(("card", self.handle))

    def __repr__(self) -> str:
        return self.label()


class PlayerView(Data):
    """A player as one seat sees them."""

    __slots__ = ("seat", "is_me", "hp", "max_hp", "alive", "flipped", "chained", "kingdom", "gender",
                 "identity_shown", "identity", "hand_count", "card_count", "heroes", "shown", "reserve", "fallen",
                 "armed", "_mark_labels", "_hand", "_equip",
                 "_judges", "_piles",
                 "_pile_cards", "_marks", "_skills")

    hand = _lazy("_hand", "the hand: this seat's own cards; others' cards it knows, the rest with no face")
    equip = _lazy("_equip", "equipment by slot (weapon, armor, plus_horse, minus_horse, treasure)")
    judges = _lazy("_judges", "the judgment area, in order")
    piles = _lazy("_piles", "cards set aside on the player, by pile id (a hidden pile's cards have no face)")
    pile_cards = _lazy("_pile_cards", "the cards of the piles on the hero (not those of a `seat` pile)")
    marks = _lazy("_marks", "marks and counters, their values seen as the seat sees them")
    mark_labels = _lazy("_mark_labels", "the marks as a person in this seat reads them (a skill's tallies on its "
                                        "own seat only)")
    skills = _lazy("_skills", "skills in play: this seat's own all; another's those of face-up heroes and equipment")

    dead = property(lambda s: not s.alive)
    wounded = property(lambda s: s.hp < s.max_hp)
    dying = property(lambda s: s.alive and s.hp < 1)
    lost_hp = property(lambda s: s.max_hp - s.hp)
    equips = property(lambda s: tuple(s.equip[x] for x in EQUIP_SLOTS
                                      if x in s.equip))
    cards = property(lambda s: s.hand + s.equips)
    all_cards = property(lambda s: s.hand + s.equips + s.judges)
    weapon = property(lambda s: s.equip.get("weapon"))
    armor = property(lambda s: s.equip.get("armor"))
    plus_horse = property(lambda s: s.equip.get("plus_horse"))
    minus_horse = property(lambda s: s.equip.get("minus_horse"))
    treasure = property(lambda s: s.equip.get("treasure"))
    # The table is found through the desk, like a part read late: a view that held its table would make
    # every decision's views a cycle, left for the cyclic collector to free.
    @property
    def next(self) -> PlayerView:
        """The next player alive, clockwise (the player themself when nobody else is)."""
        t = _desk_of(self).players
        n = len(t)
        return next((t[(self.seat + i) % n] for i in range(1, n + 1) if t[(self.seat + i) % n].alive), self)

    @property
    def prev(self) -> PlayerView:
        t = _desk_of(self).players
        n = len(t)
        return next((t[(self.seat - i) % n] for i in range(1, n + 1) if t[(self.seat - i) % n].alive), self)
    hero = property(lambda s: s.heroes[0] if s.heroes else None)

    def pile(self, pid: str) -> tuple:
        return self.piles.get(pid, ())

    @property
    def name(self) -> str:
        names = [h.name for h in self.heroes if h is not None]
        return "/".join(names) if names else f"座位{self.seat + 1}"

    def __eq__(self, other):
        return self is other or (type(other) is PlayerView and other.seat == self.seat)

    def __hash__(self) -> int:
        return hash(("player", self.seat))

    def __repr__(self) -> str:
        return self.name


class SkillView(Data):
    """A skill instance or a trigger listener: its rules (public data) and whose it is."""

    __slots__ = ("skill", "owner", "equip", "trigger", "card", "slot")  # slot: the hero card it is printed on

    def __repr__(self) -> str:
        return f"【{self.skill.name}】"


class EventView(Data):
    """An event being settled: its fields (and `cancelled`), each as the seat sees it."""

    __slots__ = ("TYPE", "FIELDS", "_fields")

    def __getattr__(self, name):
        if name.startswith("__"):  # a protocol probe (copy, pickle)
            raise AttributeError(name)
        fields = self._fields
        if fields is _LAZY:  # its fields are written when first read: most frames' events are never read
            fields = _desk_of(self).part(self, "_fields")
            _set(self, "_fields", fields)
        try:
            return fields[name]
        except KeyError:
            raise AttributeError(name) from None


class FrameView(Data):
    __slots__ = ("kind", "name", "ident", "loc", "event", "owner")  # owner: whose skill


def _builder(cls):
    """A fast way to write a read-only view: an open twin class (a plain attribute store per slot, several times
    cheaper than object.__setattr__) and a maker that fills one in and makes it the view class, in one call."""
    names = [n for k in reversed(cls.__mro__) for n in k.__dict__.get("__slots__", ())]
    assert all(n.isidentifier() for n in names)
    # (__delattr__ too: the two share one slot, which stays the slow generic one unless both are the plain ones)
    twin = type(f"_Open{cls.__name__}", (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                                  "__delattr__": object.__delattr__})
    src = (f"def make({', '.join(names)}):\n    s = new(twin)\n" + "".join(f"    s.{n} = {n}\n" for n in names)
           + "    s.__class__ = cls\n    return s\n")
    ns: dict = {"new": object.__new__, "twin": twin, "cls": cls}
    exec(src, ns)  # noqa: S102 - slot names of this module's classes, checked above
    return twin, ns["make"]


class SeatView(Data):
    """The game as one seat may know it at one decision."""

    __slots__ = ("seat", "rules", "mode", "turn_no", "phase", "agent_rng", "help", "harm", "deeds", "me", "players",
                 "current", "_stack", "_ring")

    stack = _lazy("_stack", "the frames being settled, outermost first (FrameView: kind, name, ident, loc, event, "
                            "owner)")

    ring = _lazy("_ring", "the players alive, from the current one clockwise")

    def alive_from_current(self) -> list[PlayerView]:
        return list(self.ring)

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

    # ---- questions the rules answer openly (legal targets are announced at a real table) --------------------
    def target_candidates(self, me: PlayerView, card: CardView) -> list[PlayerView]:
        return _desk_of(self).target_candidates(me, card)

    def active_candidates(self, inst: SkillView, active) -> list[PlayerView]:
        """Whom this seat could target now with an active skill (its own, or one `by` lets it use)."""
        return _desk_of(self).active_candidates(inst, active)

    def lords_of(self, hero: str) -> list[str]:
        """The lord cards of a hero set aside in this game (国战's 君主: public, they lie beside the table)."""
        return _desk_of(self).game.lords_of(hero)

    def virtual(self, name: str, cards=(), skill=None) -> CardView:
        """A virtual card of `name` made of cards this seat sees (to ask about it)."""
        return _desk_of(self).virtual(name, cards, skill)

    def q(self, qid: str, *args):
        """A quantity of the rules, of players and seen cards (and plain values)."""
        return _desk_of(self).q(qid, args)

    def log_lines(self, start: int = 0) -> list[str]:
        """The game log from line `start`, when it is written from this seat's knowledge (GameLog(seat=…));
        the full log sees every card, so no seat reads it."""
        return _desk_of(self).log_lines(start)


_, _card = _builder(CardView)
_OpenPlayer, _ = _builder(PlayerView)
_, _skill_view = _builder(SkillView)
_, _frame = _builder(FrameView)
_, _event = _builder(EventView)
_, _seat_view = _builder(SeatView)


def consult(desk, agent, view, seen):
    """The one place an agent is asked to decide. Its view's questions find `desk` in this frame (_desk_of):
    nothing the agent holds refers to it."""
    return agent.decide(view, seen)


_CONSULT = consult.__code__


def _desk_of(view) -> Desk:
    f = sys._getframe(2)
    while f is not None:
        if f.f_code is _CONSULT:
            desk = f.f_locals["desk"]
            if desk.owns(view):
                return desk
        f = f.f_back
    raise Unseen("a seat's view answers questions (and writes its parts read late) only during the decision it was "
                 "made for")


class Desk:
    """One seat's side of the screen, kept by the engine: writes the seat's view for each decision, keeps the
    handles it gave out and maps them (and the answers) back to cards and options."""

    def __init__(self, game, seat: int):
        self.game = game
        self.seat = seat
        self.bit = 1 << seat
        self.next_handle = 1
        self.known: dict[int, tuple[int, int]] = {}  # uid -> (era, handle): cards this seat has kept in sight
        self.cards: dict[int, Card] = {}  # handle -> card: those in sight, and this decision's others
        self.passing: list[int] = []  # this decision's handles of unseen and virtual cards
        self.memo: dict[int, object] = {}  # this decision's views, by card uid and event id()
        self.events: dict[int, tuple] = {}  # this decision's event views, by id(): (view, event)
        self.players: list[PlayerView] = []
        self.view: SeatView | None = None
        self.help = MappingProxyType(game.help)
        self.harm = MappingProxyType(game.harm)

    # ---- writing the view -----------------------------------------------------------------------------------
    def snapshot(self) -> SeatView:
        """The seat's view of the game now (a new decision: handles of cards out of sight lapse)."""
        g = self.game
        cards = self.cards
        for h in self.passing:
            cards.pop(h, None)
        self.passing = []
        self.memo = {}
        self.events = {}
        self.players = table = tuple(map(self._player, g.players))
        cur = g.current
        v = _seat_view(self.seat, g.rules, g.mode, g.turn_no, g.phase, g.agent_rng, self.help, self.harm, g.deeds,
                       table[self.seat], table, None if cur is None else table[cur.seat], _LAZY, _LAZY)
        self.view = v
        return v

    def owns(self, x) -> bool:
        """Is x a view of this desk's current decision?"""
        t = type(x)
        if t is EventView:
            seen = self.events.get(id(x))
            return seen is not None and seen[0] is x
        return x is self.view or (t is PlayerView and self.players[x.seat] is x)

    def part(self, x, slot: str):
        """A part of a view first read now (view._lazy)."""
        g = self.game
        if slot == "_fields":  # an event's
            ev = self.events[id(x)][1]
            return MappingProxyType({f: self.wrap(getattr(ev, f)) for f in (*type(ev).FIELDS, "cancelled")})
        if slot == "_ring":
            table = self.players
            return tuple(table[p.seat] for p in g.ring_current())
        if slot == "_stack":
            wrap = self.wrap
            return tuple(_frame(kind=f.kind, name=f.name, ident=f.ident, loc=f.loc, event=wrap(f.event),
                                owner=wrap(f.owner)) for f in g.stack)
        p = g.players[x.seat]
        card = self.card_view
        if slot == "_hand":
            return tuple(map(card, p.hand))
        if slot == "_equip":
            return MappingProxyType({s: card(c) for s, c in p.equip.items()}) if p.equip else _EMPTY
        if slot == "_judges":
            return tuple(map(card, p.judges))
        if slot == "_piles":
            return MappingProxyType({pid: tuple(map(card, cs)) for pid, cs in p.piles.items()}) if p.piles else _EMPTY
        if slot == "_pile_cards":
            counters = g.rules.counters
            return tuple(c for pid, cs in x.piles.items() if not counters[pid].seat for c in cs)
        if slot == "_marks":
            if not p.marks:
                return _EMPTY
            counters, mine = g.rules.counters, p.seat == self.seat
            return MappingProxyType({k: _veiled(v) if not mine and k in counters and counters[k].hidden
                                     else self.wrap(v) for k, v in p.marks.items()})
        if slot == "_mark_labels":  # for a person's board only: bots never pay for it
            return tuple(mark_labels(g.rules, p.marks, counters=p.seat == self.seat)) if p.marks else ()
        if slot == "_skills":
            shown, wrap = p.shown, self.wrap
            me = p.seat == self.seat
            return tuple(_skill_view(i.skill, x, i.equip, None, wrap(i.card) if i.card is not None else None, i.slot)
                         for i in p.skills if me or i.slot is None or i.slot >= len(shown) or shown[i.slot])
        raise AssertionError(slot)

    def read_all(self) -> None:
        """Write every part of the current view now (for the referee's checks, and for code outside a decision)."""
        v = self.view
        parts = ("_hand", "_equip", "_judges", "_piles", "_pile_cards", "_marks", "_mark_labels", "_skills")
        for x, slots in ((v, ("_stack", "_ring")), *((pv, parts) for pv in self.players)):
            for slot in slots:
                if getattr(x, slot) is _LAZY:
                    _set(x, slot, self.part(x, slot))
        done = 0
        while done < len(self.events):  # writing an event's fields can make views of further events
            for ev, _ in list(self.events.values())[done:]:
                if ev._fields is _LAZY:
                    _set(ev, "_fields", self.part(ev, "_fields"))
                done += 1

    def inspect(self) -> SeatView:
        """The seat's view now, every part written: for tests and tools, which read it outside a decision."""
        v = self.snapshot()
        self.read_all()
        return v

    def present(self, req: Request) -> tuple[SeatView, Request]:
        """The view and the request as the seat sees them."""
        view = self.snapshot()
        ctx = req.context
        if ctx is not None and type(ctx) not in _PLAIN:
            ctx = self.wrap(ctx)
        if req.kind == "play":  # (kind, what) pairs, most of them a card in hand: the play phase's every step
            card, wrap = self.card_view, self.wrap
            options = tuple((k, card(w) if type(w) is Card else wrap(w)) for k, w in req.options)
        else:
            options = tuple(map(self.wrap, req.options))
        seen = Request(req.kind, self.players[req.player.seat], options, req.lo, req.hi,
                       req.prompt, ctx, intent=req.intent, left_out=tuple(map(self.wrap, req.left_out)))
        return view, seen

    def _player(self, p: Player):
        """p as this seat sees them (a read-only PlayerView)."""
        pv = _OpenPlayer.__new__(_OpenPlayer)
        seat = self.seat
        me = p.seat == seat
        shown = tuple(p.shown)
        pv.seat, pv.is_me, pv.hp, pv.max_hp, pv.alive = p.seat, me, p.hp, p.max_hp, p.alive
        pv.flipped, pv.chained, pv.kingdom, pv.gender = p.flipped, p.chained, p.kingdom, p.gender
        pv.identity_shown = p.identity_shown
        pv.identity = p.identity if me or p.identity_shown else None
        pv.hand_count = n = len(p.hand)
        pv.card_count = n + len(p.equip)
        # the cards, even the seat's own, are written when read: another's are mostly counted only, and a
        # decision's options (the cards to play, to give) are views already
        pv._hand = pv._equip = pv._judges = pv._piles = pv._pile_cards = pv._marks = pv._mark_labels = \
            pv._skills = _LAZY
        if p.removed:  # a removed card is out of the game, for its own seat too
            known = p.hero_known
            pv.heroes = tuple(None if i in p.removed else h if me or up or (seat, i) in known else None
                              for i, (h, up) in enumerate(zip(p.heroes, shown)))
        elif me or all(shown):
            pv.heroes = tuple(p.heroes)
        else:
            pv.heroes = tuple(h if up or (seat, i) in p.hero_known else None
                              for i, (h, up) in enumerate(zip(p.heroes, shown)))
        pv.shown = shown
        # 1v1's reserve and fallen heroes are public; pre-shown skills (预亮) and a skill's tallies are the seat's own
        pv.reserve = tuple(p.reserve) if p.reserve else ()
        pv.fallen = tuple(p.fallen) if p.fallen else ()
        pv.armed = frozenset(p.armed) if me and p.armed else _NONE
        pv.__class__ = PlayerView
        return pv

    def card_view(self, c: Card) -> CardView:
        if c.uid < 0:
            return self._virtual_view(c)
        memo = self.memo
        v = memo.get(c.uid)
        if v is not None:
            return v
        o = c._owner
        o = self.players[o.seat] if o is not None else None
        h = self.next_handle
        if c.known & self.bit:
            rec = self.known.get(c.uid)
            if rec is None or rec[0] != c.era:  # new in sight, or forgotten (shuffled) since
                if rec is not None:
                    self.cards.pop(rec[1], None)
                self.next_handle = h + 1
                self.known[c.uid] = (c.era, h)
                self.cards[h] = c
            else:
                h = rec[1]
            if c.lens.filters:  # 视为 in play: the card reads as the filters say
                cd, suit, color = c.cdef, c.suit, c.color
            else:  # the printed card (Card.color, short)
                cd, suit = c._cdef, c._suit
                color = None if suit is None else "red" if suit in RED else "black"
            v = _card(h, True, c._zone, o, False, cd, cd.id, cd.name, suit, color, c._rank, cd.kind, cd.slot,
                      cd.range, (), None, None)
        else:
            if c.uid in self.known:
                self.cards.pop(self.known.pop(c.uid)[1], None)
            self.next_handle = h + 1
            self.cards[h] = c
            self.passing.append(h)
            v = _card(h, False, c._zone, o, False, None, None, None, None, None, None, None, None, None, (), None,
                      None)
        memo[c.uid] = v
        return v

    def _virtual_view(self, c: Card) -> CardView:
        subs = tuple(map(self.card_view, c.subcards))
        seen = all(s.seen for s in subs)
        h = self.next_handle
        self.next_handle = h + 1
        self.cards[h] = c
        self.passing.append(h)
        o = c.owner
        o = self.players[o.seat] if o is not None else None
        if seen:
            cd = c.cdef
            return _card(h, True, c.zone, o, True, cd, cd.id, cd.name, c.suit, c.color, c.rank, cd.kind, cd.slot,
                         cd.range, subs, c.skill, c.skill_id)
        return _card(h, False, c.zone, o, True, None, None, None, None, None, None, None, None, None, subs, c.skill,
                     c.skill_id)

    def wrap(self, x):
        """A value of the game as this seat sees it (players, cards, events and skills made views)."""
        t = type(x)
        if t is Player:
            return self.players[x.seat]
        if x is None or t in _PLAIN:
            return x
        if t is Card:
            return self.card_view(x)
        if t is list or t is tuple:
            return tuple(map(self.wrap, x))
        if t is dict:
            return MappingProxyType({k: self.wrap(y) for k, y in x.items()})
        if t is set or t is frozenset:
            return frozenset(map(self.wrap, x))
        kind = t.__name__
        if kind == "SkillInst":
            return _skill_view(x.skill, self.wrap(x.owner), x.equip, None, self.wrap(x.card), x.slot)
        if kind == "Listener":
            return _skill_view(x.skill, self.wrap(x.owner), x.equip, x.trigger, None, None)
        if hasattr(t, "FIELDS"):
            key = ("event", id(x))
            v = self.memo.get(key)
            if v is None:  # one view of each event a decision: events refer to each other (a use and its aims)
                v = self.memo[key] = _event(TYPE=t.TYPE, FIELDS=t.FIELDS, _fields=_LAZY)
                self.events[id(v)] = (v, x)
            return v
        if _public(t):
            return x  # rules data: public
        raise TypeError(f"no view of a {kind} for an agent")

    # ---- mapping back ---------------------------------------------------------------------------------------
    def player(self, pv) -> Player:
        if type(pv) is not PlayerView or type(pv.seat) is not int or not 0 <= pv.seat < len(self.game.players):
            raise Unseen(f"{pv!r} is not a player of this table")
        return self.game.players[pv.seat]

    def card(self, cv) -> Card:
        """The card a view names, when this seat sees it now (else Unseen)."""
        c = self.cards.get(cv.handle) if type(cv) is CardView and type(cv.handle) is int else None
        if c is None:
            raise Unseen(f"seat {self.seat + 1} has no card {cv!r} in sight (its handle lapsed, or it never was)")
        if c.uid >= 0:
            if not c.known & self.bit or self.known.get(c.uid) != (c.era, cv.handle):
                raise Unseen(f"seat {self.seat + 1} does not see that card: it cannot ask about it")
        elif not visible_to(c, self.seat):
            raise Unseen(f"seat {self.seat + 1} does not see every card {cv!r} is made of: it cannot ask about it")
        return c

    def value(self, x):
        """An agent's argument to a question: players, seen cards and plain values only (nothing of the agent's
        own making reaches the rules code, which holds the game)."""
        t = type(x)
        if t is PlayerView:
            return self.player(x)
        if t is CardView:
            return self.card(x)
        if x is None or t in _PLAIN:
            return x
        if t is tuple or t is list:
            return [self.value(y) for y in x]
        raise Unseen(f"a question takes players, cards and plain values, not a {t.__name__}")

    def _skill(self, skill):
        rules = self.game.rules
        sid = getattr(skill, "id", None)
        if type(sid) is not str or rules.skills.get(sid) is not skill:
            raise Unseen(f"{skill!r} is not a skill of these rules")
        return skill

    # ---- the questions --------------------------------------------------------------------------------------
    def target_candidates(self, me, card) -> list[PlayerView]:
        table = self.players
        return [table[p.seat] for p in self.game.target_candidates(self.player(me), self.card(card))]

    def active_candidates(self, inst, active) -> list[PlayerView]:
        if type(inst) is not SkillView:
            raise Unseen(f"{inst!r} is not a skill view")
        skill = self._skill(inst.skill)
        if not any(a is active for a in skill.actives):
            raise Unseen(f"{active!r} is not an active part of 【{skill.name}】")
        g, table = self.game, self.players
        me, owner = g.players[self.seat], self.player(inst.owner)
        where = active.target.where if active.target is not None else None
        return [table[q.seat] for q in g.alive_from_current() if where is None or where(g, owner, me, q)]

    def virtual(self, name, cards=(), skill=None) -> CardView:
        if type(name) is not str or name not in self.game.rules.cards:
            raise Unseen(f"no card {name!r} in these rules")
        if skill is not None:
            self._skill(skill)
        cards = [self.card(c) for c in (cards if isinstance(cards, (list, tuple)) else (cards,))]
        return self._virtual_view(self.game.virtual(name, cards, skill))

    def q(self, qid, args):
        g = self.game
        if type(qid) is not str or qid not in g.quantities:
            raise Unseen(f"no quantity {qid!r} in these rules")
        return self.wrap(g.q(qid, *map(self.value, args)))

    def log_lines(self, start) -> list[str]:
        log = self.game.log
        return list(log.read(int(start))) if log is not None and log.seat == self.seat else []

    def answer(self, req: Request, offered: tuple, answer):
        """An agent's answer, given in views, mapped back to the real option(s) it names."""
        if req.kind == "confirm":
            return bool(answer)
        if answer is None:
            return None
        if req.kind in MANY:
            return [_real(offered, req.options, a) for a in answer]
        return _real(offered, req.options, answer)

    def ask(self, agent, req: Request, check=None):
        """Ask `agent` for this seat's answer to `req` (check(view, seen): the invariants, when they are on)."""
        view, seen = self.present(req)
        if check is not None:
            self.read_all()
            check(view, seen)
        offered = seen.options
        return self.answer(req, offered, consult(self, agent, view, seen))


def _real(offered, real, a):
    for w, r in zip(offered, real):
        if w is a:
            return r
    for w, r in zip(offered, real):
        if w == a:
            return r
    raise ValueError(f"an agent answered {a!r}, which was not offered")


def _public(t) -> bool:
    """Rules data (the tables' attrs classes): public, and holding no game."""
    return t.__module__.endswith("tables") and hasattr(t, "__attrs_attrs__")


__all__ = ["CardView", "Desk", "EventView", "FrameView", "PlayerView", "SeatView", "SkillView", "Unseen", "consult",
           "visible_to"]
