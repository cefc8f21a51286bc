"""Static reading of `when` expressions: constants, equality constraints, required fields, and
conditions that can never hold."""

from __future__ import annotations

from ..lang import ast
from ..lang.model import Model
from ..lang.tree import conjuncts, event_path, is_name, same_expr, walk_of


class Conditions:
    """Static reading of `when` expressions: constants, equality constraints, required fields."""

    def __init__(self, model: Model):
        self.m = model
        self._truth: dict[int, tuple] = {}  # id(expr) -> (expr, truth): asked for every edge of the loop graph

    def const(self, e):
        """A hashable key for a constant expression, or None."""
        match e:
            case ast.IntLit():
                return ("int", e.value)
            case ast.StrLit():
                return ("text", e.value)
            case ast.SuitLit():
                return ("suit", e.value)
            case ast.NameRef():
                from ..lang.surface import CONSTS

                if e.text in CONSTS:
                    return ("const", CONSTS[e.text].py)
                sym = self.m.values.get(e.text)
                if sym is not None:
                    return ("value", id(sym.decl))
        return None

    def constraints(self, e, params: tuple[str, ...] = ()) -> dict:
        """path -> frozenset of allowed constants, from the conjuncts of `e`.

        A path is ("event", field, ...) or ("arg", i) for the i-th parameter of a modifier.
        `x is 杀` constrains ("is",) + path; `x == 闪` constrains path.
        """
        out: dict = {}
        for c in conjuncts(e):
            got = self._alternatives(c, params)
            if got is None:
                continue
            path, vals = got
            out[path] = out[path] & vals if path in out else vals
        return out

    def exclusions(self, e) -> dict:
        """path -> frozenset of constants the conjuncts of `e` rule out (`event.to != draw_pile`)."""
        out: dict = {}
        for c in conjuncts(e):
            if not (isinstance(c, ast.Compare) and c.op == "!="):
                continue
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = self._path(a, ())
                k = self.const(b) if not is_name(b, "none") else None
                if p is not None and k is not None and k[0] == "const":
                    out[p] = out.get(p, frozenset()) | {k}
                    break
        return out

    def _alternatives(self, c, params):
        if isinstance(c, ast.BoolOp) and c.op == "or":
            path, vals = None, set()
            for x in c.items:
                got = self._alternatives(x, params)
                if got is None or (path is not None and got[0] != path):
                    return None
                path = got[0]
                vals |= got[1]
            return (path, frozenset(vals)) if path is not None else None
        if isinstance(c, ast.Compare) and c.op == "in" and isinstance(c.right, ast.ListLit) and c.right.items:
            p = self._path(c.left, params)  # `event.from_zone in [hand_zone, equip_zone]`
            ks = [self.const(x) for x in c.right.items]
            if p is not None and all(k is not None for k in ks):
                return (p, frozenset(ks))
        if isinstance(c, ast.Compare) and c.op in ("==", "is"):
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = self._path(a, params)
                k = self.const(b)
                if c.op == "is" and k is not None and k[0] == "const":
                    continue  # `c is trick`: a kind that covers others (延时锦囊), no single value to match
                if p is not None and k is not None:
                    return ((("is",) + p) if c.op == "is" else p, frozenset({k}))
        return None

    def _path(self, e, params):
        p = event_path(e)
        if p is not None:
            return ("event",) + p
        if isinstance(e, ast.NameRef) and e.text in params:
            return ("arg", params.index(e.text))
        if isinstance(e, ast.Attr):
            inner = self._path(e.obj, params)
            if inner is not None and inner[0] == "arg":
                return inner + (e.name.text,)
        return None

    @staticmethod
    def disjoint(a: dict, b: dict) -> bool:
        return any(p in b and not (a[p] & b[p]) for p in a)

    def required_fields(self, e) -> set[str]:
        """Event fields a `when` needs set (not none, not 0, not false) to hold."""
        need = set()
        for c in conjuncts(e):
            p = event_path(c)
            if p is not None and len(p) == 1:
                need.add(p[0])
                continue
            if not isinstance(c, ast.Compare):
                continue
            left, right = c.left, c.right
            for a, b, op in ((left, right, c.op), (right, left, _flip(c.op))):
                p = event_path(a)
                if p is None:
                    continue
                field = p[0]
                if op == "is" or (op == "!=" and is_name(b, "none")):
                    need.add(field)
                elif op == "==" and (is_name(b, "self") or (self.const(b) is not None and not is_name(b, "none"))
                                     and not is_name(b, "false")):
                    need.add(field)
                elif len(p) == 1 and isinstance(b, ast.IntLit) and (
                        (op == ">" and b.value >= 0) or (op == ">=" and b.value >= 1)):
                    need.add(field)
        return need

    def truth(self, e):
        """True / False when `e` is constant, else None."""
        hit = self._truth.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        t = self._truth_of(e)
        self._truth[id(e)] = (e, t)
        return t

    def _truth_of(self, e):
        match e:
            case ast.NameRef() if e.text in ("true", "false"):
                return e.text == "true"
            case ast.Not():
                t = self.truth(e.operand)
                return None if t is None else not t
            case ast.BoolOp():
                ts = [self.truth(x) for x in e.items]
                if e.op == "and":
                    if any(t is False for t in ts):
                        return False
                    if self.contradictory(e):
                        return False
                    return True if all(t is True for t in ts) else None
                if any(t is True for t in ts):
                    return True
                return False if all(t is False for t in ts) else None
            case ast.Compare():
                return self._compare(e)
        return None

    def contradictory(self, e) -> bool:
        """Two conjuncts that pin one path to different constants, or one that pins a value to `none`
        and another that reads an attribute of it (`event.card == none and event.card.zone == …`)."""
        seen: dict = {}
        if _none_then_read(conjuncts(e)):
            return True
        for c in conjuncts(e):
            got = self._alternatives(c, ())
            if got is None:
                continue
            path, vals = got
            seen[path] = seen[path] & vals if path in seen else vals
            if not seen[path]:
                return True
        return False

    def _compare(self, e: ast.Compare):
        a, b = e.left, e.right
        if isinstance(a, ast.IntLit) and isinstance(b, ast.IntLit):
            return {"==": a.value == b.value, "!=": a.value != b.value, "<": a.value < b.value,
                    "<=": a.value <= b.value, ">": a.value > b.value, ">=": a.value >= b.value}.get(e.op)
        if e.op in ("==", "!=", "<", ">", "<=", ">=") and same_expr(a, b) and _pure(a):
            return e.op in ("==", "<=", ">=")
        ka, kb = self.const(a), self.const(b)
        if e.op in ("==", "!=") and ka is not None and kb is not None:
            return (ka == kb) == (e.op == "==")
        # counts are never negative
        if isinstance(b, ast.IntLit) and _nonneg(a):
            if (e.op == "<" and b.value <= 0) or (e.op == "<=" and b.value < 0):
                return False
        return None


def _value_key(e):
    """A key for an event path or a local, or None."""
    p = event_path(e)
    if p is not None:
        return ("event",) + p
    return ("local", e.text) if isinstance(e, ast.NameRef) else None


def _none_then_read(cs: list) -> bool:
    nones = set()
    for c in cs:
        if isinstance(c, ast.Compare) and c.op == "==":
            for a, b in ((c.left, c.right), (c.right, c.left)):
                if is_name(b, "none") and _value_key(a) is not None:
                    nones.add(_value_key(a))
    if not nones:
        return False
    return any(isinstance(n, ast.Attr) and _value_key(n.obj) in nones for c in cs for n in walk_of(c, (ast.Attr,)))


def _flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)


def _pure(e) -> bool:
    return not walk_of(e, (ast.Call, ast.Choose, ast.Ask))


def _nonneg(e) -> bool:
    if isinstance(e, ast.Attr) and e.name.text in ("hand_count", "card_count", "lost_hp", "max_hp"):
        return True
    return isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.func.text in ("len", "count")
