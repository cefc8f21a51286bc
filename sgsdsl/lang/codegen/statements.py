"""Statements of the rules as Python statements."""

from __future__ import annotations

from .. import ast
from ..analysis import AttrNote
from .names import _safe


class Statements:
    """Mixed into FunctionWriter: the statements of a body."""

    # -- statements
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def block(self, b: ast.Block | None) -> None:
        if b is None or not b.stmts:
            self.emit("pass")
            return
        for s in b.stmts:
            self.stmt(s)

    def body(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.Stmt) -> None:  # noqa: C901
        n = self.m.analysis.refs
        match s:
            case ast.Let():
                py = n[s].py
                self.emit(f"{py} = {self.ex(s.value)}")
            case ast.Assign():
                self.assign(s)
            case ast.ExprStmt():
                self.emit(self.ex(s.expr))
            case ast.If():
                self.emit(f"if {self.ex(s.test)}:")
                self.nested(s.then)
                other = s.other
                while other is not None:
                    if len(other.stmts) == 1 and isinstance(other.stmts[0], ast.If):
                        inner = other.stmts[0]
                        self.emit(f"elif {self.ex(inner.test)}:")
                        self.nested(inner.then)
                        other = inner.other
                    else:
                        self.emit("else:")
                        self.nested(other)
                        other = None
            case ast.For():
                it = self.ex(s.iter)
                # iterate over a copy: the body may move the cards or kill the players it walks
                it = it if it.startswith(("list(", "[")) else f"list({it})"
                self.emit(f"for {n[s].py} in {it}:")
                self.nested(s.body)
            case ast.While():
                self.emit(f"while g.loop_guard({self.at(s)!r}) and {self.ex(s.test)}:")
                self.nested(s.body)
            case ast.Repeat():
                self.emit(f"for _ in g.rounds({self.ex(s.count)}, {self.at(s)!r}):")
                self.nested(s.body)
            case ast.Open():
                wid = _safe(n[s].py)
                self.opens.append(wid)
                # A window nothing listens to (g.watched: the windows with triggers, every window when the log
                # traces them) is not opened: its event is a variable, so there is nothing to evaluate either.
                event = self.ex(s.event) if s.event is not None else "ev"
                if s.event is None and self.in_flow:
                    self.emit(f"if (g.open({wid!r}, ev) if {wid!r} in g.watched else ev.cancelled):")
                    self.depth += 1
                    self.emit(self.stop())
                    self.depth -= 1
                elif event.isidentifier():
                    self.emit(f"if {wid!r} in g.watched:")
                    self.depth += 1
                    self.emit(f"g.open({wid!r}, {event})")
                    self.depth -= 1
                else:
                    self.emit(f"g.open({wid!r}, {event})")
            case ast.PhaseStmt():
                body = self.phase_fns.get(s)
                if body is not None:  # defined at the top of the flow, so that `extra_phase` can run it again
                    self.emit(f"if g.run_phase({n[s].py}, {body}) is T.STOP:")
                    self.depth += 1
                    self.emit("return")
                    self.depth -= 1
                else:
                    self.emit(f"if g.begin_phase({n[s].py}):")
                    self.nested(s.body)
            case ast.Later():
                # a local function over the current locals, run once the settlement under way is complete
                self.later_no += 1
                name = f"later_{self.later_no}"
                self.emit(f"def {name}():")
                in_phase, self.in_phase = self.in_phase, False
                self.nested(s.body)
                self.in_phase = in_phase
                self.emit(f"g.later({name})")
            case ast.Log():
                parts = ", ".join(repr(p) if isinstance(p, str) else self.ex(p) for p in s.parts)
                self.emit(f"g.say({parts})")
            case ast.Stop():
                self.emit(self.stop())
            case ast.Break():
                self.emit("break")
            case ast.Continue():
                self.emit("continue")
            case _:
                raise AssertionError(f"unhandled statement {type(s).__name__}")

    def stop(self) -> str:
        return "return T.STOP" if self.in_phase else "return"

    def nested(self, b: ast.Block | None) -> None:
        self.depth += 1
        self.block(b)
        self.depth -= 1

    def assign(self, s: ast.Assign) -> None:
        n = self.m.analysis.refs
        value = self.ex(s.value)
        tgt = s.target
        tt = self.m.analysis.type_of(tgt)
        vt = self.m.analysis.type_of(s.value)
        if s.op == "+=" and tt.startswith("list[") and not vt.startswith("list["):
            value = f"[{value}]"
        if isinstance(tgt, ast.Attr) and isinstance(n[tgt], AttrNote) and n[tgt].kind == "tag":
            obj, name = self.ex(tgt.obj), _safe(n[tgt].name)
            if s.op != "=":
                value = f"T.tag({obj}, {name!r}, {self.m.analysis.tag_defaults[tgt]}) {s.op[0]} {value}"
            self.emit(f"T.set_tag({obj}, {name!r}, {value})")
            return
        if isinstance(tgt, ast.Attr) and isinstance(n[tgt], AttrNote) and n[tgt].kind == "mark":
            obj = self.ex(tgt.obj)
            mark = _safe(n[tgt].name)
            if s.op == "=":
                self.emit(f"g.set_mark({obj}, {mark!r}, {value})")
            else:
                sign = "" if s.op == "+=" else "-"
                self.emit(f"g.add_mark({obj}, {mark!r}, {sign}{value})")
            return
        self.emit(f"{self.ex(tgt)} {s.op} {value}")

    def ret(self, e: ast.Expr) -> None:
        self.emit(f"return {self.ex(e)}")

    def source(self) -> str:
        if len(self.lines) == 2:
            self.lines.append("    pass")
        return "\n".join(self.lines)
