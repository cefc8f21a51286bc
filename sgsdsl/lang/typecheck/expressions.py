"""Checking expressions: names, attributes, comparisons."""

from __future__ import annotations

import contextlib

from .. import ast
from ..analysis import AttrNote, CallNote, LocalNote, Ref
from ..diagnostics import suggest
from ..surface import (
    ATTRS,
    CONSTS,
    DEF_TABLES,
    EVENT_BUILTIN_FIELDS,
    SUIT_IDS,
)
from .types import Env, _ctx_help, _key, _nonnull, _null, _show, compatible, counter_default, elem, is_list, opt, strip


class Expressions:
    """Mixed into the Checker: the type of each expression."""

    # ---- expressions
    def expr(self, e: ast.Expr, env: Env) -> str:
        t = self._expr(e, env)
        self.m.analysis.types[e] = t
        return t

    def as_pile(self, e: ast.Expr, env: Env) -> str | None:
        """A skill's name where a zone is wanted, when the skill keeps a pile of that name (不屈's 「不屈牌」)."""
        pile = self.m.skill_piles.get(e.text) if isinstance(e, ast.NameRef) and env.lookup(e.text) is None else None
        if pile is None:
            return None
        self.visible(pile, e.span, f"pile '{e.text}'")
        self.note(e, Ref(repr("pile:" + pile.id.text)))
        self.m.analysis.types[e] = "zone"
        return "zone"

    def want(self, e: ast.Expr, env: Env, typ: str, what: str) -> str:
        if strip(typ) == "zone" and self.as_pile(e, env):
            return "zone"
        t = self.expr(e, env)
        if not compatible(t, typ):
            hint = "numbers are written without quotes" if (t, strip(typ)) == ("text", "int") else None
            self.err("SGS201", f"{what} must be {_show(typ)}, not {_show(t)}", e.span, help=hint)
        return t

    def _expr(self, e: ast.Expr, env: Env) -> str:  # noqa: C901 - one case per node kind
        match e:
            case ast.IntLit():
                return "int"
            case ast.StrLit():
                return "text"
            case ast.SuitLit():
                return "suit"
            case ast.CardLit():
                sym = self.m.values.get(e.name.text)
                if sym is None or sym.kind != "card":
                    self.err("SGS105", f"unknown card '{e.name.text}'", e.name.span, help=self.lives_in(e.name.text)
                             or suggest(e.name.text, [k for k, v in self.m.values.items() if v.kind == "card"]))
                    return "error"
                self.visible(sym.decl, e.name.span, f"'{e.name.text}'")
                self.note(e, Ref(repr((SUIT_IDS[e.suit], e.rank, sym.decl.id.text))))
                if env.test_heroes is None:  # a rule that named one printed card would hold for that card alone
                    self.err("SGS201", "a card by suit and rank (`♣2 杀`) is written only in a test's `expect`",
                             e.span, help="rules read a card's name, suit and rank: `c is 杀 and c.suit == ♣`")
                    return "error"
                return "cardlit"
            case ast.NameRef():
                return self.name(e, env)
            case ast.ListLit():
                ts = [self.expr(x, env) for x in e.items]
                base = next((strip(t) for t in ts if t not in ("none", "any", "error")), "any")
                for x, t in zip(e.items, ts):
                    if not compatible(t, base):
                        self.err("SGS201", f"a list mixes {_show(base)} and {_show(t)}", x.span)
                return f"list[{base}]"
            case ast.Attr():
                return self.attr(e, env)
            case ast.Call():
                return self.call(e, env)
            case ast.Index():
                t = self.expr(e.obj, env)
                self.want(e.index, env, "int", "an index")
                if not is_list(t) and t not in ("any", "error"):
                    self.err("SGS201", f"only a list can be indexed, not {_show(t)}", e.obj.span)
                    return "error"
                return strip(elem(t)) + "?"
            case ast.BinOp():
                lt, rt = self.expr(e.left, env), self.expr(e.right, env)
                if e.op == "+" and (is_list(lt) or is_list(rt)):
                    if not compatible(rt, lt) and not compatible(lt, rt):
                        self.err("SGS201", f"cannot add {_show(rt)} to {_show(lt)}", e.span)
                    return strip(lt) if is_list(lt) else strip(rt)
                for side, t in ((e.left, lt), (e.right, rt)):
                    if not compatible(t, "int") or t == "none":
                        self.err("SGS201", f"'{e.op}' needs numbers, not {_show(t)}", side.span)
                return "int"
            case ast.Neg():
                self.want(e.operand, env, "int", "a negated value")
                return "int"
            case ast.Not():
                self.expr(e.operand, env)
                return "bool"
            case ast.BoolOp():
                with self.guards(env) as guard:
                    for x in e.items:
                        self.expr(x, env)
                        if e.op == "and":
                            guard(x)
                return "bool"
            case ast.Compare():
                return self.compare(e, env)
            case ast.Cond():
                self.expr(e.test, env)
                with self.guards(env) as guard:
                    guard(e.test)
                    a = self.expr(e.then, env)
                with self.guards(env):
                    env.guarded.update(_null(e.test))
                    b = self.expr(e.other, env)
                if not compatible(a, b) and not compatible(b, a):
                    self.err("SGS201", f"the two branches give {_show(a)} and {_show(b)}", e.span)
                return a if a != "none" else b
            case ast.Filter():
                src = self.expr(e.source, env)
                if not is_list(src) and src not in ("any", "error"):
                    self.err("SGS201", f"`where` filters a list, not {_show(src)}", e.source.span)
                binder = e.binder.text if e.binder is not None else "it"
                self.with_it(e, env, elem(src), lambda: self.expr(e.pred, env), binder)
                return strip(src) if is_list(src) else "list[any]"
            case ast.Extreme():
                src = self.expr(e.source, env)
                if not is_list(src) and src not in ("any", "error"):
                    self.err("SGS201", f"`{'most' if e.most else 'least'}` picks from a list, not {_show(src)}",
                             e.source.span)
                self.with_it(e, env, elem(src), lambda: self.want(e.key, env, "int", "what is compared"))
                return strip(src) if is_list(src) else "list[any]"
            case ast.Choose():
                return self.choose(e, env)
            case ast.Ask():
                self.want(e.who, env, "player", "who is asked")
                for x in e.parts:
                    if isinstance(x, ast.Expr):
                        self.expr(x, env)
                return "bool"
            case ast.New():
                ev = e.event.text
                if ev not in self.m.events:
                    self.err("SGS109", f"unknown event type '{ev}'", e.event.span, help=suggest(ev, self.m.events))
                    return "error"
                self.visible(self.m.events[ev], e.event.span, f"event type '{ev}'")
                self.note(e, CallNote("new", ev, self.bind_fields(ev, e.args, env, e.span, f"event '{ev}'")))
                return ev
        self.err("SGS001", "this expression is not supported here", e.span)
        return "error"

    @contextlib.contextmanager
    def guards(self, env: Env):
        """Within the block, what a `x != none` test proved stays proved (`and` chains, `if`, `when`)."""
        before = set(env.guarded)

        def guard(test: ast.Expr) -> None:
            env.guarded.update(_nonnull(test))

        try:
            yield guard
        finally:
            env.guarded = before

    def with_it(self, node, env: Env, typ: str, fn, name: str = "it"):
        """Check fn() with `it` (or a named binder, which leaves the outer `it` visible) as the element."""
        env.its += 1
        py = f"it{env.its}" if env.its > 1 else "it"
        self.note(node, LocalNote(py))
        env.push()
        env.scope[-1][name] = (strip(typ), py)
        try:
            return fn()
        finally:
            env.pop()
            env.its -= 1

    def name(self, e: ast.NameRef, env: Env) -> str:
        n = e.text
        local = env.lookup(n)
        if local is not None:
            self.note(e, Ref(local[1]))
            return local[0]
        if n == "self":
            if env.self_type is None:
                self.err("SGS204", "`self` has no meaning here", e.span,
                         help="`self` is the owner of a skill or the user of a card; flows and modes have none")
                return "error"
            self.note(e, Ref("me"))
            return env.self_type
        if n == "event":
            if env.event is None:
                self.err("SGS204", "`event` has no meaning here", e.span,
                         help="`event` exists in triggers (the window's event), flows and card effects")
                return "error"
            self.note(e, Ref("ev"))
            return env.event
        if n == "card" and env.card:
            self.note(e, Ref("card"))
            return "card"
        if n == "user" and env.user:
            self.note(e, Ref("user"))
            return "player"
        if n in ("targets", "target") and env.targets:
            self.note(e, Ref("targets" if n == "targets" else "targets[0]"))
            return "list[player]" if n == "targets" else "player"
        if n in self.mode_options:
            typ, oid = self.mode_options[n]
            self.note(e, Ref(f"g.option({oid!r})"))
            return typ
        if n == "current":
            self.note(e, Ref("g.current"))
            return "player?"
        if n == "players":
            self.note(e, Ref("g.alive_from_current()"))
            return "list[player]"
        if n == "all_players":
            self.note(e, Ref("g.players"))
            return "list[player]"
        if n == "it":
            self.err("SGS204", "`it` exists only inside a `where`", e.span)
            return "error"
        if n in CONSTS:
            c = CONSTS[n]
            self.note(e, Ref(c.py))
            return c.type
        if env.test_heroes is not None and n in env.test_heroes:
            self.note(e, Ref(f"g.seat_of({env.test_heroes[n]!r})"))
            return "player"
        if env.test_heroes is not None and n in ("winner", "winners"):  # how the test's game ended
            # a mode without an identity table (国战) is won by kingdoms; else by identities (1v1's sides too)
            kind = "kingdom" if getattr(self, "test_mode", None) is not None and not self.test_mode.table \
                else "identity"
            won = f"T.winners_of(g, {kind!r})"
            self.note(e, Ref(f"T.first({won})" if n == "winner" else won))
            return f"{kind}?" if n == "winner" else f"list[{kind}]"
        sym = self.m.values.get(n)
        if sym is not None:
            self.visible(sym.decl, e.span, f"'{n}'")
            self.note(e, Ref(sym.py))
            if sym.kind in ("deck", "mode"):
                self.err("SGS201", f"'{n}' is a {sym.kind}, which has no value in expressions", e.span)
                return "error"
            return sym.type
        if n in self.m.types:
            self.note(e, Ref(repr(n)))
            return f"eventtype:{n}" if n in self.m.events else "error"
        pool = [k for k, v in self.m.values.items()] + list(CONSTS) + [k for s in env.scope for k in s]
        pool += [k for k, here in (("user", env.user), ("self", env.self_type), ("event", env.event),
                                   ("targets", env.targets), ("target", env.targets)) if here]
        code, what = "SGS101", "name"
        if n == "user":
            self.err("SGS204", "`user` has no meaning here", e.span,
                     help="`user` is the player using an active skill, or making a conversion that its `by` opens to "
                     "others; elsewhere the skill's owner is `self`")
            return "error"
        if n in self.m.windows:
            self.err("SGS201", f"'{n}' is a window; windows are only named after `on` and `open`", e.span)
            return "error"
        self.err(code, f"unknown {what} '{n}'", e.span, help=self.lives_in(n) or suggest(n, pool) or _ctx_help(n, env)
                 or "a name is a `let` variable or something the rules declare: a card, skill, hero, enum value …")
        return "error"

    def attr(self, e: ast.Attr, env: Env) -> str:
        t = self.expr(e.obj, env)
        if is_list(t) and strip(elem(t)) not in ("any", "error"):
            # an attribute of a list maps over it: `cards.suit` lists the suits
            each = ast.Attr(obj=ast.NameRef(text="_each", span=e.obj.span), name=e.name, span=e.span)
            self.m.analysis.types[each.obj] = strip(elem(t))
            self.m.analysis.refs[each.obj] = Ref("_x")  # the element, as the generated comprehension names it
            et = self._attr(each, strip(elem(t)), env)
            self.note(e, AttrNote("each", ""))
            self.m.analysis.each[e] = each
            return "error" if et == "error" else f"list[{strip(et)}]"
        return self._attr(e, t, env)

    def _attr(self, e: ast.Attr, t: str, env: Env) -> str:
        a = e.name.text
        base = strip(t)
        if base in ("any", "error"):
            self.note(e, AttrNote("py", a))
            return "any"
        if base in self.m.events:
            if opt(t) and _key(e.obj) not in env.guarded:
                shown = _key(e.obj) or "this event"
                self.err("SGS201", f"{shown} may be none here, and then it has no field '{a}'", e.obj.span,
                         help=f"test it first: `{shown} != none and {shown}.{a} …`")
                return "error"
            ext = self.m.extensions.get((base, a))
            if ext is not None:  # a field another package attached: kept in the event's tags
                self.visible(ext, e.name.span, f"field '{a}' of '{base}'")
                self.note(e, AttrNote("tag", a))
                self.m.analysis.tag_defaults[e] = counter_default(self.typeref(ext.type))
                return self.typeref(ext.type)
            ft = self.field_type(base, a)
            if ft is None:
                names = [f.name.text for f in self.m.events[base].fields] + list(EVENT_BUILTIN_FIELDS)
                where = f" (at {env.where})" if env.where else ""
                self.err("SGS107", f"event '{base}'{where} has no field '{a}'", e.name.span,
                         help=suggest(a, names) or f"its fields: {', '.join(names)}")
                return "error"
            self.note(e, AttrNote("py", a))
            return ft
        if base == "player" and a in self.m.counters:
            c = self.m.counters[a]
            self.visible(c, e.name.span, f"counter '{a}'")
            if isinstance(c, ast.PileDecl):
                self.note(e, AttrNote("pile", c.id.text))
                return "list[card]"
            self.note(e, AttrNote("mark", c.id.text))
            return self.typeref(c.type) if c.type is not None else "int"
        table = ATTRS.get(base)
        if table is None or a not in table:
            pool = list(table or {}) + (list(self.m.counters) if base == "player" else [])
            self.err("SGS108", f"{_show(base)} has no attribute '{a}'", e.name.span,
                     help=suggest(a, pool) or (f"its attributes: {', '.join(pool)}" if pool else None))
            return "error"
        spec = table[a]
        if base in DEF_TABLES:
            self.note(e, AttrNote("def:" + DEF_TABLES[base], spec.py or a))
        else:
            self.note(e, AttrNote("py", spec.py or a))
        return spec.type

    def compare(self, e: ast.Compare, env: Env) -> str:
        lt, rt = self.expr(e.left, env), self.expr(e.right, env)
        if strip(lt) == "zone" and strip(rt) == "skill":  # `c.zone == 不屈`: the skill's pile of that name
            rt = self.as_pile(e.right, env) or rt
        elif strip(rt) == "zone" and strip(lt) == "skill":
            lt = self.as_pile(e.left, env) or lt
        if "cardlit" in (lt, rt):  # `♣2 杀 in 刘备.hand`, `刘备.hand[0] is ♣2 杀`
            other, t = (rt, e.right) if lt == "cardlit" else (lt, e.left)
            if e.op in ("in", "not in") and lt == "cardlit" and (is_list(rt) and compatible(elem(rt), "card")):
                return "bool"
            if e.op in ("is", "==", "!=") and compatible(other, "card") and not is_list(other) and other != "cardlit":
                return "bool"
            if "error" not in (lt, rt):
                self.err("SGS201", f"a card by suit and rank is looked for in a list of cards (`in`) or compared with "
                         f"a card (`is`, `==`), not with `{e.op}` and {_show(other)}", e.span)
            return "bool"
        if env.test_heroes is not None:  # in a test, a hero's name is its seat, unless compared with heroes
            rt = self._as_hero(e.right, rt, lt, env)
            lt = self._as_hero(e.left, lt, rt, env)
        if e.op == "is":
            if not compatible(lt, "card") or not (compatible(rt, "cardname") or strip(rt) == "kind"):
                self.err("SGS201", f"`is` compares a card with a card name or a kind, not {_show(lt)} with {_show(rt)}",
                         e.span, help="write `event.card is 杀` or `event.card is trick`; for other values use ==")
        elif e.op in ("in", "not in"):
            if not is_list(rt) and rt not in ("any", "error"):
                self.err("SGS201", f"`{e.op}` needs a list on its right, not {_show(rt)}", e.right.span)
            elif not compatible(lt, elem(rt)) and not ({strip(lt), strip(elem(rt))} == {"card", "cardname"}):
                self.err("SGS201", f"cannot look for {_show(lt)} in {_show(rt)}", e.span)
        elif e.op in ("==", "!="):
            if not compatible(lt, rt) and not compatible(rt, lt):
                hint = {frozenset({"card", "cardname"}): "to ask whether a card is a 杀, write `event.card is 杀` "
                        "(false when there is no card)",
                        frozenset({"player", "int"}): "compare one of the player's numbers, such as `.hp`"}.get(
                    frozenset({strip(lt), strip(rt)}))
                self.err("SGS201", f"comparing {_show(lt)} with {_show(rt)} is always {'false' if e.op == '==' else 'true'}",
                         e.span, help=hint)
        else:
            for side, t in ((e.left, lt), (e.right, rt)):
                if not compatible(t, "int") or t == "none":
                    self.err("SGS201", f"'{e.op}' compares numbers, not {_show(t)}", side.span)
        return "bool"

    def _as_hero(self, e: ast.Expr, t: str, other: str, env: Env) -> str:
        wants = strip(other) == "hero" or (is_list(other) and strip(elem(other)) == "hero")
        if wants and isinstance(e, ast.NameRef) and e.text in env.test_heroes and strip(t) == "player":
            sym = self.m.values[e.text]
            self.note(e, Ref(sym.py))
            self.m.analysis.types[e] = "hero"
            return "hero"
        # `[刘备, none]`: a seat's hero cards, one face down (as `expect view` sees them)
        if wants and isinstance(e, ast.ListLit) and e.items and all(
                isinstance(x, ast.NameRef) and (x.text in env.test_heroes or x.text == "none") for x in e.items) \
                and any(x.text != "none" for x in e.items):
            for x in e.items:
                if x.text != "none":
                    self._as_hero(x, "player", "hero", env)
            self.m.analysis.types[e] = "list[hero]"
            return "list[hero]"
        return t
