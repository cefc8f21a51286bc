"""Checking statements: blocks, assignments, loops, windows opened."""

from __future__ import annotations

from .. import ast
from ..analysis import AttrNote, LocalNote, Ref
from ..diagnostics import suggest
from ..surface import (
    CONSTS,
    CONTEXT_NAMES,
)
from .types import MAX_LOOPS, Env, _mangle, _null, _show, compatible, elem, is_list, strip


class Statements:
    """Mixed into the Checker: each statement of a body."""

    # ---- statements
    def block(self, b: ast.Block | None, env: Env) -> None:
        if b is None:
            return
        env.push()
        for s in b.stmts:
            self.stmt(s, env)
        env.pop()

    def stmt(self, s: ast.Stmt, env: Env) -> None:  # noqa: C901
        match s:
            case ast.Let():
                t = self.expr(s.value, env)
                py = _mangle(s.name.text, self.locals_taken)
                self.note(s, LocalNote(py))
                env.scope[-1][s.name.text] = ("any" if t == "none" else t, py)
            case ast.Assign():
                self.assign(s, env)
            case ast.ExprStmt():
                if not isinstance(s.expr, ast.Call):
                    self.err("SGS203", "an expression on its own does nothing", s.span,
                             help="call a primitive or a flow, or assign with `=`")
                self.expr(s.expr, env)
            case ast.If():
                self.expr(s.test, env)
                with self.guards(env) as guard:
                    guard(s.test)
                    self.block(s.then, env)
                with self.guards(env):
                    env.guarded.update(_null(s.test))
                    self.block(s.other, env)
            case ast.For():
                t = self.expr(s.iter, env)
                if not is_list(t) and t not in ("any", "error"):
                    self.err("SGS201", f"`for` walks a list, not {_show(t)}", s.iter.span)
                env.push()
                py = _mangle(s.var.text, self.locals_taken)
                self.note(s, LocalNote(py))
                env.scope[-1][s.var.text] = (strip(elem(t)), py)
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
                env.pop()
            case ast.While():
                self.expr(s.test, env)
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
            case ast.Repeat():
                self.want(s.count, env, "int", "a repeat count")
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
            case ast.Open():
                self.open(s, env)
            case ast.Later():
                if env.loops:
                    self.err("SGS204", "`later` cannot sit in a loop: it would capture the loop's last values", s.span)
                self.block(s.body, env)
            case ast.PhaseStmt():
                if env.flow_event is None:
                    self.err("SGS204", "`phase` belongs in a flow", s.span)
                sym = self.m.values.get(s.phase.text)
                if sym is None or sym.type != "phase":
                    self.err("SGS101", f"'{s.phase.text}' is not a value of `enum phase`", s.phase.span,
                             help=suggest(s.phase.text, [k for k, v in self.m.values.items() if v.type == "phase"]))
                else:
                    self.note(s, Ref(sym.py))
                self.block(s.body, env)
            case ast.Log():
                for p in s.parts:
                    if isinstance(p, ast.Expr):
                        self.expr(p, env)
            case ast.Break() | ast.Continue():
                if env.loops == 0:
                    self.err("SGS204", f"`{'break' if isinstance(s, ast.Break) else 'continue'}` outside a loop", s.span,
                             help="`break` and `continue` belong in `for`, `while` and `repeat`; `stop` ends the effect")
            case ast.Stop():
                pass

    def enter_loop(self, s: ast.Stmt, env: Env) -> None:
        env.loops += 1
        if env.loops == MAX_LOOPS + 1:  # reported once, at the first loop too deep
            self.err("SGS001", f"loops nest more than {MAX_LOOPS} deep here", s.span,
                     help="move the inner loops into a flow of their own")

    def assign(self, s: ast.Assign, env: Env) -> None:
        vt = self.expr(s.value, env)
        tgt = s.target
        if isinstance(tgt, ast.NameRef):
            local = env.lookup(tgt.text)
            if local is None:
                msg, hint = self._not_a_variable(tgt.text)
                self.err("SGS203", msg, tgt.span, help=hint)
                return
            self.note(tgt, Ref(local[1]))
            tt = local[0]
            self.m.analysis.types[tgt] = tt  # codegen reads it: `xs += c` appends
        elif isinstance(tgt, ast.Attr):
            tt = self.expr(tgt, env)
            ot = strip(self.m.analysis.type_of(tgt.obj))
            note = self.m.analysis.refs.get(tgt)
            writable = ot in self.m.events or (ot == "player" and isinstance(note, AttrNote) and note.kind == "mark")
            writable = writable and not (isinstance(note, AttrNote) and note.kind == "pile")
            if not writable and tt != "error" and ot not in ("any", "error"):  # no cascade after an error
                self.err("SGS203", f"'{tgt.name.text}' of {_show(ot)} cannot be assigned", tgt.span,
                         help="event fields, counters and marks can be written; change players through primitives")
                return
        else:
            self.err("SGS203", "only variables, event fields, counters and marks can be assigned", tgt.span)
            return
        if s.op in ("+=", "-="):
            if not (compatible(tt, "int") or (s.op == "+=" and is_list(tt))):
                self.err("SGS201", f"'{s.op}' needs a number{' or a list' if s.op == '+=' else ''}, not {_show(tt)}",
                         s.span, help="it changes a number in place (and `+=` appends to a list); players change "
                         "through primitives and flows")
                return  # one mistake, one message: the value's type is moot
        if not compatible(vt, tt) and not (s.op == "+=" and is_list(tt) and compatible(vt, elem(tt))):
            self.err("SGS201", f"cannot assign {_show(vt)} to {_show(tt)}", s.value.span)

    def _not_a_variable(self, n: str) -> tuple[str, str]:
        """Message and help for an assignment to a name that no `let` declared."""
        if n == "event":
            return "`event` cannot be replaced", "write its fields instead, e.g. `event.amount += 1`"
        if n in CONTEXT_NAMES:
            return f"`{n}` cannot be assigned", f"`{n}` is {CONTEXT_NAMES[n]}; keep values of your own in `let` variables"
        if n in CONSTS or n in self.m.values:
            return f"'{n}' is a name of the rules, not a variable", "keep your own values in `let` variables"
        return f"'{n}' is not a variable", f"declare it first with `let {n} = …`"

    def open(self, s: ast.Open, env: Env) -> None:
        w = self.m.windows.get(s.window.text)
        if w is None:
            self.err("SGS104", f"unknown window '{s.window.text}'", s.window.span,
                     help=suggest(s.window.text, self.m.windows))
            if s.event is not None:
                self.expr(s.event, env)
            return
        self.visible(w, s.window.span, f"window '{s.window.text}'")
        self.note(s, Ref(w.id.text))
        if s.event is not None:
            t = self.expr(s.event, env)
            if strip(t) != w.event.text and t not in ("any", "error"):
                self.err("SGS205", f"window '{w.name.text}' carries a '{w.event.text}' event, not {_show(t)}",
                         s.event.span)
        elif env.flow_event is None and env.event is None:
            self.err("SGS204", "`open` outside a flow needs `with <event>`", s.span)
        elif (env.flow_event or env.event) != w.event.text:
            self.err("SGS205", f"window '{w.name.text}' carries a '{w.event.text}' event but this flow's event is "
                     f"'{env.flow_event or env.event}'", s.window.span, help="write `open … with <event>`")
