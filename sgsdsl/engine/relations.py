"""How seated players stand to each other by kingdom (国战): formations and big kingdoms.

Seed 002: 队列 is a run of two or more adjacent players of one kingdom; a player whose 上家
and 下家 are of one kingdom, different from their own, is 围攻ed (besieged) by them; 大势力 are
the kingdoms with the most players, when that is more than one, and everyone else is small.
A player of the rules' `lone_kingdom` (野心家) is a kingdom of their own, and a player with no known
kingdom belongs to none.
"""

from __future__ import annotations

from .state import Player
from .tables import diff_kingdom, same_kingdom


class Relations:
    """Mixed into Game."""

    def formation(self, p: Player) -> list[Player]:
        if not p.alive or p.kingdom is None:
            return []
        if p.away:
            return []
        alive = [q for q in self.players if q.alive and not q.away]
        if len(alive) < 2:
            return []
        i, n = alive.index(p), len(alive)
        run = [p]
        for step in (1, -1):  # walk both ways around the table while the kingdom holds
            j = i
            for _ in range(n - 1):
                j = (j + step) % n
                q = alive[j]
                if q in run or not same_kingdom(p, q, self.rules.lone_kingdom):
                    break
                run.append(q) if step == 1 else run.insert(0, q)
        return sorted(run, key=lambda q: q.seat) if len(run) >= 2 else []

    def besieged(self, p: Player) -> bool:
        a, b, lone = p.prev, p.next, self.rules.lone_kingdom
        return p.alive and not p.away and a is not b and a is not p and same_kingdom(a, b, lone) and diff_kingdom(p, a, lone)

    def besiegers(self, p: Player) -> list[Player]:
        return [p.prev, p.next] if self.besieged(p) else []

    def big_kingdoms(self) -> list[str]:
        lone = self.rules.lone_kingdom
        qd = self.q_sole_big
        if qd is not None and not (qd.const is False and self.qf[qd.id] is qd.base):
            f = self.qf[qd.id]
            for q in self.players:  # 玉玺: one player's kingdom is the only big one, whatever the counts
                if q.alive and q.kingdom is not None and f(self, q):
                    return [q.kingdom]
        counts: dict[str, int] = {}
        for q in self.players:
            if q.alive and q.kingdom is not None and q.kingdom != lone:
                counts[q.kingdom] = counts.get(q.kingdom, 0) + 1
        most = max(counts.values(), default=0)
        return [k for k, c in counts.items() if c == most] if most > 1 else []

    def is_big(self, p: Player) -> bool:
        return p.kingdom is not None and p.kingdom in self.big_kingdoms()

    def is_small(self, p: Player) -> bool:
        return bool(self.big_kingdoms()) and not self.is_big(p)
