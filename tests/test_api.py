"""The library API (docs/api.md): `import sgsdsl`, `python -m sgsdsl`, and the notebook on the page."""

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import sgsdsl
from sgsdsl.tools.docs import notebook_cells, render_notebook

ROOT = Path(__file__).resolve().parent.parent
API_MD = ROOT / "docs" / "api.md"


def test_version_and_python_dash_m():
    assert sgsdsl.__version__ == metadata.version("sgsdsl")
    r = subprocess.run([sys.executable, "-m", "sgsdsl", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and sgsdsl.__version__ in r.stdout
    r = subprocess.run([sys.executable, "-m", "sgsdsl", "test", "-k", "奸雄"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "3 passed" in r.stdout


def test_the_notebook_runs_and_its_output_is_current():
    text = API_MD.read_text(encoding="utf-8")
    assert len(notebook_cells(text)) == 4
    assert render_notebook(text) == text, "docs/api.md is stale: run `sgsdsl docs`"


def test_check_is_the_library_function_even_after_the_conflict_checks_are_imported():
    import inspect

    import sgsdsl.conflicts  # noqa: F401 - the package of the conflict checks: a name of its own

    assert inspect.isfunction(sgsdsl.check)
    assert sgsdsl.check("examples/yanyan.sgs") == []
    found = sgsdsl.check(select=["SGS3"])
    assert all(d.code.startswith("SGS3") for d in found)


def test_errors_are_located_not_tracebacks(tmp_path):
    bad = tmp_path / "bad.sgs"
    bad.write_text("skill 英才 yingcai { on 受到伤害候 do { } }\n", encoding="utf-8")
    with pytest.raises(sgsdsl.CompileError) as e:
        sgsdsl.load(bad)
    d = e.value.diagnostics[0]
    assert d.code == "SGS104" and d.span.line == 1 and "受到伤害后" in d.help
    assert [x.code for x in sgsdsl.check(bad)] == ["SGS104"]
    with pytest.raises(FileNotFoundError):
        sgsdsl.load(tmp_path / "missing.sgs")


def test_games_are_deterministic_and_arguments_checked():
    rules = sgsdsl.load()
    a = sgsdsl.run(sgsdsl.new_game(rules, players=4, seed=11, agent="random"))
    b = sgsdsl.run(sgsdsl.new_game(rules, players=4, seed=11, agent="random"))
    assert a == b and a.log and len(a.seats) == 4
    assert set(a.winners) == {ident for _, ident, won in a.seats if won}
    for bad in ({"players": 12}, {"mode": "斗地主"}, {"agent": "genius"}, {"decks": ["nodeck"]}):
        with pytest.raises(ValueError):
            sgsdsl.new_game(rules, **bad)
    stats = sgsdsl.simulate(rules, games=4, players=4, seed=2, agent="random")
    assert stats["games"] == 4 and not stats["errors"]
    assert sum(h["games"] for h in stats["heroes"] + stats["lords"]) == 16


def test_license_matches_the_metadata():
    md = metadata.metadata("sgsdsl")
    assert md["License-Expression"] == "MIT" and "LICENSE" in (md.get_all("License-File") or [])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert md.get_all("Classifier") and md["Keywords"]
    # no public URL exists yet (see pyproject.toml): no Project-URL may be a relative path, and the README,
    # which links the docs, is the description a package index shows
    for entry in md.get_all("Project-URL") or []:
        label, _, url = entry.partition(", ")
        assert url.startswith("https://"), f"Project-URL {label} is not an absolute URL: {url!r}"
    assert md["Description-Content-Type"] == "text/markdown"
    description = md.get_payload() or md["Description"] or ""
    assert all(f"({doc})" in description for doc in ("docs/language.md", "docs/checks.md", "docs/api.md"))
