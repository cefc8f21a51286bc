"""Family 3, definitions that run into themselves (SGS324 flows, SGS325 quantities).

A flow that calls itself, or a ring of flows that call each other, on every path and before anything
could end it, never returns: each call starts the next. A quantity whose value needs itself, directly or
through other quantities, is never worked out. Both are stopped at run time by the depth guard; here
they are found before a game is played.

The checks are conservative (a finding is certain, a miss is allowed). A call counts only where it is
evaluated whenever the statement around it runs: not inside an `if`, a loop's body, a `phase` or a
`later`, not in the branches of `c then a else b`, after the first item of `and`/`or`, or in what a
filter, `least`/`most` or a choice's `where` evaluates per element. In a flow, only the statements up
to the first one that could end it or hand the table to other rules count: a `stop` anywhere in it, an
`open` (a skill there may cancel the event, end the turn or the game), a primitive action (it may open
windows, end the phase or the game), a choice that may find nothing (which abandons the settlement),
or a call of a flow that does any of these.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..lang import ast
from ..lang.analysis import CallNote
from ..lang.diagnostics import Note
from ..lang.tree import children, is_name, walk
from .facts import Facts
from .findings import finding as make


def eager(e) -> Iterator:
    """The nodes of an expression that are evaluated whenever it is."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, ast.Cond):
            stack.append(n.test)
        elif isinstance(n, ast.BoolOp):
            stack.append(n.items[0])
        elif isinstance(n, (ast.Filter, ast.Extreme)):
            stack.append(n.source)
        elif isinstance(n, ast.Choose):
            stack.extend(x for x in (n.who, n.lo, n.hi, n.source) if x is not None)
        else:
            stack.extend(children(n))


def _stmt_exprs(s) -> list:
    """What a statement evaluates whenever it runs (not the blocks it may run)."""
    match s:
        case ast.Let() | ast.Assign():
            return [s.value] + ([s.target] if isinstance(s, ast.Assign) else [])
        case ast.ExprStmt():
            return [s.expr]
        case ast.If() | ast.While():
            return [s.test]
        case ast.For():
            return [s.iter]
        case ast.Repeat():
            return [s.count]
        case ast.Open():
            return [s.event] if s.event is not None else []
        case ast.Log():
            return [p for p in s.parts if not isinstance(p, str)]
    return []


# ---- SGS324: flows -------------------------------------------------------------------------------


def _flow_call(facts: Facts, n) -> str | None:
    note = facts.m.analysis.refs.get(n) if isinstance(n, ast.Call) else None
    return note.target if isinstance(note, CallNote) and note.kind in ("flow", "run") else None


def _hazard(facts: Facts, n, inert: set[str]) -> bool:
    """Could this node end the flow around it, or hand the table to other rules?"""
    if isinstance(n, (ast.Stop, ast.Open, ast.PhaseStmt, ast.Later)):
        return True
    if isinstance(n, ast.Choose):
        return n.kind != "option"
    if isinstance(n, ast.Call):
        note = facts.m.analysis.refs.get(n)
        if isinstance(note, CallNote) and note.kind == "func":
            from ..lang.surface import FUNCS

            f = FUNCS.get(n.func.text) if isinstance(n.func, ast.NameRef) else None
            return f is None or f.kind == "primitive"
        fid = _flow_call(facts, n)
        return fid is not None and fid not in inert
    return False


def _inert_flows(facts: Facts) -> set[str]:
    """Flows that can neither end early nor hand the table to other rules: none of their own nodes could,
    and they call only such flows (the largest such set: a flow that only calls itself is inert)."""
    flows = facts.m.unique(facts.m.flows)
    everything = {f.id.text for f in flows}
    callers: dict[str, set[str]] = {}
    unsafe = []
    for f in flows:
        own = False
        for n in walk(f.body):
            callee = _flow_call(facts, n)
            if callee is not None:
                callers.setdefault(callee, set()).add(f.id.text)
            elif not own and _hazard(facts, n, everything):
                own = True
        if own:
            unsafe.append(f.id.text)
    inert = set(everything)
    while unsafe:  # a caller of an unsafe flow is unsafe
        fid = unsafe.pop()
        if fid in inert:
            inert.discard(fid)
            unsafe.extend(callers.get(fid, ()))
    return inert


def _must_calls(facts: Facts, f: ast.FlowDecl, inert: set[str]) -> list[tuple[str, object]]:
    """(flow id, call) of the calls a flow makes on every path before anything could end it."""
    out = []
    for s in f.body.stmts:
        exprs = _stmt_exprs(s)
        calls = [n for e in exprs for n in eager(e) if _flow_call(facts, n) is not None]
        # what runs before the calls: their arguments and the rest of the statement's own expressions
        before = [n for e in exprs for n in walk(e) if not (isinstance(n, ast.Call) and n in calls)]
        if any(_hazard(facts, n, inert) for n in before):
            break
        out += [(_flow_call(facts, c), c) for c in calls]
        if any(_hazard(facts, n, inert) for n in walk(s)):
            break
    return out


def strongly_connected(nodes: list, edges: dict) -> list[list]:
    """The strongly connected parts of a graph (node -> [(node, how)]), by Tarjan's algorithm without
    recursion (a designer's file may chain thousands of flows)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    out = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w, _ in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(edges.get(w, ()))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    part = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        part.append(w)
                        if w == v:
                            break
                    out.append(part)
    return out


def _rings(order: list, edges: dict) -> list[list]:
    """Every edge of a node to itself, then one simple cycle per strongly connected part of the rest of the
    graph (node -> [(node, how)]), each starting at the first of its nodes in `order`: [(node, how it
    reaches the next)]."""
    out = [[(a, how)] for a in order for b, how in edges.get(a, ()) if b == a]
    edges = {a: [(b, how) for b, how in out_ if b != a] for a, out_ in edges.items()}
    rank = {n: i for i, n in enumerate(order)}
    for part in strongly_connected(order, edges):
        if len(part) < 2:
            continue
        members = set(part)
        start = min(part, key=rank.__getitem__)
        # breadth-first inside the part, from start back to itself
        prev: dict = {}
        frontier, found = [start], None
        while found is None and frontier:
            nxt = []
            for a in frontier:
                for b, how in edges.get(a, ()):
                    if b == start and found is None:
                        found = (a, how)
                    elif b in members and b not in prev and b != start:
                        prev[b] = (a, how)
                        nxt.append(b)
            frontier = nxt
        if found is None:  # cannot happen in a strongly connected part; never loop on it
            continue
        ring = [found]
        while ring[0][0] != start:
            ring.insert(0, prev[ring[0][0]])
        out.append(ring)  # (from, how) pairs: the edge from each node to the next
    return sorted(out, key=lambda ring: rank[ring[0][0]])


def flow_recursion(facts: Facts) -> list:
    m = facts.m
    flows = m.unique(m.flows)
    inert = _inert_flows(facts)
    edges = {f.id.text: _must_calls(facts, f, inert) for f in flows}
    by_id = {f.id.text: f for f in flows}
    order = sorted(by_id, key=lambda i: not facts.designer_file(by_id[i].span))
    out = []
    for ring in _rings(order, edges):
        names = [by_id[a].name.text for a, _ in ring]
        first = ring[0][1]
        if len(ring) == 1:
            msg = (f"flow {names[0]} calls itself before anything could end it: every call starts another, "
                   "and none returns")
        else:
            chain = " → ".join(names + names[:1])
            msg = (f"flows {chain} call each other before anything could end them: every call starts "
                   "another, and none returns")
        notes = [Note(how.span, f"flow {by_id[a].name.text} calls {by_id[_flow_call(facts, how)].name.text}")
                 for a, how in ring[1:]]
        out.append(make("SGS324", msg, first.span,
                        "at run time the depth guard stops the game with an error the first time it is called; "
                        "call it under a condition (`if`), or after a `stop` that can end the flow",
                        "none: seed 001 settles events; a settlement that only starts itself again is a rules bug",
                        notes=notes))
    return out


# ---- SGS325: quantities --------------------------------------------------------------------------


def _quantity_reads(facts: Facts, e) -> list[tuple[str, object]]:
    out = []
    for n in eager(e):
        note = facts.m.analysis.refs.get(n) if isinstance(n, ast.Call) else None
        if isinstance(note, CallNote) and note.kind == "quantity":
            out.append((note.target, n))
    return out


def _modifier_reads(facts: Facts, q: ast.QuantityDecl, mod: ast.Modify) -> list[tuple[str, object]]:
    """The quantities a `modify` of q reads whenever it applies to a value of q that a read of the same
    kind asks for: every read when its pattern matches any arguments; with `self` in the pattern, only a
    read of q itself that passes `self` where the pattern says `self` (it asks for the owner's value)."""
    if mod.when is None or facts.cond.truth(mod.when) is True:
        exprs = [mod.value] + ([mod.when] if mod.when is not None else [])
    else:
        exprs = [mod.when]
    reads = [r for e in exprs for r in _quantity_reads(facts, e)]
    mine = [i for i, a in enumerate(mod.args) if a.text == "self"]
    if not mine:
        return reads
    out = []
    for qid, call in reads:
        args = facts.m.analysis.refs[call].args
        if qid == q.id.text and all(i < len(args) and args[i] is not None and is_name(args[i], "self")
                                    for i in mine):
            out.append((qid, call))
    return out


def quantity_recursion(facts: Facts) -> list:
    m = facts.m
    quantities = m.unique(m.quantities)
    by_id = {q.id.text: q for q in quantities}
    edges: dict[str, list] = {}
    where: dict[int, str] = {}  # id(call) -> where the read is (for the message)
    for q in quantities:
        for e in (q.base, q.floor):
            if e is not None:
                for qid, call in _quantity_reads(facts, e):
                    edges.setdefault(q.id.text, []).append((qid, call))
                    where[id(call)] = f"quantity {q.name.text}"
    designer = set()
    for r in facts.live:
        if not isinstance(r.facet, ast.Modify):
            continue
        q = m.quantities.get(r.facet.quantity.text)
        if q is None:
            continue
        for qid, call in _modifier_reads(facts, q, r.facet):
            edges.setdefault(q.id.text, []).append((qid, call))
            where[id(call)] = f"the `modify` of {q.name.text} in {r.label()}"
            if r.designer:
                designer.add(q.id.text)
    order = sorted(by_id, key=lambda i: not (facts.designer_file(by_id[i].span) or i in designer))
    out = []
    for ring in _rings(order, edges):
        names = [by_id[a].name.text for a, _ in ring]
        first = ring[0][1]
        if len(ring) == 1 and where[id(first)].startswith("quantity "):
            msg = f"quantity {names[0]} reads itself, whenever it is read: working it out never ends"
        elif len(ring) == 1:
            msg = (f"{where[id(first)]} reads {names[0]} again for the owner, whenever it applies: working "
                   f"{names[0]} out never ends")
        else:
            chain = " → ".join(names + names[:1])
            msg = f"quantities {chain} read each other, whenever they are read: working one out never ends"
        notes = [Note(how.span, f"{where[id(how)]} reads {by_id[facts.m.analysis.refs[how].target].name.text}")
                 for _, how in ring[1:]]
        fix = ("a `modify` changes the value it is given: write `+= 1` rather than reading the quantity again"
               if where[id(first)].startswith("the `modify`") else
               "read it only under a condition (`if … then … else …`) that ends, or define it by other values")
        out.append(make("SGS325", msg, first.span,
                        f"at run time the game stops with a runaway error the first time it is read; {fix}",
                        "none: seed 001 settles events; a value defined by itself is a rules bug", notes=notes))
    return out


def check(facts: Facts) -> list:
    return flow_recursion(facts) + quantity_recursion(facts)
