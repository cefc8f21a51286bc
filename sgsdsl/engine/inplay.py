"""Skills in play: each skill instance a player holds, and its triggers registered per window."""

from __future__ import annotations

from .tables import SkillDef, TriggerDef


class Listener:
    """One trigger of one skill instance, registered under a window id."""

    __slots__ = ("owner", "skill", "trigger", "equip", "active", "inst")

    def __init__(self, owner, skill: SkillDef, trigger: TriggerDef, equip: bool, inst=None):
        self.owner = owner
        self.skill = skill
        self.trigger = trigger
        self.equip = equip
        self.active = True
        self.inst = inst


class SkillInst:
    """A skill a player holds. `slot` is the hero card it is printed on (0 main, 1 deputy; None for a skill
    gained or lent, or equipment): a skill of a face-down hero (国战's 暗置) has no effect, but can be used
    by revealing the hero, and a pre-shown (预亮) one is offered when it could trigger."""

    __slots__ = ("skill", "owner", "equip", "listeners", "mods", "card", "slot")

    def __init__(self, skill: SkillDef, owner, equip: bool, card=None, slot: int | None = None):
        self.skill = skill
        self.owner = owner
        self.equip = equip
        self.listeners: list[Listener] = []
        self.mods: list = []
        self.card = card
        self.slot = slot

    @property
    def live(self) -> bool:
        """In effect now: not on a face-down hero card."""
        return self.slot is None or self.owner is None or self.owner.shown[self.slot]

    @property
    def usable_hidden(self) -> bool:
        """Could be used now by revealing its hero (not a locked skill: a face-down hero has none in effect), when
        the rules let its owner reveal it (`revealable`)."""
        return not self.live and not self.skill.locked and self.slot not in self.owner.removed and \
            self.owner.game.may_reveal(self.owner, self.slot)
