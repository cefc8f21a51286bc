"""Type strings and what holds between them; the environment a body is checked in; narrowing by tests."""

from __future__ import annotations

import attrs

from .. import ast

# ---- types ------------------------------------------------------------------------


def opt(t: str) -> bool:
    return t.endswith("?")


def strip(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def is_list(t: str) -> bool:
    return strip(t).startswith("list[")


def elem(t: str) -> str:
    s = strip(t)
    return s[5:-1] if s.startswith("list[") else "any"


def compatible(src: str, dst: str) -> bool:
    if src == "any" or dst == "any" or src == "error" or dst == "error":
        return True
    if src == "none":
        return True  # none is a value of every type; a required one fails at run time with a rules location
    s, d = strip(src), strip(dst)
    if s == d:
        return True
    if s.startswith("list[") and d.startswith("list["):
        return compatible(elem(s), elem(d))
    if d == "list[card]" and s == "card":
        return True  # primitives take one card or a list
    return False


@attrs.define
class Env:
    scope: list[dict[str, tuple[str, str]]]  # name -> (type, python)
    self_type: str | None = None  # "player" where `self` exists
    event: str | None = None  # event type of `event`
    card: bool = False
    targets: bool = False
    flow_event: str | None = None  # set inside a flow: `open W` without `with` uses it
    user: bool = False  # inside an active skill: `user` is the player using it (the owner, or one `by` lets)
    loops: int = 0
    its: int = 0
    test_heroes: dict | None = None
    where: str = ""
    guarded: set = attrs.Factory(set)  # expressions known not to be none here (`x != none and …`)

    def lookup(self, name: str):
        for s in reversed(self.scope):
            if name in s:
                return s[name]
        return None

    def push(self):
        self.scope.append({})

    def pop(self):
        self.scope.pop()


# Python, which the rules compile to, refuses more than 20 nested loops in one function.
MAX_LOOPS = 16


def _mangle(name: str, taken: set[str]) -> str:
    base = f"v_{name}" if name.isascii() and name.isidentifier() else f"v{len(taken)}"
    py = base
    n = 1
    while py in taken:
        n += 1
        py = f"{base}_{n}"
    taken.add(py)
    return py


def _show(t: str) -> str:
    if t.startswith("eventtype:"):
        return f"event type {t.split(':')[1]}"
    if t.endswith("?") and t not in ("none", "error"):
        return _show(t[:-1]) + " (or none)"
    if t in ("none", "error") or t.startswith("list["):
        return {"none": "none", "error": "an erroneous value"}.get(t, t)
    return f"{'an' if t[0] in 'aeiou' else 'a'} {t}"


def _ctx_help(n: str, env: Env) -> str | None:
    if n in ("self", "event", "card", "target", "targets"):
        return f"`{n}` does not exist here"
    return None


def _key(e: ast.Expr) -> str:
    """A name for an expression built of names, fields, calls and indexes ('' for anything else)."""
    match e:
        case ast.NameRef():
            return e.text
        case ast.Attr():
            inner = _key(e.obj)
            return f"{inner}.{e.name.text}" if inner else ""
        case ast.Call():
            inner = _key(e.func)
            args = [_key(a.value) for a in e.args]
            return f"{inner}({', '.join(args)})" if inner and all(args) else ""
        case ast.Index():
            inner, i = _key(e.obj), _key(e.index)
            return f"{inner}[{i}]" if inner and i else ""
        case ast.IntLit():
            return str(e.value)
    return ""


def _null(test: ast.Expr) -> set[str]:
    """Expressions that cannot be none when `test` fails: `x == none`, and each of an `or` chain."""
    if isinstance(test, ast.BoolOp) and test.op == "or":
        return set().union(*(_null(x) for x in test.items))
    if isinstance(test, ast.Not):
        return _nonnull(test.operand)
    if isinstance(test, ast.Compare) and test.op == "==":
        for a, b in ((test.left, test.right), (test.right, test.left)):
            if isinstance(b, ast.NameRef) and b.text == "none" and _key(a):
                return {_key(a)}
    return set()


def _nonnull(test: ast.Expr) -> set[str]:
    """Expressions that cannot be none when `test` holds: `x != none`, and each of an `and` chain."""
    if isinstance(test, ast.BoolOp) and test.op == "and":
        return set().union(*(_nonnull(x) for x in test.items))
    if isinstance(test, ast.Not):
        return _null(test.operand)
    if isinstance(test, ast.Compare) and test.op == "!=":
        for a, b in ((test.left, test.right), (test.right, test.left)):
            if isinstance(b, ast.NameRef) and b.text == "none" and _key(a):
                return {_key(a)}
    return set()


def counter_default(typ: str) -> str:
    """The Python literal a counter or mark of this type starts from (and returns to when reset)."""
    if opt(typ):
        return "None"
    return {"int": "0", "bool": "False", "text": "''"}.get(typ, "[]" if is_list(typ) else "None")
