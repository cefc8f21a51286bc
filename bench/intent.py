"""Do the heuristic bots play every skill as its text means? (issue 23)

    python bench/intent.py [--games 60] [--paired 40] [--timing 30] [--workers 2] [--seed 1] [--readme]

Three figures, each with its target beside it:

1. Intended choices. Heuristic games of the standard 5-player identity game, 1v1 and 国战 (`--games` each).
   Every choice of players or of other players' cards that a skill makes, where the skill means the
   choice for someone (its hint says hostile or friendly, or the compiler derived the choice good or bad
   for the chosen: lang/intent.py), is judged with the chooser's true side (identities as dealt; in 国战
   a revealed player's kingdom, 野心家 on its own, else its main hero's): help and gifts should go to the chooser or an ally,
   harm and card-taking to a foe (a card taken from an ally's judgment area is help). Only what the seat
   may know is judged: a player counts only where the chooser's view shows its side (the chooser itself,
   a shown identity, a revealed kingdom); a choice among players whose side the seat cannot know is
   counted apart ("unknowable", no target), since no play could be judged right or wrong there. Only
   choices that offered at least one intended option the seat could know count, and a pick the rules
   forced is counted apart too ("forced"): when a skill must take two players and the seat knows only one
   foe among them, the other pick could not go the intended way. Target: ≥ 90% for every skill.
2. Each of the 25 standard heroes against a blank hero of its HP: `--paired` games of the featured hero
   (sgsdsl/sim's Rotation: its identity as the table deals them, its seat in turn) and the same games,
   same seeds and seats, with a copy of it that has no skills. The paired difference of its win rate, with
   a 95% interval. Target: no hero significantly below its blank copy.
3. Time per turn of heuristic bots against random ones (`--timing` games each, one process, the two kinds'
   games interleaved). Target: within 2×.

The counts by default run in a few minutes on 2 cores; the figures come with their game counts.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from collections import defaultdict
from datetime import date
from multiprocessing import Pool
from pathlib import Path

import attrs

from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.lang.loader import shipped
from sgsdsl.sim.batch import Setup, game_seed, new_game, rotation, setup_game
from sgsdsl.sim.pool import settle
from sgsdsl.sim.skillstats import sides

MODES = (("identity", 5, "standard"), ("duel", 2, "duel"), ("guozhan", 5, "guozhan_heroes"))
TARGET_SHARE = 0.90
_RULES = None


def rules():
    global _RULES
    if _RULES is None:
        _RULES = shipped()
    return _RULES


# ---- 1. intended choices -------------------------------------------------------------------------

def side_of(g, p):
    """The true side of a player: its identity's side; in a mode without identities, its main hero's kingdom."""
    if g.mode is not None and g.mode.table:
        return sides(g)[p.seat]
    if not p.heroes:
        return ("seat", p.seat)
    # a revealed player's kingdom is the one the game gave it (野心家 when its own was already more than
    # half of the table); a hidden one's is its main hero's
    k = p.kingdom if p.kingdom is not None else p.heroes[0].kingdom
    return ("seat", p.seat) if k == g.rules.lone_kingdom else k


class Recorder(HeuristicAgent):
    """The heuristic bot, with every choice of players or cards that a skill means for someone written down."""

    game = None
    tally: dict = None  # skill id -> [intended, counted, unknowable, forced]

    def decide(self, view, req):
        answer = super().decide(view, req)
        if req.kind in ("players", "cards") and req.intent is not None and answer:
            self.judge(req, answer)
        return answer

    def meant(self, req) -> str | None:
        g = self.game
        source, sense = req.intent[:2]
        if source not in g.rules.skills:
            return None
        h = g.rules.hints.get(source)
        if h is not None and h[0] in ("hostile", "friendly") and (len(req.intent) > 2 or sense not in ("good", "bad")):
            return "good" if h[0] == "friendly" else "bad"
        return sense if sense in ("good", "bad", "mine", "lost", "given") else None

    def judge(self, req, answer) -> None:
        g = self.game
        meant = self.meant(req)
        if meant is None:
            return
        real = lambda pv: g.players[pv.seat]  # noqa: E731 - the bench, not an agent: it judges with the table open
        me = real(req.player)
        mine = side_of(g, me)

        def friend(p) -> bool:
            return p is me or side_of(g, p) == mine

        by_identity = g.mode is not None and bool(g.mode.table)

        def knowable(pv) -> bool:
            """Does the chooser's view show this player's side? (Options and card owners are the players of the
            view the chooser decided from.)"""
            return pv.is_me or (pv.identity if by_identity else pv.kingdom) is not None

        tally = self.tally[req.intent[0]]
        if req.kind == "players":
            if meant not in ("good", "bad"):
                return
            ok = (lambda p: friend(p)) if meant == "good" else (lambda p: not friend(p))
            if not any(ok(real(o)) for o in req.options if knowable(o)):
                tally[2] += len(answer)
                return  # no intended option the seat could know: nothing to judge
            chosen = [a for a in answer if knowable(a)]
            good = sum(ok(real(a)) for a in chosen)
            # the picks the count made go otherwise: more must be chosen than there are intended options
            forced = min(max(0, req.lo - sum(ok(real(o)) for o in req.options if knowable(o))), len(chosen) - good)
            tally[0] += good
            tally[1] += len(chosen) - forced
            tally[2] += len(answer) - len(chosen)
            tally[3] += forced
            return
        # cards: those of other players a skill takes or discards (its own cards given away are not a side)
        theirs = [c for c in req.options if c.owner is not None and real(c.owner) is not me]
        if not theirs or meant == "given":
            return

        def ok_card(c) -> bool:
            owner = real(c.owner)
            return (not friend(owner)) or c.zone == "judge"

        chosen = [c for c in answer if c.owner is not None and real(c.owner) is not me]
        if not any(ok_card(c) for c in theirs if knowable(c.owner)):
            tally[2] += len(chosen)
            return
        known = [c for c in chosen if knowable(c.owner)]
        good = sum(ok_card(c) for c in known)
        forced = min(max(0, req.lo - sum(ok_card(c) for c in theirs if knowable(c.owner))), len(known) - good)
        tally[0] += good
        tally[1] += len(known) - forced
        tally[2] += len(chosen) - len(known)
        tally[3] += forced


def intent_games(job) -> dict:
    mode, players, seed, games = job
    R = rules()
    tally: dict = defaultdict(lambda: [0, 0, 0, 0])
    names: dict = {}  # skill id -> name (a mode plays its own versions of some skills)
    for i in range(games):
        g = new_game(R, mode, players, game_seed(seed, i), "heuristic")
        agents = []
        for _ in range(players):
            a = Recorder()
            a.game, a.tally = g, tally
            agents.append(a)
        g.agents = agents
        g.run()
        for sid in tally:
            names.setdefault(sid, g.rules.skills[sid].name)
    return dict(tally), names


# ---- 2. each standard hero against its blank copy ----------------------------------------------------

def blank(R, hero: str):
    h = R.heroes[hero]
    return attrs.evolve(h, id=f"{h.id}~blank", name=f"{h.name}（白板）", skills=())


def paired_games(job) -> tuple[str, list[tuple[int, int]]]:
    hero, games, seed = job
    R = rules()
    rot = rotation(R, "identity", 5, 0, hero)
    copy = blank(R, hero)
    RB = R.with_heroes((copy,))
    s = Setup(mode="identity", players=5, agent="heuristic", stats=False)
    out = []
    for i in range(games):
        wins = []
        for rr, who in ((R, None), (RB, copy.id)):
            g = setup_game(rr, s, game_seed(seed, i), rot.plan(i, False, who))
            over = g.run()
            wins.append(int(over.won(g.planned())))
        out.append(tuple(wins))
    return hero, out


def paired_figure(pairs: list[tuple[int, int]]) -> tuple[float, float, float]:
    """The mean paired difference (hero minus blank) and its 95% interval (normal approximation)."""
    d = [a - b for a, b in pairs]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    return mean, mean - half, mean + half


# ---- 3. time per turn -------------------------------------------------------------------------------

def time_per_turn(agents: tuple[str, ...], games: int, seed: int) -> list[float]:
    """Seconds per turn of each agent kind, its games interleaved with the others' (game i of each kind in turn),
    so that the machine's load falls on all alike. The heap is settled first, as simulate does."""
    R = settle(rules())
    turns, spent = [0] * len(agents), [0.0] * len(agents)
    for i in range(games):
        for k, agent in enumerate(agents):
            g = new_game(R, "identity", 5, game_seed(seed, i), agent)
            start = time.process_time()  # CPU time: a shared machine's other work is not counted
            g.run()
            spent[k] += time.process_time() - start
            turns[k] += g.turn_no
    return [t / max(n, 1) for t, n in zip(spent, turns)]


# ---- report ------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="heuristic games per mode for the intent shares")
    ap.add_argument("--paired", type=int, default=40, help="paired games per standard hero (hero and blank copy)")
    ap.add_argument("--timing", type=int, default=30, help="games per agent for the time per turn")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--readme", action="store_true", help="write the report into README.md (figures:intent)")
    args = ap.parse_args()
    R = rules()
    t0 = time.perf_counter()
    lines = [f"{date.today()} on {platform.machine()}, Python {platform.python_version()}, {args.workers} "
             f"process(es); load average {os.getloadavg()[0]:.1f}"]
    with Pool(args.workers) as pool:
        # 1
        chunks = max(1, args.workers)
        jobs = []
        for mode, players, _ in MODES:
            per = -(-args.games // chunks)
            for c in range(chunks):
                n = min(per, args.games - c * per)
                if n > 0:
                    jobs.append((mode, players, args.seed * 1000 + c, n))
        results = pool.map(intent_games, jobs)
        by_mode: dict = {}
        names: dict = {}
        for (mode, _, _, _), (t, nm) in zip(jobs, results):
            names.update(nm)
            acc = by_mode.setdefault(mode, defaultdict(lambda: [0, 0, 0, 0]))
            for k, counts in t.items():
                for j, x in enumerate(counts):
                    acc[k][j] += x
        lines.append(f"1. intended choices (target ≥ {TARGET_SHARE:.0%} per skill), {args.games} heuristic "
                     f"games per mode:")
        below = 0
        for mode, _, _ in MODES:
            acc = by_mode.get(mode, {})
            row = []
            for sid, (good, n, unknown, forced) in sorted(acc.items(), key=lambda kv: (-kv[1][1], kv[0])):
                aside = [f"{unknown} unknowable"] * bool(unknown) + [f"{forced} forced"] * bool(forced)
                apart = f" (+{', '.join(aside)})" if aside else ""
                if n == 0:
                    if aside:
                        row.append(f"{names[sid]} {', '.join(aside)}")
                    continue
                share = good / n
                mark = "" if share >= TARGET_SHARE else " ✗"
                below += share < TARGET_SHARE
                row.append(f"{names[sid]} {good}/{n} {share:.0%}{mark}{apart}")
            lines.append(f"   {mode}: " + ("; ".join(row) if row else "(no such choice)"))
        lines.append(f"   skills below target: {below}")
        # 2
        heroes = [h for h in R.hero_pool(R.modes["identity"]) if R.heroes[h].loc.startswith("rules/standard/")]
        paired = dict(pool.map(paired_games, [(h, args.paired, args.seed) for h in heroes]))
    lines.append(f"2. each standard hero against a blank hero of its HP (target: none significantly below), "
                 f"{args.paired} paired games each (same seeds, seats, identities):")
    rows, sig_below = [], 0
    for h in heroes:
        mean, lo, hi = paired_figure(paired[h])
        wins = sum(a for a, _ in paired[h])
        bwins = sum(b for _, b in paired[h])
        flag = " ✗ significantly below" if hi < 0 else " significantly above" if lo > 0 else ""
        sig_below += hi < 0
        rows.append(f"   {R.heroes[h].name}({R.heroes[h].hp_halves / 2:g}) {wins}/{len(paired[h])} vs blank "
                    f"{bwins}: {mean * 100:+.0f} points [{lo * 100:+.0f}, {hi * 100:+.0f}]{flag}")
    lines += rows
    lines.append(f"   heroes significantly below their blank copy: {sig_below} of {len(heroes)}")
    # 3
    th, tr = time_per_turn(("heuristic", "random"), args.timing, args.seed)
    ratio = th / tr if tr else float("inf")
    lines.append(f"3. time per turn (target: heuristic within 2× of random), {args.timing} games each, one "
                 f"process, interleaved, CPU time: heuristic {th * 1000:.2f} ms, random {tr * 1000:.2f} ms, ×{ratio:.2f}"
                 + ("" if ratio <= 2 else " ✗"))
    lines.append(f"(all of it in {time.perf_counter() - t0:.0f} s)")
    print("\n".join(lines), flush=True)
    if args.readme:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
        from figures import commit, machine, write_block

        flags = " ".join(a for a in sys.argv[1:] if a != "--readme")
        lines[0] = f"{date.today()} on {machine()}, {args.workers} process(es), load average " \
                   f"{os.getloadavg()[0]:.1f}, commit {commit() or '?'}"
        write_block("intent", "```\n$ python bench/intent.py " + flags + "\n" + "\n".join(lines) + "\n```")


if __name__ == "__main__":
    main()
