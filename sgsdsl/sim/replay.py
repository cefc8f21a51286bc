"""`simulate --replay`: play a logged game again and say whether it is identical.

A log is JSON lines: a header (what the game was: mode, players, seed, agent, packages …) and
the game's records. A file that is not such a log, or one written with other rules, gets a
message saying what is wrong with it (which field, which package) and exit 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..lang.files import NotReadable, read_bytes, shown, universal_newlines

AGENTS = ("heuristic", "random", "first")
PICKS = ("uniform", "strongest")  # bots.agents.HERO_PICKS
LOG_BYTES = 256 * 1024 * 1024  # the largest log --replay reads (a game's log is a few hundred KB)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# field -> (what it must be, check); the header write_log writes
FIELDS = {
    "mode": ("a mode id (text)", lambda v: isinstance(v, str)),
    "players": ("a number of players", lambda v: _int(v) and 1 <= v <= 99),
    "seed": ("an integer seed", _int),
    "agent": ("one of " + ", ".join(AGENTS), lambda v: v in AGENTS),
    "turn_cap": ("a number of turns (1 or more)", lambda v: _int(v) and v >= 1),
    "decks": ("a list of deck ids", _names),
    "variant": ("a row variant (0 or more)", lambda v: _int(v) and v >= 0),
    "with": ("a list of variant packages", _names),
    "packages": ("a list of packages", _names),
    "game": ("a game number (0 or more)", lambda v: _int(v) and v >= 0),
    "pick": ("one of " + ", ".join(PICKS) + ", or null", lambda v: v in PICKS),
    "turn_limit": ("a number of turns (0: none)", lambda v: _int(v) and v >= 0),
    "options": ("an object of the mode's option ids and values", lambda v: isinstance(v, dict)),
    "plan": ("a seat plan (an object with seat, identity, hero, reserved) or null",
             lambda v: isinstance(v, dict) and _int(v.get("seat")) and all(isinstance(v.get(k), str) for k in
                                                                           ("identity", "hero"))
             and _names(v.get("reserved"))),
}
OPTIONAL = {"decks": [], "variant": 0, "with": [], "packages": None, "game": 0, "pick": None, "turn_limit": 0,
            "options": {}, "plan": None}


class BadLog(Exception):
    """What is wrong with a file given to --replay."""


def read(path: Path) -> list[tuple[dict, str]]:
    """Each game of a log: its checked header and its records' text (a log may hold several games)."""
    try:
        text = universal_newlines(read_bytes(path, LOG_BYTES, "game log").decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BadLog(f"{shown(path)} is not a game log: not UTF-8 text (byte {e.start})") from None
    except NotReadable as e:
        raise BadLog(str(e)) from None
    lines = text.splitlines(True)
    if not lines or not lines[0].strip():
        raise BadLog(f"{path} is not a game log: it is empty" if not text.strip() else
                     f"{path} is not a game log: its first line is empty (it should be the header)")
    games: list[tuple[dict, list[str]]] = []
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except ValueError as e:
            if n == 1:
                raise BadLog(f"{path} is not a game log: line 1 is not JSON ({e}); a log written by "
                             "`simulate --log` starts with a JSON header") from None
            raise BadLog(f"{path}: line {n} is not JSON ({e}); the log is cut short or damaged") from None
        if isinstance(rec, dict) and rec.get("kind") == "header":
            games.append((_checked(path, rec), []))
        elif not games:
            raise BadLog(f"{path} is not a game log: line 1 is not a header (expected an object with \"kind\": "
                         "\"header\", as `simulate --log` writes)")
        else:
            games[-1][1].append(line)
    return [(h, "".join(body)) for h, body in games]


def _checked(path: Path, header: dict) -> dict:
    for name, (what, ok) in FIELDS.items():
        if name not in header:
            if name in OPTIONAL:
                header[name] = OPTIONAL[name]
                continue
            raise BadLog(f"{path}: the header has no field \"{name}\" ({what})")
        if header[name] is None and name in OPTIONAL:
            header[name] = OPTIONAL[name]  # null: as if the field were not written
            continue
        if not ok(header[name]):
            raise BadLog(f"{path}: the header's field \"{name}\" is {json.dumps(header[name], ensure_ascii=False)}; "
                         f"it must be {what}")
    return header


def fits(header: dict, rules) -> None:
    """Raise BadLog when these rules cannot play the logged game (another ruleset, a missing file)."""
    wanted = header.get("packages")
    if wanted is not None:
        missing = [p for p in wanted if p not in rules.packages]
        if missing:
            raise BadLog(f"the log was written with package(s) {', '.join(missing)}, which these rules do not have "
                         f"(packages here: {', '.join(rules.packages)}); if a designer's files declare them, give "
                         "them as PATHS: `sgsdsl simulate FILES --replay LOG`")
    mode = rules.modes.get(header["mode"])
    if mode is None:
        raise BadLog(f"the log's mode \"{header['mode']}\" is not in these rules (modes: {', '.join(rules.modes)})")
    lo, hi = mode.players
    if not lo <= header["players"] <= hi:
        raise BadLog(f"the log's game has {header['players']} players; mode {mode.id} is for {lo}–{hi}")
    unknown = [d for d in header["decks"] if d not in rules.decks]
    if unknown:
        raise BadLog(f"the log's deck \"{unknown[0]}\" is not in these rules (decks: {', '.join(rules.decks)})")
    rows = dict(mode.table).get(header["players"], ((),))
    if header["variant"] >= len(rows):
        raise BadLog(f"the log's identity variant {header['variant']} does not exist for {header['players']} "
                     f"players in {mode.id}")
    from .options import OptionError, from_header

    try:
        header["options"] = dict(from_header(mode, header["options"] or {}))
    except OptionError as e:
        raise BadLog(f"the header's field \"options\": {e}") from None
    plan = header["plan"]
    if plan is not None:
        why = _plan_error(plan, header["players"], rows[header["variant"]] if rows[0] else (), rules)
        if why:
            raise BadLog(f"the header's field \"plan\" is {json.dumps(plan, ensure_ascii=False)}: {why}")


def _plan_error(plan: dict, players: int, identities, rules) -> str | None:
    """Why a featured hero's seat plan cannot be this game's, or None."""
    if not 0 <= plan["seat"] < players:
        return f"seat {plan['seat']} is not one of the {players} seats (0–{players - 1})"
    if identities and plan["identity"] not in identities:
        return f"identity {plan['identity']} is not dealt in this game ({', '.join(dict.fromkeys(identities))})"
    unknown = [h for h in [plan["hero"], *plan["reserved"]] if h not in rules.heroes]
    if unknown:
        return f"hero {unknown[0]} is not in these rules"
    return None
