"""docs/language.md's reference tables are generated from the registry and must be current."""

from pathlib import Path

import pytest

from sgsdsl.tools.docs import render

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def test_language_reference_is_fresh():
    text = DOC.read_text(encoding="utf-8")
    assert render(text) == text, "docs/language.md is stale: run `sgsdsl docs`"


def test_every_primitive_and_window_is_documented():
    from sgsdsl.lang.surface import FUNCS

    text = DOC.read_text(encoding="utf-8")
    for name in FUNCS:
        assert f"`{name}`" in text


def test_readme_commands_table_lists_every_command_and_option():
    import click

    from sgsdsl.cli import main

    readme = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    assert render(readme, main) == readme, "README.md's Commands table is stale: run `sgsdsl docs`"
    table = readme[readme.index("<!-- generated:commands -->"):readme.index("<!-- end:commands -->")]
    for name, cmd in main.commands.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `sgsdsl {name}"))
        for p in cmd.params:
            if isinstance(p, click.Option):
                for opt in p.opts + p.secondary_opts:
                    assert opt in row, (name, opt)


def test_docs_refuses_outside_a_source_checkout(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from sgsdsl.cli import main

    # an installed wheel: the shipped rules and generated tables, no docs to regenerate
    (tmp_path / "rules").mkdir()
    (tmp_path / "generated").mkdir()
    monkeypatch.setenv("SGSDSL_ROOT", str(tmp_path))
    r = CliRunner().invoke(main, ["docs"])
    assert r.exit_code == 2 and "no source checkout" in r.output
    assert not list(tmp_path.rglob("*.md")) and not (tmp_path / "editors").exists()


def test_docs_check_names_the_stale_file(tmp_path, monkeypatch):
    import shutil

    from click.testing import CliRunner

    from sgsdsl.cli import main

    root = DOC.parent.parent
    for rel in ("docs/language.md", "README.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / rel, tmp_path / rel)
    shutil.copytree(root / "rules", tmp_path / "rules")
    monkeypatch.setenv("SGSDSL_ROOT", str(tmp_path))
    r = CliRunner().invoke(main, ["docs", "--check"])
    assert r.exit_code == 1 and "sgs.tmLanguage.json: stale" in r.output
    r = CliRunner().invoke(main, ["docs"])
    assert r.exit_code == 0 and "sgs.tmLanguage.json: updated" in r.output
    r = CliRunner().invoke(main, ["docs"])
    assert r.exit_code == 0 and "README.md: unchanged" in r.output and "updated" not in r.output


# ---- the guide's examples ---------------------------------------------------------------------
# A block fenced ```sgs is a whole file written for the guide: it must check clean (notes and
# acknowledged findings aside) and its scenario tests must pass. A plain ``` block is copied from
# the rules: each of its lines must be found in rules/, examples/ or tests/scenarios/. Synopses,
# commands and outputs are fenced ```text.
COPIED_FROM = ("rules", "examples", "tests/scenarios")


def _guide_blocks() -> list[tuple[int, str, str]]:
    import re

    text = DOC.read_text(encoding="utf-8")
    text = text[:text.index("## Reference tables")]
    out = []
    for m in re.finditer(r"^( *)```(\w*)\n(.*?)^\1```$", text, re.M | re.S):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(2), m.group(3)))
    return out


BLOCKS = _guide_blocks()


def test_guide_blocks_are_marked():
    kinds = {info for _, info, _ in BLOCKS}
    assert kinds <= {"", "sgs", "text", "sh"}, kinds
    assert sum(info == "sgs" for _, info, _ in BLOCKS) >= 3


def test_copied_examples_are_found_in_the_rules():
    root = DOC.parent.parent
    lines = {line.strip() for folder in COPIED_FROM for f in (root / folder).rglob("*.sgs")
             for line in f.read_text(encoding="utf-8").splitlines()}
    stale = [(at, line.strip()) for at, info, body in BLOCKS if info == ""
             for line in body.splitlines() if line.strip() and line.strip() not in lines]
    assert not stale, "docs/language.md quotes lines no rules file has (update the quote, or fence it " \
        f"```sgs or ```text): {stale}"


@pytest.fixture(scope="module")
def parse_cache():
    from conftest import shipped_parse_cache

    with shipped_parse_cache():
        yield


@pytest.mark.parametrize("block", [b for b in BLOCKS if b[1] == "sgs"], ids=lambda b: f"line {b[0]}")
def test_guide_examples_check_and_pass_their_tests(block, tmp_path, parse_cache):
    import sgsdsl
    from sgsdsl.lang.loader import compiled_tables
    from sgsdsl.scenarios.runner import run_test, scenario_jobs

    at, _, body = block
    path = tmp_path / f"guide_line_{at}.sgs"
    path.write_text(body, encoding="utf-8")
    findings = [d for d in sgsdsl.check(path) if d.severity != "note" and d.acknowledged is None]
    assert not findings, [f"{d.code} {d.message}" for d in findings]
    for rules, t in scenario_jobs(compiled_tables([path])[0]):
        if not t.loc.startswith("rules/"):
            r = run_test(rules, t)
            assert r.ok, "\n".join(r.failures)
