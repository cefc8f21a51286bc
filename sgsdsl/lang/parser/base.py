"""The builders' shared base: the lark parser, tokens read as strings, names, spans and numbers."""

from __future__ import annotations

import ast as pyast
import functools
import re
import sys
import warnings
from pathlib import Path

from lark import Lark, Token, Transformer

from .. import ast
from ..diagnostics import CompileError, Diagnostic, Span
from ..limits import RANGES

GRAMMAR = Path(__file__).parent.parent / "grammar.lark"
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@functools.cache
def lark_parser() -> Lark:
    from ..cachedir import lark_cache_file

    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr"],
        cache=lark_cache_file(),  # building the LALR tables takes half a second; lark checks the file
    )


def _tok_span(path: str, t: Token) -> Span:
    return Span(path, t.line or 0, t.column or 0, t.end_line or t.line or 0, t.end_column or t.column or 0)


def parse_string_literal(raw: str) -> str:
    # Unknown escapes such as \q stay as written. Python warns about them, and the warning is an
    # error under `-W error`: the warning filters in force must not decide whether a file compiles.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pyast.literal_eval(raw)


_SURROGATE = re.compile("[\ud800-\udfff]")
_STRING_HELP = 'strings use "..." with escapes such as \\n, \\" and \\\\ (a backslash itself)'


def parse_rank(text: str) -> int:
    return RANKS.get(text) or int(text)


class BuilderBase(Transformer):
    """Lark tree -> ast nodes: what every builder reads tokens with."""


    def __init__(self, path: str):
        super().__init__()
        self.path = path

    # -- helpers
    def sp(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 0, 0, 0, 0)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def nm(self, t: Token) -> ast.Name:
        return ast.Name(text=str(t), span=_tok_span(self.path, t))

    def s(self, t: Token) -> str:
        try:
            text = parse_string_literal(str(t))
        except (ValueError, SyntaxError):
            what = "a NUL character" if "\x00" in t else "a bad escape sequence"
            raise CompileError([Diagnostic("SGS004", f"this string has {what}", _tok_span(self.path, t),
                                           help=_STRING_HELP)]) from None
        lone = _SURROGATE.search(text)
        if lone:  # half of a UTF-16 pair: no character, and no output (a log, JSON, a page) can hold it
            raise CompileError([Diagnostic("SGS004", f"this string has \\u{ord(lone.group()):04x}, half of a UTF-16 "
                                           "surrogate pair: it is not a character", _tok_span(self.path, t),
                                           help="write the character itself, or \\U and its 8-digit code point "
                                                "(\\U0001F600)")]) from None
        return text

    def __default_token__(self, token):
        # int() refuses digit strings longer than this limit; say so at the number, not in a traceback.
        limit = sys.get_int_max_str_digits()
        if token.type in ("INT", "HALF") and limit and len(token) > limit:
            raise CompileError([Diagnostic("SGS004", f"this number has {len(token)} digits, too many to read",
                                           _tok_span(self.path, token),
                                           help="docs/language.md, Limits, lists the range of every number")])
        return token

    def num(self, t: Token, what: str, value: int | None = None) -> int:
        """An integer written in the rules (`value` when the token is not simply read), inside the range
        the language documents for its place."""
        value = int(t) if value is None else value
        problem = RANGES[what].error(value)
        if problem is not None:
            raise CompileError([Diagnostic("SGS004", problem, _tok_span(self.path, t),
                                           help="docs/language.md, Limits, lists the range of every number")])
        return value
