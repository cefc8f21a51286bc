"""The 国战 heuristic bot against its former self, in mixed seats.

    nice -n 10 python bench/guozhan_bots.py --players 6 --games 2000 --workers 2

`old` is the heuristic bot as it was before it learned 国战: it takes the strongest single hero card
offered (then the strongest of the same kingdom) and reveals a face-down hero whenever asked. `new` is
the shipped bot: it chooses the best pair of one kingdom (珠联璧合 partners and whole 阴阳鱼 count) and
reveals at the start of its turn only when that pays (see HeuristicAgent.reveal). In game i, seats of
one parity play `new` and the others `old`, the parity swapping every game, so each seat plays each bot
equally often. Prints each bot's win rate per seat with a 95% interval, the machine and the date.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import time
from datetime import datetime, timezone

from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.lang.loader import load
from sgsdsl.sim.batch import game_seed, new_game
from sgsdsl.sim.stats import wilson

RULES = None


class OldAgent(HeuristicAgent):
    """The heuristic bot before 国战's choices: the strongest hero card, and every reveal at once."""

    def pair_hero(self, g, options):
        return self.best_hero(g, options)

    def reveal(self, g, me, hero) -> bool:
        return True


def _init() -> None:
    global RULES
    rules = load()
    RULES = load(variants=rules.modes["guozhan"].variants)  # the mode plays with its own versions of skills


def play_one(job) -> list[tuple[str, bool]]:
    i, seed, players = job
    g = new_game(RULES, "guozhan", players, seed, "heuristic")
    g.agents = [HeuristicAgent() if (seat + i) % 2 == 0 else OldAgent() for seat in range(players)]
    g.track = True
    over = g.run()
    return [("new" if (p.seat + i) % 2 == 0 else "old", over.won(p)) for p in g.players] if over.winners else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    jobs = [(i, game_seed(args.seed, i), args.players) for i in range(args.games)]
    start = time.perf_counter()
    if args.workers <= 1:
        _init()
        results = [play_one(j) for j in jobs]
    else:
        with mp.get_context("fork").Pool(args.workers, initializer=_init) as pool:
            results = pool.map(play_one, jobs, chunksize=16)
    seconds = time.perf_counter() - start
    decided = sum(1 for r in results if r)
    print(f"{args.games} games of 国战, {args.players} players, seed {args.seed}, {decided} decided; "
          f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {mp.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, {seconds:.0f} s")
    for bot in ("new", "old"):
        seats = [won for r in results for b, won in r if b == bot]
        wins = sum(seats)
        lo, hi = wilson(wins, len(seats))
        print(f"  {bot}: {wins}/{len(seats)} seats won = {wins / len(seats):.1%} (95% CI {lo:.1%}–{hi:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
