"""What the body scanner (bodies.py) records: the windows a body can open (OpenSite), what it reads,
writes and changes (BodyFacts), and what a scan knows at a point of the body (Scope)."""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.tree import conjuncts, event_path, is_name


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
    own: bool = False  # reopens a window on the rule's own event (`open W with event`): its fields carry over

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
    # (resource, direction, paid, whose): see progress.py; whose is the player whose resource it is, relative
    # to the rule's owner: self, other (a draw for a target gives the owner no card back) or any
    deltas: set = attrs.Factory(set)
    random: bool = False  # reveals cards from the pile or picks at random: its outcome is chance
    resets: set = attrs.Factory(set)  # skills whose use limits `reset_limit` gives back ("*": any)
    spends: set = attrs.Factory(set)  # resources every run takes from the owner (a card chosen from the hand)
    # (event type, field, zones or None): where the cards written into an event field lie (`event.card = c`
    # after `put(c, processing)`, a flow called with `card: …`); Analyzer.field_zones joins them
    placed: set = attrs.Factory(set)
    grants: set = attrs.Factory(set)  # (flow kind, phase name or None, on a judgment's outcome): another run granted later


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
    # ("event", field…) or ("local", name) -> the zones (constant keys) its cards can lie in, as a `when`,
    # an `if`, a filter or a move the body made says
    zones: dict = attrs.Factory(dict)
    chosen: set = attrs.Factory(set)  # locals holding cards the owner had to choose (Effects.chosen)
    skillsets: dict = attrs.Factory(dict)  # local -> the skills it can hold (Reading.skill_set)
    kin: set = attrs.Factory(set)  # locals an `if` has found to be the owner or of the owner's kingdom
    depth: int = 0
    event: str | None = None  # the type of the body's own event  # inside an `if` or a loop: what happens there need not happen every run


def neq_self(e) -> bool:
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == "!=" and (
                (is_name(c.left, "it") and is_name(c.right, "self")) or
                (is_name(c.right, "it") and is_name(c.left, "self"))):
            return True
    return False


def tagged(sites, paid: bool, chance: bool) -> set:
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


def merge(into: BodyFacts, new: BodyFacts) -> bool:
    before = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
              len(into.reads), into.escapes, len(into.deltas), into.random, len(into.resets), len(into.placed))
    into.opens |= new.opens
    into.state |= new.state
    into.deltas |= new.deltas
    into.resets |= new.resets
    into.random = into.random or new.random
    into.placed |= new.placed
    into.calls |= new.calls
    into.reads |= new.reads
    into.hooks = into.hooks or new.hooks
    into.escapes = into.escapes or new.escapes
    if not into.writes:
        into.writes = list(new.writes)
    if not into.own_opens:
        into.own_opens = list(new.own_opens)
    after = (len(into.opens), len(into.state), len(into.calls), into.hooks, len(into.writes), len(into.own_opens),
             len(into.reads), into.escapes, len(into.deltas), into.random, len(into.resets), len(into.placed))
    return before != after


def pinned(e, op: str = "==") -> set[str]:
    """Event fields the `when` requires to be the owner (`event.f == self`), or with "!=" not the owner."""
    out = set()
    for c in conjuncts(e):
        if isinstance(c, ast.Compare) and c.op == op:
            for a, b in ((c.left, c.right), (c.right, c.left)):
                p = event_path(a)
                if p is not None and len(p) == 1 and is_name(b, "self"):
                    out.add(p[0])
    return out
