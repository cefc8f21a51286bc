"""Batches of bot games and their statistics.

Game i of a batch with seed S is played with seed S*1_000_003 + i, whatever the
number of workers, so `--workers 2` gives the figures of one worker.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import time
from pathlib import Path

import attrs

from .engine.agents import FirstAgent, RandomAgent
from .engine.game import Game
from .engine.log import GameLog
from .engine.ruleset import Ruleset, rules_location
from .engine.runaway import RunawayError, RunLimits

AGENTS = {"random": RandomAgent, "first": FirstAgent}


def agent_class(name: str):
    if name == "heuristic":
        from .engine.heuristic import HeuristicAgent

        return HeuristicAgent
    return AGENTS[name]


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


@attrs.define
class GameResult:
    index: int
    seed: int
    winners: tuple[str, ...]
    reason: str
    turns: int
    seats: list[tuple[str, str | None, bool]]  # (hero id, identity, won)
    error: str | None = None


def new_game(rules: Ruleset, mode_id: str, players: int, seed: int, agent: str | list[str], log: GameLog | None = None,
             turn_cap: int = 200, invariants: bool = False, decks: list[str] | None = None,
             heroes: list[str] | None = None, variant: int = 0, limits: RunLimits | None = None) -> Game:
    """A game ready to run. `decks` are added to the mode's own (e.g. the EX cards). `agent` names the
    agents of every seat, or is a list with one name per seat."""
    mode = rules.modes[mode_id]
    names = [agent] * players if isinstance(agent, str) else list(agent)
    g = Game(rules, players=players, seed=seed, agents=[agent_class(a)() for a in names], mode=mode, log=log,
             turn_cap=turn_cap, invariants=invariants, hero_pool=heroes or rules.hero_pool(mode), variant=variant,
             limits=limits)
    g.build_deck(list(mode.decks) + [d for d in decks or () if d not in mode.decks])
    return g




def play(rules: Ruleset, mode_id: str, players: int, seed: int, index: int, agent: str, turn_cap: int,
         invariants: bool, decks=None, heroes=None, variant: int = 0, limits: RunLimits | None = None) -> GameResult:
    g = None
    try:
        g = new_game(rules, mode_id, players, seed, agent, None, turn_cap, invariants, decks, heroes, variant, limits)
        over = g.run()
        won = set(over.winners)
        seats = [(p.heroes[0].id if p.heroes else "?", p.identity, p.identity in won) for p in g.players]
        return GameResult(index, seed, over.winners, over.reason, g.turn_no, seats)
    except RunawayError as e:  # its message names the rules, the window and the seed
        return GameResult(index, seed, (), "error", g.turn_no if g else 0, [], f"seed {seed}: {e}")
    except Exception as e:  # a rules bug no check caught: report it, the batch goes on
        loc = rules_location(e.__traceback__)
        stack = " > ".join(g.crash_stack or []) if g is not None else ""
        msg = f"seed {seed}: {e.__class__.__name__}: {e}"
        if loc:
            msg += f"\n  at {loc}"
        if stack:
            msg += f"\n  stack: {stack}"
        return GameResult(index, seed, (), "error", g.turn_no if g else 0, [], msg)


# ---- workers --------------------------------------------------------------------------

_WORKER: dict = {}


def _init_worker(paths: list[str] | None, variants: tuple[str, ...] = ()) -> None:
    from .loader import load

    _WORKER["rules"] = load([Path(p) for p in paths] if paths else None, variants=variants)


def _work(args) -> GameResult:
    return play(_WORKER["rules"], *args)


def run_batch(rules: Ruleset, *, mode: str, players: int, games: int, seed: int, agent: str, workers: int = 1,
              turn_cap: int = 200, invariants: bool = False, paths: list[Path] | None = None, decks=None,
              heroes=None, variant: int = 0, progress=None, limits: RunLimits | None = None
              ) -> tuple[list[GameResult], float]:
    jobs = [(mode, players, game_seed(seed, i), i, agent, turn_cap, invariants, decks, heroes, variant, limits)
            for i in range(games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if workers <= 1:
        for job in jobs:
            results.append(play(rules, *job))
            if progress:
                progress()
    else:
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(method)
        if method == "fork":  # the children inherit the loaded rules
            _WORKER["rules"] = rules
            init, initargs = None, ()
        else:
            init, initargs = _init_worker, ([str(p) for p in paths] if paths else None, rules.variants)
        with ctx.Pool(workers, initializer=init, initargs=initargs) as pool:
            for r in pool.imap(_work, jobs, chunksize=max(1, min(64, games // (workers * 8) or 1))):
                results.append(r)
                if progress:
                    progress()
    return results, time.perf_counter() - start


# ---- statistics ------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def summarize(rules: Ruleset, results: list[GameResult], *, seed: int, mode: str, players: int, agent: str,
              seconds: float) -> dict:
    ok = [r for r in results if r.error is None]
    draws = [r for r in ok if not r.winners]
    decided = len(ok)
    ids: dict[str, int] = {}
    for r in ok:
        for ident in {i for _, i, _ in r.seats if i}:
            ids.setdefault(ident, 0)
        for w in r.winners:
            ids[w] = ids.get(w, 0) + 1
    m = rules.modes[mode]
    order = [i for row in m.table for variant in row[1][:1] for i in variant]
    idents = sorted(ids, key=lambda i: order.index(i) if i in order else 99)
    heroes: dict[str, list[int]] = {}
    for r in ok:
        for hero, _, won in r.seats:
            rec = heroes.setdefault(hero, [0, 0])
            rec[0] += 1
            rec[1] += int(won)
    return {
        "games": len(results),
        "seed": seed,
        "mode": mode,
        "players": players,
        "agent": agent,
        "identities": {
            i: {"name": rules.enum_names.get(i, i), "wins": ids[i], "rate": ids[i] / decided if decided else 0.0,
                "ci95": list(wilson(ids[i], decided))}
            for i in idents
        },
        "draws": len(draws),
        "draw_rate": len(draws) / decided if decided else 0.0,
        "errors": [r.error for r in results if r.error is not None],
        "avg_turns": sum(r.turns for r in ok) / decided if decided else 0.0,
        "heroes": {
            h: {"name": rules.heroes[h].name if h in rules.heroes else h, "games": g, "wins": w,
                "rate": w / g if g else 0.0, "ci95": list(wilson(w, g))}
            for h, (g, w) in sorted(heroes.items(), key=lambda kv: (-kv[1][1] / kv[1][0], kv[0]))
        },
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds > 0 else None,
    }
