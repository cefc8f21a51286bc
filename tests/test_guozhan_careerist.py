"""不臣篇 (seed 002): careerist heroes (kingdom 野心家) are dealt only as main heroes, with a deputy of any
other kingdom, and only when the mode's option 不臣篇 is on. Played through the 国战 setup itself, over
many seeds, with the test-only careerist hero 枭雄 of tests/scenarios/guozhan_advanced.sgs in the pool."""

from pathlib import Path

import pytest

from sgsdsl import api

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def rules():
    return api.load(HERE / "scenarios" / "guozhan_advanced.sgs")


def dealt(rules, seed: int, **options):
    g = api.new_game(rules, mode="guozhan", players=4, seed=seed, log=False)
    g.options = {"hero_cards": 3, **options}
    g.setup_mode()
    return [(p.heroes[0], p.heroes[1]) for p in g.players]


def test_careerist_heroes_only_as_main_heroes_with_buchen(rules):
    mains = 0
    for seed in range(1, 121):
        for main, deputy in dealt(rules, seed, buchen=True):
            assert deputy.kingdom != "careerist", (seed, main.id, deputy.id)
            if main.kingdom == "careerist":
                mains += 1
            else:
                assert deputy.kingdom == main.kingdom, (seed, main.id, deputy.id)
    assert mains > 0  # the careerist hero was dealt, and went to a main slot


def test_no_careerist_hero_plays_without_buchen(rules):
    for seed in range(1, 61):
        for main, deputy in dealt(rules, seed):
            assert "careerist" not in (main.kingdom, deputy.kingdom), (seed, main.id, deputy.id)
            assert main.kingdom == deputy.kingdom
