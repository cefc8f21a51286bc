"""Hero pools (`pool` declarations, the official 国战 expansion sets): listed by `info --mode`, chosen by
`simulate --pool`, and a pool that cannot apply is a usage error."""

import json

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.sim.batch import Setup, play, pool_heroes, setup_game


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_info_mode_lists_the_pools_decks_and_options():
    r = run("info", "--mode", "hegemony")
    assert r.exit_code == 0, r.output
    assert "君临天下阵 pool_zhen: 8 heroes" in r.output and "国战标准版 pool_standard" in r.output
    assert "guozhan_cards (国战牌堆, 108 cards)" in r.output and "shibei (势备篇, 52 cards)" in r.output and "buchen (不臣篇)" in r.output
    data = json.loads(run("info", "--mode", "国战", "--json").stdout)
    pools = {p["id"]: p for p in data["pools"]}
    # every pool hero is one the mode deals, and the official sets together are the shipped pool
    assert all(p["in_mode_pool"] == p["heroes"] for p in pools.values())
    # the lord cards (`lord of`, the pool 君主) lie aside: counted apart from the heroes dealt
    assert sum(p["heroes"] for p in pools.values()) == data["heroes"] + data["lords"] and data["lords"] == 4
    assert run("info", "--mode", "nomode").exit_code == 2


def test_a_batch_deals_only_the_heroes_of_its_pools(rules):
    pool = pool_heroes(rules.for_mode(rules.modes["guozhan"]), "guozhan", ("国战标准版", "pool_zhen"))
    assert "邓艾" not in pool and "dengai" in pool and "xunyou" not in pool  # ids; 荀攸 is of 变
    s = Setup("guozhan", 4, "heuristic", heroes=pool)
    dealt = set()
    for i in range(3):
        r = play(rules, s, i, 40 + i)
        assert r.error is None, r.error
        dealt |= {h for h, _, _ in r.played}
    assert dealt and dealt <= set(pool)
    g = setup_game(rules, s, 7)
    assert g.hero_pool == list(pool)


def test_a_pool_that_cannot_apply_is_a_usage_error():
    r = run("simulate", "--mode", "guozhan", "--games", "1", "--pool", "阵")
    assert r.exit_code == 2 and "no hero pool '阵'" in r.output and "君临天下阵 pool_zhen" in r.output
    r = run("simulate", "--mode", "identity", "--games", "1", "--pool", "君临天下阵")
    assert r.exit_code == 2 and "does not play with (--with guozhan_heroes)" in r.output


@pytest.mark.parametrize("pool", ["君临天下阵", "君临天下势", "君临天下变", "君临天下权", "君主", "君临天下EX"])
def test_each_expansion_set_plays_clean_beside_the_standard_heroes(pool):
    # issue 27: simulate with each expansion set, the state invariants checked at every step
    r = run("simulate", "--mode", "guozhan", "--players", "6", "--games", "6", "--seed", "5", "--pool", pool,
            "--pool", "国战标准版", "--check-invariants", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 6 and not data["errors"]
