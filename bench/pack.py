"""How long `sgsdsl check` takes over a designer's pack of a few hundred heroes.

    python bench/pack.py                 # 300 heroes, median of 3 runs
    python bench/pack.py --heroes 600 --keep pack.sgs
    python bench/pack.py --extremes      # also the largest inputs of the fuzz extremes set

The pack is made from the shipped heroes: hero i is a copy of a shipped hero (cycling through
them) whose hero, skills and skill counters are renamed with the suffix i, and whose scenario
tests are left out. So it has the shipped rules' mix of windows, writes, modifiers and loops,
and every pair of its heroes goes through the pair checks. The time is the whole `check`
pipeline in one process (parse, resolve, type-check, every conflict family), with the shipped
rules parsed as well, as `sgsdsl check PACK` does.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from sgsdsl.lang.compiler import build


def _cut(text: str, span, skip: list) -> str:
    """The source of a declaration, without the spans in `skip` (its tests)."""
    lines = text.split("\n")

    def off(line: int, col: int) -> int:
        return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1

    start, end = off(span.line, span.col), off(span.end_line, span.end_col)
    out, pos = [], start
    for s in sorted(skip, key=lambda s: (s.line, s.col)):
        a, b = off(s.line, s.col), off(s.end_line, s.end_col)
        out.append(text[pos:a])
        pos = b
    out.append(text[pos:end])
    return "".join(out)


def make_pack(heroes: int) -> str:
    """A rules file of `heroes` renamed copies of the shipped heroes (standard package)."""
    b = build()
    m = b.model
    shipped = [h for h in m.unique(m.heroes) if h.span.file.startswith("rules/standard/")]
    out = ["# A generated designer's pack (bench/pack.py): renamed copies of the shipped heroes."]
    for i in range(heroes):
        h = shipped[i % len(shipped)]
        sfx = f"{i}"
        skills = [m.skills[s.text] for s in h.skills]
        renames = {h.name.text: h.name.text + sfx, h.id.text: f"{h.id.text}_{sfx}"}
        for s in skills:
            renames[s.name.text] = s.name.text + sfx
            renames[s.id.text] = f"{s.id.text}_{sfx}"
            for c in s.counters:
                renames[c.name.text] = c.name.text + sfx
                renames[c.id.text] = f"{c.id.text}_{sfx}"
        words = re.compile("|".join(re.escape(k) for k in sorted(renames, key=len, reverse=True)))

        def rename(text: str) -> str:
            # whole words only: 奸雄 inside a longer name, or `jianxiong` inside `jianxiong_x`, stay
            return re.sub(r"(?<!\w)(" + words.pattern + r")(?!\w)", lambda mt: renames[mt.group(1)], text)

        out.append(rename(_cut(b.sources.texts[h.span.file], h.span, [])))
        for s in skills:
            out.append(rename(_cut(b.sources.texts[s.span.file], s.span, [t.span for t in s.tests])))
    return "\n".join(out) + "\n"


def check_seconds(path: Path) -> tuple[float, int, int]:
    """Seconds for the whole check of the pack, with the number of errors and of findings."""
    from sgsdsl.conflicts import run_checks

    start = time.perf_counter()
    b = build(extra=[path])
    findings = [] if b.errors else run_checks(b, only_designer=True)
    return time.perf_counter() - start, len(b.errors), len(findings)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--heroes", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3, help="runs; the median is shown")
    ap.add_argument("--keep", type=Path, help="also write the pack to this file")
    ap.add_argument("--extremes", action="store_true",
                    help="also time the fuzz extremes over 100 KB (10,000 skills, a 1,000,000-item list …)")
    ap.add_argument("--readme", action="store_true", help="write the report into README.md (figures:pack)")
    args = ap.parse_args()
    text = make_pack(args.heroes)
    if args.keep:
        args.keep.write_text(text, encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pack.sgs"
        path.write_text(text, encoding="utf-8")
        runs = [check_seconds(path) for _ in range(args.repeat)]
    secs = statistics.median(r[0] for r in runs)
    _, errors, findings = runs[0]
    lines = [f"{date.today()} on {platform.machine()}, Python {platform.python_version()}, one process; load "
             f"average {os.getloadavg()[0]:.1f} (other jobs on the machine slow it down)",
             f"pack: {args.heroes} heroes, {text.count(chr(10))} lines, {len(text.encode()) // 1024} KB; "
             f"errors: {errors}; findings: {findings}",
             f"sgsdsl check: {secs:.2f} s (median of {args.repeat})"]
    print("\n".join(lines), flush=True)
    if args.extremes:
        lines += extremes()
    if args.readme:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
        from figures import commit, write_block

        flags = " ".join(a for a in sys.argv[1:] if a != "--readme")
        lines[0] += f", commit {commit() or '?'}"
        # inside a list item of the README: every line indented, the end marker too
        write_block("pack", "\n  ```\n  $ nice -n 10 python bench/pack.py " + flags + "\n"
                    + "".join(f"  {x}\n" for x in lines) + "  ```\n  ")
    sys.exit(1 if errors else 0)


def extremes() -> list[str]:
    """The pathological files end in seconds, with a located error or accepted (the lines printed)."""
    from sgsdsl.tools import fuzz

    fuzz.cache_shipped_parses()  # as in one `sgsdsl check` process, the shipped files are parsed once
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        fuzz.judge(fuzz.ROOT, Path(tmp) / "warm.sgs", b"")
        for name, data in fuzz.extremes():
            if len(data) > 100_000:
                v = fuzz.judge(fuzz.ROOT, Path(tmp) / "x.sgs", data, checks=True)
                out.append(f"  {name} ({len(data) // 1024:,} KB): {v.seconds:.1f} s, {v.kind}"
                           + (f" {', '.join(v.codes)}" if v.codes else ""))
                print(out[-1], flush=True)
    return out


if __name__ == "__main__":
    main()
