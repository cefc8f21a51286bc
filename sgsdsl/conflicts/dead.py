"""Family 4: dead rules.

SGS331: a trigger whose windows no flow of the modes it can appear in ever opens.
SGS335: a hero's trigger that fires in some of the modes that deal the hero, but not in another:
in that mode the hero is dealt with a skill that can never fire.
SGS332: a window that is declared and never opened by anything.
SGS333: a `when` that can never hold (constant false, or two conjuncts that contradict).
SGS334: a lord skill (主公技) on a hero who can never be the lord.

What a mode opens: its setup, its rules, the flows bound to the `turn` and `use` roles (the
engine runs them), the card hooks of the cards in its decks, the skills of the heroes in its
pool, and whatever those call, transitively. A rule that appears in no mode (a designer's
card in no deck) is judged against everything the rules open anywhere.
"""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.diagnostics import Note
from .facts import Facts
from .findings import NO_PRINCIPLE_DEAD
from .findings import finding as make


def _opened(facts: Facts, bodies) -> set[str]:
    out: set[str] = set()
    for b in bodies:
        out.update(b.own_opens)
        out.update(s.window for s in b.opens)
    return out


def global_reach(facts: Facts) -> set[str]:
    memo = facts.memo
    if "reach" not in memo:
        az = facts.az
        bodies = list(az.flows.values()) + list(az.hooks.values()) + [r.body for r in facts.rules]
        for mode in facts.m.unique(facts.m.modes):
            if mode.setup is not None:
                bodies.append(az.scan([mode.setup], own_event=None, owner=False))
        memo["reach"] = _opened(facts, bodies)
    return memo["reach"]


def mode_reach(facts: Facts, mode) -> set[str]:
    memo = facts.memo
    key = ("reach", mode.id.text)
    if key in memo:
        return memo[key]
    m, az = facts.m, facts.az
    bodies = []
    if mode.setup is not None:
        bodies.append(az.scan([mode.setup], own_event=None, owner=False))
    for role in ("turn", "use"):
        f = m.role_target(role)
        if isinstance(f, ast.FlowDecl):
            bodies.append(az.flows[f.id.text])
    cards = _mode_cards(facts, mode)
    bodies += [az.hooks[c] for c in cards if c in az.hooks]
    pool = facts.pools.get(mode.id.text, set())
    for r in facts.rules:
        if r.holder == "mode" and in_mode(facts, r, mode):
            bodies.append(r.body)
        elif r.holder == "hero" and any(h.name.text in pool for h in r.heroes):
            bodies.append(r.body)
        elif r.holder in ("equipment", "card") and r.decl.id.text in cards:
            bodies.append(r.body)
    memo[key] = _opened(facts, bodies)
    return memo[key]


def _mode_cards(facts: Facts, mode) -> set[str]:
    out = set()
    for n in mode.decks:
        d = facts.m.decks.get(n.text)
        for e in d.entries if d else ():
            c = facts.m.cards.get(e.card.text)
            if c is not None:
                out.add(c.id.text)
    return out


def modes_of_rule(facts: Facts, r) -> list:
    if r.holder == "hero":
        seen, out = set(), []
        for h in r.heroes:
            for mode in facts.modes_of_hero(h.name.text):
                if id(mode) not in seen:
                    seen.add(id(mode))
                    out.append(mode)
        return out
    if r.holder in ("equipment", "card"):
        return [mode for mode in facts.judged_modes() if r.decl.id.text in _mode_cards(facts, mode)]
    if r.holder == "mode":
        return [mode for mode in facts.judged_modes() if in_mode(facts, r, mode)]
    return []


def in_mode(facts: Facts, r, mode) -> bool:
    """Is a rule of the game in effect in this mode: the mode's own, a package's, and for a `rule … for` card rule
    only where one of its cards may be dealt (the mode's decks, or a deck made for the mode that a run may add)."""
    if any(r.decl is x for x in mode.rules):
        return True
    if not r.package_rule:
        return False
    return not r.for_cards or any(c in _dealable(facts, mode) for c in r.for_cards)


def _dealable(facts: Facts, mode) -> set[str]:
    key = ("dealable", mode.id.text)
    if key not in facts.memo:
        out = set(_mode_cards(facts, mode))
        for d in facts.m.unique(facts.m.decks):
            if d.modes and any(facts.m.modes.get(n.text) is mode for n in d.modes):
                out.update(c.id.text for e in d.entries if (c := facts.m.cards.get(e.card.text)) is not None)
        facts.memo[key] = out
    return facts.memo[key]


@attrs.frozen
class Judgment:
    """Whether a trigger can fire in one mode (mode None: anywhere in the rules), as one pass sees it. The
    passes judge modes apart (a mode that plays with a variant package in that package's pass); decide()
    puts every mode a rule can be dealt in together."""

    key: tuple  # the rule, the same in every pass: (file, line, col, facet index)
    rule: object
    mode: object
    alive: bool
    heroes: tuple = ()  # the rule's heroes that this mode deals


def judgments(facts: Facts) -> list[Judgment]:
    out = []
    everywhere = None
    for r in facts.rules:
        if r.kind != "trigger" or not r.windows:
            continue
        key = (r.facet.span.file, r.facet.span.line, r.facet.span.col, r.index)
        modes = modes_of_rule(facts, r)
        for mode in modes:
            heroes = tuple(h.name.text for h in r.heroes if h.name.text in facts.pools.get(mode.id.text, ()))
            out.append(Judgment(key, r, mode, any(w.id.text in mode_reach(facts, mode) for w in r.windows), heroes))
        if not modes:
            everywhere = global_reach(facts) if everywhere is None else everywhere
            out.append(Judgment(key, r, None, any(w.id.text in everywhere for w in r.windows)))
    return out


def decide(judged: list[Judgment], order: list[str]) -> list:
    """SGS331 and SGS335 from every pass's judgments together: a rule that fires in no mode it can be dealt in
    never fires (SGS331); one that fires in some is dead only in the others (SGS335, one finding per mode).
    `order`: the modes' names in the order the rules declare them."""
    groups: dict[tuple, list] = {}
    for j in judged:
        groups.setdefault(j.key, []).append(j)
    out = []
    rank = {n: i for i, n in enumerate(order)}
    for js in groups.values():
        r = js[0].rule
        names = "、".join(w.name.text for w in r.windows)
        window_notes = [Note(w.span, f"window {w.name.text} is declared here") for w in r.windows]
        by_mode: dict[str, Judgment] = {}
        for j in js:
            if j.mode is not None:
                by_mode.setdefault(j.mode.name.text, j)
        judged_modes = sorted(by_mode.values(), key=lambda j: rank.get(j.mode.name.text, len(rank)))
        if not judged_modes:
            if not any(j.alive for j in js):
                out.append(make("SGS331", f"{r.label()} fires at {names}, which nothing in the rules opens", r.span,
                                "a skill whose timing never comes never fires: the hero plays without it",
                                NO_PRINCIPLE_DEAD, notes=window_notes, rules=(r,)))
            continue
        dead = [j for j in judged_modes if not j.alive]
        lives = [j.mode.name.text for j in judged_modes if j.alive]
        if dead and lives:
            out.extend(_dead_in_modes(r, dead, lives, names, window_notes))
        elif dead:
            modes = tuple(j.mode.name.text for j in dead)
            out.append(make("SGS331", f"{r.label()} fires at {names}, which no flow of {'、'.join(modes)} opens",
                            r.span, "a skill whose timing never comes never fires: the hero plays without it",
                            NO_PRINCIPLE_DEAD, notes=window_notes, rules=(r,), modes=modes))
    return out


def _dead_in_modes(r, dead: list, lives: list, names: str, window_notes: list) -> list:
    """SGS335: one finding for the modes that deal the rule's hero where the rule never fires, judged with
    the modes where it fires."""
    modes = [j.mode.name.text for j in dead]
    heroes = list(dict.fromkeys(h for j in dead for h in j.heroes))
    them = "it" if len(modes) == 1 else "them"
    dealt = f"{'、'.join(heroes)} is dealt there" if heroes else f"{them} deal{'s' if them == 'it' else ''} it"
    where = "、".join(modes)
    return [make(
        "SGS335", f"{r.label()} never fires in {where}: no flow of {them} opens {names}, though {dealt}", r.span,
        f"the skill works in {'、'.join(lives)} only: keep the hero out of the other modes (`modes …` on the "
        f"hero, or `except` in a mode's `heroes`), or give the skill a timing they have",
        NO_PRINCIPLE_DEAD, notes=[*(Note(j.mode.span, f"mode {j.mode.name.text} is declared here") for j in dead),
                                  *window_notes], rules=(r,), modes=tuple(modes))]


def check(facts: Facts) -> list:
    """SGS332–SGS334 (SGS331 and SGS335 are decided over every pass: judgments, decide)."""
    m = facts.m
    out = []
    everywhere = global_reach(facts)
    for r in facts.rules:
        if r.when is not None and facts.cond.truth(r.when) is False:
            out.append(make("SGS333", f"the `when` of {r.label()} can never hold", r.when.span,
                            "a condition that is always false turns the rule off for good: a typo, or two "
                            "conditions that contradict", NO_PRINCIPLE_DEAD, rules=(r,)))
    for w in m.unique(m.windows):
        if w.id.text not in everywhere:
            listeners = facts.by_window.get(w.id.text, [])
            notes = [Note(x.span, f"{x.label()} waits for it") for x in listeners]
            out.append(make("SGS332", f"window {w.name.text} is declared but nothing opens it", w.span,
                            "no flow, card or skill has `open " + w.name.text + "`: every skill that fires there "
                            "is dead", NO_PRINCIPLE_DEAD, notes=notes))
    for s in m.unique(m.skills):
        if "lord" not in s.types:
            continue
        for h in facts.skill_heroes.get(id(s), []):
            if h.never_lord:
                why_not = f"{h.name.text} is `never lord`"
            else:
                modes = facts.modes_of_hero(h.name.text)
                if any(mode.lord is not None for mode in modes):
                    continue
                why_not = (f"no mode that deals {h.name.text} has a `lord`" if modes
                           else f"no mode deals {h.name.text}")
            out.append(make("SGS334", f"lord skill {s.name.text} can never work: {why_not}", s.span,
                            "a 主公技 works only while its owner is the lord (the mode's `lord` identity)",
                            NO_PRINCIPLE_DEAD, notes=[Note(h.span, f"hero {h.name.text} has it")]))
    return out
