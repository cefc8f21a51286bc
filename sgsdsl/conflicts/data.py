"""Family 6: deck and mode data.

SGS351: a (suit, rank) that a deck holds more often than its own pattern allows (the standard
deck holds each pair exactly twice; a pair held three times is a misprint).
SGS352: the same entry (suit, rank and card) twice in a deck that repeats no other entry.
SGS353: the decks of a mode do not add up to the total its `deck … N` clause declares.
SGS354: an identity table that does not fit the mode: a player count in `players` without a
row, a row outside it, two rows for one count, or a row without exactly one `lord`.
SGS355: a hero that a mode names but cannot deal (not in its `heroes` pool), or a mode whose
hero pool is empty.
SGS356: a deck declared `edition E` that does not hold, card by card, what edition E lists (a
same-size misprint too: one ♠A card in place of another).
SGS357: two decks that a mode combines that list the same entry (suit, rank and card).
SGS358: a deck entry's `replaces C` that leaves nothing out (no deck dealt beside it holds C), or that leaves
out the deck's own copies of C too.
"""

from __future__ import annotations

from collections import Counter

from ..lang import ast
from ..lang.diagnostics import Note
from ..lang.tree import walk
from .facts import Facts
from .findings import NO_PRINCIPLE_DATA
from .findings import finding as make

RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _sr(suit: str, rank: int) -> str:
    return f"{suit}{RANKS.get(rank, rank)}"


def _decks(facts: Facts) -> list:
    out = []
    m = facts.m
    for d in m.unique(m.decks):
        if not d.entries:
            continue
        same = Counter((e.suit, e.rank, e.card.text) for e in d.entries)
        repeated = [k for k, n in same.items() if n > 1]
        copied = set()
        if len(repeated) == 1:
            suit, rank, card = repeated[0]
            copied.add((suit, rank))
            entries = [e for e in d.entries if (e.suit, e.rank, e.card.text) == repeated[0]]
            out.append(make(
                "SGS352", f"deck {d.name.text} lists {_sr(suit, rank)} {card} {len(entries)} times, and repeats "
                "no other entry", entries[1].span,
                "an entry written twice where the deck repeats nothing else is most likely a copy-paste slip",
                NO_PRINCIPLE_DATA, notes=[Note(entries[0].span, "first listed here")]))
        pairs = Counter((e.suit, e.rank) for e in d.entries)
        usual = Counter(pairs.values()).most_common(1)[0][0]
        for (suit, rank), n in sorted(pairs.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            if n > usual and (suit, rank) not in copied:
                entries = [e for e in d.entries if (e.suit, e.rank) == (suit, rank)]
                out.append(make(
                    "SGS351", f"deck {d.name.text} holds {_sr(suit, rank)} {n} times; its other suits and ranks "
                    f"appear {usual} time{'s' if usual > 1 else ''} each", entries[usual].span,
                    "a physical deck has each suit and rank a fixed number of times: one of these entries is a "
                    "misprint, and judgments (♠2~9, ♥ …) come out with the wrong odds",
                    NO_PRINCIPLE_DATA, notes=[Note(e.span, f"{_sr(suit, rank)} {e.card.text}") for e in entries
                                              if e is not entries[usual]]))
    return out


def _modes(facts: Facts) -> list:
    out = []
    m = facts.m
    lord_ids = None
    for mode in facts.judged_modes():
        size = getattr(mode, "deck_size", None)
        decks = [m.decks[n.text] for n in mode.decks if n.text in m.decks]
        if size is not None and decks:
            total = sum(len(d.entries) for d in decks)
            if total != size:
                out.append(make(
                    "SGS353", f"mode {mode.name.text} declares {size} cards, but its decks hold {total}",
                    next(n for n in mode.decks).span,
                    "the deck is built from the listed decks: a missing or extra card changes every draw",
                    NO_PRINCIPLE_DATA, notes=[Note(d.span, f"deck {d.name.text}: {len(d.entries)} cards")
                                              for d in decks]))
        rows: dict[int, list] = {}
        for row in mode.table:
            rows.setdefault(row.players, []).append(row)
        if mode.table and mode.players is not None:
            lo, hi = mode.players
            missing = [n for n in range(lo, hi + 1) if n not in rows]
            if missing:
                out.append(make(
                    "SGS354", f"mode {mode.name.text} allows {lo}..{hi} players but its table has no row for "
                    f"{', '.join(map(str, missing))}", mode.span,
                    "dealing identities for a player count without a row stops the game",
                    NO_PRINCIPLE_DATA, notes=[Note(r.span, f"row for {r.players}") for r in mode.table]))
            for n, rs in sorted(rows.items()):
                if not lo <= n <= hi:
                    out.append(make("SGS354", f"the table row for {n} players lies outside {lo}..{hi}", rs[0].span,
                                    "a row no game can use: the range or the row is wrong", NO_PRINCIPLE_DATA))
        for n, rs in sorted(rows.items()):
            if len(rs) > 1:
                out.append(make("SGS354", f"mode {mode.name.text} has {len(rs)} rows for {n} players", rs[1].span,
                                "write variants of one row after `|`; a second row for the same count is ignored "
                                "or replaces the first", NO_PRINCIPLE_DATA,
                                notes=[Note(rs[0].span, "first row here")]))
        if mode.lord is not None:
            lord = m.values.get(mode.lord.text)
            lord_ids = {k for k, v in m.values.items() if lord is not None and v.decl is lord.decl}
            for row in mode.table:
                for variant in row.variants:
                    k = sum(1 for x in variant if x.text in lord_ids)
                    if k != 1 and variant:
                        out.append(make(
                            "SGS354", f"a {row.players}-player row of mode {mode.name.text} has {k} "
                            f"{mode.lord.text}", variant[0].span,
                            f"the mode's `lord` is {mode.lord.text}: every game needs exactly one",
                            NO_PRINCIPLE_DATA))
        out.extend(_heroes(facts, mode))
    return out


def _heroes(facts: Facts, mode) -> list:
    m = facts.m
    pool = facts.pools.get(mode.id.text, set())
    out, seen = [], set()
    if mode.heroes and not pool:
        out.append(make("SGS355", f"mode {mode.name.text} deals heroes from "
                        f"{', '.join(n.text for n in mode.heroes)}, which hold{'s' if len(mode.heroes) == 1 else ''} "
                        "no hero", mode.heroes[0].span, "with an empty pool no one can pick a hero",
                        NO_PRINCIPLE_DATA))
    bodies = ([mode.setup] if mode.setup is not None else []) + list(mode.rules)
    for body in bodies:
        for n in walk(body):
            if isinstance(n, ast.NameRef):
                sym = m.values.get(n.text)
                if sym is not None and sym.kind == "hero" and sym.decl.name.text not in pool \
                        and id(sym.decl) not in seen:
                    seen.add(id(sym.decl))
                    out.append(make(
                        "SGS355", f"mode {mode.name.text} names {n.text}, who is not in its hero pool", n.span,
                        f"{n.text} belongs to package {m.package_of(sym.decl)}, which the mode's `heroes` does not "
                        "list: the hero it counts on cannot be dealt", NO_PRINCIPLE_DATA,
                        notes=[Note(sym.decl.span, f"{n.text} is declared here")]))
    return out


def _card(facts: Facts, name: str) -> str:
    c = facts.m.cards.get(name)
    return c.name.text if c is not None else name


def _many(entries: list) -> str:
    """杀、闪×2: the cards of one suit and rank, or 'nothing'."""
    n = Counter(c for c, _ in entries)
    return "、".join(f"{c}×{k}" if k > 1 else c for c, k in n.items()) or "nothing"


def _editions(facts: Facts) -> list:
    """SGS356: per suit and rank, what the deck holds against what its edition lists."""
    m = facts.m
    out = []
    for d in m.unique(m.decks):
        ed = m.editions.get(d.edition.text) if d.edition is not None else None
        if ed is None:
            continue
        have: dict = {}
        for e in d.entries:
            have.setdefault((e.suit, e.rank), []).append((_card(facts, e.card.text), e.span))
        want: dict = {}
        for row in ed.rows:
            for suit, rank, span in row.cards:
                want.setdefault((suit, rank), []).append((_card(facts, row.card.text), span))
        for key in sorted(set(have) | set(want), key=lambda k: ("♠♥♣♦".index(k[0]), k[1])):
            got, ref = have.get(key, []), want.get(key, [])
            extra = list((Counter(c for c, _ in got) - Counter(c for c, _ in ref)).elements())
            missing = list((Counter(c for c, _ in ref) - Counter(c for c, _ in got)).elements())
            if not extra and not missing:
                continue
            sr = _sr(*key)
            what = f"{sr} {_many(got)} where {ed.name.text} lists {sr} {_many(ref)}"
            at = next((sp for c, sp in got if c in extra), got[0][1] if got else d.span)
            notes = [Note(sp, f"{ed.name.text} lists {sr} {c} here") for c, sp in ref if c in missing]
            out.append(make("SGS356", f"deck {d.name.text} holds {what}", at,
                            f"deck {d.name.text} is declared as edition {ed.name.text}: a card under the wrong suit "
                            "or rank changes judgments (♠2~9, ♥ …) and every draw", NO_PRINCIPLE_DATA,
                            notes=[Note(d.edition.span, f"declared as {ed.name.text} here"), *notes]))
    return out


def _overlaps(facts: Facts) -> list:
    """SGS357: the same entry in two decks that one mode combines."""
    m = facts.m
    out = []
    for mode in facts.judged_modes():
        seen: dict = {}
        for n in mode.decks:
            d = m.decks.get(n.text)
            if d is None or id(d) in {id(x) for x, _ in seen.values()}:
                continue
            for e in d.entries:
                key = (e.suit, e.rank, _card(facts, e.card.text))
                first = seen.get(key)
                if first is not None and first[0] is not d:
                    out.append(make(
                        "SGS357", f"mode {mode.name.text} combines decks {first[0].name.text} and {d.name.text}, "
                        f"which both list {_sr(e.suit, e.rank)} {key[2]}", e.span,
                        "an expansion adds cards the base deck lacks: the same card in both is printed twice in the "
                        "combined deck", NO_PRINCIPLE_DATA, notes=[Note(first[1], f"deck {first[0].name.text} lists it "
                                                                   "here"), Note(n.span, f"{mode.name.text} adds "
                                                                                 f"{d.name.text} here")]))
                elif first is None:
                    seen[key] = (d, e.span)
    return out


def _replaces(facts: Facts) -> list:
    """SGS358: what each `replaces C` of a deck leaves out of the decks that can be dealt beside it (a deck
    for no mode is dealt with any)."""
    m = facts.m
    decks = m.unique(m.decks)

    def modes(d) -> set:
        return {id(m.modes.get(n.text)) for n in d.modes}

    out = []
    for d in decks:
        mine = {_card(facts, e.card.text) for e in d.entries}
        beside = [x for x in decks if x is not d and (not d.modes or not x.modes or modes(d) & modes(x))]
        for e in d.entries:
            if e.replaces is None:
                continue
            r = _card(facts, e.replaces.text)
            what = f"deck {d.name.text}'s {_sr(e.suit, e.rank)} {e.card.text} replaces {r}"
            if r in mine:
                out.append(make(
                    "SGS358", f"{what}, which the deck deals itself: its own copies are left out too",
                    e.replaces.span, "`replaces` leaves out every copy of a card while the deck is dealt, the "
                    "deck's own included: name a card of the other decks", NO_PRINCIPLE_DATA))
            elif not any(_card(facts, y.card.text) == r for x in beside for y in x.entries):
                out.append(make(
                    "SGS358", f"{what}, which no deck dealt beside it holds: nothing is left out", e.replaces.span,
                    "the deck adds a card without taking one out, so the deck is one card larger than the "
                    "designer meant: name a card that a deck of the same mode holds", NO_PRINCIPLE_DATA))
    return out


def check(facts: Facts) -> list:
    return _decks(facts) + _editions(facts) + _modes(facts) + _overlaps(facts) + _replaces(facts)
