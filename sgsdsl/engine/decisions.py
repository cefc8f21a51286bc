"""Decisions: every choice goes to the seat's agent as a Request seen through that seat's view (the
interpreter, not the agent, hides what the seat may not know), and the answer is checked against the offer."""

from __future__ import annotations

from .invariants import hidden
from .requests import MANY, Abort, Request, chosen
from .ruleset import RulesError
from .state import Card, Player
from .view import Desk


class Decisions:
    """Mixed into Game."""

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
        elif agent.counting and not (req.kind == "hero" and agent.pick):
            # it reads nothing but how many options there are: no view of them is made, nothing can leak
            c = agent.choose(self.agent_rng, req.kind, len(req.options), req.lo, req.hi)
            try:
                answer = chosen(req.options, req.kind, c)
            except (IndexError, TypeError):
                raise RulesError(f"agent {type(agent).__name__}: answered {c!r}, which names no option of a "
                                 f"{req.kind} request of {len(req.options)}") from None
        else:
            desk = self.views.get(seat)
            if desk is None:
                desk = self.views[seat] = Desk(self, seat)
            check = (lambda view, seen: hidden(self, desk, view, seen)) if self.check_invariants else None
            try:
                answer = desk.ask(agent, req, check)
            except ValueError as e:  # an answer not offered, or a question about what the seat does not see
                raise RulesError(f"agent {type(agent).__name__}: {e}") from None
        if req.kind in MANY:
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

    def _choose(self, kind: str, p: Player, items, lo: int, hi: int | None, prompt: str) -> list:
        """p picks lo..hi (hi None: exactly lo) of `items`; Abort when there are fewer than lo."""
        items = list(items)
        hi = min(lo if hi is None else hi, len(items))
        if len(items) < lo:
            raise Abort(f"not enough {kind} to choose {lo}")
        if hi == 0:
            return []
        return self.decide(Request(kind, p, items, lo=lo, hi=hi, prompt=prompt))

    def choose_cards(self, p: Player, cards, lo: int, hi: int | None, prompt: str = "") -> list[Card]:
        return self._choose("cards", p, cards, lo, hi, prompt)

    def choose_card(self, p: Player, cards, prompt: str = "") -> Card:
        return self._choose("cards", p, cards, 1, 1, prompt)[0]

    def choose_players(self, p: Player, players, lo: int, hi: int | None, prompt: str = "") -> list[Player]:
        return self._choose("players", p, players, lo, hi, prompt)

    def choose_player(self, p: Player, players, prompt: str = "") -> Player:
        return self._choose("players", p, players, 1, 1, prompt)[0]

    def choose_options(self, p: Player, options, lo: int, hi: int | None, prompt: str = "") -> list:
        """p picks lo..hi of the options (several at once: the skills to pre-show)."""
        picked = self._choose("options", p, options, lo, hi, prompt)
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
