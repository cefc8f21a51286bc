"""Turns and phases: the turn flow the rules bind runs each phase's body; skipped, extra and cut-short phases;
the game loop to a win, the turn cap or an exhausted deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .invariants import acting
from .requests import GameOver, PhaseEnd, TurnEnd
from .ruleset import RulesError

if TYPE_CHECKING:
    from .state import Player


class Turns:
    """Mixed into Game."""

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
            if self.at_start_phase is not None:  # a test's table as it stands from that phase on
                self.at_start_phase, then = None, self.at_start_phase
                then()
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

    def end_phase_later(self) -> None:
        """结束出牌阶段 as an effect: what is settling now ends as usual, then the phase asks for nothing more."""
        if self.phase is None:
            raise RulesError("end_phase_later() outside any phase")
        if not self.phase_closing:
            self.say("结束", self.rules.phase_names.get(self.phase, self.phase))
        self.phase_closing = True

    def _reset(self, scope: str) -> None:
        if scope == "phase":
            self.phase_closing = False
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
