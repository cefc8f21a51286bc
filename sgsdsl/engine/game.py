"""The interpreter: an event stack that runs the flows the rules declare.

It opens windows, finds their triggers through the compiled trigger tables,
orders them by seed 001's settlement principles, asks agents for every
decision and applies a fixed set of primitive actions. It knows no card,
skill or hero by name: everything it needs it reads from the ruleset, and
the few hooks it calls (the turn flow, the use flow …) are engine roles that
the rules bind.
"""

from __future__ import annotations

import contextlib
import random

from .log import GameLog
from .requests import Abort, Request
from .ruleset import RulesError, Ruleset
from .state import Card, Player
from .tables import INF, ModeDef, SkillDef, TriggerDef


class GameOver(Exception):
    def __init__(self, winners: tuple[str, ...], reason: str):
        super().__init__(reason)
        self.winners = winners
        self.reason = reason


class Listener:
    """One trigger of one skill instance, registered under a window id."""

    __slots__ = ("owner", "skill", "trigger", "equip", "active")

    def __init__(self, owner, skill: SkillDef, trigger: TriggerDef, equip: bool):
        self.owner = owner
        self.skill = skill
        self.trigger = trigger
        self.equip = equip
        self.active = True


class SkillInst:
    __slots__ = ("skill", "owner", "equip", "listeners", "mods", "card")

    def __init__(self, skill: SkillDef, owner, equip: bool, card=None):
        self.skill = skill
        self.owner = owner
        self.equip = equip
        self.listeners: list[Listener] = []
        self.mods: list = []
        self.card = card


class Frame:
    __slots__ = ("eid", "parent", "kind", "name", "event", "loc", "ident")

    def __init__(self, eid, parent, kind, name, event, loc, ident=None):
        self.eid, self.parent, self.kind, self.name, self.event, self.loc = eid, parent, kind, name, event, loc
        self.ident = ident  # the skill or card id, for agents that read the stack

    def describe(self) -> str:
        return f"#{self.eid} {self.kind} {self.name}" + (f" ({self.loc})" if self.loc else "")


LOOP_LIMIT = 10_000


class Game:
    def __init__(self, rules: Ruleset, *, players: int, seed: int, agents, mode: ModeDef | None = None,
                 log: GameLog | None = None, turn_cap: int = 200, invariants: bool = False,
                 hero_pool: list[str] | None = None, variant: int = 0):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)  # the table: shuffles, draws, random heroes
        self.agent_rng = random.Random(seed * 7919 + 1)  # the agents' coin flips, kept apart
        self.mode = mode
        self.log = log
        self.turn_cap = turn_cap
        self.check_invariants = invariants
        self.players = [Player(self, i) for i in range(players)]
        self.agents = agents
        self.draw_pile: list[Card] = []  # the top is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.all_cards: list[Card] = []
        self.stack: list[Frame] = []
        self.next_eid = 0
        self.current: Player | None = None
        self.first: Player | None = None
        self.turn_event = None
        self.turn_no = 0
        self.phase: str | None = None
        self.skipped: set[str] = set()
        self.start_phase: str | None = None
        self.extra_turns: list[Player] = []
        self.listeners: dict[str, list[Listener]] = {}
        self.mods: dict[str, list] = {}
        self.qmemo: dict | None = None
        self.windows_open: list[str] = []
        self.winners: tuple[str, ...] | None = None
        self.end_reason = ""
        self.over = False
        self.loops = 0
        self.hero_pool: list[str] = list(hero_pool or [])
        self.variant = variant  # which row of the mode's identity table when it has variants
        self.used_heroes: set[str] = set()
        self.deaths: list[tuple[int, Player]] = []
        self.flow_use = rules.role("use")
        self.flow_turn = rules.role("turn")
        self.ev_aim = rules.role("aim")
        self.win_moved = rules.role("moved")
        self.win_need = rules.role("need_card")
        self.q_targetable = rules.role("targetable")
        self.q_usable = rules.role("usable")
        if self.flow_use is None or self.flow_turn is None:
            raise RulesError("the rules bind no `turn` or `use` flow (core rules missing?)")
        self.ev_use_cls = rules.events[self.flow_use.event].cls
        self.ev_turn_cls = rules.events[self.flow_turn.event].cls
        self.ev_move_cls = rules.events[self.win_moved.event].cls if self.win_moved else None
        self.ev_need_cls = rules.events[self.win_need.event].cls if self.win_need else None
        self.uid = 0
        self.crash_stack: list[str] | None = None
        # Public record of who harmed or helped whom, for agents that infer allegiances.
        self.track = any(getattr(a, "tracks", False) for a in agents)
        self.harm: dict[tuple[int, int], float] = {}
        self.help: dict[tuple[int, int], float] = {}

    # ---- cards and the deck -------------------------------------------------------
    def new_card(self, card_id: str, suit, rank) -> Card:
        c = Card(self.uid, self.rules.cards[card_id], suit, rank)
        self.uid += 1
        self.all_cards.append(c)
        return c

    def build_deck(self, deck_ids) -> None:
        for did in deck_ids:
            for suit, rank, cid in self.rules.decks[did].entries:
                c = self.new_card(cid, suit, rank)
                c._zone = "draw"
                self.draw_pile.append(c)
        self.rng.shuffle(self.draw_pile)

    def virtual(self, name: str, cards=(), skill=None) -> Card:
        cards = list(cards) if isinstance(cards, (list, tuple)) else [cards]
        suit = cards[0].suit if len(cards) == 1 else None
        rank = cards[0].rank if len(cards) == 1 else 0
        return Card(-1, self.rules.cards[name], suit, rank, cards, skill)

    def _refill(self) -> None:
        if not self.discard_pile:
            raise GameOver((), "牌堆与弃牌堆均已耗尽")
        self.draw_pile = self.discard_pile
        self.discard_pile = []
        for c in self.draw_pile:
            c._zone = "draw"
        self.rng.shuffle(self.draw_pile)
        self.say("弃牌堆洗混后作为新的牌堆")

    def take_top(self, n: int) -> list[Card]:
        out = []
        for _ in range(n):
            if not self.draw_pile:
                self._refill()
            out.append(self.draw_pile[-1])
            self.draw_pile.pop()
            out[-1]._zone = None
        return out

    # ---- moving cards: the one way cards change zones -------------------------------
    def _remove(self, c: Card) -> None:
        z, o = c._zone, c._owner
        if z == "hand":
            o.hand.remove(c)
        elif z == "equip":
            del o.equip[c.cdef.slot]
            if c.cdef.skill is not None:
                self.detach(o, c.cdef.skill, card=c)
        elif z == "judge":
            o.judges.remove(c)
        elif z == "draw":
            self.draw_pile.remove(c)
        elif z == "discard":
            self.discard_pile.remove(c)
        elif z == "processing":
            self.processing.remove(c)
        c._zone = None
        c._owner = None

    def _place(self, c: Card, zone: str, owner: Player | None, bottom: bool = False) -> None:
        if zone in ("hand", "equip", "judge") and owner is None:
            raise RulesError(f"cards put into a {zone} zone need an owner")
        if c.cdef is not c.base and zone not in ("judge", "processing"):
            c.disguise(None)  # a disguised delayed trick is itself again once it leaves the settlement
        c._zone = zone
        c._owner = owner if zone in ("hand", "equip", "judge") else None
        if zone == "hand":
            owner.hand.append(c)
        elif zone == "equip":
            owner.equip[c.cdef.slot] = c
            if c.cdef.skill is not None:
                self.attach(owner, c.cdef.skill, equip=True, card=c)
        elif zone == "judge":
            owner.judges.append(c)
        elif zone == "draw":
            if bottom:
                self.draw_pile.insert(0, c)
            else:
                self.draw_pile.append(c)
        elif zone == "discard":
            self.discard_pile.append(c)
        elif zone == "processing":
            self.processing.append(c)
        else:
            raise RulesError(f"unknown zone {zone!r}")

    def move(self, cards, zone: str, owner: Player | None = None, bottom: bool = False) -> None:
        phys: list[Card] = []
        disguises = {}
        for c in _as_list(cards):
            if c.uid < 0 and zone == "judge" and len(c.subcards) == 1:
                # a card used as a delayed trick (国色) lies in the judgment area as that trick
                disguises[c.subcards[0].uid] = c.cdef
            phys.extend(c.physical())
        if not phys:
            return
        lost: dict[int, list] = {}
        for c in phys:
            o = c._owner
            if o is not None and c._zone in ("hand", "equip") and not (o is owner and zone == c._zone):
                rec = lost.setdefault(o.seat, [o, 0, 0])
                rec[1 if c._zone == "hand" else 2] += 1
            if c._zone is not None:
                self._remove(c)
            if c.uid in disguises:
                c.disguise(disguises[c.uid])
            if zone == "equip":
                old = owner.equip.get(c.cdef.slot)
                if old is not None:
                    self.move(old, "discard")
            self._place(c, zone, owner, bottom)
        if self.check_invariants:
            self.verify()
        if self.track:
            a = self.actor()
            for o, nh, ne in lost.values():
                if a is o and zone == "hand" and owner is not None and owner is not o:
                    key, book = (o.seat, owner.seat), self.help  # o gave them away
                elif a is not None and a is not o:
                    key, book = (a.seat, o.seat), self.harm  # a took or threw o's cards
                else:
                    continue
                book[key] = book.get(key, 0.0) + 0.5 * (nh + ne)
            if zone == "judge" and owner is not None:
                self._record(owner, -1.0)
        if self.win_moved is not None and self.listeners.get(self.win_moved.id):
            gainer = owner if zone == "hand" else None
            for o, nh, ne in lost.values():
                ev = self.ev_move_cls(cards=phys, loser=o, gainer=gainer, to=zone, lost_hand=nh, lost_equip=ne)
                self.open(self.win_moved.id, ev)
            if not lost and gainer is not None:
                self.open(self.win_moved.id, self.ev_move_cls(cards=phys, loser=None, gainer=gainer, to=zone))

    # ---- primitive actions (surface.FUNCS kind="primitive") -------------------------
    def draw(self, p: Player, n: int = 1) -> list[Card]:
        if n <= 0 or not p.alive:
            return []
        cards = self.take_top(n)
        self.move(cards, "hand", p)
        self.say(p, f" 摸了{n}张牌")
        return cards

    def gain(self, p: Player, cards) -> None:
        cards = [c for c in _as_list(cards) if c is not None]
        if cards and p.alive:
            self.say(p, " 获得 ", cards)
            self.move(cards, "hand", p)

    def discard(self, p, cards) -> None:
        cards = [c for c in _as_list(cards) if c is not None]
        if cards:
            if p is not None:
                self.say(p, " 弃置 ", cards)
            self.move(cards, "discard")

    def put(self, cards, zone: str, owner=None) -> None:
        self.move(cards, zone, owner)

    def put_bottom(self, cards) -> None:
        for c in _as_list(cards):
            self.move(c, "draw", bottom=True)

    def reveal_top(self, n: int) -> list[Card]:
        cards = self.take_top(n)
        for c in cards:
            self._place(c, "processing", None)
        return cards

    def peek(self, n: int) -> list[Card]:
        while len(self.draw_pile) < n and self.discard_pile:
            top = self.draw_pile[:]
            self.draw_pile = []
            self._refill()
            self.draw_pile.extend(top)
        return list(reversed(self.draw_pile[-n:]))

    def equip(self, p: Player, card: Card) -> None:
        self.move(card, "equip", p)

    def change_hp(self, p: Player, delta: int) -> None:
        p.hp = min(p.hp + delta, p.max_hp)
        if self.track:
            self._record(p, delta)

    def actor(self):
        """The player acting in the innermost event that names one (its `source`), if any."""
        for f in reversed(self.stack):
            src = getattr(f.event, "source", None) if f.event is not None else None
            if isinstance(src, Player):
                return src
        return None

    def _record(self, target: Player, delta: float) -> None:
        a = self.actor()
        if a is None or a is target:
            return
        book = self.help if delta > 0 else self.harm
        key = (a.seat, target.seat)
        book[key] = book.get(key, 0.0) + abs(delta)

    def change_max_hp(self, p: Player, delta: int) -> None:
        p.max_hp += delta
        if p.hp > p.max_hp:
            p.hp = p.max_hp
        if p.max_hp <= 0 and p.alive:
            self.kill(p)

    def kill(self, p: Player) -> None:
        if not p.alive:
            return
        p.alive = False
        for inst in list(p.skills):
            self._deactivate(inst)
        p.skills = []
        self.deaths.append((self.turn_no, p))

    def check_victory(self) -> None:
        if self.mode is None:
            alive = [p for p in self.players if p.alive]
            if len(alive) <= 1:
                raise GameOver(tuple(p.identity or p.name for p in alive), "只剩一名角色")
            return
        for w in self.mode.wins:
            if w.cond(self):
                raise GameOver(w.identities, f"胜利条件达成 ({w.loc})")

    def flip(self, p: Player) -> None:
        p.flipped = not p.flipped

    def set_chained(self, p: Player, on: bool) -> None:
        p.chained = bool(on)

    def reveal_identity(self, p: Player) -> None:
        if not p.identity_shown and p.identity is not None:
            p.identity_shown = True
            self.say(p, " 的身份是 ", self.rules.enum_names.get(p.identity, p.identity))

    def add_skill(self, p: Player, skill: str) -> None:
        if not self.has_skill(p, skill):
            self.attach(p, self.rules.skills[skill])

    def remove_skill(self, p: Player, skill: str) -> None:
        self.detach(p, self.rules.skills[skill])

    def skip(self, phase: str) -> None:
        self.skipped.add(phase)
        self.say("跳过", self.rules.phase_names.get(phase, phase))

    def give_turn(self, p: Player) -> None:
        self.extra_turns.append(p)

    def start_from(self, p: Player) -> None:
        self.first = p

    def set_mark(self, p: Player, mark: str, value: int) -> None:
        if value:
            p.marks[mark] = value
        else:
            p.marks.pop(mark, None)

    def add_mark(self, p: Player, mark: str, delta: int) -> None:
        self.set_mark(p, mark, p.marks.get(mark, 0) + delta)

    # -- heroes and identities (modes)
    def deal_identities(self) -> None:
        n = len(self.players)
        rows = dict(self.mode.table) if self.mode else {}
        if n not in rows:
            raise RulesError(f"mode {self.mode.name if self.mode else '?'} has no identity row for {n} players")
        variants = rows[n]
        ids = list(variants[self.variant % len(variants)])
        self.rng.shuffle(ids)
        for p, ident in zip(self.players, ids):
            p.identity = ident
            if self.mode.lord is not None and ident == self.mode.lord:
                p.identity_shown = True

    def draw_heroes(self, n: int, exclude=(), for_lord: bool = False) -> list[str]:
        pool = [h for h in self.hero_pool if h not in self.used_heroes and h not in exclude
                and not (for_lord and self.rules.heroes[h].never_lord)]
        picked = self.rng.sample(pool, min(n, len(pool)))
        self.used_heroes.update(picked)
        return picked

    def pick_hero(self, p: Player, heroes) -> str:
        heroes = list(dict.fromkeys(heroes))
        if not heroes:
            raise RulesError("no hero to pick from")
        choice = self.decide(Request("hero", p, heroes, prompt="选择武将"))
        for h in heroes:
            if h != choice:
                self.used_heroes.discard(h)
        self.used_heroes.add(choice)
        self.set_hero(p, choice)
        return choice

    def set_hero(self, p: Player, hero: str) -> None:
        h = self.rules.heroes[hero]
        p.heroes = [h]
        p.shown = [True]
        p.max_hp = h.hp_halves // 2
        p.hp = p.max_hp
        p.kingdom = h.kingdom
        p.gender = h.gender
        for sid in h.skills:
            self.attach(p, self.rules.skills[sid])

    # ---- skills -----------------------------------------------------------------------
    def is_lord(self, p: Player) -> bool:
        return self.mode is not None and self.mode.lord is not None and p.identity == self.mode.lord

    def attach(self, p: Player, skill: SkillDef, equip: bool = False, card=None) -> None:
        if skill.lord and not self.is_lord(p):
            return  # lord skills exist only while their owner is the lord
        inst = SkillInst(skill, p, equip, card)
        p.skills.append(inst)
        for t in skill.triggers:
            for wid in t.windows:
                lst = Listener(p, skill, t, equip)
                inst.listeners.append(lst)
                self.listeners.setdefault(wid, []).append(lst)
        for m in skill.modifiers:
            rec = (p, m)
            inst.mods.append(rec)
            self.mods.setdefault(m.quantity, []).append(rec)

    def detach(self, p: Player, skill: SkillDef, card=None) -> None:
        for inst in list(p.skills):
            if inst.skill is skill and (card is None or inst.card is card):
                p.skills.remove(inst)
                self._deactivate(inst)
                return

    def _deactivate(self, inst: SkillInst) -> None:
        for lst in inst.listeners:
            lst.active = False
            for wid in lst.trigger.windows:
                entries = self.listeners.get(wid)
                if entries and lst in entries:
                    entries.remove(lst)
        for rec in inst.mods:
            self.mods[rec[1].quantity].remove(rec)

    def has_skill(self, p: Player, skill: str) -> bool:
        return any(inst.skill.id == skill for inst in p.skills)

    def add_rules(self, skill: SkillDef) -> None:
        """A mode's ownerless rule: fires by itself, before any player's skill."""
        for t in skill.triggers:
            for wid in t.windows:
                self.listeners.setdefault(wid, []).insert(0, Listener(None, skill, t, False))
        for m in skill.modifiers:
            self.mods.setdefault(m.quantity, []).append((None, m))

    # ---- quantities ---------------------------------------------------------------------
    def q(self, qid: str, *args):
        memo = self.qmemo
        if memo is not None:
            key = (qid, *args)
            v = memo.get(key, memo)
            if v is not memo:
                return v
            v = memo[key] = self._q(qid, args)
            return v
        return self._q(qid, args)

    def _q(self, qid: str, args):
        qd = self.rules.quantities[qid]
        v = qd.base(self, *args)
        mods = self.mods.get(qid)
        if mods:
            adds = 0
            for owner, m in mods:
                if owner is not None and not owner.alive:
                    continue
                ok = True
                for pat, arg in zip(m.pattern, args):
                    if pat == "self" and arg is not owner:
                        ok = False
                        break
                if not ok or (m.when is not None and not m.when(self, owner, *args)):
                    continue
                if m.op == "=":
                    v = m.value(self, owner, *args)
                elif m.op == "+=":
                    adds += m.value(self, owner, *args)
                else:
                    adds -= m.value(self, owner, *args)
            if adds:
                v += adds
        if qd.floor is not None:
            f = qd.floor(self, *args)
            if v < f:
                v = f
        return v

    # ---- seats ------------------------------------------------------------------------
    def next_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat + i) % n]
            if q.alive:
                return q
        return p

    def prev_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat - i) % n]
            if q.alive:
                return q
        return p

    def alive_from(self, p: Player) -> list[Player]:
        n = len(self.players)
        return [q for i in range(n) if (q := self.players[(p.seat + i) % n]).alive]

    def alive_from_current(self) -> list[Player]:
        """Seat order from the player whose turn it is; between turns, from the next one."""
        start = self.current
        if start is None:
            start = self.next_alive(self.last_turn) if getattr(self, "last_turn", None) else self.players[0]
        return self.alive_from(start)

    def others(self, p: Player) -> list[Player]:
        return [q for q in self.alive_from(p) if q is not p]

    def seat_distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        alive = [p for p in self.players if p.alive]
        if a not in alive or b not in alive:
            return INF
        i, j = alive.index(a), alive.index(b)
        d = abs(i - j)
        return min(d, len(alive) - d)

    def random_of(self, xs):
        return xs[self.rng.randrange(len(xs))] if xs else None

    def ongoing(self, event_type: str):
        for f in reversed(self.stack):
            if f.event is not None and getattr(f.event, "TYPE", None) == event_type:
                return f.event
        return None

    def seat_of(self, hero: str) -> Player:
        for p in self.players:
            if any(h.id == hero for h in p.heroes):
                return p
        raise RulesError(f"no seat plays {hero}")

    def player_name(self, p: Player) -> str:
        if not p.heroes:
            return f"座位{p.seat + 1}"
        return "/".join(h.name for h in p.heroes)

    # ---- the stack, windows and flows -----------------------------------------------------
    def push(self, kind: str, name: str, event=None, loc: str | None = None, ident: str | None = None) -> Frame:
        self.next_eid += 1
        f = Frame(self.next_eid, self.stack[-1].eid if self.stack else 0, kind, name, event, loc, ident)
        self.stack.append(f)
        if event is not None and kind == "flow":
            event.eid, event.parent = f.eid, f.parent
        if self.log is not None:
            self.log.frame(self, f)
        return f

    def pop(self) -> None:
        self.stack.pop()

    def _note_crash(self) -> None:
        """Keep the stack as it was where the rules broke (the frames are popped on the way out)."""
        if self.crash_stack is None:
            self.crash_stack = [f.describe() for f in self.stack]

    def new_event(self, etype: str, **fields):
        return self.rules.events[etype].cls(**fields)

    def call_flow(self, fid: str, **fields):
        fd = self.rules.flows[fid]
        return self.run_flow(fid, self.rules.events[fd.event].cls(**fields))

    def run_flow(self, fid: str, ev):
        fd = self.rules.flows[fid]
        self.push("flow", fd.name, ev, fd.loc)
        try:
            fd.fn(self, ev)
        except (GameOver, Abort):
            raise
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()
        return getattr(ev, fd.result) if fd.result is not None else ev

    def open(self, wid: str, ev) -> bool:
        if self.log is not None and self.log.windows:
            self.log.window(self, self.rules.windows[wid])
        lst = self.listeners.get(wid)
        if lst:
            self._trigger(wid, ev, lst)
        return ev.cancelled

    def _trigger(self, wid: str, ev, lst: list[Listener]) -> None:
        self.windows_open.append(wid)  # for the log: the window a skill fires in
        try:
            self._trigger_at(wid, ev, lst)
        finally:
            self.windows_open.pop()

    def _trigger_at(self, wid: str, ev, lst: list[Listener]) -> None:
        w = self.rules.windows[wid]
        subject = getattr(ev, w.subject) if w.subject else None
        for L in list(lst):
            if L.owner is None and L.active and self._ready(L, ev):
                self._fire(L, ev)
        if w.subject is not None and not any(L.trigger.any for L in lst):
            order = [subject] if subject is not None and subject.alive else []
        else:
            order = self.alive_from_current()
        for p in order:
            mine = [L for L in lst if L.owner is p and (w.subject is None or L.trigger.any or subject is p)]
            if mine:
                self._settle(p, mine, ev)

    def _settle(self, p: Player, mine: list[Listener], ev) -> None:
        """One player's simultaneous skills: hero before equipment, the player orders the rest."""
        done: list[Listener] = []
        while p.alive:
            ready = [L for L in mine if L not in done and L.active and self._ready(L, ev)]
            if not ready:
                return
            group = [L for L in ready if not L.equip] or ready
            if len(group) == 1:
                pick = group[0]
                if not pick.trigger.forced and not self.decide(
                        Request("confirm", p, [True, False], prompt=f"发动【{pick.skill.name}】？", context=pick)):
                    done.append(pick)  # who declines is not asked again in this settlement
                    continue
            else:
                can_pass = not any(L.trigger.forced for L in group)
                pick = self.decide(Request("skill", p, group, lo=0 if can_pass else 1, prompt="选择发动的技能"))
                if pick is None:
                    done.extend(L for L in group if not L.trigger.forced)
                    continue
            done.append(pick)
            self._fire(pick, ev)

    def _ready(self, L: Listener, ev) -> bool:
        t = L.trigger
        if t.limit is not None and self.used(L.owner, L.skill.id, t.index, t.limit.scope) >= \
                t.limit.count(self, L.owner):
            return False
        return t.when is None or bool(t.when(self, L.owner, ev))

    def used(self, p, skill: str, index: int, scope: str) -> int:
        return p.marks.get(f"#{scope}:{skill}:{index}", 0) if p is not None else 0

    def _use_limit(self, p, skill: str, index: int, scope: str, delta: int) -> None:
        if p is not None:
            key = f"#{scope}:{skill}:{index}"
            p.marks[key] = p.marks.get(key, 0) + delta

    def _fire(self, L: Listener, ev) -> None:
        t = L.trigger
        if L.owner is not None:
            self.say(L.owner, " 发动 【", L.skill.name, "】", loc=t.loc)
        if t.limit is not None:
            self._use_limit(L.owner, L.skill.id, t.index, t.limit.scope, 1)
        self.push("skill", L.skill.name, ev, t.loc, L.skill.id)
        try:
            t.run(self, L.owner, ev)
        except Abort:
            self.say(L.owner, " 取消了 【", L.skill.name, "】")
            if t.limit is not None:
                self._use_limit(L.owner, L.skill.id, t.index, t.limit.scope, -1)
        except GameOver:
            raise
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()

    def loop_guard(self) -> bool:
        self.loops += 1
        if self.loops > LOOP_LIMIT:
            raise RulesError("a `while` loop of the rules runs away (no progress after many rounds)")
        return True

    # ---- turns and phases ------------------------------------------------------------------
    def begin_phase(self, phase: str) -> bool:
        turn = self.turn_event
        if turn is None or not turn.player.alive:
            return False
        if phase in self.skipped:
            self.skipped.discard(phase)
            return False
        if self.start_phase is not None:
            order = self.rules.phase_order
            if phase in order and self.start_phase in order and order.index(phase) < order.index(self.start_phase):
                return False
            self.start_phase = None
        self.phase = phase
        self._reset("phase")
        if self.log is not None:
            self.log.phase(self)
        return True

    def _reset(self, scope: str) -> None:
        names = self.rules.scoped_counters[scope]
        prefix = f"#{scope}:"
        for p in self.players:
            if p.marks:
                for k in [k for k in p.marks if k.startswith(prefix) or k in names]:
                    del p.marks[k]

    def play_turn(self, p: Player) -> None:
        self.turn_no += 1
        self.loops = 0  # the runaway-loop guard counts `while` rounds within one turn
        self.current = p
        self.phase = None
        self.skipped = set()
        self._reset("turn")
        self._reset("phase")
        self.turn_event = self.ev_turn_cls(player=p)
        if self.log is not None:
            self.log.turn(self, p)
        try:
            self.run_flow(self.flow_turn.id, self.turn_event)
        finally:
            self.last_turn = p
            self.current = None
            self.phase = None
            self.turn_event = None
        if self.check_invariants and self.stack:
            raise RulesError("the event stack is not empty between turns")

    def run(self) -> GameOver:
        """Play until a win condition, the turn cap, or an exhausted deck."""
        try:
            if self.mode is not None:
                for rule in self.mode.rules:
                    self.add_rules(rule)
                if self.mode.setup is not None:
                    self.push("setup", self.mode.name, None, self.mode.loc)
                    self.mode.setup(self)
                    self.stack.pop()
            p = self.first or self.players[0]
            self.last_turn = None
            while True:
                if self.turn_no >= self.turn_cap:
                    raise GameOver((), f"达到{self.turn_cap}回合上限，平局")
                self.play_turn(p)
                if self.extra_turns:
                    p = self.extra_turns.pop(0)
                    if not p.alive:
                        p = self.next_alive(p)
                else:
                    p = self.next_alive(p)
        except GameOver as over:
            self.over = True
            self.winners = over.winners
            self.end_reason = over.reason
            self.stack.clear()
            if self.log is not None:
                self.log.end(self, over)
            return over

    # ---- decisions --------------------------------------------------------------------------
    def decide(self, req: Request):
        if not req.player.alive and req.kind != "hero":
            raise RulesError("a dead player was asked to decide")
        answer = self.agents[req.player.seat].decide(self, req)
        if req.kind in ("cards", "players"):
            ids = {id(o) for o in req.options}
            if not (req.lo <= len(answer) <= req.hi and len({id(a) for a in answer}) == len(answer)
                    and all(id(a) in ids for a in answer)):
                raise RulesError(f"agent {type(self.agents[req.player.seat]).__name__} answered a {req.kind} request "
                                 f"({req.lo}..{req.hi} of {len(req.options)}) with {len(answer)} choice(s)")
        return answer

    def ask(self, p: Player, prompt: str) -> bool:
        return bool(self.decide(Request("confirm", p, [True, False], prompt=prompt)))

    def choose_cards(self, p: Player, cards, lo: int, hi: int | None, prompt: str = "") -> list[Card]:
        cards = list(cards)
        hi = min(lo if hi is None else hi, len(cards))
        if len(cards) < lo:
            raise Abort(f"not enough cards to choose {lo}")
        if hi == 0:
            return []
        return self.decide(Request("cards", p, cards, lo=lo, hi=hi, prompt=prompt))

    def choose_card(self, p: Player, cards, prompt: str = "") -> Card:
        return self.choose_cards(p, cards, 1, 1, prompt)[0]

    def choose_players(self, p: Player, players, lo: int, hi: int | None, prompt: str = "") -> list[Player]:
        players = list(players)
        hi = min(lo if hi is None else hi, len(players))
        if len(players) < lo:
            raise Abort(f"not enough players to choose {lo}")
        if hi == 0:
            return []
        return self.decide(Request("players", p, players, lo=lo, hi=hi, prompt=prompt))

    def choose_player(self, p: Player, players, prompt: str = "") -> Player:
        return self.choose_players(p, players, 1, 1, prompt)[0]

    def choose_option(self, p: Player, options, prompt: str = "") -> str:
        options = list(options)
        if not options:
            raise Abort("no option")
        return self.decide(Request("option", p, options, prompt=prompt))

    # ---- using cards -----------------------------------------------------------------------
    def targetable(self, user: Player, target: Player, card: Card) -> bool:
        return self.q_targetable is None or self.q(self.q_targetable.id, user, target, card)

    def target_candidates(self, p: Player, card: Card) -> list[Player]:
        return list(self._candidates(p, card))

    def _candidates(self, p: Player, card: Card):
        t = card.cdef.target
        if t is None:
            if card.cdef.kind == "equipment":
                yield p
            return
        where = t.where
        for q in ((p,) if t.kind == "self" else self.alive_from_current()):
            if (where is None or where(self, p, card, q)) and self.targetable(p, q, card):
                yield q

    def target_count(self, p: Player, card: Card) -> tuple[int, int]:
        t = card.cdef.target
        if t is None or t.kind != "some":
            return (1, 1)
        return t.count(self, p, card)

    def may_use(self, p: Player, card: Card) -> bool:
        return self.q_usable is None or self.q(self.q_usable.id, p, card)

    def usable(self, p: Player, card: Card) -> bool:
        cd = card.cdef
        if not self.may_use(p, card):
            return False
        if cd.kind == "equipment":
            return True
        if cd.target is None:
            return False
        if cd.limit is not None and self.used(p, cd.id, -1, cd.limit.scope) >= cd.limit.count(self, p, card):
            return False
        need = self.target_count(p, card)[0] if cd.target.kind == "some" else 1
        found = 0
        for _ in self._candidates(p, card):  # stop at the first `need` legal targets
            found += 1
            if found >= need:
                return True
        return need <= 0

    def viewas_of(self, p: Player, how: str | None = None, pattern: str | None = None):
        out = []
        for inst in p.skills:
            for v in inst.skill.viewas:
                if pattern is not None and v.card != pattern:
                    continue
                if how is not None and v.mode is not None and v.mode != how:
                    continue
                if v.when is not None and not v.when(self, p):
                    continue
                src = [c for c in (p.hand if v.hand_only else p.cards) if v.where is None or v.where(self, p, c)]
                if len(src) >= v.count:
                    out.append((inst, v, src))
        return out

    def actions(self, p: Player) -> list:
        """Everything p may do now in the play phase, besides ending it."""
        acts = []
        for c in p.hand:
            if self.usable(p, c):
                acts.append(("card", c))
        for inst, v, src in self.viewas_of(p, "use"):
            probe = self.virtual(v.card, src[:v.count], inst.skill)
            if self.usable(p, probe):
                acts.append(("viewas", (inst, v, src)))
        for inst in p.skills:
            for a in inst.skill.actives:
                if a.limit is not None and self.used(p, inst.skill.id, a.index, a.limit.scope) >= \
                        a.limit.count(self, p):
                    continue
                if a.when is not None and not a.when(self, p):
                    continue
                if a.target is not None and a.target.kind == "some":
                    cands = [q for q in self.alive_from_current() if a.target.where is None
                             or a.target.where(self, p, q)]
                    if len(cands) < a.target.count(self, p)[0]:
                        continue
                acts.append(("active", (inst, a)))
        acts.extend(self._suppliable(p))
        return acts

    def _suppliable(self, p: Player) -> list:
        """Cards p could use because a skill of theirs would supply one when asked (激将: 「当你需要使用一张
        【杀】时」): each such skill's `when` is probed with a hypothetical request, which has no effect."""
        if self.win_need is None:
            return []
        acts = []
        for L in self.listeners.get(self.win_need.id, ()):
            if L.owner is not p or not L.active:
                continue
            for cd in self.rules.cards.values():
                if cd.target is None or cd.kind == "equipment":
                    continue
                if self._ready(L, self.ev_need_cls(who=p, pattern=cd.id, how="use")) and \
                        self.usable(p, self.virtual(cd.id)):
                    acts.append(("supply", (L, cd.id)))
        return acts

    @staticmethod
    def _action_key(act) -> tuple:
        kind, what = act
        if kind == "card":
            return (kind, what.uid)
        if kind == "supply":
            return (kind, what[0].skill.id, what[0].trigger.index, what[1])
        return (kind, what[0].skill.id, what[1].index)

    def play_phase(self, p: Player) -> None:
        refused: set[tuple] = set()  # actions that turned out unusable once chosen: not offered again
        while p.alive and not self.over:
            # Listing the legal actions and letting the agent weigh them changes nothing: quantities
            # (distance, range, legal targets) are memoized until an action is carried out.
            self.qmemo = {}
            try:
                acts = [a for a in self.actions(p) if self._action_key(a) not in refused]
                act = self.decide(Request("play", p, acts, lo=0, prompt="出牌阶段")) if acts else None
            finally:
                self.qmemo = None
            if act is None:
                return
            if act is None:
                return
            kind, what = act
            if kind == "card":
                if not self.use_from_hand(p, what):
                    refused.add(self._action_key(act))
            elif kind == "viewas":
                inst, v, src = what
                try:
                    sub = self.choose_cards(p, src, v.count, v.count, f"【{inst.skill.name}】")
                except Abort:
                    refused.add(self._action_key(act))
                    continue
                card = self.virtual(v.card, sub, inst.skill)
                with self.set_aside(sub):
                    ok = self.usable(p, card)
                if not ok:
                    refused.add(self._action_key(act))
                    continue
                self.say(p, " 发动 【", inst.skill.name, "】", loc=v.loc)
                self.use_from_hand(p, card)
            elif kind == "supply":
                if not self.use_supplied(p, *what):
                    refused.add(self._action_key(act))
            else:
                inst, a = what
                self.activate(p, inst, a)
            if self.check_invariants:
                self.verify()

    def pick_targets(self, p: Player, card: Card):
        """The targets of a card about to be used in the play phase, or None if it is not usable."""
        with self.set_aside(card.subcards if card.uid < 0 else ()):
            # cards converted into this one already count as used: a horse or weapon turned into a 杀
            # no longer lends its distance or range while the targets are chosen
            if not self.usable(p, card):
                return None
            cd = card.cdef
            if cd.kind == "equipment":
                return [p]
            if cd.target.kind in ("self", "all"):
                return self.target_candidates(p, card)
            lo, hi = self.target_count(p, card)
            return self.choose_players(p, self.target_candidates(p, card), lo, hi, f"{cd.name}的目标")

    def use_from_hand(self, p: Player, card: Card) -> bool:
        targets = self.pick_targets(p, card)
        if targets is None:
            return False
        self._count_use(p, card)
        self.use_card(p, card, targets)
        return True

    def _count_use(self, p: Player, card: Card) -> None:
        if card.cdef.limit is not None:
            self._use_limit(p, card.cdef.id, -1, card.cdef.limit.scope, 1)

    def use_supplied(self, p: Player, L: Listener, card_id: str) -> bool:
        """Declare the use, choose its targets, then let the skill try to supply the card."""
        targets = self.pick_targets(p, self.virtual(card_id))
        if targets is None:
            return False
        ev = self.ev_need_cls(who=p, pattern=card_id, how="use")
        self._fire(L, ev)
        if ev.card is None:
            self.say(p, " 未能得到【", self.rules.cards[card_id].name, "】")
            return False
        self._count_use(p, ev.card)
        self.use_card(p, ev.card, targets)
        return True

    @contextlib.contextmanager
    def set_aside(self, cards):
        """Equipment among `cards` stops counting (slot and modifiers) for the duration."""
        gone = []
        for c in cards:
            if c._zone == "equip" and c._owner is not None and c._owner.equip.get(c.cdef.slot) is c:
                owner = c._owner
                insts = [i for i in owner.skills if i.card is c]
                del owner.equip[c.cdef.slot]
                for inst in insts:
                    for rec in inst.mods:
                        self.mods[rec[1].quantity].remove(rec)
                gone.append((c, owner, insts))
        try:
            yield
        finally:
            for c, owner, insts in reversed(gone):
                owner.equip[c.cdef.slot] = c
                for inst in insts:
                    for rec in inst.mods:
                        self.mods[rec[1].quantity].append(rec)

    def use_card(self, p: Player, card: Card, targets) -> None:
        ev = self.ev_use_cls(source=p, card=card, targets=list(targets))
        self.run_flow(self.flow_use.id, ev)

    def activate(self, p: Player, inst: SkillInst, a) -> None:
        if a.limit is not None:
            self._use_limit(p, inst.skill.id, a.index, a.limit.scope, 1)
        self.say(p, " 发动 【", inst.skill.name, "】", loc=a.loc)
        self.push("skill", inst.skill.name, None, a.loc, inst.skill.id)
        try:
            a.run(self, p)
        except Abort:
            if a.limit is not None:
                self._use_limit(p, inst.skill.id, a.index, a.limit.scope, -1)
        except GameOver:
            raise
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()

    def ask_card(self, p: Player, pattern: str, how: str = "use", prompt: str = ""):
        """Ask p for a card named `pattern` from hand or through a view-as skill; None if declined."""
        if not p.alive:
            return None
        cards = [c for c in p.hand if c.cdef.id == pattern and (how != "use" or self.may_use(p, c))]
        views = self.viewas_of(p, how, pattern)
        if how == "use" and views and not self.may_use(p, self.virtual(pattern)):
            views = []
        if not cards and not views:
            return None
        opts = cards + [("viewas", x) for x in views]
        choice = self.decide(Request("respond", p, opts, lo=0, prompt=prompt or self.rules.cards[pattern].name,
                                     context=pattern))
        if choice is None:
            return None
        if isinstance(choice, Card):
            return choice
        inst, v, src = choice[1]
        try:
            sub = self.choose_cards(p, src, v.count, v.count, f"【{inst.skill.name}】")
        except Abort:
            return None
        self.say(p, " 发动 【", inst.skill.name, "】", loc=v.loc)
        return self.virtual(v.card, sub, inst.skill)

    def card_effect(self, card: Card, aim) -> None:
        fn = card.cdef.effect
        if fn is not None:
            self.push("effect", card.cdef.name, aim, card.cdef.loc, card.cdef.id)
            try:
                fn(self, aim.source, aim, card)
            except Abort:
                pass  # a choice with nothing to choose from: the rest of the effect cannot happen
            except GameOver:
                raise
            except Exception:
                self._note_crash()
                raise
            finally:
                self.stack.pop()

    def card_before(self, card: Card, use) -> None:
        if card.cdef.before is not None:
            card.cdef.before(self, use.source, use, card)

    def card_after(self, card: Card, use) -> None:
        if card.cdef.after is not None:
            card.cdef.after(self, use.source, use, card)

    # ---- log -------------------------------------------------------------------------------
    def say(self, *parts, loc: str | None = None) -> None:
        if self.log is not None:
            self.log.say(self, parts, loc)

    # ---- invariants -------------------------------------------------------------------------
    def verify(self) -> None:
        from .invariants import check

        check(self)


def _as_list(x) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]
