"""Runaway rules at run time: a `while` or `repeat` that never ends, skills, windows and flows
that keep re-entering each other, a quantity defined through itself.

A value that only grows (a list that doubles in a loop) is one too: it is stopped at a size.

The interpreter stops them at a limit and raises RunawayError: a rules error that names the
rules involved (their file:line), the window that was open, the seed and the turn, so that a
designer can find the loop, and a batch of games reports it like any other broken game. The
limits are settings (`RunLimits`, `simulate --loop-limit/--depth-limit`).
"""

from __future__ import annotations

import linecache
import math
import sys
import traceback

import attrs

from .ruleset import RulesError

# The run-time limits' defaults and ranges (`simulate --loop-limit/--depth-limit`; documented in docs/language.md)
LOOP_LIMIT = 10_000  # rounds of `while` and `repeat` in one turn
DEPTH_LIMIT = 100  # frames on the event stack; the shipped rules reach about 20
DEPTH_RANGE = (10, 1_000)  # what the depth setting may be: Python frames per stack frame are bounded
LOOP_RANGE = (10, 10_000_000)
# The size of a value the rules build at run time. A list or a text that doubles every round (`xs = xs + xs`
# in a `repeat`), or a number squared every round, fills the machine's memory within a few dozen rounds, long
# before the loop limit. Checked at each round of a loop (the values the running rule holds, its event's
# tags), in the arguments of deep flows, and in marks, which outlive a turn's count of rounds.
VALUE_ITEMS = 100_000  # items of a list, characters of a text
VALUE_DIGITS = 100_000  # digits of a number: a number multiplied by a million every round of a loop fits
_VALUE_BITS = int(VALUE_DIGITS * math.log2(10))

_HELP = ("help: make every round use something up (a `limit … per turn`, cards that leave for good, HP that "
         "only goes down), or give the loop a `when` that ends it")


class RunawayError(RulesError):
    """Rules that would run forever, stopped by a limit. The message names them."""


@attrs.frozen
class RunLimits:
    loop: int = LOOP_LIMIT
    depth: int = DEPTH_LIMIT

    def __attrs_post_init__(self):
        for what, value, (lo, hi) in (("loop", self.loop, LOOP_RANGE), ("depth", self.depth, DEPTH_RANGE)):
            if not lo <= value <= hi:
                raise ValueError(f"the {what} limit must be {lo:,}..{hi:,}, not {value:,}")

    def allow_recursion(self) -> None:
        """Let Python recurse as deep as the depth limit needs (each stack frame is a few Python calls),
        so that the limit, not a RecursionError, stops a runaway."""
        need = self.depth * 12 + 1_000
        if sys.getrecursionlimit() < need:
            sys.setrecursionlimit(need)


def _where(g) -> str:
    window = g.rules.windows[g.windows_open[-1]].name if g.windows_open else None
    at = f"at {window}" if window else "with no window open"
    return f"seed {g.seed}, turn {g.turn_no}, {at}"


def _frame(f) -> str:
    return f"{f.kind} {f.name}" + (f" — {f.loc}" if f.loc else "")


def cycle(frames: list) -> list:
    """The frames that repeat at the top of the stack (one round of the loop, outermost first),
    or the distinct frames near the top when no round repeats."""
    keys = [(f.kind, f.name, f.loc) for f in frames]
    for p in range(1, len(keys) // 3 + 1):  # a round seen three times in a row
        if keys[-p:] == keys[-2 * p:-p] == keys[-3 * p:-2 * p]:
            return frames[-p:]
    seen, out = set(), []
    for f, k in zip(reversed(frames[-20:]), reversed(keys[-20:])):
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out[::-1]


def too_deep(g) -> RunawayError:
    rules = [_frame(f) for f in cycle(g.stack) if f.loc]
    return RunawayError(
        f"runaway rules ({_where(g)}): the event stack reached {len(g.stack)} frames (the depth limit; "
        f"--depth-limit)\n  the rules that keep re-entering each other, one round:\n"
        + "".join(f"    {r}\n" for r in rules) + f"  {_HELP}")


def too_long(g, loc: str, kind: str) -> RunawayError:
    inner = next((f for f in reversed(g.stack) if f.loc), None)
    within = f" in {_frame(inner)}" if inner is not None else ""
    return RunawayError(
        f"runaway rules ({_where(g)}): the `{kind}` at {loc}{within} ran past {g.limits.loop:,} rounds in one turn "
        f"(the loop limit; --loop-limit)\n  {_HELP}")


def recursion(g, tb) -> RunawayError:
    """A RecursionError that no frame limit saw (a quantity or a condition that calls itself)."""
    rules: list[str] = []
    for frame, _ in traceback.walk_tb(tb):
        code = frame.f_code
        if "generated" in code.co_filename or code.co_filename.startswith("<sgsdsl:"):
            line = linecache.getline(code.co_filename, code.co_firstlineno + 1).strip().lstrip("# ")
            if "—" in line and line not in rules:
                rules.append(line)
    return RunawayError(
        f"runaway rules ({_where(g)}): the rules call themselves without end (Python's recursion limit)\n"
        "  the rules on that path:\n" + "".join(f"    {r}\n" for r in rules[-8:]) + f"  {_HELP}")


def oversized(value) -> str | None:
    """What is too big about a value a rule built, or None."""
    t = type(value)
    if (t is list or t is str or t is tuple) and len(value) > VALUE_ITEMS:
        return f"{'a text' if t is str else 'a list'} of {len(value):,} {'characters' if t is str else 'items'}"
    if t is int and value.bit_length() > _VALUE_BITS:
        return f"a number of about {int(value.bit_length() * math.log10(2)):,} digits"
    return None


def too_big(g, what: str, where: str) -> RunawayError:
    inner = next((f for f in reversed(g.stack) if f.loc), None)
    within = f"in {_frame(inner)}, " if inner is not None else ""
    return RunawayError(
        f"runaway rules ({_where(g)}): {within}{where} grew to {what}, past the limit of a value the rules "
        f"build ({VALUE_ITEMS:,} items of a list or characters of a text, {VALUE_DIGITS:,} digits of a number)\n"
        "  help: a value that doubles every round (`xs = xs + xs`) ends only when the machine's memory does: "
        "build it once, or end the loop before it grows")


def check_locals(g, frame, loc: str, kind: str) -> None:
    """At a round of a loop: the values the running rule holds (its `let`s, v_NAME in generated code, and
    the tags of its event, `ev`)."""
    names = frame.f_locals
    for name, value in names.items():
        t = type(value)  # (oversized's test, inline: a loop's every round reads every local)
        if (t is list or t is str or t is tuple) and len(value) > VALUE_ITEMS or \
                t is int and value.bit_length() > _VALUE_BITS:
            shown = name[2:] if name.startswith("v_") else name
            raise too_big(g, oversized(value), f"`{shown}` (built by the `{kind}` at {loc})")
    tags = getattr(names.get("ev"), "tags", None)
    for name, value in (tags or {}).items():
        what = oversized(value)
        if what is not None:
            raise too_big(g, what, f"the event's field `{name}` (built by the `{kind}` at {loc})")


def check_value(g, value, where: str) -> None:
    what = oversized(value)
    if what is not None:
        raise too_big(g, what, where)
