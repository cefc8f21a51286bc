"""Golden diagnostics: what a designer sees for a broken rules file.

Each tests/diagnostics/NAME.sgs holds one mistake a designer would make (its first line says
which) and NAME.expected the exact text `sgsdsl check` prints for it. The files are compiled as a
designer's file, with the shipped rules, from the project root. SGSDSL_UPDATE_GOLDEN=1 rewrites
the .expected files instead of comparing (review the diff before committing it).

House rule: bad input gets a clear error, never a traceback: `path:line:col: error[SGSnnn]:
message`, the source line, a caret and a help line; exit code 1 (2 for usage errors).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import shipped_parse_cache

from sgsdsl.cli import main
from sgsdsl.lang.compiler import build
from sgsdsl.lang.diagnostics import CODES, render_all

ROOT = Path(__file__).resolve().parent.parent
FOLDER = Path("tests") / "diagnostics"
CASES = sorted(p.stem for p in (ROOT / FOLDER).glob("*.sgs"))
UPDATE = os.environ.get("SGSDSL_UPDATE_GOLDEN") == "1"
HEADER = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>SGS\d{3})\]: \S")


@pytest.fixture(scope="module", autouse=True)
def fast_shipped():
    with shipped_parse_cache():
        yield


@pytest.fixture
def at_root(monkeypatch):
    """Paths print relative to the project root, as `sgsdsl check` shows them there."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("SGSDSL_ROOT", raising=False)


def test_the_folder_covers_enough_mistakes():
    assert len(CASES) >= 24
    assert sorted(p.stem for p in (ROOT / FOLDER).glob("*.expected")) == CASES or UPDATE


@pytest.mark.parametrize("name", CASES)
def test_diagnostic(at_root, name):
    path = FOLDER / f"{name}.sgs"
    b = build(extra=[path])
    text = render_all(b.diagnostics, b.sources) + "\n"
    golden = ROOT / FOLDER / f"{name}.expected"
    if UPDATE:
        golden.write_text(text, encoding="utf-8")
    else:
        assert golden.exists(), f"no {golden.name}: run with SGSDSL_UPDATE_GOLDEN=1"
        assert text == golden.read_text(encoding="utf-8")

    # One mistake, one diagnostic: no cascade of follow-up errors.
    assert len(b.diagnostics) == 1, text
    d = b.diagnostics[0]
    assert d.severity == "error"
    assert d.code in CODES
    assert d.span.file == path.as_posix()
    assert d.span.line > 0 and d.span.col > 0
    assert all(n.span.line > 0 and n.span.col > 0 for n in d.notes)
    if name.startswith("misspelt_"):
        assert d.help and "did you mean '" in d.help, text

    # The shape the house rule asks for.
    lines = text.splitlines()
    m = HEADER.match(lines[0])
    assert m and m["file"] == path.as_posix() and m["code"] == d.code, lines[0]
    assert re.match(rf"^ {d.span.line} \| ", lines[1]), "the source line"
    assert re.match(r"^ +\| +\^+$", lines[2]), "a caret under it"
    assert lines[-1].startswith("  help: "), "a help line"


# ---- the command line -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["syntax_missing_brace", "misspelt_window", "type_draw_text", "not_utf8"])
def test_check_command_reports_a_broken_file(at_root, name):
    r = CliRunner().invoke(main, ["check", (FOLDER / f"{name}.sgs").as_posix()])
    assert r.exit_code == 1, r.output
    assert isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    expected = (ROOT / FOLDER / f"{name}.expected").read_text(encoding="utf-8")
    assert expected in r.stderr
    assert r.stdout == ""


def test_check_command_rejects_a_missing_path(at_root):
    r = CliRunner().invoke(main, ["check", "tests/diagnostics/no_such_file.sgs"])
    assert r.exit_code == 2, r.output
    assert isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    assert "no_such_file.sgs" in r.stderr


@pytest.mark.parametrize("decl", ["counter 体 hp per game", "pile 手 hand", "counter 活 alive per turn",
                                  "counter 数 hand_count per turn", "counter 国 kingdom per game", "counter 甲 hand: bool per turn"])
def test_a_counter_named_after_a_built_in_attribute_is_one_error_in_its_file(tmp_path, decl):
    """`p.hp` reads a player's HP in every rule: a designer's counter, mark or pile called hp would take its
    place there (silently, or as errors in the shipped rules). It is one error, at the designer's name."""
    from sgsdsl.lang import compiler

    f = tmp_path / "shadow.sgs"
    f.write_text("hero 体者 tizhe { kingdom 群  hp 4  gender 男  skills 体技 }\nskill 体技 tiji {\n  " + decl +
                 '\n  "回合开始时，你摸一张牌。"\n  on 回合开始时 do { draw(self, 1) }\n}\n', encoding="utf-8")
    b = compiler.build(extra=[f])
    assert [(d.code, d.span.file.endswith("shadow.sgs"), d.span.line) for d in b.errors] == [("SGS102", True, 3)], \
        [str(d) for d in b.errors]
    assert "is a built-in attribute of a player" in b.errors[0].message
