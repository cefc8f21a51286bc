"""Checking a skill: its facets, clauses, targets, modifiers and allows."""

from __future__ import annotations

from .. import ast
from ..analysis import Ref
from ..diagnostics import Note, suggest
from ..rulesof import own_allows
from .types import Env, _nonnull, _show, compatible


class Skills:
    """Mixed into DeclChecker: skills and their facets."""

    def skill_env(self, owner: bool, **kw) -> Env:
        return self.env(self_type="player" if owner else None, **kw)

    def windows_event(self, t: ast.Trigger) -> str | None:
        evs = []
        for w in t.windows:
            wd = self.m.windows.get(w.text)
            if wd is None:
                self.err("SGS104", f"unknown window '{w.text}'", w.span, help=suggest(w.text, self.m.windows))
                continue
            self.visible(wd, w.span, f"window '{w.text}'")
            evs.append((w, wd))
        types = {wd.event.text for _, wd in evs}
        if len(types) > 1:
            w, wd = evs[-1]
            self.err("SGS205", "the windows of one trigger must carry the same event type", w.span,
                     help="give each event type its own `on …` clause",
                     notes=[Note(x.span, f"'{y.name.text}' carries '{y.event.text}'") for x, y in evs])
        return evs[0][1].event.text if evs else None

    def facets(self, facets, owner: bool, where: str) -> None:
        for f in facets:
            match f:
                case ast.Trigger():
                    ev = self.windows_event(f)
                    names = "、".join(w.text for w in f.windows)
                    env = self.skill_env(owner, event=ev or "error", where=f"{where} on {names}")
                    self.clauses(f, env)
                case ast.Active():
                    if f.by is not None:
                        by_env = self.skill_env(owner, where=where)
                        self.with_it(f, by_env, "player", lambda: self.expr(f.by, by_env))
                    env = self.skill_env(owner, where=where, user=True)
                    self.clauses(f, env)
                case ast.ViewAs():
                    self.value_of(f.card, "cardname", "card", "SGS105")
                    if f.pile is not None:
                        pile = self.m.counters.get(f.pile.text)
                        if not isinstance(pile, ast.PileDecl):
                            piles = sorted({c.name.text for c in self.m.counters.values() if isinstance(c, ast.PileDecl)})
                            self.err("SGS101", f"unknown pile '{f.pile.text}'", f.pile.span,
                                     help=suggest(f.pile.text, piles) or "a view-as skill takes its cards from the "
                                     "hand (`hand`), hand and equipment (nothing), or a `pile` declared in scope")
                        else:
                            self.visible(pile, f.pile.span, f"pile '{f.pile.text}'")
                    if f.count == 0 and (f.where is not None or f.together is not None or f.hand_only
                                         or f.pile is not None):
                        self.err("SGS208", "a view-as skill from 0 cards converts nothing: there are no cards to "
                                 "filter or to take from a source", f.span,
                                 help="write `viewas 酒 from 0 cards when …`; say what the skill needs in `when`")
                    env = self.skill_env(owner, where=where)
                    if f.where is not None:
                        self.with_it(f, env, "card", lambda: self.expr(f.where, env))
                    if f.together is not None:
                        self.with_it(f.together, env, "list[card]", lambda: self.expr(f.together, env))
                    if f.when is not None:
                        self.expr(f.when, env)
                    if f.by is not None:
                        by_env = self.skill_env(owner, where=where)
                        self.with_it(f.by, by_env, "player", lambda: self.expr(f.by, by_env))
                case ast.Modify():
                    self.modify(f, owner)
                case ast.Grant():
                    for n in f.skills:
                        self.value_of(n, "skill", "skill", "SGS106")
                    env = self.skill_env(owner, where=where)
                    self.want(f.when, env, "bool", "the condition")
                case ast.CardFilter():
                    kinds = {"suit": "suit", "color": "color", "name": "cardname"}
                    if f.what.text not in kinds:
                        self.err("SGS208", f"a card filter changes a card's suit, color or name, not '{f.what.text}'",
                                 f.what.span, help="write `filter suit = ♥ where …` or `filter name = 杀 where …`")
                        continue
                    env = self.skill_env(owner, where=where)
                    self.with_it(f, env, "card", lambda: (self.want(f.value, env, kinds[f.what.text], "the new value"),
                                                          self.expr(f.where, env)))
                case ast.Allow():
                    self.allows([f])

    def allows(self, facets) -> None:
        from ..diagnostics import CODES

        for f in facets:
            if f.code.text not in CODES and not f.code.text.startswith("SGS3"):
                self.err("SGS101", f"unknown diagnostic code '{f.code.text}'", f.code.span)

    def clauses(self, f, env: Env) -> None:
        if f.when is not None:
            self.expr(f.when, env)
            env.guarded.update(_nonnull(f.when))  # the body runs only when the condition held
        if f.limit is not None:
            self.want(f.limit.count, env, "int", "a use limit")
        env.push()
        if f.cost is not None:
            for s in f.cost.stmts:  # cost locals stay visible in `do`
                self.stmt(s, env)
        if f.target is not None:
            self.target(f.target, env)
            env.targets = True
        self.block(f.do, env)
        env.pop()

    def target(self, t: ast.TargetSpec, env: Env) -> None:
        for x in (t.lo, t.hi):
            if x is not None:
                self.want(x, env, "int", "a target count")
        if t.where is not None:
            self.with_it(t, env, "player", lambda: self.expr(t.where, env))

    def modify(self, f: ast.Modify, owner: bool) -> None:
        q = self.m.quantities.get(f.quantity.text)
        if q is None:
            self.err("SGS101", f"unknown quantity '{f.quantity.text}'", f.quantity.span,
                     help=suggest(f.quantity.text, self.m.quantities))
            return
        self.visible(q, f.quantity.span, f"quantity '{f.quantity.text}'")
        self.note(f, Ref(q.id.text))
        # trailing parameters that may be none (a card the value may depend on) can be left out: `_`
        required = len(q.params)
        while required and required > len(f.args) and q.params[required - 1].type.optional:
            required -= 1
        if not required <= len(f.args) <= len(q.params):
            self.err("SGS202", f"quantity '{f.quantity.text}' has {len(q.params)} parameter(s), the pattern gives "
                     f"{len(f.args)}", f.span, help="write `self`, `_` or a name for each parameter")
        env = self.skill_env(owner)
        for a, p in zip(f.args, q.params):
            if a.text in ("self", "_"):
                continue
            # Each becomes a parameter of a Python function, where a name can appear once.
            if a.text in env.scope[-1]:
                self.err("SGS102", f"'{a.text}' names two parameters of '{f.quantity.text}'", a.span,
                         help="give each parameter its own name, or `_` for one the rule does not read")
            self.check_ascii_param(a)
            env.scope[-1][a.text] = (self.typeref(p.type), f"a_{a.text}")
        qt = self.typeref(q.type)
        if f.when is not None:  # checked first: the engine reads the value only when the condition holds
            self.expr(f.when, env)
            env.guarded.update(_nonnull(f.when))
        vt = self.expr(f.value, env)
        if f.op in ("+= final", "-= final"):
            self.err("SGS208", f"`final` sets the value after the sums, so it goes with `=`, not `{f.op[:2]}`",
                     f.span, help="write `= final 1` for 视为1, or `+=`/`-=` alone for a change")
        if f.op in ("+=", "-=") and not compatible(qt, "int"):
            self.err("SGS201", f"'{f.op}' needs a numeric quantity; '{q.name.text}' is {_show(qt)}", f.span)
        if not compatible(vt, qt):
            self.err("SGS201", f"quantity '{q.name.text}' is {_show(qt)}, the value is {_show(vt)}", f.value.span)

    def skill(self, d: ast.SkillDecl, owner: bool) -> None:
        if d.rules_of:  # its facets are another skill's, checked in the package that writes them
            self.allows(own_allows(d))
            return
        if not d.facets:
            self.err("SGS208", f"skill '{d.name.text}' has no rules", d.name.span,
                     help="give it `on …`, `active`, `viewas` or `modify`")
        self.facets(d.facets, owner, f"skill {d.name.text}")
