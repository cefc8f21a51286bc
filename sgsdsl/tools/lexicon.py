"""The language's words, read from grammar.lark: what highlighters, the formatter and the
language server know about keywords, so that none of them keeps a list of its own.

A keyword is a quoted literal of the grammar that looks like a name ("skill", "锁定技").
The lexer is contextual, so most keywords are keywords only where the grammar expects
them (`card` starts a declaration, but `event.card` is a field): the tables below say
which words exist and what kind they are, not how each occurrence lexes.
"""

from __future__ import annotations

import functools
import re

import attrs

WORD = re.compile(r"[^\W\d]\w*\Z")


@attrs.frozen
class Lexicon:
    declarations: tuple[str, ...]  # first word of a top-level declaration rule (`*_decl`): hero, skill …
    modifiers: tuple[str, ...]  # skill types: locked, 锁定技 …
    operators: tuple[str, ...]  # word operators: and, or, not, in, is
    keywords: tuple[str, ...]  # every other keyword
    terminals: dict[str, str]  # named terminals of the grammar -> their regular expressions (NAME, STRING …)

    @property
    def all(self) -> tuple[str, ...]:
        return self.declarations + self.modifiers + self.operators + self.keywords


def _rule_name(origin) -> str:
    name = origin.name
    return getattr(name, "value", name)


_OPERATOR_RULE = re.compile(r"_op$|^(__)?(or|and|not)_expr")


@functools.cache
def lexicon() -> Lexicon:
    from ..lang.parser import lark_parser

    p = lark_parser()
    literal = {t.name: t.pattern.value for t in p.terminals if t.pattern.type == "str"}
    words_in: dict[str, list[str]] = {}  # rule -> word literals, in grammar order
    first_in: dict[str, set[str]] = {}
    for r in p.rules:
        rule = _rule_name(r.origin)
        for i, sym in enumerate(r.expansion):
            w = literal.get(sym.name)
            if w is not None and WORD.match(w):
                words_in.setdefault(rule, []).append(w)
                if i == 0:
                    first_in.setdefault(rule, set()).add(w)
    every = {w for ws in words_in.values() for w in ws}
    decl = {w for rule, ws in first_in.items() if rule.endswith("_decl") for w in ws}
    mods = set(words_in.get("skill_type", ()))
    ops = {w for rule, ws in words_in.items() if _OPERATOR_RULE.search(rule) for w in ws}
    ops -= decl | mods
    rest = every - decl - mods - ops
    named = {t.name: t.pattern.value for t in p.terminals if t.pattern.type == "re"}
    return Lexicon(tuple(sorted(decl)), tuple(sorted(mods)), tuple(sorted(ops)), tuple(sorted(rest)), named)


@functools.cache
def _full_parser():
    """The compiler's parser (same tables, so the contextual lexer reads every word the same way), keeping
    every token in the tree."""
    from lark import Lark

    from ..lang.parser import GRAMMAR, lark_parser

    opts = dict(lark_parser().options.options)
    opts.update(keep_all_tokens=True, propagate_positions=False, cache=False)
    return Lark(GRAMMAR.read_text(encoding="utf-8"), **opts)


@attrs.frozen
class Tok:
    """One token of a file with the grammar rule it belongs to (`call`, `hero_decl` …)."""

    text: str
    type: str  # the grammar's terminal name; keywords and punctuation have generated names
    rule: str
    line: int  # 1-based
    col: int  # 1-based
    start: int  # offset in the text
    end: int

    @property
    def keyword(self) -> bool:
        return self.type not in lexicon().terminals and bool(WORD.match(self.text))


def _keyword_as_name(e) -> bool:
    """Where the grammar wants a name and the lexer read a keyword (a field named `card`), read a name, as the
    compiler's parser does; any other error stands."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    if not isinstance(e, UnexpectedToken) or not WORD.match(str(e.token)) or "NAME" not in e.interactive_parser.accepts():
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(e.token), e.token))
    return True


def full_tree(text: str):
    """The parse tree with every token kept (keywords and punctuation too), without spans of rules."""
    return _full_parser().parse(text, start="start", on_error=_keyword_as_name)


def tokens(text: str) -> list[Tok]:
    """Every token of a file that parses (comments excepted), in order. Raises lark's UnexpectedInput otherwise:
    callers that report errors parse with parser.parse first."""
    from lark import Token, Tree

    out: list[Tok] = []
    stack = [full_tree(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            continue
        for child in reversed(node.children):
            if isinstance(child, Tree):  # (children may be None: an optional part left out)
                stack.append(child)
        for child in node.children:
            if isinstance(child, Token):
                out.append(Tok(str(child), child.type, _rule_name_of(node), child.line, child.column,
                               child.start_pos, child.end_pos))
    out.sort(key=lambda t: t.start)
    return out


def _rule_name_of(tree) -> str:
    return getattr(tree.data, "value", tree.data)


COMMENT = re.compile(r"#[^\n]*")


def comments(text: str, toks: list[Tok]) -> list[tuple[int, int]]:
    """(start, end) of each comment: whatever is not whitespace between two tokens."""
    out, pos = [], 0
    for t in [*toks, None]:
        end = t.start if t is not None else len(text)
        out.extend(m.span() for m in COMMENT.finditer(text, pos, end))
        if t is not None:
            pos = t.end
    return out
