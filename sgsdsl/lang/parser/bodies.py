"""Builders of rule bodies: statements and expressions, and text interpolation."""

from __future__ import annotations

import re

from lark import Token, v_args

from .. import ast
from ..diagnostics import Span
from .base import _tok_span, parse_rank


class Bodies:
    """Builders (mixed into the parser's Transformer): Statements and expressions."""

    @v_args(meta=True)
    def block(self, meta, c):
        return ast.Block(stmts=tuple(c), span=self.sp(meta))

    body = block

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return ast.Let(name=self.nm(c[0]), value=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def expr_stmt(self, meta, c):
        target, op, value = c
        if op is None:
            return ast.ExprStmt(expr=target, span=self.sp(meta))
        return ast.Assign(target=target, op=op, value=value, span=self.sp(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        test, then, other = c
        if isinstance(other, ast.If):
            other = ast.Block(stmts=(other,), span=other.span)
        return ast.If(test=test, then=then, other=other, span=self.sp(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return ast.For(var=self.nm(c[0]), iter=c[1], body=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return ast.While(test=c[0], body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, c):
        return ast.Repeat(count=c[0], body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def open_stmt(self, meta, c):
        return ast.Open(window=self.nm(c[0]), event=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def phase_stmt(self, meta, c):
        return ast.PhaseStmt(phase=self.nm(c[0]), body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def later_stmt(self, meta, c):
        return ast.Later(body=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def log_stmt(self, meta, c):
        tok = c[0]
        text = self.s(tok)
        return ast.Log(text=text, parts=tuple(self.interpolate(tok, text)), span=self.sp(meta))

    @v_args(meta=True)
    def stop_stmt(self, meta, c):
        return ast.Stop(span=self.sp(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return ast.Break(span=self.sp(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, c):
        return ast.Continue(span=self.sp(meta))

    # -- expressions
    @v_args(meta=True)
    def cond(self, meta, c):
        return ast.Cond(test=c[0], then=c[1], other=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def filter(self, meta, c):
        return ast.Filter(source=c[0], pred=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def filter_named(self, meta, c):
        return ast.Filter(source=c[0], binder=self.nm(c[1]), pred=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def least(self, meta, c):
        return ast.Extreme(source=c[0], key=c[1], most=False, span=self.sp(meta))

    @v_args(meta=True)
    def most(self, meta, c):
        return ast.Extreme(source=c[0], key=c[1], most=True, span=self.sp(meta))

    @v_args(meta=True)
    def or_expr(self, meta, c):
        return ast.BoolOp(op="or", items=tuple(c), span=self.sp(meta))

    @v_args(meta=True)
    def and_expr(self, meta, c):
        return ast.BoolOp(op="and", items=tuple(c), span=self.sp(meta))

    @v_args(meta=True)
    def not_(self, meta, c):
        return ast.Not(operand=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def comparison(self, meta, c):
        return ast.Compare(op=c[1], left=c[0], right=c[2], span=self.sp(meta))

    def comp_op(self, c):
        return " ".join(str(t) for t in c)

    def _binary(self, meta, c):
        left = c[0]
        for i in range(1, len(c), 2):
            right = c[i + 1]
            span = Span(self.path, left.span.line, left.span.col, right.span.end_line, right.span.end_col)
            left = ast.BinOp(op=c[i], left=left, right=right, span=span)
        return left

    sum = v_args(meta=True)(_binary)
    product = v_args(meta=True)(_binary)

    def add_op(self, c):
        return str(c[0])

    mul_op = add_op

    @v_args(meta=True)
    def neg(self, meta, c):
        return ast.Neg(operand=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def attr(self, meta, c):
        return ast.Attr(obj=c[0], name=self.nm(c[1]), span=self.sp(meta))

    @v_args(meta=True)
    def call(self, meta, c):
        return ast.Call(func=c[0], args=tuple(a for a in c[1:] if a is not None), span=self.sp(meta))

    @v_args(meta=True)
    def index(self, meta, c):
        return ast.Index(obj=c[0], index=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return ast.NameRef(text=str(c[0]), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def int(self, meta, c):
        return ast.IntLit(value=self.num(c[0], "a number in an expression"), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def string(self, meta, c):
        return ast.StrLit(value=self.s(c[0]), span=_tok_span(self.path, c[0]))

    def card_lit(self, c):
        sr, name = c
        a, b = _tok_span(self.path, sr), _tok_span(self.path, name)
        return ast.CardLit(suit=str(sr)[0], rank=parse_rank(str(sr)[1:]), name=self.nm(name),
                           span=Span(self.path, a.line, a.col, b.end_line, b.end_col))

    @v_args(meta=True)
    def suit(self, meta, c):
        return ast.SuitLit(value=str(c[0]), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def list(self, meta, c):
        return ast.ListLit(items=tuple(x for x in c if x is not None), span=self.sp(meta))

    @v_args(meta=True)
    def ask(self, meta, c):
        text = self.s(c[1])
        return ast.Ask(who=c[0], prompt=text, parts=self._prompt_parts(c[1], text), span=self.sp(meta))

    def _prompt_parts(self, tok, text: str) -> tuple:
        """A prompt may interpolate `{expr}` like a log line (「发动【{s}】？」); plain text stays plain."""
        parts = tuple(self.interpolate(tok, text))
        return parts if any(not isinstance(x, str) for x in parts) else ()

    @v_args(meta=True)
    def new(self, meta, c):
        return ast.New(event=self.nm(c[0]), args=tuple(a for a in c[1:] if a is not None), span=self.sp(meta))

    @v_args(meta=True)
    def pos_arg(self, meta, c):
        return ast.Arg(name=None, value=c[0])

    @v_args(meta=True)
    def kw_arg(self, meta, c):
        return ast.Arg(name=self.nm(c[0]), value=c[1])

    @v_args(meta=True)
    def choose(self, meta, c):
        who, prompt, kind, cnt, source, where, together = c
        lo, hi = cnt if cnt is not None else (None, None)
        text = self.s(prompt) if prompt else None
        return ast.Choose(who=who, prompt=text, kind=kind, lo=lo, hi=hi, source=source, where=where,
                          parts=self._prompt_parts(prompt, text) if prompt else (), span=self.sp(meta),
                          together=together)

    def choose_kind(self, c):
        return str(c[0])


    def interpolate(self, tok: Token, text: str) -> list:
        """Split a log string into literal text and `{expr}` parts (each parsed by `sub_expr`)."""
        parts: list = []
        pos = 0
        for m in _INTERP.finditer(text):
            if m.start() > pos:
                parts.append(text[pos:m.start()])
            # Columns inside the string: approximate (escapes shift them) but on the right line.
            col = (tok.column or 0) + 1 + m.start(1)
            parts.append(self.sub_expr(m.group(1), tok.line or 0, col))
            pos = m.end()
        if pos < len(text):
            parts.append(text[pos:])
        return parts


_INTERP = re.compile(r"\{([^{}]*)\}")
