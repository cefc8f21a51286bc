"""Checking choices and calls: built-in functions, flows, quantities, their arguments."""

from __future__ import annotations

from .. import ast
from ..analysis import CallNote
from ..diagnostics import suggest
from ..surface import (
    FUNCS,
)
from .types import Env, _show, elem, is_list, opt, strip


class Calls:
    """Mixed into the Checker: choose, calls and the arguments they bind."""

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
            if e.together is not None:
                self.err("SGS208", "`together` is a condition on chosen cards or players, not options",
                         e.together.span, help="filter the options with `where`")
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
        if e.together is not None:
            if kind in ("card", "player"):
                self.err("SGS208", f"`together` is a condition on a set: write `choose … {kind}s N..M … together …`",
                         e.together.span, help=f"for one {item}, say what it needs in `where`")
            self.with_it(e.together, env, f"list[{item}]", lambda: self.want(e.together, env, "bool",
                                                                            "a condition on the chosen set"))
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
