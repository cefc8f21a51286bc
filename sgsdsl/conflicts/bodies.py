"""What a body does: the windows it can open (with what it binds), the state it changes and in
which direction, the fields it reads and writes. Flows and card hooks are summarised once (a fixed
point over calls, which rescans only the bodies that read a summary that grew), and again for a known
card (the 桃 the 濒死 flow asks for). A variant package's pass takes over the summaries of the default
pass when the variant redeclares none of the names they looked up (Summaries): nothing is kept
between runs, since the summaries hold the nodes of this process's trees.

The model of the engine that the checks need is small and lives at the top of this file: which
primitives move cards (and so open the window bound to the `moved` role, with which of its fields
set) and which player state each primitive changes. No rule is named here.
"""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.model import SCOPED, Model
from ..lang.tree import conjuncts, event_path, is_name, walk_of
from ..lang.typecheck import AttrNote, CallNote
from . import progress
from .conditions import Conditions

# ---- the engine's primitives, as far as the checks need them ------------------------------

# Card-moving primitives open the `moved` window. The fields of the event they can set
# (the rest stay none/0): a `when` that needs another field cannot hold for that event.
MOVED_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset({"cards", "gainer", "to"}),
    "gain": frozenset({"cards", "gainer", "loser", "lost_hand", "lost_equip", "to"}),
    "discard": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
    "put": frozenset({"cards", "gainer", "loser", "lost_hand", "lost_equip", "to"}),
    "put_bottom": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
    "equip": frozenset({"cards", "loser", "lost_hand", "lost_equip", "to"}),
}

# Player state each primitive changes (categories of `STATE_OF_ATTR`).
PRIMITIVE_STATE: dict[str, frozenset[str]] = {
    **{p: frozenset({"cards"}) for p in MOVED_FIELDS},
    "reveal_top": frozenset({"cards"}),
    "change_hp": frozenset({"hp"}),
    "adjust_max_hp": frozenset({"hp"}),
    "kill": frozenset({"alive", "hp"}),
    "flip": frozenset({"flipped"}),
    "set_chained": frozenset({"chained"}),
    "reveal_identity": frozenset({"identity"}),
    "add_skill": frozenset({"skills"}),
    "remove_skill": frozenset({"skills"}),
    "skip": frozenset({"phase"}),
    "give_turn": frozenset({"turn"}),
    "deal_identities": frozenset({"identity"}),
    "pick_hero": frozenset({"hero", "skills", "hp"}),
    "set_hero": frozenset({"hero", "skills", "hp"}),
    "play_phase": frozenset({"cards", "hp", "alive"}),
    "ask_use": frozenset({"cards", "hp", "alive"}),
}
# The nodes each walk below looks at (walk_of keeps them per subtree: the same bodies are scanned in
# every round of the summaries and in every pass).
_EXPR_NODES = (ast.Attr, ast.Call, ast.New)
_ZONE_NODES = (ast.Attr, ast.NameRef)
_RANDOM_NODES = (ast.NameRef, ast.Call)
_STATE_NODES = (ast.Attr, ast.NameRef, ast.Call)

HOOK_PRIMITIVES = ("card_effect", "card_before", "card_after")
RANDOM_FUNCS = ("reveal_top", "random")  # their outcome is chance: a card from the shuffled pile, a random pick
RESET_LIMIT = "reset_limit"
CARD_ZONES = ("hand", "cards", "equips", "judges", "all_cards", "weapon", "armor", "plus_horse", "minus_horse")

# Player (and card) attributes -> the state category a `when` reads through them.
STATE_OF_ATTR: dict[str, str] = {
    **dict.fromkeys(("hp", "max_hp", "lost_hp", "wounded", "dying"), "hp"),
    **dict.fromkeys(("alive", "dead", "next", "prev"), "alive"),
    **dict.fromkeys(("hand", "hand_count", "equips", "judges", "cards", "all_cards", "card_count", "weapon",
                     "armor", "plus_horse", "minus_horse", "zone", "owner"), "cards"),
    "flipped": "flipped", "chained": "chained", "identity": "identity", "identity_shown": "identity",
}
STATE_OF_FUNC = {"others": "alive", "seat_distance": "alive", "is_lord": "identity", "has_skill": "skills",
                 "ongoing": "stack"}
STATE_OF_CONTEXT = {"players": "alive", "all_players": "alive", "current": "turn"}


@attrs.frozen
class OpenSite:
    """A window a body can open: `rel` is the window's subject relative to the rule's owner
    (self, other or any), `fields` the event fields that can be set (None: any)."""

    window: str  # window id
    rel: str = "any"
    fields: frozenset[str] | None = None
    values: frozenset = frozenset()  # (field, constant) bound at the call site; a known card is ("card", id)
    rels: frozenset = frozenset()  # (field, self/other): player fields bound relative to the owner
    paid: bool = False  # opened only through a card used from a hand (it leaves the hand)
    chance: bool = False  # opened only if a judgment (a card revealed from the pile) comes out one way
    passes: frozenset = frozenset()  # (field, own field): the call passes on a field of the rule's own event

    def value(self, field: str):
        return next((v for f, v in self.values if f == field), None)

    def rel_of(self, field: str) -> str:
        return next((r for f, r in self.rels if f == field), "any")


@attrs.define
class BodyFacts:
    writes: list = attrs.Factory(list)  # (field, op, value, Assign) on the body's own event
    reads: set = attrs.Factory(set)  # own event fields read
    own_opens: list = attrs.Factory(list)  # window ids opened on the body's own event
    opens: set = attrs.Factory(set)  # OpenSite
    state: set = attrs.Factory(set)  # state categories changed
    hooks: bool = False  # runs the card hooks of its event's card
    escapes: bool = False  # passes its own event on (to a flow, a hook or a `new` event)
    calls: set = attrs.Factory(set)  # flow ids and primitive names called
    marks: set = attrs.Factory(set)  # counters and marks assigned
    deltas: set = attrs.Factory(set)  # (resource, direction, paid): see progress.py
    random: bool = False  # reveals cards from the pile or picks at random: its outcome is chance
    resets: set = attrs.Factory(set)  # skills whose use limits `reset_limit` gives back ("*": any)


@attrs.define
class Scope:
    rel: dict = attrs.Factory(dict)  # local -> self/other/any
    owner: dict = attrs.Factory(dict)  # local holding cards -> whose they are (self/other/any)
    cards: dict = attrs.Factory(dict)  # local -> card id known statically
    target_rel: str = "any"
    event_rel: dict = attrs.Factory(dict)  # event field -> self/other, as the `when` pins it
    paid: set = attrs.Factory(set)  # locals holding a card asked from a hand (`ask_card`)
    random: set = attrs.Factory(set)  # locals holding a chance outcome (a judgment)
    chance: bool = False  # inside a branch taken on a chance outcome
    events: dict = attrs.Factory(dict)  # "event", or a local holding events -> the card they carry, if known


class Analyzer:
    """Scans bodies; flows and card hooks are summarised once (a fixed point over calls)."""

    SKIP_UNCHANGED = True  # _summarise skips the bodies whose inputs did not change (off: every body, every round)

    def __init__(self, model: Model, base: Summaries | None = None):
        """`base`: the summaries of the same build seen with no variant package (Summaries.of), reused
        when this view differs from that one in nothing they looked up."""
        self.m = model
        self.cond = Conditions(model)
        moved = model.role_target("moved")
        self.moved = moved.id.text if isinstance(moved, ast.WindowDecl) else None
        self.flows: dict[str, BodyFacts] = {}
        self.hooks: dict[str, BodyFacts] = {}
        self._state_memo: dict[int, frozenset] = {}
        self._quantity_memo: dict[str, frozenset] = {}
        self._special: dict[tuple[str, str], BodyFacts] = {}  # (flow, card): its summary for that card
        # What a scan read, for _summarise to skip the bodies whose inputs did not change (see there).
        self._version: dict[tuple, int] = {}  # ("flow", id) or ("hook", card id) -> times its summary grew
        self._frames: list[tuple[dict, list]] = []  # per scan in progress: (summary key -> version read, specials)
        self._busy: set = set()  # special keys being computed
        self._special_deps: dict[tuple[str, str], dict] = {}
        self._latest: dict[tuple[str, str], tuple] = {}  # special key -> (its last value, what it read)
        if base is not None and base.fits(model):
            self.flows, self.hooks = base.flows, base.hooks
            self._special = dict(base.special)
            return
        seen = _Lookups(model)
        self.m = self.cond.m = seen  # what the summaries read of the tables a variant can overlay
        try:
            self._summarise()
        finally:
            self.m = self.cond.m = model
        self.summaries = Summaries(model.current, seen, self.flows, self.hooks, dict(self._special))

    # -- summaries of flows and card hooks
    def _summarise(self) -> None:
        """Rounds over every flow and card hook until no summary grows. A body is rescanned only when a
        summary it read has grown since its last scan: otherwise its scan would read the same values, give
        the same result and change nothing, so skipping it keeps every summary exactly as the full rounds
        make it. The specials (a flow's summary for a known card) are recomputed each round, from the
        summaries as they are when first asked for; a skipped body puts back the ones its scan would have
        computed (they read nothing that changed, so they are the same), so later bodies see what they
        would have seen."""
        flows = self.m.unique(self.m.flows)
        cards = self.m.unique(self.m.cards)
        for f in flows:
            self.flows[f.id.text] = BodyFacts()
            self._version[("flow", f.id.text)] = 0
        for c in cards:
            self.hooks[c.id.text] = BodyFacts()
            self._version[("hook", c.id.text)] = 0
        bodies = [(("flow", f.id.text), [f.body], f.event.text) for f in flows]
        for c in cards:
            hooks = self.card_hooks(c)
            if hooks:
                bodies.append((("hook", c.id.text), [b for _, b in hooks], None))
        last: dict[int, tuple] = {}  # body index -> (what its last scan read, the specials it used)
        for _ in range(30):  # monotone: stops as soon as nothing grows
            changed = False
            self._special.clear()  # recomputed from this round's summaries
            self._special_deps.clear()
            for i, (key, blocks, event) in enumerate(bodies):
                seen = last.get(i)
                if seen is not None and self.SKIP_UNCHANGED and all(self._version[k] == v for k, v in seen[0].items()):
                    for k in seen[1]:
                        if k not in self._special:
                            self._special[k], self._special_deps[k] = self._latest[k]
                    continue
                self._frames.append(({}, []))
                new = self.scan(blocks, own_event=event, owner=False)
                last[i] = self._frames.pop()
                into = self.flows[key[1]] if key[0] == "flow" else self.hooks[key[1]]
                if _merge(into, new):
                    self._version[key] += 1
                    changed = True
            if not changed:
                break

    def _read(self, key: tuple) -> None:
        """Note that the scan in progress reads a summary (flows and hooks: their keys never change)."""
        if self._frames:
            deps = self._frames[-1][0]
            v = self._version[key]
            if deps.get(key, v) >= v:
                deps[key] = v

    def _reads(self, deps: dict) -> None:
        if self._frames:
            mine = self._frames[-1][0]
            for k, v in deps.items():
                if mine.get(k, v) >= v:
                    mine[k] = v

    def card_hooks(self, c: ast.CardDecl) -> tuple:
        """A card's hooks: its own, and for `is P` those of P it does not declare (火杀 settles as 杀)."""
        hooks, seen = list(c.hooks), {c.id.text}
        while c.parent is not None and (p := self.m.cards.get(c.parent.text)) is not None and p.id.text not in seen:
            seen.add(p.id.text)
            hooks += [h for h in p.hooks if h[0] not in {k for k, _ in hooks}]
            c = p
        return tuple(hooks)

    def flow_fields(self, fid: str, bound: set[str]) -> frozenset[str]:
        """Fields of a flow's own event that can be set when it is called binding `bound`."""
        f = self.m.flows[fid]
        ev = self.m.events.get(f.event.text)
        self._read(("flow", fid))
        out = set(bound) | {w[0] for w in self.flows[fid].writes}
        for fd in ev.fields if ev else ():
            if fd.default is not None and not is_name(fd.default, "none") and not is_name(fd.default, "false"):
                out.add(fd.name.text)
        return frozenset(out)

    def special(self, fid: str, card: str) -> BodyFacts:
        """A flow's summary when its event's card is known (a 桃 used in the 濒死 flow): the branches that
        test the card's kind or name another way (`if event.card.kind == trick`) are left out."""
        key = (fid, card)
        if not self._frames:  # not inside _summarise: nothing to note
            if key not in self._special:
                self._special[key] = self.flows[fid]  # while it is computed, a call of itself sees the general one
                f = self.m.flows[fid]
                self._special[key] = self.scan([f.body], own_event=f.event.text, owner=False, card=card)
            return self._special[key]
        if key not in self._special:
            self._read(("flow", fid))
            self._special[key] = self.flows[fid]
            f = self.m.flows[fid]
            self._busy.add(key)
            self._frames.append(({}, []))
            value = self.scan([f.body], own_event=f.event.text, owner=False, card=card)
            deps, used = self._frames.pop()
            self._busy.discard(key)
            self._special[key] = value
            self._special_deps[key] = deps
            self._latest[key] = (value, deps)
            self._reads(deps)
            self._frames[-1][1].extend(used)
            self._frames[-1][1].append(key)
        elif key in self._busy:
            self._read(("flow", fid))
        else:
            self._reads(self._special_deps.get(key, {}))
            self._frames[-1][1].append(key)
        return self._special[key]

    # -- scanning a body
    def scan(self, blocks, own_event: str | None, owner: bool, target_rel: str = "any", when=None,
             card: str | None = None) -> BodyFacts:
        out = BodyFacts()
        scope = Scope(target_rel=target_rel)
        if card is not None:
            scope.events["event"] = card
        if owner and when is not None:
            scope.event_rel = dict.fromkeys(_pinned(when), "self") | dict.fromkeys(_pinned(when, "!="), "other")
        for b in blocks:
            if b is None:
                continue
            self._stmts(b.stmts if isinstance(b, ast.Block) else [b], out, scope, owner)
        return out

    def _stmts(self, stmts, out: BodyFacts, scope: Scope, owner: bool) -> None:
        for s in stmts:
            self._stmt(s, out, scope, owner)

    def _stmt(self, s, out: BodyFacts, scope: Scope, owner: bool) -> None:  # noqa: C901
        match s:
            case ast.Let():
                self._expr(s.value, out, scope, owner)
                scope.rel[s.name.text] = self.relation(s.value, scope) if owner else "any"
                if owner:
                    scope.owner[s.name.text] = self.owner_rel(s.value, scope)
                card = self.known_card(s.value, scope)
                if card is not None:
                    scope.cards[s.name.text] = card
                if self.is_paid(s.value, scope):
                    scope.paid.add(s.name.text)
                if self.is_random(s.value, scope):
                    scope.random.add(s.name.text)
            case ast.Assign():
                self._expr(s.value, out, scope, owner)
                p = event_path(s.target)
                if p is not None and len(p) == 1 and isinstance(s.value, ast.New):
                    carried = self._new_card(s.value, scope)  # `event.aims += new aim(card: event.card)`
                    if carried is not None:
                        scope.events[("list", p[0])] = carried
                if p is not None and len(p) == 1:
                    out.writes.append((p[0], s.op, s.value, s))
                    if s.op != "=":
                        out.reads.add(p[0])
                else:
                    if p is not None:  # `event.saver.mark -= 1`: the event names the player
                        out.reads.add(p[0])
                    note = self.m.notes.get(s.target)
                    if isinstance(note, AttrNote) and note.kind == "mark":
                        out.marks.add(note.name)
                        out.state.add(f"mark:{note.name}")
                        out.deltas |= {(r, d, False) for r, d in
                                       progress.assign_deltas(note.name, s.op, s.value, self.cond.const)}
                    if p is None and not isinstance(s.target, ast.NameRef):
                        self._expr(s.target, out, scope, owner)
            case ast.ExprStmt():
                self._expr(s.expr, out, scope, owner)
            case ast.If():
                truth = None
                for c in conjuncts(s.test):  # `and` stops at the first false conjunct: what follows never runs
                    self._expr(c, out, scope, owner)
                    truth = self.card_test(c, scope)
                    if truth is False:
                        break
                before = scope.chance
                scope.chance = before or self.is_random(s.test, scope)
                if truth is not False:
                    self._stmts(s.then.stmts, out, scope, owner)
                if s.other is not None and not (truth is True and len(conjuncts(s.test)) == 1):
                    self._stmts(s.other.stmts, out, scope, owner)
                scope.chance = before
            case ast.For():
                self._expr(s.iter, out, scope, owner)
                p = event_path(s.iter)
                if p is not None and len(p) == 1 and ("list", p[0]) in scope.events:
                    scope.events[s.var.text] = scope.events[("list", p[0])]
                if owner:
                    scope.rel[s.var.text] = "other" if self.excludes_self(s.iter, scope) else "any"
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.While():
                self._expr(s.test, out, scope, owner)
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.Repeat():
                self._expr(s.count, out, scope, owner)
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.PhaseStmt() | ast.Later():
                self._stmts(s.body.stmts, out, scope, owner)
            case ast.Open():
                w = self.m.windows.get(s.window.text)
                if w is None:
                    return
                if s.event is None or is_name(s.event, "event"):
                    out.own_opens.append(w.id.text)
                    if s.event is not None:
                        out.escapes = True
                else:
                    self._expr(s.event, out, scope, owner)
                    fields = None
                    if isinstance(s.event, ast.New):
                        note = self.m.notes.get(s.event)
                        if isinstance(note, CallNote):
                            fields = self._new_fields(s.event.event.text, {k for k, _ in note.args})
                    rel, values, rels = "any", frozenset(), frozenset()
                    if isinstance(s.event, ast.New):
                        bound = {a.name.text: a.value for a in s.event.args if a.name is not None}
                        values = self._values(bound)
                        rels = self._rels(bound, scope) if owner else frozenset()
                        if w.subject is not None:
                            rel = dict(rels).get(w.subject.text, "any")
                    out.opens.add(OpenSite(w.id.text, rel, fields, values, rels, chance=scope.chance))
            case ast.Log():
                for p in s.parts:
                    if isinstance(p, ast.Expr):
                        self._expr(p, out, scope, owner)

    def _new_fields(self, event: str, bound: set[str]) -> frozenset[str]:
        ev = self.m.events.get(event)
        out = set(bound)
        for fd in ev.fields if ev else ():
            if fd.default is not None and not is_name(fd.default, "none") and not is_name(fd.default, "false"):
                out.add(fd.name.text)
        return frozenset(out)

    def _expr(self, e, out: BodyFacts, scope: Scope, owner: bool) -> None:
        for n in walk_of(e, _EXPR_NODES):
            if isinstance(n, ast.Attr):
                p = event_path(n)
                if p is not None:
                    out.reads.add(p[0])
            elif isinstance(n, ast.Call):
                self._call(n, out, scope, owner)
            elif isinstance(n, ast.New):
                if any(is_name(a.value, "event") for a in n.args):
                    out.escapes = True

    def _call(self, c: ast.Call, out: BodyFacts, scope: Scope, owner: bool) -> None:
        note = self.m.notes.get(c)
        if not isinstance(note, CallNote) or not isinstance(c.func, ast.NameRef):
            return
        name = c.func.text
        if any(is_name(a.value, "event") for a in c.args):
            out.escapes = True
        if note.kind == "func":
            out.calls.add(name)
            out.state |= PRIMITIVE_STATE.get(name, frozenset())
            out.deltas |= {(r, d, False) for r, d in progress.call_deltas(name, c, self.cond.const)}
            out.random = out.random or name in RANDOM_FUNCS
            if name == RESET_LIMIT:
                out.resets.add(self._skill_arg(c))
            if name in MOVED_FIELDS and self.moved is not None:
                rels = self._moved_rels(name, c, scope) if owner else frozenset()
                out.opens.add(OpenSite(self.moved, "any", MOVED_FIELDS[name] - self._moved_not_lost(name, c, scope),
                                       frozenset(), rels, chance=scope.chance))
            if name in HOOK_PRIMITIVES:
                card = self.known_card(c.args[0].value, scope) if c.args else None
                if card is not None:
                    self._add_hooks(out, card, chance=scope.chance)
                else:
                    out.hooks = True
            if name in ("play_phase", "ask_use"):  # any card may be used: the use flow and every card's hooks
                self._play_phase(out, self._cards_named(c.args[1].value) if name == "ask_use" and
                                 len(c.args) > 1 else None)
        elif note.kind in ("flow", "run"):
            fid = note.target
            f = self.m.flows.get(fid)
            summ = self.flows.get(fid)
            if f is None or summ is None:
                return
            self._read(("flow", fid))
            out.calls.add(fid)
            if note.kind == "flow":
                bound = dict(note.args)
                fields = self.flow_fields(fid, {k for k, v in bound.items() if not is_name(v, "none")})
                card = self.known_card(bound["card"], scope) if "card" in bound else None
            else:
                bound, fields = {}, None
                arg = c.args[0].value if c.args else None
                card = scope.events.get(arg.text) if isinstance(arg, ast.NameRef) else \
                    self.known_card(ast.Attr(obj=arg, name=ast.Name(text="card", span=c.span), span=c.span), scope) \
                    if is_name(arg, "event") else None
            if card is not None:
                summ = self.special(fid, card)
            written = {w[0] for w in summ.writes}
            kept = {k: v for k, v in bound.items() if k not in written}
            values = self._values(kept) | {(k, ("card", cid)) for k, v in kept.items()
                                           if (cid := self.known_card(v, scope)) is not None}
            rels = self._rels(kept, scope) if owner else frozenset()
            paid = any(self.is_paid(v, scope) for k, v in bound.items() if k == "card")
            passes = frozenset((k, p[0]) for k, v in kept.items() if (p := event_path(v)) is not None and len(p) == 1)
            for wid in summ.own_opens:
                w = self.m.windows[wid]
                rel = dict(rels).get(w.subject.text, "any") if w.subject is not None else "any"
                out.opens.add(OpenSite(wid, rel, fields, values, rels, paid=paid, chance=scope.chance, passes=passes))
            out.opens |= _tagged(summ.opens, paid, scope.chance)
            out.state |= summ.state
            out.calls |= summ.calls
            out.deltas |= {(r, d, p or paid) for r, d, p in summ.deltas}
            out.resets |= summ.resets
            if summ.hooks:
                card = self.known_card(bound["card"], scope) if "card" in bound else None
                if card is not None:
                    self._add_hooks(out, card, paid, scope.chance)
        elif note.kind == "quantity":
            out.calls.add(note.target)

    def _rels(self, bound: dict, scope: Scope) -> frozenset:
        out = set()
        for k, v in bound.items():
            r = self.relation(v, scope)
            if r != "any":
                out.add((k, r))
        return frozenset(out)

    def _moved_rels(self, name: str, c: ast.Call, scope: Scope) -> frozenset:
        """Who gains and who loses the cards a moving primitive moves, relative to the owner."""
        args = [a.value for a in c.args if a.name is None]
        kw = {a.name.text: a.value for a in c.args if a.name is not None}
        out = {}
        if name in ("draw", "gain") and args:
            out["gainer"] = self.relation(args[0], scope)
        if name in ("gain", "discard") and len(args) > 1:
            out["loser"] = self.owner_rel(args[1], scope)
        if name in ("put", "put_bottom") and args:
            out["loser"] = self.owner_rel(args[0], scope)
        if name == "put" and (len(args) > 2 or "owner" in kw):
            out["gainer"] = self.relation(args[2] if len(args) > 2 else kw["owner"], scope)
        if name == "equip" and args:
            out["loser"] = self.relation(args[0], scope)
        return frozenset((k, r) for k, r in out.items() if r != "any")

    def _moved_not_lost(self, name: str, c: ast.Call, scope: Scope) -> frozenset:
        """The lost_hand/lost_equip field a moving primitive cannot set, when the cards it moves are read
        from hands only (`choose … from p.hand`) or from equipment only (`p.equips`, `p.armor` …)."""
        args = [a.value for a in c.args if a.name is None]
        i = {"gain": 1, "discard": 1, "put": 0, "put_bottom": 0}.get(name)
        if i is None or len(args) <= i:
            return frozenset()
        zones = set()
        for n in walk_of(args[i], _ZONE_NODES):
            if isinstance(n, ast.Attr) and n.name.text in CARD_ZONES:
                zones.add(n.name.text)
            elif isinstance(n, ast.NameRef) and n.text in scope.owner:
                return frozenset()  # cards held in a local: from wherever they came
        if zones == {"hand"}:
            return frozenset({"lost_equip"})
        if zones and zones <= {"equips", "weapon", "armor", "plus_horse", "minus_horse"}:
            return frozenset({"lost_hand"})
        return frozenset()

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

    def _values(self, bound: dict) -> frozenset:
        out = set()
        for k, v in bound.items():
            c = self.cond.const(v)
            if c is not None:
                out.add((k, c))
        return frozenset(out)

    def _add_hooks(self, out: BodyFacts, card: str, paid: bool = False, chance: bool = False) -> None:
        h = self.hooks.get(card)
        if h is not None:
            self._read(("hook", card))
            out.opens |= _tagged({OpenSite(w, "any", None) for w in h.own_opens} | h.opens, paid, chance)
            out.state |= h.state
            out.calls |= h.calls
            out.deltas |= {(r, d, p or paid) for r, d, p in h.deltas}
            out.resets |= h.resets

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
                              for w in summ.own_opens} | _tagged(summ.opens, True, False)
                out.state |= summ.state
                self._add_hooks(out, cid, paid=True)
            return
        if isinstance(use, ast.FlowDecl) and use.id.text in self.flows:
            self._read(("flow", use.id.text))
            s = self.flows[use.id.text]
            out.opens |= {OpenSite(w, "any", None) for w in s.own_opens} | s.opens
            out.state |= s.state
        for cid, h in self.hooks.items():
            if cards is not None and cid not in cards:
                continue
            self._read(("hook", cid))
            out.opens |= {OpenSite(w, "any", None) for w in h.own_opens} | h.opens
            out.state |= h.state
            out.deltas |= h.deltas

    # -- who and what
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
            if (e.source is not None and self.excludes_self(e.source, scope)) or _neq_self(e.where):
                return "other"
        return "any"

    def excludes_self(self, e, scope: Scope) -> bool:
        if isinstance(e, ast.Call) and is_name(e.func, "others") and e.args and is_name(e.args[0].value, "self"):
            return True
        if isinstance(e, ast.Filter):
            return self.excludes_self(e.source, scope) or _neq_self(e.pred)
        if isinstance(e, ast.ListLit):
            return bool(e.items) and all(self.relation(x, scope) == "other" for x in e.items)
        if is_name(e, "targets"):
            return scope.target_rel == "other"
        return False

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
                note = self.m.notes.get(n)
                if isinstance(note, CallNote) and note.kind == "flow" and note.target in self.flows:
                    self._read(("flow", note.target))
                if isinstance(note, CallNote) and note.kind == "flow" and self.flows.get(note.target, BodyFacts()).random:
                    return True
        return False

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
                note = self.m.notes.get(n)
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


@attrs.define
class Summaries:
    """The flows' and card hooks' summaries of one view of a build (`current`: the variant package, or
    None), with the names they looked up in the tables a variant package overlays (model.SCOPED). A
    variant's pass sees the same build with its own heroes and skills over the global ones: when none
    of those names was looked up (nor a whole table it adds to iterated), every scan reads exactly what
    it read here, so the summaries are the same and are not computed again."""

    current: str | None
    seen: _Lookups
    flows: dict
    hooks: dict
    special: dict

    def fits(self, model: Model) -> bool:
        if self.current is not None or model.current is None:
            return False
        over = model.overlays.get(model.current)
        if over is None:
            return False
        for table, names in over.items():
            if names and (table in self.seen.whole or not self.seen.names[table].isdisjoint(names)):
                return False
        return True

    @staticmethod
    def of(build) -> Summaries | None:
        """The default view's summaries of a build, once its default pass has made them."""
        hit = build.model.notes.get(("check", "summaries"))
        return hit[1] if hit is not None and hit[0] is build else None


class _Lookups:
    """A model that notes every name read from its scoped tables (model.SCOPED), and which of those
    tables were read whole; everything else is the model's own."""

    def __init__(self, model: Model):
        self._model = model
        self.names: dict[str, set] = {t: set() for t in SCOPED}
        self.whole: set[str] = set()

    def __getattr__(self, name):
        return getattr(self._model, name)

    def _table(self, table: str):
        return _Noted(getattr(self._model, table), self.names[table], self.whole, table)

    values = property(lambda self: self._table("values"))
    cards = property(lambda self: self._table("cards"))
    heroes = property(lambda self: self._table("heroes"))
    skills = property(lambda self: self._table("skills"))
    decks = property(lambda self: self._table("decks"))
    modes = property(lambda self: self._table("modes"))


class _Noted:
    """A name table that notes what is read from it."""

    def __init__(self, table, names: set, whole: set, label: str):
        self._t, self._names, self._whole, self._label = table, names, whole, label

    def get(self, key, default=None):
        self._names.add(key)
        return self._t.get(key, default)

    def __getitem__(self, key):
        self._names.add(key)
        return self._t[key]

    def __contains__(self, key):
        self._names.add(key)
        return key in self._t

    def _all(self):
        self._whole.add(self._label)
        return self._t

    def __iter__(self):
        return iter(self._all())

    def __len__(self):
        return len(self._all())

    def keys(self):
        return self._all().keys()

    def values(self):
        return self._all().values()

    def items(self):
        return self._all().items()


def _neq_self(e) -> bool:
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == "!=" and (
                (is_name(c.left, "it") and is_name(c.right, "self")) or
                (is_name(c.right, "it") and is_name(c.left, "self"))):
            return True
    return False


def _tagged(sites, paid: bool, chance: bool) -> set:
    """Sites opened inside a called flow or card hook, as the caller's: what they pass on is the callee's
    own event's, not the caller's (`passes` is dropped)."""
    out = set()
    for s in sites:  # (as attrs.evolve would, without its cost: called for every site of every call scanned)
        if (s.paid or not paid) and (s.chance or not chance) and not s.passes:
            out.add(s)  # already as tagged: frozen, and equal to its copy
        else:
            out.add(OpenSite(s.window, s.rel, s.fields, s.values, s.rels, s.paid or paid, s.chance or chance,
                             frozenset()))
    return out


def _merge(into: BodyFacts, new: BodyFacts) -> bool:
    before = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
              len(into.reads), into.escapes, len(into.deltas), into.random, len(into.resets))
    into.opens |= new.opens
    into.state |= new.state
    into.deltas |= new.deltas
    into.resets |= new.resets
    into.random = into.random or new.random
    into.calls |= new.calls
    into.reads |= new.reads
    into.hooks = into.hooks or new.hooks
    into.escapes = into.escapes or new.escapes
    if not into.writes:
        into.writes = list(new.writes)
    if not into.own_opens:
        into.own_opens = list(new.own_opens)
    after = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
             len(into.reads), into.escapes, len(into.deltas), into.random, len(into.resets))
    return before != after


def _pinned(e, op: str = "==") -> set[str]:
    """Event fields the `when` requires to be the owner (`event.f == self`), or with "!=" not the owner."""
    out = set()
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == op:
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = event_path(a)
                if p is not None and len(p) == 1 and is_name(b, "self"):
                    out.add(p[0])
    return out
