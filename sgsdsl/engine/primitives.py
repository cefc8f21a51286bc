"""The primitive actions of surface.FUNCS that change players and the game (card movement is in zones.py)."""

from __future__ import annotations

from .history import DAMAGE, KILL, LOSE_HP, RECOVER
from .requests import GameOver, Request
from .ruleset import RulesError
from .runaway import oversized, too_big
from .state import Player


class Primitives:
    """Mixed into Game."""

    # ---- primitive actions (surface.FUNCS kind="primitive") -------------------------
    def change_hp(self, p: Player, delta: int) -> None:
        before = p.hp
        p.hp = min(p.hp + delta, p.max_hp)
        done = p.hp - before
        if done:
            ev = self.settling()
            kind = getattr(ev, "TYPE", None)
            if kind is not None and kind == self.ev_damage and done < 0:
                self.remember(DAMAGE, ev.source, p, [ev.card] if ev.card is not None else (), -done)
            elif kind is not None and kind == self.ev_recover and done > 0:
                self.remember(RECOVER, ev.source, p, amount=done)
            elif done < 0:
                self.remember(LOSE_HP, None, p, amount=-done)
        if self.track:
            self._record(p, delta)
        if self.observer is not None:
            self.observer.on_hp(self, p, delta)

    def adjust_max_hp(self, p: Player, delta: int) -> None:
        # Raw: who dies of a max HP of 0 is the rules' business (the core flow change_max_hp).
        p.max_hp += delta
        if p.hp > p.max_hp:
            p.hp = p.max_hp

    def kill(self, p: Player) -> None:
        """p dies: out of the game. The hero's skills stay until it leaves (`leave`), so that a window that
        asks the dead (死亡时) can still offer them."""
        if not p.alive:
            return
        p.alive = False
        self.alive_changed()
        ev = self.ongoing(self.ev_death) if self.ev_death else None
        self.remember(KILL, ev.killer if ev is not None and ev.who is p else None, p)
        self.deaths.append((self.turn_no, p))
        p.fallen.extend(h.id for i, h in enumerate(p.heroes) if i not in p.removed)  # a removed card left before
        if self.observer is not None:
            self.observer.on_death(self, p)

    def leave(self, p: Player) -> None:
        """离场: p's hero leaves play with its skills, counters and marks; it is among p's fallen heroes."""
        for inst in list(p.skills):
            if not inst.equip or not p.alive:  # a dead player's equipment skills go as well
                p.skills.remove(inst)
                self._deactivate(inst)
        p.marks.clear()

    def set_identity(self, p: Player, identity: str, shown: bool = True) -> None:
        ruled = identity
        if self.fixed_identities is not None:  # a scenario test fixed it
            identity = self.fixed_identities[p.seat]
        p.identity = identity
        p.identity_shown = shown
        if shown:
            names = self.rules.enum_names
            self.say(p, " 的身份是 ", names.get(identity, identity),
                     *(() if ruled == identity else ("（测试座位指定；规则给出 ", names.get(ruled, ruled), "）")))

    def draft(self, p: Player, hero: str) -> None:
        """p takes a hero into their line-up, behind the ones they have (1v1's 选将)."""
        self.used_heroes.add(hero)
        p.reserve.append(hero)

    def enter_hero(self, p: Player, hero: str) -> None:
        """登场: a hero of p's reserve enters play as p's hero (p is in the game again, at full HP)."""
        if hero in p.reserve:
            p.reserve.remove(hero)
        fixed = self.fixed_heroes.get(p.seat)
        if fixed is not None and not p.heroes and fixed not in self.used_heroes:
            hero = fixed  # a scenario test's seat whose hero was not dealt (no draw had room): it enters first
        for inst in [i for i in p.skills if not i.equip]:
            p.skills.remove(inst)
            self._deactivate(inst)
        p.alive = True
        self.alive_changed()
        p.entered_at = self.next_eid + 1  # events settling now belong to the hero that left
        self.set_hero(p, hero)
        self.say(p, " 登场")

    def game_over(self, winners, reason: str) -> None:
        raise GameOver(tuple(winners), reason)

    def players_win(self, players, reason: str) -> None:
        """These players win (and only they: a dead careerist does not share the survivor's victory)."""
        ps = list(players)
        raise GameOver(tuple(dict.fromkeys(p.identity or p.name for p in ps)), reason, frozenset(p.seat for p in ps))

    # -- two hero cards, face down (国战)
    def set_heroes(self, p: Player, main: str, deputy: str) -> None:
        """p plays main and deputy, both face down: max HP from their whole 阴阳鱼 together; no kingdom and
        no gender until a hero is revealed; their skills are held but not in effect (`show_hero`)."""
        for inst in [i for i in p.skills if not i.equip]:
            p.skills.remove(inst)
            self._deactivate(inst)
        hs = [self.rules.heroes[main], self.rules.heroes[deputy]]
        p.heroes = hs
        p.shown = [False, False]
        p.max_hp = p.hp = (hs[0].as_main + hs[1].as_deputy) // 2
        p.kingdom = p.gender = None
        p.armed = set()
        p.removed = {}
        for slot, h in enumerate(hs):
            for sid in h.skills:
                self.attach(p, self.rules.skills[sid], slot=slot)

    def seat_two_heroes(self, p: Player, main: str, deputy: str, hidden: tuple[int, ...],
                        kingdom: str | None, armed: tuple[str, ...]) -> None:
        """A test seat's 国战 heroes as the test states them, mid-game: no 明置 is logged and no reveal
        rule fires; the kingdom is the stated one, else the first face-up hero's."""
        self.set_heroes(p, main, deputy)
        p.shown = [slot not in hidden for slot in (0, 1)]
        p.gender = self._seat_gender(p)
        up = [h for h, s in zip(p.heroes, p.shown) if s]
        p.kingdom = kingdom if kingdom is not None else (up[0].kingdom if up else None)
        if p.kingdom is not None and self.mode is not None and not self.mode.table and p.identity is None:
            p.identity, p.identity_shown = p.kingdom, True  # the side that wins, as set_kingdom says
        p.armed = set(armed)

    def show_hero(self, p: Player, slot: int) -> None:
        """明置 (raw): the hero card turns face up; its skills take effect; p's gender follows it (the main
        hero's once both are up). The kingdom is the rules' business (set_kingdom)."""
        if p.shown[slot] or slot in p.removed:
            return
        p.shown[slot] = True
        p.armed -= set(p.heroes[slot].skills)
        p.gender = self._seat_gender(p)
        self.say(p, " 明置 ", p.heroes[slot].id)

    def change_hero(self, p: Player, slot: int, hero: str) -> None:
        """变更 (raw): the hero card in slot is replaced by another, which lies as the old one lay (face up or
        down); the old card's skills go with it and the new one's come in. Max HP, HP and kingdom stay: the
        rules return the old card to the hero pile and decide what a change reveals."""
        if slot in p.removed:
            return
        old, new = p.heroes[slot], self.rules.heroes[hero]
        for inst in [i for i in p.skills if i.slot == slot and not i.equip]:
            p.skills.remove(inst)
            self._deactivate(inst)
        p.armed -= set(old.skills)
        p.heroes = [new if i == slot else h for i, h in enumerate(p.heroes)]
        p.replaced.append(old.id)
        p.hero_known = {(seat, s) for seat, s in p.hero_known if s != slot}  # nobody has seen the new card
        self.used_heroes.add(hero)
        for sid in new.skills:
            self.attach(p, self.rules.skills[sid], slot=slot)
        p.gender = self._seat_gender(p)
        self.say(p, " 的", "主将" if slot == 0 else "副将", "变更为 ", new.id if p.shown[slot] else "一张暗置的武将牌")

    def hide_hero(self, p: Player, slot: int) -> None:
        """暗置 (raw): a face-up hero card turns face down. Its skills and gender go out of effect (seed 002: 处于暗置
        状态的武将牌没有任何武将技能、性别以及势力); the player's kingdom stays, as it was decided when first revealed
        (rules decide otherwise through set_kingdom). Every seat saw the card face up, so every seat knows it."""
        if not p.shown[slot]:
            return
        self.say(p, " 暗置 ", p.heroes[slot].id)  # named as the table saw them until now
        p.shown[slot] = False
        p.hero_known |= {(q.seat, slot) for q in self.players}
        p.gender = self._seat_gender(p)

    @staticmethod
    def _seat_gender(p: Player) -> str | None:
        """Seed 002: the gender of the face-up card, the main's when both are up. A removed card's 士兵 lies face
        up in its place with the removed card's gender (the 士兵 cards of 君临天下·势 are 男 or 女)."""
        for i, (h, up) in enumerate(zip(p.heroes, p.shown)):
            if up:
                return h.gender
            if i in p.removed:
                return p.removed[i]
        return None

    def remove_hero(self, p: Player, slot: int) -> None:
        """移除 (raw): the hero card in slot leaves the seat; a 士兵 of its gender lies in its place. Max HP, HP
        and kingdom stay; a face-down card is removed unseen (nobody learns it). Its skills are out of effect but
        still answer windows until `leave_hero` (as a dead hero's answer 死亡时 until `leave`): the windows its
        removal opens (闺秀: 当你移除此武将牌后). The rules return the card to the hero pile and say what else
        a removal takes (阴阳鱼, 珠联璧合)."""
        if slot in p.removed or slot >= len(p.heroes):
            return
        old, up = p.heroes[slot], p.shown[slot]
        self.say(p, " 移除了", "主将" if slot == 0 else "副将", " ", old.id if up else "(一张暗置的武将牌)")
        p.armed -= set(old.skills)
        p.removed[slot] = old.gender
        p.shown[slot] = False
        if up:  # the table saw it face up: nothing about it is secret
            p.hero_known |= {(q.seat, slot) for q in self.players}
        p.gender = self._seat_gender(p)

    def leave_hero(self, p: Player, slot: int) -> None:
        """The skills of a removed hero card leave the seat with it (after the windows its removal opens)."""
        if slot not in p.removed:
            return
        for inst in [i for i in p.skills if i.slot == slot and not i.equip]:
            p.skills.remove(inst)
            self._deactivate(inst)

    def look_hero(self, viewer: Player, p: Player, slot: int) -> None:
        """viewer looks at one of p's face-down hero cards (先驱, 知己知彼): viewer's seat knows it from now on."""
        p.hero_known.add((viewer.seat, slot))
        self.say(viewer, " 观看了 ", p, " 的一张暗置武将牌")

    def preshow(self, p: Player, skill: str) -> None:
        """预亮: a skill of a face-down hero will be offered when it could fire (using it reveals the hero)."""
        p.armed.add(skill)


    def check_victory(self) -> None:
        if self.mode is None:
            alive = [p for p in self.players if p.alive]
            if len(alive) <= 1:
                raise GameOver(tuple(p.identity or p.name for p in alive), "只剩一名角色")
            return
        for w in self.mode.wins:
            if w.cond(self):
                raise GameOver(w.identities, f"胜利条件达成 ({w.loc})")
        if self.mode.victory is not None:  # winners decided in play (国战: the last kingdom standing)
            self.mode.victory(self)

    def flip(self, p: Player) -> None:
        p.flipped = not p.flipped

    def set_chained(self, p: Player, on: bool) -> None:
        p.chained = bool(on)

    def set_away(self, p: Player, on: bool) -> None:
        if p.away != bool(on):
            p.away = bool(on)
            self.alive_changed()  # the seat orders and distances are read afresh

    def reveal_identity(self, p: Player) -> None:
        if not p.identity_shown and p.identity is not None:
            p.identity_shown = True
            self.say(p, " 的身份是 ", self.rules.enum_names.get(p.identity, p.identity))

    def add_skill(self, p: Player, skill: str, until: str | None = None) -> None:
        if not self.has_skill(p, skill):
            self.attach(p, self.rules.skills[skill], gained=True)
            if until is not None:
                self.lent_skills.append((until, p, skill))

    def remove_skill(self, p: Player, skill: str) -> None:
        self.detach(p, self.rules.skills[skill])

    def remove_all_skills(self, p: Player) -> None:
        for inst in [i for i in p.skills if not i.equip]:
            self.detach(p, inst.skill, card=None)

    def return_lent_skills(self, scope: str) -> None:
        """Skills gained until the end of this phase or turn (化身, 新生-style) are lost now."""
        keep = []
        for until, p, skill in self.lent_skills:
            if until == scope or (scope == "turn" and until == "phase"):
                self.remove_skill(p, skill)
            else:
                keep.append((until, p, skill))
        self.lent_skills = keep

    def reset_limit(self, p: Player, skill: str) -> None:
        # The uses of every facet of the skill, in every scope, are the marks `#scope:skill:index`.
        for key in [k for k in p.marks if k.startswith("#") and k.split(":")[1:2] == [skill]]:
            del p.marks[key]

    def skip(self, phase: str) -> None:
        self.skipped.add(phase)
        self.say("跳过", self.rules.phase_names.get(phase, phase))

    def give_turn(self, p: Player) -> None:
        self.extra_turns.append(p)

    def start_from(self, p: Player) -> None:
        self.first = p

    def set_kingdom(self, p: Player, kingdom: str) -> None:
        """p's kingdom changes (化身), or is decided in play (国战: by the first hero revealed, or 野心家).
        In a mode without identities, the kingdom is also the player's side (what wins, in the statistics)."""
        p.kingdom = kingdom
        if self.mode is not None and not self.mode.table:
            p.identity = kingdom
            p.identity_shown = True
        self.say(p, " 的势力为 ", kingdom)

    def set_gender(self, p: Player, gender: str) -> None:
        p.gender = gender
        self.say(p, " 的性别改为 ", gender)

    def set_mark(self, p: Player, mark: str, value: object) -> None:
        # a mark holds what its declaration says: a count, a string (a chosen kingdom), a player, a list of cards
        what = oversized(value)
        if what is not None:  # a mark that grows every turn: no loop counts its rounds
            raise too_big(self, what, f"the mark `{mark}` of {p.name}")
        if value:
            p.marks[mark] = value
        else:
            p.marks.pop(mark, None)

    def add_mark(self, p: Player, mark: str, delta) -> None:
        if isinstance(delta, list):  # a list-valued counter or mark: `+=` appends
            self.set_mark(p, mark, list(p.marks.get(mark) or ()) + delta)
        else:
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
        if self.fixed_identities is not None:
            ids = list(self.fixed_identities)
        for p, ident in zip(self.players, ids):
            p.identity = ident
            if self.mode.lord is not None and ident == self.mode.lord:
                p.identity_shown = True

    def draw_heroes(self, n: int, exclude=(), for_lord: bool = False) -> list[str]:
        # a scenario test's seats' heroes are dealt in the first draw with room for them all (1v1's 12)
        first = [h for h in self.deal_first if h not in self.used_heroes and h not in exclude]
        first = first if len(first) <= n else []
        if first:
            self.deal_first = ()
        pool = [h for h in self.hero_pool if h not in self.used_heroes and h not in exclude
                and h not in self.fixed_heroes.values() and h not in first
                and not (for_lord and self.rules.heroes[h].never_lord) and self.rules.heroes[h].lord_of is None]
        picked = first + self.rng.sample(pool, min(n - len(first), len(pool)))
        self.used_heroes.update(picked)
        return picked

    def lords_of(self, hero: str) -> list[str]:
        """The lord cards (`lord of hero`, 国战's 君主) among this game's heroes: never dealt, they lie aside
        for the rules to put in hero's place."""
        return [h for h in self.hero_pool if self.rules.heroes[h].lord_of == hero]

    def return_heroes(self, heroes) -> None:
        self.used_heroes.difference_update(heroes)

    def pick_hero(self, p: Player, heroes) -> str:
        heroes = list(dict.fromkeys(heroes))
        fixed = self.fixed_heroes.get(p.seat)
        if not heroes and fixed is None:
            raise RulesError("no hero to pick from")
        choice = fixed if fixed is not None else self.decide(Request("hero", p, heroes, prompt="选择武将"))
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
