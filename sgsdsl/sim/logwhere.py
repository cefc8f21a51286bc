"""`simulate --log-where`: which games of a batch to log, as a small filter on their results.

    hero == 严颜                      a seat plays 严颜
    hero == 严颜 and identity == 反贼  one seat is 严颜 as a rebel
    winner == 内奸 and turns > 40      game facts: winner, turns, game (its index), draw, error

Seat clauses (hero, identity, won, seat) must hold for one and the same seat.
"""

from __future__ import annotations

import operator
import re

from ..lang.diagnostics import suggest

OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}
SEAT_FIELDS = ("hero", "identity", "won", "seat")
GAME_FIELDS = ("winner", "turns", "game", "draw", "error")
BOOLS = {"yes": True, "true": True, "是": True, "no": False, "false": False, "否": False}
CLAUSE = re.compile(r"^\s*(\w+)\s*(==|!=|<=|>=|<|>)\s*(\S+)\s*$")


class WhereError(ValueError):
    pass


def parse(text: str, rules) -> list[tuple[str, str, object]]:
    """[(field, op, value)], names resolved to ids; WhereError with a hint when something is wrong."""
    clauses = []
    for part in re.split(r"\s+and\s+", text.strip()):
        m = CLAUSE.match(part)
        if not m:
            raise WhereError(f"cannot read '{part}': write FIELD OP VALUE, e.g. 'hero == 严颜'")
        field, op, raw = m.groups()
        if field not in SEAT_FIELDS + GAME_FIELDS:
            hint = suggest(field, SEAT_FIELDS + GAME_FIELDS)
            raise WhereError(f"unknown field '{field}'" + (f"; {hint}" if hint else "")
                             + f" (fields: {', '.join(SEAT_FIELDS + GAME_FIELDS)})")
        if field not in ("turns", "game", "seat") and op not in ("==", "!="):
            raise WhereError(f"{field} is compared with == or !=, not {op}")
        clauses.append((field, op, _value(field, raw, rules)))
    return clauses


def _value(field: str, raw: str, rules):
    if field == "hero":
        hit = rules.lookup(raw)
        if hit is None or hit[0] != "heroes":
            hint = suggest(raw, [h.name for h in rules.heroes.values()])
            raise WhereError(f"no hero named '{raw}'" + (f"; {hint}" if hint else ""))
        return hit[1]
    if field in ("identity", "winner"):
        names = {n: i for i, n in rules.enum_names.items()}
        ident = names.get(raw, raw)
        if ident not in {i for m in rules.modes.values() for _, vs in m.table for v in vs for i in v}:
            hint = suggest(raw, list(names))
            raise WhereError(f"no identity named '{raw}'" + (f"; {hint}" if hint else ""))
        return ident
    if field in ("won", "draw", "error"):
        if raw.lower() not in BOOLS:
            raise WhereError(f"{field} is yes or no, not '{raw}'")
        return BOOLS[raw.lower()]
    try:
        return int(raw)
    except ValueError:
        raise WhereError(f"{field} is a number, not '{raw}'") from None


def matches(clauses, r) -> bool:
    seat_clauses = [c for c in clauses if c[0] in SEAT_FIELDS]
    for field, op, value in clauses:
        if field in SEAT_FIELDS:
            continue
        if field == "winner":
            ok = (value in r.winners) == (op == "==")
        else:
            have = {"turns": r.turns, "game": r.index, "draw": r.error is None and not r.winners,
                    "error": r.error is not None}[field]
            ok = OPS[op](have, value)
        if not ok:
            return False
    if not seat_clauses:
        return True
    for n, (hero, ident, won) in enumerate(r.seats):
        have = {"hero": hero, "identity": ident, "won": won, "seat": n + 1}
        if all(OPS[op](have[f], v) for f, op, v in seat_clauses):
            return True
    return False
