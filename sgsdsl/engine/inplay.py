"""Skills in play: each skill instance a player holds, and its triggers registered per window."""

from __future__ import annotations

from .tables import SkillDef, TriggerDef


class Listener:
    """One trigger of one skill instance, registered under a window id."""

    __slots__ = ("owner", "skill", "trigger", "equip", "active")

    def __init__(self, owner, skill: SkillDef, trigger: TriggerDef, equip: bool):
        self.owner = owner
        self.skill = skill
        self.trigger = trigger
        self.equip = equip
        self.active = True


class SkillInst:
    __slots__ = ("skill", "owner", "equip", "listeners", "mods", "card")

    def __init__(self, skill: SkillDef, owner, equip: bool, card=None):
        self.skill = skill
        self.owner = owner
        self.equip = equip
        self.listeners: list[Listener] = []
        self.mods: list = []
        self.card = card
