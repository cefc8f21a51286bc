"""Family 8: pairs of heroes.

Families 1–3 are run over every pair of heroes that can meet in some mode (meetings.py: both
in the hero pool of one mode, at one table or on one seat). What needs two different heroes at
the table is reported here, once per pair, with both heroes and the modes they meet in named:

SGS381: order-dependent modifiers or event writes across two heroes (family 1).
SGS382: competing replacements or costs across two heroes (family 2).
SGS383: a loop of triggers across two heroes (family 3); SGS384 when only a death ends it.
SGS385: a skill that gives back the use limit of another hero's skill (`reset_limit`, or by
writing the counter that skill counts its uses with).
"""

from __future__ import annotations

from ..lang import ast
from ..lang.diagnostics import Note
from . import loops, modifiers, replacements
from .facts import Facts
from .findings import finding as make

PAIR_CODES = ("SGS381", "SGS382", "SGS383", "SGS384")
# A counter set back to zero, or lowered: what "not used yet" means for a skill counting its own uses.
_GIVES_BACK = ("-", "=('int', 0)")


def _limited(sk: ast.SkillDecl) -> bool:
    return bool({"limited", "awaken"} & set(sk.types)) or any(getattr(f, "limit", None) is not None
                                                              for f in sk.facets)


def _restored(facts: Facts, r) -> list:
    """(skill, how, on its owner's seat only, of its owner's kingdom only) of every skill whose use limit rule r
    can give back: the skill it names, the skills of the type it picks (`where it.limited`), any; its owner's own
    (`reset_limit(self, …)`) can be another hero's only when the two heroes share a seat, and a player's that an
    `if` pins to the owner's kingdom (`same_kingdom(self, t)`) only a hero of that kingdom's."""
    m = facts.m
    out = []
    for entry in sorted(r.body.resets):
        flag, _, sid = entry.rpartition("|")
        seat, kin = flag == "self", flag == "kin"
        if sid == "*":
            out += [(sk, "`reset_limit` of any skill", seat, kin) for sk in m.unique(m.skills) if _limited(sk)]
        elif sid.startswith("type:"):
            t = sid.split(":", 1)[1]
            out += [(sk, f"`reset_limit` of a skill that is `{t}`", seat, kin) for sk in m.unique(m.skills)
                    if t in sk.types and _limited(sk)]
        elif sid in m.skills and _limited(m.skills[sid]):
            out.append((m.skills[sid], "`reset_limit`", seat, kin))
    for res, d, _paid, _whose in sorted(r.body.deltas):
        if not res.startswith("mark:") or d not in _GIVES_BACK:
            continue
        counter = m.counters.get(res.split(":", 1)[1])
        for sk in m.unique(m.skills):
            if counter is not None and counter in sk.counters:
                out.append((sk, f"resetting the counter {counter.name.text} it counts its uses with", False, False))
    return out


def _kingdom(h) -> str | None:
    return h.kingdom.text if h.kingdom is not None else None


def limit_restored(facts: Facts) -> list:
    out, seen = [], set()
    for r in facts.live:
        if r.holder != "hero":
            continue
        for sk, how, seat, kin in _restored(facts, r):
            if sk is r.decl:
                continue
            for x in r.heroes:
                for y in facts.skill_heroes.get(id(sk), ()):
                    key = (id(r.decl), id(sk), id(x), id(y))
                    if x is y or key in seen or not ((not seat and facts.can_meet(x.name.text, y.name.text))
                                                     or facts.share_seat(x.name.text, y.name.text)):
                        continue
                    if kin and _kingdom(x) != _kingdom(y):
                        continue  # `same_kingdom` never picks a player of y's kingdom
                    seen.add(key)
                    types = "、".join(t for t, k in (("限定技", "limited"), ("觉醒技", "awaken")) if k in sk.types)
                    kind = types or "use limit"
                    target = next((f for f in sk.facets if getattr(f, "limit", None) is not None), sk)
                    out.append(make(
                        "SGS385", f"{facts.pair_label(x, y)}: {r.name} ({x.name.text}) gives back the uses of "
                        f"{sk.name.text} ({y.name.text}) by {how}: its {kind} no longer holds", r.span,
                        f"{sk.name.text} is written to be used {'once per game' if types else 'a limited number of times'}; "
                        f"with {x.name.text} at the table it can be used again: keep it if that is the design, and say "
                        "so with `allow SGS385`", "none: seed 001 §2(2) counts a skill's type and its limits among its "
                        "elements; a rule that gives them back changes another skill, not the order of a settlement",
                        notes=[Note(target.span, f"{sk.name.text}'s {kind} is here")],
                        rules=(r,), heroes=(x, y), modes=facts.pair_modes(x, y)))
    return out


def check(facts: Facts) -> list:
    out = []
    for family in (modifiers, replacements, loops):
        out.extend(f for f in family.all_findings(facts) if f.code in PAIR_CODES)
    return out + limit_restored(facts)
