"""The resolved ruleset: every declaration of every loaded package, by name and id.

Built by resolve.py from syntax trees; read by the type checker, the code
generator, `info` and the conflict checks.
"""

from __future__ import annotations

import attrs

from . import ast


@attrs.define
class Package:
    name: str
    title: str | None
    files: list[str]
    uses: list[str]
    shipped: bool = True
    decls: list[ast.Decl] = attrs.Factory(list)


@attrs.define
class Sym:
    """A global value name: what it denotes, its type, and the python literal for it."""

    kind: str  # enum_item card hero skill deck mode
    type: str
    py: str
    decl: object
    package: str


@attrs.define
class Model:
    packages: dict[str, Package] = attrs.Factory(dict)
    values: dict[str, Sym] = attrs.Factory(dict)  # Chinese names and ascii ids
    types: dict[str, object] = attrs.Factory(dict)  # enum/event name -> decl
    enums: dict[str, ast.EnumDecl] = attrs.Factory(dict)
    events: dict[str, ast.EventDecl] = attrs.Factory(dict)
    windows: dict[str, ast.WindowDecl] = attrs.Factory(dict)  # name and id
    flows: dict[str, ast.FlowDecl] = attrs.Factory(dict)
    quantities: dict[str, ast.QuantityDecl] = attrs.Factory(dict)
    counters: dict[str, ast.CounterDecl | ast.MarkDecl] = attrs.Factory(dict)  # id -> decl
    cards: dict[str, ast.CardDecl] = attrs.Factory(dict)
    heroes: dict[str, ast.HeroDecl] = attrs.Factory(dict)
    skills: dict[str, ast.SkillDecl] = attrs.Factory(dict)
    decks: dict[str, ast.DeckDecl] = attrs.Factory(dict)
    modes: dict[str, ast.ModeDecl] = attrs.Factory(dict)
    binds: dict[str, ast.BindDecl] = attrs.Factory(dict)
    tests: list[ast.TestDecl] = attrs.Factory(list)
    hints: list[ast.HintDecl] = attrs.Factory(list)
    owner: dict[int, str] = attrs.Factory(dict)  # id(decl) -> package
    # Filled by the type checker for the code generator: node -> annotation.
    notes: dict[object, object] = attrs.Factory(dict)

    def package_of(self, decl) -> str:
        return self.owner.get(id(decl), "?")

    def unique(self, table: dict) -> list:
        """Declarations of a name/id table, each once, in declaration order."""
        seen, out = set(), []
        for d in table.values():
            if id(d) not in seen:
                seen.add(id(d))
                out.append(d)
        return out

    def of_package(self, table: dict, package: str) -> list:
        return [d for d in self.unique(table) if self.package_of(d) == package]

    def role_target(self, role: str):
        b = self.binds.get(role)
        if b is None:
            return None
        t = b.target.text
        return self.flows.get(t) or self.windows.get(t) or self.events.get(t) or self.quantities.get(t)
