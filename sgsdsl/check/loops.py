"""Family 3: trigger loops (SGS321; across two heroes SGS383).

A trigger's effect opens windows: directly (`open`), through the flows it calls (damage,
judge, respond …, transitively), through the card hooks of a card it uses when the card is
known (`use_card(card: virtual(杀))`, `ask_card(self, 杀)`), and through the window bound
to the `moved` role when it moves cards. An edge A → B means A's effect can open a window
where B fires for that event: B's owner must be able to be the window's subject, and B's
`when` must not need an event field that the opening cannot set (a `draw` moves no card out
of anyone's hand, so it never meets `event.lost_hand > 0`).

A cycle is stopped by a `limit` on any of its triggers, or by a `when` that reads state one
of the effects changes (hand_count after a draw, hp after a damage …); an unstopped cycle is
a finding. `analyse()` returns every cycle with its stop, for the tests and the curious.
"""

from __future__ import annotations

import attrs

from .facts import Facts, OpenSite, Rule
from .findings import INSERTED, note, who
from .findings import finding as make

MAX_CYCLE = 4


@attrs.frozen
class Cycle:
    rules: tuple  # Rule, in order: each opens a window of the next
    sites: tuple  # OpenSite of each edge
    stop: str | None  # why it ends, or None


def _edge_ok(facts: Facts, a: Rule, b: Rule, site: OpenSite) -> bool:
    w = facts.m.windows[site.window]
    if b.when is not None and facts.cond.truth(b.when) is False:
        return False
    if site.fields is not None and not b.required <= site.fields:
        return False
    for path, vals in b.constraints.items():
        if len(path) == 2 and path[0] == "event":
            v = site.value(path[1])
            if v is not None and v not in vals:
                return False
    if b.holder == "mode" or a.holder == "mode":
        return True
    rels = {site.rel_of(f) for f in b.pinned}
    if w.subject is not None and not b.any:
        rels.add(site.rel)
    same = a is b or facts.same_player(a, b)
    two = facts.two_players(a, b)
    if "self" in rels and "other" in rels:
        return False
    if "self" in rels:
        return same
    if "other" in rels:
        return two
    return same or two


def graph(facts: Facts) -> dict:
    triggers = [r for r in facts.live if r.kind == "trigger"]
    edges: dict[int, list] = {id(r): [] for r in triggers}
    for a in triggers:
        seen = set()
        for site in sorted(a.body.opens, key=lambda s: (s.window, s.rel, sorted(s.fields or ()))):
            for b in facts.by_window.get(site.window, ()):
                if b.kind != "trigger" or id(b) in seen:
                    continue
                if _edge_ok(facts, a, b, site):
                    seen.add(id(b))
                    edges[id(a)].append((b, site))
    return {"nodes": triggers, "edges": edges}


def _cycles(facts: Facts) -> list[tuple]:
    g = graph(facts)
    nodes = g["nodes"]
    index = {id(r): i for i, r in enumerate(nodes)}
    out = []

    def dfs(start: Rule, cur: Rule, path: list, sites: list) -> None:
        for nxt, site in g["edges"][id(cur)]:
            j = index[id(nxt)]
            if nxt is start:
                out.append((tuple(path), tuple(sites + [site])))
            elif j > index[id(start)] and nxt not in path and len(path) < MAX_CYCLE:
                dfs(start, nxt, path + [nxt], sites + [site])

    for r in nodes:
        dfs(r, r, [r], [])
    return out


def _stop(cycle: tuple) -> str | None:
    limited = [r for r in cycle if r.limit is not None]
    if limited:
        r = limited[0]
        return f"`limit` on {r.name}"
    for reader in cycle:
        for changer in cycle:
            common = reader.when_state & changer.body.state
            if common:
                what = ", ".join(sorted(common))
                return f"the `when` of {reader.name} reads {what}, which {changer.name}'s effect changes"
    return None


def analyse(facts: Facts) -> list[Cycle]:
    memo = facts.memo
    if "cycles" not in memo:
        memo["cycles"] = [Cycle(rules, sites, _stop(rules)) for rules, sites in _cycles(facts)]
    return memo["cycles"]


def _heroes(facts: Facts, rules: tuple):
    """(single hero or none, pair of heroes, more heroes)."""
    hero_rules = [r for r in rules if r.holder == "hero"]
    if not hero_rules:
        return (), None
    common = set.intersection(*({id(h) for h in r.heroes} for r in hero_rules))
    if common:
        return (), None
    distinct = []
    for r in hero_rules:
        if not any(id(h) in {id(x) for x in r.heroes} for h in distinct):
            distinct.append(r.heroes[0])
    return tuple(distinct), len(distinct) == 2


def all_findings(facts: Facts) -> list:
    memo = facts.memo
    if "loops" in memo:
        return memo["loops"]
    out, seen = [], set()
    for c in analyse(facts):
        if c.stop is not None:
            continue
        key = frozenset(id(r) for r in c.rules)
        if key in seen:
            continue
        seen.add(key)
        heroes, pair = _heroes(facts, c.rules)
        if pair and not facts.can_meet(heroes[0].name.text, heroes[1].name.text):
            continue
        rules = c.rules
        designer = [i for i, r in enumerate(rules) if r.designer]
        if designer:
            k = designer[0]
            rules, sites = rules[k:] + rules[:k], c.sites[k:] + c.sites[:k]
        else:
            sites = c.sites
        wname = [facts.m.windows[s.window].name.text for s in sites]
        a = rules[0]
        if len(rules) == 1:
            msg = f"{who(a)} can trigger itself: its effect opens {wname[0]} again"
        else:
            chain = " → ".join(f"{who(r)} (opens {wn})" for r, wn in zip(rules, wname))
            msg = f"a loop of triggers: {chain} → {a.name}"
        msg += "; nothing stops it"
        why = ("an endless chain of triggers hangs the game or drains the deck: give one of them a `limit`, or a "
               "`when` that its own effect makes false (no trigger in the loop has a `limit`, and no `when` reads "
               "state the effects change)")
        principle = (f"none: under {INSERTED} each new event settles inside the one that caused it, so the chain "
                     "never returns to the table; seed 001 has nothing that ends it")
        notes = [note(r, f"{r.label()} fires at {facts.m.windows[sites[i - 1].window].name.text}")
                 for i, r in enumerate(rules) if i > 0]
        code = "SGS321"
        if pair:
            code = "SGS383"
            msg = f"{heroes[0].name.text} and {heroes[1].name.text}: " + msg
        elif heroes:
            msg = f"{'、'.join(h.name.text for h in heroes)}: " + msg
        out.append(make(code, msg, a.span, why, principle, notes=notes, rules=rules,
                        window=facts.m.windows[sites[-1].window], heroes=heroes if pair else (), sites=sites))
    memo["loops"] = out
    return out


def check(facts: Facts) -> list:
    return [f for f in all_findings(facts) if f.code == "SGS321"]
