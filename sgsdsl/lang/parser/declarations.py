"""Builders of the top-level declarations: packages, enums, events, windows, flows, quantities, counters, marks, piles, hints, cards and heroes."""

from __future__ import annotations

from lark import Token, v_args

from .. import ast
from .base import _tok_span


class Declarations:
    """Builders (mixed into the parser's Transformer): Top-level declarations, cards and heroes."""

    @v_args(meta=True)
    def start(self, meta, items):
        out = []
        for d in items:  # a skill's own events and flows come first, as if declared just before it
            out.extend(getattr(d, "decls", ()) if isinstance(d, ast.SkillDecl) else ())
            out.append(d)
        return out

    @v_args(meta=True)
    def package_decl(self, meta, c):
        return ast.Package(name=self.nm(c[0]), title=self.s(c[1]) if c[1] else None, variant=c[2] is not None,
                           span=self.sp(meta))

    @v_args(meta=True)
    def use_decl(self, meta, c):
        return ast.Use(names=tuple(self.nm(t) for t in c), span=self.sp(meta))

    @v_args(meta=True)
    def import_decl(self, meta, c):
        return ast.Import(path=self.s(c[0]), span=self.sp(meta))

    @v_args(meta=True)
    def enum_decl(self, meta, c):
        title = self.s(c[1]) if c[1] is not None else None
        return ast.EnumDecl(name=self.nm(c[0]), title=title, items=tuple(c[2:]), span=self.sp(meta))

    @v_args(meta=True)
    def enum_item(self, meta, c):
        name = self.nm(c[0])
        ident = self.nm(c[1]) if c[1] is not None else name
        return ast.EnumItem(name=name, id=ident, title=self.s(c[2]) if c[2] else None, span=self.sp(meta))

    @v_args(meta=True)
    def extend_decl(self, meta, c):
        name, *fields = c
        return ast.ExtendDecl(event=self.nm(name), fields=tuple(fields), span=self.sp(meta))

    @v_args(meta=True)
    def event_decl(self, meta, c):
        name, cname, title, *fields = c
        # `event 伤害 damage "..."`: the Chinese name is the title (a description string adds to it);
        # the ascii id is the type's name.
        if cname is not None:
            full = f"{name} {self.s(title)}" if title else str(name)
            return ast.EventDecl(name=self.nm(cname), title=full, fields=tuple(fields), span=self.sp(meta))
        return ast.EventDecl(name=self.nm(name), title=self.s(title) if title else None,
                             fields=tuple(fields), span=self.sp(meta))

    @v_args(meta=True)
    def field(self, meta, c):
        return ast.Field(name=self.nm(c[0]), type=c[1], default=c[2], doc=self.s(c[3]) if c[3] else None,
                         span=self.sp(meta))

    @v_args(meta=True)
    def neg_literal(self, meta, c):
        return ast.IntLit(value=self.num(c[0], "a field's default", -int(c[0])), span=self.sp(meta))

    @v_args(meta=True)
    def literal(self, meta, c):
        span = self.sp(meta)
        t = c[0]
        if t.type == "INT":
            return ast.IntLit(value=self.num(t, "a field's default"), span=span)
        if t.type == "STRING":
            return ast.StrLit(value=self.s(t), span=span)
        return ast.NameRef(text=str(t), span=span)

    @v_args(meta=True)
    def type(self, meta, c):
        return ast.TypeRef(name=self.nm(c[0]), elem=self.nm(c[1]) if c[1] else None,
                           optional=c[2] is not None, span=self.sp(meta))

    @v_args(meta=True)
    def window_decl(self, meta, c):
        return ast.WindowDecl(name=self.nm(c[0]), id=self.nm(c[1]), event=self.nm(c[2]),
                              subject=self.nm(c[3]) if c[3] else None, dead=c[4] is not None,
                              doc=self.s(c[5]) if c[5] else None, span=self.sp(meta))

    @v_args(meta=True)
    def flow_decl(self, meta, c):
        return ast.FlowDecl(name=self.nm(c[0]), id=self.nm(c[1]), event=self.nm(c[2]),
                            result=self.nm(c[3]) if c[3] else None, doc=self.s(c[4]) if c[4] else None,
                            body=c[5], span=self.sp(meta))

    @v_args(meta=True)
    def quantity_decl(self, meta, c):
        name, ident, *rest = c
        params = [x for x in rest if isinstance(x, ast.Param)]
        tail = [x for x in rest if not isinstance(x, ast.Param)]
        typ, base, floor, doc = tail
        return ast.QuantityDecl(name=self.nm(name), id=self.nm(ident), params=tuple(params), type=typ,
                                base=base, floor=floor, doc=self.s(doc) if doc else None, span=self.sp(meta))

    @v_args(meta=True)
    def param(self, meta, c):
        return ast.Param(name=self.nm(c[0]), type=c[1])

    @v_args(meta=True)
    def counter_decl(self, meta, c):
        name = self.nm(c[0])
        return ast.CounterDecl(name=name, id=self.nm(c[1]) if c[1] else name, type=c[2], scope=c[3],
                               span=self.sp(meta))

    @v_args(meta=True)
    def mark_decl(self, meta, c):
        name = self.nm(c[0])
        return ast.MarkDecl(name=name, id=self.nm(c[1]) if c[1] else name, type=c[2], hidden=c[3] is not None,
                            doc=self.s(c[4]) if c[4] else None, span=self.sp(meta))

    @v_args(meta=True)
    def pile_decl(self, meta, c):
        name = self.nm(c[0])
        doc = c[4] if len(c) > 4 else None
        return ast.PileDecl(name=name, id=self.nm(c[1]) if c[1] else name, hidden=c[2] is not None,
                            seat=c[3] is not None, doc=self.s(doc) if doc else None, span=self.sp(meta))

    skill_pile = pile_decl

    @v_args(meta=True)
    def hint_decl(self, meta, c):
        names = [t for t in c[0] if t.type == "NAME"]
        labels = [ast.Name(text=self.s(t), span=_tok_span(self.path, t)) for t in c[0] if t.type == "STRING"]
        return ast.HintDecl(targets=tuple(self.nm(t) for t in names), intent=self.nm(c[1]),
                            value=self.num(c[2], "a hint's value") if c[2] is not None else 1, span=self.sp(meta), options=tuple(labels))

    def hint_names(self, c):
        return list(c)

    @v_args(meta=True)
    def bind_decl(self, meta, c):
        return ast.BindDecl(role=self.nm(c[0]), target=self.nm(c[1]), span=self.sp(meta))

    def scope(self, c):
        return str(c[0])

    # -- cards
    def kind_basic(self, c):
        return ("basic", None, None)

    def kind_trick(self, c):
        return ("trick", None, None)

    def kind_delayed(self, c):
        return ("delayed", None, None)

    def kind_weapon(self, c):
        return ("equipment", "weapon", self.num(c[0], "a weapon's range"))

    def kind_armor(self, c):
        return ("equipment", "armor", None)

    def kind_treasure(self, c):
        return ("equipment", "treasure", None)

    def kind_horse(self, c):
        return ("equipment", "plus_horse" if str(c[0]).startswith("+") else "minus_horse", None)

    @v_args(meta=True)
    def card_decl(self, meta, c):
        name, ident, (kind, slot, rng), parent, *items = c
        texts, facets, hooks = [], [], []
        target = limit = nature = None
        recast = False
        for it in items:
            if isinstance(it, tuple) and it[0] in ("nature", "recast"):
                nature, recast = (it[1], recast) if it[0] == "nature" else (nature, True)
            elif isinstance(it, Token):
                texts.append(self.s(it))
            elif isinstance(it, ast.TargetSpec):
                target = it
            elif isinstance(it, ast.Limit):
                limit = it
            elif isinstance(it, tuple):
                hooks.append(it)
            elif isinstance(it, list):  # (`viewas A, B from …`: a facet per card)
                facets.extend(it)
            else:
                facets.append(it)
        return ast.CardDecl(name=self.nm(name), id=self.nm(ident), kind=kind, slot=slot, range=rng,
                            texts=tuple(texts), target=target, limit=limit, hooks=tuple(hooks),
                            facets=tuple(facets), span=self.sp(meta), parent=parent, nature=nature, recast=recast)

    def card_is(self, c):
        return self.nm(c[0])

    def card_nature(self, c):
        return ("nature", self.nm(c[0]))

    def card_recast(self, c):
        return ("recast", None)

    def card_block(self, c):
        return (str(c[0]), c[1])

    def card_hook(self, c):
        return c[0]

    # -- heroes
    @v_args(meta=True)
    def hero_decl(self, meta, c):
        name, ident, *items = c
        d = {"kingdom": None, "hp_halves": None, "gender": None, "skills": (), "pairs": (), "never_lord": False}
        texts = []
        for key, val in items:
            if key == "text":
                texts.append(val)
            else:
                d[key] = val
        return ast.HeroDecl(name=self.nm(name), id=self.nm(ident), texts=tuple(texts), span=self.sp(meta), **d)

    def hero_text(self, c):
        return ("text", self.s(c[0]))

    def hero_kingdom(self, c):
        return ("kingdom", self.nm(c[0]))

    def hero_hp(self, c):
        return ("hp_halves", self._halves(c[0]))

    def hero_main_hp(self, c):
        return ("main_halves", self._halves(c[0]))

    def hero_deputy_hp(self, c):
        return ("deputy_halves", self._halves(c[0]))

    def _halves(self, tok) -> int:
        # Exact integer halves: float() overflows on a long digit string (and rounds long ones).
        text = str(tok)
        whole, half = (text[:-2], 1) if text.endswith(".5") else (text, 0)
        return self.num(tok, "a hero's hp", int(whole) * 2 + half)

    def hero_gender(self, c):
        return ("gender", self.nm(c[0]))

    def hero_skills(self, c):
        return ("skills", c[0])

    def hero_pairs(self, c):
        return ("pairs", c[0])

    def hero_never_lord(self, c):
        return ("never_lord", True)

    def hero_lord_of(self, c):
        return ("lord_of", self.nm(c[0]))

    def hero_modes(self, c):
        return ("modes", c[0])

    def name_list(self, c):
        return tuple(self.nm(t) for t in c)
