"""Type checking of every body, and the annotations the code generator reads.

Each expression gets a type string (see surface.py). Names are resolved
through the local scope, the context (self, event, it …), built-in
constants, then the global declarations. An event field read at a window
whose event lacks it is an error here.
"""

from __future__ import annotations

import contextlib
import re

import attrs

from . import ast
from .analysis import AttrNote, CallNote, LocalNote, Ref
from .diagnostics import Diagnostic, Note, suggest
from .model import Model
from .rulesof import own_allows
from .surface import (
    ATTRS,
    BUILTIN_TYPES,
    CONSTS,
    CONTEXT_NAMES,
    DEF_TABLES,
    EVENT_BUILTIN_FIELDS,
    FUNCS,
    ROLES,
    SUIT_IDS,
    TYPE_ALIASES,
)

# ---- types ------------------------------------------------------------------------


def opt(t: str) -> bool:
    return t.endswith("?")


def strip(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def is_list(t: str) -> bool:
    return strip(t).startswith("list[")


def elem(t: str) -> str:
    s = strip(t)
    return s[5:-1] if s.startswith("list[") else "any"


def compatible(src: str, dst: str) -> bool:
    if src == "any" or dst == "any" or src == "error" or dst == "error":
        return True
    if src == "none":
        return True  # none is a value of every type; a required one fails at run time with a rules location
    s, d = strip(src), strip(dst)
    if s == d:
        return True
    if s.startswith("list[") and d.startswith("list["):
        return compatible(elem(s), elem(d))
    if d == "list[card]" and s == "card":
        return True  # primitives take one card or a list
    return False


@attrs.define
class Env:
    scope: list[dict[str, tuple[str, str]]]  # name -> (type, python)
    self_type: str | None = None  # "player" where `self` exists
    event: str | None = None  # event type of `event`
    card: bool = False
    targets: bool = False
    flow_event: str | None = None  # set inside a flow: `open W` without `with` uses it
    user: bool = False  # inside an active skill: `user` is the player using it (the owner, or one `by` lets)
    loops: int = 0
    its: int = 0
    test_heroes: dict | None = None
    where: str = ""
    guarded: set = attrs.Factory(set)  # expressions known not to be none here (`x != none and …`)

    def lookup(self, name: str):
        for s in reversed(self.scope):
            if name in s:
                return s[name]
        return None

    def push(self):
        self.scope.append({})

    def pop(self):
        self.scope.pop()


# Python, which the rules compile to, refuses more than 20 nested loops in one function.
MAX_LOOPS = 16


def _mangle(name: str, taken: set[str]) -> str:
    base = f"v_{name}" if name.isascii() and name.isidentifier() else f"v{len(taken)}"
    py = base
    n = 1
    while py in taken:
        n += 1
        py = f"{base}_{n}"
    taken.add(py)
    return py


class Checker:
    def __init__(self, model: Model):
        self.m = model
        self.diags: list[Diagnostic] = []
        self.locals_taken: set[str] = set()
        self.pkg = ""
        self.mode_options: dict[str, tuple[str, str]] = {}  # while checking a mode: its options

    def err(self, code, msg, span, help=None, notes=()):
        self.diags.append(Diagnostic(code, msg, span, help=help, notes=tuple(notes)))

    def note(self, node, value):
        self.m.analysis.refs[node] = value

    # ---- visibility across packages
    def visible(self, decl, span, what: str) -> None:
        owner = self.m.package_of(decl)
        if owner in ("?", self.pkg):
            return
        if owner not in self._reach(self.pkg) and not any(owner in self._reach(v) for v in self.m.scope):
            self.err("SGS101", f"{what} is declared in package '{owner}', which this package does not use", span,
                     help=f"add `use {owner}` at the top of the file")

    def _reach(self, pkg: str) -> set[str]:
        seen, todo = set(), [pkg]
        while todo:
            p = todo.pop()
            if p in seen or p not in self.m.packages:
                continue
            seen.add(p)
            todo.extend(self.m.packages[p].uses)
        return seen

    # ---- type references
    def typeref(self, t: ast.TypeRef) -> str:
        typ = self.m.analysis.types[t] = self._typeref(t)  # the code generator reads declared types here
        return typ

    def _typeref(self, t: ast.TypeRef) -> str:
        name = t.name.text
        if t.elem is not None:
            if name != "list":
                self.err("SGS109", f"only `list[T]` takes a parameter, not '{name}'", t.name.span)
                return "error"
            inner = self._typename(t.elem)
            return f"list[{inner}]" + ("?" if t.optional else "")
        return self._typename(t.name) + ("?" if t.optional else "")

    def _typename(self, n: ast.Name) -> str:
        if n.text in TYPE_ALIASES:
            return TYPE_ALIASES[n.text]
        if n.text in BUILTIN_TYPES or n.text in self.m.types:
            if n.text in self.m.types:
                self.visible(self.m.types[n.text], n.span, f"type '{n.text}'")
            return n.text
        self.err("SGS109", f"unknown type '{n.text}'", n.span,
                 help=suggest(n.text, list(BUILTIN_TYPES) + list(self.m.types) + list(TYPE_ALIASES))
                 or "built-in types: int, bool, text, player, card, cardname, hero, skill, suit, color, zone")
        return "error"

    def field_type(self, event: str, fname: str) -> str | None:
        d = self.m.events.get(event)
        if fname in EVENT_BUILTIN_FIELDS:
            return EVENT_BUILTIN_FIELDS[fname].type
        if d is None:
            return None
        for f in d.fields:
            if f.name.text == fname:
                return self.typeref(f.type)
        f = self.m.extensions.get((event, fname))
        if f is not None:
            return self.typeref(f.type)
        return None

    def event_fields(self, event: str) -> list[tuple[str, str, ast.Field]]:
        d = self.m.events.get(event)
        return [(f.name.text, self.typeref(f.type), f) for f in d.fields] if d else []

    def role_type(self, role: str) -> str:
        target = self.m.role_target(role)
        if isinstance(target, ast.EventDecl):
            return target.name.text
        if isinstance(target, (ast.FlowDecl, ast.WindowDecl)):
            return target.event.text
        return "any"

    # ---- expressions
    def expr(self, e: ast.Expr, env: Env) -> str:
        t = self._expr(e, env)
        self.m.analysis.types[e] = t
        return t

    def want(self, e: ast.Expr, env: Env, typ: str, what: str) -> str:
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
            if not compatible(lt, "card") or not compatible(rt, "cardname"):
                self.err("SGS201", f"`is` compares a card with a card name, not {_show(lt)} with {_show(rt)}", e.span,
                         help="write `event.card is 杀`; for other values use ==")
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

    def choose(self, e: ast.Choose, env: Env) -> str:
        self.want(e.who, env, "player", "who chooses")
        for x in e.parts:
            if isinstance(x, ast.Expr):
                self.expr(x, env)
        for x in (e.lo, e.hi):
            if x is not None:
                self.want(x, env, "int", "a count")
        kind = e.kind
        if kind in ("option", "options"):
            if e.source is None:
                self.err("SGS208", f"`choose … {kind}` needs `from [\"…\", \"…\"]`", e.span)
                return "error"
            src = self.expr(e.source, env)
            if isinstance(e.source, ast.ListLit):  # the labels an option hint may name
                self.m.analysis.option_labels.update(
                    x.value for x in e.source.items if isinstance(x, ast.StrLit))
            if not is_list(src) and src not in ("any", "error"):
                self.err("SGS201", f"options are a list, not {_show(src)}", e.source.span)
            if e.where is not None:
                self.with_it(e, env, elem(src), lambda: self.expr(e.where, env))
            if kind == "options":
                return f"list[{strip(elem(src))}]" if is_list(src) else "list[any]"
            return strip(elem(src)) if is_list(src) else "any"
        item = "card" if kind.startswith("card") else "player"
        if e.source is not None:
            self.want(e.source, env, f"list[{item}]", f"what {kind} are chosen from")
        if e.where is not None:
            self.with_it(e, env, item, lambda: self.expr(e.where, env))
        if kind in ("card", "player") and e.lo is not None:
            self.err("SGS208", f"`choose … {kind}` picks exactly one; write `{kind}s 1..2` for a count", e.lo.span)
        return item if kind in ("card", "player") else f"list[{item}]"

    def call(self, e: ast.Call, env: Env) -> str:
        if not isinstance(e.func, ast.NameRef):
            self.err("SGS113", "only named functions can be called", e.func.span)
            return "error"
        n = e.func.text
        if n in FUNCS:
            return self.call_func(e, n, FUNCS[n], env)
        if n in self.m.flows:
            f = self.m.flows[n]
            self.visible(f, e.func.span, f"flow '{n}'")
            ev = f.event.text
            if len(e.args) == 1 and e.args[0].name is None:
                # `settle(a)`: run the flow on an event that already exists
                t = self.expr(e.args[0].value, env)
                if strip(t) == ev:
                    self.note(e, CallNote("run", f.id.text, (e.args[0].value,)))
                    return self.field_type(ev, f.result.text) or "error" if f.result is not None else ev
            self.note(e, CallNote("flow", f.id.text, self.bind_fields(ev, e.args, env, e.span, f"flow '{n}'")))
            if f.result is not None:
                return self.field_type(ev, f.result.text) or "error"
            return ev
        if n in self.m.quantities:
            q = self.m.quantities[n]
            self.visible(q, e.func.span, f"quantity '{n}'")
            params = [(p.name.text, self.typeref(p.type), "None" if p.type.optional else None) for p in q.params]
            args = self.bind_params(e, params, env, f"quantity '{n}'")
            for (pname, ptype, _), (_, node, _) in zip(params, args):
                if node is not None:
                    self.want(node, env, ptype, f"argument '{pname}' of '{n}'")
            self.note(e, CallNote("quantity", q.id.text, tuple(a for _, a, _ in args)))
            return self.typeref(q.type)
        pool = list(FUNCS) + list(self.m.flows) + list(self.m.quantities)
        self.err("SGS113", f"unknown function '{n}'", e.func.span,
                 help=suggest(n, pool) or "calls name a primitive, a builtin, a flow or a quantity")
        for a in e.args:
            self.expr(a.value, env)
        return "error"

    def bind_params(self, e: ast.Call, params, env: Env, what: str):
        """Match call arguments to (name, type, default) params; type-check each."""
        out = {p[0]: None for p in params}
        pos = [a for a in e.args if a.name is None]
        kws = [a for a in e.args if a.name is not None]
        if len(pos) > len(params):
            self.err("SGS202", f"{what} takes {len(params)} argument(s), {len(pos)} given", e.span,
                     help="parameters: " + ", ".join(p[0] for p in params))
        for (pname, ptype, _), a in zip(params, pos):
            out[pname] = a.value
        names = [p[0] for p in params]
        for a in kws:
            if a.name.text not in out:
                self.err("SGS202", f"{what} has no parameter '{a.name.text}'", a.name.span,
                         help=suggest(a.name.text, names) or "parameters: " + ", ".join(names))
                self.expr(a.value, env)
                continue
            if out[a.name.text] is not None:
                self.err("SGS202", f"argument '{a.name.text}' given twice", a.name.span)
            out[a.name.text] = a.value
        result = []
        for pname, ptype, default in params:
            node = out[pname]
            if node is None and default is None:
                self.err("SGS202", f"{what} needs argument '{pname}'", e.span, help="parameters: " + ", ".join(names))
            result.append((pname, node, default))
        return [(p, n, d) for p, n, d in result]

    def call_func(self, e: ast.Call, n: str, f, env: Env) -> str:
        params = []
        for pname, ptype, default in f.params:
            if ptype.startswith("@"):
                ptype = self.role_type(ptype[1:])
            params.append((pname, ptype, default))
        args = self.bind_params(e, params, env, f"'{n}'")
        types = {}
        for (pname, ptype, _), (_, node, _) in zip(params, args):
            if node is None:
                continue
            if ptype == "eventtype":
                t = self.expr(node, env)
                if not t.startswith("eventtype:"):
                    self.err("SGS201", f"'{n}' takes the name of an event type", node.span)
                    types[pname] = "error"
                else:
                    types[pname] = t.split(":", 1)[1]
                continue
            if ptype == "phase" and "phase" not in self.m.types:
                self.err("SGS109", "the rules declare no `enum phase`", e.span)
            types[pname] = self.want(node, env, ptype, f"argument '{pname}' of '{n}'")
        self.note(e, CallNote("func", f.template, tuple(args)))
        ret = f.ret
        first = types.get(f.params[0][0], "any") if f.params else "any"
        if ret == "elem?":
            return strip(elem(first)) + "?"
        if ret == "elem":
            return strip(elem(first))
        if ret == "same":
            return first
        if ret == "event?":
            return types.get("type", "any") + "?"
        return ret

    def bind_fields(self, ev: str, args, env: Env, span, what: str):
        fields = self.event_fields(ev)
        params = [(name, typ, "d" if (f.default is not None or opt(typ) or typ.startswith("list[")
                                      or typ in ("int", "bool", "text")) else None)
                  for name, typ, f in fields]
        fake = ast.Call(func=ast.NameRef(text=ev, span=span), args=tuple(args), span=span)
        bound = self.bind_params(fake, params, env, what)
        for (pname, ptype, _), (_, node, _) in zip(params, bound):
            if node is not None:
                self.want(node, env, ptype, f"field '{pname}'")
        return tuple((p, node) for p, node, _ in bound if node is not None)

    # ---- statements
    def block(self, b: ast.Block | None, env: Env) -> None:
        if b is None:
            return
        env.push()
        for s in b.stmts:
            self.stmt(s, env)
        env.pop()

    def stmt(self, s: ast.Stmt, env: Env) -> None:  # noqa: C901
        match s:
            case ast.Let():
                t = self.expr(s.value, env)
                py = _mangle(s.name.text, self.locals_taken)
                self.note(s, LocalNote(py))
                env.scope[-1][s.name.text] = ("any" if t == "none" else t, py)
            case ast.Assign():
                self.assign(s, env)
            case ast.ExprStmt():
                if not isinstance(s.expr, ast.Call):
                    self.err("SGS203", "an expression on its own does nothing", s.span,
                             help="call a primitive or a flow, or assign with `=`")
                self.expr(s.expr, env)
            case ast.If():
                self.expr(s.test, env)
                with self.guards(env) as guard:
                    guard(s.test)
                    self.block(s.then, env)
                with self.guards(env):
                    env.guarded.update(_null(s.test))
                    self.block(s.other, env)
            case ast.For():
                t = self.expr(s.iter, env)
                if not is_list(t) and t not in ("any", "error"):
                    self.err("SGS201", f"`for` walks a list, not {_show(t)}", s.iter.span)
                env.push()
                py = _mangle(s.var.text, self.locals_taken)
                self.note(s, LocalNote(py))
                env.scope[-1][s.var.text] = (strip(elem(t)), py)
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
                env.pop()
            case ast.While():
                self.expr(s.test, env)
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
            case ast.Repeat():
                self.want(s.count, env, "int", "a repeat count")
                self.enter_loop(s, env)
                self.block(s.body, env)
                env.loops -= 1
            case ast.Open():
                self.open(s, env)
            case ast.Later():
                if env.loops:
                    self.err("SGS204", "`later` cannot sit in a loop: it would capture the loop's last values", s.span)
                self.block(s.body, env)
            case ast.PhaseStmt():
                if env.flow_event is None:
                    self.err("SGS204", "`phase` belongs in a flow", s.span)
                sym = self.m.values.get(s.phase.text)
                if sym is None or sym.type != "phase":
                    self.err("SGS101", f"'{s.phase.text}' is not a value of `enum phase`", s.phase.span,
                             help=suggest(s.phase.text, [k for k, v in self.m.values.items() if v.type == "phase"]))
                else:
                    self.note(s, Ref(sym.py))
                self.block(s.body, env)
            case ast.Log():
                for p in s.parts:
                    if isinstance(p, ast.Expr):
                        self.expr(p, env)
            case ast.Break() | ast.Continue():
                if env.loops == 0:
                    self.err("SGS204", f"`{'break' if isinstance(s, ast.Break) else 'continue'}` outside a loop", s.span,
                             help="`break` and `continue` belong in `for`, `while` and `repeat`; `stop` ends the effect")
            case ast.Stop():
                pass

    def enter_loop(self, s: ast.Stmt, env: Env) -> None:
        env.loops += 1
        if env.loops == MAX_LOOPS + 1:  # reported once, at the first loop too deep
            self.err("SGS001", f"loops nest more than {MAX_LOOPS} deep here", s.span,
                     help="move the inner loops into a flow of their own")

    def assign(self, s: ast.Assign, env: Env) -> None:
        vt = self.expr(s.value, env)
        tgt = s.target
        if isinstance(tgt, ast.NameRef):
            local = env.lookup(tgt.text)
            if local is None:
                msg, hint = self._not_a_variable(tgt.text)
                self.err("SGS203", msg, tgt.span, help=hint)
                return
            self.note(tgt, Ref(local[1]))
            tt = local[0]
            self.m.analysis.types[tgt] = tt  # codegen reads it: `xs += c` appends
        elif isinstance(tgt, ast.Attr):
            tt = self.expr(tgt, env)
            ot = strip(self.m.analysis.type_of(tgt.obj))
            note = self.m.analysis.refs.get(tgt)
            writable = ot in self.m.events or (ot == "player" and isinstance(note, AttrNote) and note.kind == "mark")
            writable = writable and not (isinstance(note, AttrNote) and note.kind == "pile")
            if not writable and tt != "error" and ot not in ("any", "error"):  # no cascade after an error
                self.err("SGS203", f"'{tgt.name.text}' of {_show(ot)} cannot be assigned", tgt.span,
                         help="event fields, counters and marks can be written; change players through primitives")
                return
        else:
            self.err("SGS203", "only variables, event fields, counters and marks can be assigned", tgt.span)
            return
        if s.op in ("+=", "-="):
            if not (compatible(tt, "int") or (s.op == "+=" and is_list(tt))):
                self.err("SGS201", f"'{s.op}' needs a number{' or a list' if s.op == '+=' else ''}, not {_show(tt)}",
                         s.span, help="it changes a number in place (and `+=` appends to a list); players change "
                         "through primitives and flows")
                return  # one mistake, one message: the value's type is moot
        if not compatible(vt, tt) and not (s.op == "+=" and is_list(tt) and compatible(vt, elem(tt))):
            self.err("SGS201", f"cannot assign {_show(vt)} to {_show(tt)}", s.value.span)

    def _not_a_variable(self, n: str) -> tuple[str, str]:
        """Message and help for an assignment to a name that no `let` declared."""
        if n == "event":
            return "`event` cannot be replaced", "write its fields instead, e.g. `event.amount += 1`"
        if n in CONTEXT_NAMES:
            return f"`{n}` cannot be assigned", f"`{n}` is {CONTEXT_NAMES[n]}; keep values of your own in `let` variables"
        if n in CONSTS or n in self.m.values:
            return f"'{n}' is a name of the rules, not a variable", "keep your own values in `let` variables"
        return f"'{n}' is not a variable", f"declare it first with `let {n} = …`"

    def open(self, s: ast.Open, env: Env) -> None:
        w = self.m.windows.get(s.window.text)
        if w is None:
            self.err("SGS104", f"unknown window '{s.window.text}'", s.window.span,
                     help=suggest(s.window.text, self.m.windows))
            if s.event is not None:
                self.expr(s.event, env)
            return
        self.visible(w, s.window.span, f"window '{s.window.text}'")
        self.note(s, Ref(w.id.text))
        if s.event is not None:
            t = self.expr(s.event, env)
            if strip(t) != w.event.text and t not in ("any", "error"):
                self.err("SGS205", f"window '{w.name.text}' carries a '{w.event.text}' event, not {_show(t)}",
                         s.event.span)
        elif env.flow_event is None and env.event is None:
            self.err("SGS204", "`open` outside a flow needs `with <event>`", s.span)
        elif (env.flow_event or env.event) != w.event.text:
            self.err("SGS205", f"window '{w.name.text}' carries a '{w.event.text}' event but this flow's event is "
                     f"'{env.flow_event or env.event}'", s.window.span, help="write `open … with <event>`")


def _show(t: str) -> str:
    if t.startswith("eventtype:"):
        return f"event type {t.split(':')[1]}"
    if t.endswith("?") and t not in ("none", "error"):
        return _show(t[:-1]) + " (or none)"
    if t in ("none", "error") or t.startswith("list["):
        return {"none": "none", "error": "an erroneous value"}.get(t, t)
    return f"{'an' if t[0] in 'aeiou' else 'a'} {t}"


def _ctx_help(n: str, env: Env) -> str | None:
    if n in ("self", "event", "card", "target", "targets"):
        return f"`{n}` does not exist here"
    return None


# ---- declarations ------------------------------------------------------------------------


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


def package_scope(model: Model, pkg) -> tuple[str, ...]:
    """The variant packages a non-variant package `use`s: their declarations are in view in it."""
    return () if pkg.variant else tuple(u for u in pkg.uses if u in model.overlays)


def check(model: Model) -> list[Diagnostic]:
    c = DeclChecker(model)
    c.run()
    return c.diags


class DeclChecker(Checker):
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
        from .surface import REQUIRED_ROLES

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
            case ast.ModeDecl():
                self.mode(d)
            case ast.RuleDecl():
                self.skill(d.rule, owner=False)
            case ast.HintDecl():
                from .surface import HINT_INTENTS, OPTION_INTENTS

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
        for n in d.modes:
            self.value_of(n, "mode", "mode")

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
                    if f.count < 1 and f.count != ast.ALL_CARDS:
                        self.err("SGS208", "a view-as skill needs at least one card", f.span)
                    env = self.skill_env(owner, where=where)
                    if f.where is not None:
                        self.with_it(f, env, "card", lambda: self.expr(f.where, env))
                    if f.together is not None:
                        self.with_it(f.together, env, "list[card]", lambda: self.expr(f.together, env))
                    if f.when is not None:
                        self.expr(f.when, env)
                case ast.Modify():
                    self.modify(f, owner)
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
        from .diagnostics import CODES

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

    def card(self, d: ast.CardDecl) -> None:
        env = self.env(self_type="player", card=True, where=f"card {d.name.text}")
        if d.nature is not None:
            self.value_of(d.nature, "nature", "damage nature")
        if d.recast and d.kind == "equipment":
            self.err("SGS208", "equipment is not recast in these rules: only a basic or trick card may be", d.span)
        if d.parent is not None and self.value_of(d.parent, "cardname", "card") is not None:
            self.card_parent(d)
        if d.target is not None:
            if d.kind == "equipment":
                self.err("SGS208", "equipment goes to its user's slot and takes no `target`", d.target.span)
            self.target(d.target, env)
        if d.limit is not None:  # `it` is a candidate target: a limit may hold against some targets only
            self.with_it(d.limit, env, "player", lambda: self.want(d.limit.count, env, "int", "a use limit"))
        hooks = {}
        for name, block in d.hooks:
            if name in hooks:
                self.err("SGS102", f"card '{d.name.text}' has two `{name}` blocks", block.span)
            hooks[name] = block
            role = "aim" if name == "effect" else "use"
            ev = self.role_type(role)
            self.block(block, self.env(self_type="player", card=True, event=ev, where=f"card {d.name.text}"))
        if d.kind == "equipment" and "effect" in hooks:
            self.err("SGS208", "equipment has no `effect`; give it triggers or modifiers instead", hooks["effect"].span)
        if d.kind == "equipment" and d.slot == "weapon" and d.range is None:
            self.err("SGS208", "a weapon needs its attack range: `weapon 3`", d.span)
        self.facets(d.facets, True, f"card {d.name.text}")

    def card_parent(self, d: ast.CardDecl) -> None:
        """`is P`: P is a card of the same kind and slot, and following `is` never comes back to d."""
        parent = self.m.cards[d.parent.text]
        if (parent.kind, parent.slot) != (d.kind, d.slot):
            self.err("SGS208", f"'{d.name.text}' cannot be a kind of '{parent.name.text}': one is {d.slot or d.kind}, "
                     f"the other {parent.slot or parent.kind}", d.parent.span,
                     help="a card is a kind of a card of its own kind (火杀 basic is 杀)")
            return
        seen = {d.id.text}
        while parent.parent is not None and parent.parent.text in self.m.cards:
            if parent.id.text in seen:
                break
            seen.add(parent.id.text)
            parent = self.m.cards[parent.parent.text]
        if parent.id.text in seen:
            self.err("SGS208", f"'{d.name.text}' is, through `is`, a kind of itself", d.parent.span,
                     help="one of these cards must be a card of its own (no `is`)")

    def deck(self, d: ast.DeckDecl) -> None:
        self.allows(d.facets)
        for e in d.entries:
            self.card_name(e.card)
            if not 1 <= e.rank <= 13:
                self.err("SGS209", f"rank {e.rank} does not exist", e.span, help="ranks run A, 2–10, J, Q, K")
        for n in d.modes:  # like a test's `mode`: a mode is named across packages (the modes use the decks)
            if n.text not in self.m.modes:
                self.err("SGS101", f"unknown mode '{n.text}'", n.span, help=suggest(n.text, self.m.modes)
                         or f"modes: {', '.join(sorted({m.name.text for m in self.m.modes.values()}))}")
        if d.edition is not None and d.edition.text not in self.m.editions:
            self.err("SGS101", f"unknown edition '{d.edition.text}'", d.edition.span,
                     help=suggest(d.edition.text, self.m.editions) or "declare it with `edition NAME id { 杀: ♠7 … }`")

    def card_name(self, n: ast.Name) -> None:
        sym = self.m.values.get(n.text)
        if sym is None or sym.kind != "card":
            self.err("SGS105", f"unknown card '{n.text}'", n.span,
                     help=suggest(n.text, [k for k, v in self.m.values.items() if v.kind == "card"]))
        else:
            self.visible(sym.decl, n.span, f"card '{n.text}'")

    def edition(self, d: ast.EditionDecl) -> None:
        for row in d.rows:
            self.card_name(row.card)
            for _, rank, span in row.cards:
                if not 1 <= rank <= 13:
                    self.err("SGS209", f"rank {rank} does not exist", span, help="ranks run A, 2–10, J, Q, K")

    def mode(self, d: ast.ModeDecl) -> None:
        self.mode_options = {}
        for o in d.options:  # visible by name (Chinese or id) in the mode's setup, victory and rules
            self.check_ascii_param(o.id)
            t = self.expr(o.default, self.env())
            if t not in ("int", "text", "bool"):
                self.err("SGS201", f"an option's default is a number, a text or true/false, not {_show(t)}",
                         o.default.span)
            for n in (o.name.text, o.id.text):
                self.mode_options[n] = (t, o.id.text)
        try:
            self._mode(d)
        finally:
            self.mode_options = {}

    def _mode(self, d: ast.ModeDecl) -> None:
        for n in d.variants:
            pkg = self.m.packages.get(n.text)
            if pkg is None or not pkg.variant:
                variants = [k for k, p in self.m.packages.items() if p.variant]
                self.err("SGS110", f"'{n.text}' is not a variant package", n.span,
                         help=suggest(n.text, variants) or f"variant packages: {', '.join(variants) or 'none'}")
        ident = self.m.enums.get("identity")
        if d.players is not None and d.players[0] > d.players[1]:
            self.err("SGS210", f"player range {d.players[0]}..{d.players[1]} is empty", d.span)
        for row in d.table:
            for variant in row.variants:
                for n in variant:
                    self.value_of(n, "identity", "identity")
                if len(variant) != row.players:
                    self.err("SGS210", f"the identities for {row.players} players number {len(variant)}",
                             variant[0].span if variant else row.span,
                             help="each row lists one identity per player")
        if d.table and ident is None:
            self.err("SGS109", "an identity table needs `enum identity`", d.span)
        for n in d.decks:
            sym = self.m.values.get(n.text)
            if sym is None or sym.kind != "deck":
                self.err("SGS101", f"unknown deck '{n.text}'", n.span,
                         help=suggest(n.text, [k for k, v in self.m.values.items() if v.kind == "deck"]))
        for n in d.heroes:  # packages, or single heroes
            if n.text not in self.m.packages:
                sym = self.m.values.get(n.text)
                if sym is None or sym.kind != "hero":
                    heroes = [k for k, v in self.m.values.items() if v.kind == "hero"]
                    self.err("SGS110", f"no rules package or hero named '{n.text}'", n.span,
                             help=suggest(n.text, list(self.m.packages) + heroes))
        for n in d.hero_except:
            self.value_of(n, "hero", "hero", "SGS112")
        if d.lord is not None:
            self.value_of(d.lord, "identity", "identity")
        if d.setup is not None:
            self.block(d.setup, self.env(where=f"mode {d.name.text} setup"))
        if d.victory is not None:
            self.block(d.victory, self.env(where=f"mode {d.name.text} victory"))
        for w in d.wins:
            for n in w.identities:
                self.value_of(n, "identity", "identity")
            self.expr(w.cond, self.env())
        for r in d.rules:
            self.skill(r, owner=False)

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


def _key(e: ast.Expr) -> str:
    """A name for an expression built of names, fields, calls and indexes ('' for anything else)."""
    match e:
        case ast.NameRef():
            return e.text
        case ast.Attr():
            inner = _key(e.obj)
            return f"{inner}.{e.name.text}" if inner else ""
        case ast.Call():
            inner = _key(e.func)
            args = [_key(a.value) for a in e.args]
            return f"{inner}({', '.join(args)})" if inner and all(args) else ""
        case ast.Index():
            inner, i = _key(e.obj), _key(e.index)
            return f"{inner}[{i}]" if inner and i else ""
        case ast.IntLit():
            return str(e.value)
    return ""


def _null(test: ast.Expr) -> set[str]:
    """Expressions that cannot be none when `test` fails: `x == none`, and each of an `or` chain."""
    if isinstance(test, ast.BoolOp) and test.op == "or":
        return set().union(*(_null(x) for x in test.items))
    if isinstance(test, ast.Not):
        return _nonnull(test.operand)
    if isinstance(test, ast.Compare) and test.op == "==":
        for a, b in ((test.left, test.right), (test.right, test.left)):
            if isinstance(b, ast.NameRef) and b.text == "none" and _key(a):
                return {_key(a)}
    return set()


def _nonnull(test: ast.Expr) -> set[str]:
    """Expressions that cannot be none when `test` holds: `x != none`, and each of an `and` chain."""
    if isinstance(test, ast.BoolOp) and test.op == "and":
        return set().union(*(_nonnull(x) for x in test.items))
    if isinstance(test, ast.Not):
        return _null(test.operand)
    if isinstance(test, ast.Compare) and test.op == "!=":
        for a, b in ((test.left, test.right), (test.right, test.left)):
            if isinstance(b, ast.NameRef) and b.text == "none" and _key(a):
                return {_key(a)}
    return set()


def counter_default(typ: str) -> str:
    """The Python literal a counter or mark of this type starts from (and returns to when reset)."""
    if opt(typ):
        return "None"
    return {"int": "0", "bool": "False", "text": "''"}.get(typ, "[]" if is_list(typ) else "None")
