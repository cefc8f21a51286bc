"""This engine against a hand-written Python engine of the same game, per turn, side by side in one run.

bench/ fetches nothing: make the peer's checkout and an environment for it by hand, then point this script
at them (the peer is sanguosha-zhongduanban, a terminal 三国杀 in plain Python, at commit 998a7a7):

    git clone https://github.com/nevergoodstudy-hub/sanguosha-zhongduanban /tmp/peer
    git -C /tmp/peer checkout 998a7a7aef1313c944169e04e6797dafbef790d0
    python3 -m venv /tmp/peer-venv
    /tmp/peer-venv/bin/pip install rich textual websockets pydantic==2.12.5 pydantic-core==2.41.5
    python bench/peer.py /tmp/peer --python /tmp/peer-venv/bin/python            # a look
    python bench/peer.py /tmp/peer --python /tmp/peer-venv/bin/python --readme   # the README block

The peer plays 5-player identity games with its own bots (`setup_headless_game(5, "easy", seed)`, then
`run_headless_battle()`); this checkout plays 5-player identity games with random agents and with heuristic
ones. Each side plays in a process of its own, and the rounds alternate which side goes first, so that a
change in the machine's load falls on both alike. The time is the CPU time of the games (setup included,
the loading of the rules and modules not), divided by the turns played; a dead player's skipped seat is no
turn. The two engines play different rules (the peer's heroes and cards, ours), so the ratio compares the
cost of a turn of each game as its engine plays it. Target (issue 29): ≥ 3× the peer per turn.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "docs"))

from against import play as play_here  # noqa: E402
from figures import machine, write_block  # noqa: E402

PEER_COMMIT = "998a7a7"
TARGET = 3.0

# Run inside the peer's checkout, with the peer's interpreter: its public headless API, nothing of its code here.
PEER_WORKER = r"""
import json, logging, sys, time
sys.path.insert(0, ".")
logging.disable(logging.CRITICAL)
from game.engine import GameEngine
games, seed = int(sys.argv[1]), int(sys.argv[2])
turns = 0
cpu = 0.0
for i in range(games):
    start = time.process_time()
    e = GameEngine()
    e.setup_headless_game(5, "easy", seed=seed * 100003 + i)
    real = e.run_headless_turn
    def counted(*a, real=real, e=e, **k):
        global turns
        if e.current_player.is_alive:
            turns += 1
        return real(*a, **k)
    e.run_headless_turn = counted
    e.run_headless_battle(100)
    cpu += time.process_time() - start
print(json.dumps({"cpu": cpu, "turns": turns}))
"""


def play_peer(peer: Path, python: str, games: int, seed: int) -> dict:
    out = subprocess.run([python, "-c", PEER_WORKER, str(games), str(seed)], cwd=peer, capture_output=True,
                         text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    if out.returncode:
        sys.exit(f"bench: the peer's games failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("peer", type=Path, help="the peer's checkout (see above)")
    ap.add_argument("--python", default=sys.executable, help="an interpreter with the peer's dependencies")
    ap.add_argument("--games", type=int, default=60, help="games per round on each side")
    ap.add_argument("--rounds", type=int, default=4, help="interleaved rounds; the median is shown")
    ap.add_argument("--readme", action="store_true", help="write the figures into README.md (figures:peer)")
    args = ap.parse_args()
    if not (args.peer / "game" / "engine.py").is_file():
        ap.error(f"{args.peer} is not a checkout of the peer (no game/engine.py); see --help")
    stamp = (f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}, "
             f"load average {os.getloadavg()[0]:.1f}")
    sides: dict[str, list[float]] = {"random": [], "heuristic": [], "peer": []}
    for r in range(args.rounds):
        order = ["random", "heuristic", "peer"]
        for side in order if r % 2 == 0 else reversed(order):
            if side == "peer":
                got = play_peer(args.peer, args.python, args.games, r + 1)
            else:
                got = play_here(ROOT, "identity", 5, side, args.games, r + 1)
            sides[side].append(1000 * got["cpu"] / max(got["turns"], 1))
        print(f"  round {r + 1}: " + ", ".join(f"{k} {v[-1]:.3f} ms/turn" for k, v in sides.items()),
              file=sys.stderr)
    ms = {k: statistics.median(v) for k, v in sides.items()}
    lines = ["| this checkout's agents | ms per turn here | ms per turn, the peer's easy bots | speed-up | target |",
             "|---|---|---|---|---|"]
    for agent in ("random", "heuristic"):
        speed = ms["peer"] / ms[agent]
        lines.append(f"| {agent} | {ms[agent]:.3f} | {ms['peer']:.3f} | {speed:.2f}× | ≥ {TARGET:g}×: "
                     f"{'met' if speed >= TARGET else 'not met'} |")
    command = "python bench/peer.py PEER --python PEER_PYTHON" + (f" --games {args.games}" if args.games != 60 else "")
    text = (f"```\n$ {command}\n```\n\nMeasured {stamp} at the start, {os.getloadavg()[0]:.1f} at the end, against "
            f"sanguosha-zhongduanban at {PEER_COMMIT} (5-player identity, each side's own rules):\n\n"
            + "\n".join(lines) + f"\n\n(CPU time per turn, median of {args.rounds} interleaved rounds of "
            f"{args.games} games on each side)\n")
    print(text)
    if args.readme:
        write_block("peer", text)


if __name__ == "__main__":
    main()
