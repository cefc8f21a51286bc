"""The figures of a batch: win rates per identity, per hero (split by identity, lords apart),
what each skill did, game lengths, and each featured hero against its control.

`summarize` returns the object that `simulate --json` prints; its shape is described by
sgsdsl/schemas/simulate.schema.json (SCHEMA below names its version).
"""

from __future__ import annotations

import math
from collections import Counter

from .engine.ruleset import Ruleset
from .engine.skillstats import FIELDS
from .sim import GameResult

SCHEMA = "sgsdsl-simulate/1"
EFFECTS = ("drawn", "gained", "damage", "prevented", "recovered", "kills")


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


def _identities(rules: Ruleset, ok: list[GameResult], mode: str) -> dict:
    """How often each side won (per game), and how often a player of that side won (per seat: in 国战 a
    kingdom is not at every table, and each careerist is a side of its own)."""
    wins: Counter = Counter()
    seats: Counter = Counter()
    seat_wins: Counter = Counter()
    for r in ok:
        for _, i, won in r.seats:
            if i:
                seats[i] += 1
                seat_wins[i] += int(won)
        wins.update(r.winners)
    order = identity_order(rules, mode)
    idents = sorted(set(seats) | set(wins), key=lambda i: order.index(i) if i in order else 99)
    return {i: {"name": rules.enum_names.get(i, i), **rate(wins[i], len(ok)), "players": rate(seat_wins[i], seats[i])}
            for i in idents}


def _pairs(rules: Ruleset, ok: list[GameResult]) -> list[dict]:
    """Per pair of hero cards a seat played (国战's main + deputy, in either order), best first; `partners`
    says whether the two are 珠联璧合."""
    book: dict[tuple[str, str], list[int]] = {}
    for r in ok:
        for main, deputy, _, won in r.pairs:
            rec = book.setdefault(tuple(sorted((main, deputy))), [0, 0])
            rec[0] += 1
            rec[1] += int(won)
    hs = rules.heroes
    out = []
    for (a, b), (g, w) in sorted(book.items(), key=lambda kv: (-kv[1][1] / kv[1][0], -kv[1][0], kv[0])):
        out.append({"ids": [a, b], "name": f"{hs[a].name}+{hs[b].name}",
                    "partners": b in hs[a].pairs or a in hs[b].pairs, **rate(w, g)})
    return out


def _heroes(rules: Ruleset, ok: list[GameResult], mode: str) -> tuple[list[dict], list[dict]]:
    """Per hero outside the lord's seat (with a split per identity), and per hero in the lord's seat."""
    lord = rules.modes[mode].lord
    rows: dict[str, list] = {}
    lords: dict[str, list] = {}
    split: dict[str, dict[str, list]] = {}
    for r in ok:
        for hero, ident, won in r.played or r.seats:
            book = lords if lord is not None and ident == lord else rows
            rec = book.setdefault(hero, [0, 0])
            rec[0] += 1
            rec[1] += int(won)
            if book is rows and ident is not None:
                s = split.setdefault(hero, {}).setdefault(ident, [0, 0])
                s[0] += 1
                s[1] += int(won)

    def name(h: str) -> str:
        return rules.heroes[h].name if h in rules.heroes else h

    def ordered(book):
        return sorted(book.items(), key=lambda kv: (-kv[1][1] / kv[1][0], kv[0]))

    order = identity_order(rules, mode)
    def by_identity(h: str) -> dict:
        mine = split.get(h, {})
        return {i: rate(mine[i][1], mine[i][0]) | {"name": rules.enum_names.get(i, i)}
                for i in sorted(mine, key=lambda i: order.index(i) if i in order else 99)}

    heroes = [{"id": h, "name": name(h), **rate(w, g), "identities": by_identity(h)} for h, (g, w) in ordered(rows)]
    lord_rows = [{"id": h, "name": name(h), **rate(w, g)} for h, (g, w) in ordered(lords)]
    return heroes, lord_rows


def _skills(rules: Ruleset, ok: list[GameResult], first: list[str]) -> list[dict]:
    """Hero skills that were available in some game: featured heroes' first, then by hero."""
    total: dict[str, Counter] = {}
    for r in ok:
        for sid, rec in r.skills.items():
            total.setdefault(sid, Counter()).update(rec)
    owners: dict[str, list[str]] = {}
    for h in first + [h for h in rules.heroes if h not in first]:
        for sid in rules.heroes[h].skills:
            owners.setdefault(sid, []).append(h)
    out = []
    for sid, heroes in owners.items():
        c = total.get(sid)
        if not c or not c["games"]:
            continue
        used = c["used"]
        out.append({
            "id": sid, "name": rules.skills[sid].name, "heroes": heroes,
            "hero_names": [rules.heroes[h].name for h in heroes], "featured": any(h in first for h in heroes),
            "games": c["games"], **{k: c[k] for k in FIELDS},
            "per_game": {k: c[k] / c["games"] for k in ("offered", "used") + EFFECTS},
            "per_use": {k: (c[k] / used if used else None) for k in EFFECTS},
        })
    return out


def _featured(rules: Ruleset, results: list[GameResult], heroes: list[str], mode: str, baseline: str | None) -> list:
    from .balance import compare

    order = identity_order(rules, mode)
    out = []
    for hero in heroes:
        mine = [r for r in results if r.featured == hero and r.error is None]
        groups: dict[str, list[Counter]] = {}
        for r in mine:
            _, ident, won = r.seats[r.seat]
            c = groups.setdefault(ident, [Counter(), Counter()])[int(r.control)]
            c["games"] += 1
            c["wins"] += int(won)
        rows = []
        alls = [Counter(), Counter()]
        for ident in sorted(groups, key=lambda i: order.index(i) if i in order else 99) + ["all"]:
            f, c = alls if ident == "all" else groups[ident]
            if ident != "all":
                alls[0].update(f)
                alls[1].update(c)
            rows.append({"identity": ident, "name": rules.enum_names.get(ident, "all identities"),
                         "featured": rate(f["wins"], f["games"]), "control": rate(c["wins"], c["games"]),
                         **compare(f["wins"], f["games"], c["wins"], c["games"])})
        h = rules.heroes[hero]
        out.append({"hero": hero, "name": h.name, "baseline": baseline or "pool",
                    "skills": [{"id": s, "name": rules.skills[s].name, "text": rules.skills[s].text,
                                "loc": rules.skills[s].loc} for s in h.skills],
                    "rows": rows})
    return out


def summarize(rules: Ruleset, results: list[GameResult], *, seed: int, mode: str, players: int, agent: str,
              seconds: float, pick: str | None = None, featured: list[str] = (), baseline: str | None = None,
              command: str | None = None, options: dict | None = None) -> dict:
    main = [r for r in results if not r.control]
    ok = [r for r in main if r.error is None]
    decided = len(ok)
    draws = sum(1 for r in ok if not r.winners)
    heroes, lords = _heroes(rules, ok, mode)
    turns = Counter(r.turns for r in ok)
    return {
        "schema": SCHEMA,
        "command": command,
        "games": len(main),
        "control_games": len(results) - len(main),
        "seed": seed,
        "mode": mode,
        "players": players,
        "agent": agent,
        "pick": pick,
        "options": options or {},
        "identities": _identities(rules, ok, mode),
        "draws": draws,
        "draw_rate": draws / decided if decided else 0.0,
        "errors": [r.error for r in results if r.error is not None],
        "avg_turns": sum(r.turns for r in ok) / decided if decided else 0.0,
        "turns": [[t, n] for t, n in sorted(turns.items())],
        "heroes": heroes,
        "lords": lords,
        "pairs": _pairs(rules, ok),
        "skills": _skills(rules, ok, list(featured)),
        "featured": _featured(rules, results, list(featured), mode, baseline) if featured else [],
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds > 0 else None,
    }
