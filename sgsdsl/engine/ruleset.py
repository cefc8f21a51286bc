"""A ruleset: the tables of several generated modules, merged and indexed for the engine."""

from __future__ import annotations

import linecache
import traceback

import attrs

from .tables import SkillDef, Tables


class RulesError(Exception):
    """A rules bug found at run time (no check caught it). Carries the rules location."""


def rules_location(tb) -> str | None:
    """The rules file:line of the innermost generated function in a traceback."""
    loc = None
    for frame, _ in traceback.walk_tb(tb):
        code = frame.f_code
        if "generated" in code.co_filename or code.co_filename.startswith("<sgsdsl:"):
            line = linecache.getline(code.co_filename, code.co_firstlineno + 1)
            if "—" in line:
                loc = line.split("—", 1)[1].strip()
    return loc


def select(tables: list[Tables], variants=()) -> list[Tables]:
    """The default packages plus the chosen variants, each after the packages it uses."""
    chosen = {t.package: t for t in tables if not t.variant or t.package in variants}
    missing = [v for v in variants if v not in chosen]
    if missing:
        names = ", ".join(t.package for t in tables if t.variant) or "none"
        raise RulesError(f"no variant package {missing[0]} (variants: {names})")
    out: list[Tables] = []

    def visit(name: str) -> None:
        t = chosen.get(name)
        if t is None or t in out:
            return
        for u in t.uses:
            visit(u)
        out.append(t)

    for name in sorted(chosen):
        visit(name)
    return out


def share(tables: list[Tables]) -> list[Tables]:
    """The tables with each `rules of` skill given the rows of the skill it names (in any package compiled,
    selected or not: the functions are there either way), each row owned by the sharing skill."""
    named = {(t.package, s.id): s for t in tables for s in t.skills}

    def rows(s: SkillDef, trail: tuple = ()) -> SkillDef:
        if s.rules_of is None:
            return s
        if s.rules_of in trail or s.rules_of not in named:  # the compiler rules both out
            raise RulesError(f"skill {s.id} ({s.loc}) takes the rules of {'.'.join(s.rules_of)}, which "
                             + ("takes them from it" if s.rules_of in trail else "is not compiled"))
        src = rows(named[s.rules_of], trail + (s.rules_of,))

        def own(rs: tuple) -> tuple:
            return tuple(r if r.skill == s.id else attrs.evolve(r, skill=s.id) for r in rs)

        allows = tuple(dict.fromkeys(src.allows + s.allows))  # its own after those it takes; a second share adds none
        return attrs.evolve(s, triggers=own(src.triggers), actives=own(src.actives), viewas=own(src.viewas),
                            modifiers=own(src.modifiers), filters=own(src.filters), grants=own(src.grants),
                            allows=allows)

    return [attrs.evolve(t, skills=tuple(rows(s) for s in t.skills)) if any(s.rules_of for s in t.skills) else t
            for t in tables]


def _inherit(cards: dict, c):
    """A card declared `is P` takes P's target, limit, hooks and nature where it has none of its own, and
    counts as P (and as what P counts as)."""
    if c.parent is None:
        return c
    family, fields = [c.id], {}
    p = c
    while p.parent is not None and p.parent in cards and p.parent not in family:
        p = cards[p.parent]
        family.append(p.id)
        for f in ("target", "limit", "effect", "before", "after", "nature"):
            if getattr(c, f) is None and f not in fields and getattr(p, f) is not None:
                fields[f] = getattr(p, f)
                if f == "limit":
                    fields["limit_of"] = p.limit_key
    return attrs.evolve(c, family=tuple(family), **fields)


class Ruleset:
    """Tables merged in dependency order: a later package's declaration replaces an earlier one
    with the same id (that is how a variant package replaces standard heroes and skills)."""

    def __init__(self, tables: list[Tables], variants=()):
        tables = share(list(tables))
        self.all_tables = tables  # every package compiled, selected or not
        self.variant_rules: dict[tuple, Ruleset] = {}  # for_mode's, by the variants selected
        tables = select(tables, variants)
        self.tables = tables
        self.packages = {t.package: t for t in tables}
        self.enums = {}
        self.events = {}
        self.windows = {}
        self.flows = {}
        self.quantities = {}
        self.counters = {}
        self.binds = {}
        self.cards = {}
        self.heroes = {}
        self.skills: dict[str, SkillDef] = {}
        self.decks = {}
        self.pools = {}
        self.modes = {}
        self.tests = []
        self.rules: list[SkillDef] = []  # package rules, in package order
        self.triggers: dict[str, tuple[str, ...]] = {}
        self.hints: dict[str, tuple[str, int]] = {}
        self.option_hints: dict[str, tuple[str, int]] = {}  # label of a `choose … option` -> (intent, value)
        self.test_package: dict[int, str] = {}
        self.hero_package = {}
        self.package_heroes: dict[str, tuple[str, ...]] = {t.package: tuple(h.id for h in t.heroes) for t in tables}
        self.variants = tuple(t.package for t in tables if t.variant)
        for t in tables:
            for kind in ("enums", "events", "windows", "flows", "quantities", "counters", "cards", "heroes",
                         "skills", "decks", "pools", "modes"):
                table = getattr(self, kind)
                for d in getattr(t, kind):
                    table[d.id] = d
            for h in t.heroes:
                self.hero_package[h.id] = t.package
            for c in t.cards:
                if c.skill is not None:
                    self.skills[c.skill.id] = c.skill
            self.binds.update(dict(t.binds))
            self.test_package.update({id(x): t.package for x in t.tests})
            self.hints.update({ident: (intent, value) for ident, intent, value in t.hints})
            self.option_hints.update({label: (intent, value) for label, intent, value in t.option_hints})
            self.tests.extend(t.tests)
            self.rules.extend(t.rules)
            for wid, skills in t.triggers.items():
                self.triggers[wid] = self.triggers.get(wid, ()) + skills
        # The kingdom whose players share a kingdom with nobody (`bind lone_kingdom 野心家`): a value role binds
        # the enum value's id. None: the rules bind none, and every kingdom is shared by its players.
        self.lone_kingdom: str | None = self.binds.get("lone_kingdom")
        self.cards = {cid: _inherit(self.cards, c) for cid, c in self.cards.items()}
        natures = self.enums.get("nature")
        if natures is not None and natures.items:  # a card that declares no 属性 deals the first (普通)
            plain = natures.items[0][0]
            self.cards = {cid: c if c.nature else attrs.evolve(c, nature=plain) for cid, c in self.cards.items()}
        # Packages compiled from a designer's files (not from rules/): their heroes join every hero pool.
        self.designer = {t.package for t in tables if t.sources and not all(s.startswith("rules/") for s in t.sources)}
        self.names = {}  # Chinese name or id -> (kind, id), for the CLI
        for kind in ("cards", "heroes", "skills", "windows", "modes", "decks", "pools", "flows", "quantities"):
            for d in getattr(self, kind).values():
                self.names.setdefault(d.id, (kind, d.id))
                self.names.setdefault(d.name, (kind, d.id))
        self.scoped_counters = {s: tuple(c.id for c in self.counters.values() if c.scope == s)
                                for s in ("phase", "turn", "game")}
        phase = self.enums.get("phase")
        self.phase_names = {i: n for i, n, _ in phase.items} if phase else {}
        self.phase_order = [i for i, _, _ in phase.items] if phase else []
        self.enum_names = {i: n for e in self.enums.values() for i, n, _ in e.items}

    def hero_pool(self, mode) -> list[str]:
        """The mode's heroes (its packages' and those it names, less those it keeps out), plus every hero of a
        designer's files (that is what they want to see played); a hero with `modes` only in those modes.
        check/meetings.py computes the same pool from the syntax tree."""
        pool = [h for pkg in mode.hero_packages for h in self.package_heroes.get(pkg, ())] + list(mode.heroes)
        pool += [h for pkg in self.designer for h in self.package_heroes.get(pkg, ())]
        pool = [h for h in dict.fromkeys(pool) if h not in mode.hero_except and h in self.heroes]
        return [h for h in pool if not self.heroes[h].modes or mode.id in self.heroes[h].modes]

    def find_mode(self, name: str):
        """A mode by its id, Chinese name or alias (`--mode 1v1`), or None."""
        return self.modes.get(name) or next((m for m in self.modes.values() if m.named(name)), None)

    def deck_list(self) -> str:
        """The decks as an error message lists them: id (Chinese name)."""
        return ", ".join(f"{i} ({d.name})" for i, d in self.decks.items())

    def deck_ids(self, names) -> tuple[str, ...]:
        """Decks named by id or Chinese name (`--deck 势备篇`) as ids; KeyError names the first that is neither."""
        by_name = {d.name: i for i, d in self.decks.items()}
        out = []
        for n in names:
            i = n if n in self.decks else by_name.get(n)
            if i is None:
                raise KeyError(n)
            out.append(i)
        return tuple(out)

    def for_mode(self, mode) -> Ruleset:
        """These rules with the mode's own variant packages selected (a mode plays with its versions of skills)."""
        if all(v in self.variants for v in mode.variants):
            return self
        key = tuple(dict.fromkeys(self.variants + mode.variants))
        rules = self.variant_rules.get(key)
        if rules is None:  # made once: every game of the mode plays with the same (unchanging) tables
            rules = self.variant_rules[key] = Ruleset(self.all_tables, key)
        return rules

    def with_heroes(self, heroes: tuple) -> Ruleset:
        """These rules and some heroes more, in a package of their own (simulate --ablate's copies of a hero
        without one skill); made once per set of heroes."""
        key = ("+",) + tuple(h.id for h in heroes)
        rules = self.variant_rules.get(key)
        if rules is None:
            extra = Tables(package="+heroes", title=None, uses=(), sources=(), heroes=tuple(heroes))
            rules = self.variant_rules[key] = Ruleset(self.all_tables + [extra], self.variants)
        return rules

    def role(self, role: str):
        """The flow, window, event or quantity bound to an engine role (or None; a value role's id is in binds)."""
        target = self.binds.get(role)
        if target is None:
            return None
        for table in (self.flows, self.windows, self.events, self.quantities):
            if target in table:
                return table[target]
        return None

    def lookup(self, name: str):
        return self.names.get(name)
