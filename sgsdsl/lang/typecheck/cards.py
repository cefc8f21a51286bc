"""Checking cards, decks and editions."""

from __future__ import annotations

from .. import ast
from ..diagnostics import suggest


class CardsAndDecks:
    """Mixed into DeclChecker: cards, decks, editions."""

    def card(self, d: ast.CardDecl) -> None:
        env = self.env(self_type="player", card=True, where=f"card {d.name.text}")
        if d.nature is not None:
            self.value_of(d.nature, "nature", "damage nature")
        if d.recast and d.kind == "equipment":
            self.err("SGS208", "equipment is not recast in these rules: only a basic or trick card may be", d.span)
        if d.parent is not None and self.value_of(d.parent, "cardname", "card") is not None:
            self.card_parent(d)
        if d.target is not None:
            if d.kind == "equipment":
                self.err("SGS208", "equipment goes to its user's slot and takes no `target`", d.target.span)
            self.target(d.target, env)
        if d.limit is not None:  # `it` is a candidate target: a limit may hold against some targets only
            self.with_it(d.limit, env, "player", lambda: self.want(d.limit.count, env, "int", "a use limit"))
        hooks = {}
        for name, block in d.hooks:
            if name in hooks:
                self.err("SGS102", f"card '{d.name.text}' has two `{name}` blocks", block.span)
            hooks[name] = block
            role = "aim" if name == "effect" else "use"
            ev = self.role_type(role)
            self.block(block, self.env(self_type="player", card=True, event=ev, where=f"card {d.name.text}"))
        if d.kind == "equipment" and "effect" in hooks:
            self.err("SGS208", "equipment has no `effect`; give it triggers or modifiers instead", hooks["effect"].span)
        if d.kind == "equipment" and d.slot == "weapon" and d.range is None:
            self.err("SGS208", "a weapon needs its attack range: `weapon 3`", d.span)
        self.facets(d.facets, True, f"card {d.name.text}")

    def card_parent(self, d: ast.CardDecl) -> None:
        """`is P`: P is a card of the same kind and slot, and following `is` never comes back to d."""
        parent = self.m.cards[d.parent.text]
        if (parent.kind, parent.slot) != (d.kind, d.slot):
            self.err("SGS208", f"'{d.name.text}' cannot be a kind of '{parent.name.text}': one is {d.slot or d.kind}, "
                     f"the other {parent.slot or parent.kind}", d.parent.span,
                     help="a card is a kind of a card of its own kind (火杀 basic is 杀)")
            return
        seen = {d.id.text}
        while parent.parent is not None and parent.parent.text in self.m.cards:
            if parent.id.text in seen:
                break
            seen.add(parent.id.text)
            parent = self.m.cards[parent.parent.text]
        if parent.id.text in seen:
            self.err("SGS208", f"'{d.name.text}' is, through `is`, a kind of itself", d.parent.span,
                     help="one of these cards must be a card of its own (no `is`)")

    def deck(self, d: ast.DeckDecl) -> None:
        self.allows(d.facets)
        for e in d.entries:
            self.card_name(e.card)
            if e.replaces is not None:
                self.card_name(e.replaces)
            if not 1 <= e.rank <= 13:
                self.err("SGS209", f"rank {e.rank} does not exist", e.span, help="ranks run A, 2–10, J, Q, K")
        for n in d.modes:  # like a test's `mode`: a mode is named across packages (the modes use the decks)
            if n.text not in self.m.modes:
                self.err("SGS101", f"unknown mode '{n.text}'", n.span, help=suggest(n.text, self.m.modes)
                         or f"modes: {', '.join(sorted({m.name.text for m in self.m.modes.values()}))}")
        if d.edition is not None and d.edition.text not in self.m.editions:
            self.err("SGS101", f"unknown edition '{d.edition.text}'", d.edition.span,
                     help=suggest(d.edition.text, self.m.editions) or "declare it with `edition NAME id { 杀: ♠7 … }`")

    def card_name(self, n: ast.Name) -> None:
        sym = self.m.values.get(n.text)
        if sym is None or sym.kind != "card":
            self.err("SGS105", f"unknown card '{n.text}'", n.span,
                     help=suggest(n.text, [k for k, v in self.m.values.items() if v.kind == "card"]))
        else:
            self.visible(sym.decl, n.span, f"card '{n.text}'")

    def edition(self, d: ast.EditionDecl) -> None:
        for row in d.rows:
            self.card_name(row.card)
            for _, rank, span in row.cards:
                if not 1 <= rank <= 13:
                    self.err("SGS209", f"rank {rank} does not exist", span, help="ranks run A, 2–10, J, Q, K")
