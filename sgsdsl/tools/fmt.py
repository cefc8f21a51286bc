"""`sgsdsl fmt`: one layout for rules files.

The formatter never moves a token to another line, so every `file:line` the compiler,
the log and the diagnostics print stays where it was, and the compiled tables do not
change. Within those lines it owns:

- indentation: two spaces per open bracket, counted from the line that opened it; a line
  that continues the item above (a clause on its own line, an `and …`) one level more,
  and two when it goes on inside an expression and opens the block of the statement begun
  above, so that the condition does not line up with the body;
- spacing: one space between words and around operators, none inside brackets, before
  `,` `:` `?` or a call's `(`, nor around `.` and `..`; a run of two or more spaces
  between two words is the designer's alignment (events.sgs lines up its columns) and is
  kept;
- trailing whitespace, tabs and the single newline at the end of the file.

It works on the token stream of the grammar (lexicon.tokens) and checks its own output:
the formatted text must lex to the same tokens, or it refuses.
"""

from __future__ import annotations

from pathlib import Path

import attrs
from lark import Token, Tree

from ..lang.diagnostics import CompileError, Diagnostic, SourceCache, Span
from ..lang.parser import parse
from .lexicon import COMMENT, WORD, full_tree

OPENERS = {"{": "}", "(": ")", "[": "]"}
CLOSERS = set(OPENERS.values())
INDENT = 2


@attrs.define
class _Tok:
    text: str
    type: str
    rule: str
    parent: int  # id of the tree node the token belongs to
    line: int
    start: int
    end: int
    gap: str = ""  # the whitespace before it on its line
    comment: bool = False
    leads: bool = True  # the first child of its node (`do` of a do-clause; not the `and` of an and-expression)


def _collect(tree: Tree) -> tuple[list[_Tok], dict[int, set[int]]]:
    """Tokens in order, and per node the offsets where its children start (where an item of it begins)."""
    toks: list[_Tok] = []
    starts: dict[int, set[int]] = {}

    def first(node) -> int | None:
        if node is None:  # an optional part left out
            return None
        if isinstance(node, Token):
            return node.start_pos
        for c in node.children:
            f = first(c)
            if f is not None:
                return f
        return None

    stack = [tree]
    while stack:
        node = stack.pop()
        rule = getattr(node.data, "value", node.data)
        starts[id(node)] = {f for f in map(first, node.children) if f is not None}
        for i, c in enumerate(c for c in node.children if c is not None):
            if isinstance(c, Token):
                toks.append(_Tok(str(c), c.type, rule, id(node), c.line, c.start_pos, c.end_pos, leads=i == 0))
            else:
                stack.append(c)
    toks.sort(key=lambda t: t.start)
    return toks, starts


def _space(a: _Tok, b: _Tok) -> bool:
    """Whether a space separates token a from the token b that follows it on a line."""
    if b.comment:
        return True
    if a.text in ("(", "[") or b.text in (")", "]", ",", ":", "?") and not b.comment:
        return False
    if a.text == "{":
        return b.text != "}"
    if b.text == "}":
        return True
    if "." in (a.text, b.text) or ".." in (a.text, b.text):
        return False
    if b.text == "(" and b.rule in ("call", "new", "modify"):
        return False
    if b.text == "[" and b.rule in ("index", "type"):
        return False
    if a.text == "-" and a.rule in ("neg", "neg_literal"):
        return False
    return True


def _gap(a: _Tok, b: _Tok) -> str:
    if not _space(a, b):
        return ""
    g = b.gap
    # a run of two or more spaces before a word, a string or a comment aligns it: kept; else one space
    aligned = b.comment or b.type == "STRING" or WORD.match(b.text) or b.text[0].isdigit() or b.text[0] in "♠♥♣♦"
    return g if aligned and len(g) >= 2 and "\t" not in g else " "


def format_text(text: str, path: str = "<text>") -> str:
    """The formatted text. Raises CompileError (a located diagnostic) when the text does not parse."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    parse(text, path)
    tree = full_tree(text)
    toks, item_starts = _collect(tree)
    root = id(tree)
    # comments are whatever non-blank text lies between tokens
    items: list[_Tok] = []
    pos = 0
    line_of = _line_index(text)
    for t in [*toks, None]:
        end = t.start if t is not None else len(text)
        for m in COMMENT.finditer(text, pos, end):
            items.append(_Tok(m.group(), "COMMENT", "", -1, line_of(m.start()), m.start(), m.end(), comment=True))
        if t is not None:
            items.append(t)
            pos = t.end
    by_line: dict[int, list[_Tok]] = {}
    for it in items:
        line_start = text.rfind("\n", 0, it.start) + 1
        prev = by_line.get(it.line)
        it.gap = text[prev[-1].end:it.start] if prev else text[line_start:it.start]
        by_line.setdefault(it.line, []).append(it)

    out: list[str] = []
    # open brackets: (node id of the bracket's owner, indent of their contents, indent a closer takes)
    stack: list[tuple[int, int, int]] = []
    item_indent: dict[int, int] = {}  # bracket depth -> indent of the line where its latest item began
    for n, _ in enumerate(text.split("\n"), 1):
        line = by_line.get(n)
        if not line:
            out.append("")
            continue
        head, depth = line[0], len(stack)
        container, base = (stack[-1][0], stack[-1][1]) if stack else (root, 0)
        inside = False  # a continuation that begins inside an expression (`and …`)
        if head.text in CLOSERS and not head.comment:
            indent = stack[-1][2] if stack else 0
        elif head.comment or head.start in item_starts.get(container, ()):
            indent = item_indent[depth] = base
        else:  # a continuation of the item begun on an earlier line
            indent = base + INDENT
            inside = not head.leads
            if inside and _opens_block_at(line, depth):
                indent += INDENT
        out.append(" " * indent + head.text + "".join(_gap(a, b) + b.text for a, b in zip(line, line[1:])))
        for t in line:
            if t.comment:
                continue
            if t.text in OPENERS:
                # the block of a statement continued from above belongs to the statement, not to this line
                anchor = item_indent.get(len(stack), indent) if inside and len(stack) <= depth else indent
                stack.append((t.parent, anchor + INDENT, anchor))
            elif t.text in CLOSERS and stack:
                stack.pop()
    while out and not out[-1]:
        out.pop()
    result = "\n".join(out) + "\n" if out else ""
    _same_tokens(text, result, toks, path)
    return result


def _opens_block_at(line: list[_Tok], depth: int) -> bool:
    """Does this line open a `{` at the bracket depth it began at (the block of the statement it continues)?"""
    d = depth
    for t in line:
        if t.comment:
            continue
        if t.text == "{" and d == depth:
            return True
        d += (t.text in OPENERS) - (t.text in CLOSERS)
    return False


def _line_index(text: str):
    import bisect

    breaks = [i for i, ch in enumerate(text) if ch == "\n"]
    return lambda pos: bisect.bisect_left(breaks, pos) + 1


def _same_tokens(before: str, after: str, toks: list[_Tok], path: str) -> None:
    try:
        again, _ = _collect(full_tree(after))
    except Exception:  # noqa: BLE001 - any failure to re-read our own output is the same bug
        again = None
    if again is None or [(t.text, t.line) for t in again] != [(t.text, t.line) for t in toks]:
        raise CompileError([Diagnostic("SGS001", "the formatter would change what this file means; "
                                       "it leaves the file as it is", Span(path, 1, 1, 1, 2),
                                       help="please report this file: it is a bug in `sgsdsl fmt`")])


@attrs.define
class Outcome:
    path: Path
    old: str = ""
    new: str = ""
    diagnostics: list = attrs.Factory(list)

    @property
    def changed(self) -> bool:
        return not self.diagnostics and self.new != self.old


def format_path(path: Path, sources: SourceCache) -> Outcome:
    """Read and format one file (nothing is written). Unreadable or unparsable files carry their diagnostics."""
    from ..lang.compiler import read_rules_text

    out = Outcome(path)
    diags: list = []
    text = read_rules_text(path, str(path), sources, diags)
    if text is None:
        out.diagnostics = diags
        return out
    out.old = text
    try:
        out.new = format_text(text, str(path))
    except CompileError as e:
        out.diagnostics = e.diagnostics
    return out
