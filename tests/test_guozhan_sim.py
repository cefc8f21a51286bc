"""`sgsdsl simulate --mode guozhan`: win rates per kingdom and for careerists (per game and per seat), per
hero and per pair of hero cards (main + deputy), in the table and the JSON; and the 国战 heuristic's choices."""

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.sim.batch import Setup, play

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "sgsdsl" / "sim" / "schemas" /
                     "simulate.schema.json").read_text(encoding="utf-8"))
KINGDOMS = {"wei", "shu", "wu", "qun", "careerist"}


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_guozhan_json_reports_kingdoms_careerists_heroes_and_pairs():
    r = run("simulate", "--mode", "guozhan", "--players", "6", "--games", "8", "--seed", "1", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert not data["errors"] and data["lords"] == []
    decided = data["games"] - len(data["errors"])
    idents = data["identities"]
    assert set(idents) <= KINGDOMS and len(idents) >= 3
    assert list(idents) == [k for k in ("wei", "shu", "wu", "qun", "careerist") if k in idents]  # enum order
    seats = sum(i["players"]["games"] for i in idents.values())
    assert seats == 6 * decided  # every seat ends with a known kingdom (death reveals it)
    pairs = data["pairs"]
    assert sum(p["games"] for p in pairs) == 6 * decided
    assert sum(p["wins"] for p in pairs) == sum(i["players"]["wins"] for i in idents.values())
    assert sum(h["games"] for h in data["heroes"]) == 2 * 6 * decided  # both hero cards of every seat
    assert all(len(set(p["ids"])) == 2 and "+" in p["name"] for p in pairs)
    rates = [p["rate"] for p in pairs]
    assert rates == sorted(rates, reverse=True)


def test_guozhan_table_shows_per_seat_rates_and_pairs():
    r = run("simulate", "--mode", "guozhan", "--players", "5", "--games", "6", "--seed", "2", "--quiet")
    assert r.exit_code == 0, r.output
    assert "players' rate" in r.output and "win rate per hero pair" in r.output
    assert "win rate per hero" in r.output and "lord's seat" not in r.output


def test_identity_table_is_unchanged_by_the_pair_columns():
    r = run("simulate", "--games", "3", "--seed", "1", "--agent", "random", "--quiet")
    assert "players' rate" not in r.output and "hero pair" not in r.output and "lord's seat" in r.output


def test_a_guozhan_seat_plays_two_heroes_of_one_kingdom_and_the_pair_is_recorded(rules):
    rules = rules.for_mode(rules.modes["guozhan"])  # 国战 plays with its own heroes
    res = play(rules, Setup("guozhan", 6, "heuristic"), 0, 11)
    assert res.error is None and len(res.pairs) == 6
    for main_id, deputy, ident, won in res.pairs:
        assert rules.heroes[main_id].kingdom == rules.heroes[deputy].kingdom
        assert ident in KINGDOMS
        assert not won or ident in res.winners  # a dead careerist does not share a survivor's win


@pytest.mark.parametrize("n", [2, 3, 11, 12])
def test_guozhan_plays_clean_at_the_smallest_and_largest_tables(n):
    # seed 002: 可以支持2~12人. Invariants checked every step; a deck or hero pool too small for 12 players
    # would end games in errors (no card to draw, no hero card to deal).
    r = run("simulate", "--mode", "guozhan", "--players", str(n), "--games", "20", "--seed", "3",
            "--check-invariants", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 20 and not data["errors"]
    assert sum(p["games"] for p in data["pairs"]) == n * 20


def test_guozhan_refuses_a_table_beyond_twelve():
    r = run("simulate", "--mode", "guozhan", "--players", "13", "--games", "1", "--quiet")
    assert r.exit_code == 2 and "2" in r.output and "12" in r.output


def test_the_heuristic_takes_as_main_the_hero_whose_lord_card_the_game_sets_aside(rules):
    # 君临天下: a main hero with a 君主 in the game becomes that lord at the first turn, worth more skills
    import random

    from sgsdsl.bots.heuristic import HeuristicAgent

    rules = rules.for_mode(rules.modes["guozhan"])

    class Table:
        def __init__(self, lords):
            self.rules, self.agent_rng, self.lords = rules, random.Random(0), lords

        def lords_of(self, h):
            return [x for x in self.lords if rules.heroes[x].lord_of == h]

    dealt = ["xuchu", "caocao"]  # the same HP and skills: without a lord the tie goes by id
    assert HeuristicAgent().pair_hero(Table([]), dealt) == "xuchu"
    assert HeuristicAgent().pair_hero(Table(["lord_caocao"]), dealt) == "caocao"
    # the pair that holds a lord's hero is worth more than an otherwise better pair
    dealt = ["xuchu", "dianwei", "caocao", "zhangliao"]
    assert HeuristicAgent().pair_hero(Table(["lord_caocao"]), dealt) == "caocao"


def test_lords_are_played_when_their_pool_is_in_the_game():
    r = run("simulate", "--mode", "guozhan", "--players", "8", "--games", "10", "--seed", "2", "--pool", "君主",
            "--pool", "国战标准版", "--deck", "君主专属装备", "--check-invariants", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    lords = {"lord_liubei", "lord_zhangjiao", "lord_sunquan", "lord_caocao"}
    assert not data["errors"] and sum(h["games"] for h in data["heroes"] if h["id"] in lords) > 0
