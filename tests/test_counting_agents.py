"""Agents that decide by counting (the random and first agents): the interpreter asks them with nothing but a
request's kind and number of options, so no seat view is made for them; asked through a view instead (their
decide()), they answer the same — the two ways are one agent."""

from __future__ import annotations

import pytest

from sgsdsl.bots import agents
from sgsdsl.engine.log import GameLog
from sgsdsl.lang.loader import shipped
from sgsdsl.sim.batch import new_game


@pytest.fixture(scope="module")
def rules():
    return shipped()


def _played(rules, mode: str, players: int, agent: str, seed: int):
    log = GameLog()
    g = new_game(rules, mode, players, seed, agent, log=log)
    g.run()
    return g, "\n".join(log.read(0))


@pytest.mark.parametrize("mode, players", [("identity", 5), ("duel", 2), ("guozhan", 5)])
@pytest.mark.parametrize("agent", ["random", "first"])
def test_counting_and_viewing_play_the_same_game(rules, monkeypatch, mode, players, agent):
    g, counted = _played(rules, mode, players, agent, 11)
    assert not g.views  # no seat view was ever made: the agents saw counts only
    monkeypatch.setattr(agents.Counting, "counting", False)  # asked through the seat's view, by decide()
    g, viewed = _played(rules, mode, players, agent, 11)
    assert g.views and counted == viewed and counted.count("\n") > 100


def test_a_counting_agent_answers_in_range():
    import random

    rng, agent = random.Random(3), agents.RandomAgent()
    for _ in range(500):
        n = rng.randrange(1, 6)
        lo = rng.randrange(0, n + 1)
        hi = rng.randrange(lo, n + 1)
        picked = agent.choose(rng, "cards", n, lo, hi)
        assert lo <= len(picked) <= hi and len(set(picked)) == len(picked) and all(0 <= i < n for i in picked)
        one = agent.choose(rng, "play", n, 0, 1)
        assert one is None or 0 <= one < n


def test_a_counting_agent_that_names_no_option_is_a_rules_error(rules):
    from sgsdsl.engine.ruleset import RulesError

    class Stray(agents.RandomAgent):
        def choose(self, rng, kind, n, lo, hi):
            return n + 5 if kind == "play" else super().choose(rng, kind, n, lo, hi)

    g = new_game(rules, "identity", 5, 3, "random")
    g.agents = [Stray() for _ in g.agents]
    with pytest.raises(RulesError, match="names no option"):
        g.run()


def test_a_bot_is_not_asked_a_choice_the_rules_force(rules):
    """A choice with one answer (every card or player offered must be taken, or the only option) goes to a bot
    answered: no view of it is made. The engine still checks the answer, and the games still end."""
    from sgsdsl.bots.heuristic import HeuristicAgent
    from sgsdsl.engine.requests import forced
    from sgsdsl.sim.batch import game_seed, new_game

    asked, skipped = [], []

    class Watching(HeuristicAgent):
        def decide(self, g, req):
            asked.append(forced(req) is not None)
            return super().decide(g, req)

    for i in range(6):
        g = new_game(rules, "identity", 5, game_seed(5, i), "heuristic")
        g.agents = [Watching() for _ in g.agents]
        real = g.decide

        def decide(req, real=real):
            skipped.append(forced(req) is not None)
            return real(req)

        g.decide = decide
        g.run()
        assert g.over
    assert not any(asked) and len(asked) > 100
    assert sum(skipped) > 10  # the games had forced choices, and none reached the bot
