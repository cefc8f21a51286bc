"""Checked syntax trees -> one readable Python module per rules package.

Function bodies are emitted here from the type checker's annotations; the
module around them comes from templates/module.py.j2. Only validated ids
(`[a-z][a-z0-9_]*`), mangled locals and `repr` literals reach the output, so
no rules text can become code.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import jinja2

from . import ast
from .analysis import AttrNote, CallNote, Ref
from .intent import analyze, choices_of, facet_intents
from .model import Model
from .rulesof import own_allows, taken_from
from .surface import SUIT_IDS
from .typecheck import counter_default, elem, package_scope, strip, view_seat

TEMPLATES = Path(__file__).with_name("templates")
SAFE_ID = re.compile(r"[a-z][a-z0-9_]*\Z")


def _safe(ident: str) -> str:
    if not SAFE_ID.match(ident):  # the resolver rejects these; never trust it twice
        raise ValueError(f"unsafe identifier {ident!r}")
    return ident


def _within(span, outer) -> bool:
    return (outer.line, outer.col) <= (span.line, span.col) <= (outer.end_line, outer.end_col)


def _comment(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


class FunctionWriter:
    """Emits one Python function from statements/expressions of the rules."""

    def __init__(self, model: Model, name: str, params: str, doc: str, loc: str):
        self.m = model
        self.name = name
        self.lines: list[str] = [f"def {name}({params}):", f"    # {_comment(doc)} — {_comment(loc)}"]
        self.file = loc.rpartition(":")[0]  # for the locations of loops, which the runaway guard names
        self.depth = 1
        self.in_flow = False
        self.in_phase = False  # inside a flow's phase function: `stop` must end the flow, not just the phase
        self.phase_fns: dict = {}  # PhaseStmt -> name of the local function that runs it
        self.later_no = 0
        self.opens: list[str] = []

    def at(self, s: ast.Stmt) -> str:
        return f"{self.file}:{s.span.line}"

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
        return f"g.choose_{item}s({who}, {src}, {lo}, {hi}, {prompt})"

    # -- statements
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def block(self, b: ast.Block | None) -> None:
        if b is None or not b.stmts:
            self.emit("pass")
            return
        for s in b.stmts:
            self.stmt(s)

    def body(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.Stmt) -> None:  # noqa: C901
        n = self.m.analysis.refs
        match s:
            case ast.Let():
                py = n[s].py
                self.emit(f"{py} = {self.ex(s.value)}")
            case ast.Assign():
                self.assign(s)
            case ast.ExprStmt():
                self.emit(self.ex(s.expr))
            case ast.If():
                self.emit(f"if {self.ex(s.test)}:")
                self.nested(s.then)
                other = s.other
                while other is not None:
                    if len(other.stmts) == 1 and isinstance(other.stmts[0], ast.If):
                        inner = other.stmts[0]
                        self.emit(f"elif {self.ex(inner.test)}:")
                        self.nested(inner.then)
                        other = inner.other
                    else:
                        self.emit("else:")
                        self.nested(other)
                        other = None
            case ast.For():
                it = self.ex(s.iter)
                # iterate over a copy: the body may move the cards or kill the players it walks
                it = it if it.startswith(("list(", "[")) else f"list({it})"
                self.emit(f"for {n[s].py} in {it}:")
                self.nested(s.body)
            case ast.While():
                self.emit(f"while g.loop_guard({self.at(s)!r}) and {self.ex(s.test)}:")
                self.nested(s.body)
            case ast.Repeat():
                self.emit(f"for _ in g.rounds({self.ex(s.count)}, {self.at(s)!r}):")
                self.nested(s.body)
            case ast.Open():
                wid = _safe(n[s].py)
                self.opens.append(wid)
                # A window nothing listens to (g.watched: the windows with triggers, every window when the log
                # traces them) is not opened: its event is a variable, so there is nothing to evaluate either.
                event = self.ex(s.event) if s.event is not None else "ev"
                if s.event is None and self.in_flow:
                    self.emit(f"if (g.open({wid!r}, ev) if {wid!r} in g.watched else ev.cancelled):")
                    self.depth += 1
                    self.emit(self.stop())
                    self.depth -= 1
                elif event.isidentifier():
                    self.emit(f"if {wid!r} in g.watched:")
                    self.depth += 1
                    self.emit(f"g.open({wid!r}, {event})")
                    self.depth -= 1
                else:
                    self.emit(f"g.open({wid!r}, {event})")
            case ast.PhaseStmt():
                body = self.phase_fns.get(s)
                if body is not None:  # defined at the top of the flow, so that `extra_phase` can run it again
                    self.emit(f"if g.run_phase({n[s].py}, {body}) is T.STOP:")
                    self.depth += 1
                    self.emit("return")
                    self.depth -= 1
                else:
                    self.emit(f"if g.begin_phase({n[s].py}):")
                    self.nested(s.body)
            case ast.Later():
                # a local function over the current locals, run once the settlement under way is complete
                self.later_no += 1
                name = f"later_{self.later_no}"
                self.emit(f"def {name}():")
                in_phase, self.in_phase = self.in_phase, False
                self.nested(s.body)
                self.in_phase = in_phase
                self.emit(f"g.later({name})")
            case ast.Log():
                parts = ", ".join(repr(p) if isinstance(p, str) else self.ex(p) for p in s.parts)
                self.emit(f"g.say({parts})")
            case ast.Stop():
                self.emit(self.stop())
            case ast.Break():
                self.emit("break")
            case ast.Continue():
                self.emit("continue")
            case _:
                raise AssertionError(f"unhandled statement {type(s).__name__}")

    def stop(self) -> str:
        return "return T.STOP" if self.in_phase else "return"

    def nested(self, b: ast.Block | None) -> None:
        self.depth += 1
        self.block(b)
        self.depth -= 1

    def assign(self, s: ast.Assign) -> None:
        n = self.m.analysis.refs
        value = self.ex(s.value)
        tgt = s.target
        tt = self.m.analysis.type_of(tgt)
        vt = self.m.analysis.type_of(s.value)
        if s.op == "+=" and tt.startswith("list[") and not vt.startswith("list["):
            value = f"[{value}]"
        if isinstance(tgt, ast.Attr) and isinstance(n[tgt], AttrNote) and n[tgt].kind == "tag":
            obj, name = self.ex(tgt.obj), _safe(n[tgt].name)
            if s.op != "=":
                value = f"T.tag({obj}, {name!r}, {self.m.analysis.tag_defaults[tgt]}) {s.op[0]} {value}"
            self.emit(f"T.set_tag({obj}, {name!r}, {value})")
            return
        if isinstance(tgt, ast.Attr) and isinstance(n[tgt], AttrNote) and n[tgt].kind == "mark":
            obj = self.ex(tgt.obj)
            mark = _safe(n[tgt].name)
            if s.op == "=":
                self.emit(f"g.set_mark({obj}, {mark!r}, {value})")
            else:
                sign = "" if s.op == "+=" else "-"
                self.emit(f"g.add_mark({obj}, {mark!r}, {sign}{value})")
            return
        self.emit(f"{self.ex(tgt)} {s.op} {value}")

    def ret(self, e: ast.Expr) -> None:
        self.emit(f"return {self.ex(e)}")

    def source(self) -> str:
        if len(self.lines) == 2:
            self.lines.append("    pass")
        return "\n".join(self.lines)


class ModuleWriter:
    """Collects the functions and table records of one package."""

    def __init__(self, model: Model, package: str, rel):
        self.m = model
        self.pkg = package
        self.rel = rel  # path -> path as shown (relative to the project)
        self.functions: list[str] = []
        self.events: list[dict] = []
        self.tables: dict[str, list[str]] = {k: [] for k in (
            "enums", "events", "windows", "flows", "quantities", "counters", "binds", "cards", "heroes", "skills",
            "decks", "modes", "rules", "tests", "hints", "option_hints")}
        self.triggers: dict[str, list[str]] = {}
        self.test_no: dict[str, int] = {}  # per skill (or per file for top-level tests)

    def loc(self, span) -> str:
        return f"{self.rel(span.file)}:{span.line}"

    def fn(self, name: str, params: str, doc: str, span) -> FunctionWriter:
        return FunctionWriter(self.m, name, params, doc, self.loc(span))

    def add(self, w: FunctionWriter) -> str:
        self.functions.append(w.source())
        return w.name

    def operands_fn(self, name: str, doc: str, e: ast.Expr, whole: str) -> str | None:
        """For a failed `expect`: a function giving each operand's text and a thunk of its value (each read on
        its own, so that one that raises does not hide the others), as pytest shows an assertion's parts."""
        parts = []
        for x in _operands(e):
            src = _source_text(self.m, x)
            constant = isinstance(x, (ast.IntLit, ast.StrLit, ast.SuitLit, ast.CardLit)) or (
                isinstance(x, ast.NameRef) and (x.text in self.m.values or x.text in ("none", "true", "false")))
            if src and src != whole and src not in (p for p, _ in parts) and not constant:
                parts.append((src, x))
        if not parts:
            return None
        w = self.fn(name, "g", doc, e.span)
        w.emit("return (" + "".join(f"({src!r}, lambda: {w.ex(x)}), " for src, x in parts) + ")")
        return self.add(w)

    def expr_fn(self, name: str, params: str, doc: str, e: ast.Expr) -> str:
        w = self.fn(name, params, doc, e.span)
        w.ret(e)
        return self.add(w)

    # -- declarations
    def build(self) -> None:
        for d in self.m.packages[self.pkg].decls:
            self.decl(d)
        outer = self.m.scope
        for t in self.m.tests:
            if self.m.package_of(t) == self.pkg:
                self.m.scope = self.m.test_scope(t)
                try:
                    self.test(t)
                finally:
                    self.m.scope = outer

    def decl(self, d) -> None:  # noqa: C901
        L = self.loc(d.span)
        match d:
            case ast.EnumDecl():
                items = tuple((i.id.text, i.name.text, i.title) for i in d.items)
                self.tables["enums"].append(
                    f"T.EnumDef(id={d.name.text!r}, title={d.title!r}, items={items!r}, loc={L!r})")
            case ast.EventDecl():
                self.event(d)
            case ast.WindowDecl():
                subject = d.subject.text if d.subject else None
                self.tables["windows"].append(
                    f"T.WindowDef(id={_safe(d.id.text)!r}, name={d.name.text!r}, event={_safe(d.event.text)!r}, "
                    f"subject={subject!r}, doc={d.doc!r}, loc={L!r}" + (", dead=True)" if d.dead else ")"))
            case ast.FlowDecl():
                w = self.fn(f"flow_{_safe(d.id.text)}", "g, ev", f"flow {d.name.text}", d.span)
                w.in_flow = True
                for s in d.body.stmts:  # each phase of the flow becomes a local function (see run_phase)
                    if isinstance(s, ast.PhaseStmt):
                        name = f"phase_{_safe(self.m.analysis.refs[s].py.strip(chr(39)))}"
                        w.emit(f"def {name}():")
                        w.in_phase = True
                        w.nested(s.body)
                        w.in_phase = False
                        w.phase_fns[s] = name
                if w.phase_fns:  # known from the turn's start: an extra phase may come before its own (当先)
                    pairs = ", ".join(f"{self.m.analysis.refs[s].py}: {fn}" for s, fn in w.phase_fns.items())
                    w.emit(f"g.phase_bodies.update({{{pairs}}})")
                w.block(d.body)
                fn = self.add(w)
                result = d.result.text if d.result else None
                opens = tuple(dict.fromkeys(w.opens))
                self.tables["flows"].append(
                    f"T.FlowDef(id={d.id.text!r}, name={d.name.text!r}, event={d.event.text!r}, result={result!r}, "
                    f"fn={fn}, opens={opens!r}, doc={d.doc!r}, loc={L!r})")
            case ast.QuantityDecl():
                qid = _safe(d.id.text)
                params = ", ".join(f"a_{p.name.text}" for p in d.params)
                base = self.expr_fn(f"q_{qid}", f"g, {params}", f"quantity {d.name.text}", d.base)
                floor = self.expr_fn(f"qf_{qid}", f"g, {params}", f"floor of {d.name.text}", d.floor) \
                    if d.floor is not None else None
                names = tuple(p.name.text for p in d.params)
                const = _literal(d.base) if isinstance(d.base, (ast.IntLit, ast.NameRef)) else None
                const = f", const={const!r}" if isinstance(const, (bool, int)) else ""  # the engine need not call it
                self.tables["quantities"].append(
                    f"T.QuantityDef(id={qid!r}, name={d.name.text!r}, params={names!r}, type={d.type.name.text!r}, "
                    f"base={base}, floor={floor}, doc={d.doc!r}, loc={L!r}{const})")
            case ast.CounterDecl() | ast.MarkDecl() | ast.PileDecl():
                self.counter(d)
            case ast.BindDecl():
                value = self.m.role_value(d.role.text)  # a value role binds the enum value's id
                target = self.m.role_target(d.role.text)
                tid = getattr(target, "id", None) or getattr(target, "name", None)
                self.tables["binds"].append(repr((d.role.text, value or (tid.text if tid else d.target.text))))
            case ast.CardDecl():
                self.card(d)
            case ast.HeroDecl():
                skills = tuple(self.m.skills[s.text].id.text for s in d.skills if s.text in self.m.skills)
                pairs = tuple(self.m.heroes[p.text].id.text for p in d.pairs if p.text in self.m.heroes)
                kingdom = self.m.values[d.kingdom.text].decl.id.text
                gender = self.m.values[d.gender.text].decl.id.text
                self.tables["heroes"].append(
                    f"T.HeroDef(id={d.id.text!r}, name={d.name.text!r}, kingdom={kingdom!r}, "
                    f"hp_halves={d.hp_halves!r}, gender={gender!r}, skills={skills!r}, pairs={pairs!r}, "
                    f"never_lord={d.never_lord!r}, text={' '.join(d.texts)!r}, loc={L!r}"
                    + (f", modes={tuple(self.m.modes[n.text].id.text for n in d.modes)!r}" if d.modes else "")
                    + (f", main_halves={d.main_halves!r}" if d.main_halves is not None else "")
                    + (f", deputy_halves={d.deputy_halves!r}" if d.deputy_halves is not None else "") + ")")
            case ast.SkillDecl() if d.rules_of:
                self.tables["skills"].append(self.shared_skill(d))
            case ast.SkillDecl():
                self.tables["skills"].append(self.skill(d, owner=True))
                for c in d.counters:
                    self.counter(c)
            case ast.DeckDecl():
                entries = tuple((SUIT_IDS[e.suit], e.rank, self.m.cards[e.card.text].id.text) for e in d.entries)
                signs = tuple((i, e.sign.text) for i, e in enumerate(d.entries) if e.sign is not None)
                self.tables["decks"].append(
                    f"T.DeckDef(id={d.id.text!r}, name={d.name.text!r}, title={d.title!r}, entries={entries!r}, "
                    f"loc={L!r}" + (f", modes={tuple(self.m.modes[n.text].id.text for n in d.modes)!r}"
                                    if d.modes else "") + (f", signs={signs!r}" if signs else "") + ")")
            case ast.ModeDecl():
                self.mode(d)
            case ast.RuleDecl():
                for c in d.rule.counters:
                    self.counter(c)
                self.tables["rules"].append(self.skill(d.rule, owner=False, prefix=f"r_{_safe(d.rule.id.text)}"))
            case ast.HintDecl():
                for n in d.targets:
                    sym = self.m.values[n.text]
                    self.tables["hints"].append(repr((sym.decl.id.text, d.intent.text, d.value)))
                for n in d.options:
                    self.tables["option_hints"].append(repr((n.text, d.intent.text, d.value)))

    def counter(self, d) -> None:
        scope = d.scope if isinstance(d, ast.CounterDecl) else None
        kind = {ast.CounterDecl: "counter", ast.MarkDecl: "mark", ast.PileDecl: "pile"}[type(d)]
        extra = f", kind={kind!r}" if kind != "counter" else ""
        if isinstance(d, ast.PileDecl) and d.hidden:
            extra += ", hidden=True"
        if isinstance(d, ast.PileDecl) and d.seat:
            extra += ", seat=True"
        self.tables["counters"].append(
            f"T.CounterDef(id={_safe(d.id.text)!r}, name={d.name.text!r}, scope={scope!r}, loc={self.loc(d.span)!r}"
            f"{extra})")

    def event(self, d: ast.EventDecl) -> None:
        fields = []
        for f in d.fields:
            typ = self.m.analysis.types[f.type]
            if f.default is not None:
                if isinstance(f.default, ast.NameRef):
                    default = self.m.analysis.refs.get(f.default, Ref("None")).py
                else:
                    default = repr(f.default.value)
                fresh = None
            elif typ.startswith("list[") and not typ.endswith("?"):
                default, fresh = "None", "[]"
            elif typ == "int":
                default, fresh = "0", None
            elif typ == "bool":
                default, fresh = "False", None
            elif typ == "text":
                default, fresh = "''", None
            else:
                default, fresh = "None", None
            fields.append({"name": _safe(f.name.text), "default": default, "fresh": fresh, "type": typ, "doc": f.doc})
        cls = f"Ev_{_safe(d.name.text)}"
        self.events.append({"cls": cls, "id": d.name.text, "title": d.title, "fields": fields})
        ftuple = tuple((f["name"], f["type"], f["doc"]) for f in fields)
        self.tables["events"].append(
            f"T.EventDef(id={d.name.text!r}, title={d.title!r}, cls={cls}, fields={ftuple!r}, "
            f"loc={self.loc(d.span)!r})")

    def facet_intent(self, f) -> str:
        """`, intent=(owner, targets)`: what a trigger or an active skill does to its owner and to its targets."""
        v = facet_intents(self.m).get(id(f))
        return f", intent={v!r}" if v is not None and v != (None, None) else ""

    def limit(self, lim: ast.Limit | None, name: str, params: str, doc: str, types=()) -> str:
        if lim is None:
            # 限定技 and 觉醒技 can be used once per game unless their rules say otherwise
            return "T.LimitDef(count=T.once, scope='game')" if {"limited", "awaken"} & set(types) else "None"
        fn = self.expr_fn(name, params, doc, lim.count)
        return f"T.LimitDef(count={fn}, scope={lim.scope!r})"

    def card_limit(self, lim: ast.Limit | None, prefix: str, doc: str) -> str:
        """A card's use limit; one that reads `it` (the target) is counted for each candidate target."""
        if lim is None:
            return "None"
        from .tree import walk  # (the check package imports the compiler, hence here)

        it = self.m.analysis.refs[lim].py
        reads_it = any(isinstance(n, ast.NameRef) and self.m.analysis.refs.get(n) == Ref(it) for n in walk(lim.count))
        fn = self.expr_fn(f"{prefix}_limit", f"g, me, card, {it}" if reads_it else "g, me, card", f"{doc}: limit",
                          lim.count)
        return f"T.LimitDef(count={fn}, scope={lim.scope!r}" + (", per_target=True)" if reads_it else ")")

    def target(self, t: ast.TargetSpec | None, prefix: str, params: str, doc: str) -> str:
        if t is None:
            return "None"
        count = where = "None"
        if t.kind == "some":
            w = self.fn(f"{prefix}_count", params, f"{doc} target count", t.span)
            if t.hi is t.lo:
                w.emit(f"n = {w.ex(t.lo)}")
                w.emit("return (n, n)")
            else:
                w.emit(f"return ({w.ex(t.lo)}, {w.ex(t.hi)})")
            count = self.add(w)
        if t.where is not None:
            it = self.m.analysis.refs[t].py
            where = self.expr_fn(f"{prefix}_where", f"{params}, {it}", f"{doc} legal target", t.where)
        return f"T.TargetDef(kind={t.kind!r}, count={count}, where={where})"

    def skill(self, d: ast.SkillDecl, owner: bool, prefix: str | None = None) -> str:
        sid = _safe(d.id.text)
        prefix = prefix or f"sk_{sid}"
        triggers, actives, viewas, mods, allows, filters = [], [], [], [], [], []
        for i, f in enumerate(d.facets):
            L = self.loc(f.span)
            match f:
                case ast.Trigger():
                    wids = tuple(self.m.windows[w.text].id.text for w in f.windows if w.text in self.m.windows)
                    for wid in wids:
                        self.triggers.setdefault(wid, []).append(sid)
                    names = "、".join(w.text for w in f.windows)
                    doc = f"{d.name.text} on {names}"
                    when = self.expr_fn(f"{prefix}_on{i}_when", "g, me, ev", f"{doc}: when", f.when) \
                        if f.when is not None else "None"
                    run = self.run_fn(f"{prefix}_on{i}", "g, me, ev", doc, f, prompt=f"【{d.name.text}】选择目标角色")
                    limit = self.limit(f.limit, f"{prefix}_on{i}_limit", "g, me", f"{doc}: limit", d.types)
                    forced = f.forced or bool({"locked", "awaken"} & set(d.types))
                    triggers.append(
                        f"T.TriggerDef(skill={sid!r}, index={i}, windows={wids!r}, any={f.any!r}, "
                        f"forced={forced!r}, when={when}, limit={limit}, run={run}, "
                        f"loc={L!r}{self.facet_intent(f)})")
                case ast.Active():
                    doc = f"{d.name.text} active"
                    params = "g, me, user"
                    when = self.expr_fn(f"{prefix}_active{i}_when", params, f"{doc}: when", f.when) \
                        if f.when is not None else "None"
                    target = self.target(f.target, f"{prefix}_active{i}", params, doc)
                    run = self.run_fn(f"{prefix}_active{i}", params, doc, f, event=False, chooser="user",
                                      prompt=f"【{d.name.text}】选择目标角色")
                    limit = self.limit(f.limit, f"{prefix}_active{i}_limit", params, f"{doc}: limit", d.types)
                    by = "None"
                    if f.by is not None:
                        it = self.m.analysis.refs[f].py
                        by = self.expr_fn(f"{prefix}_active{i}_by", f"g, me, {it}", f"{doc}: by", f.by)
                    actives.append(
                        f"T.ActiveDef(skill={sid!r}, index={i}, when={when}, limit={limit}, target={target}, "
                        f"run={run}, loc={L!r}{self.facet_intent(f)}" + (f", by={by})" if f.by is not None else ")"))
                case ast.ViewAs():
                    doc = f"{d.name.text} viewas {f.card.text}"
                    where = "None"
                    if f.where is not None:
                        it = self.m.analysis.refs[f].py
                        where = self.expr_fn(f"{prefix}_viewas{i}_where", f"g, me, {it}", doc, f.where)
                    when = self.expr_fn(f"{prefix}_viewas{i}_when", "g, me", f"{doc}: when", f.when) \
                        if f.when is not None else "None"
                    card = self.m.cards[f.card.text].id.text
                    together = ""
                    if f.pile is not None:
                        together += f", pile={self.m.counters[f.pile.text].id.text!r}"
                    if f.together is not None:
                        it = self.m.analysis.refs[f.together].py
                        fn = self.expr_fn(f"{prefix}_viewas{i}_together", f"g, me, {it}", f"{doc}: together",
                                          f.together)
                        together += f", together={fn}"
                    viewas.append(
                        f"T.ViewAsDef(skill={sid!r}, index={i}, card={card!r}, count={f.count}, "
                        f"hand_only={f.hand_only!r}, where={where}, when={when}, mode={f.mode!r}, loc={L!r}"
                        f"{together})")
                case ast.CardFilter():
                    it = self.m.analysis.refs[f].py
                    doc = f"{d.name.text} filter {f.what.text}"
                    value = self.expr_fn(f"{prefix}_filter{i}", f"g, me, {it}", doc, f.value)
                    where = self.expr_fn(f"{prefix}_filter{i}_where", f"g, me, {it}", f"{doc}: where", f.where)
                    filters.append(f"T.FilterDef(skill={sid!r}, index={i}, what={f.what.text!r}, value={value}, "
                                   f"where={where}, loc={L!r})")
                case ast.Modify():
                    q = self.m.quantities[f.quantity.text]
                    pattern = tuple("self" if a.text == "self" else "_" if a.text == "_" else a.text for a in f.args)
                    pattern += ("_",) * (len(q.params) - len(pattern))  # parameters left out match anything
                    params = ", ".join(f"a_{a}" if a not in ("self", "_") else f"_{j}" for j, a in enumerate(pattern))
                    doc = f"{d.name.text} modifies {q.name.text}"
                    value = self.expr_fn(f"{prefix}_mod{i}", f"g, me, {params}", doc, f.value)
                    when = self.expr_fn(f"{prefix}_mod{i}_when", f"g, me, {params}", f"{doc}: when", f.when) \
                        if f.when is not None else "None"
                    mods.append(
                        f"T.ModifierDef(skill={sid!r}, quantity={q.id.text!r}, pattern={pattern!r}, op={f.op!r}, "
                        f"value={value}, when={when}, loc={L!r})")
                case ast.Allow():
                    allows.append((f.code.text, f.reason))
        def tup(xs):
            return "(" + "".join(f"\n        {x}," for x in xs) + "\n    )" if xs else "()"
        choices = self.choice_rows(choices_of(self.m, d))
        return (f"T.SkillDef(\n    id={sid!r}, name={d.name.text!r}, types={tuple(d.types)!r},\n"
                f"    text={' '.join(d.texts)!r},\n    triggers={tup(triggers)},\n    actives={tup(actives)},\n"
                f"    viewas={tup(viewas)},\n    modifiers={tup(mods)},\n    allows={tuple(allows)!r},\n"
                f"    loc={self.loc(d.span)!r},\n" + (f"    filters={tup(filters)},\n" if filters else "")
                + (f"    choices={tup(choices)},\n" if choices else "") + ")")

    def choice_rows(self, cs) -> list[str]:
        """SkillDef.choices: each choice with what the analysis derived it to mean (repr literals only)."""
        rows = []
        for c in cs:
            sense = tuple((t, round(s, 3), round(o, 3)) for t, s, o in c.options) if c.kind == "option" else c.sense
            rows.append(repr((self.loc(c.span), c.kind, c.prompt, sense, tuple(c.why))))
        return rows

    def shared_skill(self, d: ast.SkillDecl) -> str:
        """A skill that plays by another's rules (`rules of`): its own id, name, text and place, and which skill's
        rows to run. Their functions are emitted once, by the package that writes them: the engine takes the rows
        from that package's table when it merges the tables. The windows its triggers listen at are this table's."""
        sid = _safe(d.id.text)
        package, taken = taken_from(self.m, d)
        for f in d.facets:
            if isinstance(f, ast.Trigger):
                for w in f.windows:
                    if w.text in self.m.windows:
                        self.triggers.setdefault(self.m.windows[w.text].id.text, []).append(sid)
        allows = tuple((f.code.text, f.reason) for f in own_allows(d))
        return (f"T.SkillDef(\n    id={sid!r}, name={d.name.text!r}, types={tuple(d.types)!r},\n"
                f"    text={' '.join(d.texts)!r},\n    rules_of={(package, _safe(taken.id.text))!r},\n"
                + (f"    allows={allows!r},\n" if allows else "") + f"    loc={self.loc(d.span)!r},\n)")

    def run_fn(self, name: str, params: str, doc: str, f, event: bool = True, chooser: str = "me",
               prompt: str = "选择目标角色") -> str:
        """`prompt`: what a person choosing the facet's targets is asked (the skill's Chinese name, never `doc`)."""
        w = self.fn(name, params, doc, f.span)
        if f.cost is not None:
            w.body(f.cost.stmts)
        if f.target is not None:
            t = f.target
            if t.kind == "self":
                w.emit(f"targets = [{chooser}]")
            else:
                src = "g.alive_from_current()"
                if t.where is not None:
                    it = self.m.analysis.refs[t].py
                    src = f"[{it} for {it} in {src} if {w.ex(t.where)}]"
                if t.kind == "all":
                    w.emit(f"targets = {src}")
                else:
                    hi = "None" if t.hi is t.lo else w.ex(t.hi)
                    w.emit(f"targets = g.choose_players({chooser}, {src}, {w.ex(t.lo)}, {hi}, {prompt!r}"
                           f"{w.intent_arg(t)})")
        w.block(f.do)
        return self.add(w)

    def card(self, d: ast.CardDecl) -> None:
        cid = _safe(d.id.text)
        prefix = f"c_{cid}"
        doc = f"card {d.name.text}"
        target = self.target(d.target, prefix, "g, me, card", doc)
        limit = self.card_limit(d.limit, prefix, doc)
        hooks = {"effect": "None", "before": "None", "after": "None"}
        for hook, block in d.hooks:
            w = self.fn(f"{prefix}_{hook}", "g, me, ev, card", f"{doc} {hook}", block.span)
            w.block(block)
            hooks[hook] = self.add(w)
        skill = "None"
        if d.facets:
            fake = ast.SkillDecl(name=d.name, id=d.id, types=(), texts=d.texts, facets=d.facets, counters=(),
                                 tests=(), span=d.span)
            skill = self.skill(fake, owner=True, prefix=f"{prefix}_skill").replace("\n", "\n    ")
        extra = ""
        if d.parent is not None:
            extra += f"    parent={self.m.cards[d.parent.text].id.text!r},\n"
        if d.nature is not None:
            extra += f"    nature={self.m.values[d.nature.text].decl.id.text!r},\n"
        if d.recast:
            extra += "    recast=True,\n"
        sense = facet_intents(self.m).get(id(d), (None, None))[1]
        if sense is not None:
            extra += f"    intent={sense!r},\n"
        hooks_choices = [c for c in choices_of(self.m, d) if any(_within(c.span, b.span) for _, b in d.hooks)]
        rows = self.choice_rows(hooks_choices)
        if rows:
            extra += "    choices=(" + "".join(f"\n        {r}," for r in rows) + "\n    ),\n"
        self.tables["cards"].append(
            f"T.CardDef(\n    id={cid!r}, name={d.name.text!r}, kind={d.kind!r}, slot={d.slot!r}, "
            f"range={d.range or 0},\n    text={' '.join(d.texts)!r},\n    target={target}, limit={limit},\n"
            f"    effect={hooks['effect']}, before={hooks['before']}, after={hooks['after']},\n"
            f"    skill={skill},\n    loc={self.loc(d.span)!r},\n{extra})")

    def seat_heroes(self, s: ast.Seat) -> str:
        """A 国战 seat's deputy, face-down cards, kingdom and pre-shown skills, as SeatDef arguments."""
        out = ""
        if s.deputy is not None:
            out += f", deputy={self.m.heroes[s.deputy.text].id.text!r}"
        if s.hidden:
            out += f", hidden={tuple(0 if x == 'main' else 1 for x in s.hidden)!r}"
        if s.kingdom is not None:
            out += f", kingdom={self.m.values[s.kingdom.text].decl.id.text!r}"
        if s.armed:
            out += f", armed={tuple(self.m.skills[n.text].id.text for n in s.armed)!r}"
        return out

    def mode(self, d: ast.ModeDecl) -> None:
        mid = _safe(d.id.text)
        L = self.loc(d.span)
        ident = {k: v.decl.id.text for k, v in self.m.values.items() if v.type == "identity"}
        table = tuple((row.players, tuple(tuple(ident.get(n.text, n.text) for n in v) for v in row.variants))
                      for row in d.table)
        setup = "None"
        if d.setup is not None:
            w = self.fn(f"m_{mid}_setup", "g", f"mode {d.name.text} setup", d.setup.span)
            w.block(d.setup)
            setup = self.add(w)
        victory = None
        if d.victory is not None:
            w = self.fn(f"m_{mid}_victory", "g", f"mode {d.name.text} victory", d.victory.span)
            w.block(d.victory)
            victory = self.add(w)
        wins = []
        for i, win in enumerate(d.wins):
            fn = self.expr_fn(f"m_{mid}_win{i}", "g", f"mode {d.name.text} win", win.cond)
            ids = tuple(ident.get(n.text, n.text) for n in win.identities)
            wins.append(f"T.WinDef(identities={ids!r}, cond={fn}, loc={self.loc(win.span)!r})")
        rules = [self.skill(r, owner=False, prefix=f"m_{mid}_{_safe(r.id.text)}").replace("\n", "\n    ")
                 for r in d.rules]
        for r in d.rules:  # a mode's rule declares counters as a skill does (阴阳鱼上限 … per turn)
            for c in r.counters:
                self.counter(c)
        decks = tuple(self.m.decks[n.text].id.text for n in d.decks if n.text in self.m.decks)
        lord = ident.get(d.lord.text) if d.lord else None
        players = d.players or (2, 12)
        rtuple = "(" + "".join(f"\n        {r}," for r in rules) + "\n    )" if rules else "()"
        wtuple = "(" + "".join(f"\n        {w}," for w in wins) + "\n    )" if wins else "()"
        packages = tuple(n.text for n in d.heroes if n.text in self.m.packages)
        heroes = tuple(self.m.heroes[n.text].id.text for n in d.heroes if n.text not in self.m.packages)
        kept_out = tuple(self.m.heroes[n.text].id.text for n in d.hero_except)
        variants = tuple(n.text for n in d.variants)
        pool = "".join(f"\n    {k}={v!r}," for k, v in (("heroes", heroes), ("hero_except", kept_out),
                                                          ("variants", variants), ("aliases", d.aliases)) if v)
        if victory is not None:
            pool += f"\n    victory={victory},"
        if d.options:
            opts = tuple((o.id.text, o.name.text, _literal(o.default), o.doc) for o in d.options)
            pool += f"\n    options={opts!r},"
        self.tables["modes"].append(
            f"T.ModeDef(\n    id={mid!r}, name={d.name.text!r}, title={d.title!r}, players={players!r},\n"
            f"    table={table!r},\n    decks={decks!r}, hero_packages={packages!r}, "
            f"lord={lord!r},\n    setup={setup},\n    wins={wtuple},\n    rules={rtuple},\n"
            f"    text={' '.join(d.texts)!r},\n    loc={L!r},{pool}\n)")

    def test(self, t: ast.TestDecl) -> None:
        # Named after their skill, or their file, so adding a test renames no other test's functions.
        stem = re.sub(r"[^a-z0-9_]", "_", Path(t.span.file).stem.lower()).strip("_") or "file"
        group = _safe(t.owner) if t.owner else stem
        self.test_no[group] = self.test_no.get(group, 0) + 1
        k = f"{group}_{self.test_no[group]}"
        heroes = {}
        for s in t.seats:
            h = self.m.heroes.get(s.hero.text)
            if h is not None:
                heroes[s.hero.text] = h.id.text
                for r in s.reserve + s.fallen:  # a reserve hero names its seat (it speaks for it once it enters)
                    heroes.setdefault(r.text, h.id.text)
                if s.deputy is not None:  # so does a 国战 seat's deputy hero
                    heroes.setdefault(s.deputy.text, h.id.text)

        def refs(rs):  # (suit, rank, card id), and the sign when the card bears one
            return tuple((SUIT_IDS[r.suit] if r.suit else None, r.rank,
                          self.m.cards[r.name.text].id.text if r.name.text in self.m.cards else r.name.text)
                         + ((r.sign.text,) if r.sign is not None else ())
                         for r in rs)

        ident = {k2: v.decl.id.text for k2, v in self.m.values.items() if v.type == "identity"}
        seats = []
        for s in t.seats:
            marks = tuple((self.m.counters[n.text].id.text, v) for n, v in s.marks if n.text in self.m.counters)
            piles = tuple((self.m.counters[n.text].id.text, refs(cs)) for n, cs in s.piles
                          if n.text in self.m.counters)
            seats.append(
                f"T.SeatDef(hero={heroes.get(s.hero.text, s.hero.text)!r}, hp={s.hp!r}, max_hp={s.max_hp!r}, "
                f"hand={refs(s.hand)!r}, equip={refs(s.equip)!r}, judge={refs(s.judge)!r}, "
                f"identity={ident.get(s.identity.text) if s.identity else None!r}, flipped={s.flipped!r}, "
                f"chained={s.chained!r}, marks={marks!r}" + (", dead=True" if s.dead else "")
                + (f", reserve={tuple(self.m.heroes[r.text].id.text for r in s.reserve)!r}" if s.reserve else "")
                + (f", fallen={tuple(self.m.heroes[r.text].id.text for r in s.fallen)!r}" if s.fallen else "")
                + (f", piles={piles!r}" if piles else "") + self.seat_heroes(s) + ")")
        expects = []
        for i, e in enumerate(t.expects):
            fn = self.expr_fn(f"t_{k}_expect{i}", "g", f"test {t.title}", e)
            src = _source_text(self.m, e)
            parts = self.operands_fn(f"t_{k}_expect{i}_parts", f"test {t.title}: its operands", e, src)
            expects.append(f"({fn}, {src!r}, {self.loc(e.span)!r}" + (f", {parts})" if parts else ")"))
        def subject(n):  # a skill's or card's id
            sym = self.m.values.get(n.text)
            return sym.decl.id.text if sym is not None else n.text

        views = []
        for i, (who, e) in enumerate(t.views):
            fn = self.expr_fn(f"t_{k}_view{i}", "g", f"test {t.title}: a seat's view", e)
            src = _source_text(self.m, e)
            parts = self.operands_fn(f"t_{k}_view{i}_parts", f"test {t.title}: its operands", e, src)
            views.append(f"({view_seat(t, who.text, heroes)!r}, {fn}, {src!r}, {self.loc(e.span)!r}"
                         + (f", {parts})" if parts else ")"))
        decides = tuple((heroes[who.text], tuple(_decide_item(x) for x in ds)) for who, ds in t.decides
                        if who.text in heroes)
        bound = tuple((None, subject(who), tuple(_decide_item(x) for x in ds)) for who, ds in t.decides
                      if who.text not in heroes) \
            + tuple((heroes.get(who.text, who.text), subject(sk), tuple(_decide_item(x) for x in ds))
                    for who, sk, ds in t.bound)
        requests = tuple((heroes.get(who.text) if sk is not None or who.text in heroes else None,
                          subject(sk) if sk is not None else (None if who.text in heroes else subject(who)),
                          tuple(_decision(x) for x in offer) if offer is not None else None, n, self.loc(span))
                         for who, sk, offer, n, span in t.requests)
        start = None
        if t.start is not None:
            who, ph = t.start
            phase = self.m.values[ph.text].decl.id.text if ph is not None and ph.text in self.m.values else None
            start = (heroes.get(who.text, who.text), phase)
        logs = tuple((present, texts[0] if len(texts) == 1 else texts, self.loc(span))
                     for present, texts, span in t.logs)
        asked = tuple((tuple(heroes.get(w.text, w.text) for w in names), self.loc(span)) for names, span in t.asked)
        extra = (f"    asked={asked!r},\n" if asked else "") + (f"    bound={bound!r},\n" if bound else "") \
            + (f"    requests={requests!r},\n" if requests else "") \
            + ("    views=(" + "".join(f"\n        {x}," for x in views) + "\n    ),\n" if views else "") + ("    setup=True,\n" if t.setup else "") \
            + (f"    turn_limit={t.turn_limit!r},\n" if t.turn_limit else "") \
            + (f"    variants={self.m.scope!r},\n" if self.m.scope else "")
        if t.heroes:
            pile = tuple(self.m.heroes[h.text].id.text for h in t.heroes if h.text in self.m.heroes)
            extra += f"    heroes={pile!r},\n"
        mode = self.m.modes[t.mode.text].id.text if t.mode and t.mode.text in self.m.modes else None
        if t.options and mode is not None:
            ids = {n: o.id.text for o in self.m.modes[t.mode.text].options for n in (o.id.text, o.name.text)}
            opts = tuple((ids[n.text], _literal(v)) for n, v in t.options if n.text in ids)
            extra += f"    options={opts!r},\n"
        self.tables["tests"].append(
            f"T.TestDef(\n    title={t.title!r}, owner={t.owner!r}, mode={mode!r},\n    seats=("
            + "".join(f"\n        {s}," for s in seats) + "\n    ),\n"
            f"    deck={refs(t.deck)!r}, start={start!r}, turns={t.turns!r},\n    decides={decides!r},\n"
            f"    expects=(" + "".join(f"\n        {x}," for x in expects) + "\n    ),\n"
            f"    logs={logs!r},\n{extra}    loc={self.loc(t.span)!r},\n)")


def _literal(e: ast.Expr):
    """An option's default as a Python value (an int, a text, true or false)."""
    if isinstance(e, ast.NameRef):
        return {"true": True, "false": False}.get(e.text, e.text)
    return getattr(e, "value", None)


def _decide_item(d: ast.Decision):
    """A decision of `decide`, or `bot` and the decision the heuristic bot must make."""
    return ("bot", _decision(d.items[0])) if d.kind == "bot" else _decision(d)


def _decision(d: ast.Decision):
    """A scripted answer as a tuple; one the test may leave unasked ends with "optional"."""
    if d.kind == "many":
        out = ("many", tuple(_decision(x) for x in d.items))
    elif d.kind == "text":
        out = ("text", d.text)
    else:
        out = ("name", SUIT_IDS.get(d.suit) if d.suit else None, d.rank, d.text)
    return out + ("optional",) if d.optional else out


def _operands(e: ast.Expr):
    """The parts of an `expect` worth showing when it fails: the sides of each comparison, and each item of
    an and/or/not that is no comparison."""
    match e:
        case ast.BoolOp():
            for x in e.items:
                yield from _operands(x)
        case ast.Not():
            yield from _operands(e.operand)
        case ast.Compare():
            yield e.left
            yield e.right
        case _:
            yield e


def _source_text(m: Model, e: ast.Expr) -> str:
    text = m.sources.get(e.span.file)
    if not text:
        return ""
    lines = text.splitlines()
    if e.span.line == e.span.end_line and 0 < e.span.line <= len(lines):
        return lines[e.span.line - 1][e.span.col - 1:e.span.end_col - 1]
    return lines[e.span.line - 1][e.span.col - 1:] if 0 < e.span.line <= len(lines) else ""


@functools.cache  # the template is compiled once per process
def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                             autoescape=False, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pyrepr"] = repr
    env.filters["pytuple"] = lambda xs: repr(tuple(xs))
    # Text inside the module's docstring: a path such as C:\Users\… must not read as an escape.
    env.filters["docstring"] = lambda s: _comment(s).replace("\\", "\\\\").replace('"', '\\"')
    return env


def generate(model: Model, package: str, rel) -> str:
    """The Python source of one package's module."""
    analyze(model)  # every choice's meaning, read with every package's names (before one package's overlay)
    model.current = package  # name lookups see a variant package's own declarations first
    model.scope = package_scope(model, model.packages[package])
    try:
        w = ModuleWriter(model, package, rel)
        w.build()
    finally:
        model.current, model.scope = None, ()
    pkg = model.packages[package]
    triggers = {k: tuple(dict.fromkeys(v)) for k, v in w.triggers.items()}
    return _env().get_template("module.py.j2").render(
        package=package, title=pkg.title, uses=tuple(pkg.uses), sources=[rel(f) for f in pkg.files],
        events=w.events, functions=w.functions, tables=w.tables, triggers=triggers, variant=pkg.variant,
        source_hash=source_hash(model, pkg.files, rel),
    )


def source_hash(model: Model, files, rel) -> str:
    """A digest of a package's rules text: tells whether generated/ still matches rules/."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(files, key=rel):
        h.update(rel(f).encode("utf-8") + b"\0")
        h.update((model.sources.get(f) or "").encode("utf-8") + b"\0")
    return h.hexdigest()[:16]
