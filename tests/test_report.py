"""The HTML report: one self-contained page from `simulate --json`, and its usage errors."""

import json
import re
import sys

import plotly.offline
import pytest
from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "results.json"
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "12", "--seed", "5", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    path.write_text(r.stdout, encoding="utf-8")
    return path


def test_report_is_one_self_contained_page(results, tmp_path):
    out = tmp_path / "report.html"
    r = run("report", str(results), "-o", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    bundle = plotly.offline.get_plotlyjs()
    assert page.count(bundle) == 1  # plotly.js is inlined, once
    rest = page.replace(bundle, "")
    assert not re.search(r"<(script|link|img)[^>]*(src|href)=", rest)  # nothing is fetched: no network needed
    assert page.count("Plotly.newPlot(") == 4  # identities, the featured rates, the deltas, game lengths
    for div in ("chart-identities", "chart-rates-0", "chart-delta-0", "chart-turns"):
        assert f'id="{div}"' in page
    data = json.loads(results.read_text(encoding="utf-8"))
    assert "锁定技，当你受到【杀】造成的伤害后" in page and data["command"] in page
    assert data["featured"][0]["rows"][-1]["verdict"] in page
    # the same results give the same page
    again = tmp_path / "again.html"
    run("report", str(results), "-o", str(again))
    assert again.read_text(encoding="utf-8") == page


def test_simulate_html_writes_the_same_page(results, tmp_path):
    out = tmp_path / "sim.html"
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "12", "--seed", "5", "--quiet",
            "--html", str(out))
    assert r.exit_code == 0, r.output
    ref = tmp_path / "ref.html"
    run("report", str(results), "-o", str(ref))
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")


def test_report_rejects_what_is_not_a_simulate_result(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": 3}', encoding="utf-8")
    r = run("report", str(bad), "-o", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "not the output of `sgsdsl simulate --json`" in r.output
    bad.write_text("{", encoding="utf-8")
    assert run("report", str(bad), "-o", str(tmp_path / "x.html")).exit_code == 2
    assert run("report", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.html")).exit_code == 2


def test_a_missing_extra_says_how_to_install_it(results, tmp_path, monkeypatch):
    for name in {"plotly", "statsmodels"} | {m for m in sys.modules if m.split(".")[0] in ("plotly", "statsmodels")}:
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails
    r = run("report", str(results), "-o", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "pip install 'sgsdsl[report]'" in r.output
    r = run("simulate", "--games", "2", "--quiet", "--html", str(tmp_path / "y.html"))
    assert r.exit_code == 2 and "pip install 'sgsdsl[report]'" in r.output
    r = run("simulate", "--games", "2", "--quiet", "--hero", "关羽")
    assert r.exit_code == 2 and "needs statsmodels" in r.output
    assert run("simulate", "--games", "2", "--quiet").exit_code == 0  # plain figures need neither
