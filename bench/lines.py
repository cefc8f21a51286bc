"""How many rules lines a skill takes, per file: what a designer writes beyond the official text.

    python bench/lines.py examples/expansions.sgs rules/
    python bench/lines.py --skills examples/expansions.sgs     # each skill's count too
    python bench/lines.py --json examples/expansions.sgs rules/  # the figures as one object

A skill's rules lines are the non-blank lines inside its block (`skill … { … }`), its own `event` and
`flow` declarations and piles included, less the lines
that hold only its text (a string), comments, its `test` blocks, its `allow` lines and lines that
only close a block (`}`). The header line counts only when rules follow its `{`. PATHS are .sgs files or folders of them;
a path with no .sgs file, or files with no skill, is a usage error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from datetime import date
from pathlib import Path

from sgsdsl.lang import ast
from sgsdsl.lang.diagnostics import CompileError
from sgsdsl.lang.parser import parse


def skill_lines(text: str, path: str) -> list[tuple[str, int]]:
    """(skill name, rules lines) for each skill of one file."""
    lines = text.splitlines()
    out = []
    for d in parse(text, path).decls:
        if not isinstance(d, ast.SkillDecl):
            continue
        skip = set()
        for part in [*d.tests, *(f for f in d.facets if isinstance(f, ast.Allow))]:
            skip.update(range(part.span.line, part.span.end_line + 1))
        n = 0
        for no in range(d.span.line, d.span.end_line + 1):
            s = lines[no - 1].strip()
            if no in skip or not s or s.startswith(("#", '"')) or s == "}":
                continue
            if no == d.span.line and s.endswith("{"):
                continue  # the header: names, not rules
            n += 1
        out.append((d.name.text, n))
    return out


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def files_of(paths: list[str]) -> list[Path]:
    out = []
    for p in map(Path, paths):
        found = sorted(p.glob("**/*.sgs")) if p.is_dir() else [p] if p.suffix == ".sgs" and p.is_file() else []
        if not found:
            fail(f"{p}: no .sgs file there")
        out.extend(found)
    return out


def row(label: str, counts: list[int]) -> str:
    return (f"{label:<40} {len(counts):>6} {statistics.median(counts):>6g} {statistics.mean(counts):>6.1f} "
            f"{min(counts):>4} {max(counts):>4}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="PATHS")
    ap.add_argument("--skills", action="store_true", help="also print each skill's count")
    ap.add_argument("--json", action="store_true", help="print {path or all: {skills, median, mean}} as JSON")
    args = ap.parse_args()
    per_file: dict[Path, list[tuple[str, int]]] = {}
    for f in files_of(args.paths):
        try:
            per_file[f] = skill_lines(f.read_text(encoding="utf-8"), str(f))
        except CompileError as e:
            fail(f"{f}: {e}")
    if not any(per_file.values()):
        fail("no skill in " + ", ".join(args.paths))
    if args.json:
        groups = {f.as_posix(): [n for _, n in skills] for f, skills in per_file.items() if skills}
        groups["all"] = [n for ns in list(groups.values()) for n in ns]
        print(json.dumps({k: {"skills": len(ns), "median": statistics.median(ns), "mean": round(statistics.mean(ns), 1)}
                          for k, ns in groups.items()}, ensure_ascii=False))
        return
    print(f"rules lines per skill ({date.today().isoformat()}, `python bench/lines.py {' '.join(args.paths)}`)")
    print(f"{'file':<40} {'skills':>6} {'median':>6} {'mean':>6} {'min':>4} {'max':>4}")
    for f, skills in per_file.items():
        if skills:
            print(row(f.as_posix(), [n for _, n in skills]))
            if args.skills:
                for name, n in skills:
                    print(f"  {name} {n}")
    if len(per_file) > 1:
        print(row("all", [n for skills in per_file.values() for _, n in skills]))


if __name__ == "__main__":
    main()
