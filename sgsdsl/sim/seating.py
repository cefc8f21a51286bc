"""A seat fixed in advance: one seat's identity and hero, for featured heroes and their control runs.

The mode's own setup still runs (its `deal_identities`, `draw_heroes` and `pick_hero`): the
planned seat is swapped into its identity after the deal, takes its hero instead of being
offered a choice, and the reserved heroes are never dealt to anyone else. A featured game
and its control game reserve the same heroes, so the other seats are dealt alike.
"""

from __future__ import annotations

import attrs

from ..engine.game import Game
from ..engine.ruleset import RulesError


@attrs.frozen
class SeatPlan:
    seat: int
    identity: str
    hero: str
    reserved: tuple[str, ...]  # heroes no other seat may get (the featured hero and its baseline)


class PlannedGame(Game):
    """A Game whose mode setup honours a SeatPlan, and that keeps the seating it started with."""

    plan: SeatPlan | None = None
    setup_seats: list[dict] | None = None

    def deal_identities(self) -> None:
        super().deal_identities()
        plan = self.plan
        if plan is None:
            return
        me = self.players[plan.seat]
        other = next((p for p in self.players if p.identity == plan.identity), None)
        if other is None:
            raise RulesError(f"no seat is dealt the identity {plan.identity}")
        me.identity, other.identity = other.identity, me.identity
        lord = self.mode.lord if self.mode else None
        for p in (me, other):
            p.identity_shown = lord is not None and p.identity == lord

    def draw_heroes(self, n: int, exclude=(), for_lord: bool = False) -> list[str]:
        reserved = self.plan.reserved if self.plan else ()
        return super().draw_heroes(n, tuple(exclude) + reserved, for_lord)

    def pick_hero(self, p, heroes) -> str:
        plan = self.plan
        if plan is not None and p.seat == plan.seat:
            self.used_heroes.add(plan.hero)
            self.set_hero(p, plan.hero)
            return plan.hero
        if plan is not None:
            heroes = [h for h in heroes if h not in plan.reserved]
        return super().pick_hero(p, heroes)

    def play_turn(self, p) -> None:
        if self.setup_seats is None:  # the mode's setup is over: keep what it dealt
            self.setup_seats = [{"seat": q.seat, "identity": q.identity, "heroes": [h.id for h in q.heroes]}
                                for q in self.players]
            plan = self.plan
            if plan is not None:
                q = self.players[plan.seat]
                if q.identity != plan.identity or [h.id for h in q.heroes] != [plan.hero]:
                    raise RulesError(f"the mode's setup never dealt seat {plan.seat + 1} an identity and a "
                                     f"hero to choose: {plan.hero} cannot be placed there")
        super().play_turn(p)
