"""The reference tables of docs/language.md, generated from the compiler's registry.

Everything between `<!-- generated:NAME -->` and `<!-- end:NAME -->` is
rewritten by `sgsdsl docs`; tests/test_docs.py fails when it is stale.
"""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import CODES
from .surface import ATTRS, CONSTS, FUNCS, ROLES


def _windows() -> str:
    from .loader import compiled

    rules = compiled()[0]
    rows = ["| window | id | event | asks | fields of the event | seed 001 says |", "|---|---|---|---|---|---|"]
    for w in rules.windows.values():
        ev = rules.events[w.event]
        fields = ", ".join(f"`{n}`" for n, _, _ in ev.fields) or "—"
        rows.append(f"| {w.name} | `{w.id}` | `{w.event}` | {('`' + w.subject + '`') if w.subject else 'everyone'} "
                    f"| {fields} | {w.doc or ''} |")
    return "\n".join(rows)


def _events() -> str:
    from .loader import compiled

    rules = compiled()[0]
    rows = ["| event | fields |", "|---|---|"]
    for e in rules.events.values():
        fields = "<br>".join(f"`{n}: {t}`" + (f" {d}" if d else "") for n, t, d in e.fields) or "—"
        rows.append(f"| `{e.id}` {e.title or ''} | {fields} |")
    return "\n".join(rows)


def _functions(kind: str) -> str:
    rows = ["| name | parameters | result | meaning |", "|---|---|---|---|"]
    for name, f in FUNCS.items():
        if f.kind != kind:
            continue
        params = ", ".join(f"{p}: {t.lstrip('@')}" + (f" = {d}" if d is not None else "") for p, t, d in f.params)
        rows.append(f"| `{name}` | {params or '—'} | {f.ret} | {f.doc} |")
    return "\n".join(rows)


def _attrs() -> str:
    rows = ["| type | attribute | value | meaning |", "|---|---|---|---|"]
    for typ, table in ATTRS.items():
        for name, a in table.items():
            rows.append(f"| {typ} | `.{name}` | {a.type} | {a.doc} |")
    return "\n".join(rows)


def _consts() -> str:
    rows = ["| name | type | meaning |", "|---|---|---|"]
    for name, c in CONSTS.items():
        rows.append(f"| `{name}` | {c.type} | {c.doc} |")
    return "\n".join(rows)


def _roles() -> str:
    rows = ["| role | binds a | needs | used for |", "|---|---|---|---|"]
    for name, r in ROLES.items():
        needs = ", ".join(f"`{n}: {t}`" for n, t in r.needs) + (f" → {r.ret}" if r.ret else "")
        rows.append(f"| `{name}` | {r.kind} | {needs} | {r.doc} |")
    return "\n".join(rows)


def _codes() -> str:
    rows = ["| code | name | meaning |", "|---|---|---|"]
    from .check import catalogue

    for code, (name, doc) in list(CODES.items()) + list(catalogue().items()):
        rows.append(f"| {code} | `{name}` | {doc} |")
    return "\n".join(rows)


def _limits() -> str:
    from . import limits
    from .engine import runaway

    rows = ["| what | limit | beyond it |", "|---|---|---|"]
    rows.append(f"| a rules file | {limits.FILE_BYTES // 1024:,} KB | SGS005, at the line where the file passes it |")
    rows.append(f"| nesting of blocks and expressions | {limits.MAX_DEPTH} levels | SGS001 |")
    rows.append(f"| items of a `[ … ]` list | {limits.LIST_ITEMS:,} | SGS001 |")
    for r in limits.RANGES.values():
        rows.append(f"| {r.what} (`{r.example}`) | {r.shown} | SGS004 |")
    lo, hi = runaway.LOOP_RANGE
    rows.append(f"| rounds of `while` and `repeat` in one turn, at run time | {runaway.LOOP_LIMIT:,} "
                f"(`simulate --loop-limit`, {lo:,}..{hi:,}) | the game stops with a runaway error |")
    lo, hi = runaway.DEPTH_RANGE
    rows.append(f"| frames on the event stack (skills, windows and flows inside each other), at run time | "
                f"{runaway.DEPTH_LIMIT} (`simulate --depth-limit`, {lo}..{hi:,}) | the game stops with a runaway error |")
    return "\n".join(rows)


SECTIONS = {
    "windows": _windows,
    "events": _events,
    "primitives": lambda: _functions("primitive"),
    "builtins": lambda: _functions("builtin"),
    "attributes": _attrs,
    "constants": _consts,
    "roles": _roles,
    "codes": _codes,
    "limits": _limits,
}

_BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end:\2 -->)", re.S)


def render(text: str) -> str:
    def sub(m: re.Match) -> str:
        fn = SECTIONS.get(m.group(2))
        if fn is None:
            return m.group(0)
        return f"{m.group(1)}{fn()}\n{m.group(4)}"

    return _BLOCK.sub(sub, text)


def update_docs(path: Path, check_only: bool = False) -> bool:
    """Rewrite the generated sections. Returns False if (check_only and) the file was stale."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    new = render(old)
    if new == old:
        return True
    if check_only:
        return False
    path.write_text(new, encoding="utf-8")
    return True
