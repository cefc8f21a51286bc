"""Checking declarations in general: the pass over packages, roles, heroes, names and values."""

from __future__ import annotations

from .. import ast
from ..diagnostics import suggest
from ..model import Model
from ..surface import (
    ROLES,
)
from .types import Env, _show, compatible, strip


def package_scope(model: Model, pkg) -> tuple[str, ...]:
    """The variant packages a non-variant package `use`s: their declarations are in view in it."""
    return () if pkg.variant else tuple(u for u in pkg.uses if u in model.overlays)


class Declarations:
    """Mixed into DeclChecker: the pass over every package and the declarations with no checker of their own."""

    def run(self) -> None:
        self.check_roles()
        for pkg in self.m.packages.values():
            self.pkg = self.m.current = pkg.name
            self.m.scope = package_scope(self.m, pkg)
            for d in pkg.decls:
                self.decl(d)
        for t in self.m.tests:
            self.pkg = self.m.current = self.m.package_of(t)
            self.m.scope = ()
            self.m.scope = self.m.test_scope(t)
            self.locals_taken = set()
            self.checking = t
            self.test(t)
        self.m.current, self.m.scope = None, ()
        self.check_option_hints()

    def check_option_hints(self) -> None:
        """A hint on an option no `choose … option from [...]` offers would never be read."""
        labels = self.m.analysis.option_labels
        for d in self.m.hints:
            for n in d.options:
                if n.text not in labels:
                    self.err("SGS101", f"no `choose … option` offers \"{n.text}\"", n.span,
                             help=suggest(n.text, sorted(labels)) or "an option hint names the text of an option "
                             "exactly as a `choose … option from [...]` lists it")
    def env(self, **kw) -> Env:
        return Env(scope=[{}], **kw)

    def check_roles(self) -> None:
        m = self.m
        for role, b in m.binds.items():
            spec = ROLES[role]
            if spec.kind == "value":
                self.check_value_role(role, b)
                continue
            target = m.role_target(role)
            kinds = {"flow": ast.FlowDecl, "window": ast.WindowDecl, "event": ast.EventDecl,
                     "quantity": ast.QuantityDecl}
            if not isinstance(target, kinds[spec.kind]):
                self.err("SGS206", f"role '{role}' needs a {spec.kind}; '{b.target.text}' is not one", b.target.span,
                         help=spec.doc)
                continue
            if spec.kind == "quantity":
                self.pkg = self.m.package_of(target)  # its types are read as its own package sees them
                got = [self.typeref(p.type) for p in target.params]
                need = [t for _, t in spec.needs]
                if got != need or self.typeref(target.type) != spec.ret:
                    self.err("SGS206", f"role '{role}' needs a quantity ({', '.join(need)}) -> {spec.ret}",
                             b.target.span)
                continue
            ev = target.name.text if isinstance(target, ast.EventDecl) else target.event.text
            for fname, ftype in spec.needs:
                have = self.field_type(ev, fname)
                if have is None or not compatible(have, ftype):
                    self.err("SGS206", f"role '{role}' needs event '{ev}' to have field '{fname}: {ftype}'",
                             b.target.span, help=spec.doc)
        from ..surface import REQUIRED_ROLES

        if m.packages and any(p.shipped for p in m.packages.values()):
            for role in REQUIRED_ROLES:
                if role not in m.binds:
                    first = next(iter(m.packages.values()))
                    span = first.decls[0].span if first.decls else None
                    if span is not None:
                        self.err("SGS207", f"no rules bind the engine role '{role}'", span,
                                 help=f"add `bind {role} <name>` to the core rules: {ROLES[role].doc}")

    def check_value_role(self, role: str, b: ast.BindDecl) -> None:
        """A value role binds a value of its enum (`bind lone_kingdom 野心家`: a kingdom)."""
        spec = ROLES[role]
        if self.m.role_value(role) is None:
            pool = [k for k, v in self.m.values.items() if v.type == spec.ret]
            items = dict.fromkeys(f"{v.decl.name.text} {v.decl.id.text}" for v in self.m.values.values()
                                  if v.type == spec.ret)
            other = self.m.values.get(b.target.text)  # a value of another enum (男) is no near miss
            near = None if other is not None else suggest(b.target.text, pool)
            self.err("SGS206", f"role '{role}' needs a value of the enum '{spec.ret}'; '{b.target.text}' is not one",
                     b.target.span, help=near or f"the {spec.ret} values: {', '.join(items)}")

    def decl(self, d) -> None:  # noqa: C901
        # Python locals only need to be unique within one declaration's functions; numbering them
        # afresh per declaration keeps each package's generated code independent of the others.
        self.locals_taken = set()
        self.checking = d  # what a skill's own event or flow may be used in (visible)
        match d:
            case ast.ExtendDecl():
                if d.event.text not in self.m.events:
                    self.err("SGS109", f"unknown event type '{d.event.text}'", d.event.span,
                             help=suggest(d.event.text, self.m.events))
                for f in d.fields:
                    self.typeref(f.type)
                    if f.default is not None:
                        self.err("SGS208", "an attached field starts empty (0, false, none, [] …) and takes no default",
                                 f.default.span)
            case ast.EventDecl():
                for f in d.fields:
                    t = self.typeref(f.type)
                    if f.default is not None:
                        dt = self.expr(f.default, self.env())
                        if not compatible(dt, t):
                            self.err("SGS201", f"default of '{f.name.text}' must be {_show(t)}, not {_show(dt)}",
                                     f.default.span)
            case ast.WindowDecl():
                ev = self.m.events.get(d.event.text)
                if ev is None:
                    self.err("SGS109", f"unknown event type '{d.event.text}'", d.event.span,
                             help=suggest(d.event.text, self.m.events))
                else:
                    self.visible(ev, d.event.span, f"event type '{d.event.text}'")
                    if d.subject is not None:
                        ft = self.field_type(d.event.text, d.subject.text)
                        if ft is None or strip(ft) != "player":
                            self.err("SGS107", f"`for {d.subject.text}`: event '{d.event.text}' has no player field "
                                     f"'{d.subject.text}'", d.subject.span,
                                     help=suggest(d.subject.text, [f.name.text for f in ev.fields]))
            case ast.FlowDecl():
                if d.event.text not in self.m.events:
                    self.err("SGS109", f"unknown event type '{d.event.text}'", d.event.span,
                             help=suggest(d.event.text, self.m.events))
                    return
                self.visible(self.m.events[d.event.text], d.event.span, f"event type '{d.event.text}'")
                if d.result is not None and self.field_type(d.event.text, d.result.text) is None:
                    self.err("SGS107", f"event '{d.event.text}' has no field '{d.result.text}' to return",
                             d.result.span)
                env = self.env(event=d.event.text, flow_event=d.event.text, where=f"flow {d.name.text}")
                self.block(d.body, env)
            case ast.QuantityDecl():
                env = self.env()
                for p in d.params:
                    # Each becomes a parameter of a Python function, where a name can appear once.
                    if p.name.text in env.scope[-1]:
                        self.err("SGS102", f"parameter '{p.name.text}' appears twice", p.name.span,
                                 help="give each parameter its own name")
                    env.scope[-1][p.name.text] = (self.typeref(p.type), f"a_{p.name.text}")
                    self.check_ascii_param(p.name)
                qt = self.typeref(d.type)
                bt = self.expr(d.base, env)
                if not compatible(bt, qt):
                    self.err("SGS201", f"quantity '{d.name.text}' is {_show(qt)} but its base is {_show(bt)}",
                             d.base.span)
                if d.floor is not None:
                    self.want(d.floor, env, "int", "a floor")
            case ast.CounterDecl() | ast.MarkDecl() | ast.BindDecl() | ast.EnumDecl():
                pass
            case ast.CardDecl():
                self.card(d)
            case ast.HeroDecl():
                self.hero(d)
            case ast.SkillDecl():
                self.skill(d, owner=True)
            case ast.DeckDecl():
                self.deck(d)
            case ast.EditionDecl():
                self.edition(d)
            case ast.PoolDecl():
                for n in d.heroes:
                    self.value_of(n, "hero", "hero", "SGS112")
            case ast.ModeDecl():
                self.mode(d)
            case ast.RuleDecl():
                for n in d.cards:
                    self.value_of(n, "cardname", "card", "SGS105")
                self.skill(d.rule, owner=False)
            case ast.HintDecl():
                from ..surface import HINT_INTENTS, OPTION_INTENTS

                if d.options and d.intent.text not in OPTION_INTENTS:
                    self.err("SGS101", f"an option's hint is one of {', '.join(OPTION_INTENTS)}, not "
                             f"'{d.intent.text}'", d.intent.span, help=suggest(d.intent.text, OPTION_INTENTS))
                    return
                for n in d.targets:
                    sym = self.m.values.get(n.text)
                    if sym is None or not (sym.kind in ("card", "skill") or sym.type == "identity"):
                        pool = [k for k, v in self.m.values.items() if v.kind in ("card", "skill")]
                        self.err("SGS101", f"a hint names a card, a skill or an identity, not '{n.text}'", n.span,
                                 help=suggest(n.text, pool))
                    else:
                        self.visible(sym.decl, n.span, f"'{n.text}'")
                if d.intent.text not in HINT_INTENTS:
                    self.err("SGS101", f"unknown hint '{d.intent.text}'", d.intent.span,
                             help=suggest(d.intent.text, HINT_INTENTS) or f"hints: {', '.join(HINT_INTENTS)}")

    def check_ascii_param(self, n: ast.Name) -> None:
        if not (n.text.isascii() and n.text.isidentifier()):
            self.err("SGS103", f"parameter names are ascii: '{n.text}'", n.span)

    def lives_in(self, name: str) -> str | None:
        """Where a name not in view is declared (a variant package), and how a file or a test brings it in."""
        pkgs = self.m.declared_in(name)
        if not pkgs:
            return None
        modes = [m.name.text for m in self.m.unique(self.m.g_modes)
                 if any(v.text in pkgs for v in m.variants)]
        how = f"`use {pkgs[0]}`" + (f", or in a test `mode {modes[0]}` (which plays with it)" if modes else "")
        return (f"'{name}' is declared in the variant package {', '.join(pkgs)}, which is not selected here: "
                f"add {how}")

    def value_of(self, n: ast.Name, typ: str, what: str, code: str = "SGS101"):
        sym = self.m.values.get(n.text)
        if sym is None or sym.type != typ:
            pool = [k for k, v in self.m.values.items() if v.type == typ]
            self.err(code, f"unknown {what} '{n.text}'", n.span, help=self.lives_in(n.text) or suggest(n.text, pool))
            return None
        self.visible(sym.decl, n.span, f"'{n.text}'")
        return sym

    def hero(self, d: ast.HeroDecl) -> None:
        if d.kingdom is None or d.hp_halves is None or d.gender is None:
            missing = [k for k, v in (("kingdom", d.kingdom), ("hp", d.hp_halves), ("gender", d.gender)) if v is None]
            self.err("SGS208", f"hero '{d.name.text}' lacks {', '.join(missing)}", d.name.span,
                     help="e.g. `hero 曹操 caocao { kingdom 魏  hp 4  gender male  skills 奸雄, 护驾 }`")
        if d.kingdom is not None:
            self.value_of(d.kingdom, "kingdom", "kingdom")
        if d.gender is not None:
            self.value_of(d.gender, "gender", "gender")
        if d.hp_halves is not None and d.hp_halves < 1:
            self.err("SGS208", "a hero's hp must be at least 1", d.span)
        for s in d.skills:
            self.value_of(s, "skill", "skill", "SGS106")
        for p in d.pairs:
            self.value_of(p, "hero", "hero", "SGS112")
        if d.lord_of is not None and self.value_of(d.lord_of, "hero", "hero", "SGS112") is not None:
            other = self.m.heroes.get(d.lord_of.text)
            if d.lord_of.text == d.name.text or (other is not None and other.lord_of is not None):
                self.err("SGS208", f"hero '{d.name.text}' is the lord of a hero that is itself a lord card "
                         "(or of itself)", d.lord_of.span,
                         help="`lord of H` names the ordinary hero whose card the lord card replaces")
        for n in d.modes:
            self.value_of(n, "mode", "mode")
