"""Family 3: trigger loops (SGS321; across two heroes SGS383); loops without an exit (SGS323).

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

from ..lang import ast
from ..lang.tree import children, walk, walk_of
from . import progress
from .facts import Facts, OpenSite, Rule
from .findings import INSERTED, note, who
from .findings import finding as make

MAX_CYCLE = 4


@attrs.frozen
class Cycle:
    rules: tuple  # Rule, in order: each opens a window of the next
    sites: tuple  # OpenSite of each edge
    stop: str | None  # why it ends, or None
    kind: str = "bounded"  # bounded | death (ends only when someone dies) | endless


def _edge_ok(facts: Facts, a: Rule, b: Rule, site: OpenSite) -> bool:
    w = facts.m.windows[site.window]
    if b.when is not None and facts.cond.truth(b.when) is False:
        return False
    if site.fields is not None and not b.required <= site.fields:
        return False
    for path, vals in b.constraints.items():
        if not _may_hold(facts, path, vals, site):
            return False
    for path, vals in b.excluded.items():  # 章武's `event.to != draw_pile` is never a move it makes to the pile
        if len(path) == 2 and path[0] == "event" and site.value(path[1]) in vals:
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


def _may_hold(facts: Facts, path: tuple, vals: frozenset, site: OpenSite) -> bool:
    """Can a `when` constraint (`event.f == K`, `event.card is 杀`, `event.card.kind == trick`) hold for
    the event this site opens, given what the call binds (a constant, or a card known by name)?"""
    is_ = path[:1] == ("is",)
    p = path[1:] if is_ else path
    if p[:1] != ("event",) or len(p) < 2:
        return True
    v = site.value(p[1])
    if v is None:
        return True
    if v[0] != "card":  # a constant bound to the field
        return len(p) > 2 or is_ or v in vals
    card = facts.m.cards.get(v[1])
    if card is None:
        return True
    if len(p) == 2:
        return ("value", id(card)) in vals
    if len(p) == 3 and p[2] == "kind" and not is_:
        return ("const", repr(card.kind)) in vals
    return True


def graph(facts: Facts) -> dict:
    triggers = [r for r in facts.live if r.kind == "trigger"]
    edges: dict[int, list] = {id(r): [] for r in triggers}
    for a in triggers:
        seen = set()
        # unconditional openings first: an edge is as strong as the weakest way to take it
        # `open W with event` reopens a window on the trigger's own event: any field may be set
        sites = a.body.opens | {OpenSite(w, "any", None, own=True) for w in a.body.own_opens}
        for site in sorted(sites, key=lambda s: (s.paid, s.chance, s.window, s.rel, sorted(s.fields or ()),
                                                 sorted(map(str, s.values)))):
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
                if _passes_hold(path, sites + [site]):
                    out.append((tuple(path), tuple(sites + [site])))
            elif j > index[id(start)] and nxt not in path and len(path) < MAX_CYCLE:
                dfs(start, nxt, path + [nxt], sites + [site])

    for r in nodes:
        dfs(r, r, [r], [])
    return out


def _passes_hold(path: list, sites: list) -> bool:
    """Around a cycle, a field a rule passes on from its own event (天香's `card: event.card`) is only set if
    the opening before it could set it: a field it never sets is none, and a `when` that needs it fails
    (三尖两刃刀's damage carries no card, so the damage passed on from it is no 【杀】's)."""
    n = len(path)
    for i in range(n):
        before, site, nxt = sites[i - 1], sites[i], path[(i + 1) % n]
        # a player passed on comes back to whoever set it: 天香 passes on the source of the damage 附敌 dealt,
        # and 附敌 needs a source other than its owner (`event.source != self`)
        if nxt is path[i - 1] and any(before.rel_of(f) == "self" and k in _unpinned(nxt) for k, f in site.passes):
            return False
        if before.fields is None:
            continue
        if any(k in nxt.required and f not in before.fields for k, f in site.passes):
            return False
    return True


def _unpinned(r: Rule) -> set[str]:
    """Event fields a rule's `when` needs to be someone other than its owner (`event.f != self`)."""
    from .bodyfacts import pinned

    return pinned(r.when, "!=") if r.when is not None else set()


RESOURCE = {"hp": "HP", "cards": "the number of cards in hands",
            "processing": "the number of cards in the processing zone", "alive": "the number of living players"}


def _label(resource: str, whose: str = "any") -> str:
    if resource == "cards" and whose == "self":
        return "the number of its owner's cards"
    if resource.startswith("event:"):
        return f"event.{resource.split(':', 1)[1]} of the event it reopens"
    return RESOURCE.get(resource) or f"the counter {resource.split(':', 1)[1]}"


def _death_event(facts: Facts) -> str | None:
    """The event type the `die` role's flow settles: a window carrying it opens only when someone dies."""
    die = facts.m.role_target("die")
    return die.event.text if isinstance(die, ast.FlowDecl) else None


def _reaches(facts: Facts, giver: Rule, whose: str, taker: Rule) -> bool:
    """Can a change of `whose` resource (relative to giver's owner: self, other, any) be taker's owner's?"""
    if whose == "any" or "mode" in (giver.holder, taker.holder):
        return True
    if whose == "self":
        return giver is taker or facts.same_player(giver, taker)
    return giver is not taker and facts.two_players(giver, taker)


def _reaching(facts: Facts, rules: tuple, taker: Rule) -> set:
    """The free (resource, direction) changes of a loop's rules that can be taker's owner's."""
    return {(res, d) for r in rules for res, d, paid, whose in r.body.deltas
            if not paid and _reaches(facts, r, whose, taker)}


def _spent(r: Rule, facts) -> list:
    """What each firing of a rule takes from its owner for good: a card it must choose from its hand or
    equipment (with none it cannot fire), or, at the `moved` window with `event.loser == self`, a card its
    owner lost from there (the engine names a loser only for cards that leave a hand or an equipment area)."""
    out = []
    if "cards" in r.body.spends:
        out.append(progress.Guard("cards", frozenset({progress.DOWN}), "a card its owner must give up", "self"))
    if facts is not None and "loser" in r.pinned and any(w.id.text == facts.az.moved for w in r.windows):
        out.append(progress.Guard("cards", frozenset({progress.DOWN}), "a card its owner loses from a hand or an equipment area", "self"))
    return out


def _stop(rules: tuple, sites: tuple, death_event: str | None = None,
          windows: dict | None = None, facts: Facts | None = None) -> tuple[str | None, str]:
    """(why the loop ends, kind): kind is "bounded" (it uses something up), "death" (only HP goes
    down, so it ends when someone dies) or "endless"."""
    free = {(res, d) for r in rules for res, d, paid, _ in r.body.deltas if not paid}
    resets = {x.split("|", 1)[-1] for r in rules for x in r.body.resets}
    for r in rules:
        if r.limited and r.decl.id.text not in resets and "*" not in resets and \
                not any(f"type:{t}" in resets for t in getattr(r.decl, "types", ())):
            what = f"`limit` on {r.name}" if r.limit is not None else f"the once-per-game use of {r.name}"
            return what, "bounded"
    carried = all(s.own for s in sites)  # every round reopens the same event: what it counts carries over
    for r in rules:
        for g in (*r.guards, *_spent(r, facts)):
            if g.resource.startswith("event:") and not carried:
                continue
            # a guard on its owner's state is given back only by what reaches that owner (a draw for a target
            # gives the owner no card)
            seen = free if g.whose != "self" or facts is None else _reaching(facts, rules, r)
            how = progress.progress(g, seen)
            if how is not None:
                if g in r.guards:
                    why = f"the `when` of {r.name} needs {_label(g.resource, g.whose)} ({g.text}), which {how} in the loop"
                else:
                    why = f"each run of {r.name} takes {g.text}, and {_label(g.resource, g.whose)} {how} in the loop"
                return why, "bounded"
    paid = [r for r, s in zip(rules[1:] + rules[:1], sites) if s.paid]
    if paid and ("cards", progress.UP) not in free:
        return (f"each round uses a card from a hand (to reach {paid[0].name}), and the loop gives no cards back",
                "bounded")
    chance = [r for r, s in zip(rules[1:] + rules[:1], sites) if s.chance]
    if chance:
        return f"each round needs a judgment to come out one way (to reach {chance[0].name})", "bounded"
    # a player dies once, and a seat's line-up (1v1) holds finitely many heroes
    deaths = [r for r, s in zip(rules[1:] + rules[:1], sites)
              if death_event is not None and windows[s.window].event.text == death_event]
    if deaths:
        return f"each round needs someone to die (to reach {deaths[0].name}), and a table has finitely many heroes", "bounded"
    if ("hp", progress.DOWN) in free and ("hp", progress.UP) not in free:
        return None, "death"
    return None, "endless"


def analyse(facts: Facts) -> list[Cycle]:
    memo = facts.memo
    if "cycles" not in memo:
        death = _death_event(facts)
        memo["cycles"] = [Cycle(rules, sites, *_stop(rules, sites, death, facts.m.windows, facts))
                          for rules, sites in _cycles(facts)]
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


WHY = {
    "endless": ("an endless chain of triggers hangs the game or drains the deck: give one of them a `limit`, or a "
                "`when` on something each round uses up for good (a use limit, cards that leave, HP that only goes "
                "down toward a bound); nothing in this loop is used up"),
    "death": ("each round costs HP and nothing gives it back, so the chain stops only when someone dies: a `when` "
              "on `alive` does not stop it earlier; give one of them a `limit`, or a bound such as `self.hp > 1`"),
}
ENDS = {"endless": "nothing stops it", "death": "it ends only when someone dies"}


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
        if pair and not (facts.can_meet(heroes[0].name.text, heroes[1].name.text)
                         or facts.share_seat(heroes[0].name.text, heroes[1].name.text)):
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
        msg += "; " + ENDS[c.kind]
        principle = (f"none: under {INSERTED} each new event settles inside the one that caused it, so the chain "
                     "never returns to the table; seed 001 has nothing that ends it")
        notes = [note(r, f"{r.label()} fires at {facts.m.windows[sites[i - 1].window].name.text}")
                 for i, r in enumerate(rules) if i > 0]
        code = {"endless": "SGS321", "death": "SGS322"}[c.kind]
        if pair:
            code = {"SGS321": "SGS383", "SGS322": "SGS384"}[code]
            msg = f"{facts.pair_label(heroes[0], heroes[1])}: " + msg
        elif heroes:
            msg = f"{'、'.join(h.name.text for h in heroes)}: " + msg
        out.append(make(code, msg, a.span, WHY[c.kind], principle, notes=notes, rules=rules,
                        window=facts.m.windows[sites[-1].window], heroes=heroes if pair else (), sites=sites,
                        modes=facts.pair_modes(*heroes) if pair else ()))
    memo["loops"] = out
    return out


# ---- SGS323: a `while` or `repeat` with no way out --------------------------------------------


def _exits(body: ast.Block, facts: Facts) -> bool:
    """Can the loop body leave the loop: a `break` of this loop, a `stop`, or a choice that can find
    nothing to choose (which abandons the skill)?"""
    stack = list(body.stmts)
    while stack:
        s = stack.pop()
        if isinstance(s, (ast.Stop, ast.Break)):
            return True
        if isinstance(s, (ast.While, ast.For, ast.Repeat)):
            # a `break` there leaves only that loop; a `stop` still leaves this one
            if any(isinstance(n, ast.Stop) for n in walk(s.body)):
                return True
            if any(_may_abort(n) for n in walk(s)):
                return True
            continue
        if any(_may_abort(n) for n in children(s) for n in walk(n)):
            return True
        if isinstance(s, ast.If):
            stack.extend(s.then.stmts)
            if s.other is not None:
                stack.extend(s.other.stmts)
        elif isinstance(s, (ast.PhaseStmt, ast.Later)):
            stack.extend(s.body.stmts)
    return False


def _may_abort(n) -> bool:
    return isinstance(n, ast.Choose) and n.kind != "option"


def _assigned(body: ast.Block) -> set[str]:
    return {s.target.text for s in walk(body) if isinstance(s, ast.Assign) and isinstance(s.target, ast.NameRef)}


def _never_changes(test, body: ast.Block, facts: Facts, locals_: set[str]) -> bool:
    """A test that is constant, or reads only locals the body never assigns."""
    if facts.cond.truth(test) is True:
        return True
    names = [n for n in walk(test) if isinstance(n, ast.NameRef)]
    if any(isinstance(n, (ast.Attr, ast.Call, ast.Index, ast.Choose, ast.Ask)) for n in walk(test)):
        return False
    consts = {n.text for n in names if facts.cond.const(n) is not None}
    return all(n.text in consts or (n.text in locals_ and n.text not in _assigned(body)) for n in names)


def _unlimited(e, facts: Facts) -> bool:
    """A `repeat` count that is `inf` (the engine's unlimited) whatever the game: `inf`, or `inf` plus
    or times a positive constant, or the larger of `inf` and anything."""
    if isinstance(e, ast.NameRef):
        return facts.cond.const(e) == ("const", "T.INF")
    if isinstance(e, ast.BinOp) and e.op in ("+", "*"):
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if _unlimited(a, facts) and (isinstance(b, ast.IntLit) and (b.value > 0 or e.op == "+")
                                         or _unlimited(b, facts)):
                return True
        return False
    if isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.func.text == "max":
        return any(_unlimited(a.value, facts) for a in e.args)
    return False


def endless_whiles(facts: Facts) -> list:
    m = facts.m
    owners = [(f"flow {f.name.text}", f.body) for f in m.unique(m.flows)]
    for holder, decl in facts.holders():
        blocks = []
        for f in decl.facets:
            blocks += [getattr(f, k, None) for k in ("cost", "do")]
        blocks += [b for _, b in getattr(decl, "hooks", ())]
        owners += [(f"{'card' if isinstance(decl, ast.CardDecl) else 'skill'} {decl.name.text}", b)
                   for b in blocks if b is not None]
    for mode in facts.judged_modes():
        if mode.setup is not None:
            owners.append((f"mode {mode.name.text}", mode.setup))
    out, seen = [], set()
    for label, block in owners:
        if id(block) in seen:
            continue
        seen.add(id(block))
        nodes = walk_of(block, (ast.While, ast.Repeat, ast.Let))
        whiles = [n for n in nodes if isinstance(n, ast.While)]
        for n in nodes:
            if isinstance(n, ast.Repeat) and _unlimited(n.count, facts) and not _exits(n.body, facts):
                out.append(make(
                    "SGS323", f"the `repeat` in {label} never ends: its count is `inf` (unlimited) and its body "
                    "has no `break` or `stop`", n.span,
                    "at run time the loop guard stops the game with an error; add a `break`/`stop`, or repeat a "
                    "number of times the game can reach", "none: seed 001 settles events; a loop that never ends "
                    "is a rules bug", rules=()))
        locals_ = {n.name.text for n in nodes if isinstance(n, ast.Let)} if whiles else set()
        for n in whiles:
            if _never_changes(n.test, n.body, facts, locals_) and not _exits(n.body, facts):
                out.append(make(
                    "SGS323", f"the `while` in {label} never ends: its test never turns false and its body has "
                    "no `break` or `stop`", n.span,
                    "at run time the loop guard stops the game with an error; add a `break`/`stop`, or a test "
                    "on something the body changes", "none: seed 001 settles events; a loop that never ends is "
                    "a rules bug", rules=()))
    return out


# ---- SGS321: a rule that grants, from a window of a flow, another run of that flow ----------------------


def _turn_windows(facts: Facts, phase: str | None = None) -> set[str]:
    """The windows the flow bound to `turn` opens (inside `phase P { … }` only, for a phase)."""
    turn = facts.m.role_target("turn")
    if not isinstance(turn, ast.FlowDecl):
        return set()
    out = set()
    for n in walk(turn.body):
        if phase is not None and not (isinstance(n, ast.PhaseStmt) and n.phase.text == phase):
            continue
        for x in walk(n) if phase is not None else (n,):
            if isinstance(x, ast.Open) and (w := facts.m.windows.get(x.window.text)) is not None:
                out.add(w.id.text)
    return out


def granted_runs(facts: Facts) -> list:
    """A trigger at a window of the turn (of one of its phases) that grants another turn (`give_turn`; that
    phase again, `extra_phase`): the run it grants opens the window again, and it grants another. A use
    limit of the turn does not stop it (each turn is a new one), one of the game does, and so does a judgment
    or a bound its `when` uses up."""
    out = []
    for r in facts.live:
        if r.kind != "trigger" or not r.body.grants:
            continue
        for kind, phase, chance in sorted(r.body.grants, key=str):
            windows = _turn_windows(facts, phase if kind == "phase" else None)
            hit = [w for w in r.windows if w.id.text in windows]
            if not hit or chance:
                continue
            renewed = ("turn", "phase") if kind == "turn" else ("phase",)
            lim = r.limit
            if lim is not None and lim.scope not in renewed or {"limited", "awaken"} & set(getattr(r.decl, "types", ())):
                continue
            if any(progress.progress(g, {(res, d) for res, d, paid, _ in r.body.deltas if not paid})
                   for g in r.guards):
                continue
            what = "another turn" if kind == "turn" else f"another {phase}"
            out.append(make("SGS321", f"{who(r)} grants {what} from {hit[0].name.text}, which that "
                            f"{'turn' if kind == 'turn' else 'phase'} opens again: each one it grants fires it "
                            "again; nothing stops it", r.span,
                            WHY["endless"] + (f" (a `limit … per {lim.scope}` starts again with each one granted)"
                                              if lim is not None else ""),
                            "none: seed 001 orders what happens inside a turn; a rule that grants the turn it fires "
                            "in again has nothing that ends it", rules=(r,), window=hit[0]))
    return out


def check(facts: Facts) -> list:
    return ([f for f in all_findings(facts) if f.code in ("SGS321", "SGS322")] + endless_whiles(facts)
            + granted_runs(facts))
