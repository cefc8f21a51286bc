"""Decisions: every choice goes to the seat's agent as a Request seen through that seat's view (the
interpreter, not the agent, hides what the seat may not know), and the answer is checked against the offer."""

from __future__ import annotations

import itertools

from .invariants import hidden
from .requests import MANY, Abort, GameOver, Request, Resign, chosen, forced
from .ruleset import RulesError
from .state import Card, Player
from .view import Desk

CHOOSE_SETS = 2000  # sets of a `choose … together` tried before the offer is made of those found


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
        try:
            if agent.omniscient:  # a scenario test's script: the referee, not a player
                answer = agent.decide(self, req)
            elif agent.takes_forced and (answer := forced(req)) is not None:
                pass
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
        except Resign:
            self.resign(req.player)
        if req.kind in MANY:
            ids = set(map(id, req.options))
            if not (req.lo <= len(answer) <= req.hi and len(set(map(id, answer))) == len(answer)
                    and all(map(ids.__contains__, map(id, answer)))):
                raise RulesError(f"agent {type(self.agents[req.player.seat]).__name__} answered a {req.kind} request "
                                 f"({req.lo}..{req.hi} of {len(req.options)}) with {len(answer)} choice(s)")
        return answer

    def resign(self, p: Player) -> None:
        """认输 (seed 003: 任意一方提出认输，另一方获胜): every player of another side than p's wins."""
        side = p.identity if p.identity is not None else p.seat
        others = [q for q in self.players if (q.identity if q.identity is not None else q.seat) != side]
        self.say(p, " 认输")
        raise GameOver(tuple(dict.fromkeys(q.identity or q.name for q in others)), f"{p.name} 认输",
                       frozenset(q.seat for q in others))

    def ask(self, p: Player, prompt: str) -> bool:
        yes = bool(self.decide(Request("confirm", p, [True, False], prompt=prompt)))
        self.say(p, f" 选择{'是' if yes else '否'}：{prompt}", choice=True)  # aloud: the log says who made it
        return yes

    def _choose(self, kind: str, p: Player, items, lo: int, hi: int | None, prompt: str, intent=None,
                left_out=()) -> list:
        """p picks lo..hi (hi None: exactly lo) of `items`; Abort when there are fewer than lo."""
        items = list(items)
        hi = min(lo if hi is None else hi, len(items))
        if len(items) < lo:
            raise Abort(f"not enough {kind} to choose {lo}")
        if hi == 0:
            return []
        return self.decide(Request(kind, p, items, lo=lo, hi=hi, prompt=prompt, intent=intent, left_out=list(left_out)))

    # `intent`: what the choice means, as the compiler derived it (Request.intent); only agents read it
    def choose_cards(self, p: Player, cards, lo: int, hi: int | None, prompt: str = "", intent=None) -> list[Card]:
        return self._choose("cards", p, cards, lo, hi, prompt, intent)

    def choose_card(self, p: Player, cards, prompt: str = "", intent=None) -> Card:
        return self._choose("cards", p, cards, 1, 1, prompt, intent)[0]

    def choose_players(self, p: Player, players, lo: int, hi: int | None, prompt: str = "",
                       intent=None) -> list[Player]:
        return self._choose("players", p, players, lo, hi, prompt, intent)

    def choose_player(self, p: Player, players, prompt: str = "", intent=None) -> Player:
        return self._choose("players", p, players, 1, 1, prompt, intent)[0]

    def choose_options(self, p: Player, options, lo: int, hi: int | None, prompt: str = "", intent=None,
                       left_out=()) -> list:
        """p picks lo..hi of the options (several at once: the skills to pre-show)."""
        picked = self._choose("options", p, options, lo, hi, prompt, intent, left_out)
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

    def choose_together(self, p: Player, items, lo: int, hi: int | None, keep, prompt: str = "", intent=None) -> list:
        """`choose … cards N..M … together COND`: p picks one of the sets of lo..hi items that satisfy COND as a
        whole (点数之和为13), offered whole so that no agent can pick another; smaller sets first, and at most
        CHOOSE_SETS sets are tried. Abort when none satisfies it."""
        items = list(items)
        hi = min(lo if hi is None else hi, len(items))
        sets: list[tuple] = []
        tried = 0
        for n in range(lo, hi + 1):
            for combo in itertools.combinations(items, n):
                tried += 1
                if tried > CHOOSE_SETS:
                    break
                if keep(list(combo)):
                    sets.append(combo)
        if not sets:
            raise Abort("no set satisfies the condition")
        # (no intent: it says what one card or player chosen means, and the offer is of sets, as a view-as skill's)
        return list(self.decide(Request("option", p, sets, prompt=prompt)))

    def choose_option_where(self, p: Player, source, keep, prompt: str = "", intent=None) -> object:
        """`choose … option from SOURCE where COND`: the options COND keeps; the others go with the request."""
        source = list(source)
        options = [x for x in source if keep(x)]
        return self.choose_option(p, options, prompt, intent, [x for x in source if x not in options])

    def choose_options_where(self, p: Player, source, keep, lo: int, hi: int | None, prompt: str = "",
                             intent=None) -> list:
        source = list(source)
        options = [x for x in source if keep(x)]
        return self.choose_options(p, options, lo, hi, prompt, intent, [x for x in source if x not in options])

    def choose_option(self, p: Player, options, prompt: str = "", intent=None, left_out=(),
                      secret: bool = False) -> object:
        # an option is what the rules offer: a text, a number (选择X), a hero id, a card kind
        options = list(options)
        if not options:
            raise Abort("no option")
        choice = self.decide(Request("option", p, options, prompt=prompt, intent=intent, left_out=list(left_out)))
        self.say(p, " 选择 「", choice, "」", choice=True, secret=secret)
        return choice

    def choose_hidden(self, p: Player, prompt: str, options) -> object:
        """`choose_hidden(p, "…", options)`: p chooses in secret; another seat reads only that p chose (1v1's
        starting heroes, revealed together when both have chosen)."""
        return self.choose_option(p, options, prompt, secret=True)
