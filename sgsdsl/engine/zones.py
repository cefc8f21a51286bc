"""Cards and zones: the deck, virtual cards, and `move`, the one primitive through which every
card changes zone (so windows on cards entering or leaving a zone are possible)."""

from __future__ import annotations

from .history import DISCARD, GAIN, LOSE
from .requests import GameOver
from .ruleset import RulesError
from .state import KNOWN_TO_ALL, PUBLIC_ZONES, Card, Player


class Zones:
    """Mixed into Game: the state it uses (piles, players, rules, listeners) is set up there."""

    # ---- cards and the deck -------------------------------------------------------
    def new_card(self, card_id: str, suit, rank) -> Card:
        c = Card(self.uid, self.rules.cards[card_id], suit, rank, lens=self.lens)
        self.uid += 1
        self.all_cards.append(c)
        if card_id in self.card_rules:
            self._card_rules_join(card_id)
        return c

    def _card_rules_join(self, card_id: str) -> None:
        """The first of a rule's cards is made, real or virtual (奉迎 视为使用【挟天子以令诸侯】): the rule joins the
        game (`rule … for`)."""
        for rule in self.card_rules.pop(card_id):
            if rule.id not in self.card_rules_in:
                self.card_rules_in.add(rule.id)
                self.add_rules(rule)

    def build_deck(self, deck_ids) -> None:
        decks = [self.rules.decks[did] for did in deck_ids]
        replaced = {cid for deck in decks for cid in deck.replaces}
        for deck in decks:
            signs = dict(deck.signs)
            for i, (suit, rank, cid) in enumerate(deck.entries):
                if cid in replaced:
                    continue
                c = self.new_card(cid, suit, rank)
                c._zone = "draw"
                if i in signs:
                    c.signs = (signs[i],)
                self.draw_pile.append(c)
        self.rng.shuffle(self.draw_pile)

    def virtual(self, name: str, cards=(), skill=None) -> Card:
        cards = list(cards) if isinstance(cards, (list, tuple)) else [cards]
        # one card lends its suit and rank; several lend a suit they all share, and no rank
        suits = {c.suit for c in cards}
        suit = suits.pop() if len(suits) == 1 else None
        rank = cards[0].rank if len(cards) == 1 else 0
        if name in self.card_rules:
            self._card_rules_join(name)
        return Card(-1, self.rules.cards[name], suit, rank, cards, skill, lens=self.lens)

    def _refill(self) -> None:
        if not self.discard_pile:
            raise GameOver((), "牌堆与弃牌堆均已耗尽")
        self.draw_pile = self.discard_pile
        self.discard_pile = []
        for c in self.draw_pile:
            c._zone = "draw"
            c.forget()  # shuffled face down: nobody knows where it is
        self.rng.shuffle(self.draw_pile)
        self.say("弃牌堆洗混后作为新的牌堆")

    def take_top(self, n: int) -> list[Card]:
        out = []
        for _ in range(n):
            if not self.draw_pile:
                self._refill()
            out.append(self.draw_pile[-1])
            self.draw_pile.pop()
            out[-1]._zone = None
        return out

    def cards_in(self, zone: str) -> list[Card]:
        table = {"draw": lambda: list(reversed(self.draw_pile)), "discard": lambda: list(self.discard_pile),
                 "processing": lambda: list(self.processing), "removed": lambda: list(self.removed)}
        if zone not in table:
            raise RulesError(f"cards_in takes a zone of the table (draw_pile, discard_pile, processing, removed), "
                             f"not {zone!r}: a player's zones are read as p.hand, p.equips, p.judges or p.<pile>")
        return table[zone]()

    # ---- moving cards: the one way cards change zones -------------------------------
    def _remove(self, c: Card, parting: list | None = None) -> None:
        z, o = c._zone, c._owner
        if z == "hand":
            o.hand.remove(c)
        elif z == "equip":
            del o.equip[c._cdef.slot]
            sk = c._cdef.skill
            if sk is not None:
                if parting is not None and self.win_moved is not None and \
                        any(self.win_moved.id in t.windows for t in sk.triggers):
                    parting.append((o, sk, c))  # detached once the moved window has seen it go
                else:
                    self.detach(o, sk, card=c)
        elif z == "judge":
            o.judges.remove(c)
        elif z == "draw":
            self.draw_pile.remove(c)
        elif z == "discard":
            self.discard_pile.remove(c)
        elif z == "processing":
            self.processing.remove(c)
        elif z == "removed":
            self.removed.remove(c)
        elif z.startswith("pile:"):
            o.piles[z[5:]].remove(c)
        c._zone = None
        c._owner = None

    def _place(self, c: Card, zone: str, owner: Player | None, bottom: bool = False) -> None:
        if zone == "hand" and owner is not None:  # the most common move, in short (the same steps as below)
            if c._cdef is not c.base:
                c.disguise(None)
            c._zone, c._owner = zone, owner
            c.known |= 1 << owner.seat
            owner.hand.append(c)
            return
        pile = zone.startswith("pile:")
        if (zone in ("hand", "equip", "judge") or pile) and owner is None:
            raise RulesError(f"cards put into a {zone} zone need an owner")
        if c._cdef is not c.base and zone not in ("judge", "processing"):
            c.disguise(None)  # a disguised delayed trick is itself again once it leaves the settlement
        c._zone = zone
        c._owner = owner if zone in ("hand", "equip", "judge") or pile else None
        if zone in PUBLIC_ZONES or (pile and not self.rules.counters[zone[5:]].hidden):
            c.known = KNOWN_TO_ALL
        elif zone == "hand" or pile:
            c.known |= 1 << owner.seat
        if zone == "hand":
            owner.hand.append(c)
        elif zone == "equip":
            owner.equip[c._cdef.slot] = c
            if c._cdef.skill is not None:
                self.attach(owner, c._cdef.skill, equip=True, card=c)
        elif zone == "judge":
            owner.judges.append(c)
        elif zone == "draw":
            if bottom:
                self.draw_pile.insert(0, c)
            else:
                self.draw_pile.append(c)
        elif zone == "discard":
            self.discard_pile.append(c)
        elif zone == "processing":
            self.processing.append(c)
        elif zone == "removed":
            self.removed.append(c)
        elif pile:
            owner.piles.setdefault(zone[5:], []).append(c)
        else:
            raise RulesError(f"unknown zone {zone!r}")

    def vetting(self) -> bool:
        """Does some skill listen at the window before a move (role `moving`)? Without one, a move costs
        nothing more than this lookup."""
        w = self.win_moving
        return w is not None and bool(self.listeners.get(w.id))

    def vet(self, cards, zone: str, owner: Player | None, by: Player | None = None, discarding: bool = False):
        """Open the window before a move (role `moving`) for cards that lie in a zone. A skill there may stop the
        move (`cancelled`), change the cards (挽危: 改为你选择的等量的牌) or where they go (`to`; `gainer` when
        that is a hand). Returns (cards, zone, owner); no cards when the move was stopped."""
        phys = [x for c in _as_list(cards) if c is not None for x in c.physical()]
        if not phys:
            return cards, zone, owner
        first = phys[0]
        loser = first._owner if first._zone in ("hand", "equip") else None
        nh = ne = 0
        if loser is not None:
            for c in phys:
                if c._owner is loser and not (loser is owner and zone == c._zone):
                    if c._zone == "hand":
                        nh += 1
                    elif c._zone == "equip":
                        ne += 1
            if not nh and not ne:
                loser = None
        gainer = owner if zone == "hand" else None
        ev = self.ev_moving_cls(cards=list(phys), loser=loser, gainer=gainer, to=zone, from_zone=first._zone,
                                lost_hand=nh, lost_equip=ne, by=by, discarding=discarding)
        self.open(self.win_moving.id, ev)
        new = [c for c in _as_list(ev.cards) if c is not None]
        if ev.cancelled or not new:
            self.say(phys, " 的移动被防止")
            return [], zone, owner
        if ev.to != zone or ev.gainer is not gainer:
            zone = ev.to
            if zone in ("hand", "equip", "judge") or zone.startswith("pile:"):
                owner = ev.gainer if ev.gainer is not None else owner  # a player's zone: whose it is
            else:
                owner = None
        if new != phys:
            cards = new
        return cards, zone, owner

    def move(self, cards, zone: str, owner: Player | None = None, bottom: bool = False,
             origin: str | None = None, by: Player | None = None, discarding: bool = False,
             vetted: bool = False) -> None:
        """Move cards to a zone; `origin` names where cards that are in no zone come from (the draw pile).
        Cards that lie in a zone pass the window before a move first, unless the caller has `vetted` them."""
        if not vetted and origin is None and self.vetting():
            cards, zone, owner = self.vet(cards, zone, owner, by, discarding)
        phys: list[Card] = []
        disguises = None
        for c in (cards if isinstance(cards, (list, tuple)) else () if cards is None else (cards,)):
            if c.uid >= 0:
                phys.append(c)
                continue
            if zone == "judge" and len(c.subcards) == 1:
                # a card used as a delayed trick (国色) lies in the judgment area as that trick
                disguises = disguises or {}
                disguises[c.subcards[0].uid] = c.cdef
            phys.extend(c.subcards)
        if not phys:
            return
        if self.observer is not None:
            self.observer.on_move(self, phys, zone, owner)
        lost: dict[int, list] = {}
        lost_cards: dict[int, list] = {}
        # An equipment's trigger at the moved window sees the move that takes the card away (失去装备区里的
        # 【白银狮子】后): its skill stays until that window has opened.
        parting: list = []
        from_zone = phys[0]._zone
        for c in phys:
            o = c._owner
            if o is not None and c._zone in ("hand", "equip") and not (o is owner and zone == c._zone):
                rec = lost.setdefault(o.seat, [o, 0, 0])
                rec[1 if c._zone == "hand" else 2] += 1
                lost_cards.setdefault(o.seat, []).append(c)
            if c._zone is not None:
                self._remove(c, parting)
            if disguises is not None and c.uid in disguises:
                c.disguise(disguises[c.uid])
            if zone == "equip":
                old = owner.equip.get(c._cdef.slot)
                if old is not None:  # the slot holds one card: no skill may keep the old one there
                    self.move(old, "discard", vetted=True)
            self._place(c, zone, owner, bottom)
        for o, _, _ in lost.values():
            self.remember(LOSE, o, cards=lost_cards[o.seat])
        if self.check_invariants:
            self.verify()
        if self.track:
            a = self.actor()
            for o, nh, ne in lost.values():
                if a is o and zone == "hand" and owner is not None and owner is not o:
                    key, book = (o.seat, owner.seat), self.help  # o gave them away
                elif a is not None and a is not o:
                    key, book = (a.seat, o.seat), self.harm  # a took or threw o's cards
                else:
                    continue
                book[key] = book.get(key, 0.0) + 0.5 * (nh + ne)
                self.deeds += 1
            if zone == "judge" and owner is not None:
                self._record(owner, -1.0)
        if self.win_moved is not None and self.listeners.get(self.win_moved.id):
            # every change of zone opens the window: one event per player who lost cards, else one
            gainer = owner if zone == "hand" else None
            for o, nh, ne in lost.values():
                ev = self.ev_move_cls(cards=phys, loser=o, gainer=gainer, to=zone, from_zone="hand" if nh else "equip",
                                      lost_hand=nh, lost_equip=ne, by=by, discarding=discarding)
                self.open(self.win_moved.id, ev)
            if not lost:
                self.open(self.win_moved.id, self.ev_move_cls(cards=phys, loser=None, gainer=gainer, to=zone,
                                                              from_zone=from_zone or origin, by=by,
                                                              discarding=discarding))
        for o, sk, c in parting:
            self.detach(o, sk, card=c)

    # ---- primitive actions that move cards (surface.FUNCS kind="primitive") ----------
    def draw(self, p: Player, n: int = 1) -> list[Card]:
        if n <= 0 or not p.alive:
            return []
        cards = self.take_top(n)
        self.move(cards, "hand", p, origin="draw")
        self.remember(GAIN, p, None, cards)
        self.say(p, f" 摸了{n}张牌")
        return cards

    def gain(self, p: Player, cards, by: Player | None = None) -> None:
        """p gains cards; `by` names who hands them over (交给), else p takes them (获得)."""
        cards = [c for c in _as_list(cards) if c is not None]
        if cards and p.alive:
            zone, owner, by = "hand", p, by if by is not None else p
            if self.vetting():
                cards, zone, owner = self.vet(cards, zone, owner, by=by)
                if not cards:
                    return
                if zone != "hand" or owner is not p:  # sent elsewhere: p gains nothing
                    self.move(cards, zone, owner, by=by, vetted=True)
                    return
            self.say(p, " 获得 ", cards)
            giver = cards[0].owner
            phys = [x for c in cards for x in c.physical()]
            self.move(cards, "hand", p, by=by, vetted=True)
            self.remember(GAIN, p, giver if giver is not p else None, phys)

    def discard(self, p, cards) -> None:
        cards = [c for c in _as_list(cards) if c is not None]
        if p is not None and self.q_discardable is not None:
            kept = [c for c in cards if not self.may_discard(p, c)]
            if kept:
                self.say(p, " 不能弃置 ", kept)
                cards = [c for c in cards if c not in kept]
        zone, owner = "discard", None
        if cards and self.vetting():
            cards, zone, owner = self.vet(cards, zone, owner, by=p, discarding=p is not None)
        if cards:
            if p is not None:
                self.say(p, " 弃置 ", cards)
            else:
                self.say(cards, " 置入弃牌堆")
            if p is not None:  # in the history before 牌移动后 opens: rules there can tell a discard (礼让)
                self.remember(DISCARD, p, cards=[x for c in cards for x in c.physical()])
            self.move(cards, zone, owner, by=p, discarding=p is not None, vetted=True)

    def look(self, p: Player, cards) -> None:
        """p looks at cards (知己知彼 on a hand): p's seat knows them; nobody else learns anything."""
        for c in _as_list(cards):
            if c is not None:
                for x in c.physical():
                    x.known |= 1 << p.seat

    def put(self, cards, zone: str, owner=None) -> None:
        self.move(cards, zone, owner)

    def put_bottom(self, cards) -> None:
        for c in _as_list(cards):
            self.move(c, "draw", bottom=True)

    def reveal_top(self, n: int) -> list[Card]:
        cards = self.take_top(n)
        for c in cards:
            self._place(c, "processing", None)
        return cards

    def peek(self, p: Player, n: int) -> list[Card]:
        while len(self.draw_pile) < n and self.discard_pile:
            top = self.draw_pile[:]
            self.draw_pile = []
            self._refill()
            self.draw_pile.extend(top)
        cards = list(reversed(self.draw_pile[-n:]))
        for c in cards:
            c.known |= 1 << p.seat
        return cards

    def show(self, p: Player, cards) -> None:
        """p shows cards to everyone (展示): they stay where they are, and every seat now knows them."""
        cards = [x for c in _as_list(cards) for x in c.physical()]
        for c in cards:
            c.known = KNOWN_TO_ALL
        if cards:
            self.say(p, " 展示 ", cards)

    def equip(self, p: Player, card: Card) -> None:
        self.move(card, "equip", p)


def _as_list(x) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]
