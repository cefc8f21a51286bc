"""`rules of P.S`: a skill that plays by the rules of skill S of package P, under its own text and tests.

Run by resolve once every package's declarations are collected. For each skill that says `rules of`,
it finds S among P's own declarations (P must be the skill's package or one it uses), follows a chain
of such skills to the one that writes the rules, and puts in the model, in place of the sharing skill,
a copy of it that carries those facets and counters. Every later pass (the type checker, the conflict
checks) sees the sharing skill as it would see a copy of the rules, while the rules stay one set of
nodes: the type checker reads them once, in the package that writes them, and the code generator emits
their functions once, there; the sharing skill's table row names the skill whose functions it runs.
"""

from __future__ import annotations

import attrs

from . import ast
from .diagnostics import Diagnostic, Note, suggest
from .model import Model


def share_rules(m: Model) -> list[Diagnostic]:
    diags: list[Diagnostic] = []

    def err(code, msg, span, help=None, notes=()):
        diags.append(Diagnostic(code, msg, span, help=help, notes=tuple(notes)))

    sharing = [(name, d) for name, pkg in m.packages.items() for d in pkg.decls
               if isinstance(d, ast.SkillDecl) and d.rules_of]
    takes: dict[int, tuple[ast.SkillDecl, str]] = {}  # id(sharing skill) -> (the skill named, its package)
    for pkg, d in sharing:
        first, *more = d.rules_of
        for r in more:
            err("SGS208", f"skill {d.name.text} already takes the rules of "
                f"{_written(first)}", r.span, help="a skill plays by the rules of one skill")
        own = next((f for f in d.facets if not isinstance(f, ast.Allow)), None) or next(iter(d.counters), None)
        if own is not None:
            err("SGS208", f"skill {d.name.text} takes the rules of {_written(first)}, and writes rules of its own",
                own.span, help="keep the text, the tests and `allow` lines here; write the rules in one of the two skills",
                notes=[Note(first.span, "it takes them here")])
            continue
        found = _named(m, pkg, first, err)
        if found is not None:
            takes[id(d)] = found
    for pkg, d in sharing:
        if id(d) not in takes:
            continue
        chain, cur, seen = [(d, pkg)], d, {id(d)}
        while id(cur) in takes:
            chain.append(takes[id(cur)])
            cur = chain[-1][0]
            if id(cur) in seen:
                break
            seen.add(id(cur))
        if id(cur) in takes:  # came back to a skill of the chain
            ring = chain[:-1]
            if cur is d and d is min((c for c, _ in ring), key=lambda c: (c.span.file, c.span.line, c.span.col)):
                path = " → ".join(f"{p}.{c.name.text}" for c, p in chain)
                err("SGS212", f"skill {d.name.text} takes its rules from itself: {path}", d.rules_of[0].span,
                    help="one skill of the ring must write its rules (`on …`, `active …` …) instead of `rules of`",
                    notes=[Note(c.rules_of[0].span, f"{p}.{c.name.text} takes them here") for c, p in ring[1:]])
            continue  # a skill that leads into a ring, not on it, is left to the ring's error
        if cur.rules_of:
            continue  # the chain ends at a skill whose `rules of` is already an error
        if set(d.types) != set(cur.types):
            shown = " ".join(cur.types) or "no type"
            err("SGS208", f"skill {d.name.text} takes the rules of {chain[-1][1]}.{cur.name.text}, which is "
                f"{shown}, but is {' '.join(d.types) or 'of no type'} itself", d.name.span,
                help="a type is part of the rules: write the same types after the id",
                notes=[Note(cur.span, f"{chain[-1][1]}.{cur.name.text} is declared here")])
            continue
        # its own `allow` lines (a finding only this skill meets) stay beside the rules it takes
        _replace(m, pkg, d, attrs.evolve(d, facets=cur.facets + d.facets, counters=cur.counters))
    return diags


def own_allows(d: ast.SkillDecl) -> tuple[ast.Allow, ...]:
    """The `allow` lines written in a sharing skill's own block (not those of the rules it takes)."""
    s = d.span
    return tuple(f for f in d.facets if isinstance(f, ast.Allow) and f.span.file == s.file
                 and (s.line, s.col) <= (f.span.line, f.span.col) <= (s.end_line, s.end_col))


def taken_from(m: Model, d: ast.SkillDecl) -> tuple[str, ast.SkillDecl]:
    """The package and the declaration of the skill that a (resolved) sharing skill names in `rules of`."""
    r = d.rules_of[0]
    return r.package.text, _find(m.packages[r.package.text], r.skill.text)


def _written(r: ast.RulesOf) -> str:
    return f"{r.package.text}.{r.skill.text}" if r.package is not None else r.skill.text


def _find(pkg, text: str) -> ast.SkillDecl | None:
    return next((d for d in pkg.decls if isinstance(d, ast.SkillDecl) and text in (d.name.text, d.id.text)), None)


def _named(m: Model, pkg: str, r: ast.RulesOf, err) -> tuple[ast.SkillDecl, str] | None:
    """The skill `rules of` names, with its package; None after an error."""
    name = r.skill.text
    holders = [p for p, x in m.packages.items() if _find(x, name) is not None]
    if r.package is None:
        err("SGS208", f"`rules of {name}` does not say whose {name}: name the package", r.skill.span,
            help=f"write `rules of {holders[0]}.{name}`" + (f" (packages declaring it: {', '.join(holders)})"
                                                            if len(holders) > 1 else "")
            if holders else f"no package declares a skill '{name}'")
        return None
    p = r.package.text
    if p not in m.packages:
        err("SGS110", f"no rules package named '{p}'", r.package.span,
            help=suggest(p, m.packages) or f"packages: {', '.join(m.packages)}")
        return None
    if p != pkg and p not in _reach(m, pkg):
        err("SGS101", f"package '{p}' is not in reach of package '{pkg}', which does not use it", r.package.span,
            help=f"add `use {p}` at the top of a file of package '{pkg}'")
        return None
    found = _find(m.packages[p], name)
    if found is None:
        skills = [x for d in m.packages[p].decls if isinstance(d, ast.SkillDecl) for x in (d.name.text, d.id.text)]
        others = [h for h in holders if h != p]
        err("SGS106", f"package '{p}' declares no skill '{name}'", r.skill.span,
            help=suggest(name, skills) or (f"packages declaring it: {', '.join(others)}" if others else None))
        return None
    return found, p


def _reach(m: Model, pkg: str) -> set[str]:
    """The packages `pkg` uses, and those they use in turn."""
    seen, todo = set(), list(m.packages[pkg].uses)
    while todo:
        p = todo.pop()
        if p not in seen and p in m.packages:
            seen.add(p)
            todo.extend(m.packages[p].uses)
    return seen


def _replace(m: Model, pkg: str, old: ast.SkillDecl, new: ast.SkillDecl) -> None:
    """`new` wherever resolve put `old`: its package's declarations, the skill tables, the value names."""
    decls = m.packages[pkg].decls
    decls[next(i for i, x in enumerate(decls) if x is old)] = new
    m.owner[id(new)] = pkg
    for table in [m.g_skills] + [o["skills"] for o in m.overlays.values()]:
        for k, v in table.items():
            if v is old:
                table[k] = new
    for table in [m.g_values] + [o["values"] for o in m.overlays.values()]:
        for sym in table.values():
            if sym.decl is old:
                sym.decl = new
