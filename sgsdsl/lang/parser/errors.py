"""Syntax errors as located diagnostics: what was expected, unclosed brackets, lookalike characters."""

from __future__ import annotations

import re
import unicodedata

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostic, Note, Span
from .base import _tok_span, lark_parser

_NAME_RE = re.compile(r"[^\W\d]\w*\Z")


def _keyword_as_name(e: UnexpectedInput) -> bool:
    """A keyword where the grammar wants a name (`event.amount = x` after `let x = 1`, a local called
    `target`): LALR merges the lookaheads of states, so the contextual lexer may take a word for a
    keyword that cannot come next. Read it again as a name; a real syntax error stays one."""
    if not isinstance(e, UnexpectedToken) or e.token.type in ("NAME", "$END"):
        return False
    if not _NAME_RE.match(str(e.token)) or "NAME" not in e.interactive_parser.accepts():
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(e.token), e.token))
    return True


_TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "SUIT": "a suit (♠♥♣♦)",
    "SUITRANK": "a suit and rank such as ♠A or ♥10", "HALF": "a number", "HORSE": "+1 or -1",
    "$END": "the end of the file", "QMARK": "'?'", "DOTDOT": "'..'",
}


def _describe(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pat = lark_parser().get_terminal(term).pattern
        if pat.type == "str":
            return f"'{pat.value}'"
    except KeyError:
        pass
    return term.lower()


def _expected(terms) -> str:
    words = sorted({_describe(t) for t in terms if not t.startswith("__")})
    if len(words) > 8:
        keywords = [w for w in words if w.startswith("'")]
        others = [w for w in words if not w.startswith("'")]
        words = others + keywords[:6] + ["…"]
    return ", ".join(words)


_TOKEN_NOUNS = {"NAME": "name", "INT": "number", "HALF": "number", "SUIT": "suit", "SUITRANK": "suit and rank",
                "HORSE": "horse"}

# What a Chinese input method types in place of the ASCII punctuation of the language (full-width
# forms such as '，' and '（' are found through NFKC).
_LOOKALIKES = {"、": ",", "。": ".", "“": '"', "”": '"', "「": '"', "」": '"', "【": "[", "】": "]", "…": ".."}
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[{}()\[\]]|\n')
_CLOSER = {"{": "}", "(": ")", "[": "]"}


def _open_brackets(text: str) -> tuple[list[tuple[str, int, int]], tuple[str, int, int] | None]:
    """Brackets still open at the end of `text` (outside strings and comments), innermost last, and
    the first that a closer less indented than its own line closed: where one was probably left out.
    """
    stack, line, line_start, suspect = [], 1, 0, None
    for m in _BRACKETS.finditer(text):
        tok = m.group()
        if tok == "\n":
            line, line_start = line + 1, m.end()
            continue
        if tok not in _CLOSER and tok not in ")]}":
            continue
        head = text[line_start:m.start()]
        indent = len(head) - len(head.lstrip())
        if tok in _CLOSER:
            stack.append((tok, line, m.start() - line_start + 1, indent))
        elif stack and _CLOSER[stack[-1][0]] == tok:
            opener = stack.pop()
            if suspect is None and not head.strip() and indent < opener[3]:
                suspect = opener
    return [s[:3] for s in stack], suspect[:3] if suspect else None


def _unclosed(text: str) -> tuple[str, int, int, str] | None:
    """The bracket left open at the end of the text, with the note to show for it."""
    stack, suspect = _open_brackets(text)
    if not stack:
        return None
    if suspect is not None:
        return (*suspect, f"this '{suspect[0]}' is probably the one never closed")
    return (*stack[-1], f"this '{stack[-1][0]}' is never closed")


def _closer_diagnostic(path: str, text: str, pos: int, closer: str, span: Span) -> Diagnostic | None:
    """For a closing bracket the parser did not expect, when the brackets before it explain why."""
    stack, _ = _open_brackets(text[:pos])
    opener = {v: k for k, v in _CLOSER.items()}[closer]
    if not any(s[0] == opener for s in stack):
        return Diagnostic("SGS001", f"this '{closer}' closes nothing", span, help="delete it")
    inner, line, col = stack[-1]
    if inner != opener:
        return Diagnostic("SGS001", f"'{closer}' while the '{inner}' on line {line} is still open", span,
                          help=f"close the '{inner}' first, with '{_CLOSER[inner]}'",
                          notes=(Note(Span(path, line, col, line, col + 1), f"this '{inner}' is still open"),))
    return None


def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.lower() if name else "a control character"


def _previous_token(e: UnexpectedToken):
    try:
        prev = e.interactive_parser.parser_state.value_stack[-1]
    except (AttributeError, IndexError):
        return None
    return prev if isinstance(prev, Token) else None


def _syntax_diagnostic(path: str, text: str, e: UnexpectedInput) -> Diagnostic:
    line, col = getattr(e, "line", 0) or 0, getattr(e, "column", 0) or 0
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        # Right after the last thing written: trailing blank lines would put the caret nowhere.
        body = text.rstrip()
        line = body.count("\n") + 1
        col = len(body) - (body.rfind("\n") + 1) + 1
        hint = f"expected {_expected(e.expected)}"
        notes = ()
        opened = _unclosed(text)
        if opened is not None:
            ch, oline, ocol, note = opened
            closer = _CLOSER[ch]
            if any(_describe(t) == f"'{closer}'" for t in e.expected):
                hint = f"add the missing '{closer}'"
            else:
                hint += f"; is a '{closer}' missing?"
            notes = (Note(Span(path, oline, ocol, oline, ocol + 1), note),)
        return Diagnostic("SGS003", "the file ends too early", Span(path, line, col, line, col + 1), help=hint,
                          notes=notes)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        span = Span(path, line, col, line, col + 1)
        if ch == '"':  # a string token ends on its line, so this one never ends
            end = len(text.split("\n")[line - 1]) + 1 if 0 < line <= text.count("\n") + 1 else col + 1
            return Diagnostic("SGS004", "this string is not closed on its line", Span(path, line, col, line, end),
                              help='end it with " on the same line; write \\" for a quote inside a string')
        ascii_ = _LOOKALIKES.get(ch) or unicodedata.normalize("NFKC", ch)
        if ascii_ != ch and ascii_.isascii() and ascii_.strip():
            return Diagnostic("SGS002", f"unexpected character '{ch}' ({_char_name(ch)})", span,
                              help=f"did you mean '{ascii_}'? the rules use ASCII punctuation (半角)")
        if ch.isspace() or not ch.isprintable():
            if ch == "\ufeff" and e.pos_in_stream == 0:
                return Diagnostic("SGS002", "the file starts with a byte-order mark (U+FEFF)", span,
                                  help="save the file as UTF-8 without a BOM")
            return Diagnostic("SGS002", f"unexpected invisible character U+{ord(ch):04X} ({_char_name(ch)})", span,
                              help="only spaces, tabs and line breaks separate words: delete it or type a space")
        if ch == ";":
            return Diagnostic("SGS002", "unexpected character ';'", span, help="statements need no ';' between them")
        return Diagnostic("SGS002", f"unexpected character {ch!r}", span,
                          help=f"expected {_expected(e.allowed)}" if e.allowed else None)
    tok = e.token
    shown = str(tok)
    span = Span(path, line, col, line, col + (len(shown) or 1))
    if tok.type == "SUIT" and "SUITRANK" in e.expected:
        word = shown + re.compile(r"\w*").match(text, tok.end_pos or 0).group()
        # A deck's entries expect a suit and rank but no card name, or a sign (a name) and a comma.
        code = "SGS209" if "NAME" not in e.expected or "COMMA" in e.expected else "SGS004"
        return Diagnostic(code, f"'{word}' is not a suit and rank", Span(path, line, col, line, col + len(word)),
                          help="the rank follows the suit: A, 2–10, J, Q or K, as in ♠A, ♥10, ♣K")
    prev = _previous_token(e)
    if prev is not None and prev.type != "NAME" and str(prev) in _STATEMENT_KEYWORDS and shown in _ASSIGN_OR_ACCESS:
        # A statement keyword (`phase`, `log`, `open` …) where a variable's name was meant.
        return Diagnostic("SGS001", f"'{prev}' is a keyword and cannot name a variable",
                          _tok_span(path, prev) if prev.line else span,
                          help=f"here `{prev}` begins a statement; give the variable another name")
    if shown in (")", "]", "}") and tok.start_pos is not None:
        explained = _closer_diagnostic(path, text, tok.start_pos, shown, span)
        if explained is not None:
            return explained
    if prev is not None and str(prev) == "for" and shown == "(":
        return Diagnostic("SGS001", "unexpected '('", span, help="`for` takes no parentheses: `for p in players { … }`")
    if tok.type == "STRING":
        msg = f"unexpected string {shown}"
    elif tok.type in _TOKEN_NOUNS:
        msg = f"unexpected {_TOKEN_NOUNS[tok.type]} '{shown}'"
    else:
        msg = f"unexpected {shown!r}"
    hint = f"expected {_expected(e.expected)}"
    if shown in _KEYWORDS_AS_NAMES and "NAME" in e.expected:
        hint += f"; '{shown}' is a keyword here, pick another name"
    return Diagnostic("SGS001", msg, span, help=hint)


_STATEMENT_KEYWORDS = {"let", "if", "for", "while", "repeat", "open", "phase", "log", "stop", "break", "continue"}
_ASSIGN_OR_ACCESS = {"=", "+=", "-=", ".", "["}
_KEYWORDS_AS_NAMES = {"card", "cards", "player", "players", "option", "target", "limit", "effect", "deck", "lord",
                      "win", "rule", "on", "when", "do", "cost", "per", "phase", "turn", "game", "hand", "use"}
