"""Family 1: order-dependent modifiers.

SGS301: two `modify` of one quantity that can apply to the same question, where one sets
(`=`) and the other adds (`+=`/`-=`), or both set different values.
SGS302: two triggers at one window, for one event, where one sets an event field and the
other adds to it, or one's `when` reads a field the other writes.

Pure additions commute and two sets of the same value agree: neither is a finding. When the
two rules need two different heroes at the table, the finding belongs to the pairs family.
"""

from __future__ import annotations

import attrs

from .. import ast
from .facts import Facts, Rule, same_expr
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
        for a0, partners in sharing(rules, lambda r: ("=",) if r.facet.op == "=" else (), lambda r: ("=",)):
            for b0 in partners:
                a, b = a0, b0
                fa, fb = a.facet, b.facet
                sets = (fa.op == "=") + (fb.op == "=")
                if sets == 0 or (sets == 2 and same_expr(fa.value, fb.value)):
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
                heroes = None if same else (facts.meeting_heroes(a, b) if a.holder == b.holder == "hero" else None)
                if not same and a.holder == b.holder == "hero" and heroes is None:
                    continue
                qn = q.name.text
                if sets == 2:
                    msg = f"{who(a)} and {who(b)} both set {qn}: whichever applies last wins"
                    why = (f"a `=` throws away what was applied before it: {qn} is `{source(facts, fa.value)}` or "
                           f"`{source(facts, fb.value)}` depending on the order")
                else:
                    s, d = (a, b) if fa.op == "=" else (b, a)
                    msg = f"{who(s)} sets {qn} and {who(d)} changes it with `{d.facet.op}`: the result depends on the order"
                    why = (f"a `=` throws away what was applied before it: {s.name} then {d.name} gives "
                           f"`{source(facts, s.facet.value)} {d.facet.op[0]} {source(facts, d.facet.value)}`, "
                           f"{d.name} then {s.name} gives `{source(facts, s.facet.value)}`")
                sa = {k for k, x in enumerate(fa.args) if x.text == "self"}
                sb = {k for k, x in enumerate(fb.args) if x.text == "self"}
                where = ("when both heroes are at one table" if heroes else
                         "when one player has both" if sa & sb else "when both are in play")
                msg += f" ({where})"
                code = "SGS381" if heroes else "SGS301"
                if heroes:
                    msg = f"{heroes[0].name.text} and {heroes[1].name.text}: " + msg
                out.append(make(code, msg, fa.span, why, CONTINUOUS,
                                notes=[note(b, f"{b.label()} modifies {qn} here")], rules=(a, b),
                                heroes=heroes or (), quantity=q, same=same))
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
            msg = (f"{who(a)} and {len(g)} other modifiers of {q.name.text} ({others}) mix `=` with another `=` "
                   "or with `+=`/`-=`: the result depends on the order")
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
                    msg = (f"{who(x)} sets event.{field} and {who(y)} changes it with `{y.writes_of(field)[0][1]}` "
                           f"at {w.name.text}: the result depends on the order")
                    why = (f"triggers at one timing settle one after another, and a `=` throws away what was added "
                           f"before it: event.{field} ends differently in each order")
                else:
                    msg = (f"the `when` of {who(y)} reads event.{field}, which {who(x)} writes at {w.name.text}: "
                           "whether it fires depends on the order")
                    why = (f"a condition read before the write sees another event.{field} than one read after it, "
                           "so the same table fires a different set of skills depending on the order")
                code = "SGS381" if heroes else "SGS302"
                if heroes:
                    msg = f"{heroes[0].name.text} and {heroes[1].name.text}: " + msg
                out.append(make(code, msg, a.span, why, principle_at_window(a, b, t),
                                notes=[note(b, f"{b.label()} at {w.name.text}")], rules=(a, b), window=w,
                                heroes=heroes or (), field=field, together=t))
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
