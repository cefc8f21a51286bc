"""Declarations -> Model: global names, ids, duplicates, package visibility, role bindings."""

from __future__ import annotations

import keyword
import re

from . import ast
from .diagnostics import Diagnostic, Note, suggest
from .model import Model, Package, Sym
from .rulesof import share_rules
from .surface import ATTRS, BUILTIN_TYPES, CONSTS, FUNCS, ROLES, TYPE_ALIASES

ID_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
# Attributes every engine event already has (see engine/tables.py Event): a field must not shadow them.
ENGINE_EVENT_ATTRS = {"self", "cancelled", "eid", "parent", "fields", "TYPE", "TITLE", "FIELDS"}
CONTEXT_RESERVED = {"self", "event", "it", "card", "targets", "target", "current", "players", "all_players"}


class Resolver:
    def __init__(self, model: Model):
        self.m = model
        self.diags: list[Diagnostic] = []
        self._value_spans: dict[str, ast.Name] = {}
        self._callables: dict[str, ast.Name] = {}
        self._windows: dict[str, ast.Name] = {}
        self._types: dict[str, ast.Name] = {}
        self._editions: dict[str, ast.Name] = {}

    def err(self, code: str, msg: str, span, help=None, notes=()):
        self.diags.append(Diagnostic(code, msg, span, help=help, notes=tuple(notes)))

    # -- ids and names
    def check_id(self, name: ast.Name, what: str) -> bool:
        if not ID_RE.match(name.text):
            self.err("SGS103", f"the ascii id of {what} must be lower-case letters, digits and '_': '{name.text}'",
                     name.span, help="write the Chinese name first, then an ascii id, e.g. `skill 奸雄 jianxiong`")
            return False
        return True

    def _claim(self, table: dict, spans: dict, key: str, name: ast.Name, decl, what: str) -> None:
        if key in table and table[key] is not decl:
            prev = spans[key]
            self.err("SGS102", f"'{key}' is already declared", name.span,
                     help=f"every {what} needs its own Chinese name and ascii id",
                     notes=[Note(prev.span, "first declared here")])
            return
        if key in CONSTS or key in CONTEXT_RESERVED:
            self.err("SGS102", f"'{key}' is a built-in name of the language", name.span,
                     help="choose another name")
            return
        table[key] = decl
        spans[key] = name

    def value(self, name: ast.Name, sym: Sym) -> None:
        own = self.m.own("values")  # a variant package's overlay, else the global table
        scope = self.m.current if own is not self.m.g_values else None
        if name.text in own and own[name.text].decl is not sym.decl:
            prev = self._value_spans[(scope, name.text)]
            self.err("SGS102", f"'{name.text}' is already declared", name.span,
                     help="cards, heroes, skills, enum values, decks and modes share one namespace",
                     notes=[Note(prev.span, "first declared here")])
            return
        shadowed = self.m.g_values.get(name.text) if scope is not None else None
        if shadowed is not None and shadowed.kind != sym.kind:
            self.err("SGS102", f"'{name.text}' is a {shadowed.kind} elsewhere; a variant may only redeclare it as one",
                     name.span, notes=[Note(self._value_spans[(None, name.text)].span, "declared here")])
            return
        if name.text in CONSTS or name.text in CONTEXT_RESERVED or name.text in FUNCS:
            self.err("SGS102", f"'{name.text}' is a built-in name of the language", name.span, help="choose another name")
            return
        own[name.text] = sym
        self._value_spans[(scope, name.text)] = name

    def named(self, decl, display: ast.Name, ident: ast.Name, kind: str, typ: str, pkg: str, what: str,
              py: str | None = None) -> None:
        self.check_id(ident, what)
        sym = Sym(kind, typ, py or repr(ident.text), decl, pkg)
        self.value(display, sym)
        if ident.text != display.text:
            self.value(ident, sym)

    # -- collection
    def collect(self, pkg: Package) -> None:
        self.m.current = pkg.name
        for decl in pkg.decls:
            self.m.owner[id(decl)] = pkg.name
            self.declare(decl, pkg.name)

    def declare(self, d, pkg: str) -> None:
        m = self.m
        match d:
            case ast.EnumDecl():
                self.check_id(d.name, "an enum type") if not d.name.text.isascii() else None
                self._type(d.name, d)
                m.enums[d.name.text] = d
                for item in d.items:
                    self.m.owner[id(item)] = pkg
                    self.named(item, item.name, item.id, "enum_item", d.name.text, pkg, "an enum value")
            case ast.EventDecl():
                self.check_id(d.name, "an event type")
                self._type(d.name, d)
                m.events[d.name.text] = d
                seen = {}
                for f in d.fields:
                    if f.name.text in seen:
                        self.err("SGS102", f"field '{f.name.text}' appears twice", f.name.span,
                                 notes=[Note(seen[f.name.text].span, "first here")])
                    seen[f.name.text] = f.name
                    if self.check_id(f.name, "an event field") and (keyword.iskeyword(f.name.text)
                                                                      or f.name.text in ENGINE_EVENT_ATTRS):
                        # Fields become Python names in the generated event classes, where these are reserved.
                        self.err("SGS103", f"'{f.name.text}' is reserved and cannot name an event field",
                                 f.name.span, help=f"choose another id, such as '{f.name.text}_'")
            case ast.ExtendDecl():
                for f in d.fields:
                    self.m.owner[id(f)] = pkg
                    key = (d.event.text, f.name.text)
                    if self.check_id(f.name, "an event field") and key in m.extensions:
                        self.err("SGS102", f"field '{f.name.text}' is already attached to '{d.event.text}'",
                                 f.name.span, notes=[Note(m.extensions[key].span, "first here")])
                    m.extensions[key] = f
            case ast.WindowDecl():
                self.check_id(d.id, "a window")
                for n in {d.name.text: d.name, d.id.text: d.id}.values():
                    self._claim(m.windows, self._windows, n.text, n, d, "window")
            case ast.FlowDecl() | ast.QuantityDecl():
                self.check_id(d.id, "a flow" if isinstance(d, ast.FlowDecl) else "a quantity")
                table = m.flows if isinstance(d, ast.FlowDecl) else m.quantities
                for n in {d.name.text: d.name, d.id.text: d.id}.values():
                    if n.text in FUNCS:
                        self.err("SGS102", f"'{n.text}' is a built-in function", n.span, help="choose another name")
                        continue
                    if n.text in self._callables and self._callables[n.text] is not n:
                        self.err("SGS102", f"'{n.text}' is already declared", n.span,
                                 notes=[Note(self._callables[n.text].span, "first declared here")])
                        continue
                    self._callables[n.text] = n
                    table[n.text] = d
            case ast.CounterDecl() | ast.MarkDecl() | ast.PileDecl():
                self.counter(d)
            case ast.BindDecl():
                if d.role.text not in ROLES:
                    self.err("SGS111", f"the engine has no role '{d.role.text}'", d.role.span,
                             help=suggest(d.role.text, ROLES) or f"roles: {', '.join(ROLES)}")
                elif d.role.text in m.binds:
                    self.err("SGS102", f"role '{d.role.text}' is bound twice", d.role.span,
                             notes=[Note(m.binds[d.role.text].span, "first bound here")])
                else:
                    m.binds[d.role.text] = d
            case ast.CardDecl():
                self.named(d, d.name, d.id, "card", "cardname", pkg, "a card")
                m.cards[d.name.text] = m.cards[d.id.text] = d
                if d.kind == "equipment" and d.slot == "weapon" and (d.range or 0) < 1:
                    self.err("SGS208", "a weapon's attack range must be at least 1", d.name.span)
            case ast.HeroDecl():
                self.named(d, d.name, d.id, "hero", "hero", pkg, "a hero")
                m.heroes[d.name.text] = m.heroes[d.id.text] = d
            case ast.SkillDecl():
                self.skill(d, pkg)
            case ast.DeckDecl():
                self.named(d, d.name, d.id, "deck", "deck", pkg, "a deck")
                m.decks[d.name.text] = m.decks[d.id.text] = d
            case ast.EditionDecl():
                self.check_id(d.id, "an edition")
                for n in {d.name.text: d.name, d.id.text: d.id}.values():
                    self._claim(m.editions, self._editions, n.text, n, d, "edition")
            case ast.PoolDecl():
                self.named(d, d.name, d.id, "pool", "pool", pkg, "a hero pool")
            case ast.ModeDecl():
                self.named(d, d.name, d.id, "mode", "mode", pkg, "a mode")
                m.modes[d.name.text] = m.modes[d.id.text] = d
                for r in d.rules:
                    self.m.owner[id(r)] = pkg
                    self.check_id(r.id, "a mode rule")
                    self.contents(r, pkg)
            case ast.RuleDecl():
                self.m.owner[id(d.rule)] = pkg
                self.check_id(d.rule.id, "a rule")
                m.rules.append(d.rule)
                if d.cards:
                    m.rule_cards[id(d.rule)] = tuple(n.text for n in d.cards)
                self.contents(d.rule, pkg)
            case ast.HintDecl():
                m.hints.append(d)
            case ast.TestDecl():
                m.tests.append(d)
                self.m.owner[id(d)] = pkg
            case ast.Package() | ast.Use() | ast.Import():
                pass

    def counter(self, d, skill: ast.SkillDecl | None = None) -> None:
        if isinstance(d, ast.PileDecl):  # also a zone: `put(cs, 田, self)`, `c.zone == 田`
            own = {skill.name.text, skill.id.text} if skill is not None else set()
            shared = [n for n in (d.name, d.id) if n.text in own]
            for n in shared:  # the name stays the skill's; where a zone is wanted it is this pile (typecheck)
                self.m.skill_piles[n.text] = d
            if not shared:
                self.named(d, d.name, d.id, "pile", "zone", self.m.current or "?", "a pile",
                           py=repr("pile:" + d.id.text))
            else:
                self.check_id(d.id, "a pile")
                sym = Sym("pile", "zone", repr("pile:" + d.id.text), d, self.m.current or "?")
                for n in {d.name.text: d.name, d.id.text: d.id}.values():
                    if n.text not in own:
                        self.value(n, sym)
        self.check_id(d.id, "a counter or mark")
        for n in (d.id, d.name):  # read as `p.NAME`: the same name as a player's built-in would hide it everywhere
            a = ATTRS["player"].get(n.text)
            if a is not None:
                what = "pile" if isinstance(d, ast.PileDecl) else "counter or mark"
                self.err("SGS102", f"'{n.text}' is a built-in attribute of a player ({a.doc}); a {what} of that "
                         "name would take its place in every rule that reads it", n.span,
                         help=f"choose another name for the {what}")
                return
        for key in {d.id.text, d.name.text}:
            prev = self.m.counters.get(key)
            if prev is not None and prev is not d:
                self.err("SGS102", f"counter or mark '{key}' is already declared", d.name.span,
                         notes=[Note(prev.span, "first declared here")])
            else:
                self.m.counters[key] = d

    def skill(self, d: ast.SkillDecl, pkg: str) -> None:
        self.named(d, d.name, d.id, "skill", "skill", pkg, "a skill")
        self.m.skills[d.name.text] = self.m.skills[d.id.text] = d
        arrays = [{"queue": "队列", "siege": "围攻"}[t] for t in d.types if t in ("queue", "siege")]
        wrong = ("names two arrays, " + " and ".join(arrays) if len(arrays) > 1
                 else f"names the array {arrays[0]} but is not a 阵法技" if arrays and "formation" not in d.types
                 else "is a 阵法技 but names no array" if not arrays and "formation" in d.types else None)
        if wrong:
            self.err("SGS208", f"skill {d.name.text} {wrong}: a 阵法技 forms one array, 队列 or 围攻", d.name.span,
                     help="write `阵法技 队列` or `阵法技 围攻` after the id (阵法召唤 reads which)")
        for x in d.decls:  # declared with the file's own (the parser lists them there); used only by this skill
            self.m.scoped[id(x)] = d
        self.contents(d, pkg)

    def contents(self, d: ast.SkillDecl, pkg: str) -> None:
        """What a body of rules declares inside it, alike for a hero's skill, a package's rule and a mode's
        rule: its counters, marks and piles, and its tests."""
        for c in d.counters:
            self.counter(c, d if isinstance(d, ast.SkillDecl) else None)
        for t in d.tests:
            self.m.tests.append(attrs_evolve(t, owner=d.id.text))
            self.m.owner[id(self.m.tests[-1])] = pkg

    def _type(self, name: ast.Name, decl) -> None:
        if name.text in BUILTIN_TYPES or name.text in TYPE_ALIASES:
            self.err("SGS102", f"'{name.text}' is a built-in type", name.span, help="choose another name")
            return
        self._claim(self.m.types, self._types, name.text, name, decl, "type")


def attrs_evolve(node, **kw):
    import attrs

    return attrs.evolve(node, **kw)


def resolve(model: Model) -> list[Diagnostic]:
    """Collect every package's declarations into the model; returns diagnostics."""
    r = Resolver(model)
    for name, pkg in model.packages.items():
        for use in pkg.decls:
            if isinstance(use, ast.Use):
                for n in use.names:
                    if n.text not in model.packages:
                        r.err("SGS110", f"no rules package named '{n.text}'", n.span,
                              help=suggest(n.text, model.packages) or f"packages: {', '.join(model.packages)}")
        r.collect(pkg)
    model.current = None
    return r.diags + share_rules(model)  # once every skill is known: a `rules of` may name one declared later
