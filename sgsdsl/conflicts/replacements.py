"""Family 2: competing replacements.

SGS311: two effects that both prevent the same event (both set `event.cancelled` at one window).
SGS312: two effects that both replace the same thing (both assign one event field with `=` at
one window: the judgment card at 判定牌生效前, the card that answers a request …).
SGS313: two skills that spend the same thing as their cost (both set one event field to the same
value and get something else for it: two skills that each give up the same draw).

A `when` that reads the field (e.g. `event.card == none`) makes the first one win and the other
skip: still a finding, since the order then picks which effect happens.
"""

from __future__ import annotations

from ..lang.tree import same_expr
from .facts import Facts, Rule
from .findings import finding as make
from .findings import meeting, note, ordered, principle_at_window, source, who
from .pairing import sharing


def _does_more(r: Rule, field: str) -> bool:
    return any(f != field for f, *_ in r.body.writes) or bool(r.body.calls) or bool(r.body.marks)


def _const(facts: Facts, e) -> bool:
    return facts.cond.const(e) is not None


def _kind(facts: Facts, a: Rule, b: Rule):
    """(code, field) of the competition between two rules at one window, or None."""
    wa = {f for f, op, *_ in a.body.writes if op == "="}
    wb = {f for f, op, *_ in b.body.writes if op == "="}
    if "cancelled" in wa and "cancelled" in wb:
        return "SGS311", "cancelled"
    for f in sorted((wa & wb) - {"cancelled"}):
        va = [v for _, op, v, _ in a.writes_of(f) if op == "="]
        vb = [v for _, op, v, _ in b.writes_of(f) if op == "="]
        if len(va) == 1 and len(vb) == 1 and same_expr(va[0], vb[0]) and _const(facts, va[0]):
            if _does_more(a, f) and _does_more(b, f):
                return "SGS313", f
            continue
        return "SGS312", f
    return None


def _outcome(code: str, field: str):
    """What one order of two competing rules gives: outcome(first, second)."""

    def outcome(first: Rule, second: Rule) -> str:
        checks = field in second.when_reads
        if code == "SGS311":
            return (f"{first.name} prevents it and {second.name} no longer fires" if checks else
                    f"{first.name} prevents it, and {second.name} still fires on the prevented event")
        if code == "SGS312":
            return (f"{first.name}'s event.{field} stands and {second.name} no longer fires" if checks else
                    f"{second.name}'s event.{field} overwrites {first.name}'s")
        return (f"{first.name} pays with event.{field} and {second.name} no longer fires" if checks else
                f"{first.name} pays with event.{field} and {second.name} gets its effect for free")

    return outcome


def all_findings(facts: Facts) -> list:
    memo = facts.memo
    if "replacements" in memo:
        return memo["replacements"]
    out, pairs = [], set()
    for wid, rules in facts.by_window.items():
        w = facts.m.windows[wid]
        for a0, partners in sharing(rules, lambda r: (f for f, op, *_ in r.body.writes if op == "=")):
            for b0 in partners:
                a, b = a0, b0
                k = _kind(facts, a, b)
                if k is None or facts.cond.disjoint(a.constraints, b.constraints):
                    continue
                met = meeting(facts, a, b, w)
                if met is None:
                    continue
                t, heroes = met
                pairs |= {(id(a), id(b)), (id(b), id(a))}
                a, b = ordered(a, b)
                code, field = k
                guarded = [r.name for r in (a, b) if field in r.when_reads]
                W = w.name.text
                if code == "SGS311":
                    msg = f"{who(a)} and {who(b)} both prevent the event at {W} (event.cancelled)"
                    why = ("one prevention is enough: both effects and their costs happen, and whatever else each "
                           "does is paid for an event already prevented")
                elif code == "SGS312":
                    msg = f"{who(a)} and {who(b)} both replace event.{field} at {W}"
                    why = (f"only one replacement of event.{field} can stand: a later one overwrites an earlier one, "
                           "unless it checks the field first")
                else:
                    val = source(facts, next(v for _, op, v, _ in a.writes_of(field) if op == "="))
                    msg = (f"{who(a)} and {who(b)} both spend event.{field} at {W} (both set it to `{val}` "
                           "and get something else for it)")
                    why = (f"event.{field} can be given up once: the skill that comes second gets its effect "
                           "without paying anything (seed 001 §2(2): an effect that equals a cost is not that cost "
                           "paid)")
                if guarded:
                    why += (f"; {' and '.join(guarded)} check{'s' if len(guarded) == 1 else ''} event.{field} first, "
                            "so whichever fires first wins")
                code = "SGS382" if heroes else code
                if heroes:
                    msg = f"{facts.pair_label(*heroes)}: " + msg
                principle, severity = principle_at_window(a, b, t, _outcome(k[0], field))
                out.append(make(code, msg, a.span, why, principle, severity=severity,
                                notes=[note(b, f"{b.label()} at {W}")], rules=(a, b), window=w,
                                heroes=heroes or (), field=field, together=t,
                                modes=facts.pair_modes(*heroes) if heroes else ()))
    memo["replacements"] = out
    memo["replacement_pairs"] = pairs
    return out


def replacement_pairs(facts: Facts) -> set:
    all_findings(facts)
    return facts.memo["replacement_pairs"]


def check(facts: Facts) -> list:
    return [f for f in all_findings(facts) if not f.heroes]
