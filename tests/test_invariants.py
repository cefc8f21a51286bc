"""Seeded games with the state invariants checked after every event: no violation, every game ends.

The default run plays a sample of each table (a few hundred games in all); the 2,000-game soak is
marked slow (pytest -m slow), and bench/soak.py plays a hundred thousand."""

import pytest

from sgsdsl.sim.batch import run_batch

TABLES = [(5, "random", 800), (8, "random", 400), (5, "heuristic", 500), (4, "heuristic", 300)]
SAMPLE = 8  # the default run plays one game in SAMPLE of each table's soak


def _soak(rules, players, agent, games):
    results, _ = run_batch(rules, mode="identity", players=players, games=games, seed=2026, agent=agent,
                           workers=2, invariants=True)
    errors = [r.error for r in results if r.error]
    assert not errors, "\n".join(errors[:5])
    assert all(r.winners or r.reason for r in results)


@pytest.mark.parametrize("players,agent,games", TABLES)
def test_invariants_hold(rules, players, agent, games):
    _soak(rules, players, agent, games // SAMPLE)


@pytest.mark.slow
@pytest.mark.parametrize("players,agent,games", TABLES)
def test_invariants_hold_over_a_long_soak(rules, players, agent, games):
    _soak(rules, players, agent, games)


# ---- each invariant catches what it is about ------------------------------------------------------

from sgsdsl.engine.invariants import InvariantError  # noqa: E402
from sgsdsl.sim.batch import new_game  # noqa: E402


def _started(rules):
    g = new_game(rules, "identity", 5, 99, "random", invariants=True)
    for p in g.players:
        g.set_hero(p, "caocao")
        p.hp = p.max_hp
    for p in g.players:
        g.move(g.take_top(2), "hand", p)
    g.verify()  # a sane start
    return g


def _broken(g, match):
    with pytest.raises(InvariantError, match=match):
        g.verify()


def test_a_card_in_two_zones(rules):
    g = _started(rules)
    g.players[1].hand.append(g.players[0].hand[0])
    _broken(g, "is both in")


def test_a_card_that_lies_about_its_zone(rules):
    g = _started(rules)
    g.players[0].hand[0]._zone = "discard"
    _broken(g, "claims the discard zone")


def test_a_lost_card(rules):
    g = _started(rules)
    c = g.players[0].hand.pop()
    _broken(g, "claims .* but is in none")
    c._zone = None
    _broken(g, "is in no zone")


def test_a_card_the_game_never_created(rules):
    g = _started(rules)
    stray = g.new_card("sha", "spade", 1)
    g.all_cards.remove(stray)
    g.players[1].hand.append(stray)
    stray._zone, stray._owner = "hand", g.players[1]
    _broken(g, "not a card the game created")


def test_a_set_aside_zone_counts_its_cards(rules):
    """A zone the engine does not know (one a mode adds) holds cards by their claim: no violation."""
    g = _started(rules)
    c = g.players[0].hand.pop()
    c._zone, c._owner = "aside", None
    g.verify()


def test_hp_bounds(rules):
    g = _started(rules)
    p = g.players[1]
    p.hp = p.max_hp + 1
    _broken(g, "HP")
    p.hp, p.max_hp = 0, 4
    _broken(g, "alive with 0 HP")


def test_the_dead_hold_nothing_and_never_act(rules):
    g = _started(rules)
    p = g.players[2]
    g.kill(p)
    _broken(g, "dead .* still holds cards")
    g.discard(None, list(p.hand))
    g.verify()
    with pytest.raises(InvariantError, match="takes a turn"):
        g.play_turn(p)


# ---- hidden information: a view that leaks is caught at the first decision that could read it ----------

from sgsdsl.engine import view as view_module  # noqa: E402


def _leaks(rules, mode, players, monkeypatch, write):
    """A game whose desks write each player's view and then `write(desk, player, view)` over it (a leak)."""
    honest = view_module.Desk.snapshot

    def leaky(desk):
        view = honest(desk)
        for p, pv in zip(desk.game.players, desk.players):
            write(desk, p, pv)
        return view

    monkeypatch.setattr(view_module.Desk, "snapshot", leaky)
    # heuristic agents: a random agent decides by counting, and is shown no view at all (nothing to leak)
    g = new_game(rules, mode, players, 5, "heuristic", invariants=True)
    with pytest.raises(InvariantError) as e:
        g.run()
    return str(e.value)


def _every_card_seen(monkeypatch):
    honest = view_module.Desk.__init__

    def init(desk, game, seat):
        honest(desk, game, seat)
        desk.bit = -1  # as if the seat knew every card

    monkeypatch.setattr(view_module.Desk, "__init__", init)


_write = object.__setattr__


def test_a_view_that_shows_unknown_cards(rules, monkeypatch):
    _every_card_seen(monkeypatch)
    g = new_game(rules, "identity", 5, 5, "heuristic", invariants=True)
    with pytest.raises(InvariantError, match="a card it does not know"):
        g.run()


def test_a_view_that_shows_unshown_identities(rules, monkeypatch):
    msg = _leaks(rules, "identity", 5, monkeypatch, lambda d, p, pv: _write(pv, "identity", p.identity))
    assert "unshown identity" in msg


def test_a_view_that_shows_face_down_heroes(rules, monkeypatch):
    msg = _leaks(rules, "guozhan", 5, monkeypatch, lambda d, p, pv: _write(pv, "heroes", tuple(p.heroes)))
    assert "face-down hero card" in msg


def test_a_view_that_shows_face_down_skills(rules, monkeypatch):
    msg = _leaks(rules, "guozhan", 5, monkeypatch, lambda d, p, pv: _write(pv, "_skills", tuple(map(d.wrap, p.skills))))
    assert "skill of a face-down hero card" in msg


def test_the_honest_views_pass_a_whole_game_of_each_mode(rules):
    for mode, players in (("identity", 8), ("duel", 2), ("guozhan", 6)):
        g = new_game(rules, mode, players, 6, "heuristic", invariants=True)
        assert g.run().reason


def test_a_request_that_offers_an_unknown_card_face_up(rules, monkeypatch):
    from sgsdsl.engine.invariants import hidden
    from sgsdsl.engine.requests import Request

    g = new_game(rules, "identity", 5, 7, "random", invariants=True)
    g.setup_mode()
    card = g.draw_pile[-1]
    card.known = 1 << 3  # peeked at by seat 4 only
    req = Request("cards", g.players[0], [card])

    def check():
        desk = view_module.Desk(g, 0)
        view, seen = desk.present(req)
        desk.read_all()  # the parts an agent reads late, as the interpreter writes them before this check
        hidden(g, desk, view, seen)

    check()  # the honest view offers it with no name
    _every_card_seen(monkeypatch)
    with pytest.raises(InvariantError, match="offered in a request"):
        check()
