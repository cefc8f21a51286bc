"""`sgsdsl check`: rule-conflict findings (SGS3nn), one module per family.

Each family is a function (Facts) -> list[Finding] (a Finding is a Diagnostic that also keeps
the rules behind it, for `--scenario`). `run_checks` runs them all over a build, marks the
findings that a rule involved acknowledges with `allow SGS3nn "reason"`, and keeps those of a
designer's files when asked. docs/checks.md describes every code.
"""

from __future__ import annotations

import sys
import types

import attrs

from .. import ast
from ..compiler import Build
from ..diagnostics import Diagnostic

# SGS3nn -> (kebab-case name, why it matters)
CATALOGUE: dict[str, tuple[str, str]] = {
    "SGS301": ("order-dependent-modifiers",
               "Two `modify` of one quantity that both set it (`=`) to different values: the value depends on "
               "the order they apply in, which seed 001 leaves open."),
    "SGS302": ("order-dependent-event-writes",
               "Two triggers at one window: one sets an event field the other adds to, or one's `when` reads a "
               "field the other writes: the outcome depends on their order."),
    "SGS311": ("competing-cancellations",
               "Two effects both prevent the same event (both set `event.cancelled` at one window)."),
    "SGS312": ("competing-replacements",
               "Two effects both replace the same thing (both assign one event field with `=` at one window: "
               "the judgment card, the answering card …): only one can stand."),
    "SGS313": ("shared-cost",
               "Two skills spend the same thing as their cost (both give up the same draw): the second gets its "
               "effect for free."),
    "SGS321": ("trigger-loop",
               "A skill, or a cycle of skills, whose effect opens the window that triggers it again, and no round "
               "uses up anything for good (a use limit, cards, HP toward a bound): nothing stops it."),
    "SGS322": ("loop-ends-only-by-death",
               "A loop of triggers that costs HP every round and gives none back, with no other bound: it ends "
               "only when someone dies."),
    "SGS323": ("loop-without-exit",
               "A `while` whose test never turns false (`while true`), or a `repeat inf`, whose body has no "
               "`break` or `stop`."),
    "SGS324": ("flow-recursion-without-exit",
               "A flow, or a ring of flows, that calls itself on every path before anything could end it: "
               "every call starts another."),
    "SGS325": ("quantity-defined-by-itself",
               "A quantity whose value (its definition, a `modify` of it, or other quantities it reads) needs "
               "itself whenever it is read."),
    "SGS331": ("skill-never-triggered",
               "A trigger whose windows no flow of the modes it can appear in ever opens."),
    "SGS332": ("window-never-opened", "A window that is declared and that nothing opens."),
    "SGS333": ("condition-never-true", "A `when` that can never hold: the rule is off for good."),
    "SGS334": ("lord-skill-without-lord",
               "A 主公技 on a hero who can never be the lord (`never lord`, or no mode with a `lord` deals "
               "the hero)."),
    "SGS335": ("skill-dead-in-mode",
               "A hero is dealt in a mode where one of its skills can never fire (no flow of that mode opens its "
               "windows), though it fires in another mode."),
    "SGS341": ("field-write-without-effect",
               "An event field written at a window after which nothing reads it: the write changes nothing."),
    "SGS351": ("overfull-suit-rank",
               "A deck holds a suit and rank more often than its own pattern allows (standard: each twice)."),
    "SGS352": ("repeated-deck-entry",
               "The same entry (suit, rank and card) twice in a deck that repeats nothing else."),
    "SGS353": ("deck-size-mismatch", "A mode's decks do not add up to the total its `deck … N` declares."),
    "SGS354": ("identity-table-mismatch",
               "A mode's identity table lacks a row for an allowed player count, has a row outside the range or "
               "twice, or a row without exactly one lord."),
    "SGS355": ("mode-hero-unavailable",
               "A mode names a hero it cannot deal (not in its `heroes` pool), or its hero pool is empty."),
    "SGS356": ("deck-edition-mismatch",
               "A deck declared as a known edition does not hold, card by card, what the edition's reference list "
               "says (a card missing, extra, or under another suit and rank)."),
    "SGS357": ("mode-decks-overlap",
               "Two decks that a mode combines list the same card (suit, rank and name): the combined deck holds "
               "it twice."),
    "SGS361": ("text-timing-unused",
               "The official text names a timing (受到伤害后, 准备阶段 …) that the skill's rules do not use."),
    "SGS362": ("text-limit-unused",
               "The official text states a use limit or a type (出牌阶段限一次, 锁定技, 主公技 …) that the rules "
               "do not have."),
    "SGS363": ("type-not-in-text", "The rules give a skill a type (locked, lord …) that its text does not state."),
    "SGS364": ("text-others-unused",
               "The official text says 其他角色 (其他蜀势力角色 …), but no rule of the skill keeps its owner out."),
    "SGS365": ("limit-not-in-text",
               "A rule has `limit 1 per phase` or `per turn` that the official text does not state."),
    "SGS381": ("pair-order-dependent", "Family 1 (SGS301/SGS302) across two heroes that can meet."),
    "SGS382": ("pair-competing-replacements", "Family 2 (SGS311–SGS313) across two heroes that can meet."),
    "SGS383": ("pair-trigger-loop", "Family 3 (SGS321) across two heroes that can meet."),
    "SGS384": ("pair-loop-ends-only-by-death", "Family 3 (SGS322) across two heroes that can meet."),
    "SGS385": ("pair-limit-restored",
               "A skill gives back the use limit of another hero's skill (`reset_limit`, or writing the counter "
               "that skill counts its uses with): its 限定技, 觉醒技 or per-turn limit no longer holds."),
}




def catalogue() -> dict[str, tuple[str, str]]:
    return dict(sorted(CATALOGUE.items()))


def _carriers(b: Build) -> list:
    """(span, {code: reason}) of every skill, card, deck and mode rule that acknowledges a finding."""
    out = []
    decls = []
    for pkg in b.model.packages.values():  # every package, variants included
        for d in pkg.decls:
            if isinstance(d, (ast.SkillDecl, ast.CardDecl, ast.DeckDecl)):
                decls.append(d)
            elif isinstance(d, ast.ModeDecl):
                decls.extend(d.rules)
            elif isinstance(d, ast.RuleDecl):
                decls.append(d.rule)
    for d in decls:
        allows = {f.code.text: f.reason for f in d.facets if isinstance(f, ast.Allow)}
        if allows:
            out.append((d.span, allows))
    return out


def _inside(span, outer) -> bool:
    return span.file == outer.file and (outer.line, outer.col) <= (span.line, span.col) <= \
        (outer.end_line, outer.end_col)


def acknowledge(b: Build, findings: list[Diagnostic]) -> list[Diagnostic]:
    carriers = _carriers(b)
    out = []
    for d in findings:
        reason = None
        for span in [d.span] + [n.span for n in d.notes]:
            for outer, allows in carriers:
                if d.code in allows and _inside(span, outer):
                    reason = allows[d.code]
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
        finally:
            b.model.current = None
    out = acknowledge(b, _merge_modes(b, out))
    if only_designer:
        out = [d for d in out if not d.span.file.startswith("rules/") or
               any(not n.span.file.startswith("rules/") for n in d.notes) or _shares_rules(d)]
    out.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, d.code, d.message))
    return out


def _shares_rules(d: Diagnostic) -> bool:
    """A finding about a designer's skill that takes the rules of a shipped one (`rules of`), placed in those rules."""
    return any(r.designer and getattr(r.decl, "rules_of", ()) for r in getattr(d, "rules", ()))


# The families, in the order their findings are computed (the modules import CATALOGUE above).
from . import data, dead, fields, loops, modifiers, pairs, recursion, replacements, text  # noqa: E402

FAMILIES: list = [modifiers.check, replacements.check, loops.check, recursion.check, dead.check, fields.check, data.check,
                  text.check, pairs.check]  # each a function (Facts) -> list[Finding]


class _CallableModule(types.ModuleType):
    """`sgsdsl.check` is both this package and the library's check() (docs/api.md): importing the package sets
    the attribute on `sgsdsl`, so the package itself answers the call."""

    def __call__(self, *paths, select=(), ignore=()):
        from ..api import check

        return check(*paths, select=select, ignore=ignore)


sys.modules[__name__].__class__ = _CallableModule
