"""The library: what the `sgsdsl` command does, as functions (docs/api.md).

    import sgsdsl
    rules = sgsdsl.load("examples/yanyan.sgs")     # the shipped rules plus a designer's file
    sgsdsl.check("examples/yanyan.sgs")            # its diagnostics and rule-conflict findings
    game = sgsdsl.new_game(rules, players=5, seed=3)
    outcome = sgsdsl.run(game)                     # winners, reason, turns, seats, the log
    stats = sgsdsl.simulate(rules, games=100)      # what `sgsdsl simulate --json` prints

Errors in the rules raise CompileError (its `.diagnostics` are located, like the command's);
a bad argument (an unknown mode or deck, a player count the mode does not take) raises
ValueError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .lang.compiler import rules_paths
from .lang.diagnostics import CompileError, Diagnostic

if TYPE_CHECKING:  # the engine is imported when a game is made: `check` never needs it
    from .engine.game import Game
    from .engine.ruleset import Ruleset


def load(*paths, variants: tuple[str, ...] = ()) -> Ruleset:
    """The shipped rules, plus a designer's files or folders, compiled in memory.

    `variants` selects variant packages (`("first_edition",)`). Raises CompileError on errors."""
    from .lang.loader import compiled

    return compiled(rules_paths(paths) or None, tuple(variants))[0]


def check(*paths, select=(), ignore=()) -> list[Diagnostic]:
    """Every diagnostic `sgsdsl check` reports for PATHS (checked with the shipped rules), or for the shipped
    rules alone. Each has `.code`, `.severity`, `.message`, `.span` (file, line, col) and `.acknowledged`."""
    from .conflicts.runner import diagnose

    return diagnose(rules_paths(paths), tuple(select), tuple(ignore))[1]


def new_game(rules: Ruleset | None = None, *, mode: str = "identity", players: int = 5, seed: int = 1,
             agent: str = "heuristic", heroes: list[str] | None = None, decks=(), log: bool = True) -> Game:
    """A game of bots ready to run: `agent` is heuristic, random or first; `heroes` restricts the pool."""
    from .engine.log import GameLog
    from .sim.batch import AGENTS
    from .sim.batch import new_game as sim_new_game

    rules = rules or load()
    m = rules.find_mode(mode)
    if m is None:
        raise ValueError(f"unknown mode '{mode}' (modes: {', '.join(rules.modes)})")
    rules, mode = rules.for_mode(m), m.id
    lo, hi = rules.modes[mode].players
    if not lo <= players <= hi:
        raise ValueError(f"mode {mode} is for {lo}–{hi} players, not {players}")
    if agent not in (*AGENTS, "heuristic"):
        raise ValueError(f"unknown agent '{agent}' (heuristic, {', '.join(AGENTS)})")
    try:
        decks = rules.deck_ids(decks)
    except KeyError as e:
        raise ValueError(f"unknown deck '{e.args[0]}' (decks: {rules.deck_list()})") from None
    return sim_new_game(rules, mode, players, seed, agent, GameLog() if log else None, decks=list(decks),
                        heroes=heroes)


@attrs.frozen
class Outcome:
    winners: tuple[str, ...]  # identity ids (lord, rebel …)
    reason: str
    turns: int
    seats: tuple[tuple[str, str | None, bool], ...]  # (hero id, identity id, won) per seat
    log: tuple[str, ...]  # the Chinese game log, one line per entry (empty without a log)


def run(game: Game) -> Outcome:
    """Play a game from new_game to its end."""
    over = game.run()
    seats = tuple((p.heroes[0].id if p.heroes else "?", p.identity, over.won(p)) for p in game.players)
    lines = tuple(game.log.lines) if game.log is not None else ()
    return Outcome(tuple(over.winners), over.reason, game.turn_no, seats, lines)


def simulate(rules: Ruleset | None = None, *, games: int = 100, players: int = 5, seed: int = 1,
             mode: str = "identity", agent: str = "heuristic", workers: int = 1, decks=()) -> dict:
    """Play a batch of bot games; the statistics `sgsdsl simulate --json` prints (identities, heroes, draws,
    errors, average turns), each rate with its 95% interval."""
    from .sim.batch import run_batch
    from .sim.stats import summarize

    rules = rules or load()
    new_game(rules, mode=mode, players=players, agent=agent, decks=decks, log=False)  # validates the arguments
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    results, seconds = run_batch(rules, mode=mode, players=players, games=games, seed=seed, agent=agent,
                                 workers=workers, decks=list(decks))
    return summarize(rules, results, seed=seed, mode=mode, players=players, agent=agent, seconds=seconds)


__all__ = ["CompileError", "Diagnostic", "Outcome", "check", "load", "new_game", "run", "simulate"]
