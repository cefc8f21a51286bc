"""Quantities (距离, 攻击范围, 手牌上限 …): each read through `g.qf[qid]`, its base while no modifier is on it,
else the base with the modifiers in play added up (and floored) — so an unmodified quantity costs one call."""

from __future__ import annotations

import functools


def _modified(qid: str, g, *args):
    """A quantity a modifier may change now (or with a floor): added up by Game._q, and memoized while the play
    phase lists the legal actions (quantities do not change meanwhile)."""
    memo = g.qmemo
    if memo is None:
        return g._q(qid, args)
    key = (qid, *args)
    v = memo.get(key, memo)
    if v is memo:
        v = memo[key] = g._q(qid, args)
    return v


_MODIFIED: dict[str, functools.partial] = {}
_UNSET = object()  # no `= final` modifier applied


def _modified_of(qid: str):
    f = _MODIFIED.get(qid)
    if f is None:
        f = _MODIFIED[qid] = functools.partial(_modified, qid)
    return f


class Quantities:
    """Mixed into Game: `quantities`, `mods` and `qf` are set up there."""

    def add_mod(self, rec) -> None:
        """A modifier (owner, ModifierDef, instance, self params) takes part in its quantity, after those there."""
        self.mods.setdefault(rec[1].quantity, []).append(rec)
        self._quantity_changed(rec[1].quantity)

    def drop_mod(self, rec) -> None:
        self.mods[rec[1].quantity].remove(rec)
        self._quantity_changed(rec[1].quantity)

    def _quantities_changed(self) -> None:
        for qid in self.quantities:
            self._quantity_changed(qid)

    def _quantity_changed(self, qid: str) -> None:
        qd = self.quantities.get(qid)
        if qd is None:
            return  # a modifier of no quantity these rules declare: nothing reads it
        self.qf[qid] = qd.base if qd.floor is None and not self.mods.get(qid) else _modified_of(qid)
        if qd is self.q_skill_valid:
            self.skills_gated = self.qf[qid] is not qd.base  # the hot paths ask skill_valid only then

    def plain(self, qd) -> bool:
        """Is this quantity's value its base's now (no modifier on it, no floor)?"""
        return self.qf[qd.id] is qd.base

    def q(self, qid: str, *args):
        return self.qf[qid](self, *args)

    def _q(self, qid: str, args):
        qd = self.quantities[qid]
        v = qd.base(self, *args)
        mods = self.mods.get(qid)
        if mods:
            skill_gate = self.skills_gated and self.q_skill_valid.id != qid
            adds = 0
            final = _UNSET
            n = len(args)
            for owner, m, inst, mine in mods:
                if owner is not None and (not owner.alive or (inst.slot is not None and not owner.shown[inst.slot])):
                    continue  # the dead, and face-down heroes, have no status skills in effect
                if skill_gate and not self.skill_valid(inst):
                    continue  # 失效 (军令四); never asked of the validity quantity's own modifiers
                if mine:
                    other = False
                    for i in mine:
                        if i < n and args[i] is not owner:
                            other = True  # a `self` in the pattern names another player
                            break
                    if other:
                        continue
                if m.when is not None and not m.when(self, owner, *args):
                    continue
                if m.op == "=":
                    v = m.value(self, owner, *args)
                elif m.op == "+=":
                    adds += m.value(self, owner, *args)
                elif m.op == "-=":
                    adds -= m.value(self, owner, *args)
                else:  # `= final` (视为N): the value after the sums
                    final = m.value(self, owner, *args)
            if adds:
                v += adds
            if final is not _UNSET:
                v = final
        if qd.floor is not None:
            f = qd.floor(self, *args)
            if v < f:
                v = f
        return v
