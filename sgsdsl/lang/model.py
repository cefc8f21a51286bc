"""The resolved ruleset: every declaration of every loaded package, by name and id.

Built by resolve.py from syntax trees; read by the type checker, the code
generator, `info` and the conflict checks.
"""

from __future__ import annotations

from collections import ChainMap

import attrs

from . import ast
from .analysis import Analysis
from .surface import ROLES


@attrs.define
class Package:
    name: str
    title: str | None
    files: list[str]
    uses: list[str]
    shipped: bool = True
    decls: list[ast.Decl] = attrs.Factory(list)
    # A variant (`package first_edition "…" variant`) is loaded only when selected; it may redeclare
    # heroes and skills of the packages it uses, and at run time replaces those with the same id.
    variant: bool = False


@attrs.define
class Sym:
    """A global value name: what it denotes, its type, and the python literal for it."""

    kind: str  # enum_item card hero skill deck mode
    type: str
    py: str
    decl: object
    package: str


SCOPED = ("values", "cards", "heroes", "skills", "decks", "modes")


@attrs.define
class Model:
    """Name tables are global, except that while `current` is a variant package the scoped tables
    (values, cards, heroes, skills, decks, modes) show its own declarations over the global ones."""

    packages: dict[str, Package] = attrs.Factory(dict)
    g_values: dict[str, Sym] = attrs.Factory(dict)  # Chinese names and ascii ids
    types: dict[str, object] = attrs.Factory(dict)  # enum/event name -> decl
    enums: dict[str, ast.EnumDecl] = attrs.Factory(dict)
    events: dict[str, ast.EventDecl] = attrs.Factory(dict)
    windows: dict[str, ast.WindowDecl] = attrs.Factory(dict)  # name and id
    flows: dict[str, ast.FlowDecl] = attrs.Factory(dict)
    quantities: dict[str, ast.QuantityDecl] = attrs.Factory(dict)
    counters: dict[str, ast.CounterDecl | ast.MarkDecl] = attrs.Factory(dict)  # id -> decl
    g_cards: dict[str, ast.CardDecl] = attrs.Factory(dict)
    g_heroes: dict[str, ast.HeroDecl] = attrs.Factory(dict)
    g_skills: dict[str, ast.SkillDecl] = attrs.Factory(dict)
    g_decks: dict[str, ast.DeckDecl] = attrs.Factory(dict)
    g_modes: dict[str, ast.ModeDecl] = attrs.Factory(dict)
    binds: dict[str, ast.BindDecl] = attrs.Factory(dict)
    editions: dict[str, ast.EditionDecl] = attrs.Factory(dict)  # name and id -> published card list
    tests: list[ast.TestDecl] = attrs.Factory(list)
    extensions: dict[tuple[str, str], ast.Field] = attrs.Factory(dict)  # (event, field) -> an attached field
    hints: list[ast.HintDecl] = attrs.Factory(list)
    rules: list[ast.SkillDecl] = attrs.Factory(list)  # packages' own rules (`rule` at the top level)
    rule_cards: dict[int, tuple[str, ...]] = attrs.Factory(dict)  # id(rule) -> the card names of `rule … for`
    owner: dict[int, str] = attrs.Factory(dict)  # id(decl) -> package
    # a pile named as its skill (「不屈牌」 of 不屈): the name is the skill's, and the pile where a zone is wanted
    skill_piles: dict[str, ast.PileDecl] = attrs.Factory(dict)
    scoped: dict[int, ast.SkillDecl] = attrs.Factory(dict)  # id(event or flow declared in a skill) -> that skill
    analysis: Analysis = attrs.Factory(Analysis)  # the type checker's findings (analysis.py)
    sources: dict[str, str] = attrs.Factory(dict)  # file path -> its text (the skills' texts are read there)
    overlays: dict[str, dict[str, dict]] = attrs.Factory(dict)  # variant package -> table -> name -> decl
    current: str | None = None  # the package being resolved, checked or generated
    # Variant packages whose declarations show too, under the current package's own: those a test plays
    # with (its mode's `with`, its package's `use`), so that a test seats any hero that ships.
    scope: tuple[str, ...] = ()

    def _scoped(self, table: str):
        glob = getattr(self, "g_" + table)
        # a later variant of the scope replaces an earlier one's declarations, as at run time
        order = ((self.current,) if self.current else ()) + tuple(reversed(self.scope))
        maps = [self.overlays[p][table] for p in dict.fromkeys(order) if p in self.overlays]
        return ChainMap(*maps, glob) if maps else glob

    def declared_in(self, name: str) -> list[str]:
        """The variant packages that declare this name (and are not in view now): where a name not found lives."""
        seen = {self.current, *self.scope}
        return [p for p, over in self.overlays.items() if p not in seen and name in over["values"]]

    def test_scope(self, t) -> tuple[str, ...]:
        """The variant packages a test plays with, besides its own package: those its package `use`s and
        those its mode plays with (`with guozhan_heroes`). Later ones win, as at run time (ruleset.select)."""
        pkg = self.packages.get(self.package_of(t))
        out = [u for u in (pkg.uses if pkg is not None else ()) if u in self.overlays]
        if t.mode is not None:
            saved, self.scope = self.scope, tuple(out)
            try:
                mode = self.modes.get(t.mode.text)
            finally:
                self.scope = saved
            out += [v.text for v in (mode.variants if mode is not None else ()) if v.text in self.overlays]
        return tuple(v for v in dict.fromkeys(out) if pkg is None or v != pkg.name)

    values = property(lambda self: self._scoped("values"))
    cards = property(lambda self: self._scoped("cards"))
    heroes = property(lambda self: self._scoped("heroes"))
    skills = property(lambda self: self._scoped("skills"))
    decks = property(lambda self: self._scoped("decks"))
    modes = property(lambda self: self._scoped("modes"))

    def own(self, table: str) -> dict:
        """The table declarations of the current package go into: its overlay if it is a variant."""
        over = self.overlays.get(self.current) if self.current else None
        return over[table] if over is not None else getattr(self, "g_" + table)

    def variant(self, package: str) -> None:
        self.overlays[package] = {t: {} for t in SCOPED}

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

    def role_target(self, role: str):
        """The declaration bound to a flow, window, event or quantity role; for a value role, the enum
        value's symbol (Sym); None when unbound or when the name denotes nothing of that sort."""
        b = self.binds.get(role)
        if b is None:
            return None
        t = b.target.text
        if ROLES[role].kind == "value":
            sym = self.values.get(t)
            return sym if sym is not None and sym.kind == "enum_item" else None
        return self.flows.get(t) or self.windows.get(t) or self.events.get(t) or self.quantities.get(t)

    def role_value(self, role: str) -> str | None:
        """The id of the enum value bound to a value role (`bind lone_kingdom 野心家`: its id, careerist), if it
        is a value of the role's enum; else None."""
        sym = self.role_target(role)
        return sym.decl.id.text if isinstance(sym, Sym) and sym.type == ROLES[role].ret else None

