"""Rulesets for the engine: the committed generated modules, or rules compiled in memory."""

from __future__ import annotations

import sys
from pathlib import Path

from .compiler import Build, build, load_generated, modules_in_memory, project_root
from .diagnostics import CompileError
from .engine.ruleset import Ruleset


def _stale(root: Path) -> bool:
    gen = [f.stat().st_mtime for f in (root / "generated").glob("*.py")]
    src = [f.stat().st_mtime for f in (root / "rules").glob("**/*.sgs")]
    return not gen or (bool(src) and max(src) > min(gen))


def compiled(extra: list[Path] | None = None) -> tuple[Ruleset, Build]:
    """The shipped rules (plus a designer's files) compiled in memory from rules/: always current."""
    b = build(extra=extra or None)
    if b.errors:
        raise CompileError(b.errors)
    return Ruleset([m.TABLES for m in modules_in_memory(b)]), b


def shipped() -> Ruleset:
    """The shipped rules from generated/ (no parsing: the fast path), unless rules/ changed since."""
    root = project_root()
    if (root / "rules").is_dir() and _stale(root):
        print("note: rules/ is newer than generated/; compiling in memory (run `sgsdsl compile`)", file=sys.stderr)
        return compiled()[0]
    return Ruleset([m.TABLES for m in load_generated(root)])


def with_files(paths: list[Path]) -> tuple[Ruleset, Build]:
    return compiled(paths)


def load(paths: list[Path] | None = None, fresh: bool = False) -> Ruleset:
    if paths or fresh:
        return compiled(paths)[0]
    return shipped()
