"""The interpreter: determinism, batches, invariants, logs."""

import json

from sgsdsl.engine.log import GameLog
from sgsdsl.sim.batch import game_seed, new_game, run_batch
from sgsdsl.sim.stats import summarize


def _play(rules, seed, agent="random", players=5):
    log = GameLog()
    g = new_game(rules, "identity", players, seed, agent, log, invariants=True)
    over = g.run()
    return g, over, log


def test_same_seed_same_log(rules):
    for agent in ("random", "heuristic"):
        _, _, a = _play(rules, 7, agent)
        _, _, b = _play(rules, 7, agent)
        assert a.text() == b.text() and a.jsonl() == b.jsonl()
        _, _, c = _play(rules, 8, agent)
        assert c.text() != a.text()


def test_games_end_with_a_winner_or_a_reported_draw(rules):
    for seed in range(20):
        g, over, log = _play(rules, seed)
        assert over.winners or "平局" in over.reason or "耗尽" in over.reason
        assert log.lines[-1].startswith(f"[第{g.turn_no}回合") and "游戏结束" in log.lines[-1]


def test_turn_cap_is_a_draw(rules):
    g = new_game(rules, "identity", 5, 3, "first", None, turn_cap=3)
    over = g.run()
    assert over.winners == () and "平局" in over.reason and g.turn_no == 3


def test_workers_give_the_figures_of_one_worker(rules):
    one, _ = run_batch(rules, mode="identity", players=5, games=24, seed=5, agent="random", workers=1)
    two, _ = run_batch(rules, mode="identity", players=5, games=24, seed=5, agent="random", workers=2)
    assert [(r.seed, r.winners, r.turns, r.seats) for r in one] == [(r.seed, r.winners, r.turns, r.seats) for r in two]
    a = summarize(rules, one, seed=5, mode="identity", players=5, agent="random", seconds=1)
    b = summarize(rules, two, seed=5, mode="identity", players=5, agent="random", seconds=1)
    a.pop("seconds"), b.pop("seconds"), a.pop("games_per_second"), b.pop("games_per_second")
    assert a == b


def test_jsonl_records_carry_parents_and_locations(rules):
    _, _, log = _play(rules, 11)
    recs = [json.loads(line) for line in log.jsonl().splitlines()]
    ids = {r["id"] for r in recs if "id" in r}
    assert all(r["parent"] in ids or r["parent"] == 0 for r in recs if "parent" in r)
    fired = [r for r in recs if r["kind"] == "say" and "发动" in r["text"]]
    assert fired and all(r["loc"].startswith("rules/") for r in fired)
    skills = [r for r in recs if r["kind"] == "skill"]
    assert skills and all(r["skill"] and r["loc"] for r in skills)
    triggered = [r for r in skills if r["window"] is not None]
    assert triggered and all(r["window"] in rules.windows for r in triggered)


def test_log_lines_name_turn_phase_and_rules_location(rules):
    _, _, log = _play(rules, 2)
    uses = [line for line in log.lines if " 使用 " in line and "→" in line]
    assert uses and all(line.startswith("[第") and "阶段]" in line for line in uses)
    assert any("‹rules/standard/" in line for line in log.lines if "发动" in line)


def test_seeds_of_a_batch_do_not_depend_on_its_size(rules):
    small, _ = run_batch(rules, mode="identity", players=4, games=3, seed=9, agent="random")
    big, _ = run_batch(rules, mode="identity", players=4, games=6, seed=9, agent="random")
    assert [r.seed for r in small] == [game_seed(9, i) for i in range(3)]
    assert [(r.winners, r.turns) for r in small] == [(r.winners, r.turns) for r in big[:3]]


def test_first_edition_variant_replaces_heroes_and_keeps_ganning_off_the_throne():
    from sgsdsl.engine.ruleset import Ruleset
    from sgsdsl.lang.loader import compiled_tables

    tables = compiled_tables()[0]
    default, first = Ruleset(tables), Ruleset(tables, ("first_edition",))
    assert default.heroes["ganning"].skills == ("qixi",) and not default.heroes["ganning"].never_lord
    assert first.heroes["ganning"].skills == ("tongling",) and first.heroes["ganning"].never_lord
    assert first.skills["rende"].loc.startswith("rules/first_edition/")
    assert "first_edition" not in {t.package for t in default.tables}
    lords = set()
    for seed in range(150):
        g = new_game(first, "identity", 5, seed, "random")
        g.setup_mode()  # who is lord is settled by the mode's setup: the rest of the game is not needed
        lords.update(p.heroes[0].id for p in g.players if p.identity == "lord")
    assert "ganning" not in lords and len(lords) > 5


def test_hero_data_reaches_the_tables():
    from pathlib import Path

    from sgsdsl.lang.loader import compiled

    rules = compiled([Path(__file__).parent / "scenarios" / "language.sgs"])[0]
    h = rules.heroes["yinyang"]
    assert h.hp_halves == 7 and h.pairs == ("diaochan", "lvbu")
    assert rules.counters["yong"].scope is None  # a mark lasts the game


def test_heuristic_bot_stops_answering_yes_to_a_question_repeated_without_end():
    """洛神 with 鬼才 on one 国战 player hands the judgment card back every round: the rules allow it
    forever, and the bot (like a person) must stop saying yes."""
    from types import SimpleNamespace

    from sgsdsl.bots.heuristic import MAX_REPEATS, HeuristicAgent
    from sgsdsl.engine.requests import Request

    bot = HeuristicAgent()
    g = SimpleNamespace(turn_no=7, stack=[])
    ask = Request("confirm", object(), [True, False], prompt="再发动一次【洛神】？")
    answers = [bot.on_confirm(g, ask) for _ in range(MAX_REPEATS + 1)]
    assert answers == [True] * MAX_REPEATS + [False]
    g.turn_no = 8  # a new turn: asked afresh
    assert bot.on_confirm(g, ask) is True
