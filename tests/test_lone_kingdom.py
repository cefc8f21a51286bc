"""The engine role `lone_kingdom` (`bind lone_kingdom 野心家`, rules/core/vocabulary.sgs): the kingdom whose
players share a kingdom with nobody, not even each other (seed 002: 野心家). The engine's kingdom tests, the
heuristic bots and check's hero pairing read the value the rules bind, and nothing else: here the rules bind
it to 群 instead, or leave it unbound, and the verdicts follow."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from sgsdsl import api
from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.conflicts import meetings
from sgsdsl.lang import compiler
from sgsdsl.lang.diagnostics import render_all
from sgsdsl.lang.loader import compiled

ROOT = Path(__file__).resolve().parent.parent
VOCABULARY = ROOT / "rules" / "core" / "vocabulary.sgs"
SHIPPED_BIND = "bind lone_kingdom 野心家\n"
# a test-only hero of kingdom 野心家 (枭雄) and the 国战 mode with its options
ADVANCED = ROOT / "tests" / "scenarios" / "guozhan_advanced.sgs"


def vocabulary(bind: str) -> str:
    text = VOCABULARY.read_text(encoding="utf-8")
    assert text.count(SHIPPED_BIND) == 1  # the shipped rules bind it, once, where the tests rewrite it
    return text.replace(SHIPPED_BIND, bind)


def build_with(bind: str):
    with compiler.overlay({VOCABULARY: vocabulary(bind)}):
        return compiler.build(extra=[ADVANCED])


def rules_with(bind: str):
    with compiler.overlay({VOCABULARY: vocabulary(bind)}):
        return compiled([ADVANCED])[0]


@pytest.fixture(scope="module")
def shipped():
    return rules_with(SHIPPED_BIND)


@pytest.fixture(scope="module")
def qun_lone():
    return rules_with("bind lone_kingdom 群\n")


@pytest.fixture(scope="module")
def unbound():
    return rules_with("")


def table(rules, *kingdoms):
    """A 国战 game whose seats have these kingdoms (None: not known yet), in seat order."""
    g = api.new_game(rules, mode="guozhan", players=len(kingdoms), seed=1, log=False)
    for p, k in zip(g.players, kingdoms):
        p.kingdom = k
    return g


def same(g, a, b) -> bool:
    """The rules' own `same_kingdom`, as generated code calls it: 以逸待劳's targets are the user and the
    players of the user's kingdom (`target all where it == self or same_kingdom(self, it)`)."""
    return g.rules.cards["yiyi"].target.where(g, g.players[a], None, g.players[b])


def differ(g, a, b) -> bool:
    """`diff_kingdom`, as generated code calls it: 远交近攻 targets a player of another kingdom."""
    return g.rules.cards["yuanjiao"].target.where(g, g.players[a], None, g.players[b])


def test_the_rulesets_carry_the_bound_value(shipped, qun_lone, unbound):
    assert (shipped.lone_kingdom, qun_lone.lone_kingdom, unbound.lone_kingdom) == ("careerist", "qun", None)


def test_same_kingdom_follows_the_binding(shipped, qun_lone, unbound):
    kingdoms = ("careerist", "careerist", "qun", "qun", "wei")
    g = table(shipped, *kingdoms)
    assert [same(g, 0, 1), same(g, 2, 3), differ(g, 0, 1), differ(g, 2, 3)] == [False, True, True, False]
    g = table(qun_lone, *kingdoms)
    assert [same(g, 0, 1), same(g, 2, 3), differ(g, 0, 1), differ(g, 2, 3)] == [True, False, False, True]
    g = table(unbound, *kingdoms)
    assert [same(g, 0, 1), same(g, 2, 3), differ(g, 0, 1), differ(g, 2, 3)] == [True, True, False, False]
    assert same(g, 0, 0) and not differ(g, 4, 4)  # a player is of their own kingdom, lone or not


def test_big_kingdoms_and_formations_follow_the_binding(shipped, qun_lone, unbound):
    # seats 0-1 and 2-3 sit next to each other; seat 4 sits between 3 and 0
    kingdoms = ("careerist", "careerist", "qun", "qun", "wei")
    g = table(shipped, *kingdoms)
    assert g.big_kingdoms() == ["qun"] and g.formation(g.players[0]) == []
    assert g.formation(g.players[2]) == [g.players[2], g.players[3]]
    g = table(qun_lone, *kingdoms)
    assert g.big_kingdoms() == ["careerist"] and g.formation(g.players[2]) == []
    assert g.formation(g.players[0]) == [g.players[0], g.players[1]]
    g = table(unbound, *kingdoms)
    assert sorted(g.big_kingdoms()) == ["careerist", "qun"]
    # 围攻: seat 1 (wei) sits between two qun players; seat 4 between a careerist and a qun player
    g = table(shipped, "qun", "wei", "qun", "careerist", "careerist")
    assert g.besieged(g.players[1]) and not g.besieged(g.players[4])
    g = table(qun_lone, "qun", "wei", "qun", "careerist", "careerist")
    assert not g.besieged(g.players[1])


def test_the_bots_read_the_binding(shipped, qun_lone, unbound):
    bot = HeuristicAgent()
    kingdoms = ("careerist", "careerist", "qun", "qun", "wei")
    stances = {}
    for name, rules in (("shipped", shipped), ("qun", qun_lone), ("unbound", unbound)):
        g = table(rules, *kingdoms)
        stances[name] = (bot.kingdom_stance(g, g.players[0], g.players[1]),
                         bot.kingdom_stance(g, g.players[2], g.players[3]))
    assert stances == {"shipped": (-3.0, 3.0), "qun": (3.0, -3.0), "unbound": (3.0, 3.0)}


def test_check_pairs_a_lone_kingdom_hero_with_any_other_kingdom():
    """check's hero pairing (which heroes can share a seat in 国战) reads the binding from the model."""
    def share(b, x, y) -> bool:
        m = b.model
        facts = SimpleNamespace(m=m, pools={"guozhan": {x, y}})
        return meetings.SEAT in meetings.how_they_meet(facts, m.modes["guozhan"], x, y)

    shipped, unbound = build_with(SHIPPED_BIND), build_with("")
    assert not shipped.errors and not unbound.errors
    # 枭雄 is of kingdom 野心家 (a test-only hero), 郭嘉 of 魏
    assert share(shipped, "枭雄", "郭嘉") and not share(unbound, "枭雄", "郭嘉")
    assert share(shipped, "曹操", "郭嘉") and share(unbound, "曹操", "郭嘉")


@pytest.mark.parametrize("target, hint", [
    ("回合", "help: the kingdom values: 魏 wei, 蜀 shu, 吴 wu, 群 qun, 野心家 careerist"),  # a flow
    ("男", "help: the kingdom values: 魏 wei, 蜀 shu, 吴 wu, 群 qun, 野心家 careerist"),  # a gender value
    ("野心", "help: did you mean '野心家'?"),
])
def test_binding_to_something_not_a_kingdom_is_a_located_error(target, hint):
    b = build_with(f"bind lone_kingdom {target}\n")
    errors = [d for d in b.errors if d.code == "SGS206"]
    assert len(errors) == 1 and len(b.errors) == 1, render_all(b.errors, b.sources)
    text = render_all(errors, b.sources)
    line = vocabulary("").count("\n", 0, vocabulary("").index("enum gender")) + 1  # where the bind line goes
    assert text.splitlines()[0] == (f"rules/core/vocabulary.sgs:{line}:19: error[SGS206]: role 'lone_kingdom' "
                                    f"needs a value of the enum 'kingdom'; '{target}' is not one")
    assert f"bind lone_kingdom {target}" in text and "^" in text and hint in text
