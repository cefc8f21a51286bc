"""Game state: cards, players and their zones. No rules here, only bookkeeping."""

from __future__ import annotations

from .tables import CardDef, HeroDef

SUIT_SYMBOL = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
RED = {"heart", "diamond"}
# Built-in values as the Chinese log prints them (a suit chosen in 反间 reads ♠, not spade).
VALUE_NAMES = {**SUIT_SYMBOL, "red": "红色", "black": "黑色"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
KNOWN_TO_ALL = -1  # Card.known: every seat's bit
PUBLIC_ZONES = frozenset({"equip", "judge", "discard", "processing"})


def rank_text(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


def visible_to(card: Card, seat: int) -> bool:
    """Does this seat know what the card is? (A virtual card: when it knows every card it is made of.)"""
    if card.uid < 0:
        return all(visible_to(c, seat) for c in card.subcards)
    return bool(card.known & (1 << seat))


class Card:
    """A physical card (uid >= 0) or a virtual one made of subcards (uid < 0)."""

    __slots__ = ("uid", "cdef", "name", "_suit", "_rank", "_zone", "_owner", "subcards", "skill", "base", "known")

    def __init__(self, uid: int, cdef: CardDef, suit: str | None, rank: int, subcards=(), skill=None):
        self.uid = uid
        self.cdef = cdef
        self.name = cdef.id
        self._suit = suit
        self._rank = rank
        self._zone: str | None = None  # set only by Game.move
        self._owner: Player | None = None
        self.subcards: list[Card] = list(subcards)
        self.skill = skill  # the view-as skill that made a virtual card
        self.base = cdef  # what the card really is; cdef may differ while it lies disguised
        self.known = 0  # bit set of the seats that know what this card is (see view.py)

    def disguise(self, cdef: CardDef | None) -> None:
        """Treat this physical card as another (a view-as delayed trick in a judgment zone); None restores it."""
        self.cdef = cdef or self.base
        self.name = self.cdef.id

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
    def virtual(self) -> bool:
        return self.uid < 0

    @property
    def suit(self):
        return self._suit

    @property
    def rank(self) -> int:
        return self._rank

    @property
    def color(self):
        if self._suit is not None:
            return "red" if self._suit in RED else "black"
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
            return f"{self.cdef.name}({SUIT_SYMBOL.get(self._suit, '')}{rank_text(self._rank)})"
        inner = "".join(f"{SUIT_SYMBOL.get(c._suit, '')}{rank_text(c._rank)}" for c in self.subcards)
        return f"{self.cdef.name}({inner})" if inner else self.cdef.name


class Player:
    __slots__ = ("seat", "heroes", "hp", "max_hp", "alive", "hand", "equip", "judges", "flipped", "chained",
                 "identity", "identity_shown", "kingdom", "gender", "marks", "skills", "game", "shown")

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
        self.identity: str | None = None
        self.identity_shown = False
        self.kingdom: str | None = None
        self.gender: str | None = None
        self.marks: dict[str, int] = {}
        self.skills: list = []  # SkillInst

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
        return [self.equip[s] for s in ("weapon", "armor", "plus_horse", "minus_horse") if s in self.equip]

    @property
    def cards(self) -> list[Card]:
        return self.hand + self.equips

    @property
    def all_cards(self) -> list[Card]:
        return self.hand + self.equips + self.judges

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
    def next(self) -> Player:
        return self.game.next_alive(self)

    @property
    def prev(self) -> Player:
        return self.game.prev_alive(self)

    @property
    def hero(self):
        return self.heroes[0] if self.heroes else None

    @property
    def name(self) -> str:
        return self.game.player_name(self)

    def __repr__(self) -> str:
        return self.name
