"""`sgsdsl check`: rule-conflict findings (SGS3nn), one module per family."""

from __future__ import annotations

from ..compiler import Build
from ..diagnostics import Diagnostic

FAMILIES: list = []  # each: a function (build) -> list[Diagnostic]
CATALOGUE: dict[str, tuple[str, str]] = {}  # SGS3nn -> (kebab-case name, why it matters)


def catalogue() -> dict[str, tuple[str, str]]:
    return dict(sorted(CATALOGUE.items()))


def run_checks(b: Build, only_designer: bool = False) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for family in FAMILIES:
        out.extend(family(b))
    if only_designer:
        out = [d for d in out if not d.span.file.startswith("rules/") or
               any(not n.span.file.startswith("rules/") for n in d.notes)]
    return out
