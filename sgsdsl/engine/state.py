"""Game state: cards, players and their zones. No rules here, only bookkeeping."""

from __future__ import annotations

from .tables import CardDef, HeroDef

SUIT_SYMBOL = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
RED = {"heart", "diamond"}
# Built-in values as the Chinese log prints them (a suit chosen in 反间 reads ♠, not spade).
VALUE_NAMES = {**SUIT_SYMBOL, "red": "红色", "black": "黑色"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
KNOWN_TO_ALL = -1  # Card.known: every seat's bit
PUBLIC_ZONES = frozenset({"equip", "judge", "discard", "processing", "removed"})


def rank_text(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


# the equipment area's slots, in the order its cards are listed (装备区: 武器 防具 +1坐骑 -1坐骑 宝物)
EQUIP_SLOTS = ("weapon", "armor", "plus_horse", "minus_horse", "treasure")

class Lens:
    """How a game reads its cards: the card filters (视为) of the skills in play. Every rule and the
    engine read a card's name, suit and colour through Card's properties, and so through the lens."""

    __slots__ = ("filters", "raw", "game")

    def __init__(self, game=None):
        self.filters: list = []  # (owner, FilterDef) of the skills in play
        self.raw = False  # True while a filter's own condition is read: it sees the printed card
        self.game = game

    def apply(self, card, what: str):
        """The value a live filter gives `what` (suit / color / name) of this card, or None."""
        g = self.game
        self.raw = True
        try:
            for owner, f, inst in self.filters:
                if f.what == what and owner.alive and inst.live and (f.where is None or f.where(g, owner, card)):
                    return f.value(g, owner, card)
        finally:
            self.raw = False
        return None


NO_LENS = Lens()


def visible_to(card: Card, seat: int) -> bool:
    """Does this seat know what the card is? (A virtual card: when it knows every card it is made of.)"""
    if card.uid < 0:
        return all(visible_to(c, seat) for c in card.subcards)
    return bool(card.known & (1 << seat))


class Card:
    """A physical card (uid >= 0) or a virtual one made of subcards (uid < 0)."""

    __slots__ = ("uid", "_cdef", "_suit", "_rank", "_zone", "_owner", "subcards", "skill", "base", "known", "lens",
                 "signs", "era")

    def __init__(self, uid: int, cdef: CardDef, suit: str | None, rank: int, subcards=(), skill=None,
                 lens: Lens = NO_LENS):
        self.uid = uid
        self._cdef = cdef
        self.lens = lens
        self._suit = suit
        self._rank = rank
        self._zone: str | None = None  # set only by Game.move
        self._owner: Player | None = None
        self.subcards: list[Card] = list(subcards)
        self.skill = skill  # the view-as skill that made a virtual card
        self.base = cdef  # what the card really is; cdef may differ while it lies disguised
        self.known = 0  # bit set of the seats that know what this card is (see view.py)
        self.era = 0  # how often every seat forgot it (forget): a seat's handle of it lapses then
        self.signs: tuple[str, ...] = ()  # marks printed on this physical card (连横); a virtual card: its cards' 

    def forget(self) -> None:
        """No seat knows this card any more (shuffled face down). The one way `known` loses seats: the views'
        handles of a card hold while `era` stays."""
        self.known = 0
        self.era += 1

    def disguise(self, cdef: CardDef | None) -> None:
        """Treat this physical card as another (a view-as delayed trick in a judgment zone); None restores it."""
        self._cdef = cdef or self.base

    @property
    def cdef(self) -> CardDef:
        lens = self.lens
        if lens.filters and not lens.raw and self._cdef is self.base and self.uid >= 0:
            name = lens.apply(self, "name")
            if name is not None:
                return lens.game.rules.cards[name]
        return self._cdef

    @property
    def name(self) -> str:
        return self.cdef.id

    # -- attributes the rules read (see surface.ATTRS["card"])
    @property
    def zone(self):
        if self.uid >= 0:
            return self._zone
        return self.subcards[0]._zone if self.subcards else None

    @property
    def owner(self):
        if self.uid >= 0:
            return self._owner
        return self.subcards[0]._owner if self.subcards else None

    @property
    def skill_id(self) -> str | None:
        """The rules' `c.skill`: the view-as skill that made this virtual card."""
        return self.skill.id if self.skill is not None else None

    @property
    def virtual(self) -> bool:
        return self.uid < 0

    @property
    def suit(self):
        lens = self.lens
        if lens.filters and not lens.raw and self.uid >= 0:  # a virtual card keeps what it was made as
            s = lens.apply(self, "suit")
            if s is not None:
                return s
        return self._suit

    @property
    def rank(self) -> int:
        return self._rank

    @property
    def nature(self) -> str | None:
        return self.cdef.nature

    @property
    def sign_list(self) -> list[str]:
        if self.uid >= 0:
            return list(self.signs)
        return list(dict.fromkeys(s for c in self.subcards for s in c.signs))

    @property
    def color(self):
        lens = self.lens
        if lens.filters and not lens.raw and self.uid >= 0:
            c = lens.apply(self, "color")
            if c is not None:
                return c
        suit = self.suit
        if suit is not None:
            return "red" if suit in RED else "black"
        if self.subcards:
            colors = {c.color for c in self.subcards}
            return colors.pop() if len(colors) == 1 else None
        return None

    @property
    def red(self) -> bool:
        return self.color == "red"

    @property
    def black(self) -> bool:
        return self.color == "black"

    @property
    def title(self) -> str:
        return self.cdef.name

    @property
    def kind(self) -> str:
        return self.cdef.kind

    @property
    def slot(self):
        return self.cdef.slot

    @property
    def range(self) -> int:
        return self.cdef.range

    def physical(self) -> list[Card]:
        return self.subcards if self.uid < 0 else [self]

    def __repr__(self) -> str:
        return self.label()

    def label(self) -> str:
        if self.uid >= 0:
            return f"{self.cdef.name}({SUIT_SYMBOL.get(self.suit, '')}{rank_text(self._rank)})"
        inner = "".join(f"{SUIT_SYMBOL.get(c._suit, '')}{rank_text(c._rank)}" for c in self.subcards)
        return f"{self.cdef.name}({inner})" if inner else self.cdef.name


class Player:
    __slots__ = ("seat", "heroes", "hp", "max_hp", "alive", "hand", "equip", "judges", "flipped", "chained",
                 "identity", "identity_shown", "kingdom", "gender", "marks", "skills", "game", "shown", "piles",
                 "reserve", "fallen", "armed", "hero_known", "entered_at", "removed", "replaced", "away")

    def __init__(self, game, seat: int):
        self.game = game
        self.seat = seat
        self.heroes: list[HeroDef] = []
        self.shown: list[bool] = []
        self.hp = 0
        self.max_hp = 0
        self.alive = True
        self.hand: list[Card] = []
        self.equip: dict[str, Card] = {}
        self.judges: list[Card] = []
        self.flipped = False
        self.chained = False
        self.away = False  # out of the seat order for a while (调虎离山): no 上家/下家, distance or 队列 counts it
        self.identity: str | None = None
        self.identity_shown = False
        self.kingdom: str | None = None
        self.gender: str | None = None
        self.marks: dict[str, object] = {}
        self.skills: list = []  # SkillInst
        self.piles: dict[str, list[Card]] = {}  # cards set aside on this player, by pile id
        self.reserve: list[str] = []  # heroes waiting to enter play, in order (1v1's 备用武将)
        self.fallen: list[str] = []  # heroes of this seat that died (阵亡)
        self.replaced: list[str] = []  # hero cards that left this seat by `change_hero` (变更, 君主): a test names it by them
        self.armed: set[str] = set()  # skills of face-down heroes pre-shown (预亮): offered when they could fire
        self.hero_known: set[tuple[int, int]] = set()  # (seat, slot): a face-down hero card that seat has seen
        self.entered_at = 0  # the event id when the hero in play entered (1v1): older events are not its own
        # 移除 (国战): slot -> the gender of the 士兵 card that lies in its place, face up, with no skill or kingdom;
        # the removed card stays in `heroes` for the slots to keep their numbers, but is no longer the seat's
        self.removed: dict[int, str] = {}

    # -- attributes the rules read (see surface.ATTRS["player"])
    @property
    def dead(self) -> bool:
        return not self.alive

    @property
    def wounded(self) -> bool:
        return self.hp < self.max_hp

    @property
    def dying(self) -> bool:
        return self.alive and self.hp < 1

    @property
    def lost_hp(self) -> int:
        return self.max_hp - self.hp

    @property
    def hand_count(self) -> int:
        return len(self.hand)

    @property
    def equips(self) -> list[Card]:
        return [self.equip[s] for s in EQUIP_SLOTS if s in self.equip]

    @property
    def cards(self) -> list[Card]:
        return self.hand + self.equips

    @property
    def all_cards(self) -> list[Card]:
        return self.hand + self.equips + self.judges

    def pile(self, pid: str) -> list[Card]:
        return self.piles.get(pid) or []

    @property
    def pile_cards(self) -> list[Card]:
        """Cards set aside on the hero (a `seat` pile belongs to the player and is not among them)."""
        counters = self.game.rules.counters
        return [c for pid, cs in self.piles.items() if not counters[pid].seat for c in cs]

    @property
    def card_count(self) -> int:
        return len(self.hand) + len(self.equip)

    @property
    def weapon(self):
        return self.equip.get("weapon")

    @property
    def armor(self):
        return self.equip.get("armor")

    @property
    def plus_horse(self):
        return self.equip.get("plus_horse")

    @property
    def minus_horse(self):
        return self.equip.get("minus_horse")

    @property
    def treasure(self):
        return self.equip.get("treasure")

    @property
    def next(self) -> Player:
        return self.game.next_alive(self)

    @property
    def prev(self) -> Player:
        return self.game.prev_alive(self)

    @property
    def hero(self):
        return self.heroes[0] if self.heroes else None

    @property
    def hero_id(self) -> str | None:
        """The rules' `p.hero`: hero values in the rules are ids, like hero names written in them."""
        return self.heroes[0].id if self.heroes else None

    @property
    def hero_ids(self) -> list[str]:
        return [h.id for h in self.heroes]

    @property
    def shown_heroes(self) -> list[str]:
        return [h.id for h, up in zip(self.heroes, self.shown) if up]

    @property
    def hidden_heroes(self) -> list[str]:
        removed = self.removed
        return [h.id for i, (h, up) in enumerate(zip(self.heroes, self.shown)) if not up and i not in removed]

    @property
    def removed_slots(self) -> list[int]:
        return sorted(self.removed)

    @property
    def skill_ids(self) -> list[str]:
        """The rules' `p.skills`: the skills p holds (not those of equipment)."""
        return [i.skill.id for i in self.skills if not i.equip]

    @property
    def name(self) -> str:
        return self.game.player_name(self)

    def __repr__(self) -> str:
        return self.name
