"""Table rows and functions of modes."""

from __future__ import annotations

from .. import ast
from .names import _safe
from .scenarios import _literal


class Modes:
    """Mixed into ModuleWriter: modes."""

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
