"""What the conflict checks share: per rule (a trigger, modifier, active or view-as of a skill,
an equipment card or a mode rule), what it reads and writes, what it opens and what it changes.

Everything is read off the checked syntax tree and the type checker's annotations
(`model.analysis`, lang/analysis.py): no rule is named here. `bodies.py` reads what a body does, `conditions.py`
what a `when` needs, `meetings.py` which heroes a mode deals and which of them meet.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from ..lang import ast
from ..lang.model import Model
from ..lang.tree import event_path, is_name, walk_of
from . import meetings, progress
from .bodies import Analyzer, Summaries
from .bodyfacts import BodyFacts, OpenSite, neq_self, pinned

__all__ = ["Facts", "Rule", "OpenSite", "BodyFacts", "facts_of"]


# ---- rules -------------------------------------------------------------------------------------


@attrs.define(eq=False)
class Rule:
    """One facet of a skill, an equipment card or a mode rule."""

    decl: object  # ast.SkillDecl (a skill or a mode rule) or ast.CardDecl
    facet: object  # ast.Trigger | ast.Modify | ast.Active | ast.ViewAs
    index: int
    holder: str  # hero | equipment | card | mode (a mode's rule or a package's: ownerless) | loose
    heroes: tuple  # ast.HeroDecl having the skill
    slot: str | None = None
    copies: int = 0  # physical copies of an equipment card in all decks
    windows: tuple = ()  # ast.WindowDecl
    body: BodyFacts = attrs.Factory(BodyFacts)
    when: object = None
    when_reads: frozenset = frozenset()  # own event fields the `when` reads
    when_state: frozenset = frozenset()  # state categories the `when` reads
    constraints: dict = attrs.Factory(dict)
    excluded: dict = attrs.Factory(dict)  # path -> constants the `when` rules out (`event.to != draw_pile`)
    required: frozenset = frozenset()  # event fields the `when` needs set
    pinned: frozenset = frozenset()  # event fields the `when` needs to be the owner (`event.f == self`)
    limit: object = None
    designer: bool = False
    guards: tuple = ()  # progress.Guard: conjuncts of the `when` that a loop can use up

    @property
    def limited(self) -> bool:
        """Has a use limit: its own `limit`, or once per game as a 限定技/觉醒技."""
        return self.limit is not None or bool({"limited", "awaken"} & set(getattr(self.decl, "types", ())))

    @property
    def name(self) -> str:
        return self.decl.name.text

    @property
    def kind(self) -> str:
        return type(self.facet).__name__.lower()

    @property
    def span(self):
        # a skill that takes another's rules (`rules of`) answers for them at that line, as a copy would at its own
        shared = getattr(self.decl, "rules_of", ())
        return shared[0].span if shared else self.facet.span

    @property
    def any(self) -> bool:
        return bool(getattr(self.facet, "any", False))

    @property
    def forced(self) -> bool:
        return bool(getattr(self.facet, "forced", False)) or "locked" in getattr(self.decl, "types", ())

    @property
    def lord(self) -> bool:
        return self.holder == "hero" and "lord" in getattr(self.decl, "types", ())

    @property
    def hero_names(self) -> tuple[str, ...]:
        return tuple(h.name.text for h in self.heroes)

    package_rule: bool = False  # `rule` at a package's top level: in effect in every mode
    for_cards: tuple[str, ...] = ()  # `rule … for`: in effect only where one of these cards may be dealt (ids)

    def label(self) -> str:
        what = {"hero": "skill", "equipment": "equipment", "card": "card", "mode": "mode rule",
                "loose": "skill"}[self.holder]
        return f"{'rule' if self.package_rule else what} {self.name}"

    def writes_of(self, field: str) -> list:
        return [w for w in self.body.writes if w[0] == field]


class Facts:
    """Everything the families share, computed once per build."""

    def __init__(self, build):
        self.build = build
        self.m: Model = build.model
        self._judged: list | None = None
        self.az = Analyzer(self.m, Summaries.of(build))
        if self.m.current is None and hasattr(self.az, "summaries"):
            build.memo["summaries"] = self.az.summaries
        self.cond = self.az.cond
        m = self.m
        self.skill_heroes: dict[int, list] = {}
        for h in m.unique(m.heroes):
            for s in h.skills:
                sk = m.skills.get(s.text)
                if sk is not None:
                    self.skill_heroes.setdefault(id(sk), []).append(h)
        self.copies: dict[str, int] = {}
        for d in m.unique(m.decks):
            for e in d.entries:
                c = m.cards.get(e.card.text)
                if c is not None:
                    self.copies[c.id.text] = self.copies.get(c.id.text, 0) + 1
        self.granted = {a.value.text for n in self._all_bodies() for a in _granted(n)}
        self.designer_pkgs = {name for name, p in m.packages.items() if not p.shipped}
        self.pools = self._pools()
        self._met: dict[tuple, list] = {}  # (hero, hero, way) -> the modes they meet in (meeting_modes)
        self.memo: dict = {}  # what the families compute once and share
        self.rules: list[Rule] = self._scan_rules()
        # Where the cards of an event field lie, when every writer says (the judgment card, in the processing
        # zone): known only once every rule is read, and then read again by the rules that move such cards.
        zones = self.az.join_zones([*self.az.flows.values(), *self.az.hooks.values(), *(r.body for r in self.rules)])
        if zones:
            self.az.field_zones = zones
            self.rules = self._scan_rules()
        # Rules that can be in effect in some game (a lord skill needs a hero who can be lord).
        self.live: list[Rule] = [r for r in self.rules if not r.lord or any(self.can_be_lord(h) for h in r.heroes)]
        self.by_window: dict[str, list[Rule]] = {}
        for r in self.live:
            for w in r.windows:
                self.by_window.setdefault(w.id.text, []).append(r)

    def _scan_rules(self) -> list[Rule]:
        out = []
        for holder, decl in self._holders():
            for i, f in enumerate(decl.facets):
                if isinstance(f, (ast.Trigger, ast.Modify, ast.Active, ast.ViewAs)):
                    out.append(self._rule(holder, decl, f, i))
        return out

    # -- what exists
    def _holders(self):
        m = self.m
        for s in m.unique(m.skills):
            if id(s) in self.skill_heroes:
                yield "hero", s
            else:
                yield "loose", s
        for c in m.unique(m.cards):
            if c.facets:
                yield ("equipment" if c.kind == "equipment" else "card"), c
        for mode in m.unique(m.modes):
            for r in mode.rules:
                yield "mode", r
        for r in m.rules:
            yield "mode", r

    def _all_bodies(self):
        m = self.m
        for f in m.unique(m.flows):
            yield f.body
        for s in m.unique(m.skills):
            yield s
        for c in m.unique(m.cards):
            yield c
        for mode in m.unique(m.modes):
            yield mode
        yield from m.rules

    def judged_modes(self) -> list:
        """The modes this pass judges: those that always play with the current variant package (`with`), or,
        in the default pass and for variants no mode names, the modes that play with no variant."""
        if self._judged is None:  # asked for every hero and pair of heroes; the view is fixed for a pass
            self._judged = self._judge_modes()
        return list(self._judged)

    def _judge_modes(self) -> list:
        m = self.m
        modes = m.unique(m.modes)
        if m.current is not None:
            mine = [x for x in modes if any(v.text == m.current for v in x.variants)]
            if mine:
                return mine
        return [x for x in modes if not x.variants]

    def _pools(self) -> dict[str, set[str]]:
        """mode id -> hero names it deals (meetings.pool), for the modes this pass judges."""
        return {mode.id.text: meetings.pool(self.m, mode, self.designer_pkgs) for mode in self.judged_modes()}

    def holders(self):
        """(holder kind, declaration) of every skill, card with rules and mode rule."""
        return self._holders()

    def modes_of_hero(self, hero: str) -> list:
        return [mode for mode in self.judged_modes() if hero in self.pools.get(mode.id.text, ())]

    def can_be_lord(self, h) -> bool:
        return not h.never_lord and any(mode.lord is not None for mode in self.modes_of_hero(h.name.text))

    def meeting_modes(self, a: str, b: str, way: str | None = None) -> list:
        """The modes in which two heroes (by name) meet (in that way, TABLE or SEAT, if given)."""
        if not self.pools:  # rules without modes: any two heroes can sit at one table
            return [None] if a != b and way != meetings.SEAT else []
        key = (a, b, way)
        out = self._met.get(key)
        if out is None:  # asked for every pair of rules two heroes hold: once per pair of heroes
            out = self._met[key] = [mode for mode in self.judged_modes()
                                    if (ways := meetings.how_they_meet(self, mode, a, b)) and (way is None or way in ways)]
        return out

    def can_meet(self, a: str, b: str) -> bool:
        """At one table, on two seats."""
        return bool(self.meeting_modes(a, b, meetings.TABLE))

    def share_seat(self, a: str, b: str) -> bool:
        """As the two heroes of one player (国战)."""
        return bool(self.meeting_modes(a, b, meetings.SEAT))

    def pair_modes(self, x, y) -> tuple[str, ...]:
        """The names of the modes two heroes meet in (a finding about the pair carries them: `modes`)."""
        return tuple(mode.name.text for mode in self.meeting_modes(x.name.text, y.name.text) if mode is not None)

    def pair_label(self, x, y) -> str:
        """"A and B (身份局)": two heroes and the modes they meet in."""
        modes = self.pair_modes(x, y)
        return f"{x.name.text} and {y.name.text}" + (f" ({'、'.join(modes)})" if modes else "")

    def designer_file(self, span) -> bool:
        return not span.file.startswith("rules/")

    # -- one rule
    def _rule(self, holder: str, decl, f, index: int) -> Rule:
        m, az = self.m, self.az
        heroes = tuple(self.skill_heroes.get(id(decl), ()))
        slot = getattr(decl, "slot", None) if holder == "equipment" else None
        r = Rule(decl=decl, facet=f, index=index, holder=holder, heroes=heroes, slot=slot,
                 copies=self.copies.get(decl.id.text, 0) if isinstance(decl, ast.CardDecl) else 0,
                 designer=self.designer_file(decl.span), package_rule=any(decl is x for x in m.rules),
                 for_cards=tuple(m.cards[n].id.text for n in m.rule_cards.get(id(decl), ()) if n in m.cards))
        owner = holder != "mode"
        if isinstance(f, ast.Trigger):
            r.windows = tuple(m.windows[w.text] for w in f.windows if w.text in m.windows)
            ev = r.windows[0].event.text if r.windows else None
            target_rel = "other" if f.target is not None and neq_self(f.target.where) else "any"
            r.body = az.scan([f.cost, f.do], own_event=ev, owner=owner, target_rel=target_rel, when=f.when)
        elif isinstance(f, ast.Active):
            target_rel = "other" if f.target is not None and neq_self(f.target.where) else "any"
            r.body = az.scan([f.cost, f.do], own_event=None, owner=owner, target_rel=target_rel)
        r.when = f.when
        r.limit = getattr(f, "limit", None)
        if f.when is not None:
            r.when_reads = frozenset(p[0] for n in walk_of(f.when, (ast.Attr,)) if (p := event_path(n)) is not None)
            r.when_state = az.state_reads(f.when)
            params = tuple(a.text for a in f.args) if isinstance(f, ast.Modify) else ()
            r.constraints = self.cond.constraints(f.when, params)
            r.excluded = self.cond.exclusions(f.when)
            r.required = frozenset(self.cond.required_fields(f.when))
            r.pinned = frozenset(pinned(f.when))
            r.guards = tuple(progress.guards(f.when, m, self.cond.const))
        return r

    # -- who can hold two rules at once
    def same_player(self, a: Rule, b: Rule) -> bool:
        """Can one player have both rules in effect at the same time?"""
        if a is b:
            return True
        if {a.holder, b.holder} & {"mode", "card"}:
            return False
        if a.holder == "hero" and b.holder == "hero":
            return bool({id(h) for h in a.heroes} & {id(h) for h in b.heroes}) or self.seat_heroes(a, b) is not None
        if "loose" in (a.holder, b.holder):
            return all(self._granted(r) for r in (a, b) if r.holder == "loose")
        if a.holder == "equipment" and b.holder == "equipment":
            return a.slot != b.slot
        return True  # a hero skill and an equipment card

    def two_players(self, a: Rule, b: Rule) -> bool:
        """Can two different players have them, one each?"""
        if "mode" in (a.holder, b.holder) or "card" in (a.holder, b.holder):
            return False
        if a.decl is b.decl:
            return a.holder == "equipment" and a.copies >= 2
        if a.holder == "hero" and b.holder == "hero":
            if a.lord and b.lord:
                return False  # one lord per table
            return any(self.can_meet(x.name.text, y.name.text) for x in a.heroes for y in b.heroes)
        if "loose" in (a.holder, b.holder):
            return all(self._granted(r) for r in (a, b) if r.holder == "loose")
        return True

    def _granted(self, r: Rule) -> bool:
        return r.decl.name.text in self.granted or r.decl.id.text in self.granted

    def seat_heroes(self, a: Rule, b: Rule) -> tuple | None:
        """Two distinct heroes, one with each rule, that one player holds together (国战's main and deputy),
        when no single hero has both rules: what makes them meet is then a pair of heroes."""
        if a.holder != "hero" or b.holder != "hero" or {id(h) for h in a.heroes} & {id(h) for h in b.heroes}:
            return None
        for x in a.heroes:
            for y in b.heroes:
                # a lord skill exists only in a mode with a lord
                if any(mode.lord is not None or not (a.lord or b.lord)
                       for mode in self.meeting_modes(x.name.text, y.name.text, meetings.SEAT)):
                    return (x, y)
        return None

    def meeting_heroes(self, a: Rule, b: Rule) -> tuple | None:
        """Two distinct heroes, one with each rule, that can meet (for pair findings)."""
        for x in a.heroes:
            for y in b.heroes:
                if x is not y and self.can_meet(x.name.text, y.name.text):
                    return (x, y)
        return None


def _granted(n) -> Iterator:
    for x in walk_of(n, (ast.Call,)):
        if isinstance(x, ast.Call) and is_name(x.func, "add_skill") and len(x.args) >= 2:
            if isinstance(x.args[1].value, ast.NameRef):
                yield x.args[1]


def facts_of(build) -> Facts:
    """The facts of a build, computed once."""
    key = ("facts", build.model.current)  # a variant package's pass has facts of its own
    f = build.memo.get(key)
    if f is None:
        f = build.memo[key] = Facts(build)
    return f
