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


def test_the_rotation_deals_identities_as_the_table_does_and_every_seat_its_turn(rules):
    rot = rotation(rules, "identity", 5, 0, "guanyu")
    plans = [rot.plan(i) for i in range(50)]
    # 2 of 5 seats are rebels: so are 2 in 5 of the featured hero's games, and the games together weigh them so
    assert Counter(p.identity for p in plans) == {"lord": 10, "loyalist": 10, "rebel": 20, "renegade": 10}
    assert Counter(p.seat for p in plans) == dict.fromkeys(range(5), 10)
    assert {p.hero for p in plans} == {"guanyu"}
    controls = [rot.plan(i, control=True) for i in range(24)]
    assert "guanyu" not in {p.hero for p in controls}
    assert {p.hero for p in controls} == set(rules.hero_pool(rules.modes["identity"])) - {"guanyu"}
    # featured and control reserve the same heroes: the other seats are dealt alike
    assert all(rot.plan(i).reserved == rot.plan(i, True).reserved for i in range(40))


def test_the_control_is_balanced_at_any_game_count(rules):
    """Every pool hero takes the control seat as often as any other, within one, after any number of games
    (the old rotation changed the baseline every 20 games: 200 games met only 10 of the 24)."""
    for hero, mode, players in (("guanyu", "identity", 5), ("guanyu", "duel", 2), ("caocao", "guozhan", 6)):
        rot = rotation(rules.for_mode(rules.modes[mode]), mode, players, 0, hero)
        counts = Counter()
        for i in range(3 * len(rot.pool) + 7):
            counts[rot.plan(i, control=True).hero] += 1
            seen = [counts[h] for h in rot.pool]
            assert max(seen) - min(seen) <= 1, (mode, i, counts)
        # nor does a pool hero keep one identity: each plays several across the cycles
        if mode == "identity":
            idents = {}
            for i in range(20 * len(rot.pool)):
                plan = rot.plan(i, control=True)
                idents.setdefault(plan.hero, set()).add(plan.identity)
            assert all(len(v) >= 3 for v in idents.values())


def test_a_hero_that_may_not_be_lord_never_sits_there(rules, monkeypatch):
    for h in ("guanyu", "zhangfei"):
        monkeypatch.setitem(rules.heroes, h, attrs.evolve(rules.heroes[h], never_lord=True))
    rot = rotation(rules, "identity", 5, 0, "guanyu")
    assert set(rot.identities) == {"loyalist", "rebel", "renegade"}
    # nor does a baseline: the lord's seat of a control game goes to heroes that may be lord
    rot = rotation(rules, "identity", 5, 0, "caocao")
    plans = [rot.plan(i, True) for i in range(10 * len(rot.pool))]
    assert all(p.hero != "zhangfei" for p in plans if p.identity == "lord")
    assert any(p.hero == "zhangfei" for p in plans if p.identity == "rebel")


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
    games = {row["identity"]: row["featured"]["games"] for row in f["rows"]}
    assert games == {"lord": 4, "loyalist": 3, "rebel": 6, "renegade": 3, "all": 16}  # the table deals 1/1/2/1
    assert all(row["featured"]["games"] == row["control"]["games"] for row in f["rows"])
    assert sum(c["games"] for c in f["controls"]) == 16 and f["pool"] == 25 and f["ablation"] == []
    # 严颜 sat in every featured game: as lord in every fifth, from the first
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
    assert len(setups) == 2  # of the first 4 games, 严颜 is a rebel in two: the table deals two rebels of five
    assert all({"identity": "rebel", "heroes": ["yanyan"]}.items() <= next(
        s for s in setup["seats"] if s["heroes"] == ["yanyan"]).items() for setup in setups)
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


def _setups(rules, mode, players, hero, games=6):
    mode_rules = rules.for_mode(rules.modes[mode])
    rot = rotation(mode_rules, mode, players, 0, hero)
    s = Setup(mode, players, "heuristic", turn_cap=1, pick="uniform")
    out = []
    for i in range(games):
        pair = []
        for control in (False, True):
            g = setup_game(mode_rules, s, game_seed(5, i), rot.plan(i, control))
            g.run()
            pair.append((g.planned().seat, g.setup_seats, g))
        out.append((rot.plan(i), rot.plan(i, True), pair))
    return out


def test_a_featured_hero_in_1v1_is_drafted_by_one_side_and_enters_first(rules):
    for plan, control, ((seat, featured, g), (cseat, other, _)) in _setups(rules, "duel", 2, "guanyu"):
        assert seat == cseat and featured[seat]["identity"] == plan.identity  # the side the plan names
        assert featured[seat]["heroes"] == ["guanyu"] and other[seat]["heroes"] == [control.hero]
        assert featured[1 - seat] == other[1 - seat]  # the other side drafts and plays alike
        assert "guanyu" not in g.players[1 - seat].reserve


def test_a_featured_hero_in_guozhan_plays_beside_a_hero_of_its_kingdom(rules):
    for plan, control, ((seat, featured, g), (_, other, _)) in _setups(rules, "guozhan", 5, "guanyu"):
        mine, theirs = featured[seat]["heroes"], other[seat]["heroes"]
        assert sorted(mine) == sorted(["guanyu", plan.partner]) and sorted(theirs) == sorted([control.hero, plan.partner])
        assert mine.index("guanyu") == int(plan.deputy)  # main in even games, deputy in odd ones
        assert {g.rules.heroes[h].kingdom for h in mine + theirs} == {"shu"}
        assert [x for x in featured if x["seat"] != seat] == [x for x in other if x["seat"] != seat]


@pytest.mark.parametrize("mode,players,rows", [("1v1", "2", ["lord", "renegade", "all"]),
                                                ("hegemony", "4", None)])
def test_simulate_hero_in_every_mode(mode, players, rows):
    r = run("simulate", "--mode", mode, "--players", players, "--hero", "关羽", "--games", "6", "--seed", "1",
            "--agent", "random", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    f = data["featured"][0]
    assert f["rows"][-1]["featured"]["games"] == 6 and not data["errors"]
    if rows:
        assert [row["identity"] for row in f["rows"]] == rows
    else:  # 国战: per side the hero ended on (蜀, or 野心家 when 蜀 was more than half the table)
        assert {row["identity"] for row in f["rows"]} <= {"shu", "careerist", "all"}


def test_ablate_says_what_each_skill_is_worth():
    r = run("simulate", "--hero", "诸葛亮", "--games", "8", "--seed", "1", "--agent", "random", "--ablate", "--json",
            "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert data["ablation_games"] == 16  # 观星 and 空城, 8 games each
    rows = data["featured"][0]["ablation"]
    assert [a["skill"] for a in rows] == ["guanxing", "kongcheng"]  # a status skill (空城) gets its row too
    assert all(a["ablated"]["games"] == 8 and a["featured"]["games"] == 8 for a in rows)
    r = run("simulate", "--games", "2", "--ablate")
    assert r.exit_code == 2 and "give --hero too" in r.output


def test_1v1_draft_bots_honour_pick(rules):
    from sgsdsl.bots.heuristic import HeuristicAgent

    class View:
        def __init__(self):
            import random

            self.rules, self.agent_rng = rules, random.Random(1)
            self.mode = rules.modes["duel"]

    options = ["caocao", "huatuo", "lvmeng", "zhouyu"]
    req = Request("option", None, options, prompt="选择武将")
    bot = HeuristicAgent()
    bot.pick = "strongest"
    strongest = max(options, key=lambda h: rules.heroes[h].hp_halves + 2 * len(rules.heroes[h].skills))
    assert {bot.on_option(View(), req) for _ in range(20)} == {strongest}
    bot.pick = "uniform"
    v = View()
    assert {bot.on_option(v, req) for _ in range(200)} == set(options)
