"""`simulate --replay`: play a logged game again and say whether it is identical.

A log is JSON lines: a header (what the game was: mode, players, seed, agent, packages …) and
the game's records. A file that is not such a log, or one written with other rules, gets a
message saying what is wrong with it (which field, which package) and exit 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

AGENTS = ("heuristic", "random", "first")


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
}
OPTIONAL = {"decks": [], "variant": 0, "with": [], "packages": None}


class BadLog(Exception):
    """What is wrong with a file given to --replay."""


def read(path: Path) -> tuple[dict, str]:
    """The checked header and the records' text."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise BadLog(f"{path} is not a game log: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise BadLog(f"cannot read {path}: {e.strerror or e}") from None
    first, _, body = text.partition("\n")
    if not first.strip():
        raise BadLog(f"{path} is not a game log: it is empty" if not text.strip() else
                     f"{path} is not a game log: its first line is empty (it should be the header)")
    try:
        header = json.loads(first)
    except ValueError as e:
        raise BadLog(f"{path} is not a game log: line 1 is not JSON ({e}); a log written by "
                     "`simulate --log` starts with a JSON header") from None
    if not isinstance(header, dict) or header.get("kind") != "header":
        raise BadLog(f"{path} is not a game log: line 1 is not a header (expected an object with \"kind\": "
                     "\"header\", as `simulate --log` writes)")
    for name, (what, ok) in FIELDS.items():
        if name not in header:
            if name in OPTIONAL:
                header[name] = OPTIONAL[name]
                continue
            raise BadLog(f"{path}: the header has no field \"{name}\" ({what})")
        if header[name] is None and name in OPTIONAL:
            continue
        if not ok(header[name]):
            raise BadLog(f"{path}: the header's field \"{name}\" is {json.dumps(header[name], ensure_ascii=False)}; "
                         f"it must be {what}")
    for n, line in enumerate(body.splitlines(), 2):
        try:
            json.loads(line)
        except ValueError as e:
            raise BadLog(f"{path}: line {n} is not JSON ({e}); the log is cut short or damaged") from None
    return header, body


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


def replay(rules, path: Path, reload) -> int:
    """Play the logged game again: 0 identical, 1 different, 2 not a log these rules can play.
    `reload(variants)` gives the same rules with other variant packages selected."""
    from .engine.log import GameLog
    from .engine.ruleset import RulesError
    from .sim import new_game

    try:
        header, body = read(path)
        if tuple(header["with"]) != rules.variants:
            try:
                rules = reload(tuple(header["with"]))
            except RulesError as e:
                raise BadLog(f"the log was played with --with {' '.join(header['with'])}: {e}") from None
        fits(header, rules)
    except BadLog as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    log = GameLog()
    g = new_game(rules, header["mode"], header["players"], header["seed"], header["agent"], log, header["turn_cap"],
                 decks=header["decks"], variant=header["variant"])
    try:
        g.run()
    except RulesError as e:
        print(f"error: the game broke while replaying: {e}", file=sys.stderr)
        return 1
    print(log.text(), end="")
    ours, theirs = log.jsonl().splitlines(), body.splitlines()
    if ours == theirs:
        print(f"identical to {path}", file=sys.stderr)
        return 0
    n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    print(f"DIFFERS from {path}: first at line {n + 2} of the log ({len(theirs)} records there, {len(ours)} now)",
          file=sys.stderr)
    return 1
