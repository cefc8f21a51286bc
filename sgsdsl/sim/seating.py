"""A seat fixed in advance: a featured hero (or its control) placed at one seat, in any mode.

The mode's own setup still runs, whatever it is; the plan only steers the choices it asks:
- a mode that deals identities (`deal_identities`) swaps the planned seat into the plan's identity, and
  `pick_hero` gives that seat the planned hero instead of offering a choice (身份局);
- a mode whose players choose heroes from those drawn (`choose … option from` heroes, during the setup)
  has the planned player take the planned heroes: drafted into its line-up and the first to enter (1v1), or
  chosen as main and deputy (国战, the hero and a partner of its kingdom);
- where the identity is chosen in the setup (1v1's 比点), the planned player is the one who ends up with the
  plan's identity.
The reserved heroes are never dealt to, nor chosen by, anyone else. A featured game and its control reserve
the same heroes, so the other seats are dealt alike; the mode's rules are never named here.
"""

from __future__ import annotations

import attrs

from ..engine.game import Game
from ..engine.ruleset import RulesError


@attrs.frozen
class SeatPlan:
    seat: int
    identity: str | None  # None: the mode deals no identities (国战): the seat alone is planned
    hero: str
    reserved: tuple[str, ...]  # heroes no other seat may get (the featured hero, its baseline, the partner)
    partner: str | None = None  # a hero card played beside it (国战's other hero, of its kingdom)
    deputy: bool = False  # the planned hero is the deputy, the partner the main

    @property
    def heroes(self) -> tuple[str, ...]:
        """The planned heroes in the order the setup asks for them (main first)."""
        if self.partner is None:
            return (self.hero,)
        return (self.partner, self.hero) if self.deputy else (self.hero, self.partner)


class PlannedGame(Game):
    """A Game whose mode setup honours a SeatPlan, and that keeps the seating it started with."""

    plan: SeatPlan | None = None
    setup_seats: list[dict] | None = None
    _given: tuple[str, ...] = ()

    def planned(self):
        """The planned player: the plan's seat, or the one player the setup gave the plan's identity."""
        plan = self.plan
        p = self.players[plan.seat]
        if plan.identity is None or p.identity == plan.identity:
            return p
        same = [q for q in self.players if q.identity == plan.identity]
        return same[0] if len(same) == 1 else p

    def deal_identities(self) -> None:
        super().deal_identities()
        plan = self.plan
        if plan is None or plan.identity is None:
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
        if plan is not None and p is self.planned():
            self.used_heroes.add(plan.hero)
            self.set_hero(p, plan.hero)
            return plan.hero
        if plan is not None:
            heroes = [h for h in heroes if h not in plan.reserved]
        return super().pick_hero(p, heroes)

    def choose_option(self, p, options, prompt: str = "", intent=None, left_out=(), secret: bool = False):
        plan = self.plan
        options = list(options)
        if plan is None or self.setup_seats is not None or \
                not all(isinstance(o, str) and o in self.rules.heroes for o in options):
            return super().choose_option(p, options, prompt, intent, left_out, secret)
        if p is not self.planned():  # (an empty choice is the rules' to refuse)
            return super().choose_option(p, [o for o in options if o not in plan.reserved] or options, prompt,
                                         intent, left_out, secret)
        # the planned player: offered its heroes even where what it was dealt holds none that fits (国战's
        # deputy of the featured hero's kingdom)
        in_play = {h.id for h in p.heroes}
        wanted = next((h for h in plan.heroes if h in options and h not in in_play), None)  # 1v1: enter first
        if wanted is None:  # drafted or chosen from what was drawn: the planned heroes, in their order
            wanted = next((h for h in plan.heroes if h not in self._given and h not in p.reserve), None)
        if wanted is None:
            return super().choose_option(p, options, prompt, intent, left_out, secret)
        self._given += (wanted,)
        self.used_heroes.add(wanted)
        self.say(p, " 选择 「", wanted, "」", choice=True, secret=secret)
        return wanted

    def play_turn(self, p) -> None:
        if self.setup_seats is None:  # the mode's setup is over: keep what it dealt
            self.setup_seats = [{"seat": q.seat, "identity": q.identity, "heroes": [h.id for h in q.heroes]}
                                for q in self.players]
            plan = self.plan
            if plan is not None:
                q = self.planned()
                held = [h.id for h in q.heroes]
                if (plan.identity is not None and q.identity != plan.identity) or \
                        any(h not in held for h in plan.heroes):
                    raise RulesError(f"the mode's setup never let seat {q.seat + 1} take "
                                     f"{' and '.join(plan.heroes)}" +
                                     (f" as {plan.identity}" if plan.identity else "") +
                                     ": a featured hero cannot be placed there")
        super().play_turn(p)
