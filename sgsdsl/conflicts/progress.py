"""What a loop of triggers consumes: the progress argument of the loops family.

A loop is bounded only when every round uses up something finite that the loop never gives
back. The resources the checks follow, each with the direction an effect moves it:

- `hp`: `change_hp` with a negative amount lowers it (the damage and HP-loss flows), with a
  non-negative one raises it (the recovery flow);
- `cards`: cards in players' hands and equipment areas: `draw` adds, `discard` and putting
  cards into a pile removes, `gain`, `equip` and putting cards into a player's zone move them
  between players (both directions);
- `processing`: cards in the processing zone: `reveal_top` and `put(…, processing)` add, and
  moving the event's own card (`gain(self, event.card)`) takes it out;
- `mark:NAME`: a counter or mark, by `+=`, `-=` or `= constant`;
- `alive`: `kill` (a death).

A `when` guards a resource when one of its conjuncts compares it with a bound (`self.hp > 1`,
`self.hand_count > 0`, `self.used == 0`, `event.card.zone == processing`): a move in the
falsifying direction brings the guard closer to false. Amounts are taken as non-negative
(`change_hp(p, n)` raises HP unless `n` is written negated), as the rules write them.

Effects reached through a card used from a hand (`ask_card` → `use_card`, as the 濒死 flow
uses 桃) are *paid*: the card leaves the hand, so they are a cost, and they never count as
giving a resource back.
"""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.tree import conjuncts, event_path, walk

UP, DOWN = "+", "-"
BOTH = frozenset({UP, DOWN})

# Player attributes a guard reads -> (resource, whether the attribute grows when the resource shrinks).
GUARDED_ATTR = {
    "hp": ("hp", False), "lost_hp": ("hp", True),
    "hand_count": ("cards", False), "card_count": ("cards", False),
}
# Boolean attributes read on their own: (resource, the direction that makes them false).
GUARDED_FLAG = {"wounded": ("hp", UP), "dying": ("hp", UP)}
CARD_LISTS = ("hand", "cards", "equips", "all_cards")
PILES = ("'draw'", "'discard'", "'processing'")


@attrs.frozen
class Guard:
    """A conjunct of a `when` that a move of `resource` in a direction of `falsify` makes false."""

    resource: str
    falsify: frozenset  # subset of {"+", "-"}; or {"=k"}: marks, set to anything but k
    text: str = ""
    whose: str = "any"  # "self": the guard reads its owner's resource (`self.hand_count > 0`)


def sign(e) -> frozenset:
    """Directions an amount can have: literals by their sign, a negation flips, other amounts are
    counts and so non-negative."""
    match e:
        case ast.IntLit():
            return frozenset({UP if e.value >= 0 else DOWN})
        case ast.Neg():
            return frozenset({DOWN if d == UP else UP for d in sign(e.operand)})
        case ast.BinOp() if e.op == "-":
            return BOTH
        case ast.BinOp() if e.op in ("+", "*", "/"):
            return sign(e.left) | sign(e.right)
        case ast.Cond():
            return sign(e.then) | sign(e.other)
    return frozenset({UP})


def _reads_event_card(e) -> bool:

    return any((p := event_path(n)) is not None and p[0] in ("card", "cards") for n in walk(e))


def effect_deltas(eff, args: dict, zone) -> set[tuple[str, str]]:
    """(resource, direction) changes of one primitive call, as its effect declaration says
    (surface.Effect.deltas); `args` maps its parameters to the call's arguments, `zone` reads a zone
    argument (a zone constant's key, ("pile", id) for a pile on a player, or None)."""
    out: set[tuple[str, str]] = set()
    moved = eff.moves.cards if eff.moves is not None else None
    moved_out = ("processing", DOWN) if moved in args and _reads_event_card(args[moved]) else None
    for res, how in eff.deltas:
        if how in (UP, DOWN):
            out.add((res, how))
        elif how == "±":
            out |= {(res, UP), (res, DOWN)}
        elif how.startswith("sign:"):
            e = args.get(how.split(":", 1)[1])
            if e is not None:
                out |= {(res, d) for d in sign(e)}
        elif how.startswith("zone:"):  # into a pile: fewer cards held (into the processing zone: more there)
            e = args.get(how.split(":", 1)[1])
            k = zone(e) if e is not None else None
            if k is not None and (k[0] == "pile" or k[0] == "const" and k[1] in PILES):
                out.add((res, DOWN))
                if k[1] == "'processing'":
                    out.add(("processing", UP))
                    moved_out = None
            else:
                out |= {(res, UP), (res, DOWN)}
    if moved_out is not None:
        out.add(moved_out)
    return out


def assign_deltas(mark: str, op: str, value, const, kind: str = "mark") -> set[tuple[str, str]]:
    res = f"{kind}:{mark}"
    if op == "=":
        k = const(value)
        return {(res, f"={k}")} if k is not None else {(res, UP), (res, DOWN)}
    dirs = sign(value)
    if op == "-=":
        dirs = frozenset({DOWN if d == UP else UP for d in dirs})
    return {(res, d) for d in dirs}


def _resource(e, m) -> tuple[str, bool] | None:
    """The resource an expression counts, and whether it counts it inverted (lost_hp)."""
    from ..lang.analysis import AttrNote

    p = event_path(e)
    if p is not None and len(p) == 1:
        return (f"event:{p[0]}", False)  # a count on the event: it carries over only where the event does
    if isinstance(e, ast.Attr):
        note = m.analysis.refs.get(e)
        if isinstance(note, AttrNote) and note.kind == "mark":
            return (f"mark:{note.name}", False)
        if e.name.text in GUARDED_ATTR:
            return GUARDED_ATTR[e.name.text]
    if isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.func.text in ("count", "len") and e.args:
        if any(isinstance(n, ast.Attr) and n.name.text in CARD_LISTS for n in walk(e.args[0].value)):
            return ("cards", False)
    return None


def _falsify(op: str, inverted: bool) -> frozenset:
    """Directions of the left side that make `left OP bound` false."""
    if op in (">", ">="):
        d = frozenset({DOWN})
    elif op in ("<", "<="):
        d = frozenset({UP})
    else:  # `==` a count: a move need not change it (an empty hand stays empty), so no progress
        return frozenset()
    return frozenset({UP if x == DOWN else DOWN for x in d}) if inverted else d


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def guards(e, m, const) -> list[Guard]:

    out = []
    for c in conjuncts(e):
        if isinstance(c, ast.Attr) and c.name.text in GUARDED_FLAG:
            res, d = GUARDED_FLAG[c.name.text]
            out.append(Guard(res, frozenset({d}), c.name.text, _whose(c)))
            continue
        if not isinstance(c, ast.Compare):
            continue
        for left, right, op in ((c.left, c.right, c.op), (c.right, c.left, _FLIP.get(c.op, c.op))):
            p = event_path(left)
            if p is not None and p[-1] == "zone" and op == "==" and const(right) == ("const", "'processing'"):
                out.append(Guard("processing", frozenset({DOWN}), "zone == processing"))
                break
            got = _resource(left, m)
            if got is None or _resource(right, m) is not None:
                continue
            res, inverted = got
            falsify = _falsify(op, inverted)
            if res.startswith("mark:") and op == "==":
                k = const(right)
                falsify = frozenset({f"={k}"}) if k is not None else BOTH
            if falsify:
                out.append(Guard(res, falsify, op, _whose(left)))
            break
    return out


def _whose(e) -> str:
    """"self" when an expression reads only its owner's state (`self.hp`, `count(self.hand)`)."""
    objs = [n.obj for n in walk(e) if isinstance(n, ast.Attr) and not isinstance(n.obj, ast.Attr)]
    return "self" if objs and all(isinstance(o, ast.NameRef) and o.text == "self" for o in objs) else "any"


def progress(guard: Guard, free: set) -> str | None:
    """How the loop uses up `guard`'s resource, or None when it does not (or gives it back).

    `free` holds the (resource, direction) changes of every rule in the loop, paid ones left out:
    a paid recovery is a cost, not a gift."""
    moves = {d for r, d in free if r == guard.resource}
    if not moves:
        return None
    if any(f.startswith("=") for f in guard.falsify):  # a counter or mark that must equal a constant
        bad = {f[1:] for f in guard.falsify}
        if all(d.startswith("=") and d[1:] not in bad for d in moves):
            return "is set to another value and never back"
        return _MONOTONE.get(frozenset(moves))
    if any(d.startswith("=") for d in moves) or len(moves) != 1 or not moves <= guard.falsify:
        return None
    return _MONOTONE[frozenset(moves)]


_MONOTONE = {frozenset({UP}): "only goes up", frozenset({DOWN}): "only goes down"}
