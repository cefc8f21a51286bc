"""The counting agents, random-legal and first-legal, and how a bot picks a hero.

An agent's `decide(view, req)` gets the asking seat's SeatView (engine/view.py), never the Game:
the request's options and everything reachable from them show only what that seat may
know. Only a scenario test's script (`omniscient`) plays with the table open. An agent that decides by
counting (`counting`: the random and first agents) is not even shown that: the interpreter asks its
`choose(rng, kind, n, lo, hi)` with the number of options alone, which spares making the view of every
option.
"""

from __future__ import annotations

from ..engine.requests import MANY, Agent, Request, chosen

HERO_PICKS = ("uniform", "strongest")


def pick_hero(how: str, g, req: Request):
    """A hero from those offered: `uniform` at random (every hero of the pool plays equally often),
    or `strongest` by HP + 2 × skills (ties at random)."""
    if how == "strongest":
        return max(req.options, key=lambda h: (g.rules.heroes[h].hp_halves + 2 * len(g.rules.heroes[h].skills),
                                               g.agent_rng.random()))
    return req.options[g.agent_rng.randrange(len(req.options))]


class Counting(Agent):
    """An agent whose decide() is its choose(), read through the request's options (heroes by its `pick`)."""

    counting = True

    def decide(self, g, req: Request):
        if req.kind == "hero" and self.pick:
            return pick_hero(self.pick, g, req)
        return chosen(req.options, req.kind, self.choose(g.agent_rng, req.kind, len(req.options), req.lo, req.hi))


class FirstAgent(Counting):
    """Always the first legal answer; declines whatever may be declined. Passive and predictable."""

    name = "first"

    def choose(self, rng, kind: str, n: int, lo: int, hi: int):
        if kind in ("play", "respond", "skill"):
            return None if lo == 0 else 0
        if kind == "confirm":
            return False
        return list(range(lo)) if kind in MANY else 0


class RandomAgent(Counting):
    """Uniformly random among the legal answers (declining counts as one of them)."""

    name = "random"

    def choose(self, rng, kind: str, n: int, lo: int, hi: int):
        if kind in ("play", "respond", "skill"):
            i = rng.randrange(n + (1 if lo == 0 else 0))
            return i if i < n else None
        if kind == "confirm":
            return rng.random() < 0.5
        if kind in MANY:
            return rng.sample(range(n), rng.randint(lo, hi))
        return rng.randrange(n)
