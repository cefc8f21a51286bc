"""Agents answer requests: random-legal, first-legal, scripted (tests) and a terminal human.

An agent's `decide(view, req)` gets the asking seat's SeatView (view.py), never the Game:
the request's options and everything reachable from them show only what that seat may
know. Only a scenario test's script (`omniscient`) plays with the table open.
"""

from __future__ import annotations

from .requests import Request

HERO_PICKS = ("uniform", "strongest")


def pick_hero(how: str, g, req: Request):
    """A hero from those offered: `uniform` at random (every hero of the pool plays equally often),
    or `strongest` by HP + 2 × skills (ties at random)."""
    if how == "strongest":
        return max(req.options, key=lambda h: (g.rules.heroes[h].hp_halves + 2 * len(g.rules.heroes[h].skills),
                                               g.agent_rng.random()))
    return req.options[g.agent_rng.randrange(len(req.options))]


class Agent:
    name = "agent"
    omniscient = False  # True only for a scenario test's script, which sees the real game
    pick: str | None = None  # how to pick a hero (HERO_PICKS); None: the agent's own way

    def decide(self, g, req: Request):
        raise NotImplementedError


class FirstAgent(Agent):
    """Always the first legal answer; declines whatever may be declined. Passive and predictable."""

    name = "first"

    def decide(self, g, req: Request):
        k = req.kind
        if k == "hero" and self.pick:
            return pick_hero(self.pick, g, req)
        if k in ("play", "respond", "skill"):
            return None if req.lo == 0 else req.options[0]
        if k == "confirm":
            return False
        if k in ("cards", "players", "options"):
            return req.options[: req.lo]
        return req.options[0]


class RandomAgent(Agent):
    """Uniformly random among the legal answers (declining counts as one of them)."""

    name = "random"

    def decide(self, g, req: Request):
        rng = g.agent_rng
        k = req.kind
        opts = req.options
        if k == "hero" and self.pick:
            return pick_hero(self.pick, g, req)
        if k in ("play", "respond", "skill"):
            i = rng.randrange(len(opts) + (1 if req.lo == 0 else 0))
            return opts[i] if i < len(opts) else None
        if k == "confirm":
            return rng.random() < 0.5
        if k in ("cards", "players", "options"):
            n = rng.randint(req.lo, req.hi)
            # the same draws as rng.sample(opts, n), which would read (and so make a view of) every option
            return [opts[i] for i in rng.sample(range(len(opts)), n)]
        return opts[rng.randrange(len(opts))]
