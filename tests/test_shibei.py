"""君临天下·势备篇 (rules/guozhan/shibei.sgs): a deck a 国战 run adds by name, whose cards bear the 连横 sign, so that
the mode's 连横 rule and the expansion's cards play in simulated games."""

from collections import Counter

import pytest
from click.testing import CliRunner

from sgsdsl import api
from sgsdsl.cli import main

NEW = ("水淹七军势", "火烧连营", "勠力同心", "联军盛宴", "挟天子以令诸侯", "敕令", "青龙偃月刀势", "方天画戟势", "护心镜",
       "明光铠", "惊帆", "调虎离山", "玉玺", "木牛流马")


@pytest.fixture(scope="module")
def rules():
    return api.load()


def test_the_deck_lists_the_expansion_and_its_signs(rules):
    d = rules.decks[rules.deck_ids(["势备篇"])[0]]
    names = Counter(cid for _, _, cid in d.entries)
    assert len(d.entries) == 52 and len(d.signs) == 15  # all 52, 木牛流马 among them (no sign)
    assert {rules.cards[c].name for c in names} >= set(NEW)
    assert {s for _, s in d.signs} == {"连横"}
    assert d.modes == ("guozhan",)


def test_games_with_the_deck_use_its_cards_and_the_lianheng_rule(rules):
    lines = []
    for seed in range(1, 9):
        g = api.new_game(rules, mode="国战", players=6, seed=seed, decks=["势备篇"])
        g.check_invariants = True
        api.run(g)
        lines += g.log.read(0)
    text = "\n".join(lines)
    assert "连横" in text  # the sign is on the deck's cards: the rule fires
    used = [n for n in NEW if f"使用 {n}" in text or f"装备 {n}" in text]
    assert len(used) >= 5, used


def test_a_deck_is_named_by_id_or_chinese_name_and_an_unknown_one_is_a_usage_error():
    r = CliRunner().invoke(main, ["simulate", "--mode", "国战", "--deck", "shibei", "--games", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["simulate", "--mode", "国战", "--deck", "势备", "--games", "1", "--quiet"])
    assert r.exit_code == 2 and "unknown deck 势备" in r.output and "shibei (势备篇)" in r.output


def test_a_rule_for_some_cards_joins_only_a_game_that_holds_one(rules):
    def rule_ids(g):
        return {L.skill.id for ls in g.listeners.values() for L in ls if L.owner is None}

    plain = api.new_game(rules, mode="国战", players=5, seed=3)
    assert "chiling_rule" not in rule_ids(plain) and "cards_moving" not in plain.watched
    with_deck = api.new_game(rules, mode="国战", players=5, seed=3, decks=["势备篇"])
    assert {"chiling_rule", "xietianzi_rule", "yanyue_rule", "diaohu_rule"} <= rule_ids(with_deck)
    assert "cards_moving" in with_deck.watched

