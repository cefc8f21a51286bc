"""The syntax tree: frozen attrs nodes, each with the span it came from.

`eq=False` keeps identity semantics, so later stages can key side tables by node.
"""

from __future__ import annotations

import attrs

from .diagnostics import Span

node = attrs.frozen(eq=False, kw_only=True)


@node
class Name:
    text: str
    span: Span


# ---- expressions ---------------------------------------------------------------


@node
class Expr:
    span: Span


@node
class NameRef(Expr):
    text: str


@node
class IntLit(Expr):
    value: int


@node
class StrLit(Expr):
    value: str


@node
class SuitLit(Expr):
    value: str  # one of ♠♥♣♦


@node
class CardLit(Expr):
    """`♣2 杀`, in a test's expect: any card of that name, suit and rank."""

    suit: str  # one of ♠♥♣♦
    rank: int
    name: "Name"


@node
class ListLit(Expr):
    items: tuple[Expr, ...]


@node
class Attr(Expr):
    obj: Expr
    name: Name


@node
class Arg:
    name: Name | None
    value: Expr


@node
class Call(Expr):
    func: Expr
    args: tuple[Arg, ...]


@node
class Index(Expr):
    obj: Expr
    index: Expr


@node
class BinOp(Expr):
    op: str  # + - * / %
    left: Expr
    right: Expr


@node
class Compare(Expr):
    op: str  # == != < <= > >= in "not in" is
    left: Expr
    right: Expr


@node
class BoolOp(Expr):
    op: str  # and / or
    items: tuple[Expr, ...]


@node
class Not(Expr):
    operand: Expr


@node
class Neg(Expr):
    operand: Expr


@node
class Cond(Expr):
    test: Expr
    then: Expr
    other: Expr


@node
class Filter(Expr):
    source: Expr
    pred: Expr
    binder: Name | None = None  # `xs where c: …` names the element; `it` stays the outer one


@node
class Extreme(Expr):
    """`xs least e` / `xs most e`: the elements for which e (with `it`) is smallest / largest."""

    source: Expr
    key: Expr
    most: bool


@node
class Choose(Expr):
    who: Expr
    prompt: str | None
    kind: str  # card cards player players option options
    lo: Expr | None
    hi: Expr | None
    source: Expr | None
    where: Expr | None
    parts: tuple = ()  # the prompt's literal text and `{expr}` parts, when it interpolates
    together: Expr | None = None  # a condition on the chosen list as a whole (`it` is the list)


@node
class Ask(Expr):
    who: Expr
    prompt: str
    parts: tuple = ()  # the prompt's literal text and `{expr}` parts, when it interpolates


@node
class New(Expr):
    event: Name
    args: tuple[Arg, ...]


# ---- statements ------------------------------------------------------------------


@node
class Stmt:
    span: Span


@node
class Block:
    stmts: tuple[Stmt, ...]
    span: Span


@node
class Let(Stmt):
    name: Name
    value: Expr


@node
class Assign(Stmt):
    target: Expr
    op: str  # = += -=
    value: Expr


@node
class ExprStmt(Stmt):
    expr: Expr


@node
class If(Stmt):
    test: Expr
    then: Block
    other: Block | None


@node
class For(Stmt):
    var: Name
    iter: Expr
    body: Block


@node
class While(Stmt):
    test: Expr
    body: Block


@node
class Repeat(Stmt):
    count: Expr
    body: Block


@node
class Open(Stmt):
    window: Name
    event: Expr | None


@node
class PhaseStmt(Stmt):
    phase: Name
    body: Block


@node
class Later(Stmt):
    body: Block


@node
class Log(Stmt):
    text: str
    parts: tuple[str | Expr, ...]  # literal text and interpolated expressions


@node
class Stop(Stmt):
    pass


@node
class Break(Stmt):
    pass


@node
class Continue(Stmt):
    pass


# ---- declarations ------------------------------------------------------------------


@node
class Decl:
    span: Span


@node
class Package(Decl):
    name: Name
    title: str | None
    variant: bool = False  # loaded only when selected; may redeclare what the packages it uses declare


@node
class Use(Decl):
    names: tuple[Name, ...]


@node
class Import(Decl):
    path: str


@node
class EnumItem:
    name: Name
    id: Name
    title: str | None
    span: Span


@node
class EnumDecl(Decl):
    name: Name
    title: str | None
    items: tuple[EnumItem, ...]


@node
class TypeRef:
    name: Name
    elem: Name | None
    optional: bool
    span: Span


@node
class Field:
    name: Name
    type: TypeRef
    default: Expr | None
    doc: str | None
    span: Span


@node
class EventDecl(Decl):
    name: Name
    title: str | None
    fields: tuple[Field, ...]


@node
class ExtendDecl(Decl):
    event: Name
    fields: tuple["Field", ...]


@node
class WindowDecl(Decl):
    name: Name
    id: Name
    event: Name
    subject: Name | None
    doc: str | None
    dead: bool = False  # asks its subject even when dead (死亡时)


@node
class FlowDecl(Decl):
    name: Name
    id: Name
    event: Name
    result: Name | None
    doc: str | None
    body: Block


@node
class Param:
    name: Name
    type: TypeRef


@node
class QuantityDecl(Decl):
    name: Name
    id: Name
    params: tuple[Param, ...]
    type: TypeRef
    base: Expr
    floor: Expr | None
    doc: str | None


@node
class CounterDecl(Decl):
    name: Name
    id: Name
    scope: str  # phase turn game
    type: TypeRef | None = None  # int unless given


@node
class MarkDecl(Decl):
    name: Name
    id: Name
    doc: str | None
    type: TypeRef | None = None
    hidden: bool = False  # 扣置: only its owner knows the value; other seats see how many


@node
class PileDecl(Decl):
    """Cards set aside on a hero: a zone on every player, and the attribute `p.<id>` listing it."""

    name: Name
    id: Name
    hidden: bool  # face down: only its owner knows the cards
    doc: str | None
    seat: bool = False  # belongs to the seat: stays when a hero leaves, and the death flow leaves it alone


@node
class BindDecl(Decl):
    role: Name
    target: Name


@node
class TargetSpec:
    kind: str  # self all some
    lo: Expr | None
    hi: Expr | None
    where: Expr | None
    span: Span


@node
class Limit:
    count: Expr
    scope: str
    span: Span


@node
class Trigger:
    windows: tuple[Name, ...]
    any: bool
    forced: bool
    when: Expr | None
    limit: Limit | None
    cost: Block | None
    target: TargetSpec | None
    do: Block
    span: Span
    times: Expr | None = None  # `repeat N`: offered up to N times at one opening of its window


@node
class Active:
    when: Expr | None
    limit: Limit | None
    cost: Block | None
    target: TargetSpec | None
    do: Block
    span: Span
    by: Expr | None = None  # who else may use it in their play phase (`it` is the candidate); `user` in the body


@node
class ViewAs:
    card: Name
    count: int  # ALL_CARDS: every card the source holds (奇策: 所有手牌)
    hand_only: bool
    where: Expr | None
    when: Expr | None
    mode: str | None  # use / play / None for both
    span: Span
    together: Expr | None = None  # a condition on the chosen cards as a set (`it` is the list)
    pile: Name | None = None  # the cards come from this pile of the owner (急袭: 一张「田」)
    by: By | None = None  # who may make it (`it` is the candidate, `self` the owner); `user` in the clauses
    limit: Limit | None = None  # counted against the owner, whoever makes it
    each: bool = False  # `limit … each`: counted against each user instead (for this owner's skill)


@node
class By:
    """A conversion's `by PRED`: its own node, which the candidate `it` is noted on (PRED may be a bare literal)."""

    pred: Expr
    span: Span


ALL_CARDS = -1


@node
class CardFilter:
    """`filter suit = ♥ where …`: cards for which `where` holds are read with this suit, colour or name."""

    what: Name  # suit / color / name
    value: Expr
    where: Expr
    span: Span


@node
class Modify:
    quantity: Name
    args: tuple[Name, ...]
    op: str
    value: Expr
    when: Expr | None
    span: Span


@node
class Allow:
    code: Name
    reason: str
    span: Span


@node
class Grant:
    """`has S, … while COND`: the owner holds these skills while COND holds."""
    skills: tuple[Name, ...]
    when: Expr
    span: Span


Facet = Trigger | Active | ViewAs | Modify | Allow | CardFilter | Grant


@node
class RuleDecl(Decl):
    """A package's rule: in effect in every game that loads the package (a mode's rules: ModeDecl.rules); with
    `for` cards, only in a game that holds one of them (the rules of a card that acts from anywhere: 敕令)."""
    rule: SkillDecl
    cards: tuple[Name, ...] = ()


@node
class SkillDecl(Decl):
    name: Name
    id: Name
    types: tuple[str, ...]  # locked lord limited awaken
    texts: tuple[str, ...]
    facets: tuple[Facet, ...]
    counters: tuple[CounterDecl, ...]
    tests: tuple["TestDecl", ...]
    # `rules of P.S`: the facets, counters and types are those of skill S of package P (resolve copies them in)
    rules_of: tuple["RulesOf", ...] = ()
    # events and flows declared inside the skill: the parser also lists them among the file's declarations,
    # so every stage handles them as top-level ones; the checks keep their use to this skill
    decls: tuple = ()


@node
class RulesOf:
    package: Name | None  # required: without it, resolve says which packages declare the skill
    skill: Name
    span: Span


@node
class CardDecl(Decl):
    name: Name
    id: Name
    kind: str  # basic trick delayed equipment
    slot: str | None  # weapon armor plus_horse minus_horse treasure
    range: int | None
    texts: tuple[str, ...]
    target: TargetSpec | None
    limit: Limit | None
    hooks: tuple[tuple[str, Block], ...]  # effect / before / after
    facets: tuple[Facet, ...]
    parent: Name | None = None  # `is 杀`: a kind of that card
    nature: Name | None = None  # the 属性 of the damage it deals (火杀)
    recast: bool = False  # may be 重铸


@node
class HeroDecl(Decl):
    name: Name
    id: Name
    kingdom: Name | None
    hp_halves: int | None
    gender: Name | None
    skills: tuple[Name, ...]
    pairs: tuple[Name, ...]
    never_lord: bool
    texts: tuple[str, ...]
    modes: tuple[Name, ...] = ()  # `modes M, …`: dealt only in these modes (empty: every mode)
    # 国战 主将技/副将技 that change the card's 阴阳鱼: its hp (in halves) as the main or the deputy hero
    main_halves: int | None = None
    deputy_halves: int | None = None
    # 国战 君主: `lord of 刘备` — this card replaces that hero's card (the mode's rules say when); never dealt
    lord_of: Name | None = None


@node
class DeckEntry:
    suit: str
    rank: int
    card: Name
    span: Span
    sign: Name | None = None  # a mark printed on this physical card (连横)
    replaces: Name | None = None  # while this deck is dealt, the other decks' copies of this card are not


@node
class DeckDecl(Decl):
    name: Name
    id: Name
    title: str | None
    entries: tuple[DeckEntry, ...]
    edition: Name | None = None  # `edition E`: must hold exactly the cards of edition E
    modes: tuple[Name, ...] = ()  # `modes M, N`: the deck belongs to these modes (not a test's default decks)
    facets: tuple[Allow, ...] = ()  # `allow CODE "reason"`: the deck's data findings acknowledged


@node
class EditionRow:
    card: Name
    cards: tuple[tuple[str, int, Span], ...]  # (suit, rank, span) of every copy
    span: Span


@node
class EditionDecl(Decl):
    """A published card list (by card name): the reference a deck declared as this edition is checked against."""

    name: Name
    id: Name
    title: str | None
    rows: tuple[EditionRow, ...]


@node
class PoolDecl(Decl):
    """A named set of heroes (an official expansion set): `simulate --pool` deals from the pools it names."""

    name: Name
    id: Name
    title: str | None
    heroes: tuple[Name, ...]


@node
class Win:
    identities: tuple[Name, ...]
    cond: Expr
    span: Span


@node
class TableRow:
    players: int
    variants: tuple[tuple[Name, ...], ...]
    span: Span


@node
class ModeDecl(Decl):
    name: Name
    id: Name
    title: str | None
    texts: tuple[str, ...]
    players: tuple[int, int] | None
    table: tuple[TableRow, ...]
    decks: tuple[Name, ...]
    heroes: tuple[Name, ...]
    lord: Name | None
    setup: Block | None
    wins: tuple[Win, ...]
    rules: tuple[SkillDecl, ...]
    deck_size: int | None = None  # `deck 标准版 104`: the total the decks must add up to
    hero_except: tuple[Name, ...] = ()  # `heroes standard except 华佗`: kept out of the pool
    variants: tuple[Name, ...] = ()  # `with duel_skills`: variant packages this mode always plays with
    victory: Block | None = None  # decides winners in play (check_victory runs it after the `win` clauses)
    options: tuple["ModeOption", ...] = ()  # settings a game of the mode can change (`--option id=value`)
    aliases: tuple[str, ...] = ()  # other names for the command line (`--mode 1v1`)


@node
class ModeOption:
    name: Name
    id: Name
    default: Expr  # an int, text or bool literal
    doc: str | None
    span: Span
    aliases: tuple[str, ...] = ()  # other names for the command line (`--mode 1v1`)


@node
class CardRef:
    suit: str | None
    rank: int | None
    name: Name
    span: Span
    sign: Name | None = None  # a sign printed on the card (国战's 连横): `hand [♠7 杀 连横]`


@node
class Seat:
    hero: Name
    hp: int | None
    max_hp: int | None
    hand: tuple[CardRef, ...]
    equip: tuple[CardRef, ...]
    judge: tuple[CardRef, ...]
    identity: Name | None
    flipped: bool
    chained: bool
    marks: tuple[tuple[Name, int], ...]
    span: Span
    dead: bool = False
    reserve: tuple[Name, ...] = ()  # heroes waiting to enter play (1v1)
    fallen: tuple[Name, ...] = ()  # heroes of this seat that died before the test begins
    piles: tuple[tuple[Name, tuple[CardRef, ...]], ...] = ()  # cards set aside on the hero (`pile 田 [杀]`)
    deputy: Name | None = None  # 国战: the second hero card (the seat's hero is the main one)
    hidden: tuple[str, ...] = ()  # the hero cards face down: "main", "deputy"
    kingdom: Name | None = None  # the seat's kingdom, when not the first face-up hero's (野心家)
    armed: tuple[Name, ...] = ()  # pre-shown skills of face-down heroes (预亮)


@node
class Decision:
    kind: str  # name text many bot (items[0]: the heuristic bot's expected answer)
    suit: str | None
    rank: int | None
    text: str
    items: tuple["Decision", ...]
    span: Span
    optional: bool = False  # `杀?`: an answer the test offers but need not be asked for


@node
class TestDecl(Decl):
    title: str
    mode: Name | None
    seats: tuple[Seat, ...]
    deck: tuple[CardRef, ...]
    start: tuple[Name, Name | None] | None
    turns: int
    decides: tuple[tuple[Name, tuple[Decision, ...]], ...]
    expects: tuple[Expr, ...]
    logs: tuple[tuple[bool, tuple[str, ...], Span], ...]  # (present?, texts in order, span)
    owner: str | None = None  # id of the skill it sits in
    asked: tuple[tuple[tuple[Name, ...], Span], ...] = ()  # `expect asked A, B`: requests in this order
    setup: bool = False  # run the mode's setup with the seats' heroes and identities
    turn_limit: int = 0  # the game's time limit in turns (turn_limit())
    options: tuple[tuple[Name, Expr], ...] = ()  # `option aozhan_mode = true`: the mode's options this game sets
    # `decide 刘备 八卦阵: …`: answers bound to one skill's or card's requests to one seat (decides holds the
    # one-name form, a seat or a skill: the checker tells which)
    bound: tuple[tuple[Name, Name, tuple[Decision, ...]], ...] = ()
    # `expect asked 刘备 [八卦阵]: [杀, 闪] [== N]` and `expect asked 刘备 [八卦阵] == N`: (who, skill, options or
    # None, count or None, span)
    requests: tuple[tuple[Name, Name | None, tuple[Decision, ...] | None, int | None, Span], ...] = ()
    views: tuple[tuple[Name, Expr], ...] = ()  # `expect view 座位2: EXPR`: EXPR read through that seat's view
    heroes: tuple[Name, ...] = ()  # `heroes [A, B]`: the hero pile draw_heroes draws from (default: none)


@node
class HintDecl(Decl):
    targets: tuple[Name, ...]  # cards or skills
    intent: Name
    value: int
    options: tuple[Name, ...] = ()  # option labels of `choose … option` (the text, with its span)


@node
class Module:
    path: str
    decls: tuple[Decl, ...]
