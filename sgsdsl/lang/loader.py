"""Rulesets for the engine: the committed generated modules, or rules compiled in memory.

A ruleset holds the default packages plus any variant packages chosen (`variants`).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ..engine.ruleset import Ruleset
from ..engine.tables import Tables
from .compiler import Build, build, load_generated, modules_in_memory, project_root
from .diagnostics import CompileError


def _stale(root: Path, tables: list[Tables]) -> bool:
    """Do the generated tables still match the rules text? (Compares the stamped source digests.)"""
    packages = {d.name for d in (root / "rules").iterdir() if d.is_dir() and any(d.glob("*.sgs"))}
    if packages != {t.package for t in tables}:
        return True
    for t in tables:
        h = hashlib.sha256()
        try:
            for f in sorted(t.sources):
                h.update(f.encode("utf-8") + b"\0")
                h.update((root / f).read_text(encoding="utf-8").encode("utf-8") + b"\0")
        except (OSError, UnicodeDecodeError):
            return True
        if h.hexdigest()[:16] != t.source_hash:
            return True
    return False


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
    tables = [m.TABLES for m in load_generated(root)]
    if (root / "rules").is_dir() and _stale(root, tables):
        print("note: generated/ does not match rules/; compiling in memory (run `sgsdsl compile`)", file=sys.stderr)
        return compiled_tables()[0]
    return tables


def shipped(variants=()) -> Ruleset:
    return Ruleset(shipped_tables(), variants)


def load(paths: list[Path] | None = None, fresh: bool = False, variants=()) -> Ruleset:
    if paths or fresh:
        return compiled(paths, variants)[0]
    return shipped(variants)
