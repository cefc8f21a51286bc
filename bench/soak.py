"""Soak a mode: many bot games with every state invariant checked after every event.

    nice -n 10 python bench/soak.py --mode identity --games 100000 --workers 2
    python bench/soak.py --mode identity --players 5,8 --agents heuristic --games 2000

Each game is played with the invariants of sgsdsl/engine/invariants.py on (card conservation over
every zone, HP bounds, the dead never acting, hidden information never reaching an agent) and under a wall-clock timeout, so a game that
hangs is counted, not waited on. Games cycle through the player counts the mode allows (every
row of its identity table, with each row's variants) unless --players names some. --agents
mixed gives each seat a random or a heuristic agent (drawn from the game's seed); --agents probe seats
the adversarial probe (sgsdsl/bots/probe.py) everywhere: at every decision it walks all it can reach from
its view and fails the game (an invariant break) on a raw engine object, a hidden fact or a card identity
that outlived its seat's sight, then answers like the random agent.

    nice -n 10 python bench/soak.py --mode guozhan --players 5,8 --agents probe --games 1000 --workers 2

Outcomes: decided (a win condition ended it), draw (the turn cap or an exhausted deck), error (a
rules or engine exception), invariant (a broken invariant), runaway (a loop stopped by the
runaway guard) and hang (the timeout). Every game must end: a game that returns without a reason
or runs past the turn cap counts as an error. Exit 1 unless every game was decided or drawn.

Game i is played with seed S*1_000_003 + i, whatever the number of workers, so a failure
reported here is replayed with `sgsdsl simulate --seed` semantics through its seed alone.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import multiprocessing as mp
import os
import platform
import random
import signal
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))

from figures import commit, write_block  # noqa: E402

from sgsdsl.bots.probe import ProbeAgent, Referee  # noqa: E402
from sgsdsl.engine.invariants import InvariantError  # noqa: E402
from sgsdsl.engine.runaway import RunawayError  # noqa: E402
from sgsdsl.lang.loader import load  # noqa: E402
from sgsdsl.sim.batch import game_seed, new_game  # noqa: E402
from sgsdsl.sim.options import OptionError, from_command_line  # noqa: E402

AGENTS = ("random", "heuristic", "mixed", "probe")
OUTCOMES = ("decided", "draw", "error", "invariant", "runaway", "hang")


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def seatings(rules, mode_id: str, players: list[int] | None) -> list[tuple[int, int]]:
    """(players, identity-table variant) pairs the soak cycles through."""
    mode = rules.modes[mode_id]
    lo, hi = mode.players
    rows = dict(mode.table)
    counts = players or (sorted(rows) if rows else list(range(lo, hi + 1)))
    bad = [n for n in counts if not lo <= n <= hi]
    if bad:
        raise SystemExit(f"error: mode {mode_id} is for {lo}–{hi} players, not {bad[0]}")
    return [(n, v) for n in counts for v in range(len(rows.get(n, ((),))))]


def agents_for(kind: str, players: int, seed: int) -> list[str]:
    if kind != "mixed":
        return [kind] * players
    rng = random.Random(seed ^ 0x5EED)
    return [rng.choice(("random", "heuristic")) for _ in range(players)]


_RULES = {}


def play_one(job) -> tuple:
    """(index, seed, players, outcome, turns, seconds, message) of one game."""
    i, seed, mode, players, variant, agent, turn_cap, timeout, decks, options = job
    rules = _RULES["rules"]
    start = time.perf_counter()
    g = None
    outcome, message = "error", None
    if timeout:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        g = new_game(rules, mode, players, seed, agents_for(agent, players, seed), turn_cap=turn_cap,
                     invariants=True, variant=variant, decks=list(decks))
        g.options = dict(options)
        for a in g.agents:
            if isinstance(a, ProbeAgent):
                a.referee = Referee(g)  # the table's side, to check what the probe finds against
        over = g.run()
        if not over.reason or g.turn_no > turn_cap or not g.over:
            message = f"the game returned without ending properly (reason {over.reason!r}, turn {g.turn_no})"
        else:
            outcome = "decided" if over.winners else "draw"
    except Hang:
        outcome, message = "hang", f"no end after {timeout} s (turn {g.turn_no if g else 0})"
    except InvariantError as e:
        outcome, message = "invariant", str(e)
    except RunawayError as e:
        outcome, message = "runaway", str(e)
    except Exception as e:  # noqa: BLE001 - every failure is a finding of the soak
        outcome, message = "error", f"{e.__class__.__name__}: {e}"
    finally:
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
    turns = g.turn_no if g is not None else 0
    return i, seed, players, outcome, turns, time.perf_counter() - start, message


def _init(paths, variants):
    signal.signal(signal.SIGALRM, _alarm)
    if "rules" not in _RULES:
        _RULES["rules"] = load(paths, variants=variants)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="a designer's rules files, added to the shipped rules")
    ap.add_argument("--mode", default="identity", help="mode id, Chinese name or alias (1v1)")
    ap.add_argument("--players", default="all", help="comma-separated player counts, or 'all' the mode allows")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--agents", choices=AGENTS, default="mixed")
    ap.add_argument("--turn-cap", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds after which one game counts as a hang")
    ap.add_argument("--with", dest="variants", action="append", default=[], help="a variant package")
    ap.add_argument("--deck", dest="decks", action="append", default=[], help="a deck added to the mode's (id or "
                    "Chinese name: 势备篇)")
    ap.add_argument("--option", dest="options", action="append", default=[], help="a mode option ID=VALUE "
                    "(buchen=true), as simulate takes it")
    ap.add_argument("--json", action="store_true", help="print the report as one JSON object")
    ap.add_argument("--show", type=argparse.FileType(encoding="utf-8"), help="print the text report of a saved "
                    "--json report and stop")
    ap.add_argument("--readme", nargs="+", metavar="REPORT", help="write README.md's soak block from saved --json "
                    "reports (each with the commands that made and show it) and stop")
    args = ap.parse_args(argv)
    if args.readme:
        return write_readme(args.readme)
    if args.show:
        report = json.load(args.show)
        print_report(report)
        return 0 if report["outcomes"]["decided"] + report["outcomes"]["draw"] == report["games"] else 1
    paths = args.paths or None
    _init(paths, tuple(args.variants))
    rules = _RULES["rules"]
    found = rules.find_mode(args.mode)  # an id, a Chinese name or an alias (1v1), as `simulate --mode` takes
    mode = found.id if found is not None else None
    if mode is None:
        print(f"error: unknown mode {args.mode} (modes: {', '.join(rules.modes)})", file=sys.stderr)
        return 2
    counts = None if args.players == "all" else [int(x) for x in args.players.split(",")]
    seats = seatings(rules, mode, counts)
    try:
        decks = rules.deck_ids(args.decks)
        options = from_command_line(rules.modes[mode], args.options)
    except KeyError as e:
        print(f"error: unknown deck {e.args[0]} (decks: {rules.deck_list()})", file=sys.stderr)
        return 2
    except OptionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    args.decks, args.options = list(decks), [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options]
    jobs = [(i, game_seed(args.seed, i), mode, *seats[i % len(seats)], args.agents, args.turn_cap, args.timeout,
             decks, options) for i in range(args.games)]
    start = time.perf_counter()
    if args.workers <= 1:
        results = [play_one(j) for j in jobs]
    else:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ctx.Pool(args.workers, initializer=_init, initargs=(paths, tuple(args.variants))) as pool:
            results = []
            for r in pool.imap_unordered(play_one, jobs, chunksize=64):
                results.append(r)
                if len(results) % 5_000 == 0:
                    print(f"… {len(results):,} games, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    report = summarize(results, args, mode, seats, seconds)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print_report(report)
    return 0 if report["outcomes"]["decided"] + report["outcomes"]["draw"] == args.games else 1


def write_readme(paths: list[str]) -> int:
    """README.md's `figures:soak` block: each saved report as `--show` prints it, under the commands that ran it."""
    parts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            print_report(r)
        extra = "".join(f" --deck {d}" for d in r.get("decks", ())) + "".join(f" --option {o}" for o in r.get("options", ()))
        run = (f"nice -n 10 python bench/soak.py --mode {r['mode']} --games {r['games']} --seed {r['seed']} "
               f"--workers {r['workers']} --agents {r['agents']}{extra} --json > {path}")
        parts.append(f"```\n$ {run}\n$ python bench/soak.py --show {path}\n{out.getvalue()}```")
    write_block("soak", "\n" + "\n\n".join(parts) + "\n")
    return 0


def summarize(results, args, mode, seats, seconds) -> dict:
    outcomes = collections.Counter(r[3] for r in results)
    per_players: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        per_players[r[2]][r[3]] += 1
    failures = sorted((r for r in results if r[3] not in ("decided", "draw")), key=lambda r: r[0])
    slowest = max(results, key=lambda r: r[5])
    return {
        "when": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "machine": f"{platform.machine()}, {mp.cpu_count()} cores, Python {platform.python_version()}, "
                   f"load average {os.getloadavg()[0]:.1f} at the end",
        "mode": mode,
        "games": len(results),
        "seed": args.seed,
        "agents": args.agents,
        "workers": args.workers,
        "seatings": [f"{n}" + (f" (variant {v})" if v else "") for n, v in seats],
        "decks": list(getattr(args, "decks", [])), "options": list(getattr(args, "options", [])),
        "outcomes": {o: outcomes.get(o, 0) for o in OUTCOMES},
        "per_players": {n: dict(c) for n, c in sorted(per_players.items())},
        "avg_turns": round(sum(r[4] for r in results) / len(results), 1),
        "slowest_game": {"seed": slowest[1], "players": slowest[2], "seconds": round(slowest[5], 2)},
        "seconds": round(seconds, 1),
        "games_per_second": round(len(results) / seconds, 1),
        "failures": [{"seed": r[1], "players": r[2], "outcome": r[3], "message": r[6]} for r in failures[:20]],
    }


def print_report(r: dict) -> None:
    o = r["outcomes"]
    added = "".join(f", deck {d}" for d in r.get("decks", ())) + "".join(f", option {o}" for o in r.get("options", ()))
    print(f"soak of {r['mode']}: {r['games']:,} games, {r['agents']} agents, seatings {', '.join(r['seatings'])}{added}; "
          f"seed {r['seed']}, {r['workers']} worker(s), invariants on")
    print(f"{r['when']} on {r['machine']}" + (f", commit {r['commit']}" if r.get("commit") else ""))
    print(f"errors {o['error']}, invariant breaks {o['invariant']}, runaways {o['runaway']}, hangs {o['hang']}; "
          f"decided {o['decided']:,}, draws {o['draw']:,} ({o['draw'] / r['games']:.1%})")
    print(f"{r['games_per_second']} games/s ({r['seconds']} s), {r['avg_turns']} turns per game; slowest game "
          f"{r['slowest_game']['seconds']} s (seed {r['slowest_game']['seed']}, {r['slowest_game']['players']} players)")
    for n, c in r["per_players"].items():
        print(f"  {n} players: " + ", ".join(f"{k} {v:,}" for k, v in sorted(c.items())))
    for f in r["failures"]:
        print(f"FAILED seed {f['seed']} ({f['players']} players, {f['outcome']}): {f['message']}")


if __name__ == "__main__":
    sys.exit(main())
