"""The language's built-in surface: types, attributes, constants, functions and engine roles.

This is the contract between the compiler and the engine. The checker types
expressions against it, the code generator emits its templates, and
docs/language.md lists it. Nothing here names a card, a skill or a hero: those
live in rules/.

Type strings: built-in names (`int`, `player` ...), declared enum and event
names, `list[T]`, and a trailing `?` for "may be none".
"""

from __future__ import annotations

import attrs

BUILTIN_TYPES: dict[str, str] = {
    "int": "整数", "bool": "真假", "text": "文本", "player": "角色", "card": "牌",
    "cardname": "牌名 (a card declaration)", "hero": "武将", "skill": "技能", "suit": "花色 ♠♥♣♦",
    "color": "颜色 red/black", "kind": "牌的类别 basic/trick/delayed/equipment",
    "slot": "装备栏 weapon/armor/plus_horse/minus_horse/treasure", "zone": "区域", "how": "使用 or 打出",
    "scope": "本阶段/本回合/本局: how far back `history` looks", "record": "历史记录: one thing that happened",
    "any": "",
}

# Aliases accepted in type positions.
TYPE_ALIASES = {"players": "list[player]", "cards": "list[card]", "heroes": "list[hero]"}


@attrs.frozen
class Attr:
    type: str
    doc: str
    py: str | None = None  # the Python attribute, when it differs from the rules' name


# Types whose values are ids of declarations: their attributes are read from the ruleset's tables.
DEF_TABLES = {"cardname": "cards", "hero": "heroes", "skill": "skills"}


ATTRS: dict[str, dict[str, Attr]] = {
    "player": {
        "hp": Attr("int", "当前体力值"),
        "max_hp": Attr("int", "体力上限"),
        "lost_hp": Attr("int", "已损失的体力值"),
        "alive": Attr("bool", "存活"),
        "dead": Attr("bool", "已死亡"),
        "wounded": Attr("bool", "已受伤 (体力值小于体力上限)"),
        "dying": Attr("bool", "处于濒死状态 (体力值小于1)"),
        "hand": Attr("list[card]", "手牌"),
        "hand_count": Attr("int", "手牌数"),
        "equips": Attr("list[card]", "装备区里的牌"),
        "judges": Attr("list[card]", "判定区里的牌, in the order they were placed"),
        "cards": Attr("list[card]", "手牌和装备区里的牌 (the rules' 「牌」)"),
        "all_cards": Attr("list[card]", "手牌、装备区和判定区里的牌 (「区域里的牌」)"),
        "card_count": Attr("int", "手牌和装备区里的牌数"),
        "pile_cards": Attr("list[card]", "置于武将牌上的牌 (every `pile` of the player)"),
        "weapon": Attr("card?", "武器"),
        "armor": Attr("card?", "防具"),
        "plus_horse": Attr("card?", "+1坐骑"),
        "minus_horse": Attr("card?", "-1坐骑"),
        "treasure": Attr("card?", "宝物"),
        "kingdom": Attr("kingdom", "势力"),
        "gender": Attr("gender", "性别"),
        "identity": Attr("identity?", "身份"),
        "identity_shown": Attr("bool", "身份牌已亮出"),
        "flipped": Attr("bool", "武将牌背面朝上"),
        "chained": Attr("bool", "处于连环状态"),
        "away": Attr("bool", "不计入距离和座次 (调虎离山: set_away)"),
        "seat": Attr("int", "座次 (0 = first seat)"),
        "next": Attr("player", "下家 (next living player in seat order)"),
        "prev": Attr("player", "上家 (previous living player)"),
        "hero": Attr("hero?", "主将", "hero_id"),
        "heroes": Attr("list[hero]", "武将牌 (one, or two in 国战)", "hero_ids"),
        "name": Attr("text", "显示名 (the hero's Chinese name)"),
        "skills": Attr("list[skill]", "拥有的技能 (not those of equipment)", "skill_ids"),
        "reserve": Attr("list[hero]", "备用武将 (heroes waiting to enter play, in order)"),
        "shown_heroes": Attr("list[hero]", "明置的武将牌 (face up)"),
        "hidden_heroes": Attr("list[hero]", "暗置的武将牌 (face down, 国战)"),
        "shown": Attr("list[bool]", "each hero card in play: face up? (0 main, 1 deputy)"),
        "fallen": Attr("list[hero]", "阵亡的武将 (this seat's heroes that died)"),
        "removed": Attr("list[int]", "移除的武将牌 (国战: their slots, 0 主将，1 副将; `heroes` keeps them in place)",
                        "removed_slots"),
    },
    "card": {
        "name": Attr("cardname", "牌名"),
        "title": Attr("text", "牌名 (Chinese)"),
        "suit": Attr("suit?", "花色 (none for a virtual card of mixed suits, or made of no card)"),
        "color": Attr("color?", "颜色 (none for a virtual card made of no card: neither red nor black)"),
        "red": Attr("bool", "红色 (♥ or ♦)"),
        "black": Attr("bool", "黑色 (♠ or ♣)"),
        "rank": Attr("int", "点数 1–13 (0 for a virtual card)"),
        "kind": Attr("kind", "类别"),
        "slot": Attr("slot?", "装备栏"),
        "range": Attr("int", "武器的攻击范围"),
        "zone": Attr("zone?", "所在区域"),
        "owner": Attr("player?", "所在区域的角色"),
        "virtual": Attr("bool", "虚拟牌 (视为使用的牌)"),
        "subcards": Attr("list[card]", "一张虚拟牌所用的实体牌"),
        "nature": Attr("nature", "造成的伤害的属性 (`nature 火`; 普通 for a card that declares none)"),
        "signs": Attr("list[text]", "牌上印的标识 (a deck entry's sign, 国战's 连横)", "sign_list"),
        "skill": Attr("skill?", "转化出这张虚拟牌的技能 (视为技; none for a real card)", "skill_id"),
    },
    "cardname": {
        "kind": Attr("kind", "类别"),
        "nature": Attr("nature", "造成的伤害的属性"),
        "slot": Attr("slot?", "装备栏"),
        "title": Attr("text", "牌名 (Chinese)"),
    },
    "hero": {
        "kingdom": Attr("kingdom", "势力"),
        "gender": Attr("gender", "性别"),
        "title": Attr("text", "武将名"),
        "max_hp": Attr("int", "体力上限 (halves rounded down)"),
        "halves": Attr("int", "体力 in half 阴阳鱼 (a whole one is 2)", "hp_halves"),
        "main_halves": Attr("int", "as the main hero (主将): its half 阴阳鱼, less what a 主将技 takes off", "as_main"),
        "deputy_halves": Attr("int", "as the deputy hero (副将): its half 阴阳鱼, less what a 副将技 takes off",
                              "as_deputy"),
        "pairs": Attr("list[hero]", "珠联璧合 partners", "pair_list"),
        "lord_of": Attr("hero?", "君主 (`lord of H`): the hero whose card this lord card replaces, else none"),
        "skills": Attr("list[skill]", "武将牌上的技能", "skill_list"),
    },
    "record": {
        "what": Attr("text", "发生了什么: 使用 打出 弃置 获得 失去 伤害 回复 失去体力 杀死"),
        "who": Attr("player?", "做这件事的角色 (使用者、弃置者、获得者、伤害来源、杀死者 …)"),
        "target": Attr("player?", "被做这件事的角色 (受到伤害者、失去牌者、被杀死者 …)"),
        "card": Attr("card?", "涉及的牌 (only one)"),
        "cards": Attr("list[card]", "涉及的牌"),
        "amount": Attr("int", "伤害值、回复值或失去的体力值"),
        "targets": Attr("list[player]", "使用的牌指定的目标 (a 使用 only; empty for the other records)"),
        "skill": Attr("skill?", "发生在其中的技能"),
    },
    "skill": {
        "title": Attr("text", "技能名"),
        "locked": Attr("bool", "锁定技"),
        "lord": Attr("bool", "主公技"),
        "limited": Attr("bool", "限定技"),
        "awaken": Attr("bool", "觉醒技"),
        "formation": Attr("bool", "阵法技"),
        "queue": Attr("bool", "阵法技，其阵法为队列"),
        "siege": Attr("bool", "阵法技，其阵法为围攻"),
    },
}
# Every event has this writable field besides those its declaration gives.
EVENT_BUILTIN_FIELDS = {"cancelled": Attr("bool", "被防止/取消: a flow stops after a window that sets it")}
PLAYER_WRITABLE: set[str] = set()  # player state changes go through primitives, never assignment


@attrs.frozen
class Const:
    type: str
    py: str
    doc: str


_SUITS = {"♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond"}
SUIT_IDS = _SUITS
SUIT_SYMBOLS = {v: k for k, v in _SUITS.items()}

CONSTS: dict[str, Const] = {
    "true": Const("bool", "True", "真"),
    "false": Const("bool", "False", "假"),
    "none": Const("none", "None", "无"),
    "inf": Const("int", "T.INF", "无限 (a large number for unlimited counts)"),
    "red": Const("color", "'red'", "红色"), "红色": Const("color", "'red'", "red"),
    "black": Const("color", "'black'", "黑色"), "黑色": Const("color", "'black'", "black"),
    "spade": Const("suit", "'spade'", "♠ 黑桃"), "heart": Const("suit", "'heart'", "♥ 红桃"),
    "club": Const("suit", "'club'", "♣ 梅花"), "diamond": Const("suit", "'diamond'", "♦ 方块"),
    "basic": Const("kind", "'basic'", "基本牌"), "基本牌": Const("kind", "'basic'", "basic"),
    "trick": Const("kind", "'trick'", "非延时类锦囊牌 (`c.kind == trick`); 锦囊牌 of both kinds with `c is trick`"),
    "锦囊牌": Const("kind", "'trick'", "trick"),
    "delayed": Const("kind", "'delayed'", "延时类锦囊牌"), "延时锦囊": Const("kind", "'delayed'", "delayed"),
    "equipment": Const("kind", "'equipment'", "装备牌"), "装备牌": Const("kind", "'equipment'", "equipment"),
    "weapon": Const("slot", "'weapon'", "武器"), "armor": Const("slot", "'armor'", "防具"),
    "plus_horse": Const("slot", "'plus_horse'", "+1坐骑"), "minus_horse": Const("slot", "'minus_horse'", "-1坐骑"),
    "treasure": Const("slot", "'treasure'", "宝物"),
    "hand_zone": Const("zone", "'hand'", "手牌区"), "手牌区": Const("zone", "'hand'", "hand_zone"),
    "equip_zone": Const("zone", "'equip'", "装备区"), "装备区": Const("zone", "'equip'", "equip_zone"),
    "judge_zone": Const("zone", "'judge'", "判定区"), "判定区": Const("zone", "'judge'", "judge_zone"),
    "draw_pile": Const("zone", "'draw'", "牌堆 (top)"), "牌堆": Const("zone", "'draw'", "draw_pile"),
    "discard_pile": Const("zone", "'discard'", "弃牌堆"), "弃牌堆": Const("zone", "'discard'", "discard_pile"),
    "processing": Const("zone", "'processing'", "处理区"), "处理区": Const("zone", "'processing'", "processing"),
    "removed": Const("zone", "'removed'", "移出游戏 (out of play, owned by nobody; a `pile` keeps cards on a player)"),
    "移出游戏": Const("zone", "'removed'", "removed"),
    "this_phase": Const("scope", "'phase'", "本阶段"), "本阶段": Const("scope", "'phase'", "this_phase"),
    "this_turn": Const("scope", "'turn'", "本回合"), "本回合": Const("scope", "'turn'", "this_turn"),
    "this_game": Const("scope", "'game'", "本局游戏"), "本局": Const("scope", "'game'", "this_game"),
    "as_use": Const("how", "'use'", "使用"), "使用": Const("how", "'use'", "as_use"),
    "as_play": Const("how", "'play'", "打出"), "打出": Const("how", "'play'", "as_play"),
}

# Names whose meaning depends on where they are written (checked by the type checker).
CONTEXT_NAMES = {
    "self": "the skill's owner, or the card's user",
    "event": "the event of the window, flow or card being settled",
    "it": "the candidate inside `where`",
    "card": "the card being used (card declarations)",
    "targets": "the targets chosen by a `target` clause",
    "user": "the player using an active skill: its owner, or another player its `by` lets use it",
    "target": "the one target chosen by a `target` clause",
    "current": "the player whose turn it is",
    "players": "living players in seat order from the current player",
    "all_players": "every player, dead or alive, in seat order",
}


@attrs.frozen
class Moves:
    """How a primitive moves cards (the engine opens the window bound to the `moved` role for each player who
    loses some, and once when nobody does). Each field names the parameter it comes from, or a zone."""

    cards: str | None  # the parameter holding the cards (None: cards from the draw pile, lost by nobody)
    to: str  # the zone they go to: a zone constant's value ('hand', 'discard' …) or "param:NAME"
    gainer: str | None = None  # the parameter whose hand receives them (`event.gainer`)
    owner: str | None = None  # the parameter that owns the zone they go to (a `put` into a player's zone)


@attrs.frozen
class Effect:
    """What a primitive changes, as `check` (sgsdsl/conflicts) reads it: the one place that says so. Every
    primitive declares one (tests/test_surface_effects.py); `NOTHING` says it changes no state that a
    condition reads (it only tells a seat something)."""

    state: frozenset = frozenset()  # player state it changes: categories of conflicts.reading.STATE_OF_ATTR
    moves: Moves | None = None
    # (resource, direction) it moves (conflicts/progress.py): "+", "-", "±", or "sign:PARAM" (the sign of
    # an amount), "zone:PARAM" (into a pile: fewer cards held; elsewhere: either way)
    deltas: tuple = ()
    chance: bool = False  # its outcome is chance: a card from the shuffled pile, a random pick
    hooks: bool = False  # runs the hooks of the card in its first parameter
    uses: str | None = None  # a card may be used: "any" (the play phase), or the parameter holding the choices
    ends: bool = False  # may end the game, the phase or the turn: what follows it may not run
    resets: bool = False  # gives back a skill's uses (the skill in its second parameter)
    card_in: str | None = None  # the zone the cards it returns lie in afterwards ('processing' …)
    # it grants another run of a flow later: "turn" (the flow bound to `turn`), or "phase:PARAM" (that phase
    # of the turn): a rule at a window of that run that grants it again never ends
    grants: str | None = None
    # what it means for the player in a parameter, where `moves` and `deltas` do not say (the bots' intent
    # analysis, lang/intent.py): (param, "+" good for them | "-" bad | "sign:PARAM" | "-sign:PARAM" by the
    # sign of an amount or the truth of a flag)
    toward: tuple = ()


NOTHING = Effect()


@attrs.frozen
class Func:
    params: tuple[tuple[str, str, str | None], ...]  # (name, type, default python literal or None)
    ret: str
    template: str  # python with {param} holes; each hole is a compiled expression
    doc: str
    kind: str = "builtin"  # builtin | primitive
    effect: Effect | None = None  # primitives: what it changes (required)


def _f(sig: str, ret: str, template: str, doc: str, kind: str = "builtin", effect: Effect | None = None) -> Func:
    params = []
    for part in filter(None, (p.strip() for p in sig.split(","))):
        name, _, rest = part.partition(":")
        typ, _, default = rest.partition("=")
        params.append((name.strip(), typ.strip(), default.strip() or None))
    return Func(tuple(params), ret, template, doc, kind, effect)


def _p(sig: str, ret: str, method: str, doc: str, effect: Effect) -> Func:
    names = [p.split(":")[0].strip() for p in sig.split(",") if p.strip()]
    return _f(sig, ret, f"g.{method}(" + ", ".join("{" + n + "}" for n in names) + ")", doc, "primitive", effect)


_CARDS = frozenset({"cards"})
_HERO = frozenset({"hero", "skills", "hp"})


FUNCS: dict[str, Func] = {
    # -- pure functions
    "len": _f("x: list[any]", "int", "len({x})", "元素个数"),
    "count": _f("x: list[any]", "int", "len({x})", "元素个数 (same as len)"),
    "empty": _f("x: list[any]", "bool", "(not {x})", "没有元素"),
    "first": _f("x: list[any]", "elem?", "T.first({x})", "第一个元素, or none"),
    "last": _f("x: list[any]", "elem?", "T.last({x})", "最后一个元素, or none"),
    "reverse": _f("x: list[any]", "same", "list(reversed({x}))", "倒序"),
    "distinct": _f("x: list[any]", "same", "T.distinct({x})", "去掉重复 (and none), keeping the first of each"),
    "sum": _f("x: list[int]", "int", "sum({x})", "之和: `sum(it.rank)` is 点数之和"),
    "min": _f("a: int, b: int", "int", "min({a}, {b})", "较小者"),
    "max": _f("a: int, b: int", "int", "max({a}, {b})", "较大者"),
    "abs": _f("a: int", "int", "abs({a})", "绝对值"),
    "seat_distance": _f("a: player, b: player", "int", "g.seat_distance({a}, {b})",
                        "座次距离: the fewer steps between two living players around the table"),
    "others": _f("p: player", "list[player]", "g.others({p})", "其他存活角色, in seat order from p's next"),
    "has_skill": _f("p: player, s: skill", "bool", "g.has_skill({p}, {s})", "拥有技能"),
    "limit_used": _f("p: player, s: skill", "int", "g.limit_used({p}, {s})",
                     "p的技能s已发动的次数, as its limits count them (every scope still running): what `reset_limit` "
                     "gives back; a 限定技 that has been used: 1"),
    "legal_target": _f("user: player, card: card, target: player", "bool", "g.legal_target({user}, {card}, {target})",
                       "target是user使用card的合法目标: the card's own target rule (distance, `where`) and `targetable` "
                       "(空城, 帷幕), as the play phase lists targets; not the use limit"),
    "virtual": _f("name: cardname, cards: list[card] = []", "card", "g.virtual({name}, {cards})",
                  "一张视为的牌 (a virtual card, made of the given real cards)"),
    "ongoing": _f("type: eventtype", "event?", "g.ongoing({type})",
                  "the innermost event of that type being settled, or none"),
    "random": _f("x: list[any]", "elem", "g.random_of({x})", "随机取一个元素 (the game's seeded RNG)"),
    "lords_of": _f("h: hero", "list[hero]", "g.lords_of({h})",
                   "the lord cards (`lord of h`, 国战's 君主) among this game's heroes: never dealt, set aside"),
    "is_lord": _f("p: player", "bool", "g.is_lord({p})", "主公 (the mode's `lord` identity, and alive)"),
    "current_lord": _f("", "player?", "g.current_lord()",
                       "当前主公: the living player with the mode's `lord` identity, or none"),
    "formation": _f("p: player", "list[player]", "g.formation({p})",
                    "p所在的队列: the run of adjacent living players of p's kingdom (2 or more), else empty"),
    "besieged": _f("p: player", "bool", "g.besieged({p})",
                   "p被围攻: p's 上家 and 下家 are of one kingdom, different from p's"),
    "besiegers": _f("p: player", "list[player]", "g.besiegers({p})", "围攻p的角色 (上家和下家), else empty"),
    "big_kingdoms": _f("", "list[kingdom]", "g.big_kingdoms()",
                       "大势力: the kingdom(s) with the most living players, when that is more than one"),
    "is_big": _f("p: player", "bool", "g.is_big({p})", "p是大势力角色"),
    "is_small": _f("p: player", "bool", "g.is_small({p})",
                   "p是小势力角色: there is a big kingdom, and p is not of one"),
    "same_kingdom": _f("a: player, b: player", "bool", "T.same_kingdom({a}, {b}, g.rules.lone_kingdom)",
                       "势力相同: both kingdoms known and equal, and not the `lone_kingdom` (野心家), which is shared "
                       "with nobody"),
    "diff_kingdom": _f("a: player, b: player", "bool", "T.diff_kingdom({a}, {b}, g.rules.lone_kingdom)",
                       "势力不同: both kingdoms known and not the same (a `lone_kingdom` player differs from everyone)"),
    "turn_count": _f("", "int", "g.turn_no", "第几个回合 (1 in the game's first turn)"),
    "in_phase": _f("ph: phase", "bool", "(g.phase == {ph})",
                   "当前处于该阶段 (于出牌阶段内; between two phases, the one that has just ended)"),
    "turns_taken": _f("p: player", "int", "g.turns_of.get({p}.seat, 0)", "p已开始的回合数"),
    "turn_limit": _f("", "int", "g.turn_limit", "the game's time limit in turns (simulate --turn-limit; 0: none)"),
    "same_suit": _f("a: card, b: card", "bool", "T.same_suit({a}, {b})", "花色相同 (false if either has none)"),
    "cards_in": _f("z: zone", "list[card]", "g.cards_in({z})",
                   "the cards in a zone of the table (draw_pile from the top, discard_pile, processing, removed)"),
    # -- history: what happened this phase, turn or game (engine/history.py)
    "history": _f("s: scope", "list[record]", "g.history({s})", "本阶段/本回合/本局发生的事, oldest first"),
    "used": _f("p: player, s: scope", "list[card]", "g.used_cards({p}, {s})", "p使用过的牌"),
    "targeted": _f("p: player, s: scope", "list[player]", "g.targeted({p}, {s})",
                   "p使用牌指定过的角色, each once (the records' `targets`)"),
    "played": _f("p: player, s: scope", "list[card]", "g.played_cards({p}, {s})", "p打出过的牌"),
    "discarded": _f("p: player, s: scope", "list[card]", "g.discarded_cards({p}, {s})", "p弃置过的牌"),
    "gained": _f("p: player, s: scope", "list[card]", "g.gained_cards({p}, {s})", "p获得过的牌"),
    "lost": _f("p: player, s: scope", "list[card]", "g.lost_cards({p}, {s})", "p失去过的牌 (手牌和装备区)"),
    "given": _f("p: player, s: scope", "list[card]", "g.given_cards({p}, {s})", "p交给其他角色的牌"),
    "damage_dealt": _f("p: player, s: scope", "int", "g.damage_dealt({p}, {s})", "p造成的伤害值之和"),
    "damage_taken": _f("p: player, s: scope", "int", "g.damage_taken({p}, {s})", "p受到的伤害值之和"),
    "kills": _f("p: player, s: scope", "int", "g.kills_of({p}, {s})", "p杀死的角色数"),
    # -- primitive actions (the engine's only ways to change the game)
    "draw": _p("p: player, n: int = 1", "list[card]", "draw", "摸牌: p draws n cards from the draw pile",
                   Effect(_CARDS, Moves(None, "hand", gainer="p"), (("cards", "+"),))),
    "gain": _p("p: player, cards: list[card], by: player? = None", "none", "gain",
               "获得: cards go to p's hand (by: who hands them over, for a 交给; else p takes them)",
                   Effect(_CARDS, Moves("cards", "hand", gainer="p"), (("cards", "±"),))),
    "discard": _p("p: player?, cards: list[card]", "none", "discard",
                  "弃置: cards go to the discard pile (p is who discards)",
                   Effect(_CARDS, Moves("cards", "discard"), (("cards", "-"),))),
    "put": _p("cards: list[card], zone: zone, owner: player? = None", "none", "put",
              "置入: move cards to a zone (owner for hand/equip/judge zones; draw_pile = top)",
                   Effect(_CARDS, Moves("cards", "param:zone", owner="owner"), (("cards", "zone:zone"),))),
    "put_bottom": _p("cards: list[card]", "none", "put_bottom", "置于牌堆底",
                   Effect(_CARDS, Moves("cards", "draw"), (("cards", "-"),))),
    "reveal_top": _p("n: int", "list[card]", "reveal_top", "亮出牌堆顶的n张牌 into the processing zone",
                   Effect(_CARDS, deltas=(("processing", "+"),), chance=True, card_in="processing")),
    "peek": _p("p: player, n: int", "list[card]", "peek",
               "p观看牌堆顶的n张牌 (they stay where they are; p now knows them)",
                   NOTHING),
    "show": _p("p: player, cards: list[card]", "none", "show",
               "展示: p shows cards to everyone (they stay where they are; every seat now knows them)",
                   NOTHING),
    "equip": _p("p: player, card: card", "none", "equip", "装备: to p's slot; the old card goes to the discard pile",
                   Effect(_CARDS, Moves("card", "equip", owner="p"), (("cards", "±"),))),
    "change_hp": _p("p: player, delta: int", "none", "change_hp", "体力值变化 (raw: no windows)",
                   Effect(frozenset({"hp"}), deltas=(("hp", "sign:delta"),))),
    "adjust_max_hp": _p("p: player, delta: int", "none", "adjust_max_hp",
                        "体力上限变化 (raw: no windows, nobody dies; rules call the flow `change_max_hp`)",
                   Effect(frozenset({"hp"}), deltas=(("hp", "±"),))),
    "kill": _p("p: player", "none", "kill",
               "死亡: p is out of the game (raw: no windows); the hero's skills stay until `leave`",
                   Effect(frozenset({"alive", "hp"}), deltas=(("alive", "-"),), ends=True)),
    "leave": _p("p: player", "none", "leave", "离场: p's hero leaves play with its skills, counters and marks",
                   Effect(frozenset({"skills", "hero"}))),
    "set_heroes": _p("p: player, main: hero, deputy: hero", "none", "set_heroes",
                     "p扮演主将与副将, both face down (国战): max HP from their 阴阳鱼 together",
                   Effect(_HERO | {"kingdom"})),
    "show_hero": _p("p: player, slot: int", "none", "show_hero",
                    "明置 (raw): p's hero card slot (0 main, 1 deputy) turns face up; rules call the flow bound to "
                    "`reveal`",
                   Effect(frozenset({"hero", "skills", "kingdom"}))),
    "hide_hero": _p("p: player, slot: int", "none", "hide_hero",
                    "暗置 (raw): p's face-up hero card slot turns face down: its skills and gender go out of effect, "
                    "the kingdom stays (the rules' flow 暗置 opens the windows)",
                   Effect(frozenset({"hero", "skills", "gender"}))),
    "change_hero": _p("p: player, slot: int, h: hero", "none", "change_hero",
                      "变更 (raw): p's hero card slot becomes h, lying as the old one lay; max HP, HP and kingdom stay",
                   Effect(frozenset({"hero", "skills"}))),
    "remove_hero": _p("p: player, slot: int", "none", "remove_hero",
                      "移除 (raw): p's hero card slot leaves the seat, a 士兵 of its gender in its place; max HP, HP "
                      "and kingdom stay, a face-down card is removed unseen; its skills are out of effect and leave "
                      "with `leave_hero` (the rules' flow 移除 opens the windows between)",
                   Effect(frozenset({"hero", "skills", "gender"}))),
    "leave_hero": _p("p: player, slot: int", "none", "leave_hero",
                     "the skills of p's removed hero card slot leave the seat (until then they answer the windows "
                     "of its removal, as a dead hero's answer 死亡时 until `leave`)",
                   Effect(frozenset({"skills"}))),
    "look_hero": _p("viewer: player, p: player, slot: int", "none", "look_hero",
                    "viewer观看p的一张暗置武将牌 (viewer's seat knows it from now on)",
                   NOTHING),
    "choose_hidden": _p("p: player, prompt: text, x: list[any]", "elem", "choose_hidden",
                        "p暗中选择x中的一项：其他角色只知道p作出了选择 (1v1的首发武将，选定后同时登场)", NOTHING),
    "look": _p("p: player, cards: list[card]", "none", "look", "p观看这些牌 (only p's seat learns them)",
                   NOTHING),
    "preshow": _p("p: player, s: skill", "none", "preshow", "预亮: a face-down hero's skill is offered when it "
                  "could fire (using it reveals the hero)",
                   NOTHING),
    "set_kingdom": _p("p: player, k: kingdom", "none", "set_kingdom",
                      "p的势力改为/确定为k (化身; 国战: in a mode without identities it is also p's side)",
                   Effect(frozenset({"kingdom"}))),
    "players_win": _p("ps: list[player], reason: text", "none", "players_win",
                      "these players win, and only they (a dead careerist does not share the survivor's victory)",
                   Effect(frozenset({"alive"}), ends=True)),
    "set_identity": _p("p: player, i: identity, shown: bool = True", "none", "set_identity",
                        "p的身份为i (shown: 亮出身份牌); a mode that deals identities its own way (1v1)",
                   Effect(frozenset({"identity"}))),
    "draft": _p("p: player, h: hero", "none", "draft", "p takes hero h into their line-up (p.reserve, in order)",
                   Effect(frozenset({"hero"}))),
    "enter_hero": _p("p: player, h: hero", "none", "enter_hero",
                     "登场: h (from p's reserve) enters play as p's hero; p is in the game again at full HP",
                   Effect(_HERO | {"alive"})),
    "game_over": _p("winners: list[identity], reason: text", "none", "game_over",
                    "the game ends now with these winners (a mode's own ending: a time limit's tiebreak)",
                   Effect(frozenset({"alive"}), ends=True)),
    "check_victory": _p("", "none", "check_victory", "检查胜利条件: ends the game at once if a mode's `win` holds",
                   Effect(frozenset({"alive"}), ends=True)),
    "flip": _p("p: player", "none", "flip", "翻面 (raw: no windows; rules call the flow `turn_over`)",
                   Effect(frozenset({"flipped"}), toward=(("p", "-"),))),
    "set_chained": _p("p: player, on: bool", "none", "set_chained",
                      "横置/重置 (raw: no windows; rules call the flow `chain`)",
                   Effect(frozenset({"chained"}), toward=(("p", "-sign:on"),))),
    "set_away": _p("p: player, on: bool", "none", "set_away",
                   "p不计入 (on) 或重新计入距离和座次的计算: 上家/下家、距离与队列 skip p while it is away (调虎离山)",
                   Effect(frozenset({"alive"}))),
    "reveal_identity": _p("p: player", "none", "reveal_identity", "亮出身份牌",
                   Effect(frozenset({"identity"}))),
    "add_skill": _p("p: player, s: skill, until: scope? = None", "none", "add_skill",
                    "获得技能 (until 本阶段/本回合: lost when that phase or turn ends)",
                   Effect(frozenset({"skills"}))),
    "remove_skill": _p("p: player, s: skill", "none", "remove_skill", "失去技能",
                   Effect(frozenset({"skills"}))),
    "remove_all_skills": _p("p: player", "none", "remove_all_skills", "失去所有技能 (not those of equipment)",
                   Effect(frozenset({"skills"}))),
    "reset_limit": _p("p: player, s: skill", "none", "reset_limit",
                      "重置技能的使用次数: p may use s again (its `limit` counts, or a 限定技/觉醒技's one use)",
                   Effect(frozenset({"limits"}), resets=True)),
    "skip": _p("ph: phase", "none", "skip", "跳过本回合的一个阶段",
                   Effect(frozenset({"phase"}))),
    "extra_phase": _p("ph: phase", "none", "extra_phase",
                      "执行一个额外的阶段 (the turn flow's own phase: its windows and log label)",
                   Effect(frozenset({"phase"}), grants="phase:ph")),
    "end_phase": _p("", "none", "end_phase", "结束当前阶段 at once (what is still settling in it is abandoned)",
                   Effect(frozenset({"phase"}), ends=True)),
    "end_phase_later": _p("", "none", "end_phase_later",
                          "结束当前阶段 once what is settling now is over (挟天子以令诸侯's 结束出牌阶段): the play phase "
                          "offers no further action", Effect(frozenset({"phase"}))),
    "end_turn": _p("", "none", "end_turn",
                   "结束当前回合 at once, with every settlement pending in it (翩仪); the next turn follows",
                   Effect(frozenset({"phase", "turn"}), ends=True)),
    "give_turn": _p("p: player", "none", "give_turn", "令p在此回合结束后进行一个额外的回合",
                   Effect(frozenset({"turn"}), grants="turn")),
    "play_phase": _p("p: player", "none", "play_phase",
                     "出牌阶段的行动: p uses cards and active skills until they stop",
                   Effect(frozenset({"cards", "hp", "alive"}), uses="any")),
    "ask_card": _p("p: player, pattern: cardname, how: how = 'use', prompt: text = ''", "card?", "ask_card",
                   "询问p打出或使用一张牌 (hand cards or view-as skills); none if declined",
                   NOTHING),
    "ask_use": _p("p: player, cards: list[card], prompt: text = ''", "card?", "ask_use",
                  "p可以使用其中一张牌 (its targets chosen as in the play phase, its use limit not counted); "
                  "none if declined",
                   Effect(frozenset({"cards", "hp", "alive"}), uses="cards")),
    "card_effect": _p("card: card, aim: @aim", "none", "card_effect", "执行牌的效果 (the card's `effect` block)",
                   Effect(hooks=True)),
    "card_before": _p("card: card, use: @use", "none", "card_before", "牌的`before` block, once per use",
                   Effect(hooks=True)),
    "card_after": _p("card: card, use: @use", "none", "card_after", "牌的`after` block, once per use",
                   Effect(hooks=True)),
    "deal_identities": _p("", "none", "deal_identities", "按模式的身份表随机分发身份牌",
                   Effect(frozenset({"identity"}))),
    "draw_heroes": _p("n: int, exclude: list[hero] = (), for_lord: bool = False", "list[hero]", "draw_heroes",
                      "从武将牌堆随机抽n张 (不抽 exclude 中的武将；for_lord: 不抽不能当主公的武将)",
                   NOTHING),
    "return_heroes": _p("heroes: list[hero]", "none", "return_heroes",
                        "dealt heroes not chosen go back to the 武将牌堆 (a small pool still seats a full table)",
                   NOTHING),
    "pick_hero": _p("p: player, heroes: list[hero]", "hero", "pick_hero", "p从给出的武将中选择一名; the rest return",
                   Effect(_HERO)),
    "set_hero": _p("p: player, h: hero", "none", "set_hero", "p扮演武将h (体力上限、势力、技能)",
                   Effect(_HERO | {"kingdom", "gender"})),
    "set_gender": _p("p: player, g: gender", "none", "set_gender", "p的性别改为g",
                   Effect(frozenset({"gender"}))),
    "start_from": _p("p: player", "none", "start_from", "由p开始第一个回合",
                   Effect(frozenset({"turn"}))),
}


@attrs.frozen
class Role:
    kind: str  # flow | window | event | quantity | value
    needs: tuple[tuple[str, str], ...]  # fields (flow/window/event) or params (quantity)
    ret: str | None  # a quantity's type; a value's enum
    doc: str


ROLES: dict[str, Role] = {
    "turn": Role("flow", (("player", "player"),), None, "the flow run for every turn; the engine picks the player"),
    "use": Role("flow", (("source", "player"), ("card", "card"), ("targets", "list[player]")), None,
                "the flow that uses a card chosen in the play phase or by `ask_use`"),
    "aim": Role("event", (("source", "player"), ("target", "player"), ("card", "card")), None,
                "the event type that card `effect` blocks receive"),
    "moved": Role("window", (("cards", "list[card]"), ("loser", "player?"), ("gainer", "player?"),
                             ("to", "zone"), ("lost_hand", "int"), ("lost_equip", "int")), None,
                  "the window opened after cards move (skipped when no skill listens)"),
    "moving": Role("window", (("cards", "list[card]"), ("loser", "player?"), ("gainer", "player?"),
                              ("to", "zone"), ("by", "player?"), ("discarding", "bool")), None,
                   "the window opened before cards that lie in a zone move (skipped when no skill listens): a skill "
                   "may stop the move (`cancelled`), or change the cards (`cards`) or where they go (`to`, and "
                   "`gainer` for a hand)"),
    "conduct": Role("flow", (("conduct", "bool"),), None,
                    "run right after a damage flow whose event asks for it (`conduct`): 连环 conduction. The "
                    "engine runs it so that the conflict checks do not take every damage for a chain"),
    "reveal": Role("flow", (("who", "player"), ("slot", "int")), None,
                   "the flow that reveals (明置) a face-down hero card: the engine runs it when a player uses a "
                   "skill of a face-down hero"),
    "revealable": Role("quantity", (("p", "player"), ("slot", "int")), "bool",
                       "whether p may reveal (明置) the face-down hero card slot of their own accord: the engine "
                       "offers a face-down hero's skill only when it is true (祸水 forbids it)"),
    "skill_valid": Role("quantity", (("p", "player"), ("s", "skill")), "bool",
                        "whether p's hero skill s is in effect (失效: 军令四's 「所有非锁定技失效」): a skill that is not is "
                        "not offered, does not trigger and its `modify` lines do not apply; equipment skills are not "
                        "asked"),
    "sole_big": Role("quantity", (("p", "player"),), "bool",
                     "whether p's kingdom is the only big kingdom, all others small, whatever the counts (玉玺); the "
                     "builtins `big_kingdoms`, `is_big` and `is_small` read it"),
    "recast": Role("flow", (("who", "player"), ("card", "card")), None,
                   "the flow that recasts (重铸) a card: the engine offers it in the play phase for every hand "
                   "card declared `recast`"),
    "play": Role("flow", (("who", "player"), ("card", "card")), None,
                 "the flow that plays (打出) a card; recorded in the history"),
    "damage": Role("flow", (("source", "player?"), ("target", "player"), ("amount", "int")), None,
                   "the damage flow: HP it takes is recorded in the history; simulate's skill statistics count "
                   "damage dealt and prevented through it"),
    "recover": Role("flow", (("source", "player?"), ("target", "player"), ("amount", "int")), None,
                    "the recover flow: HP it gives is recorded in the history"),
    "die": Role("flow", (("who", "player"), ("killer", "player?")), None,
                "the death flow: its killer is recorded in the history"),
    "targetable": Role("quantity", (("user", "player"), ("target", "player"), ("card", "card")), "bool",
                       "whether a card may be used on a target, besides the card's own `where`"),
    "usable": Role("quantity", (("user", "player"), ("card", "card")), "bool",
                   "whether a player may use a card at all, besides its targets and use limit"),
    "playable": Role("quantity", (("who", "player"), ("card", "card")), "bool",
                     "whether a player may play (打出) a card when asked for one"),
    "recastable": Role("quantity", (("who", "player"), ("card", "card")), "bool",
                       "whether a player may recast (重铸) a hand card besides those declared `recast` (连环)"),
    "as_hand": Role("quantity", (("who", "player"), ("card", "card")), "bool",
                    "whether a player may use or play (打出) a card of one of their piles as if it were in hand "
                    "(木牛流马's 辎): the play phase and every request for a card offer it beside the hand"),
    "discardable": Role("quantity", (("who", "player"), ("card", "card")), "bool",
                        "whether a player may discard a card (theirs or another's); `discard` skips the rest"),
    "need_card": Role("window", (("who", "player"), ("pattern", "cardname"), ("how", "how"), ("card", "card?")), None,
                      "the window where skills supply a needed card (八卦阵, 激将); the play phase also offers a "
                      "card that one of them could supply, probing its `when` with a hypothetical request"),
    "kingdom_on_reveal": Role("quantity", (("p", "player"), ("k", "kingdom")), "kingdom",
                              "the kingdom p has once a hero card of kingdom k is revealed (国战: 野心家 when k would be more "
                              "than half of the table); the bots read it to foresee what revealing makes them"),
    "lone_kingdom": Role("value", (), "kingdom",
                         "the kingdom whose players share a kingdom with nobody, not even each other (国战's 野心家): "
                         "`same_kingdom`, `diff_kingdom`, 大势力 and the bots read it. Unbound, no kingdom is lone"),
}
REQUIRED_ROLES = ("turn", "use", "aim")

# `hint` intents: advice to the heuristic bots on how a card or skill is meant to be used.
HINT_INTENTS: dict[str, str] = {
    "hostile": "use it on enemies",
    "friendly": "use it on allies (or yourself)",
    "self": "good for its user: use it when you can",
    "risky": "good, at a cost to the user: use it only when healthy",
    "keep": "best kept in hand for a response",
    "never": "bots never use it on their own",
    # on identities (a mode's advice on how each side plays)
    "lordside": "an identity that protects the lord",
    "rebel": "an identity that wants the lord dead",
    "loner": "an identity that wins alone: keeps the balance, turns on the lord last",
}
# `hint "option text" INTENT [VALUE]`: what choosing an option of `choose … option` means for the chooser.
OPTION_INTENTS: dict[str, str] = {
    "self": "good for the chooser: worth VALUE",
    "risky": "costs the chooser HP: worth VALUE when healthy (3 HP or more), -VALUE otherwise",
    "friendly": "helps the other player of the event: worth VALUE if they are an ally, -VALUE if an enemy",
    "hostile": "harms the other player of the event: worth VALUE if they are an enemy, -VALUE if an ally",
    "never": "chosen only when nothing else may be",
}
