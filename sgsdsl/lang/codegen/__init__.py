"""Checked syntax trees -> one readable Python module per rules package.

Function bodies are emitted from the type checker's annotations (lang/analysis.py): FunctionWriter writes
one function, its expressions and statements in two mixins; ModuleWriter collects a package's functions and
table rows, one mixin per kind of declaration. The module around them comes from templates/module.py.j2.
Only validated ids (`[a-z][a-z0-9_]*`), mangled locals and `repr` literals reach the output, so no rules text
can become code.
"""

from __future__ import annotations

import jinja2

from ..intent import analyze
from ..model import Model
from ..typecheck import package_scope
from .cards import Cards
from .declarations import Declarations
from .modes import Modes
from .module import ModuleBase
from .names import TEMPLATES, _comment
from .scenarios import ScenarioTests
from .skills import Skills
from .writer import FunctionWriter  # noqa: F401 - the package's API


class ModuleWriter(Declarations, Skills, Cards, Modes, ScenarioTests, ModuleBase):
    """Collects the functions and table records of one package, each kind of declaration in a mixin."""


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                             autoescape=False, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pyrepr"] = repr
    env.filters["pytuple"] = lambda xs: repr(tuple(xs))
    # Text inside the module's docstring: a path such as C:\Users\… must not read as an escape.
    env.filters["docstring"] = lambda s: _comment(s).replace("\\", "\\\\").replace('"', '\\"')
    return env


def generate(model: Model, package: str, rel) -> str:
    """The Python source of one package's module."""
    analyze(model)  # every choice's meaning, read with every package's names (before one package's overlay)
    model.current = package  # name lookups see a variant package's own declarations first
    model.scope = package_scope(model, model.packages[package])
    try:
        w = ModuleWriter(model, package, rel)
        w.build()
    finally:
        model.current, model.scope = None, ()
    pkg = model.packages[package]
    triggers = {k: tuple(dict.fromkeys(v)) for k, v in w.triggers.items()}
    return _env().get_template("module.py.j2").render(
        package=package, title=pkg.title, uses=tuple(pkg.uses), sources=[rel(f) for f in pkg.files],
        events=w.events, functions=w.functions, tables=w.tables, triggers=triggers, variant=pkg.variant,
        source_hash=source_hash(model, pkg.files, rel),
    )


def source_hash(model: Model, files, rel) -> str:
    """A digest of a package's rules text: tells whether generated/ still matches rules/."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(files, key=rel):
        h.update(rel(f).encode("utf-8") + b"\0")
        h.update((model.sources.get(f) or "").encode("utf-8") + b"\0")
    return h.hexdigest()[:16]
