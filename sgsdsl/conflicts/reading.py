"""Who and what an expression of a body names, relative to the rule's owner: the player (self, other or
any), whose cards, which card when it is known by name, whether it is chance or a card from a hand, which
zones its cards lie in; and what state a `when` reads."""

from __future__ import annotations

from ..lang import ast
from ..lang.analysis import AttrNote, CallNote
from ..lang.tree import conjuncts, event_path, is_name, walk_of
from .bodyfacts import BodyFacts, Scope, neq_self

RANDOM_FUNCS = ("reveal_top", "random")  # their outcome is chance: a card from the shuffled pile, a random pick
CARD_ZONES = ("hand", "cards", "equips", "judges", "all_cards", "weapon", "armor", "plus_horse", "minus_horse",
              "treasure")
_EQUIP_ATTRS = ("equips", "weapon", "armor", "plus_horse", "minus_horse", "treasure")
# The zones a player's card attribute lies in (keys as Conditions.const gives the zone constants).
HAND, EQUIP, JUDGE = ("const", "'hand'"), ("const", "'equip'"), ("const", "'judge'")
ZONES_OF_ATTR = {"hand": frozenset({HAND}), "cards": frozenset({HAND, EQUIP}),
                 "all_cards": frozenset({HAND, EQUIP, JUDGE}), "judges": frozenset({JUDGE}),
                 **dict.fromkeys(_EQUIP_ATTRS, frozenset({EQUIP}))}
_ZONE_NODES = (ast.Attr, ast.NameRef)
_RANDOM_NODES = (ast.NameRef, ast.Call)
_STATE_NODES = (ast.Attr, ast.NameRef, ast.Call)
_PASS_THROUGH = ("first", "last", "reverse", "distinct", "random")  # a card list's elements, as they lie
_IN_ZONE_ARG = ("cards_in",)  # builtins listing the cards of the zone their argument names

# Player (and card) attributes -> the state category a `when` reads through them.
STATE_OF_ATTR: dict[str, str] = {
    **dict.fromkeys(("hp", "max_hp", "lost_hp", "wounded", "dying"), "hp"),
    **dict.fromkeys(("alive", "dead", "next", "prev"), "alive"),
    **dict.fromkeys(("hand", "hand_count", "equips", "judges", "cards", "all_cards", "card_count", "weapon",
                     "armor", "plus_horse", "minus_horse", "treasure", "zone", "owner"), "cards"),
    "flipped": "flipped", "chained": "chained", "identity": "identity", "identity_shown": "identity",
    "away": "alive",
}
STATE_OF_FUNC = {"others": "alive", "seat_distance": "alive", "is_lord": "identity", "has_skill": "skills",
                 "ongoing": "stack"}
STATE_OF_CONTEXT = {"players": "alive", "all_players": "alive", "current": "turn"}


def zone_key(e) -> tuple | None:
    """The key under which Scope.zones knows an expression's cards: an event path or a local."""
    p = event_path(e)
    if p is not None:
        return ("event",) + p
    return ("local", e.text) if isinstance(e, ast.NameRef) else None


class Reading:
    """The part of the Analyzer (bodies.py) that reads what an expression names."""

    field_zones: dict = {}  # (event type, field) -> the zones its cards lie in, when every writer says (join_zones)

    def join_zones(self, bodies) -> dict:
        """(event type, field) -> zones, for the fields whose every writer (a flow, a rule, a call binding it)
        puts cards of known zones there; a field some writer fills from anywhere is left out."""
        out: dict = {}
        for b in bodies:
            for ev, f, zones in b.placed:
                k = (ev, f)
                out[k] = None if zones is None or out.get(k, frozenset()) is None else out.get(k, frozenset()) | zones
        return {k: v for k, v in out.items() if v}

    def relation(self, e, scope: Scope) -> str:
        if is_name(e, "self"):
            return "self"
        p = event_path(e)
        if p is not None and len(p) == 1 and p[0] in scope.event_rel:
            return scope.event_rel[p[0]]
        if isinstance(e, ast.NameRef):
            if e.text == "target":
                return scope.target_rel
            return scope.rel.get(e.text, "any")
        if isinstance(e, ast.Index) and is_name(e.obj, "targets"):
            return scope.target_rel
        if isinstance(e, ast.Choose) and e.kind == "player":
            if (e.source is not None and self.excludes_self(e.source, scope)) or neq_self(e.where):
                return "other"
        return "any"

    def excludes_self(self, e, scope: Scope) -> bool:
        if isinstance(e, ast.Call) and is_name(e.func, "others") and e.args and is_name(e.args[0].value, "self"):
            return True
        if isinstance(e, ast.Filter):
            return self.excludes_self(e.source, scope) or neq_self(e.pred)
        if isinstance(e, ast.ListLit):
            return bool(e.items) and all(self.relation(x, scope) == "other" for x in e.items)
        if is_name(e, "targets"):
            return scope.target_rel == "other"
        return False

    def owner_rel(self, e, scope: Scope) -> str:
        """Whose cards an expression takes, relative to the rule's owner."""
        if isinstance(e, ast.NameRef):
            return scope.owner.get(e.text, "any")
        rels = set()
        for n in walk_of(e, _ZONE_NODES):
            if isinstance(n, ast.Attr) and n.name.text in CARD_ZONES:
                rels.add(self.relation(n.obj, scope))
            elif isinstance(n, ast.NameRef) and n.text in scope.owner:
                rels.add(scope.owner[n.text])
        return rels.pop() if len(rels) == 1 else "any"

    def zones_of(self, e, scope: Scope) -> frozenset | None:
        """The zones the cards of an expression can lie in (None: any): a player's hand or equipment, a
        filter or choice on `it.zone == Z`, what a `when` or an `if` says of it, where a move put it."""
        key = zone_key(e)
        if key is not None and key in scope.zones:
            return scope.zones[key]
        if key is not None and key[0] == "event" and len(key) == 2 and scope.event is not None:
            return self.field_zones.get((scope.event, key[1]))  # where every writer of that field put its cards
        match e:
            case ast.Attr() if e.name.text in ZONES_OF_ATTR and len(event_path(e) or "ab") > 1:  # not `event.cards`
                return ZONES_OF_ATTR[e.name.text]
            case ast.Attr():
                note = self.m.analysis.refs.get(e)
                if isinstance(note, AttrNote) and note.kind == "pile":
                    return frozenset({("pile", note.name)})
            case ast.Filter():
                said = self.zone_test(e.pred, e.binder.text if e.binder is not None else "it")
                return said if said is not None else self.zones_of(e.source, scope)
            case ast.Choose() if e.kind in ("card", "cards"):
                said = self.zone_test(e.where, "it") if e.where is not None else None
                if said is not None:
                    return said
                return self.zones_of(e.source, scope) if e.source is not None else None
            case ast.Index():
                return self.zones_of(e.obj, scope)
            case ast.ListLit() if e.items:
                parts = [self.zones_of(x, scope) for x in e.items]
                return None if any(p is None for p in parts) else frozenset().union(*parts)
            case ast.Call() if isinstance(e.func, ast.NameRef) and e.args:
                if e.func.text in _PASS_THROUGH:
                    return self.zones_of(e.args[0].value, scope)
                from ..lang.surface import FUNCS

                f = FUNCS.get(e.func.text)
                if f is not None and f.effect is not None and f.effect.card_in is not None:
                    return frozenset({("const", repr(f.effect.card_in))})
                if e.func.text in _IN_ZONE_ARG:  # `cards_in(discard_pile)`: the cards of the zone it names
                    k = self.cond.const(e.args[0].value)
                    return frozenset({k}) if k is not None else None
        return None

    def zone_test(self, pred, name: str) -> frozenset | None:
        """The zones a conjunct `NAME.zone == Z` (or `in [Z, …]`) pins, else None."""
        for c in conjuncts(pred):
            got = self.zone_pin(c)
            if got is not None and is_name(got[0], name):
                return got[1]
        return None

    def zone_pin(self, c) -> tuple | None:
        """(expression, zones) for a conjunct `E.zone == Z` or `E.zone in [Z, …]`, else None."""
        if not isinstance(c, ast.Compare) or c.op not in ("==", "in"):
            return None
        for a, b in ((c.left, c.right), (c.right, c.left)):
            if isinstance(a, ast.Attr) and a.name.text == "zone":
                items = b.items if c.op == "in" and isinstance(b, ast.ListLit) else (b,) if c.op == "==" else ()
                ks = [self.cond.const(x) for x in items]
                if ks and all(k is not None for k in ks):
                    return a.obj, frozenset(ks)
            if c.op == "in":
                break
        return None

    def pin_zones(self, e, scope: Scope) -> dict:
        """What the conjuncts of a `when` or an `if` test say of where cards lie: {zone key: zones}."""
        out = {}
        for c in conjuncts(e):
            got = self.zone_pin(c)
            if got is not None and (k := zone_key(got[0])) is not None:
                out[k] = got[1]
        return out

    def is_paid(self, e, scope: Scope) -> bool:
        """A card asked from a player's hand: using it spends the card."""
        if isinstance(e, ast.NameRef):
            return e.text in scope.paid
        return isinstance(e, ast.Call) and is_name(e.func, "ask_card")

    def is_random(self, e, scope: Scope) -> bool:
        """Does a value depend on chance (a card revealed from the pile, a random pick)?"""
        for n in walk_of(e, _RANDOM_NODES):
            if isinstance(n, ast.NameRef) and n.text in scope.random:
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.NameRef):
                if n.func.text in RANDOM_FUNCS:
                    return True
                note = self.m.analysis.refs.get(n)
                if isinstance(note, CallNote) and note.kind == "flow" and note.target in self.flows:
                    self._read(("flow", note.target))
                if isinstance(note, CallNote) and note.kind == "flow" and self.flows.get(note.target, BodyFacts()).random:
                    return True
        return False

    def skill_set(self, e, scope: Scope) -> set[str]:
        """The skills an expression can name: a skill by name ({id}), the skills of a type a filter asks for
        (`p.skills where it.limited`: {"type:limited"}), or any ({"*"})."""
        if isinstance(e, ast.NameRef):
            sk = self.m.skills.get(e.text)
            if sk is not None:
                return {sk.id.text}
            return set(scope.skillsets.get(e.text, {"*"}))
        if isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.func.text in _PASS_THROUGH and e.args:
            return self.skill_set(e.args[0].value, scope)
        if isinstance(e, ast.Filter):
            types = {f"type:{c.name.text}" for c in conjuncts(e.pred) if isinstance(c, ast.Attr)
                     and c.name.text in ("limited", "awaken", "locked", "lord", "formation", "queue", "siege") and is_name(c.obj, "it")}
            return types or self.skill_set(e.source, scope)
        return {"*"}

    def _skill_arg(self, c: ast.Call) -> str:
        """The id of the skill a call names as its second argument, or "*" when it is not a constant."""
        arg = c.args[1].value if len(c.args) > 1 else None
        sk = self.m.skills.get(arg.text) if isinstance(arg, ast.NameRef) else None
        return sk.id.text if sk is not None else "*"

    def _new_card(self, e: ast.New, scope: Scope) -> str | None:
        return next((self.known_card(a.value, scope) for a in e.args if a.name is not None and a.name.text == "card"),
                    None)

    def card_test(self, c, scope: Scope):
        """True/False when a conjunct tests a known card's kind or name (`event.card.kind == trick`,
        `event.card is 杀`), else None."""
        if not isinstance(c, ast.Compare) or c.op not in ("==", "!=", "is"):
            return None
        for a, b in ((c.left, c.right), (c.right, c.left)):
            if c.op == "is":
                card, k = self.known_card(a, scope), self.cond.const(b)
                if card is not None and k is not None and k[0] == "value":
                    return k == ("value", id(self.m.cards[card]))
            elif isinstance(a, ast.Attr) and a.name.text == "kind":
                card, k = self.known_card(a.obj, scope), self.cond.const(b)
                if card is not None and k is not None:
                    return (k == ("const", repr(self.m.cards[card].kind))) == (c.op == "==")
        return None

    def known_card(self, e, scope: Scope) -> str | None:
        if isinstance(e, ast.Attr) and e.name.text == "card":
            holder = "event" if is_name(e.obj, "event") else e.obj.text if isinstance(e.obj, ast.NameRef) else None
            return scope.events.get(holder)
        if isinstance(e, ast.NameRef):
            return scope.cards.get(e.text)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.NameRef) and e.args:
            if e.func.text in ("virtual", "ask_card"):
                i = 0 if e.func.text == "virtual" else 1
                arg = e.args[i].value if len(e.args) > i else None
                if isinstance(arg, ast.NameRef):
                    card = self.m.cards.get(arg.text)
                    if card is not None:
                        return card.id.text
        return None

    # -- what a `when` reads
    def state_reads(self, e) -> frozenset[str]:
        if e is None:
            return frozenset()
        key = id(e)
        if key not in self._state_memo:
            self._state_memo[key] = self._state_reads(e)
        return self._state_memo[key]

    def _state_reads(self, e) -> frozenset[str]:
        out: set[str] = set()
        for n in walk_of(e, _STATE_NODES):
            if isinstance(n, ast.Attr):
                note = self.m.analysis.refs.get(n)
                p = event_path(n)
                if isinstance(note, AttrNote) and note.kind == "mark":
                    out.add(f"mark:{note.name}")
                elif n.name.text in STATE_OF_ATTR and (p is None or len(p) > 1):
                    out.add(STATE_OF_ATTR[n.name.text])
            elif isinstance(n, ast.NameRef) and n.text in STATE_OF_CONTEXT:
                out.add(STATE_OF_CONTEXT[n.text])
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.NameRef):
                if n.func.text in STATE_OF_FUNC:
                    out.add(STATE_OF_FUNC[n.func.text])
                q = self.m.quantities.get(n.func.text)
                if q is not None:
                    out |= self.quantity_reads(q.id.text)
        return frozenset(out)

    def quantity_reads(self, qid: str) -> frozenset[str]:
        """State a quantity's base reads (quantities it calls included)."""
        if qid in self._quantity_memo:
            return self._quantity_memo[qid]
        self._quantity_memo[qid] = frozenset()  # a quantity that calls itself adds nothing more
        q = self.m.quantities.get(qid)
        out = set(self.state_reads(q.base)) if q is not None else set()
        self._quantity_memo[qid] = frozenset(out)
        return self._quantity_memo[qid]


    def _rels(self, bound: dict, scope: Scope) -> frozenset:
        out = set()
        for k, v in bound.items():
            r = self.relation(v, scope)
            if r != "any":
                out.add((k, r))
        return frozenset(out)

    def _values(self, bound: dict) -> frozenset:
        out = set()
        for k, v in bound.items():
            c = self.cond.const(v)
            if c is not None:
                out.add((k, c))
        return frozenset(out)
