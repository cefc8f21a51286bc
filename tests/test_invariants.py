"""2,000 seeded games with the state invariants checked after every event: no violation, every game ends."""

import pytest

from sgsdsl.sim import run_batch


@pytest.mark.parametrize("players,agent,games", [(5, "random", 800), (8, "random", 400), (5, "heuristic", 500),
                                                 (4, "heuristic", 300)])
def test_invariants_hold(rules, players, agent, games):
    results, _ = run_batch(rules, mode="identity", players=players, games=games, seed=2026, agent=agent,
                           workers=2, invariants=True)
    errors = [r.error for r in results if r.error]
    assert not errors, "\n".join(errors[:5])
    assert all(r.winners or r.reason for r in results)
