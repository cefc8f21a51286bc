"""What each skill did in one game: an observer the Game notifies at a few named points.

The Game calls, when `Game.observer` is set:

- `on_request(g, req)`   a decision is asked for (a skill offered to its owner),
- `on_frame(g, f)`       a frame is pushed on the event stack (a skill fired, a flow began),
- `on_flow_end(g, ev)`   a flow is over (a damage that never landed was prevented),
- `on_move(g, cards, zone, owner)`   cards are about to change zone (drawn, gained),
- `on_hp(g, p, delta)`   a player's HP is about to change by `delta` (damage, recovery),
- `on_death(g, p)`       a player dies (a kill).

An effect belongs to the skill frame nearest the top of the stack, or to the view-as skill
that made the card being settled; a card a player used or played from their own cards
ends the search (what a 桃 does in a dying flow is that 桃's, not the skill's that caused
the dying). A skill that raises a number of the event being settled (英姿's draw count,
裸衣's damage) is credited with that much of what the settling flow then does; one that
lowers a damage's amount, or cancels it, has prevented that much damage.

Each effect is also counted by whom it went to, as the game ended: the skill's owner (`self`), a
player of the owner's side (`ally`: the identities one win rule names together, 主公 and 忠臣; a
kingdom in 国战) or anyone else (`foe`); and what the skill cost its owner: the HP it lost and the
cards that left its hand or equipment while the skill settled (given, thrown, or used as another card).
"""

from __future__ import annotations

FIELDS = ("offered", "used", "drawn", "gained", "damage", "prevented", "recovered", "kills", "hp_lost", "cards_lost")
RECIPIENTS = ("self", "ally", "foe")
SHARED = ("drawn", "gained", "damage", "prevented", "recovered", "kills")  # the effects counted per recipient


class SkillStats:
    """Counts per skill id for one game; `result()` adds the games it was available in."""

    def __init__(self, rules):
        self.counts: dict[str, dict[str, int]] = {}
        dmg = rules.role("damage")
        self.damage_cls = rules.events[dmg.event].cls if dmg is not None else None
        self.forced = {t.loc for s in rules.skills.values() for t in s.triggers if t.forced}
        for m in rules.modes.values():
            self.forced |= {t.loc for s in m.rules for t in s.triggers}
        self.virtual: dict[int, object] = {}  # view-as cards already counted as a use (kept alive: ids stay unique)
        self.pending: list[tuple] = []  # (frame, skill, owner, event, its numbers before the skill ran)
        self.bonus: dict[int, list] = {}  # id(event) -> [skill, amount, owner] a skill added to that event's numbers
        self.given: dict[tuple, int] = {}  # (skill, effect, owner seat, recipient seat) -> how much

    def add(self, sid: str | None, key: str, n: int = 1, owner=None, to=None) -> None:
        if sid is not None and n:
            rec = self.counts.get(sid)
            if rec is None:
                rec = self.counts[sid] = dict.fromkeys(FIELDS, 0)
            rec[key] += n
            if owner is not None and to is not None:
                k = (sid, key, owner.seat, to.seat)
                self.given[k] = self.given.get(k, 0) + n

    # ---- whose doing ------------------------------------------------------------------------
    @staticmethod
    def culprit(g) -> tuple[str | None, object]:
        """The skill whose doing the top of the stack is, and its owner (or the user of its view-as card)."""
        for f in reversed(g.stack):
            if f.kind == "skill":
                return f.ident, f.owner
            card = getattr(f.event, "card", None) if f.event is not None else None
            if card is not None and hasattr(card, "uid"):
                if card.uid >= 0:
                    return None, None  # a real card's doing
                if card.skill is not None:
                    ev = f.event
                    return card.skill.id, getattr(ev, "source", None) or getattr(ev, "who", None)
        return None, None

    def settle(self, g) -> None:
        """Compare the numbers of events whose skill frames are over with what they were before."""
        if not self.pending:
            return
        live = {id(f) for f in g.stack}
        keep = []
        for f, sid, owner, ev, before in self.pending:
            if id(f) in live:
                keep.append((f, sid, owner, ev, before))
                continue
            damage = type(ev) is self.damage_cls
            target = getattr(ev, "target", None) if damage else None
            if damage and ev.cancelled and not before["cancelled"]:
                self.add(sid, "prevented", max(before.get("amount", 0), 0), owner, target)
                continue
            for name, old in before.items():
                new = getattr(ev, name)
                if name == "cancelled" or new == old:
                    continue
                if new > old:
                    self.bonus.setdefault(id(ev), []).append([sid, new - old, owner])
                elif damage and name == "amount":
                    self.add(sid, "prevented", min(old, old - new), owner, target)
        self.pending = keep

    def credit(self, g, key: str, n: int, to) -> None:
        """n of something done to `to` by the flow on top of the stack: bonuses first, the rest to the culprit."""
        top = g.stack[-1].event if g.stack else None
        for b in self.bonus.get(id(top), ()) if top is not None else ():
            share = min(b[1], n)
            if share > 0:
                self.add(b[0], key, share, b[2], to)
                b[1] -= share
                n -= share
        sid, owner = self.culprit(g)
        self.add(sid, key, n, owner, to)

    # ---- the hooks -----------------------------------------------------------------------------
    def on_request(self, g, req) -> None:
        k = req.kind
        if k == "confirm":
            ctx = req.context
            if ctx is not None and hasattr(ctx, "trigger"):
                self.add(ctx.skill.id, "offered")
        elif k == "skill":
            for L in req.options:
                if not L.trigger.forced:
                    self.add(L.skill.id, "offered")
        elif k == "play":  # each decision of the play phase at which a skill could be used
            # cards to use or to recast are no skill's
            for sid in {what[0].skill.id for kind, what in req.options if kind not in ("card", "recast")}:
                self.add(sid, "offered")
        elif k == "respond":
            for sid in {o[1][0].skill.id for o in req.options if isinstance(o, tuple) and o[0] == "viewas"}:
                self.add(sid, "offered")

    def on_frame(self, g, f) -> None:
        self.settle(g)
        ev = f.event
        if f.kind == "skill":
            self.add(f.ident, "used")
            if ev is not None:
                if f.loc in self.forced:
                    self.add(f.ident, "offered")
                before = {n: v for n in type(ev).FIELDS if type(v := getattr(ev, n)) is int}
                before["cancelled"] = ev.cancelled
                self.pending.append((f, f.ident, f.owner, ev, before))
            return
        card = getattr(ev, "card", None) if ev is not None else None
        if card is not None and getattr(card, "uid", 0) < 0 and card.skill is not None \
                and id(card) not in self.virtual:
            self.virtual[id(card)] = card
            self.add(card.skill.id, "used")

    def on_flow_end(self, g, ev) -> None:
        self.settle(g)
        self.bonus.pop(id(ev), None)

    def on_move(self, g, cards, zone: str, owner) -> None:
        sid, who = self.culprit(g) if g.stack else (None, None)
        if sid is not None and who is not None:  # what the skill's owner gives away or throws while it settles
            lost = sum(1 for c in cards if c._owner is who and c._zone in ("hand", "equip")
                       and not (owner is who and zone in ("hand", "equip")))
            self.add(sid, "cards_lost", lost)
        if zone != "hand" or owner is None:
            return
        self.settle(g)
        drawn = sum(1 for c in cards if c._zone in (None, "draw"))
        gained = sum(1 for c in cards if c._zone not in (None, "draw") and not (c._owner is owner and
                                                                                 c._zone == "hand"))
        if drawn:
            self.credit(g, "drawn", drawn, owner)
        if gained:
            self.credit(g, "gained", gained, owner)

    def on_hp(self, g, p, delta: int) -> None:
        if delta > 0:
            self.settle(g)
            self.credit(g, "recovered", delta, p)
            return
        if delta < 0 and g.stack and type(g.stack[-1].event) is self.damage_cls and g.stack[-1].kind == "flow":
            self.settle(g)
            self.credit(g, "damage", -delta, p)
        if delta < 0:
            sid, who = self.culprit(g)
            if who is p:
                self.add(sid, "hp_lost", -delta)

    def on_death(self, g, p) -> None:
        sid, owner = self.culprit(g)
        self.add(sid, "kills", 1, owner, p)

    # ---- the game's figures ----------------------------------------------------------------------
    def result(self, g) -> dict[str, dict[str, int]]:
        """Per skill: the counters, and `games` 1 where the skill was available (a seated hero's skill,
        a lord skill only for the lord; any skill that was offered or used)."""
        out = {sid: dict(rec, games=1) for sid, rec in self.counts.items()}
        side = sides(g)
        for (sid, key, a, b), n in self.given.items():
            rel = "self" if a == b else "ally" if side[a] == side[b] else "foe"
            out[sid][f"{key}@{rel}"] = out[sid].get(f"{key}@{rel}", 0) + n
        for p in g.players:
            for h in p.heroes:
                for sid in h.skills:
                    s = g.rules.skills.get(sid)
                    if s is not None and (not s.lord or g.is_lord(p)) and sid not in out:
                        out[sid] = dict.fromkeys(FIELDS, 0) | {"games": 1}
        return out


def sides(g) -> list:
    """Each seat's side as the game ended: the identities a win rule names together (主公 and 忠臣) are one
    side, and so are the players of one identity (two 反贼; two 内奸 too, where the table deals two); where
    no win rule names identities (国战), a kingdom is a side, and a player of the `lone_kingdom` (野心家) or of
    none is a side of their own."""
    groups = [frozenset(w.identities) for w in (g.mode.wins if g.mode is not None else ())]
    lone = g.rules.lone_kingdom
    out = []
    for p in g.players:
        ident = p.identity
        group = next((grp for grp in groups if ident in grp), None)
        out.append(("seat", p.seat) if ident is None or ident == lone else group if group is not None else ident)
    return out
