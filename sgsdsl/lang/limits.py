"""The limits of the language: sizes, nesting and the range of every number a rules file writes.

A file past one of them gets a located error (SGS004 for a number, SGS001 for size and nesting)
instead of a slow compile, a Python limit deep in the pipeline or a failure at run time. The
reference table in docs/language.md is generated from `RANGES` and `SIZES` (`sgsdsl docs`), so the
documented limits are the enforced ones.
"""

from __future__ import annotations

import attrs

# ---- sizes ---------------------------------------------------------------------------------

# A rules file larger than this is refused before it is parsed: the parser reads about 400 KB a
# second, so this bounds a check to a few seconds. All the shipped rules together are 150 KB.
FILE_BYTES = 1_048_576

# Deeper nesting is refused before anything recurses over it. Transforming, checking and
# generating code recurse once or twice per level, and the generated Python nests up to two
# brackets or one indentation per level, where Python allows 200 and 100. The shipped rules
# nest under 20 levels.
MAX_DEPTH = 64

# Items in one `[ … ]` list written in the rules (a deck's entries are not a list literal).
LIST_ITEMS = 1_000



@attrs.frozen
class Range:
    what: str  # where the number is written, as the error message and the docs say it
    lo: int  # in units of 1/halves: a hero's hp counts halves
    hi: int
    example: str
    halves: bool = False

    def error(self, value: int) -> str | None:
        """The message for a value outside the range (in the range's units), or None."""
        if self.lo <= value <= self.hi:
            return None
        shown = self._fmt(value) if abs(value) < 10**15 else f"a {len(str(abs(value)))}-digit number"
        return f"{self.what} is {shown}; it must be {self.shown}"

    @property
    def shown(self) -> str:
        return f"{self._fmt(self.lo)}..{self._fmt(self.hi)}"

    def _fmt(self, n: int) -> str:
        if self.halves:
            return f"{n // 2:,}" + (".5" if n % 2 else "")
        return f"{n:,}"


# Every number a rules file writes has one of these ranges. Numbers in expressions are counts,
# amounts and HP: a million leaves room for any rule (`inf` means unlimited) and keeps the
# arithmetic of the generated code far from Python's limits on printing integers.
RANGES: dict[str, Range] = {r.what: r for r in (
    Range("a number in an expression", 0, 1_000_000, "draw(self, 2)"),
    Range("a hero's hp", 1, 198, "hp 4, hp 3.5", halves=True),
    Range("a weapon's range", 1, 99, "weapon 3"),
    Range("a rank", 1, 13, "♠A … ♠K"),
    Range("a mode's player count", 1, 99, "players 2..10"),
    Range("a row of an identity table", 1, 99, "5: 主公 忠臣 反贼 反贼 内奸"),
    Range("a deck size", 1, 100_000, "deck 标准版 160"),
    Range("a hint's value", 0, 100, "hint 杀 hostile 4"),
    Range("a view-as card count", 0, 99, "viewas 杀 from 2 cards; from 0 cards: 视为使用 from nothing"),
    Range("a test seat's hp", 0, 99, "hp 2"),
    Range("a test seat's max hp", 1, 99, "maxhp 3"),
    Range("a test seat's mark", 0, 1_000_000, "mark 忍 2"),
    Range("a test's number of turns", 0, 1_000, "turns 2"),
    Range("a number of requests", 0, 100_000, "expect asked 刘备 == 2"),
    Range("a field's default", -1_000_000, 1_000_000, "amount: int = 1"),
)}

EXPR = RANGES["a number in an expression"]
HP = RANGES["a hero's hp"]
