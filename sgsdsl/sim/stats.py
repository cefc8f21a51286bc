"""The figures of a batch: win rates per identity, per hero (split by identity, lords apart),
what each skill did, game lengths, and each featured hero against its control.

`summarize` returns the object that `simulate --json` prints; its shape is described by
sgsdsl/sim/schemas/simulate.schema.json (SCHEMA below names its version).
"""

from __future__ import annotations

import math
from collections import Counter

from ..engine.ruleset import Ruleset
from .batch import GameResult
from .skillstats import FIELDS, RECIPIENTS, SHARED

SCHEMA = "sgsdsl-simulate/1"
EFFECTS = ("drawn", "gained", "damage", "prevented", "recovered", "kills")
COSTS = ("hp_lost", "cards_lost")  # what a skill cost its owner while it settled


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def rate(wins: int, games: int) -> dict:
    return {"games": games, "wins": wins, "rate": wins / games if games else 0.0, "ci95": list(wilson(wins, games))}


def identity_order(rules: Ruleset, mode: str) -> list[str]:
    m = rules.modes[mode]
    # a mode without an identity table (国战: the sides are kingdoms) orders its sides as the enums declare them
    return list(dict.fromkeys([i for _, variants in m.table for v in variants for i in v] + list(rules.enum_names)))


POINTS = (5, 3, 2)  # the half-widths of a 95% interval that games_for() prices


def games_for(mine: Counter, theirs: Counter) -> dict[str, int | None]:
    """Games (featured and control each) a 95% interval of ±N points on the change needs, at the observed
    win rates: 1.96² · (p₁q₁ + p₂q₂) / (N/100)² (the normal approximation; the paired games only tighten it)."""
    if not mine["games"] or not theirs["games"]:
        return {str(n): None for n in POINTS}
    p1, p2 = mine["wins"] / mine["games"], theirs["wins"] / theirs["games"]
    var = p1 * (1 - p1) + p2 * (1 - p2) or 0.25  # at 0% or 100% the observed variance says nothing
    return {str(n): math.ceil(1.96 ** 2 * var / (n / 100) ** 2) for n in POINTS}


class Tally:
    """The figures of a batch, added up one game at a time: a batch of any size is summarized without
    keeping its results (`simulate` streams them)."""

    def __init__(self, rules: Ruleset, mode: str, featured: list[str] = (), pools: dict[str, int] | None = None):
        self.rules, self.mode, self.featured = rules, mode, list(featured)
        self.pools = pools or {}  # featured hero -> how many heroes take turns in its control seat
        self.main = self.control = self.ablation = self.decided = self.draws = self.turn_sum = 0
        self.errors: list[str] = []
        self.idents: set[str] = set()
        self.wins: Counter = Counter()
        self.seats: Counter = Counter()  # side -> players of it (国战: a kingdom is not at every table)
        self.seat_wins: Counter = Counter()
        self.pairs: dict[tuple[str, str], list[int]] = {}  # 国战's main + deputy, either order -> [games, wins]
        self.turns: Counter = Counter()
        lord = rules.modes[mode].lord
        self.lord = lord
        self.rows: dict[str, list] = {}  # hero -> [games, wins] outside the lord's seat
        self.lords: dict[str, list] = {}  # hero -> [games, wins] in the lord's seat
        self.split: dict[str, dict[str, list]] = {}  # hero -> identity -> [games, wins]
        self.skills: dict[str, Counter] = {}
        self.groups: dict[str, dict[str, list[Counter]]] = {h: {} for h in self.featured}  # featured: [mine, control]
        self.controls: dict[str, Counter] = {h: Counter() for h in self.featured}  # featured -> control hero -> games
        self.ablations: dict[str, dict[str, Counter]] = {h: {} for h in self.featured}  # featured -> skill -> wins

    def add(self, r: GameResult) -> None:
        if r.error is not None:
            self.errors.append(r.error)
        if r.ablated is not None:
            self.ablation += 1
        elif r.control:
            self.control += 1
        else:
            self.main += 1
        if r.featured in self.groups and r.error is None:
            _, ident, won = r.seats[r.seat]
            if r.ablated is not None:
                c = self.ablations[r.featured].setdefault(r.ablated, Counter())
            else:
                c = self.groups[r.featured].setdefault(ident, [Counter(), Counter()])[int(r.control)]
            c["games"] += 1
            c["wins"] += int(won)
            if r.control:
                self.controls[r.featured][r.hero] += 1
        if r.control or r.ablated is not None or r.error is not None:
            return
        self.decided += 1
        self.draws += not r.winners
        self.turn_sum += r.turns
        self.turns[r.turns] += 1
        self.idents.update(i for _, i, _ in r.seats if i)
        for _, i, won in r.seats:
            if i:
                self.seats[i] += 1
                self.seat_wins[i] += int(won)
        self.wins.update(r.winners)
        for main, deputy, _, won in r.pairs:
            rec = self.pairs.setdefault(tuple(sorted((main, deputy))), [0, 0])
            rec[0] += 1
            rec[1] += int(won)
        for hero, ident, won in r.played or r.seats:
            book = self.lords if self.lord is not None and ident == self.lord else self.rows
            rec = book.setdefault(hero, [0, 0])
            rec[0] += 1
            rec[1] += int(won)
            if book is self.rows and ident is not None:
                sp = self.split.setdefault(hero, {}).setdefault(ident, [0, 0])
                sp[0] += 1
                sp[1] += int(won)
        for sid, rec in r.skills.items():
            self.skills.setdefault(sid, Counter()).update(rec)

    def identities(self) -> dict:
        rules, order = self.rules, identity_order(self.rules, self.mode)
        idents = sorted(self.idents | set(self.wins), key=lambda i: order.index(i) if i in order else 99)
        # how often each side won (per game), and how often a player of that side won (per seat)
        return {i: {"name": rules.enum_names.get(i, i), **rate(self.wins[i], self.decided),
                    "players": rate(self.seat_wins[i], self.seats[i])} for i in idents}

    def pair_rows(self) -> list[dict]:
        """Per pair of hero cards a seat played, best first; `partners` says whether the two are 珠联璧合."""
        hs = self.rules.heroes
        out = []
        for (a, b), (g, w) in sorted(self.pairs.items(), key=lambda kv: (-kv[1][1] / kv[1][0], -kv[1][0], kv[0])):
            out.append({"ids": [a, b], "name": f"{hs[a].name}+{hs[b].name}",
                        "partners": b in hs[a].pairs or a in hs[b].pairs, **rate(w, g)})
        return out

    def heroes(self) -> tuple[list[dict], list[dict]]:
        """Per hero outside the lord's seat (with a split per identity), and per hero in the lord's seat."""
        rules = self.rules

        def name(h: str) -> str:
            return rules.heroes[h].name if h in rules.heroes else h

        def ordered(book):
            return sorted(book.items(), key=lambda kv: (-kv[1][1] / kv[1][0], kv[0]))

        order = identity_order(rules, self.mode)

        def by_identity(h: str) -> dict:
            mine = self.split.get(h, {})
            return {i: rate(mine[i][1], mine[i][0]) | {"name": rules.enum_names.get(i, i)}
                    for i in sorted(mine, key=lambda i: order.index(i) if i in order else 99)}

        heroes = [{"id": h, "name": name(h), **rate(w, g), "identities": by_identity(h)}
                  for h, (g, w) in ordered(self.rows)]
        lord_rows = [{"id": h, "name": name(h), **rate(w, g)} for h, (g, w) in ordered(self.lords)]
        return heroes, lord_rows

    def skill_rows(self) -> list[dict]:
        """Hero skills that were available in some game: featured heroes' first, then by hero."""
        rules, first = self.rules, self.featured
        owners: dict[str, list[str]] = {}
        for h in first + [h for h in rules.heroes if h not in first]:
            for sid in rules.heroes[h].skills:
                owners.setdefault(sid, []).append(h)
        out = []
        for sid, heroes in owners.items():
            c = self.skills.get(sid)
            if not c or not c["games"]:
                continue
            used = c["used"]
            out.append({
                "id": sid, "name": rules.skills[sid].name, "heroes": heroes,
                "hero_names": [rules.heroes[h].name for h in heroes], "featured": any(h in first for h in heroes),
                "games": c["games"], **{k: c[k] for k in FIELDS},
                "per_game": {k: c[k] / c["games"] for k in ("offered", "used") + EFFECTS},
                "per_use": {k: (c[k] / used if used else None) for k in EFFECTS + COSTS},
                "by_recipient": {k: {r: c[f"{k}@{r}"] for r in RECIPIENTS} for k in SHARED
                                 if any(c[f"{k}@{r}"] for r in RECIPIENTS)},
            })
        return out

    def featured_rows(self, baseline: str | None) -> list:
        from .balance import compare

        rules, order = self.rules, identity_order(self.rules, self.mode)
        out = []
        for hero in self.featured:
            groups = self.groups[hero]
            rows = []
            alls = [Counter(), Counter()]
            for ident in sorted(groups, key=lambda i: order.index(i) if i in order else 99) + ["all"]:
                f, c = alls if ident == "all" else groups[ident]
                if ident != "all":
                    alls[0].update(f)
                    alls[1].update(c)
                everyone = "all identities" if rules.modes[self.mode].table else "all sides"
                rows.append({"identity": ident, "name": rules.enum_names.get(ident, everyone),
                             "featured": rate(f["wins"], f["games"]), "control": rate(c["wins"], c["games"]),
                             **compare(f["wins"], f["games"], c["wins"], c["games"])})
            h = rules.heroes[hero]
            mine, theirs = alls
            out.append({"hero": hero, "name": h.name, "baseline": baseline or "pool",
                        "skills": [{"id": s, "name": rules.skills[s].name, "text": rules.skills[s].text,
                                    "loc": rules.skills[s].loc} for s in h.skills],
                        "rows": rows,
                        "controls": [{"id": c, "name": rules.heroes[c].name, "games": n}
                                     for c, n in sorted(self.controls[hero].items(), key=lambda kv: (-kv[1], kv[0]))],
                        "pool": self.pools.get(hero, len(self.controls[hero])),
                        "games_for": games_for(mine, theirs),
                        "ablation": [self.ablation_row(hero, sid, mine) for sid in h.skills
                                     if sid in self.ablations[hero]]})
        return out

    def ablation_row(self, hero: str, sid: str, mine: Counter) -> dict:
        """What one skill is worth: the featured hero's games against the same games with the skill removed."""
        from .balance import compare

        a = self.ablations[hero][sid]
        return {"skill": sid, "name": self.rules.skills[sid].name, "featured": rate(mine["wins"], mine["games"]),
                "ablated": rate(a["wins"], a["games"]), **compare(mine["wins"], mine["games"], a["wins"], a["games"])}

    def summary(self, *, seed: int, players: int, agent: str, seconds: float, pick: str | None = None,
                baseline: str | None = None, command: str | None = None, options: dict | None = None) -> dict:
        decided = self.decided
        heroes, lords = self.heroes()
        total = self.main + self.control + self.ablation
        return {
            "schema": SCHEMA,
            "command": command,
            "games": self.main,
            "control_games": self.control,
            "ablation_games": self.ablation,
            "seed": seed,
            "mode": self.mode,
            # a mode without an identity table (国战) counts wins per side a seat ends on, not per identity dealt
            "side": "identity" if self.rules.modes[self.mode].table else "side",
            "players": players,
            "agent": agent,
            "pick": pick,
            "options": options or {},
            "identities": self.identities(),
            "draws": self.draws,
            "draw_rate": self.draws / decided if decided else 0.0,
            "errors": list(self.errors),
            "avg_turns": self.turn_sum / decided if decided else 0.0,
            "turns": [[t, n] for t, n in sorted(self.turns.items())],
            "heroes": heroes,
            "lords": lords,
            "pairs": self.pair_rows(),
            "skills": self.skill_rows(),
            "featured": self.featured_rows(baseline) if self.featured else [],
            "seconds": round(seconds, 3),
            "games_per_second": round(total / seconds, 1) if seconds > 0 else None,
        }


def summarize(rules: Ruleset, results: list[GameResult], *, seed: int, mode: str, players: int, agent: str,
              seconds: float, pick: str | None = None, featured: list[str] = (), baseline: str | None = None,
              command: str | None = None, options: dict | None = None, pools: dict[str, int] | None = None) -> dict:
    tally = Tally(rules, mode, list(featured), pools)
    for r in results:
        tally.add(r)
    return tally.summary(seed=seed, players=players, agent=agent, seconds=seconds, pick=pick, baseline=baseline,
                         command=command, options=options)
