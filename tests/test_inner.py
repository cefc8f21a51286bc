"""examples/inner.sgs played by bots: the features of issue 26's classes 6 and 7 hold outside scripted tests."""

from pathlib import Path

import pytest

import sgsdsl
from sgsdsl.engine.history import GAIN

ROOT = Path(__file__).resolve().parent.parent
HEROES = ["mizhu", "zhonghui", "caifuren", "guanyu", "caocao", "sunquan", "liubei", "zhangfei", "zhaoyun"]


@pytest.fixture(scope="module")
def rules():
    return sgsdsl.load(ROOT / "examples/inner.sgs")


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_bots_give_only_sets_whose_ranks_sum_to_13(rules, agent):
    """资援's `choose … together sum(it.rank) == 13`: the offer holds only such sets, so no agent can give
    another; the games are played until 资援 has been used often enough to tell."""
    given = []
    for seed in range(1, 40):
        g = sgsdsl.new_game(rules, players=5, seed=seed, agent=agent, heroes=HEROES, log=False)
        sgsdsl.run(g)
        given += [r.cards for r in g.records if r.what == GAIN and r.skill == "ziyuan"]
        if len(given) >= 5:
            break
    assert len(given) >= 5
    assert all(sum(c.rank for c in cs) == 13 for cs in given)
