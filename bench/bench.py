"""How fast sgsdsl plays, checks and scales, with issue 15's targets beside each figure.

    nice -n 10 python bench/bench.py                  # every figure (a few minutes)
    python bench/bench.py --only games --games 50     # a quick look
    python bench/bench.py --profile                   # also where the time goes, per mode and agent
    python bench/bench.py --readme                    # and write the figures into README.md

Figures (each the median of --repeat runs, one process unless said):
- games: per mode (identity 5 players, 1v1, 国战 5 players) and agent (random, heuristic), with the
  full deck and every hero the mode offers: milliseconds per game and per turn. Targets: random
  ≤ 0.09 ms per turn; heuristic within 2× of random.
- check: the wall time of `sgsdsl check examples/yanyan.sgs` (one designer hero), Python's start-up
  included, with Python's bytecode cache as an installed package has it. Target ≤ 0.5 s. Beside it, the
  same for a copy edited before each run (its tree is parsed afresh, as after a designer's edit), and that
  again without sgsdsl's bytecode (PYTHONDONTWRITEBYTECODE=1 in a checkout: its modules compiled every run).
- workers: `--workers N` against one worker for N up to the cores present; the speed-up. Target
  ≥ 0.9·N. On a machine other jobs share, the load average printed beside it says how far to trust it.
- suite: the wall time of the default test suite (`python -m pytest -n auto`, the README's test line, one
  test process per core). Target
  ≤ 2 minutes on 2 cores.

The machine is shared: compare figures of one run with each other, not with another day's.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import os
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from figures import machine, write_block  # noqa: E402

from sgsdsl.lang.loader import shipped  # noqa: E402
from sgsdsl.sim.batch import game_seed, new_game, run_batch  # noqa: E402

MODES = (("identity", 5), ("duel", 2), ("guozhan", 5))
AGENTS = ("random", "heuristic")
TURN_TARGET_MS = 0.09  # random agents, per turn
HEURISTIC_FACTOR = 2.0  # heuristic agents within this factor of random
CHECK_TARGET_S = 0.5
SCALE_TARGET = 0.9  # speed-up ≥ 0.9·N
SUITE_TARGET_S = 120
AGENT_MODULES = ("agents", "heuristic", "allegiance", "herochoice")  # sgsdsl/engine/: the bots' own code


def play_games(rules, mode: str, players: int, agent: str, games: int, seed: int) -> tuple[float, int, int]:
    """Seconds, turns and broken games for `games` games (setup included: dealing, hero choice). A game
    that breaks (a rules error) counts with the turns it played, and is reported."""
    start = time.perf_counter()
    turns = broken = 0
    for i in range(games):
        g = new_game(rules, mode, players, game_seed(seed, i), agent)
        try:
            g.run()
        except Exception:  # noqa: BLE001 - the soak and simulate report these; the bench only counts them
            broken += 1
        turns += g.turn_no
    return time.perf_counter() - start, turns, broken


def games_figures(rules, games: int, repeat: int) -> list[dict]:
    rows = []
    for mode, players in MODES:
        for agent in AGENTS:
            runs = [play_games(rules, mode, players, agent, games, seed) for seed in range(1, repeat + 1)]
            rows.append({"mode": mode, "players": players, "agent": agent, "games": games,
                         "ms_game": statistics.median(1000 * s / games for s, _, _ in runs),
                         "ms_turn": statistics.median(1000 * s / t for s, t, _ in runs),
                         "turns": statistics.median(t / games for _, t, _ in runs),
                         "broken": sum(b for _, _, b in runs)})
            r = rows[-1]
            print(f"  {mode:>8} {players:>2}p {agent:>9}: {r['ms_game']:7.2f} ms/game {r['ms_turn']:6.3f} ms/turn "
                  f"{r['turns']:5.1f} turns/game"
                  + (f", {r['broken']} broken" if r["broken"] else ""), file=sys.stderr)
    return rows


def games_table(rows: list[dict], repeat: int) -> str:
    random_turn = {r["mode"]: r["ms_turn"] for r in rows if r["agent"] == "random"}
    lines = ["| mode | agents | ms per game | ms per turn | turns per game | target (ms per turn) | met |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["agent"] == "random":
            target = TURN_TARGET_MS
            label = f"≤ {TURN_TARGET_MS}"
        else:
            target = HEURISTIC_FACTOR * random_turn[r["mode"]]
            label = f"≤ {HEURISTIC_FACTOR:g}× random = {target:.3f}"
        lines.append(f"| {r['mode']} ({r['players']} players) | {r['agent']} | {r['ms_game']:.2f} | "
                     f"{r['ms_turn']:.3f} | {r['turns']:.1f} | {label} | {'yes' if r['ms_turn'] <= target else 'no'} |")
    broken = [f"{r['mode']} {r['agent']} {r['broken']}" for r in rows if r["broken"]]
    return ("\n".join(lines) + f"\n\n(median of {repeat} runs of {rows[0]['games']} games each, one process"
            + (f"; games that broke with a rules error, counted up to where they stopped: {', '.join(broken)}"
               if broken else "") + ")")


def check_figure(repeat: int, edited: bool = False, bytecode: bool = True) -> float:
    """`edited`: a copy of the file whose text changes before every run (a comment line), as a designer
    checks after each edit: its tree is never in the parse cache, so lark is loaded and parses it.
    `bytecode`: Python keeps sgsdsl's compiled modules, as an installed package (or any second run) has
    them; False: as in a checkout with PYTHONDONTWRITEBYTECODE=1 (some machines set it; this one does), which
    compiles every sgsdsl module on every run (the libraries keep theirs, which pip compiled). One untimed
    run first fills the caches."""
    exe = str(Path(sys.executable).parent / "sgsdsl")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    with tempfile.TemporaryDirectory(prefix="sgsdsl-bench-") as tmp:
        target = "examples/yanyan.sgs"
        if edited:
            target = str(Path(tmp) / "yanyan.sgs")
        text = (ROOT / "examples" / "yanyan.sgs").read_text(encoding="utf-8")
        if not bytecode:  # bytecode is looked for in a folder of its own, which then loses sgsdsl's
            env["PYTHONPYCACHEPREFIX"] = prefix = str(Path(tmp) / "bytecode")
        for i in range(repeat + 1):
            if edited:
                Path(target).write_text(text + f"# edit {i} {time.time()}\n", encoding="utf-8")
            start = time.perf_counter()
            subprocess.run([exe, "check", target], cwd=ROOT, capture_output=True, check=True, env=env)
            if i:
                times.append(time.perf_counter() - start)
            elif not bytecode:
                shutil.rmtree(Path(prefix + str(ROOT / "sgsdsl")), ignore_errors=True)
                env["PYTHONDONTWRITEBYTECODE"] = "1"
    return statistics.median(times)


def workers_figures(rules, games: int, repeat: int) -> dict[int, float]:
    """Seconds for one batch of random identity games per worker count (median of `repeat`)."""
    out = {}
    for w in range(1, (os.cpu_count() or 1) + 1):
        out[w] = statistics.median(
            run_batch(rules, mode="identity", players=5, games=games, seed=1, agent="random", workers=w)[1]
            for _ in range(repeat))
    return out


def suite_figure() -> tuple[float, str]:
    """Seconds for the default test suite, and pytest's last line (how many passed)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "pytest", "-n", "auto", "-p", "no:cacheprovider"], cwd=ROOT,
                         capture_output=True, text=True)
    # pytest's tally ("1458 passed, 15 skipped in 90.1s"), which syrupy's report may precede on its line; the
    # command is the README's (pyproject's -q once: a second -q under xdist drops the tally)
    tally = re.findall(r"\d+ (?:passed|failed)[\w, ]* in [\d.]+s", out.stdout)
    return time.perf_counter() - start, tally[-1] if tally else f"exit {out.returncode}"


def shares(rules, mode: str, players: int, agent: str, games: int) -> str:
    """Where the time goes: the engine, the generated rules code, the agents; and the top functions."""
    prof = cProfile.Profile()
    prof.enable()
    for i in range(games):
        new_game(rules, mode, players, game_seed(1, i), agent).run()
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # tottime
    parts = {"engine": 0.0, "generated rules": 0.0, "agents": 0.0, "other": 0.0}
    for (filename, _, _), v in stats.stats.items():
        if "generated" in filename or filename.startswith("<sgsdsl:"):
            key = "generated rules"
        elif Path(filename).stem in AGENT_MODULES:
            key = "agents"
        elif "sgsdsl/engine" in filename:
            key = "engine"
        else:
            key = "other"
        parts[key] += v[2]
    top = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:8]
    lines = [" / ".join(f"{k} {100 * v / total:.0f}%" for k, v in parts.items())]
    lines += [f"    {100 * v[2] / total:4.1f}%  {Path(f).name}:{n} {fn}" for (f, n, fn), v in top]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per run of each mode and agent")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is shown")
    ap.add_argument("--only", choices=["games", "check", "workers", "suite"], help="one figure only")
    ap.add_argument("--workers-games", type=int, default=400, help="games per batch of the workers figure")
    ap.add_argument("--profile", action="store_true", help="also show where the time goes")
    ap.add_argument("--readme", action="store_true", help="write the figures into README.md (needs every figure)")
    ap.add_argument("--against", action="append", metavar="REV",
                    help="instead: per-turn ratios against this commit, interleaved (bench/against.py); repeatable")
    ap.add_argument("--rounds", type=int, default=4, help="with --against: interleaved rounds")
    ap.add_argument("--tools", action="store_true",
                    help="with --against: also `sgsdsl check` on a designer file and the default test suite")
    ap.add_argument("--native", action="store_true",
                    help="with --against: and this checkout with its native core built (sgsdsl native --build)")
    args = ap.parse_args()
    if args.native and not args.against:
        ap.error("--native is a side of --against's comparison: give --against REV")
    if args.against:
        return against_main(args)
    if args.readme and args.only:
        ap.error("--readme needs every figure: drop --only")
    command = "python bench/bench.py" + (f" --games {args.games}" if args.games != 200 else "")
    stamp = (f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}, "
             f"load average {os.getloadavg()[0]:.1f}")
    print(f"{stamp}\n`{command}`\n")
    rules = shipped()
    parts = []
    if args.only in (None, "games"):
        rows = games_figures(rules, args.games, args.repeat)
        parts.append(games_table(rows, args.repeat))
        print(parts[-1] + "\n")
        if args.profile:
            for mode, players in MODES:
                for agent in AGENTS:
                    print(f"{mode} {agent}: {shares(rules, mode, players, agent, max(20, args.games // 5))}")
    if args.only in (None, "check"):
        n = max(5, args.repeat)
        secs, fresh = check_figure(n), check_figure(n, edited=True)
        raw = check_figure(n, edited=True, bytecode=False)
        met = "met" if max(secs, fresh) <= CHECK_TARGET_S else "not met"
        parts.append(f"`sgsdsl check examples/yanyan.sgs`: {secs:.2f} s wall, Python's start-up included, and "
                     f"{fresh:.2f} s when the file was edited since the last run (its syntax tree is not in the "
                     f"cache; median of {n} each; target ≤ {CHECK_TARGET_S} s: {met}); {raw:.2f} s edited and "
                     "without sgsdsl's bytecode (PYTHONDONTWRITEBYTECODE=1 in a checkout, as this machine's "
                     "environment sets it: every sgsdsl module compiled on every run)")
        print(parts[-1] + "\n")
    if args.only in (None, "workers"):
        times = workers_figures(rules, args.workers_games, args.repeat)
        cells = [f"{w} worker{'s' if w > 1 else ''} {t:.1f} s (speed-up {times[1] / t:.2f}, target ≥ "
                 f"{SCALE_TARGET * w:.1f})" for w, t in times.items()]
        busy = os.getloadavg()[0] >= (os.cpu_count() or 1)
        parts.append(f"`--workers`: {args.workers_games} random 5-player games: " + "; ".join(cells)
                     + (" — other jobs held the cores, so the extra workers had none to themselves" if busy else ""))
        print(parts[-1] + "\n")
    if args.only in (None, "suite"):
        secs, last = suite_figure()
        parts.append(f"The default test suite (`python -m pytest -n auto`): {secs:.0f} s wall ({last}; target ≤ "
                     f"{SUITE_TARGET_S} s on 2 cores: {'met' if secs <= SUITE_TARGET_S else 'not met'})")
        print(parts[-1] + "\n")
    if args.readme:
        end = f"{os.getloadavg()[0]:.1f} at the end (other jobs on the machine slow every figure down)"
        write_block("bench", f"```\n$ {command}\n```\n\nMeasured {stamp} at the start, {end}.\n\n"
                    + "\n\n".join(parts) + "\n")


def against_main(args) -> None:
    from against import against

    games = args.games if args.games != 200 else 100
    command = (f"python bench/bench.py {' '.join('--against ' + r for r in args.against)}"
               + (f" --games {games}" if games != 100 else "") + (f" --rounds {args.rounds}" if args.rounds != 4 else "")
               + (" --tools" if args.tools else "") + (" --native" if args.native else ""))
    stamp = (f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}, "
             f"load average {os.getloadavg()[0]:.1f}")
    print(f"{stamp}\n`{command}`\n")
    parts = against(args.against, games, args.rounds, check=args.tools, suite=args.tools, native=args.native)
    if args.readme:
        write_block("against", f"```\n$ {command}\n```\n\nMeasured {stamp} at the start, "
                    f"{os.getloadavg()[0]:.1f} at the end.\n\n" + "\n\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
