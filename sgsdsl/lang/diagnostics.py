"""Diagnostics: every user-facing error or finding, located in a rules file.

A diagnostic renders as::

    rules/standard/wei.sgs:12:8: error[SGS104]: unknown window '受到伤害候'
       12 |   on 受到伤害候 do { ... }
          |      ^^^^^^^^^
      help: did you mean '受到伤害后'?
"""

from __future__ import annotations

import difflib
import json
from typing import Iterable

import attrs


@attrs.frozen
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@attrs.frozen
class Note:
    span: Span
    message: str


@attrs.frozen
class Diagnostic:
    code: str
    message: str
    span: Span
    help: str | None = None
    severity: str = "error"
    notes: tuple[Note, ...] = ()
    name: str = ""
    acknowledged: str | None = None
    principle: str | None = None  # findings: which principle of seed 001 settles it (or that none does)

    def to_json(self) -> dict:
        d = {
            "code": self.code,
            "name": self.name or CODES.get(self.code, ("", ""))[0],
            "severity": self.severity,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "help": self.help,
            "notes": [
                {"file": n.span.file, "line": n.span.line, "col": n.span.col, "message": n.message}
                for n in self.notes
            ],
        }
        if self.principle is not None:
            d["principle"] = self.principle
        if self.acknowledged is not None:
            d["acknowledged"] = self.acknowledged
        return d


class CompileError(Exception):
    """Raised with the diagnostics that stopped a compilation."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics = diagnostics


# The registry of diagnostic codes: code -> (kebab-case name, one-line description).
# docs/language.md lists it; tests/test_docs.py keeps that list fresh.
CODES: dict[str, tuple[str, str]] = {
    "SGS001": ("syntax-error", "The text does not follow the grammar."),
    "SGS002": ("bad-character", "A character that no token of the language starts with."),
    "SGS003": ("unterminated", "The file ends inside a declaration or block."),
    "SGS004": ("bad-literal", "A number, name or string that is malformed for its place."),
    "SGS005": ("io-error", "A rules file or package that cannot be read."),
    "SGS101": ("unknown-name", "A name that is not declared anywhere in scope."),
    "SGS102": ("duplicate-name", "Two declarations share a Chinese name or an ascii id."),
    "SGS103": ("bad-id", "An ascii id that is not lower-case letters, digits and underscores."),
    "SGS104": ("unknown-window", "A trigger or `open` names a window that is not declared."),
    "SGS105": ("unknown-card", "A card name that is not declared."),
    "SGS106": ("unknown-skill", "A skill name that is not declared."),
    "SGS107": ("unknown-field", "An event field that the event type does not carry."),
    "SGS108": ("unknown-attribute", "An attribute that the value's type does not have."),
    "SGS109": ("unknown-type", "A type name that is neither built in nor declared."),
    "SGS110": ("unknown-package", "A `use` or a `rules of` names a package that does not exist."),
    "SGS111": ("unknown-role", "A `bind` names an engine role that does not exist."),
    "SGS112": ("unknown-hero", "A hero name that is not declared."),
    "SGS113": ("unknown-function", "A call of something that is not a primitive, flow, quantity or builtin."),
    "SGS201": ("type-mismatch", "A value of one type where another is required."),
    "SGS202": ("wrong-arguments", "A call with too many, too few or unknown arguments."),
    "SGS203": ("not-assignable", "An assignment to something that cannot be written."),
    "SGS204": ("bad-context", "A construct used where it has no meaning (e.g. `self` in a flow)."),
    "SGS205": ("window-event-mismatch", "Windows of one trigger, or an `open`, carry different event types."),
    "SGS206": ("bad-role-binding", "A `bind` whose target lacks what the engine role needs."),
    "SGS207": ("missing-role", "An engine role that the rules never bind."),
    "SGS208": ("bad-declaration", "A declaration whose parts contradict each other."),
    "SGS209": ("bad-deck-entry", "A deck entry with an impossible suit, rank or card."),
    "SGS210": ("bad-mode", "A mode whose data does not add up."),
    "SGS211": ("bad-test", "A scenario test that cannot be set up."),
    "SGS212": ("rules-of-cycle", "Skills that take their rules (`rules of`) from one another in a ring: none writes them."),
}


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """A did-you-mean hint for a misspelt name, or None."""
    pool = sorted(set(candidates))
    close = difflib.get_close_matches(name, pool, n=3, cutoff=0.5)
    if close:
        # Equally close names are all offered: 受到伤害候 is as near 受到伤害时 as 受到伤害后.
        best = difflib.SequenceMatcher(None, name, close[0]).ratio()
        close = sorted(c for c in close if difflib.SequenceMatcher(None, name, c).ratio() == best)
    elif len(name) <= 4:
        # Chinese names are short: one wrong character out of three is still "close".
        close = [c for c in pool if len(c) == len(name) and sum(a != b for a, b in zip(c, name)) == 1][:3]
    if not close:
        return None
    quoted = [f"'{c}'" for c in close]
    return "did you mean " + (" or ".join(quoted) if len(quoted) <= 2 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"


class SourceCache:
    """Holds the text of each file so diagnostics can quote their line."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}  # split once: a large file may carry many diagnostics

    def add(self, path: str, text: str) -> None:
        self.texts[path] = text
        self._lines.pop(path, None)

    def line(self, path: str, lineno: int) -> str | None:
        text = self.texts.get(path)
        if text is None or lineno < 1:
            return None
        lines = self._lines.get(path)
        if lines is None:
            # Lines as the parser counts them: splitlines() also breaks at U+2028, \f and others.
            lines = self._lines[path] = text.split("\n")
        return lines[lineno - 1].rstrip("\r") if lineno <= len(lines) else None


TAB = "    "  # a quoted line shows tabs as this, so that the caret line can match them
SHOWN = 120  # characters of a long source line quoted around the caret


def _width(s: str) -> int:
    # CJK characters take two terminal columns; carets must line up under them.
    import unicodedata

    return sum(len(TAB) if ch == "\t" else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def render(d: Diagnostic, sources: SourceCache) -> str:
    out = [f"{d.span}: {d.severity}[{d.code}]: {d.message}" + (f" ({d.name})" if d.name else "")]
    if d.acknowledged is not None:
        out[0] += f" (acknowledged: {d.acknowledged})"
    src = sources.line(d.span.file, d.span.line)
    if src is not None:
        gutter = str(d.span.line)
        pad = " " * len(gutter)
        start = max(d.span.col - 1, 0)
        if d.span.end_line == d.span.line and d.span.end_col > d.span.col:
            end = d.span.end_col - 1
        else:
            end = len(src.rstrip())
        end = max(end, start + 1)
        if len(src) > SHOWN:  # a long line: the part around the caret, cut off with '…'
            lo = 0 if start < SHOWN // 2 else max(0, min(start - SHOWN // 4, len(src) - SHOWN))
            cut = src[lo:lo + SHOWN]
            start, end = start - lo + (lo > 0), min(end - lo, SHOWN) + (lo > 0)
            src = ("…" if lo > 0 else "") + cut + ("…" if lo + SHOWN < len(src) else "")
        out.append(f" {gutter} | {src.replace(chr(9), TAB)}")
        caret = " " * _width(src[:start]) + "^" * max(1, _width(src[start:end]))
        out.append(f" {pad} | {caret}")
    for n in d.notes:
        out.append(f"  note: {n.span}: {n.message}")
    if d.help:
        out.append(f"  help: {d.help}")
    if d.principle:
        out.append(f"  seed 001: {d.principle}")
    return "\n".join(out)


def render_all(diags: list[Diagnostic], sources: SourceCache, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps([d.to_json() for d in diags], ensure_ascii=False, indent=2)
    return "\n".join(render(d, sources) for d in diags)
