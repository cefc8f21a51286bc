"""What happened, as data the rules can query: 「本阶段未使用过【杀】」, 「本回合弃置的牌」.

The interpreter appends a Record whenever a card is used, played, discarded, gained (drawn
included: 摸牌 is a way of 获得) or lost, HP is lost to damage or to a skill, HP is recovered,
or a player is killed — COVERAGE below says where each kind is recorded, and docs/language.md's
table of it is generated from it. Rules read the records of the current phase, turn or game
through the built-ins `history`, `used`, `played`, `discarded`, `gained`, `lost`, `given`,
`damage_dealt`, `damage_taken`, `kills` and `targeted` (surface.FUNCS), so no skill needs a bookkeeping trigger.
"""

from __future__ import annotations

# What a record says happened (the rules compare `it.what` with these texts).
USE, PLAY, DISCARD, GAIN, LOSE, DAMAGE, RECOVER, LOSE_HP, KILL = (
    "使用", "打出", "弃置", "获得", "失去", "伤害", "回复", "失去体力", "杀死")
SCOPES = ("phase", "turn", "game")

# Each kind of record: what appends it, its `who` and `target`, and the built-ins that read it besides
# `history`. tests/test_history.py makes each of these happen and finds its record.
COVERAGE = (
    (USE, "the use flow (engine role `use`): every card used, with its `targets`", "the user", "—",
     "used, targeted"),
    (PLAY, "the play flow (engine role `play`): every card played (打出) in response", "who played it", "—",
     "played"),
    (DISCARD, "`discard` (the 弃牌阶段 included)", "the discarder", "—", "discarded"),
    (GAIN, "`gain`, and `draw` (摸牌 is a way of 获得)", "who gained the cards",
     "whose they were (none from the draw pile)", "gained, given"),
    (LOSE, "every move that takes cards out of a hand or equipment area", "who lost them", "—", "lost"),
    (DAMAGE, "the damage flow (engine role `damage`), for the HP it takes", "the source", "the damaged",
     "damage_dealt, damage_taken"),
    (RECOVER, "the recover flow (engine role `recover`)", "the source", "who recovered", "—"),
    (LOSE_HP, "any loss of HP outside the damage flow (`lose_hp` …)", "—", "who lost the HP", "—"),
    (KILL, "the death flow (engine role `die`)", "the killer", "who died", "kills"),
)


class Record:
    """One thing that happened. `who` did it (the user, the discarder, the damage source …),
    `target` had it done to them (the damaged, the one whose cards were taken …)."""

    __slots__ = ("what", "who", "target", "card", "cards", "amount", "skill", "turn", "use")

    def __init__(self, what: str, who=None, target=None, cards=(), amount: int = 0, skill=None, turn: int = 0,
                 use=None):
        self.use = use  # a 使用's event: its targets are read from it, so the ones added or changed count
        self.what = what
        self.who = who
        self.target = target
        self.cards = list(cards)
        self.card = self.cards[0] if len(self.cards) == 1 else None
        self.amount = amount
        self.skill = skill
        self.turn = turn

    @property
    def targets(self) -> list:
        """The players a 使用 was aimed at (「使用牌指定过的角色」); none for the other records."""
        return list(self.use.targets) if self.use is not None else []

    def __repr__(self) -> str:
        return f"Record({self.what}, {self.who}, {self.target}, {self.cards}, {self.amount})"


class History:
    """Mixed into Game: the records, and where the current turn and phase began."""

    def _history_init(self) -> None:
        self.records: list[Record] = []
        self.since = {"phase": 0, "turn": 0, "game": 0}

    def mark_scope(self, scope: str) -> None:
        """A new turn or phase begins: its records start here."""
        self.since[scope] = len(self.records)
        if scope == "turn":
            self.since["phase"] = len(self.records)

    def remember(self, what: str, who=None, target=None, cards=(), amount: int = 0, use=None) -> None:
        skill = None
        for f in reversed(self.stack):
            if f.kind == "skill":
                skill = f.ident
                break
        self.records.append(Record(what, who, target, cards, amount, skill, self.turn_no, use))

    # ---- the built-ins the rules call ---------------------------------------------------------
    def history(self, scope: str) -> list[Record]:
        return self.records[self.since[scope]:]

    def _cards_of(self, what: str, p, scope: str, as_target: bool = False) -> list:
        out = []
        for r in self.records[self.since[scope]:]:
            if r.what == what and (r.target if as_target else r.who) is p:
                out.extend(r.cards)
        return out

    def used_cards(self, p, scope: str) -> list:
        return self._cards_of(USE, p, scope)

    def targeted(self, p, scope: str) -> list:
        """The players p's uses were aimed at, each once, in the order first aimed at."""
        out: list = []
        for r in self.records[self.since[scope]:]:
            if r.what == USE and r.who is p:
                out.extend(t for t in r.targets if t not in out)
        return out

    def played_cards(self, p, scope: str) -> list:
        return self._cards_of(PLAY, p, scope)

    def discarded_cards(self, p, scope: str) -> list:
        return self._cards_of(DISCARD, p, scope)

    def gained_cards(self, p, scope: str) -> list:
        return self._cards_of(GAIN, p, scope)

    def lost_cards(self, p, scope: str) -> list:
        return self._cards_of(LOSE, p, scope)

    def given_cards(self, p, scope: str) -> list:
        """Cards p's hand or equipment gave to other players' hands (仁德's 「交给其他角色的牌」)."""
        return [c for r in self.records[self.since[scope]:]
                if r.what == GAIN and r.target is p and r.who is not p for c in r.cards]

    def damage_dealt(self, p, scope: str) -> int:
        return sum(r.amount for r in self.records[self.since[scope]:] if r.what == DAMAGE and r.who is p)

    def damage_taken(self, p, scope: str) -> int:
        return sum(r.amount for r in self.records[self.since[scope]:] if r.what == DAMAGE and r.target is p)

    def kills_of(self, p, scope: str) -> int:
        return sum(1 for r in self.records[self.since[scope]:] if r.what == KILL and r.who is p)
