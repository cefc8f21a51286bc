"""State invariants, checked after every card movement and play action when asked for.

- Card conservation: every card the game created is in exactly one zone, and the zone it claims
  is the one that holds it. A card that claims a zone this module does not know (a set-aside
  zone a mode adds) is counted in that zone: a new zone never breaks the count, and a card lost
  from every zone is found. Between settlements no card is in transit.
- HP bounds: an alive player has 1..max HP between settlements (below 1 only while one settles,
  the dying one), never more than max HP, and a max HP of at least 1.
- The dead never act: they hold no cards, take no turn and fire no skill (`acting`), and are
  asked no decision (Game.decide).
- Hidden information never reaches an agent (`hidden`, at every decision an agent is asked): in
  the seat's view another seat's face-down hero cards, their skills, gender and kingdom, that
  seat's unshown identity and every card the seat does not know show nothing; no card of the
  request (its options, its context) shows more than the seat knows; the prompt names no
  face-down hero card of another seat.

A violation is a bug in the rules or the engine; it reports the seed and the event stack.
"""

from __future__ import annotations


class InvariantError(Exception):
    pass


def _zones(g):
    """(zone name, owner, cards) of every zone the engine keeps."""
    yield "draw", None, g.draw_pile
    yield "discard", None, g.discard_pile
    yield "processing", None, g.processing
    yield "removed", None, g.removed
    for p in g.players:
        yield "hand", p, p.hand
        yield "equip", p, p.equip.values()
        yield "judge", p, p.judges
        for pid, cards in p.piles.items():
            yield f"pile:{pid}", p, cards


def _where(zone: str, owner) -> str:
    return f"the {zone} zone" + (f" of {owner.name}" if owner is not None else "")


def check(g) -> None:
    settling = bool(g.stack)
    created = _created(g)
    seen: dict[int, tuple] = {}  # uid -> (zone, owner); messages are built only for a violation
    for zone, owner, cards in _zones(g):
        for c in cards:
            uid = c.uid
            if uid in seen or created.get(uid) is not c or c._zone != zone or c._owner is not owner:
                _misplaced(g, c, zone, owner, seen, created)
            seen[uid] = (zone, owner)
    for c in g.all_cards:
        if c.uid in seen:
            continue
        if c._zone in ("draw", "discard", "processing", "removed", "hand", "equip", "judge") or \
                (c._zone or "").startswith("pile:"):
            fail(g, f"{c.label()} claims {_where(c._zone, c._owner)} but is in none")
        if c._zone is None and not settling:
            fail(g, f"{c.label()} is in no zone")
        # any other zone name: a zone kept elsewhere (set aside); the card is counted there
    for p in g.players:
        if p.alive:
            if p.hp > p.max_hp:
                fail(g, f"{p.name} has {p.hp}/{p.max_hp} HP")
            if not settling and p.hp < 1:
                fail(g, f"{p.name} is alive with {p.hp} HP and nothing is being settled")
            if not settling and p.max_hp < 1:
                fail(g, f"{p.name} is alive with a max HP of {p.max_hp}")
        elif (p.hand or p.equip or p.judges or p.pile_cards) and not settling:
            fail(g, f"dead {p.name} still holds cards")


def _created(g) -> dict:
    """uid -> card of every card the game created (cached: cards are only ever added)."""
    cache = g.__dict__.get("_invariant_cards")
    if cache is None or cache[0] != len(g.all_cards):
        created = {c.uid: c for c in g.all_cards}
        if len(created) != len(g.all_cards):
            fail(g, "two cards share one uid")
        cache = g._invariant_cards = (len(g.all_cards), created)
    return cache[1]


def _misplaced(g, c, zone, owner, seen, created) -> None:
    if c.uid in seen:
        fail(g, f"{c.label()} is both in {_where(*seen[c.uid])} and in {_where(zone, owner)}")
    if created.get(c.uid) is not c:
        fail(g, f"{c.label()} in {_where(zone, owner)} is not a card the game created")
    fail(g, f"{c.label()} lies in {_where(zone, owner)} but claims {_where(c._zone or 'no', c._owner)}")


def acting(g, p, what: str) -> None:
    """`p` is about to act (take a turn, fire a skill): it must be alive (or be asked by a window that asks the
    dead: 死亡时)."""
    if p is not None and not p.alive and p is not g.dead_asked:
        fail(g, f"dead {p.name} {what}")


def hidden(g, desk, view, seen) -> None:
    """What one seat's agent is about to read (its SeatView and the request as seen through it) holds nothing
    the seat may not know. The rule is restated here from the table's point of view, not read from view.py;
    `desk` (the engine's side) says which card each view stands for."""
    seat = view.seat
    for x in _views(seen.options, seen.context):
        _card_seen(g, desk, seat, x, "offered in a request")
    secrets = []
    for p, pv in zip(g.players, view.players):
        if p.seat == seat:
            continue
        for i, (h, up) in enumerate(zip(p.heroes, p.shown)):
            if not up and (seat, i) not in p.hero_known:
                if pv.heroes[i] is not None:
                    fail(g, f"seat {seat + 1} sees {p.name}'s face-down hero card {h.name}")
                if i not in p.removed:  # a removed card went back to the hero pile: another may draw it (变更, “戮”)
                    secrets.append(h)
        if p.heroes and not any(p.shown) and ((pv.gender is not None and not p.removed) or (
                pv.kingdom is not None and not any((seat, i) in p.hero_known for i in range(len(p.heroes))))):
            # a kingdom decided by a card seen face up and turned face down again (暗置) stays known
            fail(g, f"seat {seat + 1} sees the kingdom or gender of {p.name}, whose heroes are all face down")
        live = {i.skill.id for i in p.skills if i.slot is None or i.slot >= len(p.shown) or p.shown[i.slot]}
        if any(s.skill.id not in live for s in pv.skills):
            fail(g, f"seat {seat + 1} sees a skill of a face-down hero card of {p.name}")
        if pv.identity is not None and not p.identity_shown:
            fail(g, f"seat {seat + 1} sees the unshown identity of {p.name}")
        for cv in pv.hand:
            _card_seen(g, desk, seat, cv, f"in {p.name}'s hand")
    offered = {o for o in seen.options if isinstance(o, str)}
    own = {h.id for h in g.players[seat].heroes}  # (the seat's own heroes may share an id with another's)
    for h in secrets:
        if h.name and h.name in seen.prompt:
            fail(g, f"the prompt to seat {seat + 1} names {h.name}, a face-down hero card: {seen.prompt}")
        if h.id in offered and h.id not in own:
            fail(g, f"seat {seat + 1} is offered {h.name}, a face-down hero card of another seat, as an option "
                    f"of '{seen.prompt}'")


def _card_seen(g, desk, seat: int, cv, where: str) -> None:
    c = desk.cards.get(cv.handle)
    if c is None:
        fail(g, f"seat {seat + 1} was shown a card {where} that its desk does not know (handle {cv.handle})")
    if c.uid < 0:
        known = all(s.known & (1 << seat) for s in c.subcards)
    else:
        known = bool(c.known & (1 << seat))
    if not known and (cv.name is not None or cv.suit is not None or cv.rank is not None):
        fail(g, f"seat {seat + 1} reads {c.label()} {where}, a card it does not know")


def _views(*xs):
    """Every card view in a request's options and context (through tuples, lists and event fields)."""
    from .view import CardView, EventView

    todo = list(xs)
    while todo:
        x = todo.pop()
        if isinstance(x, CardView):
            yield x
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, EventView):
            todo.extend(getattr(x, f) for f in x.FIELDS)


def fail(g, message: str) -> None:
    stack = " > ".join(f.describe() for f in g.stack) or "(empty)"
    raise InvariantError(f"invariant violated (seed {g.seed}, turn {g.turn_no}): {message}\n  stack: {stack}")
