"""This checkout against another commit, side by side in one interleaved run.

    python bench/bench.py --against 6d73b9f                    # the per-turn ratios (a few minutes)
    python bench/bench.py --against 6d73b9f --against 17d709b  # and against a second commit
    python bench/against.py 6d73b9f --games 40 --rounds 2      # the same, a quick look
    python bench/against.py 46fd091 --check --suite             # and `sgsdsl check`, the test suite

`--check` times `sgsdsl check` on one designer file (this checkout's examples/yanyan.sgs, checked by
both sides; wall time, Python's start-up included), `--suite` each side's own default test suite (the
README's `pytest -n auto`, one run each: several minutes), both interleaved as the games are.

The other commit is exported (`git archive`) into a temporary folder and plays with its own engine and
its own shipped rules, in a process of its own; so does this checkout. Each round plays the same seeds in
both, one after the other, and the order alternates from round to round, so that a change in the
machine's load falls on both sides alike. The time is the CPU time of the games in that process (setup
included, the loading of the rules not), divided by the turns played: the rules of two commits differ,
and so do their games. A mode the other commit does not ship is left out of its table, and said.

Targets (issue 29): random agents, identity 5 players, ≥ 1.5× faster per turn than 6d73b9f in pure
Python (≥ 3× compiled); heuristic agents within 2× of random in every mode.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = (("identity", 5), ("duel", 2), ("guozhan", 5))
AGENTS = ("random", "heuristic")
SPEEDUP_TARGET = 1.5  # random agents, identity 5 players, pure Python, against 6d73b9f
HEURISTIC_FACTOR = 2.0

# Run inside each checkout: the modules moved between commits, so it looks for them in both places.
WORKER = r"""
import json, os, sys, time
here = os.path.realpath(os.getcwd())
# only this tree's sgsdsl: an editable install elsewhere would win over an old tree without __init__.py
sys.path = [p for p in sys.path if os.path.realpath(p or ".") == here or not os.path.isfile(os.path.join(p, "sgsdsl", "__init__.py"))]
import sgsdsl
assert os.path.realpath(list(sgsdsl.__path__)[0]).startswith(here), sgsdsl.__path__
try:
    from sgsdsl.lang.loader import shipped
except ImportError:
    from sgsdsl.loader import shipped
try:
    from sgsdsl.sim.batch import game_seed, new_game
except ImportError:
    from sgsdsl.sim import game_seed, new_game
mode, players, agent, games, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rules = shipped()
if mode not in rules.modes:
    print(json.dumps(None)); sys.exit()
turns = broken = 0
start = time.process_time()
for i in range(games):
    g = new_game(rules, mode, players, game_seed(seed, i), agent)
    try:
        g.run()
    except Exception:
        broken += 1
    turns += g.turn_no
print(json.dumps({"cpu": time.process_time() - start, "turns": turns, "broken": broken}))
"""


def export(rev: str, into: Path) -> Path:
    """The tree of `rev` in a folder of its own (no worktree to register or clean up)."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True)
    if sha.returncode:
        sys.exit(f"bench: no such commit: {rev}")
    dest = into / sha.stdout.strip()
    dest.mkdir()
    archive = into / f"{dest.name}.tar"
    subprocess.run(["git", "archive", "-o", str(archive), rev], cwd=ROOT, check=True)
    with tarfile.open(archive) as t:
        t.extractall(dest, filter="data")
    archive.unlink()
    return dest


def play(tree: Path, mode: str, players: int, agent: str, games: int, seed: int) -> dict | None:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, "-c", WORKER, mode, str(players), agent, str(games), str(seed)],
                         cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"bench: the games of {tree.name} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(rev: str, here: Path, there: Path, games: int, rounds: int, only: set | None = None) -> dict:
    """Per mode and agent: the median ms per turn of each side over `rounds` interleaved rounds."""
    rows = {}
    for mode, players in MODES:
        for agent in AGENTS:
            if only and f"{mode}:{agent}" not in only:
                continue
            sides: dict[str, list[float]] = {"here": [], rev: []}
            missing = False
            for r in range(rounds):
                order = [("here", here), (rev, there)]
                for name, tree in order if r % 2 == 0 else reversed(order):
                    got = play(tree, mode, players, agent, games, seed=r + 1)
                    if got is None:
                        missing = True
                        break
                    sides[name].append(1000 * got["cpu"] / max(got["turns"], 1))
                if missing:
                    break
            if missing:
                rows[(mode, agent)] = None
                print(f"  {rev}: no {mode} mode", file=sys.stderr)
                continue
            rows[(mode, agent)] = {k: statistics.median(v) for k, v in sides.items()}
            a, b = rows[(mode, agent)]["here"], rows[(mode, agent)][rev]
            print(f"  {mode:>8} {agent:>9}: here {a:.3f} ms/turn, {rev} {b:.3f} ms/turn, {b / a:.2f}×",
                  file=sys.stderr)
    return rows


def _wall(cmd: list[str], tree: Path) -> tuple[float, subprocess.CompletedProcess]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, out


def tool_compare(rev: str, here: Path, there: Path, rounds: int, check: bool, suite: bool) -> list[str]:
    """`sgsdsl check` on one designer file and the default test suite, each side's time, interleaved."""
    lines = []
    jobs = []
    if check:
        design = ROOT / "examples" / "yanyan.sgs"
        jobs.append((f"`sgsdsl check examples/yanyan.sgs` (this checkout's file), median of {rounds}",
                     [sys.executable, "-m", "sgsdsl.cli", "check", str(design)], rounds))
    if suite:
        jobs.append(("the default test suite (`python -m pytest -n auto`, each side's own), one run",
                     [sys.executable, "-m", "pytest", "-n", "auto", "-p", "no:cacheprovider"], 1))
    for label, cmd, n in jobs:
        sides: dict[str, list[float]] = {"here": [], rev: []}
        for r in range(n):
            order = [("here", here), (rev, there)]
            for name, tree in order if r % 2 == 0 else reversed(order):
                secs, out = _wall(cmd, tree)
                if out.returncode not in (0, 1) or "Traceback" in out.stderr:
                    sys.exit(f"bench: {' '.join(cmd[1:])} failed in {tree.name}:\n{out.stderr[-2000:]}")
                sides[name].append(secs)
        a, b = statistics.median(sides["here"]), statistics.median(sides[rev])
        lines.append(f"| {label} | {a:.2f} s | {b:.2f} s | {b / a:.2f}× |")
        print(f"  {label}: here {a:.2f} s, {rev} {b:.2f} s, {b / a:.2f}×", file=sys.stderr)
    if not lines:
        return []
    return [f"| tool | here | at {rev} | speed-up |", "|---|---|---|---|", *lines]


def table(rev: str, rows: dict, games: int, rounds: int) -> str:
    lines = [f"| mode | agents | ms per turn here | ms per turn at {rev} | speed-up | target |",
             "|---|---|---|---|---|---|"]
    random_here = {m: r["here"] for (m, a), r in rows.items() if r and a == "random"}
    for (mode, agent), r in rows.items():
        players = dict(MODES)[mode]
        if r is None:
            lines.append(f"| {mode} ({players} players) | {agent} | | | | {rev} has no {mode} mode |")
            continue
        speed = r[rev] / r["here"]
        if agent == "random" and mode == "identity":
            target = f"≥ {SPEEDUP_TARGET:g}× (pure Python): {'met' if speed >= SPEEDUP_TARGET else 'not met'}"
        elif agent == "heuristic" and mode in random_here:
            factor = r["here"] / random_here[mode]
            target = (f"heuristic {factor:.2f}× random here, ≤ {HEURISTIC_FACTOR:g}×: "
                      f"{'met' if factor <= HEURISTIC_FACTOR else 'not met'}")
        else:
            target = ""
        lines.append(f"| {mode} ({players} players) | {agent} | {r['here']:.3f} | {r[rev]:.3f} | {speed:.2f}× | "
                     f"{target} |")
    return ("\n".join(lines) + f"\n\n(CPU time per turn, median of {rounds} interleaved rounds of {games} games "
            "on each side, each side in a process of its own with its own shipped rules)")


def against(revs: list[str], games: int, rounds: int, only: set | None = None, check: bool = False,
            suite: bool = False) -> list[str]:
    parts = []
    with tempfile.TemporaryDirectory(prefix="sgsdsl-against-") as tmp:
        for rev in revs:
            there = export(rev, Path(tmp))
            rows = compare(there.name, ROOT, there, games, rounds, only) if only != {"none"} else {}
            tools = tool_compare(there.name, ROOT, there, rounds, check, suite)
            text = table(there.name, rows, games, rounds) if rows else ""
            if tools:
                text = (text + "\n\n" if text else "") + "\n".join(tools) + "\n\n(wall time, each side in a " \
                       "process of its own, interleaved)"
            parts.append(f"Against {there.name}:\n\n" + text)
            print(parts[-1] + "\n")
    return parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revs", nargs="+", help="the commits to compare against")
    ap.add_argument("--games", type=int, default=100, help="games per round on each side")
    ap.add_argument("--rounds", type=int, default=4, help="interleaved rounds; the median is shown")
    ap.add_argument("--only", action="append", metavar="MODE:AGENT",
                    help="one mode and agent only (e.g. identity:random), to bisect quickly; repeatable")
    ap.add_argument("--check", action="store_true", help="and `sgsdsl check` on examples/yanyan.sgs")
    ap.add_argument("--suite", action="store_true", help="and each side's default test suite (minutes)")
    args = ap.parse_args()
    known = {f"{m}:{a}" for m, _ in MODES for a in AGENTS} | {"none"}
    if args.only and not set(args.only) <= known:
        ap.error(f"--only takes one of {', '.join(sorted(known))} (none: no games, with --check or --suite)")
    if args.only and "none" in args.only and not (args.check or args.suite):
        ap.error("--only none times nothing without --check or --suite")
    against(args.revs, args.games, args.rounds, set(args.only or ()), args.check, args.suite)


if __name__ == "__main__":
    main()
