"""Checking modes: their options, tables, setup and win rules."""

from __future__ import annotations

from .. import ast
from ..diagnostics import suggest
from .types import _show


class Modes:
    """Mixed into DeclChecker: modes."""

    def mode(self, d: ast.ModeDecl) -> None:
        self.mode_options = {}
        for o in d.options:  # visible by name (Chinese or id) in the mode's setup, victory and rules
            self.check_ascii_param(o.id)
            t = self.expr(o.default, self.env())
            if t not in ("int", "text", "bool"):
                self.err("SGS201", f"an option's default is a number, a text or true/false, not {_show(t)}",
                         o.default.span)
            for n in (o.name.text, o.id.text):
                self.mode_options[n] = (t, o.id.text)
        try:
            self._mode(d)
        finally:
            self.mode_options = {}

    def _mode(self, d: ast.ModeDecl) -> None:
        for n in d.variants:
            pkg = self.m.packages.get(n.text)
            if pkg is None or not pkg.variant:
                variants = [k for k, p in self.m.packages.items() if p.variant]
                self.err("SGS110", f"'{n.text}' is not a variant package", n.span,
                         help=suggest(n.text, variants) or f"variant packages: {', '.join(variants) or 'none'}")
        ident = self.m.enums.get("identity")
        if d.players is not None and d.players[0] > d.players[1]:
            self.err("SGS210", f"player range {d.players[0]}..{d.players[1]} is empty", d.span)
        for row in d.table:
            for variant in row.variants:
                for n in variant:
                    self.value_of(n, "identity", "identity")
                if len(variant) != row.players:
                    self.err("SGS210", f"the identities for {row.players} players number {len(variant)}",
                             variant[0].span if variant else row.span,
                             help="each row lists one identity per player")
        if d.table and ident is None:
            self.err("SGS109", "an identity table needs `enum identity`", d.span)
        for n in d.decks:
            sym = self.m.values.get(n.text)
            if sym is None or sym.kind != "deck":
                self.err("SGS101", f"unknown deck '{n.text}'", n.span,
                         help=suggest(n.text, [k for k, v in self.m.values.items() if v.kind == "deck"]))
        for n in d.heroes:  # packages, or single heroes
            if n.text not in self.m.packages:
                sym = self.m.values.get(n.text)
                if sym is None or sym.kind != "hero":
                    heroes = [k for k, v in self.m.values.items() if v.kind == "hero"]
                    self.err("SGS110", f"no rules package or hero named '{n.text}'", n.span,
                             help=suggest(n.text, list(self.m.packages) + heroes))
        for n in d.hero_except:
            self.value_of(n, "hero", "hero", "SGS112")
        if d.lord is not None:
            self.value_of(d.lord, "identity", "identity")
        if d.setup is not None:
            self.block(d.setup, self.env(where=f"mode {d.name.text} setup"))
        if d.victory is not None:
            self.block(d.victory, self.env(where=f"mode {d.name.text} victory"))
        for w in d.wins:
            for n in w.identities:
                self.value_of(n, "identity", "identity")
            self.expr(w.cond, self.env())
        for r in d.rules:
            self.skill(r, owner=False)
