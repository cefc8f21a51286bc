"""Every conflict finding's code, kebab-case name and why it matters (docs/checks.md is generated from it)."""

from __future__ import annotations

# SGS3nn -> (kebab-case name, why it matters)
CATALOGUE: dict[str, tuple[str, str]] = {
    "SGS301": ("order-dependent-modifiers",
               "Two `modify` of one quantity that both set it (`=`) to different values: the value depends on "
               "the order they apply in, which seed 001 leaves open."),
    "SGS302": ("order-dependent-event-writes",
               "Two triggers at one window: one sets an event field the other adds to, or one's `when` reads a "
               "field the other writes: the outcome depends on their order."),
    "SGS311": ("competing-cancellations",
               "Two effects both prevent the same event (both set `event.cancelled` at one window)."),
    "SGS312": ("competing-replacements",
               "Two effects both replace the same thing (both assign one event field with `=` at one window: "
               "the judgment card, the answering card …): only one can stand."),
    "SGS313": ("shared-cost",
               "Two skills spend the same thing as their cost (both give up the same draw): the second gets its "
               "effect for free."),
    "SGS321": ("trigger-loop",
               "A skill, or a cycle of skills, whose effect opens the window that triggers it again, and no round "
               "uses up anything for good (a use limit, cards, HP toward a bound): nothing stops it."),
    "SGS322": ("loop-ends-only-by-death",
               "A loop of triggers that costs HP every round and gives none back, with no other bound: it ends "
               "only when someone dies."),
    "SGS323": ("loop-without-exit",
               "A `while` whose test never turns false (`while true`), or a `repeat inf`, whose body has no "
               "`break` or `stop`."),
    "SGS324": ("flow-recursion-without-exit",
               "A flow, or a ring of flows, that calls itself on every path before anything could end it: "
               "every call starts another."),
    "SGS325": ("quantity-defined-by-itself",
               "A quantity whose value (its definition, a `modify` of it, or other quantities it reads) needs "
               "itself whenever it is read."),
    "SGS331": ("skill-never-triggered",
               "A trigger whose windows no flow of the modes it can appear in ever opens."),
    "SGS332": ("window-never-opened", "A window that is declared and that nothing opens."),
    "SGS333": ("condition-never-true", "A `when` that can never hold: the rule is off for good."),
    "SGS334": ("lord-skill-without-lord",
               "A 主公技 on a hero who can never be the lord (`never lord`, or no mode with a `lord` deals "
               "the hero)."),
    "SGS335": ("skill-dead-in-mode",
               "A hero is dealt in a mode where one of its skills can never fire (no flow of that mode opens its "
               "windows), though it fires in another mode."),
    "SGS341": ("field-write-without-effect",
               "An event field written at a window after which nothing reads it: the write changes nothing."),
    "SGS351": ("overfull-suit-rank",
               "A deck holds a suit and rank more often than its own pattern allows (standard: each twice)."),
    "SGS352": ("repeated-deck-entry",
               "The same entry (suit, rank and card) twice in a deck that repeats nothing else."),
    "SGS353": ("deck-size-mismatch", "A mode's decks do not add up to the total its `deck … N` declares."),
    "SGS354": ("identity-table-mismatch",
               "A mode's identity table lacks a row for an allowed player count, has a row outside the range or "
               "twice, or a row without exactly one lord."),
    "SGS355": ("mode-hero-unavailable",
               "A mode names a hero it cannot deal (not in its `heroes` pool), or its hero pool is empty."),
    "SGS356": ("deck-edition-mismatch",
               "A deck declared as a known edition does not hold, card by card, what the edition's reference list "
               "says (a card missing, extra, or under another suit and rank)."),
    "SGS357": ("mode-decks-overlap",
               "Two decks that a mode combines list the same card (suit, rank and name): the combined deck holds "
               "it twice."),
    "SGS358": ("deck-replaces-nothing",
               "A deck entry `replaces` a card that no deck dealt beside it holds (nothing is left out), or a card "
               "its own deck deals (its own copies are left out too)."),
    "SGS361": ("text-timing-unused",
               "The official text names a timing (受到伤害后, 准备阶段 …) that the skill's rules do not use."),
    "SGS362": ("text-limit-unused",
               "The official text states a use limit or a type (出牌阶段限一次, 锁定技, 主公技 …) that the rules "
               "do not have."),
    "SGS363": ("type-not-in-text", "The rules give a skill a type (locked, lord …) that its text does not state."),
    "SGS364": ("text-others-unused",
               "The official text says 其他角色 (其他蜀势力角色 …), but no rule of the skill keeps its owner out."),
    "SGS365": ("limit-not-in-text",
               "A rule has `limit 1 per phase` or `per turn` that the official text does not state."),
    "SGS381": ("pair-order-dependent", "Family 1 (SGS301/SGS302) across two heroes that can meet."),
    "SGS382": ("pair-competing-replacements", "Family 2 (SGS311–SGS313) across two heroes that can meet."),
    "SGS383": ("pair-trigger-loop", "Family 3 (SGS321) across two heroes that can meet."),
    "SGS384": ("pair-loop-ends-only-by-death", "Family 3 (SGS322) across two heroes that can meet."),
    "SGS385": ("pair-limit-restored",
               "A skill gives back the use limit of another hero's skill (`reset_limit`, or writing the counter "
               "that skill counts its uses with): its 限定技, 觉醒技 or per-turn limit no longer holds."),
    "SGS391": ("choice-intent-unknown",
               "A note: a choice of a player, of a skill's targets or of an option whose meaning for the chosen "
               "the compiler cannot derive from what follows it (nothing changes the chosen, or good and bad "
               "weigh the same): the bots play it without knowing whom it is for, and a `hint` tells them."),
}


def catalogue() -> dict[str, tuple[str, str]]:
    return dict(sorted(CATALOGUE.items()))
