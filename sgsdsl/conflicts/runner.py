"""`run_checks`: every family over a build and over each variant package's table, findings of several modes
joined into one, acknowledgements (`allow SGS3nn "reason"`) marked, a designer's findings kept."""

from __future__ import annotations

from pathlib import Path

import attrs

from ..lang import ast, compiler
from ..lang.compiler import Build
from ..lang.diagnostics import Diagnostic
from . import data, dead, fields, intents, loops, modifiers, pairs, recursion, replacements, text


def _carriers(b: Build) -> list:
    """(span, {code: reason}, who) of every skill, card, deck and mode rule that acknowledges a finding; who
    names the declaration ("skill 护驾")."""
    out = []
    decls = []
    for pkg in b.model.packages.values():  # every package, variants included
        for d in pkg.decls:
            if isinstance(d, (ast.SkillDecl, ast.CardDecl, ast.DeckDecl)):
                decls.append((_KIND.get(type(d), "rule"), d))
            elif isinstance(d, ast.ModeDecl):
                decls.extend(("mode rule", r) for r in d.rules)
            elif isinstance(d, ast.RuleDecl):
                decls.append(("rule", d.rule))
    for kind, d in decls:
        allows = {f.code.text: f.reason for f in d.facets if isinstance(f, ast.Allow)}
        if allows:
            out.append((d.span, allows, f"{kind} {d.name.text}"))
    return out


_KIND = {ast.SkillDecl: "skill", ast.CardDecl: "card", ast.DeckDecl: "deck"}


def _shipped(span) -> bool:
    return span.file.startswith("rules/")


def _inside(span, outer) -> bool:
    return span.file == outer.file and (outer.line, outer.col) <= (span.line, span.col) <= \
        (outer.end_line, outer.end_col)


def acknowledge(b: Build, findings: list[Diagnostic]) -> list[Diagnostic]:
    """Mark the findings a rule involved accepts (`allow CODE "reason"`), saying which declaration accepted
    it. An `allow` in the shipped rules speaks for the shipped rules only: a finding that runs through a
    designer's rule is acknowledged only by an `allow` of the designer's."""
    carriers = _carriers(b)
    out = []
    for d in findings:
        spans = [d.span] + [n.span for n in d.notes]
        designer = not all(_shipped(s) for s in spans) or any(r.designer for r in getattr(d, "rules", ()))
        reason = None
        for span in spans:
            for outer, allows, who in carriers:
                if d.code in allows and _inside(span, outer) and not (designer and _shipped(outer)):
                    reason = f"{who}: {allows[d.code]}"
                    break
            if reason is not None:
                break
        out.append(attrs.evolve(d, acknowledged=reason) if reason is not None else d)
    return out


# Findings about every mode at once (a lord skill needs some mode with a lord): a variant's pass judges only
# the modes that play with it, so it says nothing of these about the files it does not own.
ACROSS_MODES = frozenset({"SGS334"})


def _merge_modes(b: Build, findings: list[Diagnostic]) -> list[Diagnostic]:
    """One finding for one thing found in several modes: the passes judge modes apart (a mode that plays
    with a variant package in that variant's pass), and say the same of each. A finding lists the modes its
    message names (`modes`, as the message joins them); findings that differ only there become one, whose
    message lists every mode, in the order the rules declare them."""
    order = [d.name.text for d in b.model.unique(b.model.g_modes)]
    groups: dict = {}
    for d in findings:
        modes = getattr(d, "modes", ())
        template = d.message.replace("、".join(modes), "\x00") if modes else d.message
        named = groups.setdefault((d.code, d.span, template), (d, []))[1]
        named += [n for n in modes if n not in named]
    out = []
    for (_, _, template), (first, modes) in groups.items():
        if len(modes) > len(first.modes):
            modes = [n for n in order if n in modes] + [n for n in modes if n not in order]
            first = attrs.evolve(first, message=template.replace("\x00", "、".join(modes)), modes=tuple(modes))
        out.append(first)
    return out


def run_checks(b: Build, only_designer: bool = False) -> list[Diagnostic]:
    from .facts import facts_of

    facts = facts_of(b)
    out: list[Diagnostic] = []
    for family in FAMILIES:
        out.extend(family(facts))
    judged = dead.judgments(facts)
    # A variant package is checked as the table it makes: its declarations over the ones it replaces. A
    # mode that always plays with it (`with guozhan_heroes`) is judged in its pass alone, and all of that
    # pass's findings are about such modes; a variant no mode names adds what concerns its own files.
    played_with = {v.text for d in b.model.unique(b.model.g_modes) for v in d.variants}
    for name, pkg in b.model.packages.items():
        if not pkg.variant:
            continue
        files = set(pkg.files)
        b.model.current = name
        try:
            vfacts = facts_of(b)
            seen = {(d.code, d.message, d.span) for d in out}
            for family in FAMILIES:
                for d in family(vfacts):
                    mine = name in played_with or d.span.file in files or any(n.span.file in files for n in d.notes)
                    if d.code in ACROSS_MODES and d.span.file not in files:
                        continue  # judged over every mode, which only the default pass sees
                    if mine and (d.code, d.message, d.span) not in seen:
                        out.append(d)
            judged += [j for j in dead.judgments(vfacts) if name in played_with or j.key[0] in files]
        finally:
            b.model.current = None
    out += dead.decide(judged, [d.name.text for d in b.model.unique(b.model.g_modes)])
    out = acknowledge(b, _merge_modes(b, out))
    if only_designer:
        out = [d for d in out if not d.span.file.startswith("rules/") or
               any(not n.span.file.startswith("rules/") for n in d.notes) or _shares_rules(d)]
    out.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, d.code, d.message))
    return out


def _shares_rules(d: Diagnostic) -> bool:
    """A finding about a designer's skill that takes the rules of a shipped one (`rules of`), placed in those rules."""
    return any(r.designer and getattr(r.decl, "rules_of", ()) for r in getattr(d, "rules", ()))


# The families, in the order their findings are computed.
FAMILIES: list = [modifiers.check, replacements.check, loops.check, recursion.check, dead.check, fields.check, data.check,
                  text.check, pairs.check, intents.check]  # each a function (Facts) -> list[Finding]


def diagnose(files: list[Path], select=(), ignore=()):
    """(build, diagnostics): errors, then, if there are none, the conflict findings; filtered by code prefix."""
    b = compiler.build(extra=files or None)
    diags = fields.explain(b, list(b.diagnostics))
    if not b.errors:
        diags.extend(run_checks(b, only_designer=bool(files)))
    diags = [d for d in diags if (not select or any(d.code.startswith(c) for c in select))
             and not any(d.code.startswith(c) for c in ignore)]
    return b, diags
