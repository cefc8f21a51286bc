"""Text -> syntax tree. Syntax errors become located diagnostics, never tracebacks."""

from __future__ import annotations

import ast as pyast
import functools
import re
import sys
import unicodedata
import warnings
from pathlib import Path

import attrs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast
from .diagnostics import CompileError, Diagnostic, Note, Span
from .limits import LIST_ITEMS, MAX_DEPTH, RANGES

GRAMMAR = Path(__file__).with_name("grammar.lark")
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@functools.cache
def lark_parser() -> Lark:
    from .cachedir import lark_cache_file

    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr"],
        cache=lark_cache_file(),  # building the LALR tables takes half a second; lark checks the file
    )


def _tok_span(path: str, t: Token) -> Span:
    return Span(path, t.line or 0, t.column or 0, t.end_line or t.line or 0, t.end_column or t.column or 0)


def parse_string_literal(raw: str) -> str:
    # Unknown escapes such as \q stay as written. Python warns about them, and the warning is an
    # error under `-W error`: the warning filters in force must not decide whether a file compiles.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pyast.literal_eval(raw)


_SURROGATE = re.compile("[\ud800-\udfff]")
_STRING_HELP = 'strings use "..." with escapes such as \\n, \\" and \\\\ (a backslash itself)'


def parse_rank(text: str) -> int:
    return RANKS.get(text) or int(text)


class _Builder(Transformer):
    """Lark tree -> ast nodes. One method per grammar rule or alias."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    # -- helpers
    def sp(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 0, 0, 0, 0)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def nm(self, t: Token) -> ast.Name:
        return ast.Name(text=str(t), span=_tok_span(self.path, t))

    def s(self, t: Token) -> str:
        try:
            text = parse_string_literal(str(t))
        except (ValueError, SyntaxError):
            what = "a NUL character" if "\x00" in t else "a bad escape sequence"
            raise CompileError([Diagnostic("SGS004", f"this string has {what}", _tok_span(self.path, t),
                                           help=_STRING_HELP)]) from None
        lone = _SURROGATE.search(text)
        if lone:  # half of a UTF-16 pair: no character, and no output (a log, JSON, a page) can hold it
            raise CompileError([Diagnostic("SGS004", f"this string has \\u{ord(lone.group()):04x}, half of a UTF-16 "
                                           "surrogate pair: it is not a character", _tok_span(self.path, t),
                                           help="write the character itself, or \\U and its 8-digit code point "
                                                "(\\U0001F600)")]) from None
        return text

    def __default_token__(self, token):
        # int() refuses digit strings longer than this limit; say so at the number, not in a traceback.
        limit = sys.get_int_max_str_digits()
        if token.type in ("INT", "HALF") and limit and len(token) > limit:
            raise CompileError([Diagnostic("SGS004", f"this number has {len(token)} digits, too many to read",
                                           _tok_span(self.path, token),
                                           help="docs/language.md, Limits, lists the range of every number")])
        return token

    def num(self, t: Token, what: str, value: int | None = None) -> int:
        """An integer written in the rules (`value` when the token is not simply read), inside the range
        the language documents for its place."""
        value = int(t) if value is None else value
        problem = RANGES[what].error(value)
        if problem is not None:
            raise CompileError([Diagnostic("SGS004", problem, _tok_span(self.path, t),
                                           help="docs/language.md, Limits, lists the range of every number")])
        return value

    # -- top level
    @v_args(meta=True)
    def start(self, meta, items):
        return list(items)

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
        return ast.MarkDecl(name=name, id=self.nm(c[1]) if c[1] else name, type=c[2],
                            doc=self.s(c[3]) if c[3] else None, span=self.sp(meta))

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

    def hero_modes(self, c):
        return ("modes", c[0])

    def name_list(self, c):
        return tuple(self.nm(t) for t in c)

    # -- skills
    @v_args(meta=True)
    def skill_decl(self, meta, c):
        name, ident, *rest = c
        types = [x for x in rest if isinstance(x, str) and not isinstance(x, Token)]
        return self._skill_like(meta, name, ident, types, [x for x in rest if not (isinstance(x, str)
                                                                                     and not isinstance(x, Token))])

    def _skill_like(self, meta, name, ident, types, items):
        texts, facets, counters, tests, shared = [], [], [], [], []
        for it in items:
            if isinstance(it, Token):
                texts.append(self.s(it))
            elif isinstance(it, ast.RulesOf):
                shared.append(it)
            elif isinstance(it, (ast.CounterDecl, ast.PileDecl)):
                counters.append(it)
            elif isinstance(it, ast.TestDecl):
                tests.append(it)
            else:
                facets.append(it)
        canon = {"锁定技": "locked", "主公技": "lord", "限定技": "limited", "觉醒技": "awaken"}
        return ast.SkillDecl(name=self.nm(name), id=self.nm(ident), types=tuple(canon.get(t, t) for t in types),
                             texts=tuple(texts), facets=tuple(facets), counters=tuple(counters),
                             tests=tuple(tests), span=self.sp(meta), rules_of=tuple(shared))

    @v_args(meta=True)
    def rules_of(self, meta, c):
        package, skill = c if c[1] is not None else (None, c[0])
        return ast.RulesOf(package=self.nm(package) if package is not None else None, skill=self.nm(skill),
                           span=self.sp(meta))

    def skill_type(self, c):
        return str(c[0])

    def by_clause(self, c):
        return ("by", c[0])

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
        return ast.Trigger(windows=names, any=any_ is not None, forced=forced is not None, do=do,
                           span=self.sp(meta), **self._clauses(clauses))

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
        card, n, source, _kw, where, together, when, mode = c
        return ast.ViewAs(card=self.nm(card), count=n, hand_only=source is True, where=where, when=when,
                          mode=str(mode) if mode else None, span=self.sp(meta), together=together,
                          pile=source if isinstance(source, ast.Name) else None)

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
        op, value, when = rest[len(args):]
        return ast.Modify(quantity=self.nm(q), args=tuple(args), op=op, value=value, when=when, span=self.sp(meta))

    def marg(self, c):
        return self.nm(c[0])

    def aop(self, c):
        return str(c[0])

    @v_args(meta=True)
    def allow(self, meta, c):
        return ast.Allow(code=self.nm(c[0]), reason=self.s(c[1]), span=self.sp(meta))

    # -- decks and modes
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
    def edition_row(self, meta, c):
        card, *srs = c
        cards = tuple((str(t)[0], parse_rank(str(t)[1:]), _tok_span(self.path, t)) for t in srs)
        return ast.EditionRow(card=self.nm(card), cards=cards, span=self.sp(meta))

    @v_args(meta=True)
    def deck_entry(self, meta, c):
        sr = str(c[0])
        return ast.DeckEntry(suit=sr[0], rank=parse_rank(sr[1:]), card=self.nm(c[1]), span=self.sp(meta),
                             sign=self.nm(c[2]) if c[2] is not None else None)

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
        name, ident, *items = c
        return ast.RuleDecl(rule=self._skill_like(meta, name, ident, ["locked"], items), span=self.sp(meta))

    @v_args(meta=True)
    def mode_rule(self, meta, c):
        name, ident, *items = c
        return ("rules", self._skill_like(meta, name, ident, ["locked"], items))

    @v_args(meta=True)
    def table_row(self, meta, c):
        return ast.TableRow(players=self.num(c[0], "a row of an identity table"), variants=tuple(c[1:]), span=self.sp(meta))

    def id_seq(self, c):
        return tuple(self.nm(t) for t in c)

    # -- tests
    @v_args(meta=True)
    def test_decl(self, meta, c):
        title, *items = c
        d = {"mode": None, "seats": [], "deck": (), "start": None, "turns": 1, "decides": [], "expects": [], "logs": [],
             "asked": [], "setup": False, "turn_limit": 0, "options": [], "bound": [], "requests": [], "views": [],
             "heroes": ()}
        for key, val in items:
            if isinstance(d[key], list):
                d[key].append(val)
            else:
                d[key] = val
        d = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return ast.TestDecl(title=self.s(title), span=self.sp(meta), **d)

    def t_mode(self, c):
        return ("mode", self.nm(c[0]))

    @v_args(meta=True)
    def t_seat(self, meta, c):
        hero, *opts = c
        d = {"hp": None, "max_hp": None, "hand": (), "equip": (), "judge": (), "identity": None, "flipped": False,
             "chained": False, "marks": [], "dead": False, "reserve": (), "fallen": (), "piles": [], "deputy": None,
             "hidden": [], "kingdom": None, "armed": ()}
        for key, val in opts:
            if key in ("marks", "piles", "hidden"):
                d[key].append(val)
            else:
                d[key] = val
        d["marks"], d["piles"] = tuple(d["marks"]), tuple(d["piles"])
        d["hidden"] = tuple(dict.fromkeys(h for hs in d["hidden"] for h in hs))
        return ("seats", ast.Seat(hero=self.nm(hero), span=self.sp(meta), **d))

    def t_deck(self, c):
        return ("deck", c[0])

    def t_start(self, c):
        return ("start", (self.nm(c[0]), self.nm(c[1]) if c[1] else None))

    def t_turns(self, c):
        return ("turns", self.num(c[0], "a test's number of turns"))

    def t_decide(self, c):
        if c[1] is not None:  # `decide 刘备 八卦阵: …`
            return ("bound", (self.nm(c[0]), self.nm(c[1]), tuple(c[2:])))
        return ("decides", (self.nm(c[0]), tuple(c[2:])))

    def offer_list(self, c):
        return tuple(x for x in c if x is not None)

    def t_expect_offered(self, c):
        who, skill, offer, n = c
        return ("requests", (self.nm(who), self.nm(skill) if skill is not None else None, offer,
                             self.num(n, "a number of requests") if n is not None else None, _tok_span(self.path, who)))

    def t_expect_view(self, c):
        return ("views", (self.nm(c[0]), c[1]))

    def t_expect_asked_count(self, c):
        who, skill, n = c
        return ("requests", (self.nm(who), self.nm(skill) if skill is not None else None, None,
                             self.num(n, "a number of requests"), _tok_span(self.path, who)))

    def t_expect(self, c):
        return ("expects", c[0])

    def t_expect_log(self, c):
        return ("logs", (True, tuple(self.s(x) for x in c), _tok_span(self.path, c[0])))

    def t_expect_nolog(self, c):
        return ("logs", (False, (self.s(c[0]),), _tok_span(self.path, c[0])))

    def t_expect_asked(self, c):
        return ("asked", (tuple(self.nm(x) for x in c), _tok_span(self.path, c[0])))

    def t_setup(self, c):
        return ("setup", True)

    def t_heroes(self, c):
        return ("heroes", tuple(self.nm(x) for x in c))

    def s_hp(self, c):
        return ("hp", self.num(c[0], "a test seat's hp"))

    def s_maxhp(self, c):
        return ("max_hp", self.num(c[0], "a test seat's max hp"))

    def s_hand(self, c):
        return ("hand", c[0])

    def s_equip(self, c):
        return ("equip", c[0])

    def s_judge(self, c):
        return ("judge", c[0])

    def s_identity(self, c):
        return ("identity", self.nm(c[0]))

    def s_flipped(self, c):
        return ("flipped", True)

    def s_chained(self, c):
        return ("chained", True)

    def s_dead(self, c):
        return ("dead", True)

    def s_reserve(self, c):
        return ("reserve", tuple(self.nm(x) for x in c))

    def s_fallen(self, c):
        return ("fallen", tuple(self.nm(x) for x in c))

    def t_turn_limit(self, c):
        return ("turn_limit", int(c[0]))

    def t_option(self, c):
        return ("options", (self.nm(c[0]), c[1]))

    def s_mark(self, c):
        return ("marks", (self.nm(c[0]), self.num(c[1], "a test seat's mark")))

    def s_pile(self, c):
        return ("piles", (self.nm(c[0]), c[1]))

    def s_deputy(self, c):
        return ("deputy", self.nm(c[0]))

    def s_hidden(self, c):
        """`hidden` (both hero cards), `hidden main|主将`, `hidden deputy|副将`."""
        if c[0] is None:
            return ("hidden", ("main", "deputy"))
        word = str(c[0])
        which = {"main": "main", "主将": "main", "deputy": "deputy", "副将": "deputy"}.get(word)
        if which is None:
            raise CompileError([Diagnostic("SGS211", f"'{word}' is not a hero card of a seat",
                                           _tok_span(self.path, c[0]), help="write `hidden` (both), `hidden main` "
                                           "or `hidden deputy` (also 主将, 副将)")])
        return ("hidden", (which,))

    def s_kingdom(self, c):
        return ("kingdom", self.nm(c[0]))

    def s_armed(self, c):
        return ("armed", tuple(self.nm(x) for x in c))

    def card_list(self, c):
        return tuple(x for x in c if x is not None)

    @v_args(meta=True)
    def card_ref(self, meta, c):
        sr, name, sign = c
        sign = self.nm(sign) if sign is not None else None
        if sr is None:
            return ast.CardRef(suit=None, rank=None, name=self.nm(name), span=self.sp(meta), sign=sign)
        s = str(sr)
        return ast.CardRef(suit=s[0], rank=parse_rank(s[1:]), name=self.nm(name), span=self.sp(meta), sign=sign)

    @v_args(meta=True)
    def d_name(self, meta, c):
        sr, name, optional = c
        suit = rank = None
        if sr is not None:
            suit, rank = str(sr)[0], parse_rank(str(sr)[1:])
        return ast.Decision(kind="name", suit=suit, rank=rank, text=str(name), items=(), span=self.sp(meta),
                            optional=optional is not None)

    @v_args(meta=True)
    def d_bot(self, meta, c):
        return ast.Decision(kind="bot", suit=None, rank=None, text="", items=(c[0],), span=self.sp(meta))

    @v_args(meta=True)
    def d_text(self, meta, c):
        return ast.Decision(kind="text", suit=None, rank=None, text=self.s(c[0]), items=(), span=self.sp(meta),
                            optional=c[1] is not None)

    @v_args(meta=True)
    def d_many(self, meta, c):
        *items, optional = c
        return ast.Decision(kind="many", suit=None, rank=None, text="",
                            items=tuple(x for x in items if x is not None), span=self.sp(meta),
                            optional=optional is not None)

    # -- statements
    @v_args(meta=True)
    def block(self, meta, c):
        return ast.Block(stmts=tuple(c), span=self.sp(meta))

    body = block

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return ast.Let(name=self.nm(c[0]), value=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def expr_stmt(self, meta, c):
        target, op, value = c
        if op is None:
            return ast.ExprStmt(expr=target, span=self.sp(meta))
        return ast.Assign(target=target, op=op, value=value, span=self.sp(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        test, then, other = c
        if isinstance(other, ast.If):
            other = ast.Block(stmts=(other,), span=other.span)
        return ast.If(test=test, then=then, other=other, span=self.sp(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return ast.For(var=self.nm(c[0]), iter=c[1], body=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return ast.While(test=c[0], body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, c):
        return ast.Repeat(count=c[0], body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def open_stmt(self, meta, c):
        return ast.Open(window=self.nm(c[0]), event=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def phase_stmt(self, meta, c):
        return ast.PhaseStmt(phase=self.nm(c[0]), body=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def later_stmt(self, meta, c):
        return ast.Later(body=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def log_stmt(self, meta, c):
        tok = c[0]
        text = self.s(tok)
        return ast.Log(text=text, parts=tuple(_interpolate(self.path, tok, text)), span=self.sp(meta))

    @v_args(meta=True)
    def stop_stmt(self, meta, c):
        return ast.Stop(span=self.sp(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return ast.Break(span=self.sp(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, c):
        return ast.Continue(span=self.sp(meta))

    # -- expressions
    @v_args(meta=True)
    def cond(self, meta, c):
        return ast.Cond(test=c[0], then=c[1], other=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def filter(self, meta, c):
        return ast.Filter(source=c[0], pred=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def filter_named(self, meta, c):
        return ast.Filter(source=c[0], binder=self.nm(c[1]), pred=c[2], span=self.sp(meta))

    @v_args(meta=True)
    def least(self, meta, c):
        return ast.Extreme(source=c[0], key=c[1], most=False, span=self.sp(meta))

    @v_args(meta=True)
    def most(self, meta, c):
        return ast.Extreme(source=c[0], key=c[1], most=True, span=self.sp(meta))

    @v_args(meta=True)
    def or_expr(self, meta, c):
        return ast.BoolOp(op="or", items=tuple(c), span=self.sp(meta))

    @v_args(meta=True)
    def and_expr(self, meta, c):
        return ast.BoolOp(op="and", items=tuple(c), span=self.sp(meta))

    @v_args(meta=True)
    def not_(self, meta, c):
        return ast.Not(operand=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def comparison(self, meta, c):
        return ast.Compare(op=c[1], left=c[0], right=c[2], span=self.sp(meta))

    def comp_op(self, c):
        return " ".join(str(t) for t in c)

    def _binary(self, meta, c):
        left = c[0]
        for i in range(1, len(c), 2):
            right = c[i + 1]
            span = Span(self.path, left.span.line, left.span.col, right.span.end_line, right.span.end_col)
            left = ast.BinOp(op=c[i], left=left, right=right, span=span)
        return left

    sum = v_args(meta=True)(_binary)
    product = v_args(meta=True)(_binary)

    def add_op(self, c):
        return str(c[0])

    mul_op = add_op

    @v_args(meta=True)
    def neg(self, meta, c):
        return ast.Neg(operand=c[0], span=self.sp(meta))

    @v_args(meta=True)
    def attr(self, meta, c):
        return ast.Attr(obj=c[0], name=self.nm(c[1]), span=self.sp(meta))

    @v_args(meta=True)
    def call(self, meta, c):
        return ast.Call(func=c[0], args=tuple(a for a in c[1:] if a is not None), span=self.sp(meta))

    @v_args(meta=True)
    def index(self, meta, c):
        return ast.Index(obj=c[0], index=c[1], span=self.sp(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return ast.NameRef(text=str(c[0]), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def int(self, meta, c):
        return ast.IntLit(value=self.num(c[0], "a number in an expression"), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def string(self, meta, c):
        return ast.StrLit(value=self.s(c[0]), span=_tok_span(self.path, c[0]))

    def card_lit(self, c):
        sr, name = c
        a, b = _tok_span(self.path, sr), _tok_span(self.path, name)
        return ast.CardLit(suit=str(sr)[0], rank=parse_rank(str(sr)[1:]), name=self.nm(name),
                           span=Span(self.path, a.line, a.col, b.end_line, b.end_col))

    @v_args(meta=True)
    def suit(self, meta, c):
        return ast.SuitLit(value=str(c[0]), span=_tok_span(self.path, c[0]))

    @v_args(meta=True)
    def list(self, meta, c):
        return ast.ListLit(items=tuple(x for x in c if x is not None), span=self.sp(meta))

    @v_args(meta=True)
    def ask(self, meta, c):
        text = self.s(c[1])
        return ast.Ask(who=c[0], prompt=text, parts=self._prompt_parts(c[1], text), span=self.sp(meta))

    def _prompt_parts(self, tok, text: str) -> tuple:
        """A prompt may interpolate `{expr}` like a log line (「发动【{s}】？」); plain text stays plain."""
        parts = tuple(_interpolate(self.path, tok, text))
        return parts if any(not isinstance(x, str) for x in parts) else ()

    @v_args(meta=True)
    def new(self, meta, c):
        return ast.New(event=self.nm(c[0]), args=tuple(a for a in c[1:] if a is not None), span=self.sp(meta))

    @v_args(meta=True)
    def pos_arg(self, meta, c):
        return ast.Arg(name=None, value=c[0])

    @v_args(meta=True)
    def kw_arg(self, meta, c):
        return ast.Arg(name=self.nm(c[0]), value=c[1])

    @v_args(meta=True)
    def choose(self, meta, c):
        who, prompt, kind, cnt, source, where = c
        lo, hi = cnt if cnt is not None else (None, None)
        text = self.s(prompt) if prompt else None
        return ast.Choose(who=who, prompt=text, kind=kind, lo=lo, hi=hi, source=source, where=where,
                          parts=self._prompt_parts(prompt, text) if prompt else (), span=self.sp(meta))

    def choose_kind(self, c):
        return str(c[0])


_INTERP = re.compile(r"\{([^{}]*)\}")


def _interpolate(path: str, tok: Token, text: str):
    """Split a log string into literal text and `{expr}` parts (parsed as expressions)."""
    parts: list = []
    pos = 0
    for m in _INTERP.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        src = m.group(1)
        # Columns inside the string: approximate (escapes shift them) but on the right line.
        col = (tok.column or 0) + 1 + m.start(1)
        parts.append(parse_expr(src, path, tok.line or 0, col))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return parts


_NAME_RE = re.compile(r"[^\W\d]\w*\Z")


def _keyword_as_name(e: UnexpectedInput) -> bool:
    """A keyword where the grammar wants a name (`event.amount = x` after `let x = 1`, a local called
    `target`): LALR merges the lookaheads of states, so the contextual lexer may take a word for a
    keyword that cannot come next. Read it again as a name; a real syntax error stays one."""
    if not isinstance(e, UnexpectedToken) or e.token.type in ("NAME", "$END"):
        return False
    if not _NAME_RE.match(str(e.token)) or "NAME" not in e.interactive_parser.accepts():
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(e.token), e.token))
    return True


def parse_expr(src: str, path: str, line: int, col: int) -> ast.Expr:
    try:
        tree = lark_parser().parse(src, start="expr", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        span = Span(path, line, col - 1, line, col + len(src) + 1)
        raise CompileError([Diagnostic("SGS001", f"cannot parse '{{{src}}}' as an expression", span,
                                       help="log text interpolates expressions written as {expr}")]) from e
    try:
        _check_size(tree, path)
        return _shift(_transform(tree, path), line, col - 1)
    except CompileError as e:  # located inside the string: move the diagnostics to where it sits
        raise CompileError([attrs.evolve(d, span=_shift(d.span, line, col - 1)) for d in e.diagnostics]) from None


def _shift(node, line: int, dcol: int):
    """Move spans of an expression parsed out of a string to where the string sits."""
    if isinstance(node, Span):
        return Span(node.file, line, node.col + dcol, line, node.end_col + dcol)
    if isinstance(node, tuple):
        return tuple(_shift(x, line, dcol) for x in node)
    if attrs.has(type(node)):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, (Span, tuple)) or attrs.has(type(v)):
                changes[f.name] = _shift(v, line, dcol)
        return attrs.evolve(node, **changes)
    return node


# ---- syntax errors ---------------------------------------------------------------

_TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "SUIT": "a suit (♠♥♣♦)",
    "SUITRANK": "a suit and rank such as ♠A or ♥10", "HALF": "a number", "HORSE": "+1 or -1",
    "$END": "the end of the file", "QMARK": "'?'", "DOTDOT": "'..'",
}


def _describe(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pat = lark_parser().get_terminal(term).pattern
        if pat.type == "str":
            return f"'{pat.value}'"
    except KeyError:
        pass
    return term.lower()


def _expected(terms) -> str:
    words = sorted({_describe(t) for t in terms if not t.startswith("__")})
    if len(words) > 8:
        keywords = [w for w in words if w.startswith("'")]
        others = [w for w in words if not w.startswith("'")]
        words = others + keywords[:6] + ["…"]
    return ", ".join(words)


_TOKEN_NOUNS = {"NAME": "name", "INT": "number", "HALF": "number", "SUIT": "suit", "SUITRANK": "suit and rank",
                "HORSE": "horse"}

# What a Chinese input method types in place of the ASCII punctuation of the language (full-width
# forms such as '，' and '（' are found through NFKC).
_LOOKALIKES = {"、": ",", "。": ".", "“": '"', "”": '"', "「": '"', "」": '"', "【": "[", "】": "]", "…": ".."}
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[{}()\[\]]|\n')
_CLOSER = {"{": "}", "(": ")", "[": "]"}


def _open_brackets(text: str) -> tuple[list[tuple[str, int, int]], tuple[str, int, int] | None]:
    """Brackets still open at the end of `text` (outside strings and comments), innermost last, and
    the first that a closer less indented than its own line closed: where one was probably left out.
    """
    stack, line, line_start, suspect = [], 1, 0, None
    for m in _BRACKETS.finditer(text):
        tok = m.group()
        if tok == "\n":
            line, line_start = line + 1, m.end()
            continue
        if tok not in _CLOSER and tok not in ")]}":
            continue
        head = text[line_start:m.start()]
        indent = len(head) - len(head.lstrip())
        if tok in _CLOSER:
            stack.append((tok, line, m.start() - line_start + 1, indent))
        elif stack and _CLOSER[stack[-1][0]] == tok:
            opener = stack.pop()
            if suspect is None and not head.strip() and indent < opener[3]:
                suspect = opener
    return [s[:3] for s in stack], suspect[:3] if suspect else None


def _unclosed(text: str) -> tuple[str, int, int, str] | None:
    """The bracket left open at the end of the text, with the note to show for it."""
    stack, suspect = _open_brackets(text)
    if not stack:
        return None
    if suspect is not None:
        return (*suspect, f"this '{suspect[0]}' is probably the one never closed")
    return (*stack[-1], f"this '{stack[-1][0]}' is never closed")


def _closer_diagnostic(path: str, text: str, pos: int, closer: str, span: Span) -> Diagnostic | None:
    """For a closing bracket the parser did not expect, when the brackets before it explain why."""
    stack, _ = _open_brackets(text[:pos])
    opener = {v: k for k, v in _CLOSER.items()}[closer]
    if not any(s[0] == opener for s in stack):
        return Diagnostic("SGS001", f"this '{closer}' closes nothing", span, help="delete it")
    inner, line, col = stack[-1]
    if inner != opener:
        return Diagnostic("SGS001", f"'{closer}' while the '{inner}' on line {line} is still open", span,
                          help=f"close the '{inner}' first, with '{_CLOSER[inner]}'",
                          notes=(Note(Span(path, line, col, line, col + 1), f"this '{inner}' is still open"),))
    return None


def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.lower() if name else "a control character"


def _previous_token(e: UnexpectedToken):
    try:
        prev = e.interactive_parser.parser_state.value_stack[-1]
    except (AttributeError, IndexError):
        return None
    return prev if isinstance(prev, Token) else None


def _syntax_diagnostic(path: str, text: str, e: UnexpectedInput) -> Diagnostic:
    line, col = getattr(e, "line", 0) or 0, getattr(e, "column", 0) or 0
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        # Right after the last thing written: trailing blank lines would put the caret nowhere.
        body = text.rstrip()
        line = body.count("\n") + 1
        col = len(body) - (body.rfind("\n") + 1) + 1
        hint = f"expected {_expected(e.expected)}"
        notes = ()
        opened = _unclosed(text)
        if opened is not None:
            ch, oline, ocol, note = opened
            closer = _CLOSER[ch]
            if any(_describe(t) == f"'{closer}'" for t in e.expected):
                hint = f"add the missing '{closer}'"
            else:
                hint += f"; is a '{closer}' missing?"
            notes = (Note(Span(path, oline, ocol, oline, ocol + 1), note),)
        return Diagnostic("SGS003", "the file ends too early", Span(path, line, col, line, col + 1), help=hint,
                          notes=notes)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        span = Span(path, line, col, line, col + 1)
        if ch == '"':  # a string token ends on its line, so this one never ends
            end = len(text.split("\n")[line - 1]) + 1 if 0 < line <= text.count("\n") + 1 else col + 1
            return Diagnostic("SGS004", "this string is not closed on its line", Span(path, line, col, line, end),
                              help='end it with " on the same line; write \\" for a quote inside a string')
        ascii_ = _LOOKALIKES.get(ch) or unicodedata.normalize("NFKC", ch)
        if ascii_ != ch and ascii_.isascii() and ascii_.strip():
            return Diagnostic("SGS002", f"unexpected character '{ch}' ({_char_name(ch)})", span,
                              help=f"did you mean '{ascii_}'? the rules use ASCII punctuation (半角)")
        if ch.isspace() or not ch.isprintable():
            if ch == "\ufeff" and e.pos_in_stream == 0:
                return Diagnostic("SGS002", "the file starts with a byte-order mark (U+FEFF)", span,
                                  help="save the file as UTF-8 without a BOM")
            return Diagnostic("SGS002", f"unexpected invisible character U+{ord(ch):04X} ({_char_name(ch)})", span,
                              help="only spaces, tabs and line breaks separate words: delete it or type a space")
        if ch == ";":
            return Diagnostic("SGS002", "unexpected character ';'", span, help="statements need no ';' between them")
        return Diagnostic("SGS002", f"unexpected character {ch!r}", span,
                          help=f"expected {_expected(e.allowed)}" if e.allowed else None)
    tok = e.token
    shown = str(tok)
    span = Span(path, line, col, line, col + (len(shown) or 1))
    if tok.type == "SUIT" and "SUITRANK" in e.expected:
        word = shown + re.compile(r"\w*").match(text, tok.end_pos or 0).group()
        # A deck's entries expect a suit and rank but no card name, or a sign (a name) and a comma.
        code = "SGS209" if "NAME" not in e.expected or "COMMA" in e.expected else "SGS004"
        return Diagnostic(code, f"'{word}' is not a suit and rank", Span(path, line, col, line, col + len(word)),
                          help="the rank follows the suit: A, 2–10, J, Q or K, as in ♠A, ♥10, ♣K")
    prev = _previous_token(e)
    if prev is not None and prev.type != "NAME" and str(prev) in _STATEMENT_KEYWORDS and shown in _ASSIGN_OR_ACCESS:
        # A statement keyword (`phase`, `log`, `open` …) where a variable's name was meant.
        return Diagnostic("SGS001", f"'{prev}' is a keyword and cannot name a variable",
                          _tok_span(path, prev) if prev.line else span,
                          help=f"here `{prev}` begins a statement; give the variable another name")
    if shown in (")", "]", "}") and tok.start_pos is not None:
        explained = _closer_diagnostic(path, text, tok.start_pos, shown, span)
        if explained is not None:
            return explained
    if prev is not None and str(prev) == "for" and shown == "(":
        return Diagnostic("SGS001", "unexpected '('", span, help="`for` takes no parentheses: `for p in players { … }`")
    if tok.type == "STRING":
        msg = f"unexpected string {shown}"
    elif tok.type in _TOKEN_NOUNS:
        msg = f"unexpected {_TOKEN_NOUNS[tok.type]} '{shown}'"
    else:
        msg = f"unexpected {shown!r}"
    hint = f"expected {_expected(e.expected)}"
    if shown in _KEYWORDS_AS_NAMES and "NAME" in e.expected:
        hint += f"; '{shown}' is a keyword here, pick another name"
    return Diagnostic("SGS001", msg, span, help=hint)


_STATEMENT_KEYWORDS = {"let", "if", "for", "while", "repeat", "open", "phase", "log", "stop", "break", "continue"}
_ASSIGN_OR_ACCESS = {"=", "+=", "-=", ".", "["}
_KEYWORDS_AS_NAMES = {"card", "cards", "player", "players", "option", "target", "limit", "effect", "deck", "lord",
                      "win", "rule", "on", "when", "do", "cost", "per", "phase", "turn", "game", "hand", "use"}


def _check_size(tree: Tree, path: str) -> None:
    """Nesting and list lengths within the limits, checked before anything recurses over the tree."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        meta = node.meta
        line, col = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
        if depth > MAX_DEPTH:
            raise CompileError([Diagnostic("SGS001", f"this is nested more than {MAX_DEPTH} levels deep",
                                           Span(path, line, col, line, col + 1),
                                           help="split it up: name parts with `let`, or move them into a flow")])
        if node.data == "list" and len(node.children) > LIST_ITEMS:
            raise CompileError([Diagnostic("SGS001", f"this list has {len(node.children):,} items, more than "
                                           f"{LIST_ITEMS:,}", Span(path, line, col, line, col + 1),
                                           help="a rule needs no list this long: build it with `where` from "
                                                "the cards or players it picks from")])
        # `a + b + c + …` is one node here but becomes a chain of nested operations.
        step = max(1, len(node.children) // 2) if node.data in ("sum", "product") else 1
        stack.extend((c, depth + step) for c in node.children if isinstance(c, Tree))


def parse(text: str, path: str) -> ast.Module:
    """Parse one file. Raises CompileError with a located diagnostic on bad input."""
    try:
        tree = lark_parser().parse(text, start="start", on_error=_keyword_as_name)
    except UnexpectedInput as e:
        raise CompileError([_syntax_diagnostic(path, text, e)]) from None
    _check_size(tree, path)
    return ast.Module(path=path, decls=tuple(_transform(tree, path)))


def _transform(tree: Tree, path: str):
    """The tree built into ast nodes; a diagnostic raised while building, at any depth, comes out as it is."""
    try:
        return _Builder(path).transform(tree)
    except VisitError as e:
        err, obj = e, e.obj
        while isinstance(err, VisitError):  # a log string's `{expr}` is parsed inside the outer transform
            err, obj = err.orig_exc, err.obj
        if isinstance(err, CompileError):
            raise err from None
        if isinstance(err, (ValueError, SyntaxError)):
            meta = getattr(obj, "meta", None)
            line = getattr(meta, "line", 1) if meta and not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if meta and not getattr(meta, "empty", True) else 1
            raise CompileError([Diagnostic("SGS004", f"malformed literal: {err}",
                                           Span(path, line, col, line, col + 1),
                                           help="strings use \"...\" with Python-style escapes")]) from None
        raise
