"""What the conflict checks share: per rule (a trigger, modifier, active or view-as of a skill,
an equipment card or a mode rule), what it reads and writes, what it opens and what it changes.

Everything is read off the checked syntax tree and the type checker's annotations
(`model.notes`): no rule is named here. The model of the engine that the checks need is
small and lives at the top of this file: which primitives move cards (and so open the
window bound to the `moved` role, with which of its fields set) and which player state
each primitive changes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from .. import ast
from ..model import Model
from ..typecheck import AttrNote, CallNote

# ---- the engine's primitives, as far as the checks need them ------------------------------

# Card-moving primitives open the `moved` window. The fields of the event they can set
# (the rest stay none/0): a `when` that needs another field cannot hold for that event.
MOVED_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset({"cards", "gainer", "to"}),
    "gain": frozenset({"cards", "gainer", "loser", "lost_hand", "lost_equip", "to"}),
    "discard": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
    "put": frozenset({"cards", "gainer", "loser", "lost_hand", "lost_equip", "to"}),
    "put_bottom": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
    "equip": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
}

# Player state each primitive changes (categories of `STATE_OF_ATTR`).
PRIMITIVE_STATE: dict[str, frozenset[str]] = {
    **{p: frozenset({"cards"}) for p in MOVED_FIELDS},
    "reveal_top": frozenset({"cards"}),
    "change_hp": frozenset({"hp"}),
    "change_max_hp": frozenset({"hp"}),
    "kill": frozenset({"alive", "hp"}),
    "flip": frozenset({"flipped"}),
    "set_chained": frozenset({"chained"}),
    "reveal_identity": frozenset({"identity"}),
    "add_skill": frozenset({"skills"}),
    "remove_skill": frozenset({"skills"}),
    "skip": frozenset({"phase"}),
    "give_turn": frozenset({"turn"}),
    "deal_identities": frozenset({"identity"}),
    "pick_hero": frozenset({"hero", "skills", "hp"}),
    "set_hero": frozenset({"hero", "skills", "hp"}),
    "play_phase": frozenset({"cards", "hp", "alive"}),
}
HOOK_PRIMITIVES = ("card_effect", "card_before", "card_after")
CARD_ZONES = ("hand", "cards", "equips", "judges", "all_cards", "weapon", "armor", "plus_horse", "minus_horse")

# Player (and card) attributes -> the state category a `when` reads through them.
STATE_OF_ATTR: dict[str, str] = {
    **dict.fromkeys(("hp", "max_hp", "lost_hp", "wounded", "dying"), "hp"),
    **dict.fromkeys(("alive", "dead", "next", "prev"), "alive"),
    **dict.fromkeys(("hand", "hand_count", "equips", "judges", "cards", "all_cards", "card_count", "weapon",
                     "armor", "plus_horse", "minus_horse", "zone", "owner"), "cards"),
    "flipped": "flipped", "chained": "chained", "identity": "identity", "identity_shown": "identity",
}
STATE_OF_FUNC = {"others": "alive", "seat_distance": "alive", "is_lord": "identity", "has_skill": "skills",
                 "ongoing": "stack"}
STATE_OF_CONTEXT = {"players": "alive", "all_players": "alive", "current": "turn"}


# ---- walking the tree ----------------------------------------------------------------------


@functools.cache
def _fields(cls) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.name != "span")


def children(node) -> Iterator:
    for name in _fields(type(node)):
        yield from _nodes(getattr(node, name))


def _nodes(v) -> Iterator:
    if attrs.has(type(v)):
        yield v
    elif isinstance(v, (tuple, list)):
        for x in v:
            yield from _nodes(x)


def walk(node) -> Iterator:
    """Every node under `node` (itself included), parents before children."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


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


# ---- conditions ------------------------------------------------------------------------------


class Conditions:
    """Static reading of `when` expressions: constants, equality constraints, required fields."""

    def __init__(self, model: Model):
        self.m = model

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
                from ..surface import CONSTS

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
        if isinstance(c, ast.Compare) and c.op in ("==", "is"):
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = self._path(a, params)
                k = self.const(b)
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
        """Two conjuncts that pin one path to different constants."""
        seen: dict = {}
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


def _flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)


def _pure(e) -> bool:
    return not any(isinstance(n, (ast.Call, ast.Choose, ast.Ask)) for n in walk(e))


def _nonneg(e) -> bool:
    if isinstance(e, ast.Attr) and e.name.text in ("hand_count", "card_count", "lost_hp", "max_hp"):
        return True
    return isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.func.text in ("len", "count")


# ---- what a body does ------------------------------------------------------------------------


@attrs.frozen
class OpenSite:
    """A window a body can open: `rel` is the window's subject relative to the rule's owner
    (self, other or any), `fields` the event fields that can be set (None: any)."""

    window: str  # window id
    rel: str = "any"
    fields: frozenset[str] | None = None
    values: frozenset = frozenset()  # (field, constant) bound at the call site
    rels: frozenset = frozenset()  # (field, self/other): player fields bound relative to the owner

    def value(self, field: str):
        return next((v for f, v in self.values if f == field), None)

    def rel_of(self, field: str) -> str:
        return next((r for f, r in self.rels if f == field), "any")


@attrs.define
class BodyFacts:
    writes: list = attrs.Factory(list)  # (field, op, value, Assign) on the body's own event
    reads: set = attrs.Factory(set)  # own event fields read
    own_opens: list = attrs.Factory(list)  # window ids opened on the body's own event
    opens: set = attrs.Factory(set)  # OpenSite
    state: set = attrs.Factory(set)  # state categories changed
    hooks: bool = False  # runs the card hooks of its event's card
    escapes: bool = False  # passes its own event on (to a flow, a hook or a `new` event)
    calls: set = attrs.Factory(set)  # flow ids and primitive names called
    marks: set = attrs.Factory(set)  # counters and marks assigned


@attrs.define
class Scope:
    rel: dict = attrs.Factory(dict)  # local -> self/other/any
    owner: dict = attrs.Factory(dict)  # local holding cards -> whose they are (self/other/any)
    cards: dict = attrs.Factory(dict)  # local -> card id known statically
    target_rel: str = "any"


class Analyzer:
    """Scans bodies; flows and card hooks are summarised once (a fixed point over calls)."""

    def __init__(self, model: Model):
        self.m = model
        self.cond = Conditions(model)
        moved = model.role_target("moved")
        self.moved = moved.id.text if isinstance(moved, ast.WindowDecl) else None
        self.flows: dict[str, BodyFacts] = {}
        self.hooks: dict[str, BodyFacts] = {}
        self._state_memo: dict[int, frozenset] = {}
        self._quantity_memo: dict[str, frozenset] = {}
        self._summarise()

    # -- summaries of flows and card hooks
    def _summarise(self) -> None:
        flows = self.m.unique(self.m.flows)
        cards = self.m.unique(self.m.cards)
        for f in flows:
            self.flows[f.id.text] = BodyFacts()
        for c in cards:
            self.hooks[c.id.text] = BodyFacts()
        for _ in range(12):  # monotone: stops as soon as nothing grows
            changed = False
            for f in flows:
                new = self.scan([f.body], own_event=f.event.text, owner=False)
                changed |= _merge(self.flows[f.id.text], new)
            for c in cards:
                if c.hooks:
                    new = self.scan([b for _, b in c.hooks], own_event=None, owner=False)
                    changed |= _merge(self.hooks[c.id.text], new)
            if not changed:
                break

    def flow_fields(self, fid: str, bound: set[str]) -> frozenset[str]:
        """Fields of a flow's own event that can be set when it is called binding `bound`."""
        f = self.m.flows[fid]
        ev = self.m.events.get(f.event.text)
        out = set(bound) | {w[0] for w in self.flows[fid].writes}
        for fd in ev.fields if ev else ():
            if fd.default is not None and not is_name(fd.default, "none") and not is_name(fd.default, "false"):
                out.add(fd.name.text)
        return frozenset(out)

    # -- scanning a body
    def scan(self, blocks, own_event: str | None, owner: bool, target_rel: str = "any") -> BodyFacts:
        out = BodyFacts()
        scope = Scope(target_rel=target_rel)
        for b in blocks:
            if b is None:
                continue
            self._stmts(b.stmts if isinstance(b, ast.Block) else [b], out, scope, owner)
        return out

    def _stmts(self, stmts, out: BodyFacts, scope: Scope, owner: bool) -> None:
        for s in stmts:
            self._stmt(s, out, scope, owner)

    def _stmt(self, s, out: BodyFacts, scope: Scope, owner: bool) -> None:  # noqa: C901
        match s:
            case ast.Let():
                self._expr(s.value, out, scope, owner)
                scope.rel[s.name.text] = self.relation(s.value, scope) if owner else "any"
                if owner:
                    scope.owner[s.name.text] = self.owner_rel(s.value, scope)
                card = self.known_card(s.value, scope)
                if card is not None:
                    scope.cards[s.name.text] = card
            case ast.Assign():
                self._expr(s.value, out, scope, owner)
                p = event_path(s.target)
                if p is not None and len(p) == 1:
                    out.writes.append((p[0], s.op, s.value, s))
                    if s.op != "=":
                        out.reads.add(p[0])
                elif p is not None:
                    out.reads.add(p[0])
                else:
                    note = self.m.notes.get(s.target)
                    if isinstance(note, AttrNote) and note.kind == "mark":
                        out.marks.add(note.name)
                        out.state.add(f"mark:{note.name}")
                    if not isinstance(s.target, ast.NameRef):
                        self._expr(s.target, out, scope, owner)
            case ast.ExprStmt():
                self._expr(s.expr, out, scope, owner)
            case ast.If():
                self._expr(s.test, out, scope, owner)
                self._stmts(s.then.stmts, out, scope, owner)
                if s.other is not None:
                    self._stmts(s.other.stmts, out, scope, owner)
            case ast.For():
                self._expr(s.iter, out, scope, owner)
                if owner:
                    scope.rel[s.var.text] = "other" if self.excludes_self(s.iter, scope) else "any"
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.While():
                self._expr(s.test, out, scope, owner)
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.Repeat():
                self._expr(s.count, out, scope, owner)
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.PhaseStmt():
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.Open():
                w = self.m.windows.get(s.window.text)
                if w is None:
                    return
                if s.event is None or is_name(s.event, "event"):
                    out.own_opens.append(w.id.text)
                    if s.event is not None:
                        out.escapes = True
                else:
                    self._expr(s.event, out, scope, owner)
                    fields = None
                    if isinstance(s.event, ast.New):
                        note = self.m.notes.get(s.event)
                        if isinstance(note, CallNote):
                            fields = self._new_fields(s.event.event.text, {k for k, _ in note.args})
                    rel, values, rels = "any", frozenset(), frozenset()
                    if isinstance(s.event, ast.New):
                        bound = {a.name.text: a.value for a in s.event.args if a.name is not None}
                        values = self._values(bound)
                        rels = self._rels(bound, scope) if owner else frozenset()
                        if w.subject is not None:
                            rel = dict(rels).get(w.subject.text, "any")
                    out.opens.add(OpenSite(w.id.text, rel, fields, values, rels))
            case ast.Log():
                for p in s.parts:
                    if isinstance(p, ast.Expr):
                        self._expr(p, out, scope, owner)

    def _new_fields(self, event: str, bound: set[str]) -> frozenset[str]:
        ev = self.m.events.get(event)
        out = set(bound)
        for fd in ev.fields if ev else ():
            if fd.default is not None and not is_name(fd.default, "none") and not is_name(fd.default, "false"):
                out.add(fd.name.text)
        return frozenset(out)

    def _expr(self, e, out: BodyFacts, scope: Scope, owner: bool) -> None:
        for n in walk(e):
            if isinstance(n, ast.Attr):
                p = event_path(n)
                if p is not None:
                    out.reads.add(p[0])
            elif isinstance(n, ast.NameRef) and n.text == "event":
                pass
            elif isinstance(n, ast.Call):
                self._call(n, out, scope, owner)
            elif isinstance(n, ast.New):
                if any(is_name(a.value, "event") for a in n.args):
                    out.escapes = True

    def _call(self, c: ast.Call, out: BodyFacts, scope: Scope, owner: bool) -> None:
        note = self.m.notes.get(c)
        if not isinstance(note, CallNote) or not isinstance(c.func, ast.NameRef):
            return
        name = c.func.text
        if any(is_name(a.value, "event") for a in c.args):
            out.escapes = True
        if note.kind == "func":
            out.calls.add(name)
            out.state |= PRIMITIVE_STATE.get(name, frozenset())
            if name in MOVED_FIELDS and self.moved is not None:
                rels = self._moved_rels(name, c, scope) if owner else frozenset()
                out.opens.add(OpenSite(self.moved, "any", MOVED_FIELDS[name], frozenset(), rels))
            if name in HOOK_PRIMITIVES:
                card = self.known_card(c.args[0].value, scope) if c.args else None
                if card is not None:
                    self._add_hooks(out, card)
                else:
                    out.hooks = True
            if name == "play_phase":
                self._play_phase(out)
        elif note.kind in ("flow", "run"):
            fid = note.target
            f = self.m.flows.get(fid)
            summ = self.flows.get(fid)
            if f is None or summ is None:
                return
            out.calls.add(fid)
            if note.kind == "flow":
                bound = dict(note.args)
                fields = self.flow_fields(fid, {k for k, v in bound.items() if not is_name(v, "none")})
            else:
                bound, fields = {}, None
            written = {w[0] for w in summ.writes}
            values = self._values({k: v for k, v in bound.items() if k not in written})
            rels = self._rels({k: v for k, v in bound.items() if k not in written}, scope) if owner else frozenset()
            for wid in summ.own_opens:
                w = self.m.windows[wid]
                rel = dict(rels).get(w.subject.text, "any") if w.subject is not None else "any"
                out.opens.add(OpenSite(wid, rel, fields, values, rels))
            out.opens |= summ.opens
            out.state |= summ.state
            out.calls |= summ.calls
            if summ.hooks:
                card = self.known_card(bound["card"], scope) if "card" in bound else None
                if card is not None:
                    self._add_hooks(out, card)
        elif note.kind == "quantity":
            out.calls.add(note.target)

    def _rels(self, bound: dict, scope: Scope) -> frozenset:
        out = set()
        for k, v in bound.items():
            r = self.relation(v, scope)
            if r != "any":
                out.add((k, r))
        return frozenset(out)

    def _moved_rels(self, name: str, c: ast.Call, scope: Scope) -> frozenset:
        """Who gains and who loses the cards a moving primitive moves, relative to the owner."""
        args = [a.value for a in c.args if a.name is None]
        kw = {a.name.text: a.value for a in c.args if a.name is not None}
        out = {}
        if name in ("draw", "gain") and args:
            out["gainer"] = self.relation(args[0], scope)
        if name in ("gain", "discard") and len(args) > 1:
            out["loser"] = self.owner_rel(args[1], scope)
        if name in ("put", "put_bottom") and args:
            out["loser"] = self.owner_rel(args[0], scope)
        if name == "put" and (len(args) > 2 or "owner" in kw):
            out["gainer"] = self.relation(args[2] if len(args) > 2 else kw["owner"], scope)
        if name == "equip" and args:
            out["loser"] = self.relation(args[0], scope)
        return frozenset((k, r) for k, r in out.items() if r != "any")

    def owner_rel(self, e, scope: Scope) -> str:
        """Whose cards an expression takes, relative to the rule's owner."""
        if isinstance(e, ast.NameRef):
            return scope.owner.get(e.text, "any")
        rels = set()
        for n in walk(e):
            if isinstance(n, ast.Attr) and n.name.text in CARD_ZONES:
                rels.add(self.relation(n.obj, scope))
            elif isinstance(n, ast.NameRef) and n.text in scope.owner:
                rels.add(scope.owner[n.text])
        return rels.pop() if len(rels) == 1 else "any"

    def _values(self, bound: dict) -> frozenset:
        out = set()
        for k, v in bound.items():
            c = self.cond.const(v)
            if c is not None:
                out.add((k, c))
        return frozenset(out)

    def _add_hooks(self, out: BodyFacts, card: str) -> None:
        h = self.hooks.get(card)
        if h is not None:
            out.opens |= {OpenSite(w, "any", None) for w in h.own_opens} | h.opens
            out.state |= h.state
            out.calls |= h.calls

    def _play_phase(self, out: BodyFacts) -> None:
        use = self.m.role_target("use")
        if isinstance(use, ast.FlowDecl) and use.id.text in self.flows:
            s = self.flows[use.id.text]
            out.opens |= {OpenSite(w, "any", None) for w in s.own_opens} | s.opens
            out.state |= s.state
        for h in self.hooks.values():
            out.opens |= {OpenSite(w, "any", None) for w in h.own_opens} | h.opens
            out.state |= h.state

    # -- who and what
    def relation(self, e, scope: Scope) -> str:
        if is_name(e, "self"):
            return "self"
        if isinstance(e, ast.NameRef):
            if e.text == "target":
                return scope.target_rel
            return scope.rel.get(e.text, "any")
        if isinstance(e, ast.Index) and is_name(e.obj, "targets"):
            return scope.target_rel
        if isinstance(e, ast.Choose) and e.kind == "player":
            if (e.source is not None and self.excludes_self(e.source, scope)) or _neq_self(e.where):
                return "other"
        return "any"

    def excludes_self(self, e, scope: Scope) -> bool:
        if isinstance(e, ast.Call) and is_name(e.func, "others") and e.args and is_name(e.args[0].value, "self"):
            return True
        if isinstance(e, ast.Filter):
            return self.excludes_self(e.source, scope) or _neq_self(e.pred)
        if isinstance(e, ast.ListLit):
            return bool(e.items) and all(self.relation(x, scope) == "other" for x in e.items)
        if is_name(e, "targets"):
            return scope.target_rel == "other"
        return False

    def known_card(self, e, scope: Scope) -> str | None:
        if isinstance(e, ast.NameRef):
            return scope.cards.get(e.text)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.args:
            if e.func.text in ("virtual", "ask_card"):
                i = 0 if e.func.text == "virtual" else 1
                arg = e.args[i].value if len(e.args) > i else None
                if isinstance(arg, ast.NameRef):
                    card = self.m.cards.get(arg.text)
                    if card is not None:
                        return card.id.text
        return None

    # -- what a `when` reads
    def state_reads(self, e) -> frozenset[str]:
        if e is None:
            return frozenset()
        key = id(e)
        if key not in self._state_memo:
            self._state_memo[key] = self._state_reads(e)
        return self._state_memo[key]

    def _state_reads(self, e) -> frozenset[str]:
        out: set[str] = set()
        for n in walk(e):
            if isinstance(n, ast.Attr):
                note = self.m.notes.get(n)
                p = event_path(n)
                if isinstance(note, AttrNote) and note.kind == "mark":
                    out.add(f"mark:{note.name}")
                elif n.name.text in STATE_OF_ATTR and (p is None or len(p) > 1):
                    out.add(STATE_OF_ATTR[n.name.text])
            elif isinstance(n, ast.NameRef) and n.text in STATE_OF_CONTEXT:
                out.add(STATE_OF_CONTEXT[n.text])
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.NameRef):
                if n.func.text in STATE_OF_FUNC:
                    out.add(STATE_OF_FUNC[n.func.text])
                q = self.m.quantities.get(n.func.text)
                if q is not None:
                    out |= self.quantity_reads(q.id.text)
        return frozenset(out)

    def quantity_reads(self, qid: str) -> frozenset[str]:
        """State a quantity's base reads (quantities it calls included)."""
        if qid in self._quantity_memo:
            return self._quantity_memo[qid]
        self._quantity_memo[qid] = frozenset()  # a quantity that calls itself adds nothing more
        q = self.m.quantities.get(qid)
        out = set(self.state_reads(q.base)) if q is not None else set()
        self._quantity_memo[qid] = frozenset(out)
        return self._quantity_memo[qid]


def _neq_self(e) -> bool:
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == "!=" and (
                (is_name(c.left, "it") and is_name(c.right, "self")) or
                (is_name(c.right, "it") and is_name(c.left, "self"))):
            return True
    return False


def _merge(into: BodyFacts, new: BodyFacts) -> bool:
    before = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
              len(into.reads), into.escapes)
    into.opens |= new.opens
    into.state |= new.state
    into.calls |= new.calls
    into.reads |= new.reads
    into.hooks = into.hooks or new.hooks
    into.escapes = into.escapes or new.escapes
    if not into.writes:
        into.writes = list(new.writes)
    if not into.own_opens:
        into.own_opens = list(new.own_opens)
    after = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
             len(into.reads), into.escapes)
    return before != after


# ---- rules -------------------------------------------------------------------------------------


@attrs.define(eq=False)
class Rule:
    """One facet of a skill, an equipment card or a mode rule."""

    decl: object  # ast.SkillDecl (a skill or a mode rule) or ast.CardDecl
    facet: object  # ast.Trigger | ast.Modify | ast.Active | ast.ViewAs
    index: int
    holder: str  # hero | equipment | mode | loose
    heroes: tuple  # ast.HeroDecl having the skill
    slot: str | None = None
    copies: int = 0  # physical copies of an equipment card in all decks
    windows: tuple = ()  # ast.WindowDecl
    body: BodyFacts = attrs.Factory(BodyFacts)
    when: object = None
    when_reads: frozenset = frozenset()  # own event fields the `when` reads
    when_state: frozenset = frozenset()  # state categories the `when` reads
    constraints: dict = attrs.Factory(dict)
    required: frozenset = frozenset()  # event fields the `when` needs set
    pinned: frozenset = frozenset()  # event fields the `when` needs to be the owner (`event.f == self`)
    limit: object = None
    designer: bool = False

    @property
    def name(self) -> str:
        return self.decl.name.text

    @property
    def kind(self) -> str:
        return type(self.facet).__name__.lower()

    @property
    def span(self):
        return self.facet.span

    @property
    def any(self) -> bool:
        return bool(getattr(self.facet, "any", False))

    @property
    def forced(self) -> bool:
        return bool(getattr(self.facet, "forced", False)) or "locked" in getattr(self.decl, "types", ())

    @property
    def lord(self) -> bool:
        return self.holder == "hero" and "lord" in getattr(self.decl, "types", ())

    @property
    def hero_names(self) -> tuple[str, ...]:
        return tuple(h.name.text for h in self.heroes)

    def label(self) -> str:
        what = {"hero": "skill", "equipment": "equipment", "mode": "mode rule", "loose": "skill"}[self.holder]
        return f"{what} {self.name}"

    def writes_of(self, field: str) -> list:
        return [w for w in self.body.writes if w[0] == field]


class Facts:
    """Everything the families share, computed once per build."""

    def __init__(self, build):
        self.build = build
        self.m: Model = build.model
        self.az = Analyzer(self.m)
        self.cond = self.az.cond
        m = self.m
        self.skill_heroes: dict[int, list] = {}
        for h in m.unique(m.heroes):
            for s in h.skills:
                sk = m.skills.get(s.text)
                if sk is not None:
                    self.skill_heroes.setdefault(id(sk), []).append(h)
        self.copies: dict[str, int] = {}
        for d in m.unique(m.decks):
            for e in d.entries:
                c = m.cards.get(e.card.text)
                if c is not None:
                    self.copies[c.id.text] = self.copies.get(c.id.text, 0) + 1
        self.granted = {a.value.text for n in self._all_bodies() for a in _granted(n)}
        self.designer_pkgs = {name for name, p in m.packages.items() if not p.shipped}
        self.pools = self._pools()
        self.memo: dict = {}  # what the families compute once and share
        self.rules: list[Rule] = []
        for holder, decl in self._holders():
            for i, f in enumerate(decl.facets):
                if isinstance(f, (ast.Trigger, ast.Modify, ast.Active, ast.ViewAs)):
                    self.rules.append(self._rule(holder, decl, f, i))
        # Rules that can be in effect in some game (a lord skill needs a hero who can be lord).
        self.live: list[Rule] = [r for r in self.rules if not r.lord or any(self.can_be_lord(h) for h in r.heroes)]
        self.by_window: dict[str, list[Rule]] = {}
        for r in self.live:
            for w in r.windows:
                self.by_window.setdefault(w.id.text, []).append(r)

    # -- what exists
    def _holders(self):
        m = self.m
        for s in m.unique(m.skills):
            if id(s) in self.skill_heroes:
                yield "hero", s
            else:
                yield "loose", s
        for c in m.unique(m.cards):
            if c.facets:
                yield ("equipment" if c.kind == "equipment" else "card"), c
        for mode in m.unique(m.modes):
            for r in mode.rules:
                yield "mode", r

    def _all_bodies(self):
        m = self.m
        for f in m.unique(m.flows):
            yield f.body
        for s in m.unique(m.skills):
            yield s
        for c in m.unique(m.cards):
            yield c
        for mode in m.unique(m.modes):
            yield mode

    def _pools(self) -> dict[str, set[str]]:
        """mode id -> hero names it can deal (its `heroes` packages, plus every designer's hero)."""
        m = self.m
        out = {}
        for mode in m.unique(m.modes):
            pkgs = {n.text for n in mode.heroes} | self.designer_pkgs
            out[mode.id.text] = {h.name.text for h in m.unique(m.heroes) if m.package_of(h) in pkgs}
        return out

    def modes_of_hero(self, hero: str) -> list:
        return [mode for mode in self.m.unique(self.m.modes) if hero in self.pools.get(mode.id.text, ())]

    def can_be_lord(self, h) -> bool:
        return not h.never_lord and any(mode.lord is not None for mode in self.modes_of_hero(h.name.text))

    def can_meet(self, a: str, b: str) -> bool:
        if a == b:
            return False
        if not self.pools:
            return True
        return any(a in pool and b in pool and _max_players(self.m.modes[mid]) >= 2
                   for mid, pool in self.pools.items())

    def designer_file(self, span) -> bool:
        return not span.file.startswith("rules/")

    # -- one rule
    def _rule(self, holder: str, decl, f, index: int) -> Rule:
        m, az = self.m, self.az
        heroes = tuple(self.skill_heroes.get(id(decl), ()))
        slot = getattr(decl, "slot", None) if holder == "equipment" else None
        r = Rule(decl=decl, facet=f, index=index, holder=holder, heroes=heroes, slot=slot,
                 copies=self.copies.get(decl.id.text, 0) if isinstance(decl, ast.CardDecl) else 0,
                 designer=self.designer_file(decl.span))
        owner = holder != "mode"
        if isinstance(f, ast.Trigger):
            r.windows = tuple(m.windows[w.text] for w in f.windows if w.text in m.windows)
            ev = r.windows[0].event.text if r.windows else None
            target_rel = "other" if f.target is not None and _neq_self(f.target.where) else "any"
            r.body = az.scan([f.cost, f.do], own_event=ev, owner=owner, target_rel=target_rel)
        elif isinstance(f, ast.Active):
            target_rel = "other" if f.target is not None and _neq_self(f.target.where) else "any"
            r.body = az.scan([f.cost, f.do], own_event=None, owner=owner, target_rel=target_rel)
        r.when = f.when
        r.limit = getattr(f, "limit", None)
        if f.when is not None:
            r.when_reads = frozenset(p[0] for n in walk(f.when) if (p := event_path(n)) is not None)
            r.when_state = az.state_reads(f.when)
            params = tuple(a.text for a in f.args) if isinstance(f, ast.Modify) else ()
            r.constraints = self.cond.constraints(f.when, params)
            r.required = frozenset(self.cond.required_fields(f.when))
            r.pinned = frozenset(_pinned(f.when))
        return r

    # -- who can hold two rules at once
    def same_player(self, a: Rule, b: Rule) -> bool:
        """Can one player have both rules in effect at the same time?"""
        if a is b:
            return True
        if {a.holder, b.holder} & {"mode", "card"}:
            return False
        if a.holder == "hero" and b.holder == "hero":
            return bool({id(h) for h in a.heroes} & {id(h) for h in b.heroes})
        if "loose" in (a.holder, b.holder):
            return all(self._granted(r) for r in (a, b) if r.holder == "loose")
        if a.holder == "equipment" and b.holder == "equipment":
            return a.slot != b.slot
        return True  # a hero skill and an equipment card

    def two_players(self, a: Rule, b: Rule) -> bool:
        """Can two different players have them, one each?"""
        if "mode" in (a.holder, b.holder) or "card" in (a.holder, b.holder):
            return False
        if a.decl is b.decl:
            return a.holder == "equipment" and a.copies >= 2
        if a.holder == "hero" and b.holder == "hero":
            if a.lord and b.lord:
                return False  # one lord per table
            return any(self.can_meet(x.name.text, y.name.text) for x in a.heroes for y in b.heroes)
        if "loose" in (a.holder, b.holder):
            return all(self._granted(r) for r in (a, b) if r.holder == "loose")
        return True

    def _granted(self, r: Rule) -> bool:
        return r.decl.name.text in self.granted or r.decl.id.text in self.granted

    def meeting_heroes(self, a: Rule, b: Rule) -> tuple | None:
        """Two distinct heroes, one with each rule, that can meet (for pair findings)."""
        for x in a.heroes:
            for y in b.heroes:
                if x is not y and self.can_meet(x.name.text, y.name.text):
                    return (x, y)
        return None


def _pinned(e) -> set[str]:
    out = set()
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == "==":
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = event_path(a)
                if p is not None and len(p) == 1 and is_name(b, "self"):
                    out.add(p[0])
    return out


def _granted(n) -> Iterator:
    for x in walk(n):
        if isinstance(x, ast.Call) and is_name(x.func, "add_skill") and len(x.args) >= 2:
            if isinstance(x.args[1].value, ast.NameRef):
                yield x.args[1]


def _max_players(mode) -> int:
    return mode.players[1] if mode.players else 12


def facts_of(build) -> Facts:
    """The facts of a build, computed once."""
    key = ("check", "facts")
    f = build.model.notes.get(key)
    if f is None or f.build is not build:
        f = Facts(build)
        build.model.notes[key] = f
    return f
