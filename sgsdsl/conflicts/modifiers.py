"""Family 1: order-dependent modifiers.

SGS301: two `modify` of one quantity that can apply to the same question, where both set (`=`)
different values: the engine applies the `=` in the order the skills were gained, and seed 001
leaves that order open.
SGS302: two triggers at one window, for one event, where one sets an event field and the
other adds to it, or one's `when` reads a field the other writes. Seed 001 orders triggers at a
timing (② the seats, ③ hero before equipment and the owner's choice), so these are notes that
say which principle settles it and how each order it allows ends.

Pure additions commute, two sets of the same value agree, and a `=` beside a `+=`/`-=` cannot
depend on the order (the engine applies every `=` first, then adds the sums, then every `= final`):
none is a finding. Two `= final` of different values disagree as two `=` do (SGS301).
When the two rules need two different heroes at the table, the finding belongs to the pairs family.
"""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.tree import same_expr
from .facts import Facts, Rule
from .findings import CONTINUOUS, meeting, note, ordered, principle_at_window, source, who
from .findings import finding as make
from .pairing import sharing


def _co_apply(facts: Facts, a: Rule, b: Rule):
    """(one player, two players): can both modifiers bear on one call of the quantity?"""
    sa = {i for i, x in enumerate(a.facet.args) if x.text == "self"}
    sb = {i for i, x in enumerate(b.facet.args) if x.text == "self"}
    same = facts.same_player(a, b)
    if sa & sb:
        return same, False
    return same, facts.two_players(a, b)


def modifier_conflicts(facts: Facts) -> list:
    out = []
    by_q: dict[str, list[Rule]] = {}
    for r in facts.live:
        if isinstance(r.facet, ast.Modify) and r.facet.quantity.text in facts.m.quantities:
            by_q.setdefault(facts.m.quantities[r.facet.quantity.text].id.text, []).append(r)
    for qid, rules in by_q.items():
        q = facts.m.quantities[qid]
        sets = ("=", "= final")
        for a0, partners in sharing(rules, lambda r: (r.facet.op,) if r.facet.op in sets else ()):
            for b0 in partners:
                a, b = a0, b0
                fa, fb = a.facet, b.facet
                # Only two sets of one kind and different values can disagree: every `=` applies before the
                # sums, every `= final` after them.
                if fa.op != fb.op or fa.op not in sets or same_expr(fa.value, fb.value):
                    continue
                if facts.cond.disjoint(a.constraints, b.constraints):
                    continue
                if "mode" in (a.holder, b.holder):
                    same, two = True, False
                else:
                    same, two = _co_apply(facts, a, b)
                if not (same or two):
                    continue
                a, b = ordered(a, b)
                fa, fb = a.facet, b.facet
                seat = facts.seat_heroes(a, b) if same else None
                heroes = seat or (None if same else (facts.meeting_heroes(a, b) if a.holder == b.holder == "hero"
                                                     else None))
                if not same and a.holder == b.holder == "hero" and heroes is None:
                    continue
                qn = q.name.text
                msg = f"{who(a)} and {who(b)} both set {qn}: whichever applies last wins"
                why = (f"a `=` throws away what was applied before it: {qn} is `{source(facts, fa.value)}` or "
                       f"`{source(facts, fb.value)}` depending on the order")
                sa = {k for k, x in enumerate(fa.args) if x.text == "self"}
                sb = {k for k, x in enumerate(fb.args) if x.text == "self"}
                where = ("when one player has both heroes, main and deputy" if seat else
                         "when both heroes are at one table" if heroes else
                         "when one player has both" if sa & sb else "when both are in play")
                msg += f" ({where})"
                code = "SGS381" if heroes else "SGS301"
                if heroes:
                    msg = f"{facts.pair_label(*heroes)}: " + msg
                out.append(make(code, msg, fa.span, why, CONTINUOUS,
                                notes=[note(b, f"{b.label()} modifies {qn} here")], rules=(a, b),
                                heroes=heroes or (), quantity=q, same=same,
                                modes=facts.pair_modes(*heroes) if heroes else ()))
    return _grouped(out)


def _grouped(found: list) -> list:
    """One SGS301 per modifier: the others it conflicts with become notes (six horses are one finding)."""
    groups: dict[int, list] = {}
    for f in found:
        if f.code == "SGS301":
            groups.setdefault(id(f.rules[0]), []).append(f)
    out = []
    for f in found:
        g = groups.get(id(f.rules[0])) if f.code == "SGS301" else None
        if g is None or len(g) == 1:
            out.append(f)
        elif f is g[0]:
            a, q = f.rules[0], f.extra["quantity"]
            others = "、".join(x.rules[1].name for x in g)
            msg = (f"{who(a)} and {len(g)} other modifiers of {q.name.text} ({others}) set it to other values: "
                   "whichever applies last wins")
            out.append(attrs.evolve(f, message=msg, notes=tuple(n for x in g for n in x.notes),
                                    help=f.help + f"; likewise with {'、'.join(x.rules[1].name for x in g[1:])}"))
    return out


def field_conflicts(facts: Facts, skip: set) -> list:
    """SGS302: at one window, a set and an addition of one field, or a `when` reading another's write."""
    out = []
    for wid, rules in facts.by_window.items():
        w = facts.m.windows[wid]
        for a0, partners in sharing(rules, lambda r: (f for f, *_ in r.body.writes), lambda r: r.when_reads):
            for b0 in partners:
                a, b = a0, b0
                if (id(a), id(b)) in skip or facts.cond.disjoint(a.constraints, b.constraints):
                    continue
                reason = _field_reason(a, b)
                if reason is None:
                    continue
                met = meeting(facts, a, b, w)
                if met is None:
                    continue
                t, heroes = met
                a, b = ordered(a, b)
                reason = _field_reason(a, b)
                kind, field, x, y = reason
                if kind == "mix":
                    op = y.writes_of(field)[0][1]
                    msg = (f"{who(x)} sets event.{field} and {who(y)} changes it with `{op}` at {w.name.text}, "
                           "one after the other")
                    why = (f"triggers at one timing settle one after another, and a `=` throws away what was added "
                           f"before it: event.{field} ends differently in each order")
                    val = source(facts, next(v for _, o, v, _ in x.writes_of(field) if o == "="))
                    by = source(facts, next(v for _, o, v, _ in y.writes_of(field) if o != "="))

                    def outcome(first, _second, x=x, field=field, val=val, op=op, by=by):
                        end = f"{val} {op[0]} {by}" if first is x else val
                        return f"event.{field} ends as `{end}`"
                else:
                    msg = (f"the `when` of {who(y)} reads event.{field}, which {who(x)} writes at {w.name.text}")
                    why = (f"a condition read before the write sees another event.{field} than one read after it, "
                           "so the order of the two decides whether the reader fires")

                    def outcome(first, _second, x=x, y=y, field=field):
                        return (f"{y.name}'s `when` sees the event.{field} {x.name} wrote" if first is x else
                                f"{y.name}'s `when` is checked before {x.name} writes event.{field}")
                code = "SGS381" if heroes else "SGS302"
                if heroes:
                    msg = f"{facts.pair_label(*heroes)}: " + msg
                principle, severity = principle_at_window(a, b, t, outcome)
                out.append(make(code, msg, a.span, why, principle, severity=severity,
                                notes=[note(b, f"{b.label()} at {w.name.text}")], rules=(a, b), window=w,
                                heroes=heroes or (), field=field, together=t,
                                modes=facts.pair_modes(*heroes) if heroes else ()))
    return out


def _field_reason(a: Rule, b: Rule):
    fields_a = {f for f, *_ in a.body.writes}
    fields_b = {f for f, *_ in b.body.writes}
    for f in sorted(fields_a & fields_b):
        ops_a = {op for _, op, *_ in a.writes_of(f)}
        ops_b = {op for _, op, *_ in b.writes_of(f)}
        if "=" in ops_a and ops_b - {"="}:
            return ("mix", f, a, b)
        if "=" in ops_b and ops_a - {"="}:
            return ("mix", f, b, a)
    for f in sorted(fields_a & b.when_reads):
        return ("read", f, a, b)
    for f in sorted(fields_b & a.when_reads):
        return ("read", f, b, a)
    return None


def all_findings(facts: Facts) -> list:
    memo = facts.memo
    if "modifiers" not in memo:
        from .replacements import replacement_pairs

        memo["modifiers"] = modifier_conflicts(facts) + field_conflicts(facts, replacement_pairs(facts))
    return memo["modifiers"]


def check(facts: Facts) -> list:
    return [f for f in all_findings(facts) if not f.heroes]
