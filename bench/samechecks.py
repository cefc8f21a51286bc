"""What `sgsdsl check` prints for every rules file in the repo, to show that a change to the checks
(or to their caches) finds exactly what it found before.

    python bench/samechecks.py OUT_DIR                   # with the code before the change, then after
    diff -r BEFORE_DIR AFTER_DIR                          # no output: the same findings, byte for byte

Run it from the checkout whose code and rules are to be used (the rules and the code both come from the
current directory): `cd /tmp/before && PYTHONPATH=. python /path/to/bench/samechecks.py /tmp/out-before`.

`sgsdsl check` runs once with no file (the shipped rules alone) and once for each file in examples/,
tests/check/ and tests/data/, each three ways: with the disk cache off (`SGSDSL_CACHE=off`), and twice with
a fresh cache folder (`cold`: the first run fills it; `warm`: the second reads it). Each run writes
OUT_DIR/<way>/<file>.out: its exit code, stdout and stderr. The three ways must agree with each other as
well as with the code before the change: `diff -r OUT_DIR/off OUT_DIR/warm` is also empty.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

FOLDERS = ("examples", "tests/check", "tests/data")


def targets(root: Path) -> list[str]:
    out = [""]  # the shipped rules alone
    for folder in FOLDERS:
        out += sorted(p.relative_to(root).as_posix() for p in (root / folder).glob("*.sgs"))
    return out


def run(root: Path, target: str, cache: str) -> str:
    env = dict(os.environ, SGSDSL_CACHE=cache, NO_COLOR="1", COLUMNS="120")
    cmd = [sys.executable, "-m", "sgsdsl", "check"] + ([target] if target else [])
    p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    return f"exit {p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="directory to write the outputs into")
    ap.add_argument("--jobs", type=int, default=2, help="checks run at once (default 2)")
    args = ap.parse_args()
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    root = Path.cwd()
    files = targets(root)
    with tempfile.TemporaryDirectory(prefix="sgsdsl-cache-") as cache:
        # The shipped rules first, alone, so that the cold run of each file below finds the trees of the
        # shipped rules cached, as a designer's second run would, and the warm run finds everything.
        ways = (("off", "off"), ("cold", cache), ("warm", cache))
        for way, folder in ways:
            (args.out / way).mkdir(parents=True, exist_ok=True)

            def one(target: str, way=way, folder=folder) -> None:
                name = (target or "shipped").replace("/", "__") + ".out"
                (args.out / way / name).write_text(run(root, target, folder), encoding="utf-8")

            if way == "cold":
                one(files[0])
                with ThreadPoolExecutor(args.jobs) as pool:
                    list(pool.map(one, files[1:]))
            else:
                with ThreadPoolExecutor(args.jobs) as pool:
                    list(pool.map(one, files))
            print(f"{way}: {len(files)} checks", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
