"""The primitive actions of surface.FUNCS that change players and the game (card movement is in zones.py)."""

from __future__ import annotations

from .requests import GameOver, Request
from .ruleset import RulesError
from .state import Player


class Primitives:
    """Mixed into Game."""

    # ---- primitive actions (surface.FUNCS kind="primitive") -------------------------
    def change_hp(self, p: Player, delta: int) -> None:
        p.hp = min(p.hp + delta, p.max_hp)
        if self.track:
            self._record(p, delta)
        if self.observer is not None:
            self.observer.on_hp(self, p, delta)

    def change_max_hp(self, p: Player, delta: int) -> None:
        p.max_hp += delta
        if p.hp > p.max_hp:
            p.hp = p.max_hp
        if p.max_hp <= 0 and p.alive:
            self.kill(p)

    def kill(self, p: Player) -> None:
        if not p.alive:
            return
        p.alive = False
        for inst in list(p.skills):
            self._deactivate(inst)
        p.skills = []
        self.deaths.append((self.turn_no, p))
        if self.observer is not None:
            self.observer.on_death(self, p)

    def check_victory(self) -> None:
        if self.mode is None:
            alive = [p for p in self.players if p.alive]
            if len(alive) <= 1:
                raise GameOver(tuple(p.identity or p.name for p in alive), "只剩一名角色")
            return
        for w in self.mode.wins:
            if w.cond(self):
                raise GameOver(w.identities, f"胜利条件达成 ({w.loc})")

    def flip(self, p: Player) -> None:
        p.flipped = not p.flipped

    def set_chained(self, p: Player, on: bool) -> None:
        p.chained = bool(on)

    def reveal_identity(self, p: Player) -> None:
        if not p.identity_shown and p.identity is not None:
            p.identity_shown = True
            self.say(p, " 的身份是 ", self.rules.enum_names.get(p.identity, p.identity))

    def add_skill(self, p: Player, skill: str) -> None:
        if not self.has_skill(p, skill):
            self.attach(p, self.rules.skills[skill])

    def remove_skill(self, p: Player, skill: str) -> None:
        self.detach(p, self.rules.skills[skill])

    def skip(self, phase: str) -> None:
        self.skipped.add(phase)
        self.say("跳过", self.rules.phase_names.get(phase, phase))

    def give_turn(self, p: Player) -> None:
        self.extra_turns.append(p)

    def start_from(self, p: Player) -> None:
        self.first = p

    def set_mark(self, p: Player, mark: str, value: int) -> None:
        if value:
            p.marks[mark] = value
        else:
            p.marks.pop(mark, None)

    def add_mark(self, p: Player, mark: str, delta: int) -> None:
        self.set_mark(p, mark, p.marks.get(mark, 0) + delta)

    # -- heroes and identities (modes)
    def deal_identities(self) -> None:
        n = len(self.players)
        rows = dict(self.mode.table) if self.mode else {}
        if n not in rows:
            raise RulesError(f"mode {self.mode.name if self.mode else '?'} has no identity row for {n} players")
        variants = rows[n]
        ids = list(variants[self.variant % len(variants)])
        self.rng.shuffle(ids)
        for p, ident in zip(self.players, ids):
            p.identity = ident
            if self.mode.lord is not None and ident == self.mode.lord:
                p.identity_shown = True

    def draw_heroes(self, n: int, exclude=(), for_lord: bool = False) -> list[str]:
        pool = [h for h in self.hero_pool if h not in self.used_heroes and h not in exclude
                and not (for_lord and self.rules.heroes[h].never_lord)]
        picked = self.rng.sample(pool, min(n, len(pool)))
        self.used_heroes.update(picked)
        return picked

    def pick_hero(self, p: Player, heroes) -> str:
        heroes = list(dict.fromkeys(heroes))
        if not heroes:
            raise RulesError("no hero to pick from")
        choice = self.decide(Request("hero", p, heroes, prompt="选择武将"))
        for h in heroes:
            if h != choice:
                self.used_heroes.discard(h)
        self.used_heroes.add(choice)
        self.set_hero(p, choice)
        return choice

    def set_hero(self, p: Player, hero: str) -> None:
        h = self.rules.heroes[hero]
        p.heroes = [h]
        p.shown = [True]
        p.max_hp = h.hp_halves // 2
        p.hp = p.max_hp
        p.kingdom = h.kingdom
        p.gender = h.gender
        for sid in h.skills:
            self.attach(p, self.rules.skills[sid])
