"""The interpreter: an event stack that runs the flows the rules declare.

It opens windows, finds their triggers through the compiled trigger tables,
orders them by seed 001's settlement principles, asks agents for every
decision and applies a fixed set of primitive actions. It knows no card,
skill or hero by name: everything it needs it reads from the ruleset, and
the few hooks it calls (the turn flow, the use flow …) are engine roles that
the rules bind.
"""

from __future__ import annotations

import functools
import random

from .history import PLAY, USE, History
from .inplay import Listener, SkillInst
from .invariants import acting, hidden
from .log import GameLog
from .play import Play
from .primitives import Primitives
from .relations import Relations
from .requests import Abort, GameOver, PhaseEnd, Request, TurnEnd, Unwind
from .ruleset import RulesError, Ruleset
from .runaway import RunLimits, recursion, too_deep, too_long
from .state import Card, Lens, Player
from .tables import INF, ModeDef, SkillDef
from .view import SeatView, answer_of
from .zones import Zones

__all__ = ["Game", "GameOver", "Listener", "SkillInst", "Frame"]


class Frame:
    __slots__ = ("eid", "parent", "kind", "name", "event", "loc", "ident", "owner")

    def __init__(self, eid, parent, kind, name, event, loc, ident=None, owner=None):
        self.eid, self.parent, self.kind, self.name, self.event, self.loc = eid, parent, kind, name, event, loc
        self.ident = ident  # the skill or card id, for agents that read the stack
        self.owner = owner  # whose skill it is

    def describe(self) -> str:
        return f"#{self.eid} {self.kind} {self.name}" + (f" ({self.loc})" if self.loc else "")


def _modified(qid: str, g, *args):
    """A quantity a modifier may change now (or with a floor): added up by Game._q, and memoized while the play
    phase lists the legal actions (quantities do not change meanwhile)."""
    memo = g.qmemo
    if memo is None:
        return g._q(qid, args)
    key = (qid, *args)
    v = memo.get(key, memo)
    if v is memo:
        v = memo[key] = g._q(qid, args)
    return v


_MODIFIED: dict[str, functools.partial] = {}


def _modified_of(qid: str):
    f = _MODIFIED.get(qid)
    if f is None:
        f = _MODIFIED[qid] = functools.partial(_modified, qid)
    return f


class _Every:
    """Contains every window."""

    def __contains__(self, wid) -> bool:
        return True


_EVERY = _Every()


def _self_params(m) -> tuple[int, ...]:
    """Where a modifier's pattern says `self`: the arguments that must be its owner."""
    return tuple(i for i, pat in enumerate(m.pattern) if pat == "self")


class Game(Zones, Primitives, Play, History, Relations):
    def __init__(self, rules: Ruleset, *, players: int, seed: int, agents, mode: ModeDef | None = None,
                 log: GameLog | None = None, turn_cap: int = 200, invariants: bool = False,
                 hero_pool: list[str] | None = None, variant: int = 0, limits: RunLimits | None = None):
        self.rules = rules
        self.quantities = rules.quantities
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
        self.alive_changed()
        self.agents = agents
        self.draw_pile: list[Card] = []  # the top is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.removed: list[Card] = []  # 移出游戏: out of play, owned by nobody
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
        # The windows generated code opens (`wid in g.watched`): those with triggers, or all when the log traces them.
        self.watched = _EVERY if log is not None and log.windows else self.listeners
        self.shared_actives: list = []
        self.shared_viewas: list = []  # ownerless rules' conversions, open to every player (鏖战: 桃当杀或闪)
        self.lent_skills: list = []
        self.phase_bodies: dict = {}  # phase -> the turn flow's function for it (extra_phase runs it again)
        self.dead_asked: Player | None = None  # the dead player a 死亡时-style window is asking
        self.later_fns: list = []  # `later` blocks waiting for the settlement under way to complete
        self.turns_of: dict[int, int] = {}  # seat -> turns begun
        self.turn_limit = 0  # a mode's time limit in turns (0: none); rules read turn_limit()
        self.options: dict[str, object] = {}  # the mode's options this game changes (simulate --option)
        self._fmt = None  # formats interpolated prompts (text())  # (scope, player, skill id): skills gained until a phase or turn ends  # (skill instance, active) that let other players act (`active by`)
        self.mods: dict[str, list] = {}
        self.qmemo: dict | None = None
        # qid -> how to read it now, f(g, *args): its base when no modifier is on it and it has no floor (the
        # value is the base's), else _modified. Generated code calls g.qf[qid](g, …); kept up to date by add_mod.
        self.qf: dict = {}
        self._quantities_changed()
        self.windows_open: list[str] = []
        self.winners: tuple[str, ...] | None = None
        self.won_seats: frozenset[int] | None = None  # who won, when not all of the winning identities did
        self.end_reason = ""
        self.over = False
        self.loops = 0
        self.hero_pool: list[str] = list(hero_pool or [])
        self.variant = variant  # which row of the mode's identity table when it has variants
        self.used_heroes: set[str] = set()
        # A scenario test that runs the mode's setup fixes each seat's identity and hero (scenario.py).
        self.fixed_identities: list[str] | None = None
        self.fixed_heroes: dict[int, str] = {}
        self.deaths: list[tuple[int, Player]] = []
        self.flow_use = rules.role("use")
        self.flow_turn = rules.role("turn")
        self.ev_aim = rules.role("aim")
        self.win_moved = rules.role("moved")
        self.win_need = rules.role("need_card")
        self.q_targetable = rules.role("targetable")
        self.q_usable = rules.role("usable")
        self.q_playable = rules.role("playable")
        self.q_discardable = rules.role("discardable")
        self.q_recastable = rules.role("recastable")
        if self.flow_use is None or self.flow_turn is None:
            raise RulesError("the rules bind no `turn` or `use` flow (core rules missing?)")
        self.ev_use_cls = rules.events[self.flow_use.event].cls
        self.ev_turn_cls = rules.events[self.flow_turn.event].cls
        self.ev_move_cls = rules.events[self.win_moved.event].cls if self.win_moved else None
        self.ev_need_cls = rules.events[self.win_need.event].cls if self.win_need else None
        self.uid = 0
        self.observer = None  # notified at a few points (see skillstats.py); None costs one test per point
        self.crash_stack: list[str] | None = None
        # Public record of who harmed or helped whom, for agents that infer allegiances.
        self.track = any(getattr(a, "tracks", False) for a in agents)
        self.harm: dict[tuple[int, int], float] = {}
        self.help: dict[tuple[int, int], float] = {}
        self.lens = Lens(self)  # the card filters (视为) in play
        self.views: dict[int, SeatView] = {}  # what each seat may know: the only thing agents see
        self._history_init()
        # events whose settlement the history records (engine roles; absent roles record nothing)
        role_event = {r: (rules.role(r).event if rules.role(r) is not None else None)
                      for r in ("damage", "recover", "die")}
        self.ev_damage, self.ev_recover, self.ev_death = role_event["damage"], role_event["recover"], role_event["die"]
        self.flow_play = rules.role("play")
        self.flow_reveal = rules.role("reveal")
        self.flow_recast = rules.role("recast")
        self.flow_conduct = rules.role("conduct")
        for rule in rules.rules:  # the packages' own rules hold at every table (a mode's join at its setup)
            self.add_rules(rule)

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

    def current_lord(self) -> Player | None:
        """当前主公: the living player who holds the mode's `lord` identity, if any."""
        return next((p for p in self.players if p.alive and self.is_lord(p)), None)

    def attach(self, p: Player, skill: SkillDef, equip: bool = False, card=None, gained: bool = False,
               slot: int | None = None) -> None:
        if skill.lord and not gained and not self.is_lord(p):
            return  # a hero's lord skills exist only while its owner is the lord; one gained (若愚) is held
        inst = SkillInst(skill, p, equip, card, slot)
        p.skills.append(inst)
        for t in skill.triggers:
            for wid in t.windows:
                lst = Listener(p, skill, t, equip, inst)
                inst.listeners.append(lst)
                self.listeners.setdefault(wid, []).append(lst)
        for m in skill.modifiers:
            rec = (p, m, inst, _self_params(m))
            inst.mods.append(rec)
            self.add_mod(rec)
        for a in skill.actives:
            if a.by is not None:
                self.shared_actives.append((inst, a))
        for f in skill.filters:
            self.lens.filters.append((p, f, inst))

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
            self.drop_mod(rec)
        self.shared_actives = [x for x in self.shared_actives if x[0] is not inst]
        if inst.skill.filters:
            self.lens.filters = [x for x in self.lens.filters if x[2] is not inst]

    def has_skill(self, p: Player, skill: str) -> bool:
        return any(inst.skill.id == skill for inst in p.skills)

    def add_rules(self, skill: SkillDef) -> None:
        """A package's or a mode's ownerless rule: fires by itself, before any player's skill; its `active by` facets are
        actions the players it names may take in their play phase (国战's marks, 连横), and its `viewas` facets
        conversions every player may make (鏖战)."""
        inst = SkillInst(skill, None, False)
        for t in skill.triggers:
            for wid in t.windows:
                lst = self.listeners.setdefault(wid, [])
                ahead = sum(1 for L in lst if L.owner is None)  # mode rules first, in the order written
                lst.insert(ahead, Listener(None, skill, t, False, inst))
        for m in skill.modifiers:
            self.add_mod((None, m, None, _self_params(m)))
        for a in skill.actives:
            if a.by is not None:
                self.shared_actives.append((inst, a))
        if skill.viewas:
            self.shared_viewas.append(inst)

    # ---- quantities ---------------------------------------------------------------------
    def add_mod(self, rec) -> None:
        """A modifier (owner, ModifierDef, instance, self params) takes part in its quantity, after those there."""
        self.mods.setdefault(rec[1].quantity, []).append(rec)
        self._quantity_changed(rec[1].quantity)

    def drop_mod(self, rec) -> None:
        self.mods[rec[1].quantity].remove(rec)
        self._quantity_changed(rec[1].quantity)

    def _quantities_changed(self) -> None:
        for qid in self.quantities:
            self._quantity_changed(qid)

    def _quantity_changed(self, qid: str) -> None:
        qd = self.quantities.get(qid)
        if qd is None:
            return  # a modifier of no quantity these rules declare: nothing reads it
        self.qf[qid] = qd.base if qd.floor is None and not self.mods.get(qid) else _modified_of(qid)

    def plain(self, qd) -> bool:
        """Is this quantity's value its base's now (no modifier on it, no floor)?"""
        return self.qf[qd.id] is qd.base

    def q(self, qid: str, *args):
        return self.qf[qid](self, *args)

    def _q(self, qid: str, args):
        qd = self.quantities[qid]
        v = qd.base(self, *args)
        mods = self.mods.get(qid)
        if mods:
            adds = 0
            n = len(args)
            for owner, m, inst, mine in mods:
                if owner is not None and (not owner.alive or (inst.slot is not None and not owner.shown[inst.slot])):
                    continue  # the dead, and face-down heroes, have no status skills in effect
                if mine:
                    other = False
                    for i in mine:
                        if i < n and args[i] is not owner:
                            other = True  # a `self` in the pattern names another player
                            break
                    if other:
                        continue
                if m.when is not None and not m.when(self, owner, *args):
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

    def alive_changed(self) -> None:
        """A player died or came back: the seat orders and distances are read afresh (every change of
        `Player.alive` calls this)."""
        self._rings = {}
        self._alive = None

    def alive_from(self, p: Player) -> list[Player]:
        return list(self.ring(p))

    def ring(self, p: Player) -> tuple[Player, ...]:
        """The living players in seat order from p (p first when alive), as a tuple to read, not to change."""
        ring = self._rings.get(p.seat)
        if ring is None:
            n = len(self.players)
            ring = self._rings[p.seat] = tuple(q for i in range(n) if (q := self.players[(p.seat + i) % n]).alive)
        return ring

    def alive_from_current(self) -> list[Player]:
        """Seat order from the player whose turn it is; between turns, from the next one."""
        return list(self.ring_current())

    def ring_current(self) -> tuple[Player, ...]:
        start = self.current
        if start is None:
            start = self.next_alive(self.last_turn) if getattr(self, "last_turn", None) else self.players[0]
        return self.ring(start)

    def others(self, p: Player) -> list[Player]:
        return [q for q in self.alive_from(p) if q is not p]

    def seat_distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        alive = self._alive
        if alive is None:
            alive = self._alive = {p: i for i, p in enumerate(q for q in self.players if q.alive)}
        i, j = alive.get(a), alive.get(b)
        if i is None or j is None:
            return INF
        d = abs(i - j)
        return min(d, len(alive) - d)

    def random_of(self, xs):
        return xs[self.rng.randrange(len(xs))] if xs else None

    def settling(self):
        """The event of the innermost flow being settled (None outside flows)."""
        for f in reversed(self.stack):
            if f.kind == "flow":
                return f.event
        return None

    def ongoing(self, event_type: str):
        for f in reversed(self.stack):
            if f.event is not None and getattr(f.event, "TYPE", None) == event_type:
                return f.event
        return None

    def option(self, oid: str):
        if oid in self.options:
            return self.options[oid]
        return next(d for i, _, d, _ in self.mode.options if i == oid)

    def seat_of(self, hero: str) -> Player:
        """The seat a hero plays in: in play, fallen or in reserve (a test names a 1v1 seat by any of them)."""
        for p in self.players:
            if any(h.id == hero for h in p.heroes):
                return p
        for p in self.players:
            if hero in p.fallen or hero in p.reserve or self.fixed_heroes.get(p.seat) == hero:
                return p
        raise RulesError(f"no seat plays {hero}")

    def player_name(self, p: Player) -> str:
        """The name the table knows: the face-up heroes (a log is public; face-down heroes stay hidden)."""
        names = [h.name for h, up in zip(p.heroes, p.shown) if up]
        return "/".join(names) if names else f"座位{p.seat + 1}"

    # ---- the stack, windows and flows -----------------------------------------------------
    def push(self, kind: str, name: str, event=None, loc: str | None = None, ident: str | None = None,
             owner=None) -> Frame:
        if len(self.stack) >= self.limits.depth:
            raise too_deep(self)
        self.next_eid += 1
        f = Frame(self.next_eid, self.stack[-1].eid if self.stack else 0, kind, name, event, loc, ident, owner)
        self.stack.append(f)
        if event is not None and kind == "flow":
            event.eid, event.parent = f.eid, f.parent
        if self.log is not None:
            self.log.frame(self, f)
        if self.observer is not None:
            self.observer.on_frame(self, f)
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
        if fd is self.flow_use:
            self.remember(USE, ev.source, cards=[ev.card])
        elif fd is self.flow_play:
            self.remember(PLAY, ev.who, cards=[ev.card])
        self.push("flow", fd.name, ev, fd.loc)
        try:
            fd.fn(self, ev)
        except (GameOver, Abort, Unwind):
            raise
        except RecursionError as e:
            self._note_crash()
            raise recursion(self, e.__traceback__) from None
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()
            if self.observer is not None:
                self.observer.on_flow_end(self, ev)
        if self.flow_conduct is not None and getattr(ev, "conduct", False) and fd is not self.flow_conduct:
            ev.conduct = False
            self.run_flow(self.flow_conduct.id, ev)  # the damage settled: now its conduction (连环)
        if self.later_fns:  # only on the way out of a settlement that completed, never while unwinding
            self.run_later()
        return getattr(ev, fd.result) if fd.result is not None else ev

    def open(self, wid: str, ev) -> bool:
        log = self.log
        if log is not None and log.windows:
            log.window(self, self.rules.windows[wid])
        lst = self.listeners.get(wid)
        if lst:
            self.windows_open.append(wid)  # for the log: the window a skill fires in
            try:
                self._trigger_at(wid, ev, lst)
            finally:
                self.windows_open.pop()
        return ev.cancelled

    def _trigger_at(self, wid: str, ev, lst: list[Listener]) -> None:
        w = self.rules.windows[wid]
        subject = getattr(ev, w.subject) if w.subject else None
        if lst[0].owner is None:  # the ownerless rules (a mode's, a package's) come first in the list
            for L in list(lst):
                if L.owner is None and L.active and self._ready(L, ev):
                    self._fire(L, ev)
        if w.subject is not None and not any(L.trigger.any for L in lst):
            order = (subject,) if subject is not None and (subject.alive or w.dead) else ()
        else:
            order = self.ring_current()
            if w.dead and subject is not None and not subject.alive:
                order = (subject, *order)  # the one who just died speaks first (死亡时)
        for p in order:
            for L in lst:  # (read afresh for each player: a skill fired before may have changed the list)
                if L.owner is p:
                    break
            else:
                continue
            if p.alive:
                self._settle(p, lst, ev, w.subject is None or subject is p)
            else:
                self.dead_asked = p  # a window that asks the dead (死亡时): its skills still fire
                try:
                    self._settle(p, lst, ev, True)
                finally:
                    self.dead_asked = None

    def _settle(self, p: Player, lst: list[Listener], ev, subject: bool) -> None:
        """One player's simultaneous skills: hero before equipment, the player orders the rest. The
        list is read afresh after each skill: one gained meanwhile can still fire (seed 001 §2(2))."""
        done: list[Listener] = []
        while p.alive or p is self.dead_asked:
            ready = [L for L in lst if L.owner is p and (subject or L.trigger.any) and L not in done and L.active
                     and self._ready(L, ev)]
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
        if L.owner is not None and ev.eid and ev.eid < L.owner.entered_at:
            return False  # a hero that entered during this settlement does not answer its predecessor's events
        inst = L.inst
        if inst is not None and inst.slot is not None and inst.owner is not None and \
                not inst.owner.shown[inst.slot] and not (inst.usable_hidden and L.skill.id in L.owner.armed):
            return False  # a face-down hero's skill (not `live`): offered only when pre-shown (预亮)
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
        if L.inst is not None and not L.inst.live:
            self.reveal_for(L.inst)  # using a face-down hero's skill reveals the hero first
        if L.owner is not None:
            self.say(L.owner, " 发动 【", L.skill.name, "】", loc=t.loc)
        if t.limit is not None:
            self._use_limit(L.owner, L.skill.id, t.index, t.limit.scope, 1)
        self.push("skill", L.skill.name, ev, t.loc, L.skill.id, L.owner)
        try:
            t.run(self, L.owner, ev)
        except Abort:
            self.say(L.owner, " 取消了 【", L.skill.name, "】")
            if t.limit is not None:
                self._use_limit(L.owner, L.skill.id, t.index, t.limit.scope, -1)
        except (GameOver, Unwind):
            raise
        except RecursionError as e:
            self._note_crash()
            raise recursion(self, e.__traceback__) from None
        except Exception:
            self._note_crash()
            raise
        finally:
            self.stack.pop()
        if self.later_fns:
            self.run_later()

    def reveal_for(self, inst) -> None:
        """明置 the hero card a skill is printed on, through the rules' reveal flow (engine role `reveal`)."""
        p, slot = inst.owner, inst.slot
        if self.flow_reveal is not None:
            self.call_flow(self.flow_reveal.id, who=p, slot=slot)
        else:
            self.show_hero(p, slot)

    # ---- `later`: what waits for the settlement under way -----------------------------------
    def later(self, fn) -> None:
        self.later_fns.append(fn)

    def at_rest(self) -> bool:
        """Is nothing being settled beyond the turn itself (or the setup)?"""
        turn = self.turn_event
        return all(f.kind == "setup" or (turn is not None and f.event is turn) for f in self.stack)

    def run_later(self) -> None:
        if not self.at_rest():
            return
        while self.later_fns:
            self.later_fns.pop(0)()

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
        self.mark_scope("phase")
        if self.log is not None:
            self.log.phase(self)
        return True

    def run_phase(self, phase: str, body):
        """A phase of the turn flow: run unless skipped; `end_phase()` ends it early."""
        self.phase_bodies[phase] = body
        if not self.begin_phase(phase):
            return None
        try:
            return body()
        except PhaseEnd:
            return None
        finally:
            self.return_lent_skills("phase")

    def extra_phase(self, phase: str) -> None:
        """An extra phase (一个额外的出牌阶段): the turn flow's own phase, its windows and log label."""
        body = self.phase_bodies.get(phase)
        if body is None or self.turn_event is None:
            raise RulesError(f"no {self.rules.phase_names.get(phase, phase)} to run again: the turn flow has no "
                             "such `phase`, or it is not anyone's turn")
        outer = self.phase
        self.phase = phase
        self._reset("phase")
        self.mark_scope("phase")
        self.say("执行一个额外的", self.rules.phase_names.get(phase, phase))
        if self.log is not None:
            self.log.phase(self)
        try:
            body()
        except PhaseEnd:
            pass
        finally:
            self.return_lent_skills("phase")
            self.phase = outer

    def end_phase(self) -> None:
        if self.phase is None:
            raise RulesError("end_phase() outside any phase")
        self.say("结束", self.rules.phase_names.get(self.phase, self.phase))
        raise PhaseEnd()

    def end_turn(self) -> None:
        if self.current is None:
            raise RulesError("end_turn() outside any turn")
        self.say("结束当前回合")
        raise TurnEnd()

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
        self.turns_of[p.seat] = self.turns_of.get(p.seat, 0) + 1
        self.loops = 0  # the runaway-loop guard counts `while` and `repeat` rounds within one turn
        self.current = p
        self.phase = None
        self.skipped = set()
        self._reset("turn")
        self._reset("phase")
        self.mark_scope("turn")
        self.turn_event = self.ev_turn_cls(player=p)
        self.phase_bodies = {}
        if self.log is not None:
            self.log.turn(self, p)
        try:
            self.run_flow(self.flow_turn.id, self.turn_event)
            self.run_later()
        except TurnEnd:
            self.stack.clear()
            self.windows_open.clear()
            if self.processing:  # what was being settled when the turn was cut short
                self.move(list(self.processing), "discard")
        finally:
            self.return_lent_skills("turn")
            self.last_turn = p
            self.current = None
            self.phase = None
            self.turn_event = None
        if self.check_invariants and self.stack:
            raise RulesError("the event stack is not empty between turns")

    def setup_mode(self) -> None:
        """The mode's own rules join the game, and its setup runs (identities, heroes, starting hands)."""
        if self.mode is None:
            return
        for rule in self.mode.rules:
            self.add_rules(rule)
        if self.mode.setup is not None:
            self.push("setup", self.mode.name, None, self.mode.loc)
            self.mode.setup(self)
            self.stack.pop()

    def run(self) -> GameOver:
        """Play until a win condition, the turn cap, or an exhausted deck."""
        try:
            self.setup_mode()
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
            self.won_seats = over.seats
            self.end_reason = over.reason
            self.stack.clear()
            if self.log is not None:
                self.log.end(self, over)
            return over

    # ---- decisions --------------------------------------------------------------------------
    def decide(self, req: Request):
        # the dead do not decide, unless a hero of theirs waits to enter play (1v1) or a 死亡时 window asks them
        if not req.player.alive and req.kind != "hero" and req.player is not self.dead_asked and not req.player.reserve:
            raise RulesError("a dead player was asked to decide")
        seat = req.player.seat
        agent = self.agents[seat]
        if self.observer is not None:
            self.observer.on_request(self, req)
        if agent.omniscient:  # a scenario test's script: the referee, not a player
            answer = agent.decide(self, req)
        else:
            view = self.views.get(seat)
            if view is None:
                view = self.views[seat] = SeatView(self, seat)
            seen = view.request(req)
            if self.check_invariants:  # every option read, as an agent may read them
                hidden(self, view, seen)
            try:
                answer = answer_of(seen, req, agent.decide(view, seen))
            except ValueError as e:
                raise RulesError(f"agent {type(agent).__name__}: {e}") from None
        if req.kind in ("cards", "players", "options"):
            ids = set(map(id, req.options))
            if not (req.lo <= len(answer) <= req.hi and len(set(map(id, answer))) == len(answer)
                    and all(map(ids.__contains__, map(id, answer)))):
                raise RulesError(f"agent {type(self.agents[req.player.seat]).__name__} answered a {req.kind} request "
                                 f"({req.lo}..{req.hi} of {len(req.options)}) with {len(answer)} choice(s)")
        return answer

    def ask(self, p: Player, prompt: str) -> bool:
        yes = bool(self.decide(Request("confirm", p, [True, False], prompt=prompt)))
        self.say(p, f" 选择{'是' if yes else '否'}：{prompt}", choice=True)  # aloud: the log says who made it
        return yes

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

    def choose_options(self, p: Player, options, lo: int, hi: int | None, prompt: str = "") -> list:
        """p picks lo..hi of the options (several at once: the skills to pre-show)."""
        options = list(options)
        hi = min(lo if hi is None else hi, len(options))
        if len(options) < lo:
            raise Abort(f"not enough options to choose {lo}")
        if hi == 0:
            return []
        picked = self.decide(Request("options", p, options, lo=lo, hi=hi, prompt=prompt))
        if picked:
            self.say(p, " 选择 「", picked, "」", choice=True)
        return picked

    def text(self, *parts) -> str:
        """A prompt with values in it, worded as the log words them."""
        from .log import GameLog

        if self._fmt is None:
            self._fmt = GameLog(records=False)
        # the generated code passes wording and values in turn, wording first: a value that is an id (a hero, a
        # card name) reads as its name, the wording as written
        return "".join(x if i % 2 == 0 else self._fmt.show(self, x) for i, x in enumerate(parts))

    def choose_option(self, p: Player, options, prompt: str = "") -> str:
        options = list(options)
        if not options:
            raise Abort("no option")
        choice = self.decide(Request("option", p, options, prompt=prompt))
        self.say(p, " 选择 「", choice, "」", choice=True)
        return choice

    # ---- log -------------------------------------------------------------------------------
    def say(self, *parts, loc: str | None = None, choice: bool = False) -> None:
        """A log line; `choice`: a player's choice said aloud, which a seat's log keeps to itself when it names
        a face-down hero card (log.py)."""
        if self.log is not None:
            self.log.say(self, parts, loc, choice)

    # ---- invariants -------------------------------------------------------------------------
    def verify(self) -> None:
        from .invariants import check

        check(self)
