"""Family 5: event-field misuse.

A field read at a window whose event does not carry it is a compile error (SGS107, from the
type checker). `explain()` re-reports those errors in `check` with the windows whose event
does carry the field, instead of adding a second diagnostic.

SGS341: a rule writes an event field at a window after which nothing reads it: not the flow
that opened the window (in the statements after the `open`, loops included), not a rule at
that window or a later one of the same flow, not the caller that gets the event back. The
classic case: `event.amount += 1` at 受到伤害后, after the damage was dealt; and `event.cancelled =
true` there, which stops a flow that has nothing left to do.
"""

from __future__ import annotations

import re

import attrs

from ..lang import ast
from ..lang.diagnostics import Diagnostic, Note
from ..lang.tree import event_path, is_name, walk_of
from .facts import Facts
from .findings import finding as make
from .findings import together

ALL = "*"  # the event escapes: anything may read it later
# A window whose rule sets event.cancelled stops its flow there (the generated `open` returns): the write
# takes effect when some statement still follows the window, which every statement "reads" for this.
STOPS = "cancelled"


def explain(build, diags: list[Diagnostic]) -> list[Diagnostic]:
    """The build's diagnostics, with each SGS107 told where the field does exist."""
    m = build.model
    out = []
    for d in diags:
        got = re.search(r"event '(\w+)'.*has no field '(\w+)'", d.message) if d.code == "SGS107" else None
        if got is None or not m.events:
            out.append(d)
            continue
        have, field = got.group(1), got.group(2)
        carriers = []
        for ev in m.unique(m.events):
            for f in ev.fields:
                if f.name.text == field:
                    carriers.append((ev, f))
        notes = list(d.notes)
        extra = []
        for ev, f in carriers:
            ws = [w.name.text for w in m.unique(m.windows) if w.event.text == ev.name.text]
            extra.append(f"event '{ev.name.text}' carries '{field}'" + (f" (at {'、'.join(ws)})" if ws else ""))
            notes.append(Note(f.span, f"'{field}' of event '{ev.name.text}' is declared here"))
        here = m.events.get(have)
        if here is not None:
            extra.append(f"at this window `event` is a '{have}' event")
        if not carriers:
            extra.append(f"no event carries '{field}'")
        help = "; ".join(x for x in [d.help] + extra if x)
        out.append(attrs.evolve(d, help=help, notes=tuple(notes)))
    return out


# ---- SGS341 --------------------------------------------------------------------------------


def _reads(node) -> set[str]:
    out = set()
    for n in walk_of(node, (ast.Attr, ast.Call, ast.New, ast.Open)):
        if isinstance(n, ast.Attr):
            p = event_path(n)
            if p is not None:
                out.add(p[0])
        elif isinstance(n, (ast.Call, ast.New)):
            if any(is_name(a.value, "event") for a in n.args):
                out.add(ALL)
        elif isinstance(n, ast.Open) and n.event is not None and is_name(n.event, "event"):
            out.add(ALL)
    return out


class _FlowReads:
    """For each `open` of a flow's own event: the fields read after it."""

    def __init__(self, facts: Facts, window_reads: dict[str, set[str]]):
        self.facts = facts
        self.window_reads = window_reads
        self.after: dict[int, tuple] = {}  # id(Open) -> (Open, reads after it)

    def stmt_reads(self, s) -> set[str]:
        out = _reads(s)
        for n in walk_of(s, (ast.Open,)):
            if isinstance(n, ast.Open) and (n.event is None or is_name(n.event, "event")):
                w = self.facts.m.windows.get(n.window.text)
                if w is not None:
                    out |= self.window_reads.get(w.id.text, set())
        return out

    def run(self, stmts, after: set[str]) -> set[str]:
        cur = set(after)
        for s in reversed(stmts):
            match s:
                case ast.Open() if s.event is None or is_name(s.event, "event"):
                    self.after[id(s)] = (s, set(cur))
                    cur |= self.stmt_reads(s)
                case ast.If():
                    a = self.run(s.then.stmts, cur)
                    b = self.run(s.other.stmts, cur) if s.other is not None else set()
                    cur = cur | a | b | _reads(s.test)
                case ast.For() | ast.While() | ast.Repeat():
                    head = s.iter if isinstance(s, ast.For) else s.test if isinstance(s, ast.While) else s.count
                    whole = self.stmt_reads(s.body) | _reads(head) | ({STOPS} if s.body.stmts else set())
                    self.run(s.body.stmts, cur | whole)
                    cur |= whole
                case ast.PhaseStmt() | ast.Later():
                    cur |= self.run(s.body.stmts, cur)
                case _:
                    cur |= self.stmt_reads(s)
            cur.add(STOPS)  # (after an open records what follows it: itself does not)
        return cur


def _caller_reads(facts: Facts) -> dict[str, set[str]]:
    """flow id -> fields its callers read on the event it returns."""
    m = facts.m
    out: dict[str, set[str]] = {}
    roots = [f.body for f in m.unique(m.flows)] + list(m.unique(m.skills)) + list(m.unique(m.cards)) + \
        list(m.unique(m.modes))
    for root in roots:
        for n in walk_of(root, (ast.Attr, ast.Let, ast.Assign, ast.Arg)):
            if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Call):
                f = _flow_of(facts, n.obj)
                if f is not None:
                    out.setdefault(f, set()).add(n.name.text)
            elif isinstance(n, (ast.Let, ast.Assign)) and isinstance(n.value, ast.Call):
                f = _flow_of(facts, n.value)
                if f is not None:
                    out.setdefault(f, set()).add(ALL)
            elif isinstance(n, ast.Arg) and isinstance(n.value, ast.Call):
                f = _flow_of(facts, n.value)
                if f is not None:
                    out.setdefault(f, set()).add(ALL)
    return out


def _flow_of(facts: Facts, c: ast.Call) -> str | None:
    if isinstance(c.func, ast.NameRef) and c.func.text in facts.m.flows:
        return facts.m.flows[c.func.text].id.text
    return None


def check(facts: Facts) -> list:
    m = facts.m
    window_reads: dict[str, set[str]] = {}
    for r in facts.rules:
        for w in r.windows:
            window_reads.setdefault(w.id.text, set()).update(r.when_reads | r.body.reads)
    callers = _caller_reads(facts)
    sites: dict[str, list] = {}  # window id -> [(flow, Open, reads after)]
    unknown: set[str] = set()
    for f in m.unique(m.flows):
        fr = _FlowReads(facts, window_reads)
        tail = set(callers.get(f.id.text, set()))
        if f.result is not None:
            tail.add(f.result.text)
        fr.run(f.body.stmts, tail)
        for o, after in fr.after.values():
            w = m.windows.get(o.window.text)
            if w is not None:
                sites.setdefault(w.id.text, []).append((f, o, after))
    flow_bodies = {id(f.body) for f in m.unique(m.flows)}
    roots = [f.body for f in m.unique(m.flows)] + list(m.unique(m.skills)) + list(m.unique(m.cards)) + \
        list(m.unique(m.modes))
    for root in roots:
        own_ok = id(root) in flow_bodies
        for n in walk_of(root, (ast.Open,)):
            if isinstance(n, ast.Open) and not (own_ok and (n.event is None or is_name(n.event, "event"))):
                w = m.windows.get(n.window.text)
                if w is not None:
                    unknown.add(w.id.text)
    for moved in (facts.az.moved, facts.az.moving):  # opened by the engine: whatever reads them is not a flow
        if moved is not None:
            unknown.add(moved)
    out = []
    for r in facts.rules:
        if r.kind != "trigger":
            continue
        for field, op, _value, stmt in r.body.writes:
            for w in r.windows:
                wid = w.id.text
                if wid in unknown or wid not in sites:
                    continue
                others = set()
                for x in facts.by_window.get(wid, ()):
                    if x is not r and together(facts, r, x, w):
                        others |= x.when_reads | x.body.reads
                if any(field in after or ALL in after for _, _, after in sites[wid]) or field in others \
                        or ALL in others:
                    continue
                flow, o, _ = sites[wid][0]
                if field == STOPS:
                    why = (f"cancelling stops the flow {flow.name.text} after {w.name.text}, but nothing of it follows "
                           f"that window and no caller reads event.cancelled: the write changes nothing. Cancel at an "
                           f"earlier window")
                else:
                    why = (f"the flow {flow.name.text} has used event.{field} before it opens {w.name.text}, and no "
                           f"rule at that window or later reads it: the write changes nothing. Write it at an earlier "
                           f"window")
                out.append(make(
                    "SGS341", f"{r.label()} writes event.{field} at {w.name.text}, but nothing reads it after "
                    f"that window", stmt.span, why,
                    "none: seed 001 fixes the timings; this write simply comes after the step that uses the value",
                    notes=[Note(o.span, f"flow {flow.name.text} opens {w.name.text} here")], rules=(r,),
                    window=w))
    return out
