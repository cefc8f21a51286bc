"""Featured heroes and their control runs: the rotation, the pairing, the comparison, the CLI."""

import json
from collections import Counter
from pathlib import Path

import attrs
import jsonschema
import pytest
from click.testing import CliRunner
from statsmodels.stats import proportion

from sgsdsl.bots.agents import pick_hero
from sgsdsl.cli import main
from sgsdsl.engine.requests import Request
from sgsdsl.sim.balance import compare
from sgsdsl.sim.batch import Setup, game_seed, rotation, setup_game

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "sgsdsl" / "sim" / "schemas" /
                     "simulate.schema.json").read_text(encoding="utf-8"))


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_the_rotation_gives_every_identity_and_seat_its_turn(rules):
    rot = rotation(rules, "identity", 5, 0, "guanyu")
    plans = [rot.plan(i) for i in range(40)]
    assert Counter(p.identity for p in plans) == {"lord": 10, "loyalist": 10, "rebel": 10, "renegade": 10}
    assert Counter(p.seat for p in plans) == dict.fromkeys(range(5), 8)
    assert {p.hero for p in plans} == {"guanyu"}
    controls = [rot.plan(i, control=True) for i in range(20 * 24)]  # a block of 20 games per baseline
    assert "guanyu" not in {p.hero for p in controls}
    assert {p.hero for p in controls} == set(rules.hero_pool(rules.modes["identity"])) - {"guanyu"}
    # featured and control reserve the same heroes: the other seats are dealt alike
    assert all(rot.plan(i).reserved == rot.plan(i, True).reserved for i in range(40))


def test_a_hero_that_may_not_be_lord_never_sits_there(rules, monkeypatch):
    for h in ("guanyu", "zhangfei"):
        monkeypatch.setitem(rules.heroes, h, attrs.evolve(rules.heroes[h], never_lord=True))
    rot = rotation(rules, "identity", 5, 0, "guanyu")
    assert rot.identities == ("loyalist", "rebel", "renegade")
    # nor does a baseline: the lord's seat of a control game goes to heroes that may be lord
    rot = rotation(rules, "identity", 5, 0, "caocao")
    assert "zhangfei" not in rot.baselines["lord"] and "zhangfei" in rot.baselines["rebel"]


def test_featured_and_control_games_differ_only_in_the_planned_seat(rules):
    s = Setup("identity", 5, "heuristic", pick="uniform")
    rot = rotation(rules, "identity", 5, 0, "guanyu")
    for i in range(8):
        seats = []
        for control in (False, True):
            g = setup_game(rules, s, game_seed(3, i), rot.plan(i, control))
            g.turn_cap = 1
            g.run()
            seats.append(g.setup_seats)
        plan = rot.plan(i)
        featured, control = seats
        assert featured[plan.seat] == {"seat": plan.seat, "identity": plan.identity, "heroes": ["guanyu"]}
        assert control[plan.seat]["heroes"] == [rot.plan(i, True).hero]
        assert [x for x in featured if x["seat"] != plan.seat] == [x for x in control if x["seat"] != plan.seat]


def test_the_comparison_is_statsmodels_agresti_caffo(rules):
    r = compare(70, 100, 40, 100)
    assert r["p_value"] == pytest.approx(proportion.test_proportions_2indep(70, 100, 40, 100, method="agresti-caffo").pvalue)
    assert r["delta"] == pytest.approx(0.3) and r["ci95"][0] < 0.3 < r["ci95"][1]
    assert r["verdict"].startswith("stronger")
    assert compare(30, 100, 60, 100)["verdict"].startswith("weaker")
    small = compare(6, 10, 5, 10)
    assert small["verdict"].startswith("too small to tell") and small["ci95"][0] < 0 < small["ci95"][1]
    assert compare(0, 10, 0, 10)["p_value"] == pytest.approx(1.0)
    assert compare(1, 0, 1, 5)["verdict"] == "no games to compare"


def test_uniform_and_strongest_hero_picks(rules):
    class View:
        def __init__(self):
            import random

            self.rules, self.agent_rng = rules, random.Random(1)

    v = View()
    options = ["caocao", "huatuo", "lvmeng"]
    req = Request("hero", None, options)
    assert Counter(pick_hero("uniform", v, req) for _ in range(300)).keys() == set(options)
    strongest = max(options, key=lambda h: rules.heroes[h].hp_halves + 2 * len(rules.heroes[h].skills))
    assert pick_hero("strongest", v, req) == strongest


def test_simulate_hero_json_follows_the_schema(tmp_path):
    r = run("examples/yanyan.sgs", "--hero", "严颜", "--games", "16", "--seed", "2", "--json", "--quiet")
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "16", "--seed", "2", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert data["games"] == 16 and data["control_games"] == 16
    f = data["featured"][0]
    assert f["hero"] == "yanyan" and f["skills"][0]["name"] == "拒战" and "锁定技" in f["skills"][0]["text"]
    assert [row["identity"] for row in f["rows"]] == ["lord", "loyalist", "rebel", "renegade", "all"]
    assert all(row["featured"]["games"] == 4 == row["control"]["games"] for row in f["rows"][:-1])
    # 严颜 sat in every featured game: as lord in a quarter of them
    seated = sum(h["games"] for h in data["heroes"] + data["lords"] if h["id"] == "yanyan")
    assert seated == 16 and next(h for h in data["lords"] if h["id"] == "yanyan")["games"] == 4
    juzhan = next(k for k in data["skills"] if k["id"] == "juzhan")
    assert juzhan["featured"] and juzhan["games"] == 16 and juzhan["used"] == juzhan["offered"]
    assert data["command"].startswith("sgsdsl simulate examples/yanyan.sgs") and "--hero 严颜" in data["command"]


def test_plain_simulate_json_follows_the_schema():
    r = run("simulate", "--games", "6", "--seed", "1", "--agent", "random", "--json", "--quiet")
    data = json.loads(r.stdout)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert data["featured"] == [] and data["control_games"] == 0 and sum(n for _, n in data["turns"]) == 6


@pytest.mark.parametrize("args,message", [
    (["--hero", "严言"], "no hero named '严言'"),
    (["--baseline", "关羽"], "give --hero too"),
    (["--hero", "关羽", "--baseline", "关羽"], "also featured"),
    (["--log-games", "3"], "give --log too"),
    (["--control"], "give --replay-seed too"),
])
def test_featured_usage_errors_exit_2(args, message):
    r = run("simulate", "--games", "2", "--quiet", *args)
    assert r.exit_code == 2 and message in r.output


def test_log_games_and_log_where_write_the_chosen_games_and_replay(tmp_path):
    path = tmp_path / "games.jsonl"
    r = run("simulate", "examples/yanyan.sgs", "--games", "6", "--seed", "4", "--agent", "random", "--quiet",
            "--log", str(path), "--log-games", "1,4")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    headers = [i for i, x in enumerate(recs) if x["kind"] == "header"]
    assert [recs[i]["game"] for i in headers] == [1, 4]
    assert all(recs[i + 1]["kind"] == "seating" and len(recs[i + 1]["seats"]) == 5 for i in headers)
    assert all({"seat", "identity", "heroes"} <= set(s) for s in recs[1]["seats"])
    r = run("simulate", "examples/yanyan.sgs", "--replay", str(path))
    assert r.exit_code == 0 and r.output.count("identical to") == 2
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "4", "--seed", "4", "--agent", "random",
            "--quiet", "--log", str(path), "--log-where", "hero == 严颜 and identity == 反贼")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    setups = [x for x in recs if x["kind"] == "seating"]
    assert len(setups) == 1 and {"identity": "rebel", "heroes": ["yanyan"]}.items() <= next(
        s for s in setups[0]["seats"] if s["heroes"] == ["yanyan"]).items()
    assert run("simulate", "examples/yanyan.sgs", "--replay", str(path)).exit_code == 0
    r = run("simulate", "--games", "3", "--quiet", "--log", str(path), "--log-where", "turns > 9999")
    assert r.exit_code == 2 and "no game matches" in r.output
    r = run("simulate", "--games", "3", "--quiet", "--log", str(path), "--log-where", "hero == 严颜")
    assert r.exit_code == 2 and "no hero named '严颜'" in r.output
    r = run("simulate", "--games", "3", "--quiet", "--log", str(path), "--log-where", "heroo == 关羽")
    assert r.exit_code == 2 and "did you mean 'hero'" in r.output


def test_a_broken_game_is_replayed_by_its_seed():
    r = run("simulate", "tests/data/runtime_bug.sgs", "--games", "60", "--seed", "3", "--agent", "random",
            "--json", "--quiet")
    err = json.loads(r.stdout)["errors"][0]
    seed = int(err.split()[1].rstrip(":"))
    assert "replay: sgsdsl simulate tests/data/runtime_bug.sgs" in err and f"--replay-seed {seed}" in err
    r = run("simulate", "tests/data/runtime_bug.sgs", "--seed", "3", "--agent", "random", "--replay-seed", str(seed))
    assert r.exit_code == 1 and "at tests/data/runtime_bug.sgs:5" in r.output and "[第1回合]" in r.output
