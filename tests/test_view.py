"""Hidden information is enforced: an agent decides from what its seat may know."""

from __future__ import annotations

import pytest

from sgsdsl.bots.agents import RandomAgent
from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.engine.game import Game
from sgsdsl.engine.requests import Request
from sgsdsl.engine.state import Card, Player
from sgsdsl.engine.view import CardView, Desk, PlayerView, SeatView, visible_to
from sgsdsl.sim.batch import new_game


class Spy(HeuristicAgent):
    """Plays like the heuristic bot and records what it could read of everyone else."""

    def __init__(self):
        super().__init__()
        self.saw: list[tuple] = []

    def decide(self, g, req):
        assert isinstance(g, SeatView) and not isinstance(g, Game)
        me = g.me
        for p in g.players:
            if p is me:
                continue
            desk = self.game.views[g.seat]  # the referee's side, to compare with: no agent reaches it
            self.saw.append(("hand", [c.name for c in p.hand], [desk.cards[c.handle].known for c in p.hand], g.seat))
            self.saw.append(("identity", p.identity, p.identity_shown))
        for o in req.options:
            for x in (o if isinstance(o, tuple) else (o,)):
                assert not isinstance(x, (Card, Player)), f"a real {type(x).__name__} reached an agent"
        return super().decide(g, req)


def _wrap(g, seat, x):
    """x as seat sees it now."""
    desk = Desk(g, seat)
    desk.inspect()
    return desk.wrap(x)


def _spy_game(rules, seed):
    g = new_game(rules, "identity", 5, seed, "heuristic")
    g.agents = [Spy() for _ in g.players]
    for a in g.agents:
        a.game = g
    g.track = True
    g.run()
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_never_see_an_opponents_hand_or_identity(rules, seed):
    g = _spy_game(rules, seed)
    hands = idents = 0
    for a in g.agents:
        for rec in a.saw:
            if rec[0] == "hand":
                _, names, known, seat = rec
                for name, k in zip(names, known):
                    hands += 1
                    assert (name is None) == (not k & (1 << seat)), "a hand card shown to a seat that does not know it"
            else:
                _, ident, shown = rec
                idents += 1
                assert shown or ident is None, "an unrevealed identity reached another seat"
    assert hands > 100 and idents > 100  # the spies really looked


def test_a_card_drawn_is_known_to_its_owner_only(rules):
    g = Game(rules, players=3, seed=5, agents=[RandomAgent() for _ in range(3)])
    g.build_deck(["standard"])
    for p, h in zip(g.players, ["caocao", "liubei", "sunquan"]):
        g.set_hero(p, h)
    a, b, _ = g.players
    card = g.draw(a, 1)[0]
    assert _wrap(g, 0, card).name == card.name and _wrap(g, 1, card).name is None
    assert _wrap(g, 1, a).hand[0].suit is None and _wrap(g, 1, a).hand_count == 1
    g.gain(b, [card])  # taken from a's hand (顺手牵羊): both now know it
    assert visible_to(card, 0) and visible_to(card, 1) and not visible_to(card, 2)
    g.discard(b, [card])
    assert all(visible_to(card, s) for s in range(3))


def test_peek_shows_the_top_cards_to_the_peeking_seat_only(rules):
    g = Game(rules, players=2, seed=5, agents=[RandomAgent(), RandomAgent()])
    g.build_deck(["standard"])
    for p, h in zip(g.players, ["zhugeliang", "caocao"]):
        g.set_hero(p, h)
    cards = g.peek(g.players[0], 3)
    assert all(visible_to(c, 0) and not visible_to(c, 1) for c in cards)
    assert [_wrap(g, 1, c).rank for c in cards] == [None, None, None]


def test_shown_cards_are_known_to_every_seat_and_stay_where_they_are(rules):
    g = Game(rules, players=3, seed=5, agents=[RandomAgent() for _ in range(3)])
    g.build_deck(["standard"])
    for p, h in zip(g.players, ["caocao", "liubei", "sunquan"]):
        g.set_hero(p, h)
    a = g.players[0]
    cards = g.draw(a, 2)
    assert not visible_to(cards[0], 1)
    g.show(a, cards[:1])  # 展示
    assert all(visible_to(cards[0], s) for s in range(3)) and not visible_to(cards[1], 2)
    assert cards[0] in a.hand and _wrap(g, 2, cards[0]).name == cards[0].name


def test_hidden_piles_are_known_to_their_owner_only(rules, tmp_path):
    from sgsdsl.lang.loader import compiled

    f = tmp_path / "stars.sgs"
    f.write_text('pile 星 xing hidden "「星」"\npile 田 tian "「田」"\n', encoding="utf-8")
    r = compiled([f])[0]
    g = Game(r, players=2, seed=5, agents=[RandomAgent(), RandomAgent()])
    g.build_deck(["standard"])
    for p, h in zip(g.players, ["zhugeliang", "caocao"]):
        g.set_hero(p, h)
    a = g.players[0]
    star, field = g.draw(a, 2)
    g.move(star, "pile:xing", a)
    g.move(field, "pile:tian", a)
    assert visible_to(star, 0) and not visible_to(star, 1)
    assert all(visible_to(field, s) for s in range(2))
    assert _wrap(g, 1, a).pile("xing")[0].name is None


def test_choosing_from_another_hand_is_blind(rules):
    """顺手牵羊 on a hidden hand: the bot is offered cards it cannot read, and its pick still lands."""
    g = Game(rules, players=2, seed=9, agents=[RandomAgent(), RandomAgent()])
    g.build_deck(["standard"])
    for p, h in zip(g.players, ["ganning", "caocao"]):
        g.set_hero(p, h)
    a, b = g.players
    g.draw(b, 3)
    picked = g.choose_card(a, b.hand, "获得其一张手牌")
    assert picked in b.hand
    _, seen = Desk(g, 0).present(Request("cards", a, list(b.hand)))
    assert all(isinstance(o, CardView) and not o.seen and o.name is None for o in seen.options)
    assert isinstance(seen.player, PlayerView) and seen.player.hand_count == 0
