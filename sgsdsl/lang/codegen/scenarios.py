"""Scenario tests as table rows: seats, answers, expectations and the operands a failure prints."""

from __future__ import annotations

import re
from pathlib import Path

from .. import ast
from ..model import Model
from ..surface import SUIT_IDS
from ..typecheck import view_seat
from .names import _safe


class ScenarioTests:
    """Mixed into ModuleWriter: scenario tests."""

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
