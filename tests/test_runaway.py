"""Runaway rules at run time end in a rules error that names them, never in a hang or a RecursionError.

tests/data/runaway.sgs holds one hero per kind of runaway: a `while true`, a `repeat inf`, a
skill that reopens its own window, a flow that calls itself, two skills that open each other's
window, issue 13's pair of HP skills that feed each other, and a quantity defined through itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.bots.agents import FirstAgent
from sgsdsl.cli import main
from sgsdsl.engine.game import Game
from sgsdsl.engine.ruleset import Ruleset
from sgsdsl.engine.runaway import RunawayError, RunLimits, cycle
from sgsdsl.lang import compiler
from sgsdsl.sim.batch import run_batch

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "runaway.sgs"
F = "tests/data/runaway.sgs"

# hero at seat 1, hero at seat 2 -> what the message must say: the limit hit, the window, the rules.
CASES = {
    "while": ("痴人", "曹操", "the `while` at " + F + ":7 in skill 空转", "回合开始时", [f"{F}:7"]),
    "repeat": ("复读", "曹操", "the `repeat` at " + F + ":13 in skill 复读机", "回合开始时", [f"{F}:13"]),
    "reopen": ("回声", "曹操", "event stack reached", "回合开始时", [f"skill 回响 — {F}:19"]),
    "flow": ("轮回", "曹操", "event stack reached", "回合开始时", [f"flow 无尽 — {F}:22"]),
    "pingpong": ("阴阳", "曹操", "event stack reached", "回合", [f"skill 阳技 — {F}:32", f"skill 阴技 — {F}:36"]),
    "hp": ("损者", "益者", "event stack reached", "失去体力后",
           [f"skill 自损 — {F}:47", f"skill 回春 — {F}:52", "flow 失去体力 — rules/core/flows.sgs",
            "flow 回复 — rules/core/flows.sgs"]),
    "quantity": ("深渊", "曹操", "call themselves without end", "回合开始时", [f"quantity 无底 — {F}:55"]),
}


@pytest.fixture(scope="module")
def runaway_rules():
    b = compiler.build(extra=[DATA])
    assert not b.errors
    return Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])


def first_turn(rules, heroes, limits=None, seed=7) -> Game:
    g = Game(rules, players=2, seed=seed, agents=[FirstAgent(), FirstAgent()], limits=limits)
    g.build_deck(list(rules.modes["identity"].decks))
    for p, h in zip(g.players, heroes):
        g.set_hero(p, rules.names[h][1])
    g.play_turn(g.players[0])
    return g


@pytest.mark.parametrize("case", sorted(CASES))
def test_runaway_is_a_rules_error_naming_its_rules(runaway_rules, case):
    a, b, what, window, rules = CASES[case]
    with pytest.raises(RunawayError) as e:
        first_turn(runaway_rules, (a, b))
    msg = str(e.value)
    assert msg.startswith("runaway rules (seed 7, turn 1, at " + window), msg
    assert what in msg, msg
    for r in rules:
        assert r in msg, msg
    assert "help: " in msg


def test_the_limits_are_settings(runaway_rules):
    with pytest.raises(RunawayError, match="reached 30 frames"):
        first_turn(runaway_rules, ("回声", "曹操"), RunLimits(depth=30))
    with pytest.raises(RunawayError, match="ran past 50 rounds"):
        first_turn(runaway_rules, ("痴人", "曹操"), RunLimits(loop=50))
    # the deepest setting still ends in the limit, not in Python's RecursionError
    with pytest.raises(RunawayError, match="reached 1000 frames"):
        first_turn(runaway_rules, ("轮回", "曹操"), RunLimits(depth=1000))
    with pytest.raises(ValueError):
        RunLimits(depth=5)


def test_the_shipped_rules_stay_far_below_the_depth_limit(rules):
    """A legitimate game never comes near the default limit: games pass with a quarter of it."""
    results, _ = run_batch(rules, mode="identity", players=8, games=40, seed=11, agent="heuristic",
                           limits=RunLimits(depth=25))
    assert not [r.error for r in results if r.error]


def test_cycle_picks_one_round():
    class F:
        def __init__(self, kind, name, loc):
            self.kind, self.name, self.loc = kind, name, loc

    turn = F("flow", "回合", "core:5")
    a, b = F("skill", "甲", "x:1"), F("skill", "乙", "x:2")
    assert cycle([turn, a, b, a, b, a, b]) == [a, b]
    assert [f.name for f in cycle([turn, a, b])] == ["回合", "甲", "乙"]  # no round: the distinct frames


def test_simulate_reports_a_runaway_game(tmp_path):
    """Through the CLI: the batch goes on, the broken games say which rules ran away, exit 1."""
    r = CliRunner().invoke(main, ["simulate", str(DATA), "--games", "40", "--players", "4", "--agent", "random",
                                  "--depth-limit", "40", "--json"])
    assert r.exit_code == 1, r.output
    errors = json.loads(r.stdout)["errors"]
    assert errors and all("runaway rules (seed " in e for e in errors), errors
    assert not any("RecursionError" in e for e in errors)
    assert any("reached 40 frames" in e for e in errors)


def test_a_huge_number_in_a_log_line_does_not_break_the_game(tmp_path):
    """Python will not print an integer of more than 4,300 digits; the log shows its size instead."""
    from sgsdsl.scenarios.runner import run_test, scenario_jobs

    f = tmp_path / "big.sgs"
    f.write_text("""
hero 巨数 jushu { kingdom 群  hp 4  gender 男  skills 累乘 }
skill 累乘 leicheng locked {
  "锁定技，回合开始时，你计算一个很大的数。"
  on 回合开始时 do {
    let x = 1000000
    repeat 1000 { x = x * 1000000 }
    log "x={x} y={x + 1 - x}"
  }
  test "a huge number in a log line" {
    seat 巨数
    seat 曹操
    expect log "x=约10^6006 y=1"
  }
}
""", encoding="utf-8")
    b = compiler.build(extra=[f])
    assert not b.errors
    jobs = [(r, t) for r, t in scenario_jobs([m.TABLES for m in compiler.modules_in_memory(b)])
            if t.title == "a huge number in a log line"]
    result = run_test(*jobs[0])
    assert result.ok, result.failures


GROWING = ROOT / "tests" / "data" / "growing.sgs"
G = "tests/data/growing.sgs"


@pytest.fixture(scope="module")
def growing_rules():
    b = compiler.build(extra=[GROWING])
    assert not b.errors
    return Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])


@pytest.mark.parametrize("hero,what", [
    ("贪心", f"`xs` (built by the `repeat` at {G}:10) grew to a list of 131,072 items"),
    ("方士", f"`n` (built by the `repeat` at {G}:19) grew to a number of about"),
    ("囤积", "the mark `jizan_pile` of 囤积 grew to a list of"),
])
def test_a_value_that_only_grows_is_a_runaway(growing_rules, hero, what):
    """Each loop ends, but what it builds doubles every round: stopped at the size limit of a value,
    named like any runaway, long before the memory runs out."""
    g = Game(growing_rules, players=2, seed=7, agents=[FirstAgent(), FirstAgent()])
    g.build_deck(list(growing_rules.modes["identity"].decks))
    for p, h in zip(g.players, (hero, "曹操")):
        g.set_hero(p, growing_rules.names[h][1])
    with pytest.raises(RunawayError) as e:
        for _ in range(40):  # the mark doubles once a turn
            g.play_turn(g.players[0])
    msg = str(e.value)
    assert msg.startswith("runaway rules (seed 7, turn "), msg
    assert what in msg and "past the limit of a value the rules build" in msg and "help: " in msg, msg


@pytest.mark.parametrize("mode,where", [("spin_mode", "the `while` at tests/data/runaway_modes.sgs:23"),
                                        ("grow_mode", "`xs` (built by the `repeat` at tests/data/runaway_modes.sgs:48)")])
def test_play_names_the_runaway(mode, where):
    """`sgsdsl play` ends a game its rules broke as `simulate` and `test` do: one error naming the loop,
    exit 1, never a traceback."""
    r = CliRunner().invoke(main, ["play", str(ROOT / "tests/data/runaway_modes.sgs"), "--mode", mode, "--seed", "3"],
                           input="1\n" * 20)
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "error: the game broke: runaway rules (seed 3, turn 1" in r.stderr, r.stderr
    assert where in r.stderr and "Traceback" not in r.output
