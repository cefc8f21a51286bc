"""Rulesets for the engine: the committed generated modules, or a designer's files compiled in memory."""

from __future__ import annotations

from pathlib import Path

from .compiler import Build, build, load_generated, modules_in_memory, project_root
from .diagnostics import CompileError
from .engine.ruleset import Ruleset


def shipped() -> Ruleset:
    """The shipped rules, from generated/ (no parsing: the fast path)."""
    root = project_root()
    mods = load_generated(root)
    if not mods:
        b = build(root=root)
        if b.errors:
            raise CompileError(b.errors)
        mods = modules_in_memory(b)
    return Ruleset([m.TABLES for m in mods])


def with_files(paths: list[Path]) -> tuple[Ruleset, Build]:
    """The shipped rules plus a designer's files, compiled together in memory."""
    b = build(extra=paths)
    if b.errors:
        raise CompileError(b.errors)
    return Ruleset([m.TABLES for m in modules_in_memory(b)]), b


def load(paths: list[Path] | None = None) -> Ruleset:
    return with_files(paths)[0] if paths else shipped()
