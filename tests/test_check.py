"""`sgsdsl check`: the conflict families on a corpus of small rules files (tests/check/), each
with its expected output as a snapshot; the shipped rules; the command line and --scenario."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl import compiler
from sgsdsl.check import CATALOGUE, run_checks
from sgsdsl.check.facts import facts_of
from sgsdsl.check.fields import explain
from sgsdsl.check.loops import analyse
from sgsdsl.cli import main
from sgsdsl.diagnostics import render_all

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((Path(__file__).resolve().parent / "check").glob("*.sgs"))
C = str(Path(__file__).resolve().parent / "check")
# file prefix -> the codes that file's findings must come from
FAMILY = {"modifiers": ("SGS30", "SGS381"), "replacements": ("SGS31", "SGS382"), "loops": ("SGS32", "SGS383"),
          "dead": ("SGS33",),
          "fields": ("SGS34", "SGS107"), "data": ("SGS35",), "text": ("SGS36",), "pairs": ("SGS38",),
          "acknowledged": ("SGS30",)}

_parsed: dict = {}
_real_parse = compiler.parse


def _parse(text: str, path: str):
    # The shipped rules are parsed once for the whole module: the trees are frozen, so every build
    # can share them (each build has its own model and annotations).
    key = (path, text)
    if key not in _parsed:
        _parsed[key] = _real_parse(text, path)
    return _parsed[key]


@pytest.fixture(autouse=True)
def _fast_parse(monkeypatch):
    monkeypatch.setattr(compiler, "parse", _parse)


def _build(path: Path | None = None):
    return compiler.build(extra=[path] if path else None, root=ROOT)


def _shipped_lines(text: str) -> str:
    """Locations in the shipped rules move as they are edited: keep the file, drop line and column."""
    return re.sub(r"(rules/[\w/]+\.sgs):\d+:\d+", r"\1:L:C", text)


def findings_of(path: Path) -> tuple[list, str]:
    b = _build(path)
    if b.errors:
        diags = explain(b, b.errors)
        return diags, render_all(diags, b.sources)
    diags = run_checks(b, only_designer=True)
    out = render_all(diags, b.sources)
    if path.stem.endswith("near_miss") and path.stem.startswith("loops"):
        rel = b.rel(str(path))
        lines = [f"loop {' → '.join(r.name for r in c.rules)}: stopped by {c.stop}"
                 for c in analyse(facts_of(b)) if any(r.span.file == rel for r in c.rules)]
        out += ("\n" if out else "") + "\n".join(lines)
    return diags, out


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus(path: Path, snapshot):
    diags, out = findings_of(path)
    family = FAMILY[path.stem.split("_")[0]]
    if path.stem.endswith("near_miss"):
        assert diags == [], out
    else:
        assert diags, f"{path.name} must have findings"
        assert all(d.code.startswith(family) for d in diags), out
    if path.stem == "acknowledged":
        assert all(d.acknowledged for d in diags)
    assert _shipped_lines(out) == snapshot


def test_every_family_has_two_finds_and_a_near_miss():
    for prefix in FAMILY:
        if prefix == "acknowledged":
            continue
        files = [p.stem for p in CORPUS if p.stem.split("_")[0] == prefix]
        assert sum(not f.endswith("near_miss") for f in files) >= 2, prefix
        assert any(f.endswith("near_miss") for f in files), prefix


def test_shipped_rules_check_clean_or_acknowledged():
    b = _build()
    assert not b.errors
    found = run_checks(b)
    assert all(d.acknowledged for d in found), render_all([d for d in found if not d.acknowledged], b.sources)
    acknowledged = {(d.code, d.message) for d in found}
    assert ("SGS312", "护驾 (曹操) and 八卦阵 both replace event.card at 需要响应时") in acknowledged


def test_shipped_loops_are_stopped_and_say_why():
    stops = {tuple(r.name for r in c.rules): c.stop for c in analyse(facts_of(_build()))}
    assert stops and all(stops.values())
    assert "reads alive" in stops[("刚烈",)]


def test_check_is_fast_on_the_shipped_rules():
    b = _build()
    t = time.perf_counter()
    run_checks(b)
    assert time.perf_counter() - t < 0.5


def test_catalogue_names_and_docs():
    docs = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    for code, (name, why) in CATALOGUE.items():
        assert re.fullmatch(r"SGS3\d\d", code) and re.fullmatch(r"[a-z]+(-[a-z]+)+", name) and why
        assert f"`{code}`" in docs and name in docs, code


# ---- the command line ---------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_exit_codes():
    assert run("check").exit_code == 0
    assert run("check", C + "/modifiers_near_miss.sgs").exit_code == 0
    r = run("check", C + "/loops_self.sgs")
    assert r.exit_code == 1 and "warning[SGS321]" in r.output and "(trigger-loop)" in r.output
    assert run("check", "no/such/file.sgs").exit_code == 2


def test_cli_select_ignore_and_acknowledged():
    path = C + "/dead_window.sgs"
    r = run("check", path, "--select", "SGS333")
    assert r.exit_code == 1 and "SGS333" in r.output and "SGS331" not in r.output
    assert run("check", path, "--ignore", "SGS33").exit_code == 0
    r = run("check", C + "/acknowledged.sgs")
    assert r.exit_code == 0 and "acknowledged:" in r.output and "1 acknowledged" in r.output


def test_cli_json():
    r = run("check", C + "/pairs_replace.sgs", "--format", "json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["warnings"] == 2 and data["acknowledged"] == 0
    d = data["diagnostics"][0]
    assert {"code", "name", "severity", "message", "file", "line", "col", "help", "notes", "principle"} <= set(d)
    assert d["code"] == "SGS382" and d["name"] == "pair-competing-replacements" and "②" in d["principle"]


def test_cli_explains_unknown_fields():
    r = run("check", C + "/fields_unknown.sgs")
    assert r.exit_code == 1 and r.output.count("SGS107") == 1
    assert "event 'response' carries 'pattern' (at 需要响应时)" in r.output


def test_scenarios_run_with_sgsdsl_test(tmp_path):
    written = []
    for name in ("modifiers_event_writes", "pairs_replace", "loops_cycle"):
        out = tmp_path / name
        r = run("check", f"{C}/{name}.sgs", "--scenario", str(out))
        assert r.exit_code == 1 and "scenario file(s)" in r.output
        files = sorted(out.glob("*.sgs"))
        assert files
        written += files
        r = run("test", f"{C}/{name}.sgs", *map(str, files))
        assert r.exit_code == 0, r.output
    texts = "".join(f.read_text(encoding="utf-8") for f in written)
    # the two orders of one owner's skills end differently, side by side
    assert "(定摸 first)" in texts and "(减摸 first)" in texts
    assert "expect 手牌上限(囤积) == 4" in texts
