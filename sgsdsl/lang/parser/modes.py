"""Builders of decks, editions and modes."""

from __future__ import annotations

from lark import v_args

from .. import ast
from .base import _tok_span, parse_rank


class DecksAndModes:
    """Builders (mixed into the parser's Transformer): Decks, editions and modes."""

    @v_args(meta=True)
    def deck_decl(self, meta, c):
        name, ident, title, edition, modes, *entries = c
        return ast.DeckDecl(name=self.nm(name), id=self.nm(ident), title=self.s(title) if title else None,
                            entries=tuple(e for e in entries if isinstance(e, ast.DeckEntry)), span=self.sp(meta),
                            edition=self.nm(edition) if edition is not None else None, modes=modes or (),
                            facets=tuple(e for e in entries if isinstance(e, ast.Allow)))

    @v_args(meta=True)
    def edition_decl(self, meta, c):
        name, ident, title, *rows = c
        return ast.EditionDecl(name=self.nm(name), id=self.nm(ident), title=self.s(title) if title else None,
                               rows=tuple(rows), span=self.sp(meta))

    @v_args(meta=True)
    def pool_decl(self, meta, c):
        name, ident, title, heroes = c
        return ast.PoolDecl(name=self.nm(name), id=self.nm(ident), title=self.s(title) if title else None,
                            heroes=heroes, span=self.sp(meta))

    @v_args(meta=True)
    def edition_row(self, meta, c):
        card, *srs = c
        cards = tuple((str(t)[0], parse_rank(str(t)[1:]), _tok_span(self.path, t)) for t in srs)
        return ast.EditionRow(card=self.nm(card), cards=cards, span=self.sp(meta))

    @v_args(meta=True)
    def deck_entry(self, meta, c):
        sr = str(c[0])
        return ast.DeckEntry(suit=sr[0], rank=parse_rank(sr[1:]), card=self.nm(c[1]), span=self.sp(meta),
                             sign=self.nm(c[2]) if c[2] is not None else None,
                             replaces=self.nm(c[3]) if c[3] is not None else None)

    @v_args(meta=True)
    def mode_decl(self, meta, c):
        name, ident, title, *items = c
        d = {"texts": [], "players": None, "table": [], "decks": (), "heroes": (), "lord": None, "setup": None,
             "wins": [], "rules": [], "variants": (), "aliases": (), "victory": None, "options": []}
        for key, val in items:
            if key == "decks":
                d["decks"], d["deck_size"] = val
            elif key == "heroes":
                d["heroes"], d["hero_except"] = val
            elif key == "table":
                d[key].extend(val)
            elif isinstance(d[key], list):
                d[key].append(val)
            else:
                d[key] = val
        d = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return ast.ModeDecl(name=self.nm(name), id=self.nm(ident), title=self.s(title) if title else None,
                            span=self.sp(meta), **d)

    def mode_text(self, c):
        return ("texts", self.s(c[0]))

    def mode_players(self, c):
        return ("players", (self.num(c[0], "a mode's player count"), self.num(c[2], "a mode's player count")))

    def mode_table(self, c):
        return ("table", tuple(c))

    def mode_deck(self, c):
        return ("decks", (c[0], self.num(c[1], "a deck size") if c[1] is not None else None))

    def mode_heroes(self, c):
        return ("heroes", (c[0], c[1] or ()))

    def mode_lord(self, c):
        return ("lord", self.nm(c[0]))

    def mode_with(self, c):
        return ("variants", c[0])

    def mode_victory(self, c):
        return ("victory", c[0])

    @v_args(meta=True)
    def mode_option(self, meta, c):
        name, ident, doc, default = c
        return ("options", ast.ModeOption(name=self.nm(name), id=self.nm(ident), default=default,
                                          doc=self.s(doc) if doc else None, span=self.sp(meta)))

    def mode_alias(self, c):
        return ("aliases", tuple(self.s(x) for x in c))

    def mode_setup(self, c):
        return ("setup", c[0])

    @v_args(meta=True)
    def mode_win(self, meta, c):
        return ("wins", ast.Win(identities=c[0], cond=c[1], span=self.sp(meta)))

    @v_args(meta=True)
    def rule_decl(self, meta, c):
        name, ident, cards, *items = c
        return ast.RuleDecl(rule=self._skill_like(meta, name, ident, ["locked"], items), span=self.sp(meta),
                            cards=tuple(self.nm(t) for t in cards or ()))

    def rule_cards(self, c):
        return list(c)

    @v_args(meta=True)
    def mode_rule(self, meta, c):
        name, ident, *items = c
        return ("rules", self._skill_like(meta, name, ident, ["locked"], items))

    @v_args(meta=True)
    def table_row(self, meta, c):
        return ast.TableRow(players=self.num(c[0], "a row of an identity table"), variants=tuple(c[1:]), span=self.sp(meta))

    def id_seq(self, c):
        return tuple(self.nm(t) for t in c)
