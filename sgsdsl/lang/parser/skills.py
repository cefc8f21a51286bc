"""Builders of a skill and its facets: triggers, actives, view-as, modifiers, allows."""

from __future__ import annotations

from lark import Token, v_args

from .. import ast
from ..diagnostics import CompileError, Diagnostic


class Skills:
    """Builders (mixed into the parser's Transformer): A skill and its facets."""

    @v_args(meta=True)
    def skill_decl(self, meta, c):
        name, ident, *rest = c
        types = [x for x in rest if isinstance(x, str) and not isinstance(x, Token)]
        return self._skill_like(meta, name, ident, types, [x for x in rest if not (isinstance(x, str)
                                                                                     and not isinstance(x, Token))])

    def skill_decl_item(self, c):
        return ("decl", c[0])

    def _skill_like(self, meta, name, ident, types, items):
        texts, facets, counters, tests, shared, decls = [], [], [], [], [], []
        for it in items:
            if isinstance(it, tuple) and it[0] == "decl":
                decls.append(it[1])
            elif isinstance(it, Token):
                texts.append(self.s(it))
            elif isinstance(it, ast.RulesOf):
                shared.append(it)
            elif isinstance(it, (ast.CounterDecl, ast.PileDecl)):
                counters.append(it)
            elif isinstance(it, ast.TestDecl):
                tests.append(it)
            elif isinstance(it, list):  # (`viewas A, B from …`: a facet per card)
                facets.extend(it)
            else:
                facets.append(it)
        canon = {"锁定技": "locked", "主公技": "lord", "限定技": "limited", "觉醒技": "awaken",
                 "阵法技": "formation", "队列": "queue", "围攻": "siege"}
        return ast.SkillDecl(name=self.nm(name), id=self.nm(ident), types=tuple(canon.get(t, t) for t in types),
                             texts=tuple(texts), facets=tuple(facets), counters=tuple(counters),
                             tests=tuple(tests), span=self.sp(meta), rules_of=tuple(shared), decls=tuple(decls))

    @v_args(meta=True)
    def rules_of(self, meta, c):
        package, skill = c if c[1] is not None else (None, c[0])
        return ast.RulesOf(package=self.nm(package) if package is not None else None, skill=self.nm(skill),
                           span=self.sp(meta))

    def skill_type(self, c):
        return str(c[0])

    def by_clause(self, c):
        return ("by", c[0])

    def repeat_clause(self, c):
        return ("repeat", c[0])

    def _clauses(self, items):
        d = {"when": None, "limit": None, "cost": None, "target": None}
        for it in items:
            if isinstance(it, ast.Limit):
                d["limit"] = it
            elif isinstance(it, ast.TargetSpec):
                d["target"] = it
            else:
                d[it[0]] = it[1]
        return d

    @v_args(meta=True)
    def trigger(self, meta, c):
        names, any_, forced, *clauses = c
        do = clauses.pop()
        times = [x[1] for x in clauses if isinstance(x, tuple) and x[0] == "repeat"]
        clauses = [x for x in clauses if not (isinstance(x, tuple) and x[0] == "repeat")]
        return ast.Trigger(windows=names, any=any_ is not None, forced=forced is not None, do=do,
                           span=self.sp(meta), times=times[-1] if times else None, **self._clauses(clauses))

    @v_args(meta=True)
    def active(self, meta, c):
        *clauses, do = c
        by = [x[1] for x in clauses if isinstance(x, tuple) and x[0] == "by"]
        clauses = [x for x in clauses if not (isinstance(x, tuple) and x[0] == "by")]
        return ast.Active(do=do, span=self.sp(meta), by=by[0] if by else None, **self._clauses(clauses))

    def any(self, c):
        return True

    def forced(self, c):
        return True

    def when_clause(self, c):
        return ("when", c[0])

    @v_args(meta=True)
    def limit_clause(self, meta, c):
        return ast.Limit(count=c[0], scope=c[1], span=self.sp(meta))

    def cost_clause(self, c):
        return ("cost", c[0])

    def target_clause(self, c):
        return c[0]

    def do_clause(self, c):
        return c[0]

    @v_args(meta=True)
    def target_self(self, meta, c):
        return ast.TargetSpec(kind="self", lo=None, hi=None, where=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def target_all(self, meta, c):
        return ast.TargetSpec(kind="all", lo=None, hi=None, where=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def target_some(self, meta, c):
        lo, hi = c[0]
        return ast.TargetSpec(kind="some", lo=lo, hi=hi, where=c[1], span=self.sp(meta))

    def count(self, c):
        return (c[0], c[2] if len(c) > 2 and c[2] is not None else c[0])

    ccount = count

    @v_args(meta=True)
    def viewas(self, meta, c):
        """A list: one facet per card named (each with the clauses, as if written on lines of their own)."""
        names, n, source, _kw, where, together, by, when, vlimit, mode = c
        cards = [self.nm(t) for t in names.children]  # (`vnames` stays a tree: the facet's position is its)
        seen = set()
        for card in cards:  # the same card twice would be two identical offers (rule 9: never silently)
            if card.text in seen:
                raise CompileError([Diagnostic("SGS001", f"'{card.text}' is named twice in this list", card.span,
                                               help=f"name each card once: `{card.text}` already converts here")])
            seen.add(card.text)
        limit, each = vlimit if vlimit is not None else (None, False)
        return [ast.ViewAs(card=card, count=n, hand_only=source is True, where=where, when=when,
                           mode=str(mode) if mode else None, span=self.sp(meta), together=together,
                           pile=source if isinstance(source, ast.Name) else None,
                           by=ast.By(pred=by[1], span=by[1].span) if by is not None else None,
                           limit=limit, each=each) for card in cards]

    @v_args(meta=True)
    def card_viewas(self, meta, c):
        *head, when, mode = c
        return self.viewas(meta, [*head, None, when, None, mode])

    def vlimit(self, c):
        return (c[0], c[1] is not None)

    def each(self, c):
        return True

    def vcount(self, c):
        return self.num(c[0], "a view-as card count")

    def vcount_all(self, c):
        return ast.ALL_CARDS

    @v_args(meta=True)
    def card_filter(self, meta, c):
        what, value, where = c
        return ast.CardFilter(what=self.nm(what), value=value, where=where, span=self.sp(meta))

    def vsource_hand(self, c):
        return True

    def vsource_pile(self, c):
        return self.nm(c[0])

    def cards_kw(self, c):
        return str(c[0])

    def use_mode(self, c):
        return str(c[0])

    @v_args(meta=True)
    def modify(self, meta, c):
        q, *rest = c
        args = [x for x in rest if isinstance(x, ast.Name)]
        op, final, value, when = rest[len(args):]
        if final is not None:
            op += " final"  # (only `= final` is meaningful: the type checker says so of the others)
        return ast.Modify(quantity=self.nm(q), args=tuple(args), op=op, value=value, when=when, span=self.sp(meta))

    @v_args(meta=True)
    def grant(self, meta, c):
        *names, when = c
        return ast.Grant(skills=tuple(self.nm(n) for n in names), when=when, span=self.sp(meta))

    def marg(self, c):
        return self.nm(c[0])

    def aop(self, c):
        return str(c[0])

    @v_args(meta=True)
    def allow(self, meta, c):
        return ast.Allow(code=self.nm(c[0]), reason=self.s(c[1]), span=self.sp(meta))
