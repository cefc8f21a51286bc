"""Walking the checked syntax tree: children, every node under one, and the shapes the checks
look for (event paths, conjuncts, names)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from . import ast


@functools.cache
def _fields(cls) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.name != "span")


_IS_NODE: dict[type, bool] = {}  # type -> is it a tree node (an attrs class)?


def _is_node(t: type) -> bool:
    v = _IS_NODE.get(t)
    if v is None:
        v = _IS_NODE[t] = hasattr(t, "__attrs_attrs__")
    return v


# node id -> (node, its children): the checks walk the same trees many times over (every family, and
# again in each variant package's pass); the node is kept beside its children so that an id reused
# by a later object is never mistaken for it. Trees are frozen, so an entry never goes stale.
_KIDS: dict[int, tuple] = {}
_KIDS_MAX = 2_000_000  # nodes remembered before the memo starts afresh (a long-lived process)


def children(node) -> list:
    return list(_children(node))


def _children(node) -> tuple:
    hit = _KIDS.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(_KIDS) >= _KIDS_MAX:
        _KIDS.clear()
    kids = _KIDS[id(node)] = (node, tuple(_scan(node)))
    return kids[1]


def _scan(node) -> list:
    out: list = []
    is_node = _IS_NODE.get
    for name in _fields(type(node)):
        v = getattr(node, name)
        t = type(v)
        if t is tuple or t is list:
            _nodes(v, out)
        elif is_node(t) or (is_node(t) is None and _is_node(t)):
            out.append(v)
    return out


def _nodes(v, out: list) -> None:
    for x in v:
        t = type(x)
        if t is tuple or t is list:
            _nodes(x, out)
        elif _IS_NODE.get(t) or _is_node(t):
            out.append(x)


def walk(node) -> Iterator:
    """Every node under `node` (itself included), parents before children."""
    hit = _FLAT.get(id(node))
    if hit is not None and hit[0] is node:
        return iter(hit[1])
    return _walk(node)


def _walk(node) -> Iterator:
    stack = [node]
    extend = stack.extend
    memo = _KIDS
    while stack:
        n = stack.pop()
        yield n
        hit = memo.get(id(n))
        kids = hit[1] if hit is not None and hit[0] is n else _children(n)
        if kids:
            extend(reversed(kids))


# The checks look into the same bodies for different things (calls, event reads, opens …), in every round
# of the summaries and in every pass. For each subtree walk_of is asked about, the nodes under it are
# listed once (_FLAT; a subtree listed before is copied whole into its parent's list), and what one
# question picks out of them is kept (_OF). Kept like _KIDS: the node beside its entry.
_FLAT: dict[int, tuple] = {}  # id(node) -> (node, every node under it in walk order)
_OF: dict[tuple, tuple] = {}  # (id(node), classes) -> (node, the nodes of those classes under it, in walk order)
_OF_MAX = 200_000  # entries kept before the memos start afresh (a long-lived process: the language server)


def _flat(node) -> tuple:
    hit = _FLAT.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    out: list = []
    stack = [node]
    kids_of, flat = _KIDS, _FLAT
    while stack:
        n = stack.pop()
        if n is not node:
            hit = flat.get(id(n))
            if hit is not None and hit[0] is n:
                out.extend(hit[1])
                continue
        out.append(n)
        hit = kids_of.get(id(n))
        kids = hit[1] if hit is not None and hit[0] is n else _children(n)
        if kids:
            stack.extend(reversed(kids))
    found = tuple(out)
    flat[id(node)] = (node, found)
    return found


def walk_of(node, classes: tuple) -> tuple:
    """The nodes under `node` (itself included) that are instances of `classes`, as `walk` meets them."""
    key = (id(node), classes)
    hit = _OF.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(_OF) >= _OF_MAX or len(_FLAT) >= _OF_MAX:
        _OF.clear()
        _FLAT.clear()
    found = tuple(n for n in _flat(node) if isinstance(n, classes))
    _OF[key] = (node, found)
    return found


def same_expr(a, b) -> bool:
    """Structural equality of two subtrees, spans ignored."""
    if type(a) is not type(b):
        return False
    if not attrs.has(type(a)):
        if isinstance(a, (tuple, list)):
            return len(a) == len(b) and all(same_expr(x, y) for x, y in zip(a, b))
        return a == b
    return all(same_expr(getattr(a, f), getattr(b, f)) for f in _fields(type(a)))


def conjuncts(e) -> list:
    if e is None:
        return []
    if isinstance(e, ast.BoolOp) and e.op == "and":
        return [c for x in e.items for c in conjuncts(x)]
    return [e]


def event_path(e) -> tuple[str, ...] | None:
    """`event.a.b` -> ("a", "b"); anything else -> None."""
    parts = []
    while isinstance(e, ast.Attr):
        parts.append(e.name.text)
        e = e.obj
    if isinstance(e, ast.NameRef) and e.text == "event" and parts:
        return tuple(reversed(parts))
    return None


def is_name(e, text: str) -> bool:
    return isinstance(e, ast.NameRef) and e.text == text
