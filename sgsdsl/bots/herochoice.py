"""Choosing heroes: one by what its card shows, or, in 国战, a pair of one kingdom (阴阳鱼, skills, 珠联璧合),
and when to turn a face-down hero card up."""

from __future__ import annotations


class HeroChoice:
    """Mixed into HeuristicAgent (which keeps `chosen`, and the allegiance guesses `reveal` reads)."""

    @staticmethod
    def card_worth(d) -> int:
        """What a hero card shows: its HP in halves, and twice the number of its skills."""
        return d.hp_halves + 2 * len(d.skills)

    def best_hero(self, g, options):
        """A hero by what its card shows (ties at random)."""
        heroes = g.rules.heroes
        return max(options, key=lambda h: (self.card_worth(heroes[h]), g.agent_rng.random()))

    # ---- 国战: two hero cards, face down ------------------------------------------------------
    @staticmethod
    def two_heroes(g) -> bool:
        """A mode whose sides are kingdoms (国战): heroes are chosen in pairs and revealed in play."""
        mode = getattr(g, "mode", None)  # a bare test double of the table has none
        return mode is not None and not mode.table

    def pair_worth(self, g, a: str, b: str) -> float:
        """Two hero cards together: whole 阴阳鱼 (a half left over is a mark, worth a little), twice the skills,
        and 4 more for 珠联璧合 partners."""
        ha, hb = g.rules.heroes[a], g.rules.heroes[b]
        halves = ha.hp_halves + hb.hp_halves
        partners = b in ha.pairs or a in hb.pairs
        return halves // 2 * 2 + 0.5 * (halves % 2) + 2 * (len(ha.skills) + len(hb.skills)) + 4 * partners

    def as_main(self, g, h: str) -> int:
        """A card's worth as the main hero: its own, or its 君主's when this game sets one aside (revealed at the
        first turn, the lord card takes the main's place)."""
        heroes = g.rules.heroes
        lords = g.lords_of(h) if hasattr(g, "lords_of") else ()
        return self.card_worth(heroes[lords[0]] if lords else heroes[h])

    def pair_hero(self, g, options):
        """The main: the better card as a main of the best pair of one kingdom among those dealt (a card with a
        君主 counts as its lord there); the deputy: the best partner of the main chosen (ties at random)."""
        heroes = g.rules.heroes
        if self.chosen and all(heroes[o].kingdom == heroes[self.chosen[-1]].kingdom for o in options):
            main = self.chosen[-1]
            pick = max(options, key=lambda h: (self.pair_worth(g, main, h), g.agent_rng.random()))
        else:
            pairs = [(a, b) for a in options for b in options if a < b and heroes[a].kingdom == heroes[b].kingdom]
            if not pairs:
                return self.best_hero(g, options)
            as_main = {h: self.as_main(g, h) for h in options}
            lifted = {h: as_main[h] - self.card_worth(heroes[h]) for h in options}
            best = max(pairs, key=lambda ab: (self.pair_worth(g, *ab) + max(lifted[ab[0]], lifted[ab[1]], 0),
                                              g.agent_rng.random()))
            pick = max(best, key=lambda h: (as_main[h], h))
        self.chosen.append(pick)
        return pick

    def reveal(self, g, me, hero) -> bool:
        """Whether to turn a face-down hero card up when asked (at the start of the turn): not while that would
        put me in the `lone_kingdom` (野心家; until the end is near); yes for a locked skill, which works only face
        up; yes to be the first (先驱) or for the second card (my kingdom is known already; marks); otherwise once
        a player of my kingdom is known, or I am weak (the unknown get no help), or the game has gone a round
        twice."""
        alive = sum(1 for p in g.players if p.alive)
        lone = g.rules.lone_kingdom
        if me.kingdom is None and lone is not None and self.my_kingdom(g, me) == lone:
            return alive <= 3
        if any(g.rules.skills[s].locked for s in hero.skills):
            return True
        if any(me.shown) or not any(any(p.shown) for p in g.players):
            return True
        mine = self.my_kingdom(g, me)
        friends = sum(1 for p in g.players if p.alive and p is not me and p.kingdom == mine)
        return friends > 0 or me.hp <= 2 or g.turn_no > 2 * len(g.players)
