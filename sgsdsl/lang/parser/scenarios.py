"""Builders of scenario tests: seats, setups, answers and expectations."""

from __future__ import annotations

from lark import v_args

from .. import ast
from ..diagnostics import CompileError, Diagnostic
from .base import _tok_span, parse_rank


class ScenarioTests:
    """Builders (mixed into the parser's Transformer): Scenario tests."""

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
