"""Snapshots of `info --json` and `explain` for a skill, a card and a window."""

import json

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_info_json_snapshot(snapshot):
    data = json.loads(run("info", "--json"))
    data["packages"] = {k: {kk: vv for kk, vv in v.items() if kk != "tests"} for k, v in data["packages"].items()}
    data.pop("tests")
    assert data == snapshot


@pytest.mark.parametrize("name", ["奸雄", "八卦阵", "受到伤害后", "流离", "伤害"])
def test_explain_snapshot(name, snapshot):
    assert run("explain", name) == snapshot


def test_explain_shows_each_choices_derived_intent():
    out = run("explain", "遗计")
    assert "a player 「将一张「遗计」牌交给一名角色」: good for the chosen (gains cards)" in out
    out = run("explain", "突袭")
    assert "for its owner good, for its targets bad" in out and "its targets: bad for the chosen (has cards taken)" in out
    assert "a card 「获得其一张手牌」: goes to the chooser's hand" in out
    # 流离 moves the 杀 by assigning event.target: nothing the analysis follows befalls the chosen
    assert "a player 「将此【杀】转移给」: not derived" in run("explain", "流离")
