"""Which pairs of rules a pairwise family needs to look at.

Comparing every rule at a window with every other is quadratic: ten thousand skills at one
window are fifty million pairs, nearly all of which share nothing. A family says what each rule
offers and what it needs (fields it writes, fields its `when` reads …); only pairs where one
offers what the other offers or needs are compared, in the order the nested loop would give.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence, TypeVar

R = TypeVar("R")


def sharing(rules: Sequence[R], offers: Callable[[R], Iterable], needs: Callable[[R], Iterable] = lambda r: ()
            ) -> list[tuple[R, list[R]]]:
    """Each rule a with the rules b after it where one offers a key that the other offers or needs."""
    offered: dict[object, list[int]] = {}
    needed: dict[object, list[int]] = {}
    for i, r in enumerate(rules):
        for k in set(offers(r)):
            offered.setdefault(k, []).append(i)
        for k in set(needs(r)):
            needed.setdefault(k, []).append(i)
    pairs: set[tuple[int, int]] = set()
    for k, who in offered.items():
        pairs.update((a, b) for n, a in enumerate(who) for b in who[n + 1:])
        pairs.update((min(a, b), max(a, b)) for a in who for b in needed.get(k, ()) if a != b)
    partners: dict[int, list[R]] = {}
    for a, b in sorted(pairs):
        partners.setdefault(a, []).append(rules[b])
    return [(rules[a], bs) for a, bs in partners.items()]
