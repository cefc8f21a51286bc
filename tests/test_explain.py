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
