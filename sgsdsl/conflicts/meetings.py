"""Which heroes a mode deals, and which of them meet: the pools and pairs the families judge per mode.

A mode's pool is rules data: the heroes of the packages and the single heroes its `heroes`
clause lists, less those after `except`, plus every hero of a designer's files; a hero that
says `modes M, …` is dealt only in those modes. `Ruleset.hero_pool` deals the same pool at run
time.

Two heroes of a pool *meet* in a mode in one of two ways:

- `TABLE`: on two seats of one table (any mode with room for two players);
- `SEAT`: on one seat, as one player's heroes (国战's main and deputy hero, of one kingdom).

`how_they_meet(facts, mode, a, b)` says which; `pairs(facts, mode)` yields every pair with the
ways. A mode seats two heroes when its setup calls `set_heroes` (国战); there two heroes of one
kingdom share a seat, and so does a hero of the rules' `lone_kingdom` (野心家, 不臣篇) with any hero of
another kingdom.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..lang import ast
from ..lang.tree import is_name, walk

TABLE = "table"
SEAT = "seat"


def pool(m, mode, designer_pkgs: set[str]) -> set[str]:
    """Hero names a mode deals."""
    pkgs = {n.text for n in mode.heroes if n.text in m.packages} | designer_pkgs
    named = {m.heroes[n.text].name.text for n in mode.heroes if n.text not in m.packages and n.text in m.heroes}
    # a variant's hero stands in for the one it replaces: both tables, each name read through the current one
    out = {h.name.text for t in (m.g_heroes, m.heroes) for h in m.unique(t) if m.package_of(h) in pkgs} | named
    out -= {m.heroes[n.text].name.text for n in mode.hero_except if n.text in m.heroes}
    return {h for h in out if _dealt_in(m, m.heroes[h], mode)}


def _dealt_in(m, hero, mode) -> bool:
    return not hero.modes or any(m.modes.get(n.text) is mode for n in hero.modes)


def max_players(mode) -> int:
    return mode.players[1] if mode.players else 12


_TWO_HEROES: dict[int, tuple[object, bool]] = {}


def seats_two_heroes(mode) -> bool:
    """Does the mode deal each player two hero cards (国战)? Its setup says so: it calls `set_heroes`."""
    hit = _TWO_HEROES.get(id(mode))
    if hit is None or hit[0] is not mode:  # keyed by identity: the mode's tree is large to hash
        two = mode.setup is not None and any(isinstance(x, ast.Call) and is_name(x.func, "set_heroes")
                                             for x in walk(mode.setup))
        hit = _TWO_HEROES[id(mode)] = (mode, two)
    return hit[1]


def _kingdom(m, hero) -> str | None:
    """A hero's kingdom as its enum id (the name may be written in Chinese or as the id)."""
    sym = m.values.get(hero.kingdom.text) if hero.kingdom is not None else None
    return sym.decl.id.text if sym is not None and sym.kind == "enum_item" else None


def _share_a_seat(facts, mode, a, b) -> bool:
    """Can one player hold both heroes in this mode? In a mode that seats two heroes (国战), main and deputy
    are of one kingdom (seed 002: 选出两张势力相同的武将牌); a hero of the `lone_kingdom` (野心家, 不臣篇) is a
    main hero that goes with a deputy of any kingdom but its own."""
    if not seats_two_heroes(mode):
        return False
    ka, kb = _kingdom(facts.m, a), _kingdom(facts.m, b)
    if ka is None or kb is None:
        return False
    lone = facts.m.role_value("lone_kingdom")  # as the engine reads it; None: no kingdom is lone
    if lone is not None and lone in (ka, kb):
        return ka != kb
    return ka == kb


def how_they_meet(facts, mode, a: str, b: str) -> frozenset[str]:
    """The ways two heroes (by name) meet in a mode: TABLE, SEAT, both or neither."""
    if a == b:
        return frozenset()
    dealt = facts.pools.get(mode.id.text, set())
    if a not in dealt or b not in dealt:
        return frozenset()
    ways = set()
    if max_players(mode) >= 2:
        ways.add(TABLE)
    if _share_a_seat(facts, mode, facts.m.heroes[a], facts.m.heroes[b]):
        ways.add(SEAT)
    return frozenset(ways)


def pairs(facts, mode) -> Iterator[tuple[str, str, frozenset[str]]]:
    """Every pair of heroes that meet in the mode, with the ways they meet."""
    for a, b in combinations(sorted(facts.pools.get(mode.id.text, ())), 2):
        ways = how_they_meet(facts, mode, a, b)
        if ways:
            yield a, b, ways
