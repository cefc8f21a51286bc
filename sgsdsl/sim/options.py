"""A mode's options (`option 武将牌数 hero_cards "…" = 4` in its rules), set by `simulate --option ID=VALUE`
and read back from a log's header by `--replay`.

The rules declare each option's type by its default: a number, true/false or a text. A value is checked
against that type, and a number against the range of a number the rules may write (limits.EXPR: the
option stands where the rules wrote its default), so a mistyped `ture` or a `-5` is an error naming the
option, never a silent `false` or a batch of broken games.
"""

from __future__ import annotations

from ..lang.diagnostics import suggest
from ..lang.limits import EXPR

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")


class OptionError(ValueError):
    """What is wrong with an option or its value (the message says which, and what it takes)."""


def declared(mode) -> dict[str, object]:
    """Option id -> its default, in the mode's order."""
    return {oid: default for oid, _, default, _ in mode.options}


def _listed(mode) -> str:
    return ", ".join(f"{oid}={_shown(d)}" for oid, d in declared(mode).items()) or "none"


def _shown(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _range(default: int) -> tuple[int, int]:
    """The numbers an option with this default may take (its own default always among them)."""
    return min(EXPR.lo, default), max(EXPR.hi, default)


def takes(default) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        lo, hi = _range(default)
        return f"a whole number {lo:,}..{hi:,}"
    return "a text"


def option_id(mode, name: str) -> str:
    """The id of the option called `name` (its id or its Chinese name); OptionError if the mode has none."""
    for oid, cname, _, _ in mode.options:
        if name in (oid, cname):
            return oid
    hint = suggest(name, [o[0] for o in mode.options] + [o[1] for o in mode.options])
    raise OptionError(f"mode {mode.id} has no option '{name}' (its options: {_listed(mode)})"
                      + (f"; {hint}" if hint else ""))


def value_error(default, value) -> str | None:
    """Why `value` (already typed: from JSON, or parsed) cannot be the value of an option with this default."""
    if isinstance(default, bool):
        return None if isinstance(value, bool) else f"it takes {takes(default)}"
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            return f"it takes {takes(default)}"
        lo, hi = _range(default)
        return None if lo <= value <= hi else f"it takes {takes(default)}, not {value:,}"
    return None if isinstance(value, str) else f"it takes {takes(default)}"


def parse_value(default, raw: str):
    """The typed value of `raw` for an option with this default; OptionError saying what it takes."""
    text = raw.strip()
    if isinstance(default, bool):
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise OptionError(f"it takes true or false, not '{raw}'")
    if isinstance(default, int):
        try:
            value = int(text)
        except ValueError:
            raise OptionError(f"it takes {takes(default)}, not '{raw}'") from None
        why = value_error(default, value)
        if why:
            raise OptionError(why)
        return value
    return raw


def from_command_line(mode, given) -> tuple[tuple[str, object], ...]:
    """`--option ID=VALUE` (ID or the Chinese name), each checked; OptionError for the first wrong one."""
    defaults = declared(mode)
    out: dict[str, object] = {}
    for text in given:
        name, eq, raw = text.partition("=")
        try:
            oid = option_id(mode, name.strip())
            if not eq:
                raise OptionError(f"give it a value, e.g. --option {oid}={_shown(defaults[oid])} "
                                  f"({takes(defaults[oid])})")
            if oid in out:
                raise OptionError(f"option {oid} is given twice")
            out[oid] = parse_value(defaults[oid], raw)
        except OptionError as e:
            raise OptionError(f"--option {text}: {e}") from None
    return tuple(out.items())


def from_header(mode, options) -> tuple[tuple[str, object], ...]:
    """A log header's `options` (an object of option id -> value), each checked against the mode's."""
    if not isinstance(options, dict):
        raise OptionError(f"it must be an object of option id to value (options of mode {mode.id}: {_listed(mode)})")
    defaults = declared(mode)
    out = []
    for oid, value in options.items():
        if oid not in defaults:
            raise OptionError(f"mode {mode.id} has no option '{oid}' (its options: {_listed(mode)})")
        why = value_error(defaults[oid], value)
        if why:
            raise OptionError(f"option {oid} is {_json(value)}; {why}")
        out.append((oid, value))
    return tuple(out)


def _json(v) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)
