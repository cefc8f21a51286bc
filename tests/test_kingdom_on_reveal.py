"""The engine role `kingdom_on_reveal` (rules/modes/guozhan.sgs): the kingdom a player has once a hero card of
a kingdom is revealed (seed 002: 野心家 when that kingdom would be more than half of the table). The mode's
rule 确定势力 and the heuristic bots read the same quantity, so the bots foresee what revealing makes them
from the rules and from nothing else: rewrite the quantity, or unbind it, and both follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl import api
from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.lang import compiler
from sgsdsl.lang.loader import compiled

ROOT = Path(__file__).resolve().parent.parent
GUOZHAN = ROOT / "rules" / "modes" / "guozhan.sgs"
SHIPPED_BODY = "if (count(all_players where it.kingdom == k) + 1) * 2 > count(all_players) then 野心家 else k"
SHIPPED_BIND = "bind kingdom_on_reveal 明置后的势力\n"


def rules_with(old: str, new: str):
    text = GUOZHAN.read_text(encoding="utf-8")
    assert text.count(old) == 1  # the shipped rules say it once, where the test rewrites it
    with compiler.overlay({GUOZHAN: text.replace(old, new)}):
        return compiled([])[0]


@pytest.fixture(scope="module")
def variants():
    return {"shipped": rules_with(SHIPPED_BODY, SHIPPED_BODY),
            "never lone": rules_with(SHIPPED_BODY, "k"),  # a house rule: nobody becomes 野心家 by count
            "unbound": rules_with(SHIPPED_BIND, "")}


def table(rules):
    """4 players after the 国战 setup: seats 1 and 2 revealed as 魏, seat 3 unknown, seat 0 holding 曹操 face
    down; a third 魏 would be more than half of the table."""
    g = api.new_game(rules, mode="guozhan", players=4, seed=1, log=False)
    g.setup_mode()
    caocao = rules.heroes["caocao"]
    for p, k in zip(g.players, (None, "wei", "wei", None)):
        p.kingdom = k
    me = g.players[0]
    me.heroes = [caocao, *me.heroes[1:]]
    me.shown = [False] * len(me.heroes)
    return g, me


@pytest.mark.parametrize("variant, foreseen", [("shipped", "careerist"), ("never lone", "wei"), ("unbound", "wei")])
def test_the_bot_foresees_its_kingdom_from_the_rules(variants, variant, foreseen):
    g, me = table(variants[variant])
    assert HeuristicAgent().my_kingdom(g, me) == foreseen


@pytest.mark.parametrize("variant, kingdom", [("shipped", "careerist"), ("never lone", "wei")])
def test_the_rule_reveals_into_the_same_kingdom(variants, variant, kingdom):
    g, me = table(variants[variant])
    g.call_flow(g.flow_reveal.id, who=me, slot=0)
    assert me.shown[0] and me.kingdom == kingdom


def test_a_bind_to_a_quantity_of_another_shape_is_a_located_error():
    text = GUOZHAN.read_text(encoding="utf-8").replace(SHIPPED_BIND, "bind kingdom_on_reveal 手牌上限\n")
    with compiler.overlay({GUOZHAN: text}):
        b = compiler.build()
    err = [d for d in b.errors if d.code == "SGS206"]
    assert len(err) == 1 and "kingdom_on_reveal" in err[0].message and "(player, kingdom) -> kingdom" in err[0].message
    assert err[0].span.file.endswith("rules/modes/guozhan.sgs") and err[0].span.line == text[:text.index(
        "bind kingdom_on_reveal")].count("\n") + 1
