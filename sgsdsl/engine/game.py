"""The interpreter: an event stack that runs the flows the rules declare.

It opens windows, finds their triggers through the compiled trigger tables,
orders them by seed 001's settlement principles, asks agents for every
decision and applies a fixed set of primitive actions. It knows no card,
skill or hero by name: everything it needs it reads from the ruleset, and
the few hooks it calls (the turn flow, the use flow …) are engine roles that
the rules bind.
"""

from __future__ import annotations

import random

from .inplay import Listener, SkillInst
from .invariants import acting
from .log import GameLog
from .play import Play
from .primitives import Primitives
from .requests import Abort, GameOver, Request
from .ruleset import RulesError, Ruleset
from .runaway import RunLimits, recursion, too_deep, too_long
from .state import Card, Player
from .tables import INF, ModeDef, SkillDef
from .zones import Zones

__all__ = ["Game", "GameOver", "Listener", "SkillInst", "Frame"]


class Frame:
    __slots__ = ("eid", "parent", "kind", "name", "event", "loc", "ident")

    def __init__(self, eid, parent, kind, name, event, loc, ident=None):
        self.eid, self.parent, self.kind, self.name, self.event, self.loc = eid, parent, kind, name, event, loc
        self.ident = ident  # the skill or card id, for agents that read the stack

    def describe(self) -> str:
        return f"#{self.eid} {self.kind} {self.name}" + (f" ({self.loc})" if self.loc else "")


class Game(Zones, Primitives, Play):
    def __init__(self, rules: Ruleset, *, players: int, seed: int, agents, mode: ModeDef | None = None,
                 log: GameLog | None = None, turn_cap: int = 200, invariants: bool = False,
                 hero_pool: list[str] | None = None, variant: int = 0, limits: RunLimits | None = None):
        self.rules = rules
        self.limits = limits or RunLimits()  # how far runaway rules may go before they are stopped
        self.limits.allow_recursion()
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

    # ---- the public record of who harmed or helped whom (for agents) -------------------
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
        if len(self.stack) >= self.limits.depth:
            raise too_deep(self)
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
        except RecursionError as e:
            self._note_crash()
            raise recursion(self, e.__traceback__) from None
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
        if self.check_invariants:
            acting(self, L.owner, f"fires 【{L.skill.name}】")
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
        except RecursionError as e:
            self._note_crash()
            raise recursion(self, e.__traceback__) from None
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()

    def loop_guard(self, loc: str = "?") -> bool:
        """One round of a `while` (at `loc`, the rules file:line); the rounds of a turn are counted."""
        self.loops += 1
        if self.loops > self.limits.loop:
            raise too_long(self, loc, "while")
        return True

    def rounds(self, n, loc: str = "?"):
        """The rounds of a `repeat`, counted with the `while` rounds of the turn."""
        for i in range(n):
            self.loops += 1
            if self.loops > self.limits.loop:
                raise too_long(self, loc, "repeat")
            yield i

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
        if self.check_invariants:
            acting(self, p, "takes a turn")
        self.turn_no += 1
        self.loops = 0  # the runaway-loop guard counts `while` and `repeat` rounds within one turn
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

    # ---- log -------------------------------------------------------------------------------
    def say(self, *parts, loc: str | None = None) -> None:
        if self.log is not None:
            self.log.say(self, parts, loc)

    # ---- invariants -------------------------------------------------------------------------
    def verify(self) -> None:
        from .invariants import check

        check(self)
