"""The probe (sgsdsl/bots/probe.py) finds nothing in honest views of every mode, and finds each kind of leak
issue 30 named when one is put back: a raw object, a hidden fact, a card identity that outlives the seat's
sight, a question about an unseen card that is answered."""

from __future__ import annotations

import pytest

from sgsdsl.bots.probe import Leak, ProbeAgent, Referee
from sgsdsl.engine import view as view_module
from sgsdsl.engine.log import GameLog
from sgsdsl.sim.batch import game_seed, new_game

MODES = (("identity", 5), ("identity", 8), ("duel", 2), ("guozhan", 5), ("guozhan", 8))


def _probed(rules, mode, players, seed, log=None):
    g = new_game(rules, mode, players, seed, "probe", invariants=True, log=log)
    for a in g.agents:
        a.referee = Referee(g)
    return g


def _probe_games(rules, mode, players, seeds) -> None:
    decisions = 0
    for i in seeds:
        g = _probed(rules, mode, players, game_seed(30, i))
        assert g.run().reason
        decisions += sum(a.decisions for a in g.agents)
    assert decisions > 100 * len(seeds)  # it really looked, at every decision


@pytest.mark.parametrize("mode,players", MODES)
def test_the_probe_finds_nothing_in_honest_views(rules, mode, players):
    _probe_games(rules, mode, players, range(6))


@pytest.mark.slow
@pytest.mark.parametrize("mode,players", MODES)
def test_the_probe_finds_nothing_in_three_dozen_games_per_mode(rules, mode, players):
    _probe_games(rules, mode, players, range(6, 42))  # the soak plays many more (bench/soak.py --agents probe)


def test_a_probe_game_is_the_random_agents_game(rules):
    """It answers with the random agent's coin flips: looking changes nothing at the table."""
    logs = []
    for agent in ("probe", "random"):
        log = GameLog()
        g = new_game(rules, "identity", 5, game_seed(30, 99), agent, log=log)
        g.run()
        logs.append(log.lines)
    assert logs[0] == logs[1] and len(logs[0]) > 100


def _leaky(monkeypatch, write):
    honest = view_module.Desk._player

    def leaky(desk, p):
        pv = honest(desk, p)
        write(desk, p, pv)
        return pv

    monkeypatch.setattr(view_module.Desk, "_player", leaky)


def _caught(rules, mode="identity", players=5) -> str:
    g = new_game(rules, mode, players, 5, "probe")  # invariants off: the probe alone must find it
    for a in g.agents:
        a.referee = Referee(g)
    with pytest.raises(Leak) as e:
        g.run()
    return str(e.value)


def test_it_finds_a_raw_player_behind_a_view(rules, monkeypatch):
    _leaky(monkeypatch, lambda d, p, pv: object.__setattr__(pv, "_marks", {"x": p}))
    assert "raw Player" in _caught(rules)


def test_it_finds_the_game_in_a_closure(rules, monkeypatch):
    _leaky(monkeypatch, lambda d, p, pv: object.__setattr__(pv, "_marks", {"f": (lambda: d.game)}))
    assert "raw" in _caught(rules)


def test_it_finds_an_unshown_identity(rules, monkeypatch):
    _leaky(monkeypatch, lambda d, p, pv: object.__setattr__(pv, "identity", p.identity))
    assert "unshown identity" in _caught(rules)


def test_it_finds_a_face_down_hero_named_in_a_mark(rules, monkeypatch):
    def write(desk, p, pv):
        object.__setattr__(pv, "_marks", {"who": p.heroes[-1].id if p.heroes else None})

    _leaky(monkeypatch, write)
    assert "face-down hero card" in _caught(rules, "guozhan", 5)


def test_it_finds_an_unknown_cards_face(rules, monkeypatch):
    honest = view_module.Desk.__init__

    def init(desk, game, seat):
        honest(desk, game, seat)
        desk.bit = -1  # as if the seat knew every card

    monkeypatch.setattr(view_module.Desk, "__init__", init)
    assert "a card it does not know" in _caught(rules)


def test_it_finds_a_card_identity_that_outlives_its_sight(rules, monkeypatch):
    """The handle of a card the seat does not know, kept from one decision to the next (by uid), as the old
    per-seat cache of card views did."""
    honest = view_module.Desk.card_view

    def card_view(desk, c):
        v = honest(desk, c)
        if not v.seen and c.uid >= 0:
            object.__setattr__(v, "handle", -1 - c.uid)
            desk.cards[-1 - c.uid] = c
        return v

    monkeypatch.setattr(view_module.Desk, "card_view", card_view)
    assert "outlived the seat's sight" in _caught(rules)


def test_it_finds_a_question_about_an_unseen_card_answered(rules, monkeypatch):
    monkeypatch.setattr(view_module.Desk, "card", lambda desk, cv: desk.cards[cv.handle])
    assert "was answered" in _caught(rules)


def test_the_views_questions_refuse_what_the_seat_does_not_see(rules):
    """The refusals the probe relies on, one by one, with the error an agent gets."""
    seen = {}

    class Asker(ProbeAgent):
        def decide(self, view, req):
            other = next(p for p in view.players if not p.is_me and p.hand)
            unseen = other.hand[0]
            for what, ask in (("unseen", lambda: view.target_candidates(view.me, unseen)),
                              ("made", lambda: view.q(next(iter(view.rules.quantities)), [1, object()])),
                              ("forged", lambda: view.virtual("no-such-card"))):
                with pytest.raises(view_module.Unseen) as e:
                    ask()
                seen[what] = str(e.value)
            self.kept = view
            raise StopIteration

    g = new_game(rules, "identity", 5, 5, "random")
    g.setup_mode()
    g.draw(g.players[1], 2)
    a = Asker()
    with pytest.raises(StopIteration):
        g.views.clear()
        view_module.Desk(g, 0).ask(a, view_module.Request("confirm", g.players[0], [True, False]))
    assert "does not see" in seen["unseen"] and "plain values" in seen["made"] and "no card" in seen["forged"]
    with pytest.raises(view_module.Unseen, match="only during the decision"):
        a.kept.target_candidates(a.kept.me, None)  # a view kept past its decision answers nothing
