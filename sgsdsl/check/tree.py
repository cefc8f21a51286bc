"""Walking the checked syntax tree: children, every node under one, and the shapes the checks
look for (event paths, conjuncts, names)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from .. import ast


@functools.cache
def _fields(cls) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.name != "span")


_IS_NODE: dict[type, bool] = {}  # type -> is it a tree node (an attrs class)?


def _is_node(t: type) -> bool:
    v = _IS_NODE.get(t)
    if v is None:
        v = _IS_NODE[t] = hasattr(t, "__attrs_attrs__")
    return v


def children(node) -> list:
    # the checks walk the whole tree many times over: this is their inner loop
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
    stack = [node]
    extend = stack.extend
    while stack:
        n = stack.pop()
        yield n
        kids = children(n)
        if kids:
            kids.reverse()
            extend(kids)


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
