"""Text -> syntax tree. Syntax errors become located diagnostics, never tracebacks.

The builders are split by what they build (declarations, skills, modes, scenario tests, bodies), each a
mixin of the one lark Transformer below; errors.py turns lark's exceptions into diagnostics.
"""

from __future__ import annotations

import attrs
from lark import Tree
from lark.exceptions import UnexpectedInput, VisitError

from .. import ast
from ..diagnostics import CompileError, Diagnostic, Span
from ..limits import LIST_ITEMS, MAX_DEPTH
from .base import GRAMMAR, BuilderBase, lark_parser, parse_rank, parse_string_literal  # noqa: F401 - the API
from .bodies import Bodies
from .declarations import Declarations
from .errors import _keyword_as_name, _syntax_diagnostic
from .modes import DecksAndModes
from .scenarios import ScenarioTests
from .skills import Skills


class _Builder(Declarations, Skills, DecksAndModes, ScenarioTests, Bodies, BuilderBase):
    """Lark tree -> ast nodes. One method per grammar rule or alias."""

    def sub_expr(self, src: str, line: int, col: int) -> ast.Expr:
        return parse_expr(src, self.path, line, col)


def parse_expr(src: str, path: str, line: int, col: int) -> ast.Expr:
    try:
        tree = lark_parser().parse(src, start="expr", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        span = Span(path, line, col - 1, line, col + len(src) + 1)
        raise CompileError([Diagnostic("SGS001", f"cannot parse '{{{src}}}' as an expression", span,
                                       help="log text interpolates expressions written as {expr}")]) from e
    try:
        _check_size(tree, path)
        return _shift(_transform(tree, path), line, col - 1)
    except CompileError as e:  # located inside the string: move the diagnostics to where it sits
        raise CompileError([attrs.evolve(d, span=_shift(d.span, line, col - 1)) for d in e.diagnostics]) from None


def _shift(node, line: int, dcol: int):
    """Move spans of an expression parsed out of a string to where the string sits."""
    if isinstance(node, Span):
        return Span(node.file, line, node.col + dcol, line, node.end_col + dcol)
    if isinstance(node, tuple):
        return tuple(_shift(x, line, dcol) for x in node)
    if attrs.has(type(node)):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, (Span, tuple)) or attrs.has(type(v)):
                changes[f.name] = _shift(v, line, dcol)
        return attrs.evolve(node, **changes)
    return node


# ---- syntax errors ---------------------------------------------------------------


def _check_size(tree: Tree, path: str) -> None:
    """Nesting and list lengths within the limits, checked before anything recurses over the tree."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        meta = node.meta
        line, col = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
        if depth > MAX_DEPTH:
            raise CompileError([Diagnostic("SGS001", f"this is nested more than {MAX_DEPTH} levels deep",
                                           Span(path, line, col, line, col + 1),
                                           help="split it up: name parts with `let`, or move them into a flow")])
        if node.data == "list" and len(node.children) > LIST_ITEMS:
            raise CompileError([Diagnostic("SGS001", f"this list has {len(node.children):,} items, more than "
                                           f"{LIST_ITEMS:,}", Span(path, line, col, line, col + 1),
                                           help="a rule needs no list this long: build it with `where` from "
                                                "the cards or players it picks from")])
        # `a + b + c + …` is one node here but becomes a chain of nested operations.
        step = max(1, len(node.children) // 2) if node.data in ("sum", "product") else 1
        stack.extend((c, depth + step) for c in node.children if isinstance(c, Tree))


def parse(text: str, path: str) -> ast.Module:
    """Parse one file. Raises CompileError with a located diagnostic on bad input."""
    try:
        tree = lark_parser().parse(text, start="start", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        raise CompileError([_syntax_diagnostic(path, text, e)]) from None
    _check_size(tree, path)
    return ast.Module(path=path, decls=tuple(_transform(tree, path)))


def _transform(tree: Tree, path: str):
    """The tree built into ast nodes; a diagnostic raised while building, at any depth, comes out as it is."""
    try:
        return _Builder(path).transform(tree)
    except VisitError as e:
        err, obj = e, e.obj
        while isinstance(err, VisitError):  # a log string's `{expr}` is parsed inside the outer transform
            err, obj = err.orig_exc, err.obj
        if isinstance(err, CompileError):
            raise err from None
        if isinstance(err, (ValueError, SyntaxError)):
            meta = getattr(obj, "meta", None)
            line = getattr(meta, "line", 1) if meta and not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if meta and not getattr(meta, "empty", True) else 1
            raise CompileError([Diagnostic("SGS004", f"malformed literal: {err}",
                                           Span(path, line, col, line, col + 1),
                                           help="strings use \"...\" with Python-style escapes")]) from None
        raise
