"""Rulesets for the engine: the committed generated modules, or rules compiled in memory.

A ruleset holds the default packages plus any variant packages chosen (`variants`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .compiler import Build, build, load_generated, modules_in_memory, project_root
from .diagnostics import CompileError
from .engine.ruleset import Ruleset
from .engine.tables import Tables


def _stale(root: Path) -> bool:
    gen = [f.stat().st_mtime for f in (root / "generated").glob("*.py")]
    src = [f.stat().st_mtime for f in (root / "rules").glob("**/*.sgs")]
    return not gen or (bool(src) and max(src) > min(gen))


def compiled_tables(extra: list[Path] | None = None) -> tuple[list[Tables], Build]:
    """Every package's tables, compiled in memory from rules/ (and a designer's files): always current."""
    b = build(extra=extra or None)
    if b.errors:
        raise CompileError(b.errors)
    return [m.TABLES for m in modules_in_memory(b)], b


def compiled(extra: list[Path] | None = None, variants=()) -> tuple[Ruleset, Build]:
    tables, b = compiled_tables(extra)
    return Ruleset(tables, variants), b


def shipped_tables() -> list[Tables]:
    """The shipped rules' tables from generated/ (no parsing: the fast path), unless rules/ changed since."""
    root = project_root()
    if (root / "rules").is_dir() and _stale(root):
        print("note: rules/ is newer than generated/; compiling in memory (run `sgsdsl compile`)", file=sys.stderr)
        return compiled_tables()[0]
    return [m.TABLES for m in load_generated(root)]


def shipped(variants=()) -> Ruleset:
    return Ruleset(shipped_tables(), variants)


def with_files(paths: list[Path], variants=()) -> tuple[Ruleset, Build]:
    return compiled(paths, variants)


def load(paths: list[Path] | None = None, fresh: bool = False, variants=()) -> Ruleset:
    if paths or fresh:
        return compiled(paths, variants)[0]
    return shipped(variants)
