"""docs/language.md's reference tables are generated from the registry and must be current."""

from pathlib import Path

from sgsdsl.docs import render

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def test_language_reference_is_fresh():
    text = DOC.read_text(encoding="utf-8")
    assert render(text) == text, "docs/language.md is stale: run `sgsdsl docs`"


def test_every_primitive_and_window_is_documented():
    from sgsdsl.surface import FUNCS

    text = DOC.read_text(encoding="utf-8")
    for name in FUNCS:
        assert f"`{name}`" in text


def test_readme_commands_table_lists_every_command_and_option():
    import click

    from sgsdsl.cli import main

    readme = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    assert render(readme) == readme, "README.md's Commands table is stale: run `sgsdsl docs`"
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
