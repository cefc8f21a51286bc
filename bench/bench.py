"""Games per second on one core, and the engine's share of the time.

    python bench/bench.py            # 5 and 8 players, random and heuristic agents
    python bench/bench.py --games 300 --profile

Runs in one process (one core). The figures go into the README by hand.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from sgsdsl.loader import shipped
from sgsdsl.sim import game_seed, new_game


def rate(rules, players: int, agent: str, games: int, seed: int) -> tuple[float, float]:
    start = time.perf_counter()
    turns = 0
    for i in range(games):
        g = new_game(rules, "identity", players, game_seed(seed, i), agent)
        g.run()
        turns += g.turn_no
    secs = time.perf_counter() - start
    return games / secs, turns / games


def shares(rules, players: int, agent: str, games: int) -> dict[str, float]:
    """Where the time goes: the engine, the generated rules code, the agents."""
    prof = cProfile.Profile()
    prof.enable()
    for i in range(games):
        new_game(rules, "identity", players, game_seed(1, i), agent).run()
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # tottime
    parts = {"engine": 0.0, "generated rules": 0.0, "agents": 0.0, "other": 0.0}
    for (filename, _, _), v in stats.stats.items():
        if "generated" in filename or filename.startswith("<sgsdsl:"):
            key = "generated rules"
        elif "agents" in filename or "heuristic" in filename:
            key = "agents"
        elif "sgsdsl/engine" in filename:
            key = "engine"
        else:
            key = "other"
        parts[key] += v[2]
    return {k: round(100 * v / total, 1) for k, v in parts.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is shown")
    ap.add_argument("--profile", action="store_true", help="also show where the time goes")
    args = ap.parse_args()
    rules = shipped()
    print(f"{'players':>7} {'agent':>9} {'games/s (median of ' + str(args.repeat) + ')':>26} {'turns/game':>10}")
    for players in (5, 8):
        for agent in ("random", "heuristic"):
            runs = [rate(rules, players, agent, args.games, seed) for seed in range(1, args.repeat + 1)]
            gps = statistics.median(r[0] for r in runs)
            turns = statistics.median(r[1] for r in runs)
            print(f"{players:>7} {agent:>9} {gps:>26.1f} {turns:>10.1f}")
            if args.profile:
                print("         time shares:", shares(rules, players, agent, max(20, args.games // 5)))


if __name__ == "__main__":
    main()
