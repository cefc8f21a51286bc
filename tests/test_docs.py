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
