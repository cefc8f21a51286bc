"""Files generated from the code, kept in the repository and checked fresh in CI (`sgsdsl docs --check`):

- docs/language.md's reference tables, from the compiler's registry;
- README.md's Commands table, from the click commands;
- the output of each cell of docs/api.md's notebook, from running it;
- editors/vscode/syntaxes/sgs.tmLanguage.json, from the grammar's keyword tables (highlight.py).

In the Markdown files everything between `<!-- generated:NAME -->` and `<!-- end:NAME -->`
is rewritten; tests/test_docs.py fails when one is stale.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ..lang.diagnostics import CODES
from ..lang.surface import ATTRS, CONSTS, FUNCS, ROLES


def _rules():
    """The shipped rules compiled from rules/, once per content of rules/ (docs renders several tables)."""
    import hashlib

    from ..lang.compiler import project_root

    root = project_root()
    h = hashlib.sha256(str(root).encode())
    for f in sorted((root / "rules").glob("**/*.sgs")):
        h.update(f.as_posix().encode() + b"\0" + f.read_bytes())
    return _compiled(h.hexdigest())


@functools.lru_cache(maxsize=1)
def _compiled(_key: str):
    from ..lang.loader import compiled

    return compiled()[0]


def _windows() -> str:
    rules = _rules()
    rows = ["| window | id | event | asks | fields of the event | seed 001 says |", "|---|---|---|---|---|---|"]
    for w in rules.windows.values():
        ev = rules.events[w.event]
        fields = ", ".join(f"`{n}`" for n, _, _ in ev.fields) or "—"
        rows.append(f"| {w.name} | `{w.id}` | `{w.event}` | {('`' + w.subject + '`') if w.subject else 'everyone'} "
                    f"| {fields} | {w.doc or ''} |")
    return "\n".join(rows)


def _events() -> str:
    rules = _rules()
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
        if r.kind == "value":
            needs = f"a value of the enum `{r.ret}`"
        rows.append(f"| `{name}` | {r.kind} | {needs} | {r.doc} |")
    return "\n".join(rows)


def _codes() -> str:
    rows = ["| code | name | meaning |", "|---|---|---|"]
    from ..conflicts import catalogue

    for code, (name, doc) in list(CODES.items()) + list(catalogue().items()):
        rows.append(f"| {code} | `{name}` | {doc} |")
    return "\n".join(rows)


def _option(o) -> str:
    import click

    names = "/".join(o.opts + o.secondary_opts)
    if o.is_flag:
        return f"[{names}]"
    if o.metavar:
        meta = o.metavar
    elif isinstance(o.type, click.Choice):
        meta = "\\|".join(o.type.choices)
    elif o.type is click.INT:
        meta = "N"
    elif isinstance(o.type, click.Path) and not (o.type.file_okay and o.type.dir_okay):
        meta = "FILE" if o.type.file_okay else "DIR"
    else:
        longest = max(o.opts, key=len)
        meta = (longest.lstrip("-") if longest.startswith("--") else o.name).upper().replace("-", "_")
    more = "…" if o.multiple else ""
    return f"[{names} {meta}]{more}"


def _argument(a) -> str:
    name = (a.metavar or a.name).strip("[]").upper()
    if a.nargs == -1:
        return f"[{name}…]"
    return name if a.required else f"[{name}]"


def _usage(cmd, path: str) -> list[tuple[str, str]]:
    """(synopsis, first line of help) of a command and, for a group, of each subcommand."""
    import click

    if isinstance(cmd, click.Group):
        return [row for name, sub in cmd.commands.items() for row in _usage(sub, f"{path} {name}")]
    parts = [path] + [_argument(p) for p in cmd.params if isinstance(p, click.Argument)]
    parts += [_option(p) for p in cmd.params if isinstance(p, click.Option) and p.name != "help"]
    doc = (cmd.help or "").strip().split("\n")[0]
    return [(" ".join(parts), doc)]


def commands_table(cli) -> str:
    """The README's Commands table, from the command group `cli` (passed in: the CLI is above the tools)."""
    rows = ["| command | what it does |", "|---|---|"]
    for name, cmd in cli.commands.items():
        for synopsis, doc in _usage(cmd, f"sgsdsl {name}"):
            rows.append(f"| `{synopsis}` | {doc} |")
    return "\n".join(rows)


def _history() -> str:
    from ..engine.history import COVERAGE

    rows = ["| `what` | recorded by | `who` | `target` | read by (besides `history`) |", "|---|---|---|---|---|"]
    for what, by, who, target, readers in COVERAGE:
        names = ", ".join(f"`{n}`" for n in readers.split(", ")) if readers != "—" else "—"
        rows.append(f"| {what} | {by} | {who} | {target} | {names} |")
    return "\n".join(rows)


def _limits() -> str:
    from ..engine import runaway
    from ..lang import limits

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
    rows.append(f"| a list or a text a rule builds (`xs = xs + xs`), at run time | {runaway.VALUE_ITEMS:,} items or "
                "characters | the game stops with a runaway error |")
    rows.append(f"| a number a rule computes (`n = n * n`), at run time | {runaway.VALUE_DIGITS:,} digits | the game "
                "stops with a runaway error |")
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
    "history": _history,
}

_BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end:\2 -->)", re.S)


def render(text: str, cli=None) -> str:
    """`text` with every generated block made anew; the Commands block only when given the command group."""
    sections = dict(SECTIONS, commands=lambda: commands_table(cli)) if cli is not None else SECTIONS

    def sub(m: re.Match) -> str:
        fn = sections.get(m.group(2))
        if fn is None:
            return m.group(0)
        return f"{m.group(1)}{fn()}\n{m.group(4)}"

    return _BLOCK.sub(sub, text)


_NOTEBOOK = re.compile(r"(<!-- notebook -->\n)(.*?)(<!-- end:notebook -->)", re.S)
_CELL = re.compile(r"(```python\n(.*?)```\n)(?:\n?```text\n.*?```\n)?", re.S)


def run_cells(cells: list[str]) -> list[str]:
    """Run notebook cells in order in one namespace, from the project root; what each printed."""
    import contextlib
    import io
    import os

    from ..lang.compiler import project_root

    ns: dict = {"__name__": "__notebook__"}
    outs = []
    old = os.getcwd()
    os.chdir(project_root())
    try:
        for code in cells:
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(code, "<docs/api.md>", "exec"), ns)
            outs.append(buf.getvalue())
    finally:
        os.chdir(old)
    return outs


def notebook_cells(text: str) -> list[str]:
    m = _NOTEBOOK.search(text)
    return [c.group(2) for c in _CELL.finditer(m.group(2))] if m else []


def render_notebook(text: str) -> str:
    """docs/api.md with each cell's output written under it."""
    m = _NOTEBOOK.search(text)
    if m is None:
        return text
    outs = iter(run_cells(notebook_cells(text)))

    def cell(c: re.Match) -> str:
        out = next(outs)
        return c.group(1) + (f"\n```text\n{out}```\n" if out else "")

    return text[:m.start(2)] + _CELL.sub(cell, m.group(2)) + text[m.end(2):]


def _tmlanguage(_old: str) -> str:
    from .highlight import tmlanguage_json

    return tmlanguage_json()


def targets(cli) -> dict:
    """Path under the project root -> how to make its new text from its old text."""
    return {
        "docs/language.md": render,
        "README.md": lambda text: render(text, cli),
        "docs/api.md": render_notebook,
        "editors/vscode/syntaxes/sgs.tmLanguage.json": _tmlanguage,
    }


def in_checkout(root: Path) -> bool:
    """Is this a source checkout (not the rules copy shipped inside a wheel)? Only there are docs to write."""
    return all((root / t).is_file() for t in ("docs/language.md", "README.md"))


def update_docs(root: Path, cli, check_only: bool = False) -> dict[str, str]:
    """Regenerate (or, with check_only, compare) every target; `cli` is the command group the README's
    Commands table lists. Returns path -> updated | unchanged | stale."""
    status = {}
    for rel, make in targets(cli).items():
        path = root / rel
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = make(old)
        if new == old:
            status[rel] = "unchanged"
        elif check_only:
            status[rel] = "stale"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8")
            status[rel] = "updated"
    return status
