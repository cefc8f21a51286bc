"""The state of one package's module being written, and the pass over its declarations."""

from __future__ import annotations

from .. import ast
from ..model import Model
from ..surface import SUIT_IDS
from .names import _safe
from .scenarios import _literal, _operands, _source_text
from .writer import FunctionWriter


class ModuleBase:
    """Collects the functions and table records of one package."""

    def __init__(self, model: Model, package: str, rel):
        self.m = model
        self.pkg = package
        self.rel = rel  # path -> path as shown (relative to the project)
        self.functions: list[str] = []
        self.events: list[dict] = []
        self.tables: dict[str, list[str]] = {k: [] for k in (
            "enums", "events", "windows", "flows", "quantities", "counters", "binds", "cards", "heroes", "skills",
            "decks", "pools", "modes", "rules", "tests", "hints", "option_hints")}
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
                    + (f", deputy_halves={d.deputy_halves!r}" if d.deputy_halves is not None else "")
                    + (f", lord_of={self.m.heroes[d.lord_of.text].id.text!r}" if d.lord_of is not None else "") + ")")
            case ast.SkillDecl() if d.rules_of:
                self.tables["skills"].append(self.shared_skill(d))
            case ast.SkillDecl():
                self.tables["skills"].append(self.skill(d, owner=True))
                for c in d.counters:
                    self.counter(c)
            case ast.DeckDecl():
                entries = tuple((SUIT_IDS[e.suit], e.rank, self.m.cards[e.card.text].id.text) for e in d.entries)
                signs = tuple((i, e.sign.text) for i, e in enumerate(d.entries) if e.sign is not None)
                replaces = tuple(self.m.cards[e.replaces.text].id.text for e in d.entries if e.replaces is not None)
                self.tables["decks"].append(
                    f"T.DeckDef(id={d.id.text!r}, name={d.name.text!r}, title={d.title!r}, entries={entries!r}, "
                    f"loc={L!r}" + (f", modes={tuple(self.m.modes[n.text].id.text for n in d.modes)!r}"
                                    if d.modes else "") + (f", signs={signs!r}" if signs else "")
                    + (f", replaces={replaces!r}" if replaces else "") + ")")
            case ast.PoolDecl():
                heroes = tuple(self.m.heroes[n.text].id.text for n in d.heroes)
                self.tables["pools"].append(f"T.PoolDef(id={d.id.text!r}, name={d.name.text!r}, title={d.title!r}, "
                                            f"heroes={heroes!r}, loc={L!r})")
            case ast.ModeDecl():
                self.mode(d)
            case ast.RuleDecl():
                for c in d.rule.counters:
                    self.counter(c)
                cards = tuple(self.m.cards[n.text].id.text for n in d.cards)
                self.tables["rules"].append(self.skill(d.rule, owner=False, prefix=f"r_{_safe(d.rule.id.text)}",
                                                       for_cards=cards))
            case ast.HintDecl():
                for n in d.targets:
                    sym = self.m.values[n.text]
                    self.tables["hints"].append(repr((sym.decl.id.text, d.intent.text, d.value)))
                for n in d.options:
                    self.tables["option_hints"].append(repr((n.text, d.intent.text, d.value)))
