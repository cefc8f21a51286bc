"""Machine instructions per turn, commit by commit: where the engine's cost came from, without the noise of a
shared machine.

    python bench/instructions.py 6d73b9f HEAD --points 8        # eight commits along the way, evenly spaced
    python bench/instructions.py 6d73b9f HEAD --points 8 --refine 2   # and bisect the two largest steps

A time measured on a machine that others share moves by a fifth from one run to the next, so a regression of a
few percent spread over hundreds of commits cannot be bisected by timing. The number of instructions a game
executes can: Valgrind's cachegrind counts them exactly, and with the same seeds and PYTHONHASHSEED=0 the count
of a commit is the same on every run (the games are the same; dicts and sets hash alike). Each commit is
exported (as bench/against.py does) and plays its own shipped rules, in pure Python; the instructions of loading
the rules (a run of no games) are taken off, the rest divided by the turns played.

Instructions are not time: memory traffic and branches weigh differently on each machine. They show where work
was added; `bench/bench.py --against REV` says what it costs in time.
Needs `valgrind` (Debian's package); each commit takes about two minutes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))

from against import ROOT, WORKER, _env, export  # noqa: E402
from figures import machine, write_block  # noqa: E402

IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, mode: str, players: int, agent: str, games: int) -> tuple[int, int]:
    """(instructions, turns) of `games` seeded games of `tree`, its loading included."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable,
           "-c", WORKER, mode, str(players), agent, str(games), "1"]
    out = subprocess.run(cmd, cwd=tree, env=_env(tree, "here"), capture_output=True, text=True)
    m = IREFS.search(out.stderr)
    if out.returncode or m is None:
        sys.exit(f"bench: the games of {tree.name} failed under valgrind:\n{out.stderr[-2000:]}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return int(m.group(1).replace(",", "")), (got or {}).get("turns", 0)


def per_turn(tree: Path, mode: str, players: int, agent: str, games: int) -> float | None:
    total, turns = instructions(tree, mode, players, agent, games)
    if not turns:
        return None  # the commit does not ship the mode
    load, _ = instructions(tree, mode, players, agent, 0)
    return (total - load) / turns


def line(span: str) -> list[str]:
    """The commits of a range (OLD..NEW), oldest first, along the first parents (a merge is one step)."""
    out = subprocess.run(["git", "rev-list", "--first-parent", "--reverse", span], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout.split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", help="the first commit (the baseline)")
    ap.add_argument("new", help="the last commit")
    ap.add_argument("--points", type=int, default=6, help="commits measured, both ends included (default 6)")
    ap.add_argument("--refine", type=int, default=0, help="then bisect the N largest steps down to one commit")
    ap.add_argument("--games", type=int, default=20, help="games per commit (default 20)")
    ap.add_argument("--agent", default="random", choices=("random", "heuristic"))
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--readme", action="store_true", help="write the table into README.md (figures:instructions)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench: valgrind is not installed (apt-get install valgrind)")
    if args.points < 2:
        ap.error("--points must be at least 2")
    commits = line(f"{args.old}..{args.new}")
    if not commits:
        ap.error(f"no commits from {args.old} to {args.new}")
    commits = [subprocess.run(["git", "rev-parse", args.old], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip(), *commits]
    picks = sorted({round(i * (len(commits) - 1) / (args.points - 1)) for i in range(args.points)})
    seen: dict[int, float | None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        def measure(i: int) -> float | None:
            if i not in seen:
                tree = export(commits[i], Path(tmp))
                seen[i] = per_turn(tree, args.mode, args.players, args.agent, args.games)
                shutil.rmtree(tree)
                print(f"  {commits[i][:7]} ({i} of {len(commits) - 1}): "
                      f"{'-' if seen[i] is None else f'{seen[i]:,.0f}'} instructions per turn", file=sys.stderr)
            return seen[i]

        for i in picks:
            measure(i)
        for _ in range(args.refine):
            steps = [(seen[b] - seen[a], a, b) for a, b in zip(sorted(seen), sorted(seen)[1:])
                     if b - a > 1 and seen[a] is not None and seen[b] is not None]
            if not steps:
                break
            _, a, b = max(steps)
            while b - a > 1:  # the step lies where the count moves most: keep the half that holds more of it
                m = (a + b) // 2
                if measure(m) is None:
                    break
                a, b = (m, b) if abs(seen[b] - seen[m]) >= abs(seen[m] - seen[a]) else (a, m)
    base = next((v for _, v in sorted(seen.items()) if v is not None), None)
    if base is None:
        sys.exit(f"bench: no commit measured ships the mode {args.mode!r}")
    rows = ["| commit | position | instructions per turn | against the first | step |", "|---|---|---|---|---|"]
    prev = None
    for i in sorted(seen):
        v = seen[i]
        subject = subprocess.run(["git", "log", "-1", "--format=%s", commits[i]], cwd=ROOT, capture_output=True,
                                 text=True).stdout.strip()[:60].replace("|", "/")
        if v is None:
            rows.append(f"| {commits[i][:7]} {subject} | {i} | — | | |")
            continue
        step = "" if prev is None else f"{100 * (v - prev) / prev:+.1f}%"
        rows.append(f"| {commits[i][:7]} {subject} | {i} | {v:,.0f} | {v / base:.3f}× | {step} |")
        prev = v
    flags = "".join(f" --{k} {getattr(args, k)}" for k, d in (("points", 6), ("refine", 0), ("games", 20),
                                                             ("agent", "random"), ("mode", "identity"),
                                                             ("players", 5)) if getattr(args, k) != d)
    text = (f"```\n$ python bench/instructions.py {args.old} {args.new}{flags}\n```\n\n"
            f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}: "
            f"{args.mode} ({args.players} players), {args.agent} agents, {args.games} games per commit, machine "
            f"instructions per turn (cachegrind, PYTHONHASHSEED=0; position: along the first parents, of "
            f"{len(commits) - 1}):\n\n" + "\n".join(rows) + "\n")
    print(text)
    if args.readme:
        write_block("instructions", text)

if __name__ == "__main__":
    main()
