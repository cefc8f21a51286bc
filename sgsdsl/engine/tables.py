"""The runtime surface of generated modules: the table records they build, and helpers.

A generated module imports only this module (as `T`). Everything a module
declares is reachable from its `TABLES` record.
"""

from __future__ import annotations

from typing import Callable

import attrs

INF = 10**9
STOP = "stop"  # what a flow's phase function returns when the rules said `stop` (end the whole flow)

table = attrs.frozen(kw_only=True, slots=True)


def once(*_args) -> int:
    """The use limit of a 限定技 or 觉醒技: once per game."""
    return 1


def first(xs):
    return xs[0] if xs else None


def last(xs):
    return xs[-1] if xs else None


def index(xs, i):
    return xs[i] if xs is not None and -len(xs) <= i < len(xs) else None


def distinct(xs) -> list:
    out = []
    for x in xs:
        if x is not None and x not in out:
            out.append(x)
    return out


def same_kingdom(a, b, lone: str | None) -> bool:
    """Seed 002: 「与玩家同势力的角色」 counts the player too; a player of the `lone` kingdom (the rules'
    `bind lone_kingdom`: 野心家) is a kingdom of their own."""
    if a is None or b is None or a.kingdom is None or b.kingdom is None:
        return False
    if a is b:
        return True
    return a.kingdom == b.kingdom and a.kingdom != lone


def diff_kingdom(a, b, lone: str | None) -> bool:
    """Seed 002: 「与玩家不同势力的角色」; a player with no known kingdom is neither same nor different."""
    if a is None or b is None or a.kingdom is None or b.kingdom is None or a is b:
        return False
    return not same_kingdom(a, b, lone)


def tag(ev, name: str, default):
    tags = ev.tags
    return tags.get(name, default) if tags else default


def set_tag(ev, name: str, value) -> None:
    if ev.tags is None:
        ev.tags = {}
    ev.tags[name] = value


def least(xs, key) -> list:
    """The elements with the smallest key (all of them when they tie)."""
    keys = [key(x) for x in xs]
    return [x for x, k in zip(xs, keys) if k == min(keys)] if keys else []


def most(xs, key) -> list:
    keys = [key(x) for x in xs]
    return [x for x, k in zip(xs, keys) if k == max(keys)] if keys else []


def is_card(c, name: str) -> bool:
    """`c is 杀`: false for none, so a condition can test a card that may be missing."""
    if c is None:
        return False
    cd = c.cdef  # (read once: through the card filters in play)
    if cd is None:  # a card seen through a seat's view that does not know it
        return False
    return cd.id == name or name in cd.family


# The kinds a kind covers beyond itself: 锦囊分为两类 (seed 002), so a 延时锦囊 is a 锦囊牌 too.
KINDS_WITHIN = {"trick": frozenset({"trick", "delayed"})}


def is_kind(c, kind: str) -> bool:
    """`c is trick`: the card is of that kind or of one it covers; false for none, like `is` with a name."""
    if c is None:
        return False
    cd = c.cdef
    if cd is None:
        return False
    k = cd.kind
    return k == kind or k in KINDS_WITHIN.get(kind, ())


def winners_of(g, kind: str) -> list:
    """`winners` in a test: the winning identities (a side of 1v1 is one), or the kingdoms of the winning
    players (国战, whose players win by kingdom)."""
    won = g.winners or ()
    if kind != "kingdom":
        return list(won)
    seats = g.won_seats if g.won_seats is not None else {p.seat for p in g.players if (p.identity or p.name) in won}
    return list(dict.fromkeys(p.kingdom for p in g.players if p.seat in seats and p.kingdom is not None))


def card_fits(c, spec) -> bool:
    """A test's `♣2 杀`: this card, of that suit and rank, named so (or counting as it)."""
    suit, rank, name = spec
    return c is not None and is_card(c, name) and c.suit == suit and c.rank == rank


def holds_card(cards, spec) -> bool:
    """`♣2 杀 in 刘备.hand`."""
    return any(card_fits(c, spec) for c in cards)


def same_suit(a, b) -> bool:
    return a is not None and b is not None and a.suit is not None and a.suit == b.suit


class Event:
    """Base of every generated event class. `cancelled` ends a flow after the window that set it."""

    __slots__ = ("cancelled", "eid", "parent", "tags")
    TYPE = "event"
    TITLE = ""
    FIELDS: tuple[str, ...] = ()

    def __init__(self) -> None:  # (generated events inline this)
        self.cancelled = False
        self.eid = 0
        self.parent = 0
        self.tags: dict | None = None  # fields other packages attach (`extend`)

    def fields(self) -> dict:
        return {f: getattr(self, f) for f in self.FIELDS}

    def __repr__(self) -> str:
        return f"{self.TYPE}({', '.join(f'{k}={v!r}' for k, v in self.fields().items())})"


@table
class EnumDef:
    id: str
    title: str | None
    items: tuple[tuple[str, str, str | None], ...]  # (id, Chinese name, doc)
    loc: str


@table
class EventDef:
    id: str
    title: str | None
    cls: type
    fields: tuple[tuple[str, str, str | None], ...]  # (name, type, doc)
    loc: str


@table
class WindowDef:
    id: str
    name: str
    event: str
    subject: str | None
    doc: str | None
    loc: str
    dead: bool = False  # asks its subject even when dead (死亡时)


@table
class FlowDef:
    id: str
    name: str
    event: str
    result: str | None
    fn: Callable
    opens: tuple[str, ...]  # the windows its body opens, in order
    doc: str | None
    loc: str


@table
class QuantityDef:
    id: str
    name: str
    params: tuple[str, ...]
    type: str
    base: Callable
    floor: Callable | None
    doc: str | None
    loc: str
    const: bool | int | None = None  # the base's value when the rules write it as a literal (true, false, a number)


@table
class CounterDef:
    id: str
    name: str
    scope: str | None  # phase / turn / game; None for a mark (kept for the game, shown)
    loc: str
    kind: str = "counter"  # counter / mark / pile (cards set aside on a player)
    hidden: bool = False  # a pile whose cards, or a mark whose value, only its owner knows
    seat: bool = False  # a pile of the seat: stays when a hero leaves


@table
class LimitDef:
    count: Callable
    scope: str
    per_target: bool = False  # a card's limit that reads `it`, the target: count(g, me, card, target)


@table
class TargetDef:
    kind: str  # self / all / some
    count: Callable | None  # -> (lo, hi)
    where: Callable | None


@table
class TriggerDef:
    skill: str
    index: int
    windows: tuple[str, ...]
    any: bool
    forced: bool
    when: Callable | None
    limit: LimitDef | None
    run: Callable
    loc: str
    intent: tuple | None = None  # (owner, targets): what it does to each, as lang/intent.py derived it
    times: Callable | None = None  # fn(g, owner, ev): `repeat N`, how often one opening offers it (None: once)


@table
class ActiveDef:
    """Called as fn(g, owner, user): `user` is the owner, or another player `by` lets use it."""

    skill: str
    index: int
    when: Callable | None
    limit: LimitDef | None
    target: TargetDef | None
    run: Callable
    loc: str
    by: Callable | None = None  # fn(g, owner, candidate): may that player use it in their play phase
    intent: tuple | None = None  # (owner, targets): good | bad | mixed | None for each (lang/intent.py)


@table
class ViewAsDef:
    skill: str
    index: int
    card: str
    count: int
    hand_only: bool
    where: Callable | None
    when: Callable | None
    mode: str | None  # use / play / None for both
    loc: str
    together: Callable | None = None  # fn(g, me, cards): the chosen cards satisfy it as a set
    pile: str | None = None  # the owner's pile the cards come from (instead of the hand and equipment)
    # fn(g, owner, candidate): who may make the conversion (天兵符); its where/when/together/limit then take
    # (g, owner, user, …): the cards come from the user's hand and equipment, or from the owner's pile
    by: Callable | None = None
    limit: LimitDef | None = None  # counted against the owner (the user of a rule's conversion)
    each: bool = False  # the limit is each user's own, counted apart for each owner (每名其他角色每回合限一次)

    @property
    def all_cards(self) -> bool:
        return self.count < 0  # 奇策: every card of the source


@table
class FilterDef:
    """视为: while the skill is in play, cards for which `where` holds read `what` as `value`."""

    skill: str
    index: int
    what: str  # suit / color / name
    value: Callable  # fn(g, owner, card)
    where: Callable  # fn(g, owner, card), evaluated on the printed card
    loc: str


@table
class ModifierDef:
    skill: str
    quantity: str
    pattern: tuple[str, ...]  # per parameter: "self", "_" or a bound name
    op: str  # = += -=
    value: Callable
    when: Callable | None
    loc: str


@table
class GrantDef:
    skill: str
    skills: tuple[str, ...]  # held while `when` holds (豹变)
    when: Callable
    loc: str


@table
class SkillDef:
    id: str
    name: str
    types: tuple[str, ...]
    text: str
    triggers: tuple[TriggerDef, ...] = ()
    actives: tuple[ActiveDef, ...] = ()
    viewas: tuple[ViewAsDef, ...] = ()
    modifiers: tuple[ModifierDef, ...] = ()
    allows: tuple[tuple[str, str], ...] = ()
    loc: str
    filters: tuple[FilterDef, ...] = ()
    grants: tuple[GrantDef, ...] = ()
    # `rules of P.S`: (package, skill id) whose rows this skill runs; the ruleset fills them in (ruleset.share)
    rules_of: tuple[str, str] | None = None
    # every choice its rules make and what the compiler derived it to mean (lang/intent.py), for `explain`:
    # (loc, kind, prompt, sense, what it leads to); an option's sense is ((text, to the chooser, to others), …)
    choices: tuple = ()
    # a package rule's cards (`rule … for 敕令`): it joins a game when the first of them is made, not before
    for_cards: tuple[str, ...] = ()

    @property
    def locked(self) -> bool:
        return "locked" in self.types

    @property
    def lord(self) -> bool:
        return "lord" in self.types

    @property
    def limited(self) -> bool:
        return "limited" in self.types

    @property
    def awaken(self) -> bool:
        return "awaken" in self.types

    @property
    def formation(self) -> bool:
        return "formation" in self.types

    @property
    def queue(self) -> bool:
        return "queue" in self.types

    @property
    def siege(self) -> bool:
        return "siege" in self.types

    @property
    def title(self) -> str:
        return self.name


@table
class CardDef:
    id: str
    name: str
    kind: str
    slot: str | None
    range: int
    text: str
    target: TargetDef | None
    limit: LimitDef | None
    effect: Callable | None
    before: Callable | None
    after: Callable | None
    skill: SkillDef | None  # an equipment's own skill
    loc: str
    parent: str | None = None  # `is 杀`: a kind of that card (takes what it does not declare from it)
    nature: str | None = None  # the 属性 of its damage (火杀: fire)
    recast: bool = False  # 重铸 in the play phase
    intent: str | None = None  # what it does to each target: good | bad | mixed (lang/intent.py)
    choices: tuple = ()  # the choices of its effect, before and after blocks, as SkillDef.choices
    family: tuple[str, ...] = ()  # itself and every card it is a kind of (the Ruleset fills it in)
    limit_of: str | None = None  # the card whose use limit it shares (杀's, for 火杀)

    @property
    def limit_key(self) -> str:
        return self.limit_of or self.id

    def counts_as(self, name: str) -> bool:
        return name == self.id or name in self.family

    @property
    def title(self) -> str:
        return self.name


@table
class HeroDef:
    id: str
    name: str
    kingdom: str
    hp_halves: int
    gender: str
    skills: tuple[str, ...]
    pairs: tuple[str, ...]
    never_lord: bool
    text: str
    loc: str
    modes: tuple[str, ...] = ()  # dealt only in these modes (empty: in every mode)
    main_halves: int | None = None  # 国战: its 阴阳鱼 as the main hero, when a 主将技 changes them
    deputy_halves: int | None = None  # … as the deputy hero (副将技)
    lord_of: str | None = None  # 国战 君主 (`lord of H`): the hero whose card this one replaces; never dealt

    @property
    def title(self) -> str:
        return self.name

    @property
    def as_main(self) -> int:
        return self.hp_halves if self.main_halves is None else self.main_halves

    @property
    def as_deputy(self) -> int:
        return self.hp_halves if self.deputy_halves is None else self.deputy_halves

    @property
    def max_hp(self) -> int:
        return self.hp_halves // 2

    @property
    def skill_list(self) -> list[str]:
        return list(self.skills)

    @property
    def pair_list(self) -> list[str]:
        return list(self.pairs)


@table
class DeckDef:
    id: str
    name: str
    title: str | None
    entries: tuple[tuple[str, int, str], ...]  # (suit, rank, card id)
    loc: str
    modes: tuple[str, ...] = ()  # the modes the deck belongs to (none: any game may deal it)
    signs: tuple[tuple[int, str], ...] = ()  # (entry index, sign): marks printed on physical cards (连横)
    replaces: tuple[str, ...] = ()  # card ids the other decks do not deal while this one is dealt (君主专属装备)


@table
class PoolDef:
    """A named set of heroes (an official expansion set), which `simulate --pool` deals from."""

    id: str
    name: str
    title: str | None
    heroes: tuple[str, ...]
    loc: str


@table
class WinDef:
    identities: tuple[str, ...]
    cond: Callable
    loc: str


@table
class ModeDef:
    id: str
    name: str
    title: str | None
    players: tuple[int, int]
    table: tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]
    decks: tuple[str, ...]
    hero_packages: tuple[str, ...]
    lord: str | None
    setup: Callable | None
    wins: tuple[WinDef, ...]
    rules: tuple[SkillDef, ...]
    text: str
    loc: str
    heroes: tuple[str, ...] = ()  # single heroes the pool deals besides its packages'
    hero_except: tuple[str, ...] = ()  # heroes kept out of the pool
    variants: tuple[str, ...] = ()  # variant packages the mode plays with (its own versions of skills)
    victory: Callable | None = None  # fn(g): decides winners in play (国战); after the `win` clauses
    options: tuple[tuple[str, str, object, str | None], ...] = ()  # (id, name, default, doc): `--option id=v`
    aliases: tuple[str, ...] = ()  # other names for the command line

    def named(self, name: str) -> bool:
        return name in (self.id, self.name) or name in self.aliases


@table
class SeatDef:
    hero: str
    hp: int | None
    max_hp: int | None
    hand: tuple[tuple[str | None, int | None, str], ...]
    equip: tuple[tuple[str | None, int | None, str], ...]
    judge: tuple[tuple[str | None, int | None, str], ...]
    identity: str | None
    flipped: bool
    chained: bool
    marks: tuple[tuple[str, int], ...]
    dead: bool = False
    reserve: tuple[str, ...] = ()
    fallen: tuple[str, ...] = ()
    piles: tuple[tuple[str, tuple[tuple[str | None, int | None, str], ...]], ...] = ()
    deputy: str | None = None  # 国战: a second hero card
    hidden: tuple[int, ...] = ()  # hero card slots face down (0 main, 1 deputy)
    kingdom: str | None = None  # else the first face-up hero's
    armed: tuple[str, ...] = ()  # pre-shown skills


@table
class TestDef:
    title: str
    owner: str | None
    mode: str | None
    seats: tuple[SeatDef, ...]
    deck: tuple[tuple[str | None, int | None, str], ...]
    start: tuple[str, str | None] | None
    turns: int
    decides: tuple[tuple[str, tuple], ...]
    expects: tuple[tuple[Callable, str, str], ...]  # (fn, source text, loc)
    logs: tuple[tuple[bool, str | tuple[str, ...], str], ...]  # (present?, text or texts in order, loc)
    loc: str
    asked: tuple[tuple[tuple[str, ...], str], ...] = ()  # (hero ids asked in this order, loc)
    setup: bool = False  # the mode's setup runs, with the seats' heroes and identities
    turn_limit: int = 0
    options: tuple[tuple[str, object], ...] = ()  # the mode's options this test sets (by id)
    variants: tuple[str, ...] = ()  # variant packages the test plays with (its mode's, its package's `use`)
    # answers bound to one skill's or card's requests: (seat hero id or None for any seat, skill or card id, answers)
    bound: tuple[tuple[str | None, str, tuple], ...] = ()
    # `expect asked`: (seat hero id or None, skill or card id or None, the options offered or None, count or None, loc)
    requests: tuple[tuple[str | None, str | None, tuple | None, int | None, str], ...] = ()
    views: tuple[tuple, ...] = ()  # `expect view`: (seat index, fn, source text, loc[, operands fn])
    heroes: tuple[str, ...] = ()  # the hero pile (by id) draw_heroes draws from, when the test names one

@table
class Tables:
    package: str
    title: str | None
    uses: tuple[str, ...]
    sources: tuple[str, ...]
    source_hash: str = ""  # digest of the rules text it was generated from
    variant: bool = False  # loaded only when selected; replaces same-id heroes and skills of earlier packages
    enums: tuple[EnumDef, ...] = ()
    events: tuple[EventDef, ...] = ()
    windows: tuple[WindowDef, ...] = ()
    flows: tuple[FlowDef, ...] = ()
    quantities: tuple[QuantityDef, ...] = ()
    counters: tuple[CounterDef, ...] = ()
    binds: tuple[tuple[str, str], ...] = ()
    cards: tuple[CardDef, ...] = ()
    heroes: tuple[HeroDef, ...] = ()
    skills: tuple[SkillDef, ...] = ()
    decks: tuple[DeckDef, ...] = ()
    pools: tuple[PoolDef, ...] = ()
    modes: tuple[ModeDef, ...] = ()
    rules: tuple[SkillDef, ...] = ()  # the package's own rules: in effect in every game that loads it
    tests: tuple[TestDef, ...] = ()
    hints: tuple[tuple[str, str, int], ...] = ()  # (card or skill id, intent, value): advice to bots
    option_hints: tuple[tuple[str, str, int], ...] = ()  # (option label, intent, value): advice to the chooser
    triggers: dict = attrs.field(factory=dict)  # window id -> skill ids (the trigger table)
