"""Expressions of the rules as Python expressions."""

from __future__ import annotations

from .. import ast
from ..analysis import AttrNote, CallNote
from ..intent import analyze
from ..surface import SUIT_IDS
from ..typecheck import counter_default, elem, strip
from .names import _safe


class Expressions:
    """Mixed into FunctionWriter: one Python expression per rules expression."""

    # -- expressions
    def ex(self, e: ast.Expr) -> str:  # noqa: C901
        n = self.m.analysis.refs
        match e:
            case ast.IntLit():
                return repr(e.value)
            case ast.StrLit():
                return repr(e.value)
            case ast.SuitLit():
                return repr(SUIT_IDS[e.value])
            case ast.CardLit():
                return n[e].py  # (suit id, rank, card id): checked by the type checker
            case ast.NameRef():
                return n[e].py
            case ast.ListLit():
                return "[" + ", ".join(self.ex(x) for x in e.items) + "]"
            case ast.Attr():
                note: AttrNote = n[e]
                obj = self.ex(e.obj)
                if note.kind == "each":
                    each = self.m.analysis.each[e]
                    return f"[{self.ex(each)} for _x in {obj}]"
                if note.kind == "mark":
                    return f"{obj}.marks.get({_safe(note.name)!r}, {self.mark_default(note.name)})"
                if note.kind == "pile":
                    return f"{obj}.pile({_safe(note.name)!r})"
                if note.kind == "tag":
                    return f"T.tag({obj}, {_safe(note.name)!r}, {self.m.analysis.tag_defaults[e]})"
                if note.kind.startswith("def:"):  # a declaration's id: read its table row
                    return f"g.rules.{_safe(note.kind[4:])}[{obj}].{_safe(note.name)}"
                return f"{obj}.{_safe(note.name)}"
            case ast.Index():
                return f"T.index({self.ex(e.obj)}, {self.ex(e.index)})"
            case ast.BinOp():
                op = "//" if e.op == "/" else e.op
                return f"({self.ex(e.left)} {op} {self.ex(e.right)})"
            case ast.Neg():
                return f"(-{self.ex(e.operand)})"
            case ast.Not():
                inner = e.operand
                if isinstance(inner, ast.Compare) and inner.op in ("in", "not in"):
                    flipped = ast.Compare(op="not in" if inner.op == "in" else "in", left=inner.left,
                                          right=inner.right, span=inner.span)
                    return self.ex(flipped)
                return f"(not {self.ex(inner)})"
            case ast.BoolOp():
                return "(" + f" {e.op} ".join(self.ex(x) for x in e.items) + ")"
            case ast.Compare():
                left, right = self.ex(e.left), self.ex(e.right)
                if "cardlit" in (self.m.analysis.types.get(e.left), self.m.analysis.types.get(e.right)):
                    neg = "not " if e.op in ("not in", "!=") else ""
                    if e.op in ("in", "not in"):
                        return f"({neg}T.holds_card({right}, {left}))"
                    spec, card = (left, right) if self.m.analysis.types.get(e.left) == "cardlit" else (right, left)
                    return f"({neg}T.card_fits({card}, {spec}))"
                if e.op == "is":
                    if strip(self.m.analysis.type_of(e.right)) == "kind":
                        return f"T.is_kind({left}, {right})"
                    return f"T.is_card({left}, {right})"
                lt = strip(self.m.analysis.type_of(e.left))
                rt = self.m.analysis.type_of(e.right)
                if e.op in ("in", "not in") and lt == "card" and strip(elem(rt)) == "cardname":
                    left = f"{left}.name"
                if e.op in ("in", "not in") and lt == "cardname" and strip(elem(rt)) == "card":
                    right = f"[c.name for c in {right}]"
                op = {"==": "==", "!=": "!="}.get(e.op, e.op)
                if e.op in ("==", "!=") and ("None" in (left, right)):
                    op = "is" if e.op == "==" else "is not"
                return f"({left} {op} {right})"
            case ast.Cond():
                return f"({self.ex(e.then)} if {self.ex(e.test)} else {self.ex(e.other)})"
            case ast.Filter():
                it = n[e].py
                return f"[{it} for {it} in {self.ex(e.source)} if {self.ex(e.pred)}]"
            case ast.Extreme():
                it = n[e].py
                pick = "T.most" if e.most else "T.least"
                return f"{pick}({self.ex(e.source)}, lambda {it}: {self.ex(e.key)})"
            case ast.Choose():
                return self.choose(e)
            case ast.Ask():
                return f"g.ask({self.ex(e.who)}, {self.prompt(e.prompt, e.parts)})"
            case ast.New():
                note: CallNote = n[e]
                kw = "".join(f", {_safe(f)}={self.ex(v)}" for f, v in note.args)
                return f"g.new_event({_safe(note.target)!r}{kw})"
            case ast.Call():
                return self.call(e)
        raise AssertionError(f"unhandled expression {type(e).__name__}")

    def mark_default(self, ident: str) -> str:
        d = self.m.counters[ident]
        if d.type is None:
            return "0"
        return counter_default(self.m.analysis.types[d.type])

    def call(self, e: ast.Call) -> str:
        note: CallNote = self.m.analysis.refs[e]
        if note.kind == "func":
            holes = {p: (self.ex(node) if node is not None else default) for p, node, default in note.args}
            return note.target.format(**holes)
        if note.kind == "run":
            return f"g.run_flow({_safe(note.target)!r}, {self.ex(note.args[0])})"
        if note.kind == "flow":
            kw = "".join(f", {_safe(f)}={self.ex(v)}" for f, v in note.args)
            return f"g.call_flow({_safe(note.target)!r}{kw})"
        args = "".join(f", {self.ex(a) if a is not None else 'None'}" for a in note.args)
        return f"g.qf[{_safe(note.target)!r}](g{args})"  # g.q(qid, …) without a call in between

    def prompt(self, text: str | None, parts) -> str:
        if not parts:
            return repr(text or "")
        # wording and values alternate, wording first ('' where two values meet): the engine shows each value as
        # the log names it and never mistakes a piece of wording for an id
        pieces: list = [""]
        for p in parts:
            if isinstance(p, str):
                if isinstance(pieces[-1], str):
                    pieces[-1] += p
                else:
                    pieces.append(p)
            else:
                if not isinstance(pieces[-1], str):
                    pieces.append("")
                pieces.append(p)
        return "g.text(" + ", ".join(repr(p) if isinstance(p, str) else self.ex(p) for p in pieces) + ")"

    def intent_arg(self, node) -> str:
        """`, intent=…` for a choice whose meaning lang/intent.py derived: the interpreter hands it to the agent."""
        c = analyze(self.m).get(id(node))
        if c is None or not (c.derived or c.kind == "target"):
            return ""
        return f", intent={c.literal()!r}"

    def choose(self, e: ast.Choose) -> str:
        return self._choose(e)[:-1] + self.intent_arg(e) + ")"

    def _choose(self, e: ast.Choose) -> str:
        who = self.ex(e.who)
        prompt = self.prompt(e.prompt, e.parts)
        if e.kind in ("option", "options"):
            src = self.ex(e.source)
            among = ""
            if e.where is not None:
                # the options the condition leaves out go with the request (a person sees them, not chosen):
                # the source is evaluated once, and filtered by the engine, in its order
                it = self.m.analysis.refs[e].py
                src, among = f"{src}, (lambda {it}: {self.ex(e.where)})", "_where"
            if e.kind == "options":
                lo = self.ex(e.lo) if e.lo is not None else "1"
                hi = self.ex(e.hi) if e.hi is not None and e.hi is not e.lo else "None"
                return f"g.choose_options{among}({who}, {src}, {lo}, {hi}, {prompt})"
            return f"g.choose_option{among}({who}, {src}, {prompt})"
        item = "card" if e.kind.startswith("card") else "player"
        if e.source is not None:
            src = self.ex(e.source)
        else:
            src = f"{who}.hand" if item == "card" else "g.alive_from_current()"
        if e.where is not None:
            it = self.m.analysis.refs[e].py
            src = f"[{it} for {it} in {src} if {self.ex(e.where)}]"
        if e.kind in ("card", "player"):
            return f"g.choose_{item}({who}, {src}, {prompt})"
        lo = self.ex(e.lo) if e.lo is not None else "1"
        hi = self.ex(e.hi) if e.hi is not None and e.hi is not e.lo else "None"  # None: as many as lo
        if e.together is not None:  # the engine offers only the sets that satisfy it
            it = self.m.analysis.refs[e.together].py
            return f"g.choose_together({who}, {src}, {lo}, {hi}, (lambda {it}: {self.ex(e.together)}), {prompt})"
        return f"g.choose_{item}s({who}, {src}, {lo}, {hi}, {prompt})"
