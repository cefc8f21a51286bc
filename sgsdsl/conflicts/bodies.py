"""What a body does: the windows it can open (with what it binds), the state it changes and in
which direction, the fields it reads and writes. The Analyzer is made of one part per kind of
thing it reads: the statements and the calls of flows (here), the primitives' effects (effects.py,
from the declarations beside each primitive in sgsdsl/lang/surface.py), who and what an expression
names (reading.py), and the summaries of flows and card hooks that calls read (summaries.py). No
rule is named here.
"""

from __future__ import annotations

from ..lang import ast
from ..lang.analysis import AttrNote, CallNote
from ..lang.model import Model
from ..lang.tree import conjuncts, event_path, is_name, walk_of
from . import progress
from .bodyfacts import BodyFacts, OpenSite, Scope, pinned, tagged
from .conditions import Conditions
from .effects import Effects
from .reading import STATE_OF_ATTR, Reading
from .summaries import Summaries, Summarising, _Lookups

__all__ = ["Analyzer", "BodyFacts", "OpenSite", "Scope", "Summaries", "STATE_OF_ATTR"]

# The nodes each walk below looks at (walk_of keeps them per subtree: the same bodies are scanned in
# every round of the summaries and in every pass).
_EXPR_NODES = (ast.Attr, ast.Call, ast.New)


class Analyzer(Summarising, Effects, Reading):
    """Scans bodies; flows and card hooks are summarised once (a fixed point over calls)."""

    def __init__(self, model: Model, base: Summaries | None = None):
        """`base`: the summaries of the same build seen with no variant package (Summaries.of), reused
        when this view differs from that one in nothing they looked up."""
        self.m = model
        self.cond = Conditions(model)
        moved = model.role_target("moved")
        self.moved = moved.id.text if isinstance(moved, ast.WindowDecl) else None
        moving = model.role_target("moving")
        self.moving = moving.id.text if isinstance(moving, ast.WindowDecl) else None
        self._state_memo: dict[int, frozenset] = {}
        self._quantity_memo: dict[str, frozenset] = {}
        self._start_summaries()
        if base is not None and base.fits(model):
            self.flows, self.hooks = base.flows, base.hooks
            self._special = dict(base.special)
            return
        seen = _Lookups(model)
        self.m = self.cond.m = seen  # what the summaries read of the tables a variant can overlay
        try:
            self._summarise()
        finally:
            self.m = self.cond.m = model
        self.summaries = Summaries(model.current, seen, self.flows, self.hooks, dict(self._special))

    # -- scanning a body
    def scan(self, blocks, own_event: str | None, owner: bool, target_rel: str = "any", when=None,
             card: str | None = None) -> BodyFacts:
        out = BodyFacts()
        scope = Scope(target_rel=target_rel, event=own_event)
        if card is not None:
            scope.events["event"] = card
        if owner and when is not None:
            scope.event_rel = dict.fromkeys(pinned(when), "self") | dict.fromkeys(pinned(when, "!="), "other")
        if when is not None:
            scope.zones.update(self.pin_zones(when, scope))
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
                if self.is_paid(s.value, scope):
                    scope.paid.add(s.name.text)
                if self.is_random(s.value, scope):
                    scope.random.add(s.name.text)
                zones = self.zones_of(s.value, scope)
                if zones is not None:
                    scope.zones[("local", s.name.text)] = zones
                if self.chosen(s.value, scope):
                    scope.chosen.add(s.name.text)
                scope.skillsets[s.name.text] = self.skill_set(s.value, scope)
            case ast.Assign():
                self._expr(s.value, out, scope, owner)
                p = event_path(s.target)
                if p is not None and len(p) == 1 and isinstance(s.value, ast.New):
                    carried = self._new_card(s.value, scope)  # `event.aims += new aim(card: event.card)`
                    if carried is not None:
                        scope.events[("list", p[0])] = carried
                if p is not None and len(p) == 1:
                    out.writes.append((p[0], s.op, s.value, s))
                    if s.op in ("+=", "-="):  # a count kept on the event (what a reopened window sees)
                        out.deltas |= {(r, d, False, "any") for r, d in
                                       progress.assign_deltas(p[0], s.op, s.value, self.cond.const, "event")}
                    if scope.event is not None and s.op == "=":
                        out.placed.add((scope.event, p[0], self.zones_of(s.value, scope)))
                    if s.op != "=":
                        out.reads.add(p[0])
                else:
                    if p is not None:  # `event.saver.mark -= 1`: the event names the player
                        out.reads.add(p[0])
                    note = self.m.analysis.refs.get(s.target)
                    if isinstance(note, AttrNote) and note.kind == "mark":
                        out.marks.add(note.name)
                        out.state.add(f"mark:{note.name}")
                        whose = self.relation(s.target.obj, scope) if owner and isinstance(s.target, ast.Attr) \
                            else "any"
                        out.deltas |= {(r, d, False, whose) for r, d in
                                       progress.assign_deltas(note.name, s.op, s.value, self.cond.const)}
                    if p is None and not isinstance(s.target, ast.NameRef):
                        self._expr(s.target, out, scope, owner)
            case ast.ExprStmt():
                self._expr(s.expr, out, scope, owner)
            case ast.If():
                truth = None
                for c in conjuncts(s.test):  # `and` stops at the first false conjunct: what follows never runs
                    self._expr(c, out, scope, owner)
                    truth = self.card_test(c, scope)
                    if truth is False:
                        break
                before, zones = scope.chance, dict(scope.zones)
                scope.chance = before or self.is_random(s.test, scope)
                scope.depth += 1
                if truth is not False:
                    scope.zones.update(self.pin_zones(s.test, scope))  # `if c.zone == processing { … }`
                    kin = set(scope.kin)
                    scope.kin |= kin_names(s.test)
                    self._stmts(s.then.stmts, out, scope, owner)
                    scope.zones, scope.kin = dict(zones), kin
                if s.other is not None and not (truth is True and len(conjuncts(s.test)) == 1):
                    self._stmts(s.other.stmts, out, scope, owner)
                scope.chance, scope.zones = before, zones
                scope.depth -= 1
            case ast.For():
                self._expr(s.iter, out, scope, owner)
                p = event_path(s.iter)
                if p is not None and len(p) == 1 and ("list", p[0]) in scope.events:
                    scope.events[s.var.text] = scope.events[("list", p[0])]
                if owner:
                    scope.rel[s.var.text] = "other" if self.excludes_self(s.iter, scope) else "any"
                scope.skillsets[s.var.text] = self.skill_set(s.iter, scope)
                scope.depth += 1
                self._stmts(s.body.stmts, out, scope, owner)
                scope.depth -= 1
            case ast.While():
                self._expr(s.test, out, scope, owner)
                scope.depth += 1
                self._stmts(s.body.stmts, out, scope, owner)
                scope.depth -= 1
            case ast.Repeat():
                self._expr(s.count, out, scope, owner)
                scope.depth += 1
                self._stmts(s.body.stmts, out, scope, owner)
                scope.depth -= 1
            case ast.PhaseStmt() | ast.Later():
                scope.depth += 1
                self._stmts(s.body.stmts, out, scope, owner)
                scope.depth -= 1
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
                        note = self.m.analysis.refs.get(s.event)
                        if isinstance(note, CallNote):
                            fields = self._new_fields(s.event.event.text, {k for k, _ in note.args})
                    rel, values, rels = "any", frozenset(), frozenset()
                    if isinstance(s.event, ast.New):
                        bound = {a.name.text: a.value for a in s.event.args if a.name is not None}
                        values = self._values(bound)
                        rels = self._rels(bound, scope) if owner else frozenset()
                        if w.subject is not None:
                            rel = dict(rels).get(w.subject.text, "any")
                    out.opens.add(OpenSite(w.id.text, rel, fields, values, rels, chance=scope.chance))
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
        for n in walk_of(e, _EXPR_NODES):
            if isinstance(n, ast.Attr):
                p = event_path(n)
                if p is not None:
                    out.reads.add(p[0])
            elif isinstance(n, ast.Call):
                self._call(n, out, scope, owner)
            elif isinstance(n, ast.New):
                if any(is_name(a.value, "event") for a in n.args):
                    out.escapes = True
                out.placed |= {(n.event.text, a.name.text, self.zones_of(a.value, scope)) for a in n.args
                               if a.name is not None}

    def _call(self, c: ast.Call, out: BodyFacts, scope: Scope, owner: bool) -> None:
        note = self.m.analysis.refs.get(c)
        if not isinstance(note, CallNote) or not isinstance(c.func, ast.NameRef):
            return
        name = c.func.text
        if any(is_name(a.value, "event") for a in c.args):
            out.escapes = True
        if note.kind == "func":
            self._primitive(c, name, out, scope, owner)
        elif note.kind in ("flow", "run"):
            fid = note.target
            f = self.m.flows.get(fid)
            summ = self.flows.get(fid)
            if f is None or summ is None:
                return
            self._read(("flow", fid))
            out.calls.add(fid)
            if note.kind == "flow":
                bound = dict(note.args)
                out.placed |= {(f.event.text, k, self.zones_of(v, scope)) for k, v in bound.items()}
                fields = self.flow_fields(fid, {k for k, v in bound.items() if not is_name(v, "none")})
                card = self.known_card(bound["card"], scope) if "card" in bound else None
            else:
                bound, fields = {}, None
                arg = c.args[0].value if c.args else None
                card = scope.events.get(arg.text) if isinstance(arg, ast.NameRef) else \
                    self.known_card(ast.Attr(obj=arg, name=ast.Name(text="card", span=c.span), span=c.span), scope) \
                    if is_name(arg, "event") else None
            if card is not None:
                summ = self.special(fid, card)
            written = {w[0] for w in summ.writes}
            kept = {k: v for k, v in bound.items() if k not in written}
            values = self._values(kept) | {(k, ("card", cid)) for k, v in kept.items()
                                           if (cid := self.known_card(v, scope)) is not None}
            rels = self._rels(kept, scope) if owner else frozenset()
            paid = any(self.is_paid(v, scope) for k, v in bound.items() if k == "card")
            passes = frozenset((k, p[0]) for k, v in kept.items() if (p := event_path(v)) is not None and len(p) == 1)
            for wid in summ.own_opens:
                w = self.m.windows[wid]
                rel = dict(rels).get(w.subject.text, "any") if w.subject is not None else "any"
                out.opens.add(OpenSite(wid, rel, fields, values, rels, paid=paid, chance=scope.chance, passes=passes))
            out.opens |= tagged(summ.opens, paid, scope.chance)
            out.state |= summ.state
            out.calls |= summ.calls
            out.deltas |= {(r, d, p or paid, w) for r, d, p, w in summ.deltas}
            out.resets |= summ.resets
            if summ.hooks:
                card = self.known_card(bound["card"], scope) if "card" in bound else None
                if card is not None:
                    self._add_hooks(out, card, paid, scope.chance)
        elif note.kind == "quantity":
            out.calls.add(note.target)


def _kin_test(e, name: str) -> bool:
    """Does `e` hold only if local `name` is the owner or of the owner's kingdom?"""
    if isinstance(e, ast.Compare) and e.op == "==":
        return {getattr(e.left, "text", None), getattr(e.right, "text", None)} == {"self", name} and \
            is_name(e.left, e.left.text) and is_name(e.right, e.right.text)
    if isinstance(e, ast.Call) and is_name(e.func, "same_kingdom") and len(e.args) == 2:
        return sorted(a.value.text if isinstance(a.value, ast.NameRef) else "" for a in e.args) == sorted(["self", name])
    if isinstance(e, ast.BoolOp) and e.op == "or":
        return all(_kin_test(x, name) for x in e.items)
    return False


def kin_names(test) -> set[str]:
    """The locals a condition pins to the owner's kingdom (`same_kingdom(self, t)`, `t == self or …`): a
    `reset_limit` of theirs reaches only heroes that can share it (pairs.py)."""
    out = set()
    for c in conjuncts(test):
        names = {x.text for x in walk_names(c)} - {"self"}
        out |= {n for n in names if _kin_test(c, n)}
    return out


def walk_names(e):
    if isinstance(e, ast.NameRef):
        yield e
    elif isinstance(e, ast.Compare):
        yield from walk_names(e.left)
        yield from walk_names(e.right)
    elif isinstance(e, ast.Call):
        for a in e.args:
            yield from walk_names(a.value)
    elif isinstance(e, ast.BoolOp):
        for x in e.items:
            yield from walk_names(x)
