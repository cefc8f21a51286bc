"""The event stack: flows run, windows open, and the triggers that answer them fire in seed 001's order
(ownerless rules first, then each player from the current one, hero skills before equipment)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from .history import PLAY, USE
from .invariants import acting
from .requests import Abort, GameOver, Request, Unwind
from .runaway import check_locals, check_value, recursion, too_deep, too_long

# How far up the stack the rule that runs a loop is: in the native build (sgsdsl.native) this module's
# functions have no frame of their own.
_RULE_FRAME = 1 if __file__.endswith(".py") else 0

# From this depth on, the arguments of a flow are checked for size: a flow that calls itself with a list
# doubled each time fills the memory before the depth limit (the shipped rules reach about 20 frames).
DEEP = 24

if TYPE_CHECKING:
    from .inplay import Listener
    from .state import Player

class Frame:
    __slots__ = ("eid", "parent", "kind", "name", "event", "loc", "ident", "owner")

    def __init__(self, eid, parent, kind, name, event, loc, ident=None, owner=None):
        self.eid, self.parent, self.kind, self.name, self.event, self.loc = eid, parent, kind, name, event, loc
        self.ident = ident  # the skill or card id, for agents that read the stack
        self.owner = owner  # whose skill it is

    def describe(self) -> str:
        return f"#{self.eid} {self.kind} {self.name}" + (f" ({self.loc})" if self.loc else "")


class Settlement:
    """Mixed into Game: the stack, listeners and roles it reads are set up there."""

    def push(self, kind: str, name: str, event=None, loc: str | None = None, ident: str | None = None,
             owner=None) -> Frame:
        if len(self.stack) >= self.limits.depth:
            raise too_deep(self)
        if len(self.stack) >= DEEP and event is not None and kind == "flow":  # a flow re-entering itself
            for field, value in event.fields().items():
                check_value(self, value, f"the field `{field}` of flow {name}" + (f" — {loc}" if loc else ""))
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

    def frame_broke(self, e: BaseException) -> None:
        """The rules code of the frame on top raised e: the frame is popped (as it is on the way out
        otherwise), and a crash keeps the stack as it was where the rules broke (a recursion becomes a runaway
        error that names the loop). GameOver, Abort and Unwind pass through untouched: they are how rules end
        things. Called from an `except` clause that re-raises: a `with` block would cost two calls on every
        frame's way out, and frames are pushed a dozen times a turn."""
        if not isinstance(e, (GameOver, Abort, Unwind)):
            if self.crash_stack is None:
                self.crash_stack = [f.describe() for f in self.stack]
            if isinstance(e, RecursionError):
                self.stack.pop()
                raise recursion(self, e.__traceback__) from None
        self.stack.pop()

    def new_event(self, etype: str, **fields):
        return self.rules.events[etype].cls(**fields)

    def call_flow(self, fid: str, **fields):
        fd = self.rules.flows[fid]
        return self.run_flow(fid, self.rules.events[fd.event].cls(**fields))

    def run_flow(self, fid: str, ev):
        fd = self.rules.flows[fid]
        if fd is self.flow_use:
            self.remember(USE, ev.source, cards=[ev.card], use=ev)
        elif fd is self.flow_play:
            self.remember(PLAY, ev.who, cards=[ev.card])
        self.push("flow", fd.name, ev, fd.loc)
        try:
            try:
                fd.fn(self, ev)
            except BaseException as e:
                self.frame_broke(e)
                raise
            self.stack.pop()
        finally:
            if self.observer is not None:
                self.observer.on_flow_end(self, ev)
        if self.flow_conduct is not None and getattr(ev, "conduct", False) and fd is not self.flow_conduct:
            ev.conduct = False
            self.run_flow(self.flow_conduct.id, ev)  # the damage settled: now its conduction (连环)
        if self.later_fns:  # only on the way out of a settlement that completed, never while unwinding
            self.run_later()
        return getattr(ev, fd.result) if fd.result is not None else ev

    def open(self, wid: str, ev) -> bool:
        if self.grants:
            self.update_grants()
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
                n = 0
                while L.owner is None and L.active and self._ready(L, ev):
                    self._fire(L, ev)
                    n += 1
                    if L.trigger.times is None or n >= L.trigger.times(self, None, ev):
                        break
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
        fired: dict[int, int] = {}  # how often each `repeat N` trigger has fired in this settlement
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
            t = pick.trigger
            if t.times is None:
                done.append(pick)
            else:  # offered again until it has fired N times (每当……1点伤害后), a no still ends it
                fired[id(pick)] = fired.get(id(pick), 0) + 1
                if fired[id(pick)] >= t.times(self, p, ev):
                    done.append(pick)
            self._fire(pick, ev)

    def _ready(self, L: Listener, ev) -> bool:
        t = L.trigger
        if L.owner is not None and ev.eid and ev.eid < L.owner.entered_at:
            return False  # a hero that entered during this settlement does not answer its predecessor's events
        inst = L.inst
        if inst is not None and inst.slot is not None and inst.owner is not None and \
                not inst.owner.shown[inst.slot] and not (inst.usable_hidden and L.skill.id in L.owner.armed) and \
                inst.slot not in inst.owner.removed:
            # a face-down hero's skill (not `live`): offered only when pre-shown (预亮); a removed card's answers
            # the windows of its removal, until `leave_hero`
            return False
        if self.skills_gated and not self.skill_valid(inst):
            return False  # 失效 (军令四)
        if t.limit is not None and self.used(L.owner, L.skill.id, t.index, t.limit.scope) >= \
                t.limit.count(self, L.owner):
            return False
        return t.when is None or bool(t.when(self, L.owner, ev))

    def used(self, p, skill: str, index: int, scope: str) -> int:
        return p.marks.get(f"#{scope}:{skill}:{index}", 0) if p is not None else 0

    def limit_used(self, p, skill: str) -> int:
        """The uses of skill's facets that their limits count now (every scope still running): what
        `reset_limit` gives back. A card's limit (index -1) is not a skill's."""
        if p is None:
            return 0
        return sum(v for k, v in p.marks.items()
                   if k.startswith("#") and k.split(":")[1:2] == [skill] and k.rsplit(":", 1)[1] != "-1")

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
            try:
                t.run(self, L.owner, ev)
            except Abort:
                self.say(L.owner, " 取消了 【", L.skill.name, "】")
                if t.limit is not None:
                    self._use_limit(L.owner, L.skill.id, t.index, t.limit.scope, -1)
        except BaseException as e:
            self.frame_broke(e)
            raise
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
        """One round of a `while` (at `loc`, the rules file:line); the rounds of a turn are counted, and
        the values the rule holds may not grow past a size."""
        self.loops += 1
        if self.loops > self.limits.loop:
            raise too_long(self, loc, "while")
        check_locals(self, sys._getframe(_RULE_FRAME), loc, "while")
        return True

    def rounds(self, n, loc: str = "?"):
        """The rounds of a `repeat`, counted with the `while` rounds of the turn."""
        for i in range(n):
            self.loops += 1
            if self.loops > self.limits.loop:
                raise too_long(self, loc, "repeat")
            if i:
                check_locals(self, sys._getframe(_RULE_FRAME), loc, "repeat")
            yield i
