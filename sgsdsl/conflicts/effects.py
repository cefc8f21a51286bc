"""What a call of a primitive does, as its effect declaration in the surface registry says
(sgsdsl/lang/surface.py, `Effect` beside each primitive): the state it changes, the `moved` window it
opens when it moves cards (with the fields that event can carry and the values it binds), the resources
it moves for the progress argument, the card hooks it runs and the cards it lets a player use. No
primitive is named here: a primitive the checks should see otherwise gets another declaration."""

from __future__ import annotations

from ..lang import ast
from ..lang.surface import FUNCS, Effect
from ..lang.tree import is_name
from . import progress
from .bodyfacts import BodyFacts, OpenSite, Scope, tagged
from .reading import EQUIP, HAND, zone_key

# Fields of the `moved` event every move sets; the rest depend on where the cards come from and go.
_ALWAYS = frozenset({"cards", "to", "from_zone"})
_LOST = {"loser": (HAND, EQUIP), "lost_hand": (HAND,), "lost_equip": (EQUIP,)}


def effect_of(name: str) -> Effect | None:
    f = FUNCS.get(name)
    return f.effect if f is not None and f.kind == "primitive" else None


class Effects:
    """The part of the Analyzer (bodies.py) that reads a call of a primitive."""

    def _primitive(self, c: ast.Call, name: str, out: BodyFacts, scope: Scope, owner: bool) -> None:
        eff = effect_of(name)
        out.calls.add(name)
        if eff is None:  # a builtin function: it changes nothing
            return
        args = self._bound_args(name, c)
        out.state |= eff.state
        out.random = out.random or eff.chance
        whose = self._delta_owner(eff, args, scope) if owner else "any"
        for res, d in progress.effect_deltas(eff, args, self._zone_of):
            out.deltas.add((res, d, False, whose))
        if eff.resets:
            # whose: a reset of its owner's own skills reaches another hero's only on the owner's seat (国战)
            mine = owner and "p" in args and self.relation(args["p"], scope) == "self"
            # a player an `if` pins to its owner's kingdom: the reset reaches only heroes of that kingdom
            kin = owner and not mine and isinstance(args.get("p"), ast.NameRef) and args["p"].text in scope.kin
            out.resets |= {("self|" if mine else "kin|" if kin else "") + s
                           for s in self.skill_set(args.get("s"), scope)}
        if eff.grants is not None:
            what = eff.grants.split(":", 1)
            ph = args.get(what[1]) if len(what) > 1 else None
            out.grants.add((what[0], ph.text if isinstance(ph, ast.NameRef) else None, scope.chance))
        if eff.moves is not None and self.moved is not None:
            self._moved(eff, args, out, scope, owner)
        if eff.hooks:
            card = self.known_card(c.args[0].value, scope) if c.args else None
            if card is not None:
                self._add_hooks(out, card, chance=scope.chance)
            else:
                out.hooks = True
        if eff.uses is not None:  # a card may be used: the use flow and the hooks of the cards it may be
            cards = args.get(eff.uses) if eff.uses != "any" else None
            self._play_phase(out, self._cards_named(cards) if cards is not None else None)

    def _bound_args(self, name: str, c: ast.Call) -> dict:
        """Parameter name -> argument expression of a primitive call."""
        params = [p for p, _, _ in FUNCS[name].params]
        out, pos = {}, 0
        for a in c.args:
            if a.name is not None:
                out[a.name.text] = a.value
            elif pos < len(params):
                out[params[pos]] = a.value
                pos += 1
        return out

    def _delta_owner(self, eff: Effect, args: dict, scope: Scope) -> str:
        """Whose resources a primitive moves, relative to the owner: the player it names (draw's p, change_hp's
        p), or whose cards it moves."""
        mv = eff.moves
        if mv is not None and (mv.gainer or mv.owner) in args:
            return self.relation(args[mv.gainer or mv.owner], scope)
        if mv is not None and mv.cards in args:
            return self.owner_rel(args[mv.cards], scope)
        return self.relation(args["p"], scope) if "p" in args else "any"

    def _moved(self, eff: Effect, args: dict, out: BodyFacts, scope: Scope, owner: bool) -> None:
        """The `moved` window a move opens: the fields its event can carry (who loses cards only when they
        can come from a hand or an equipment area) and the constants it binds (where they go, where from)."""
        mv = eff.moves
        cards = args.get(mv.cards) if mv.cards is not None else None
        came = self.zones_of(cards, scope) if cards is not None else frozenset({("const", "'draw'")})
        fields = set(_ALWAYS)
        for f, zones in _LOST.items():
            if came is None or any(z in came for z in zones):
                fields.add(f)
        values = set()
        to = self._zone_arg(mv.to, args)
        if to is not None:
            values.add(("to", to))
        if came is not None and len(came) == 1:
            values.add(("from_zone", next(iter(came))))
        gainer = mv.gainer or (mv.owner if to == HAND else None)
        if gainer is not None and gainer in args or to is None:
            fields.add("gainer")
        rels = self._moved_rels(mv, args, scope, to) if owner else frozenset()
        out.opens.add(OpenSite(self.moved, "any", frozenset(fields), frozenset(values), rels, chance=scope.chance))
        if self.moving is not None and cards is not None:  # cards in no zone yet (drawn) pass no window before
            out.opens.add(OpenSite(self.moving, "any", frozenset(fields | {"by", "discarding"}), frozenset(values), rels,
                                   chance=scope.chance))
        if owner and scope.depth == 0 and cards is not None and self.chosen(cards, scope) and to not in (HAND, None) \
                and self.owner_rel(cards, scope) == "self" and came is not None and came <= {HAND, EQUIP}:
            out.spends.add("cards")  # every run gives up a card of its owner's, or cannot run
        key = zone_key(cards) if cards is not None else None
        if key is not None and to is not None:  # from now on the body knows where those cards lie
            scope.zones[key] = frozenset({to})

    def chosen(self, e, scope: Scope) -> bool:
        """A card the owner must choose (a `choose` of one card, or of at least one): with none to choose the
        skill is abandoned."""
        if isinstance(e, ast.NameRef):
            return e.text in scope.chosen
        return isinstance(e, ast.Choose) and (e.kind == "card" or (
            e.kind == "cards" and isinstance(e.lo, ast.IntLit) and e.lo.value >= 1))

    def _zone_of(self, e):
        return self._zone_arg("param:zone", {"zone": e})

    def _zone_arg(self, to: str, args: dict):
        if not to.startswith("param:"):
            return ("const", repr(to))
        e = args.get(to.split(":", 1)[1])
        if e is None:
            return None
        k = self.cond.const(e)
        if k is not None:
            return k
        note = self.m.analysis.refs.get(e)
        return ("pile", note.name) if getattr(note, "kind", None) == "pile" else None

    def _moved_rels(self, mv, args: dict, scope: Scope, to) -> frozenset:
        """Who gains and who loses the cards a move moves, relative to the owner."""
        out = {}
        gainer = mv.gainer or (mv.owner if to in (HAND, None) else None)
        if gainer is not None and gainer in args:
            out["gainer"] = self.relation(args[gainer], scope)
        if mv.cards is not None and mv.cards in args:
            out["loser"] = self.owner_rel(args[mv.cards], scope)
            if mv.owner is not None and mv.to == "equip" and mv.owner in args:
                out["loser"] = self.relation(args[mv.owner], scope)  # equip: from its owner's hand
        return frozenset((k, r) for k, r in out.items() if r != "any")

    def _add_hooks(self, out: BodyFacts, card: str, paid: bool = False, chance: bool = False) -> None:
        h = self.hooks.get(card)
        if h is not None:
            self._read(("hook", card))
            out.opens |= tagged({OpenSite(w, "any", None) for w in h.own_opens} | h.opens, paid, chance)
            out.state |= h.state
            out.calls |= h.calls
            out.deltas |= {(r, d, p or paid, w) for r, d, p, w in h.deltas}
            out.resets |= h.resets

    def _addon_cards(self) -> frozenset[str]:
        """Cards dealt only by a deck a run adds (`--deck 势备篇`): not in the default tables the checks judge, so
        the play phase of a mode does not use them (a card in no deck at all, a designer's, still counts)."""
        got = getattr(self, "_addons", None)
        if got is None:
            m = self.m
            own = {id(m.decks[n.text]) for mode in m.unique(m.modes) for n in mode.decks if n.text in m.decks}
            dealt, added = set(), set()
            for d in m.unique(m.decks):
                ids = {m.cards[e.card.text].id.text for e in d.entries if e.card.text in m.cards}
                (dealt if id(d) in own or not d.modes else added).update(ids)
            got = self._addons = frozenset(added - dealt)
        return got

    def _cards_named(self, e) -> set[str] | None:
        """The card ids `xs where it is X or it is Y` can hold (None: any card)."""
        if not isinstance(e, ast.Filter) or e.binder is not None:
            return None
        out: set[str] = set()
        todo = [e.pred]
        while todo:
            x = todo.pop()
            if isinstance(x, ast.BoolOp) and x.op == "or":
                todo.extend(x.items)
            elif isinstance(x, ast.Compare) and x.op == "is" and is_name(x.left, "it") and \
                    isinstance(x.right, ast.NameRef) and x.right.text in self.m.cards:
                top = self.m.cards[x.right.text]
                out |= {c.id.text for c in self.m.unique(self.m.cards) if self._kind_of(c, top)}
            else:
                return None
        return out

    def _kind_of(self, c: ast.CardDecl, top: ast.CardDecl) -> bool:
        seen = set()
        while c is not None and c.id.text not in seen:
            if c is top:
                return True
            seen.add(c.id.text)
            c = self.m.cards.get(c.parent.text) if c.parent is not None else None
        return False

    def _play_phase(self, out: BodyFacts, cards: set[str] | None = None) -> None:
        use = self.m.role_target("use")
        if cards is not None and isinstance(use, ast.FlowDecl) and use.id.text in self.flows:
            for cid in sorted(cards):  # `ask_use(p, xs where it is 酒)`: the use flow of those cards, from a hand
                summ = self.special(use.id.text, cid)
                out.opens |= {OpenSite(w, "any", None, frozenset({("card", ("card", cid))}), paid=True)
                              for w in summ.own_opens} | tagged(summ.opens, True, False)
                out.state |= summ.state
                self._add_hooks(out, cid, paid=True)
            return
        if isinstance(use, ast.FlowDecl) and use.id.text in self.flows:
            self._read(("flow", use.id.text))
            s = self.flows[use.id.text]
            out.opens |= {OpenSite(w, "any", None) for w in s.own_opens} | s.opens
            out.state |= s.state
        addons = self._addon_cards()
        for cid, h in self.hooks.items():
            if cards is not None and cid not in cards or cid in addons:
                continue
            self._read(("hook", cid))
            out.opens |= {OpenSite(w, "any", None) for w in h.own_opens} | h.opens
            out.state |= h.state
            out.deltas |= h.deltas

