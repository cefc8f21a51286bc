"""Logs of seeded games, to show that an engine change plays every game exactly as before.

    python bench/samelogs.py OUT_DIR [--games 30]       # with the engine before the change, then after
    diff -r BEFORE_DIR AFTER_DIR                         # no output: the same games, move for move

Run it in each checkout with that checkout's engine (the rules come from the project it is run in):
`cd ../main && PYTHONPATH=. python ../mine/bench/samelogs.py /tmp/before`.

For each mode (identity 5 players, 1v1, 国战 5 players) and agent (random, heuristic, first) it plays
seeded games twice: once with the full log and window trace (`MODE-AGENT.log`: every line, a digest of
the JSON records, and the final state), and once with no log at all (`MODE-AGENT.nolog`: the final state
only), since some work is skipped when nothing is logged. The final state is the turn count, the result,
a digest of both random generators' states, each seat's HP, life and hand size, and the number of history
records. Every fifth game runs with the state invariants checked.

`--locations text` writes every rules location (`rules/…/file.sgs:N`, in the log lines and in the
records) as the text of the line it points to: for a change that moves rules without changing them
(two copies of a skill's rules made one), the logs then differ only where a game does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

from sgsdsl.engine.log import GameLog
from sgsdsl.lang.compiler import project_root
from sgsdsl.lang.loader import shipped
from sgsdsl.sim.batch import game_seed, new_game

MODES = (("identity", 5), ("duel", 2), ("guozhan", 5))
SEED = 7
LOCATION = re.compile(r"rules/[\w/.-]+\.sgs:\d+")


def located_text(root: Path):
    """A function that writes each rules location in a text as the source line it points to."""
    files: dict[str, list[str]] = {}

    def line(m: re.Match) -> str:
        path, _, n = m.group().rpartition(":")
        if path not in files:
            files[path] = (root / path).read_text(encoding="utf-8").splitlines()
        return "«" + " ".join(files[path][int(n) - 1].split()) + "»"

    return lambda text: LOCATION.sub(line, text)


def final_state(g, result) -> str:
    rngs = hashlib.sha1(repr((g.agent_rng.getstate(), g.rng.getstate())).encode()).hexdigest()
    return repr((g.turn_no, result, rngs, [(p.hp, p.alive, len(p.hand)) for p in g.players], len(g.records)))


def play(rules, mode: str, players: int, agent: str, i: int, log: GameLog | None) -> str:
    g = new_game(rules, mode, players, game_seed(SEED, i), agent, log=log, invariants=(i % 5 == 0))
    try:
        over = g.run()
        result = (over.winners, over.reason)
    except Exception as e:  # noqa: BLE001 - a game that breaks must break the same way
        result = ("error", repr(e))
    return final_state(g, result)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="directory to write the logs into")
    ap.add_argument("--games", type=int, default=30, help="random-agent games per mode (heuristic: half; first: 4)")
    ap.add_argument("--locations", choices=("keep", "text"), default="keep",
                    help="rules locations as they are, or as the text of the line each points to")
    args = ap.parse_args()
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    rules = shipped()
    shown = located_text(project_root()) if args.locations == "text" else (lambda text: text)
    for mode, players in MODES:
        for agent, games in (("random", args.games), ("heuristic", max(1, args.games // 2)), ("first", 4)):
            lines, states = [], []
            for i in range(games):
                log = GameLog(windows=True)
                state = play(rules, mode, players, agent, i, log)
                records = json.dumps(log.records, ensure_ascii=False, default=str)
                digest = hashlib.sha1(shown(records).encode()).hexdigest()
                lines += [f"=== game {i} seed {game_seed(SEED, i)}", *map(shown, log.lines), digest, shown(state)]
                states.append(shown(play(rules, mode, players, agent, i, None)))
            (args.out / f"{mode}-{agent}.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
            (args.out / f"{mode}-{agent}.nolog").write_text("\n".join(states) + "\n", encoding="utf-8")
            print(f"{mode} {agent}: {games} games", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
