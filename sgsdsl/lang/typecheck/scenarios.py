"""Checking scenario tests: seats, setups, answers, expectations."""

from __future__ import annotations

import re

from .. import ast
from ..diagnostics import suggest
from .types import _show


def view_seat(t: ast.TestDecl, who: str, heroes: dict) -> int | None:
    """The seat (0-based) `expect view WHO` reads from: a seat's hero (any that names it), or 座位N."""
    m = re.fullmatch(r"座位([1-9]\d*)", who)
    if m is not None:
        n = int(m.group(1)) - 1
        return n if n < len(t.seats) else None
    hero = heroes.get(who)
    for i, s in enumerate(t.seats):
        if hero is not None and hero in (s.hero.text, heroes.get(s.hero.text)):
            return i
    return None


class ScenarioTests:
    """Mixed into DeclChecker: scenario tests."""

    def test(self, t: ast.TestDecl) -> None:
        self.test_mode = self.m.modes.get(t.mode.text) if t.mode is not None else None
        self.test_options(t)
        for r in t.heroes:
            if r.text not in self.m.heroes:
                self.err("SGS112", f"unknown hero '{r.text}'", r.span,
                         help=suggest(r.text, [k for k, v in self.m.values.items() if v.kind == "hero"])
                         or "a test's hero pile lists declared heroes")
        heroes = {}
        for s in t.seats:
            h = self.m.heroes.get(s.hero.text)
            if h is None:
                self.err("SGS112", f"unknown hero '{s.hero.text}'", s.hero.span,
                         help=self.lives_in(s.hero.text) or suggest(s.hero.text, [k for k, v in self.m.values.items() if v.kind == "hero"]))
                continue
            if h.name.text in heroes:
                self.err("SGS211", f"hero '{h.name.text}' sits twice", s.hero.span)
            heroes[h.name.text] = heroes[h.id.text] = h.id.text
            for r in s.reserve:
                rh = self.m.heroes.get(r.text)
                if rh is None:
                    self.err("SGS112", f"unknown hero '{r.text}'", r.span,
                             help=suggest(r.text, [k for k, v in self.m.values.items() if v.kind == "hero"])
                             or "a seat's reserve lists declared heroes, in the order they enter play")
                else:  # a reserve hero names its seat too, once it has entered play
                    heroes.setdefault(rh.name.text, h.id.text)
                    heroes.setdefault(rh.id.text, h.id.text)
            for ref in s.hand + s.equip + s.judge:
                self.card_ref(ref)
            self.seat_heroes(s, h, heroes)
            for r in s.reserve + s.fallen:
                rh = self.m.heroes.get(r.text)
                if rh is None:
                    self.err("SGS112", f"unknown hero '{r.text}'", r.span)
                else:  # a reserve hero names its seat too, once it has entered play
                    heroes.setdefault(rh.name.text, h.id.text)
                    heroes.setdefault(rh.id.text, h.id.text)
            if s.identity is not None:
                self.value_of(s.identity, "identity", "identity")
            for n, _ in s.marks:
                if n.text not in self.m.counters:
                    self.err("SGS101", f"unknown mark '{n.text}'", n.span, help=suggest(n.text, self.m.counters))
            for n, cards in s.piles:
                if not isinstance(self.m.counters.get(n.text), ast.PileDecl):
                    piles = [k for k, v in self.m.counters.items() if isinstance(v, ast.PileDecl)]
                    self.err("SGS101", f"unknown pile '{n.text}'", n.span, help=suggest(n.text, piles))
                for ref in cards:
                    self.card_ref(ref)
        if not t.seats:
            self.err("SGS211", "a test needs at least one `seat`", t.span)
        for ref in t.deck:
            self.card_ref(ref)
        if t.mode is not None and t.mode.text not in self.m.modes:
            self.err("SGS101", f"unknown mode '{t.mode.text}'", t.mode.span, help=suggest(t.mode.text, self.m.modes))
        if t.start is not None:
            who, ph = t.start
            if who.text not in heroes:
                self.err("SGS211", f"'{who.text}' has no seat in this test", who.span)
            if ph is not None:
                sym = self.m.values.get(ph.text)
                if sym is None or sym.type != "phase":
                    self.err("SGS101", f"'{ph.text}' is not a phase", ph.span,
                             help=suggest(ph.text, [k for k, v in self.m.values.items() if v.type == "phase"]))
        for who, _ in t.decides:  # a seat, or a skill or card whose requests the answers are bound to
            if who.text not in heroes and self.subject(who, quiet=True) is None:
                self.err("SGS211", f"'{who.text}' has no seat in this test, and is no skill or card", who.span,
                         help=self.lives_in(who.text) or "`decide HERO: …` scripts a seat's answers, `decide SKILL: …` "
                         "(or `decide HERO SKILL: …`) the answers to one skill's or card's requests")
        for who, skill, _ in t.bound:
            if who.text not in heroes:
                self.err("SGS211", f"'{who.text}' has no seat in this test", who.span)
            self.subject(skill)
        for who, skill, offer, _, _ in t.requests:
            if who.text not in heroes and (skill is not None or self.subject(who, quiet=True) is None):
                self.err("SGS211", f"'{who.text}' has no seat in this test" + ("" if skill else ", and is no skill or card"),
                         who.span)
            if skill is not None:
                self.subject(skill)
        for names, _ in t.asked:
            for who in names:
                if who.text not in heroes:
                    self.err("SGS211", f"'{who.text}' has no seat in this test", who.span)
        if t.setup and t.mode is None:
            self.err("SGS211", "`setup` runs a mode's setup: name the mode with `mode …`", t.span)
        for e in t.expects:
            self.expr(e, self.env(test_heroes=heroes))
        for who, e in t.views:
            if view_seat(t, who.text, heroes) is None:
                self.err("SGS211", f"'{who.text}' names no seat of this test", who.span,
                         help=f"a seat's hero, or 座位1 … 座位{len(t.seats)} (the seat's number, as the log names a "
                         "seat whose heroes are face down)")
            self.expr(e, self.env(test_heroes=heroes))

    def subject(self, n: ast.Name, quiet: bool = False):
        """A skill or card a test binds answers (or counts requests) to."""
        sym = self.m.values.get(n.text)
        if sym is not None and sym.kind in ("skill", "card"):
            self.visible(sym.decl, n.span, f"'{n.text}'")
            return sym
        if not quiet:
            pool = [k for k, v in self.m.values.items() if v.kind in ("skill", "card")]
            self.err("SGS106", f"unknown skill or card '{n.text}'", n.span,
                     help=self.lives_in(n.text) or suggest(n.text, pool))
        return None

    def seat_heroes(self, s: ast.Seat, h: ast.HeroDecl, heroes: dict) -> None:
        """国战 seats: the deputy hero names the seat too; what is face down, pre-shown, the kingdom."""
        deputy = None
        if s.deputy is not None:
            deputy = self.value_of(s.deputy, "hero", "hero", "SGS112")
            if deputy is not None:
                d = deputy.decl
                if d.name.text in heroes:
                    self.err("SGS211", f"hero '{d.name.text}' sits twice", s.deputy.span)
                heroes[d.name.text] = heroes[d.id.text] = h.id.text
        if s.hidden and s.deputy is None:
            self.err("SGS211", "only a seat with two hero cards (`deputy …`) has hero cards face down", s.span,
                     help="国战 seats: `seat 曹操 deputy 典韦 hidden deputy`")
        if s.kingdom is not None:
            self.value_of(s.kingdom, "kingdom", "kingdom")
        down = [x for x, which in ((h, "main"), (deputy.decl if deputy else None, "deputy"))
                if which in s.hidden and x is not None]
        for n in s.armed:
            sk = self.value_of(n, "skill", "skill", "SGS106")
            if sk is not None and not any(n.text in (x.name.text, x.id.text) for d in down for x in
                                          (self.m.skills[k.text] for k in d.skills if k.text in self.m.skills)):
                self.err("SGS211", f"'{n.text}' is not a skill of a face-down hero of this seat", n.span,
                         help="`armed [...]` pre-shows (预亮) skills of the seat's hidden heroes")

    def test_options(self, t: ast.TestDecl) -> None:
        """`option ID = VALUE`: an option of the test's mode, with a value of its default's type."""
        mode = self.m.modes.get(t.mode.text) if t.mode is not None else None
        for n, v in t.options:
            opts = {x: o for o in (mode.options if mode is not None else ()) for x in (o.id.text, o.name.text)}
            o = opts.get(n.text)
            if o is None:
                where = f"mode '{mode.name.text}'" if mode is not None else "a test without `mode`"
                self.err("SGS211", f"{where} has no option '{n.text}'", n.span,
                         help=suggest(n.text, list(opts)) or "options are declared in a mode: `option NAME id = VALUE`")
                continue
            want, got = self.expr(o.default, self.env()), self.expr(v, self.env())
            if want != got:
                self.err("SGS211", f"option '{n.text}' takes {_show(want)}, not {_show(got)}", v.span,
                         help="a mode option's value has the type of its default")

    def card_ref(self, ref: ast.CardRef) -> None:
        sym = self.m.values.get(ref.name.text)
        if sym is None or sym.kind != "card":
            self.err("SGS105", f"unknown card '{ref.name.text}'", ref.name.span,
                     help=suggest(ref.name.text, [k for k, v in self.m.values.items() if v.kind == "card"]))
