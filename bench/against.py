"""This checkout against another commit, side by side in one interleaved run.

    python bench/bench.py --against 6d73b9f                    # the per-turn ratios (a few minutes)
    python bench/bench.py --against 6d73b9f --against 17d709b  # and against a second commit
    python bench/against.py 6d73b9f --games 40 --rounds 2      # the same, a quick look
    python bench/against.py 46fd091 --check --suite             # and `sgsdsl check`, the test suite
    python bench/bench.py --against 6d73b9f --native           # and this checkout's native core, a third side

`--check` times `sgsdsl check` on one designer file (this checkout's examples/yanyan.sgs, checked by
both sides; wall time, Python's start-up included), `--suite` each side's own default test suite (the
README's `pytest -n auto`, one run each: several minutes), both interleaved as the games are.

The other commit is exported (`git archive`) into a temporary folder and plays with its own engine and
its own shipped rules, in a process of its own; so does this checkout. Each round plays the same seeds in
both, one after the other, and the order alternates from round to round, so that a change in the
machine's load falls on both sides alike. The time is the CPU time of the games in that process (setup
included, the loading of the rules not), divided by the turns played: the rules of two commits differ,
and so do their games. A mode the other commit does not ship is left out of its table, and said.

`--native` adds a third side: this checkout's files as they are, copied and built with `sgsdsl native
--build` (the fast extra: Cython and a C compiler). The "here" side then runs as pure Python (SGSDSL_PURE=1),
and each side's worker checks that it ran the code it was meant to.

Targets (issue 29): random agents, identity 5 players, ≥ 1.5× faster per turn than 6d73b9f in pure
Python (≥ 3× compiled); heuristic agents within 2× of random in every mode.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
NATIVE_TARGET = 3.0  # the same, with the native core (sgsdsl native --build)
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
native = games > 0 and not sys.modules[type(g).__module__].__file__.endswith(".py")  # (Game's module: compiled or not)
print(json.dumps({"cpu": time.process_time() - start, "turns": turns, "broken": broken, "native": native}))
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


NATIVE = "native"  # the side of this checkout's tree with the native core built (sgsdsl native --build)


def _env(tree: Path, side: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    env.pop("SGSDSL_PURE", None)
    if side == "here":  # this checkout in pure Python, even where its native core is built
        env["SGSDSL_PURE"] = "1"
    return env


def play(tree: Path, mode: str, players: int, agent: str, games: int, seed: int, side: str = "") -> dict | None:
    out = subprocess.run([sys.executable, "-c", WORKER, mode, str(players), agent, str(games), str(seed)],
                         cwd=tree, env=_env(tree, side), capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"bench: the games of {tree.name} failed:\n{out.stderr[-2000:]}")
    got = json.loads(out.stdout.strip().splitlines()[-1])
    if got is not None and got.get("native", False) != (side == NATIVE):
        sys.exit(f"bench: the {side} side ran {'compiled' if got.get('native') else 'pure Python'} code")
    return got


def native_copy(into: Path) -> Path:
    """This checkout's files as they are now (edits included) in a folder of their own, with the native core
    built there (bench/ needs the fast extra: Cython and a C compiler)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True).stdout
    dest = into / NATIVE
    for rel in filter(None, files.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    print("  building the native core of this checkout (sgsdsl native --build) …", file=sys.stderr)
    out = subprocess.run([sys.executable, "-m", "sgsdsl.cli", "native", "--build"], cwd=dest,
                         env=_env(dest, NATIVE), capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"bench: the native build failed (pip install -e '.[fast]'):\n{out.stderr[-2000:]}")
    return dest


def compare(rev: str, here: Path, there: Path, games: int, rounds: int, only: set | None = None,
            native: Path | None = None) -> dict:
    """Per mode and agent: the median ms per turn of each side over `rounds` interleaved rounds (the order
    of the sides turns from round to round)."""
    rows = {}
    order = [("here", here), *([(NATIVE, native)] if native is not None else []), (rev, there)]
    for mode, players in MODES:
        for agent in AGENTS:
            if only and f"{mode}:{agent}" not in only:
                continue
            sides: dict[str, list[float]] = {name: [] for name, _ in order}
            missing = False
            for r in range(rounds):
                for name, tree in order[r % len(order):] + order[:r % len(order)]:
                    got = play(tree, mode, players, agent, games, seed=r + 1, side=name)
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
            b = rows[(mode, agent)][rev]
            print(f"  {mode:>8} {agent:>9}: " + ", ".join(f"{k} {v:.3f} ms/turn" for k, v in
                                                      rows[(mode, agent)].items())
                  + "; " + ", ".join(f"{k} {b / v:.2f}×" for k, v in rows[(mode, agent)].items() if k != rev),
                  file=sys.stderr)
    return rows


def _wall(cmd: list[str], tree: Path, side: str) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=tree, env=_env(tree, side), capture_output=True, text=True)
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
                secs, out = _wall(cmd, tree, name)
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
    native = any(r is not None and NATIVE in r for r in rows.values())
    sides = ("here", NATIVE) if native else ("here",)
    head = ["ms per turn here" + (" (Python)" if native else ""), *(["here (native)"] if native else []),
            f"ms per turn at {rev}", "speed-up" + (" (Python)" if native else ""),
            *(["speed-up (native)"] if native else []), "target"]
    lines = ["| mode | agents | " + " | ".join(head) + " |", "|---" * (len(head) + 2) + "|"]
    for (mode, agent), r in rows.items():
        players = dict(MODES)[mode]
        if r is None:
            lines.append(f"| {mode} ({players} players) | {agent} |" + " |" * (len(head) - 1)
                         + f" {rev} has no {mode} mode |")
            continue
        targets = []
        if agent == "random" and mode == "identity":
            for side, goal in zip(sides, (SPEEDUP_TARGET, NATIVE_TARGET)):
                speed = r[rev] / r[side]
                label = "pure Python" if side == "here" else "native"
                targets.append(f"≥ {goal:g}× ({label}): {'met' if speed >= goal else 'not met'}")
        elif agent == "heuristic" and rows.get((mode, "random")):
            for side in sides:
                factor = r[side] / rows[(mode, "random")][side]
                label = "" if not native else " (Python)" if side == "here" else " (native)"
                targets.append(f"heuristic {factor:.2f}× random{label}, ≤ {HEURISTIC_FACTOR:g}×: "
                               f"{'met' if factor <= HEURISTIC_FACTOR else 'not met'}")
        cells = [f"{r[side]:.3f}" for side in sides] + [f"{r[rev]:.3f}"] + [f"{r[rev] / r[side]:.2f}×" for side in sides]
        lines.append(f"| {mode} ({players} players) | {agent} | " + " | ".join(cells) + f" | {'; '.join(targets)} |")
    return ("\n".join(lines) + f"\n\n(CPU time per turn, median of {rounds} interleaved rounds of {games} games "
            "on each side, each side in a process of its own with its own shipped rules"
            + ("; native: this checkout with `sgsdsl native --build`" if native else "") + ")")


def against(revs: list[str], games: int, rounds: int, only: set | None = None, check: bool = False,
            suite: bool = False, native: bool = False) -> list[str]:
    parts = []
    with tempfile.TemporaryDirectory(prefix="sgsdsl-against-") as tmp:
        built = native_copy(Path(tmp)) if native and only != {"none"} else None
        for rev in revs:
            there = export(rev, Path(tmp))
            rows = compare(there.name, ROOT, there, games, rounds, only, built) if only != {"none"} else {}
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
    ap.add_argument("--native", action="store_true",
                    help="and this checkout with its native core built (a third side; needs the fast extra)")
    args = ap.parse_args()
    known = {f"{m}:{a}" for m, _ in MODES for a in AGENTS} | {"none"}
    if args.only and not set(args.only) <= known:
        ap.error(f"--only takes one of {', '.join(sorted(known))} (none: no games, with --check or --suite)")
    if args.only and "none" in args.only and not (args.check or args.suite):
        ap.error("--only none times nothing without --check or --suite")
    against(args.revs, args.games, args.rounds, set(args.only or ()), args.check, args.suite, args.native)


if __name__ == "__main__":
    main()
