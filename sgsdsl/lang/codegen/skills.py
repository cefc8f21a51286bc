"""Table rows and functions of skills: triggers, actives, view-as, modifiers, limits, targets."""

from __future__ import annotations

from .. import ast
from ..analysis import Ref
from ..intent import choices_of, facet_intents
from ..rulesof import own_allows, taken_from
from .names import _safe


class Skills:
    """Mixed into ModuleWriter: skills and their facets."""

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
        from ..tree import walk  # (the check package imports the compiler, hence here)

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
        triggers, actives, viewas, mods, allows, filters, grants = [], [], [], [], [], [], []
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
                    if f.by is not None:
                        it = self.m.analysis.refs[f.by].py
                        fn = self.expr_fn(f"{prefix}_viewas{i}_by", f"g, me, {it}", f"{doc}: by", f.by)
                        together += f", by={fn}"
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
                case ast.Grant():
                    held = tuple(self.m.skills[n.text].id.text for n in f.skills)
                    when = self.expr_fn(f"{prefix}_grant{i}_while", "g, me", f"{d.name.text} has: while", f.when)
                    grants.append(f"T.GrantDef(skill={sid!r}, skills={held!r}, when={when}, loc={L!r})")
        def tup(xs):
            return "(" + "".join(f"\n        {x}," for x in xs) + "\n    )" if xs else "()"
        choices = self.choice_rows(choices_of(self.m, d))
        return (f"T.SkillDef(\n    id={sid!r}, name={d.name.text!r}, types={tuple(d.types)!r},\n"
                f"    text={' '.join(d.texts)!r},\n    triggers={tup(triggers)},\n    actives={tup(actives)},\n"
                f"    viewas={tup(viewas)},\n    modifiers={tup(mods)},\n    allows={tuple(allows)!r},\n"
                f"    loc={self.loc(d.span)!r},\n" + (f"    filters={tup(filters)},\n" if filters else "")
                + (f"    grants={tup(grants)},\n" if grants else "")
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
