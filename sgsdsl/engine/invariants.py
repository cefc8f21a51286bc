"""State invariants, checked after every card movement and play action when asked for.

A violation is a bug in the rules or the engine; it reports the seed and the event stack.
"""

from __future__ import annotations


class InvariantError(Exception):
    pass


def check(g) -> None:
    seen: dict[int, str] = {}

    def place(cards, where: str) -> None:
        for c in cards:
            if c.uid in seen:
                fail(g, f"{c.label()} is both in {seen[c.uid]} and in {where}")
            seen[c.uid] = where

    place(g.draw_pile, "the draw pile")
    place(g.discard_pile, "the discard pile")
    place(g.processing, "the processing zone")
    place(g.removed, "the cards removed from the game")
    for p in g.players:
        for pid, cards in p.piles.items():
            place(cards, f"{p.name}'s pile {pid}")
        place(p.hand, f"{p.name}'s hand")
        place(p.equip.values(), f"{p.name}'s equipment")
        place(p.judges, f"{p.name}'s judgment zone")
        if p.alive and p.hp > p.max_hp:
            fail(g, f"{p.name} has {p.hp}/{p.max_hp} HP")
        # HP below 1 is legal only while some settlement (the dying one) is under way
        if p.alive and p.hp < 1 and not g.stack:
            fail(g, f"{p.name} is alive with {p.hp} HP and nothing is being settled")
        if not p.alive and (p.hand or p.equip or p.judges or p.pile_cards) and not g.stack:
            fail(g, f"dead {p.name} still holds cards")
    for c in g.all_cards:
        if c.uid not in seen and c._zone is not None:
            fail(g, f"{c.label()} claims zone {c._zone} but is in none")
        if c.uid not in seen and c._zone is None and not g.stack:
            fail(g, f"{c.label()} is in no zone")


def fail(g, message: str) -> None:
    stack = " > ".join(f.describe() for f in g.stack) or "(empty)"
    raise InvariantError(f"invariant violated (seed {g.seed}, turn {g.turn_no}): {message}\n  stack: {stack}")
