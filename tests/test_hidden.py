"""国战's hidden information is enforced: an agent's view of the game never shows another seat's face-down
hero cards, their skills, that seat's hand or the kingdom it will have; its own face-down heroes it sees;
先驱's look (look_hero) shows one card to one seat; a seat's log keeps others' secret choices."""

from __future__ import annotations

import pytest

from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.engine.log import GameLog
from sgsdsl.engine.tables import HeroDef
from sgsdsl.engine.view import Desk, PlayerView
from sgsdsl.sim.batch import new_game


def _guozhan(rules, seed, players=5, log=None):
    g = new_game(rules, "guozhan", players, seed, "heuristic", log=log)
    g.setup_mode()
    return g


def _secrets(p) -> set:
    """What no other seat may learn of p while its hero cards are face down: the heroes and their skills."""
    out: set = set()
    for h, up in zip(p.heroes, p.shown):
        if not up:
            out |= {h, h.id, h.name, *h.skills}
    return out


def _walk(x, depth=0):
    """Every value reachable from x through containers and views (a view's public attributes, once)."""
    yield x
    if depth > 3:
        return
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _walk(k, depth + 1)
            yield from _walk(v, depth + 1)
    elif isinstance(x, (list, tuple, set, frozenset)):
        for y in x:
            yield from _walk(y, depth + 1)
    elif type(x).__name__ == "SkillView":
        yield x.skill.id
        yield x.skill.name


def _public_attributes(pv: PlayerView):
    for name in dir(PlayerView):
        if name.startswith("_") or name in ("next", "prev"):
            continue
        value = getattr(pv, name)
        if callable(value):
            continue
        yield name, value


def test_a_face_down_opponent_shows_no_hero_skill_kingdom_or_hand(rules):
    g = _guozhan(rules, 7)
    view = Desk(g, 0).inspect()
    me = g.players[0]
    assert list(view.me.heroes) == me.heroes  # my own face-down heroes: I see both
    assert {s.skill.id for s in view.me.skills} == {i.skill.id for i in me.skills}
    for p in g.players[1:]:
        assert not any(p.shown)
        pv = view.players[p.seat]
        assert pv.heroes == (None, None) and pv.hero is None
        assert pv.kingdom is None and pv.gender is None and pv.skills == ()
        assert pv.hand_count == 4 and all(c.name is None and c.suit is None for c in pv.hand)
        assert pv.name == f"座位{p.seat + 1}"
        secrets = _secrets(p)
        for name, value in _public_attributes(pv):
            leaked = [v for v in _walk(value) if isinstance(v, (str, HeroDef)) and v in secrets]
            assert not leaked, f"PlayerView.{name} of a face-down seat shows {leaked}"


def test_one_face_up_hero_shows_that_card_only(rules):
    g = _guozhan(rules, 8)
    p = g.players[2]
    g.show_hero(p, 0)
    pv = Desk(g, 0).inspect().players[2]
    assert pv.heroes == (p.heroes[0], None) and pv.gender == p.heroes[0].gender
    assert {s.skill.id for s in pv.skills} == set(p.heroes[0].skills) - set(p.heroes[1].skills)
    secrets = _secrets(p) - {p.heroes[0], p.heroes[0].id, p.heroes[0].name, *p.heroes[0].skills}
    for name, value in _public_attributes(pv):
        leaked = [v for v in _walk(value) if isinstance(v, (str, HeroDef)) and v in secrets]
        assert not leaked, f"PlayerView.{name} shows the face-down deputy: {leaked}"


def test_look_hero_makes_one_card_known_to_that_seat_only(rules):
    g = _guozhan(rules, 9)
    viewer, q = g.players[0], g.players[3]
    g.look_hero(viewer, q, 1)
    assert Desk(g, 0).inspect().players[3].heroes == (None, q.heroes[1])
    for seat in (1, 2, 4):
        assert Desk(g, seat).inspect().players[3].heroes == (None, None)
    assert Desk(g, 3).inspect().players[3].heroes == tuple(q.heroes)  # its owner saw both all along
    assert not any(q.shown) and q.kingdom is None  # looking reveals nothing to the table


def test_a_face_down_card_removed_stays_unknown_and_a_face_up_one_hidden_stays_known(rules):
    g = _guozhan(rules, 9)
    q = g.players[3]
    gone = q.heroes[1]
    g.remove_hero(q, 1)  # face down: removed unseen
    for seat in range(len(g.players)):
        assert Desk(g, seat).inspect().players[3].heroes[1] is None
    assert q.hidden_heroes == [q.heroes[0].id] and q.kingdom is None and q.gender == gone.gender
    g.show_hero(q, 0)
    g.hide_hero(q, 0)  # seen face up by every seat: known to all from then on
    for seat in range(len(g.players)):
        assert Desk(g, seat).inspect().players[3].heroes == (q.heroes[0], None)
    g.kill(q)  # a dead seat's heroes are public (its fallen), but not the card removed before
    assert q.fallen == [q.heroes[0].id]


def test_both_cards_face_down_again_keep_the_kingdom_and_drop_the_gender(rules):
    g = _guozhan(rules, 9)
    q = g.players[2]
    g.show_hero(q, 0)
    g.set_kingdom(q, q.heroes[0].kingdom)
    g.hide_hero(q, 0)  # seed 002: a face-down card has no gender or kingdom; the kingdom decided stays
    assert not any(q.shown) and q.gender is None and q.kingdom == q.heroes[0].kingdom
    for seat in range(len(g.players)):
        pv = Desk(g, seat).inspect().players[2]
        assert pv.kingdom == q.kingdom and pv.gender is None and pv.heroes[0] is q.heroes[0]
        assert pv.heroes[1] is (q.heroes[1] if seat == 2 else None)


class Spy(HeuristicAgent):
    """Plays like the heuristic bot and checks, at every decision, what it could read of everyone else."""

    def __init__(self):
        super().__init__()
        self.looked = 0

    def decide(self, g, req):
        game = self.game  # the referee's side, to compare with: no agent reaches it
        mine = game.players[g.seat]
        # its own cards, all but those removed (移除: out of the game, for their own seat too)
        assert [h is not None for h in g.me.heroes] == [i not in mine.removed for i in range(len(g.me.heroes))]
        for p, pv in zip(game.players, g.players):
            if p.seat == g.seat:
                continue
            for i, (h, up) in enumerate(zip(p.heroes, p.shown)):
                seen = pv.heroes[i]
                assert seen is (h if (up or (g.seat, i) in p.hero_known) and i not in p.removed else None)
                self.looked += not up
            live = {i.skill.id for i in p.skills if i.slot is None or p.shown[i.slot]}
            assert {s.skill.id for s in pv.skills} <= live
            if not any(p.shown):  # a kingdom seen face up stays known (暗置), a 士兵 shows its gender (移除)
                assert pv.kingdom is None or any((g.seat, i) in p.hero_known for i in range(len(p.heroes)))
                assert pv.gender is None or p.removed
            for c in pv.hand:
                assert c.name is None or game.views[g.seat].cards[c.handle].known & (1 << g.seat)
        return super().decide(g, req)


@pytest.mark.parametrize("seed", [1, 2])
def test_bots_in_a_guozhan_game_never_see_face_down_heroes(rules, seed):
    g = new_game(rules, "guozhan", 6, seed, "heuristic")
    g.agents = [Spy() for _ in g.players]
    for a in g.agents:
        a.game = g
    g.track = True
    g.run()
    assert sum(a.looked for a in g.agents) > 100  # the spies really looked at face-down cards


def test_a_seats_log_keeps_the_others_choice_of_heroes_and_pre_shown_skills(rules):
    rules = rules.for_mode(rules.modes["guozhan"])  # 国战 plays with its own heroes
    log = GameLog(records=False, seat=0)
    g = _guozhan(rules, 11, log=log)
    text = "\n".join(log.read())
    me = g.players[0]
    for h in me.heroes:
        assert h.name in text  # my own choices, as I made them
    for p in g.players[1:]:
        for h in p.heroes:
            assert h.name not in text, f"seat 0's log names {h.name}, face down at seat {p.seat}"
            for s in h.skills:
                assert rules.skills[s].name not in text or any(s in mh.skills for mh in me.heroes)
    assert "座位2 作出了选择" in text
