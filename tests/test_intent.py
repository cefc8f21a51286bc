"""The intent analysis (lang/intent.py): what each choice of a rule means for the chosen, from its rules."""

import functools

import pytest

from sgsdsl.lang import intent
from sgsdsl.lang.compiler import build


@functools.cache
def shipped():
    b = build()
    assert not b.errors
    return b.model


def choices(model, name):
    d = model.skills.get(name) or model.cards.get(name)
    return [(c.kind, c.sense) for c in intent.choices_of(model, d)]


def facets(model, name):
    fac = intent.facet_intents(model)
    return [fac[id(f)] for f in model.skills[name].facets if id(f) in fac]


@pytest.mark.parametrize("name, expected", [
    ("遗计", [("player", "good")]),  # the chosen gains a card
    ("突袭", [("target", "bad"), ("card", "mine")]),  # a card taken from each target, into 张辽's hand
    ("离间", [("target", "bad"), ("card", "lost"), ("player", "bad")]),  # a 决斗 on the targets
    ("仁德", [("target", "good"), ("card", "given")]),
    ("青囊", [("card", "lost"), ("target", "good")]),
    ("反馈", [("card", "mine")]),
    # a card for sure, a damage maybe; the card is chosen by the target, into its own hand
    ("反间", [("target", "mixed"), ("option", None), ("card", "mine")]),
])
def test_shipped_choices(name, expected):
    assert sorted(choices(shipped(), name)) == sorted(expected)


def test_two_targets_that_exchange_hands_each_gain_and_lose():
    m = shipped()
    dimeng = m.overlays["guozhan_heroes"]["skills"]["缔盟"]  # 国战's 缔盟: the two targets exchange hands
    assert sorted((c.kind, c.sense) for c in intent.choices_of(m, dimeng)) == [("card", "lost"), ("target", "mixed")]


def test_a_skill_as_a_whole():
    m = shipped()
    assert facets(m, "突袭") == [("good", "bad")]  # the owner gains, the targets lose
    # a card discarded for a 决斗 between its targets: a trade, not a pure cost, for its owner
    assert facets(m, "离间") == [("mixed", "bad")]
    assert facets(m, "流离") == [("mixed", None)]  # a card for moving the 杀 away (an event field written)
    assert facets(m, "闭月") == [("good", None)]


def test_option_branches():
    m = shipped()
    c = next(c for c in intent.choices_of(m, m.skills["刚烈"]) if c.kind == "option")
    worth = {t: (mine, theirs) for t, mine, theirs in c.options}
    # the damage source chooses: both branches cost it (the chooser), neither touches anyone else
    assert worth["弃置两张手牌"][0] < 0 and worth["受到1点伤害"][0] < 0
    assert worth["弃置两张手牌"][1] == worth["受到1点伤害"][1] == 0


def test_cards_do_to_their_targets():
    m = shipped()
    fac = intent.facet_intents(m)
    assert fac[id(m.cards["杀"])][1] == "bad"
    assert fac[id(m.cards["决斗"])][1] == "bad"
    assert fac[id(m.cards["桃"])][1] == "good"


DESIGNER = """
package designer_intent
hero 测试者 ceshizhe { kingdom 魏  hp 4  gender 男  skills 赠礼, 毒计, 翻覆, 观星台, 自损 }
skill 自损 zisun {
  "结束阶段，你可以弃置一张手牌。"
  on 结束阶段开始时 when self.hand_count > 0 do { discard(self, choose self "弃置一张手牌" card from self.hand) }
}
skill 赠礼 zengli {
  "出牌阶段限一次，你可以令一名角色摸两张牌。"
  active limit 1 per phase do { draw(choose self "摸牌的角色" player from players, 2) }
}
skill 毒计 duji {
  "结束阶段，你可以对一名其他角色造成1点伤害。"
  on 结束阶段开始时 do {
    let p = choose self "受到伤害的角色" player from others(self)
    damage(source: self, target: p)
  }
}
skill 翻覆 fanfu {
  "准备阶段，你可以令一名其他角色翻面。"
  on 准备阶段开始时 target 1 where it != self do { turn_over(who: target) }
}
skill 观星台 guanxingtai {
  "准备阶段，你可以选择一名角色，观看牌堆顶的一张牌。"
  on 准备阶段开始时 do {
    let p = choose self "一名角色" player from players
    peek(self, 1)
  }
}
"""


def test_a_designers_skills(tmp_path):
    f = tmp_path / "designer.sgs"
    f.write_text(DESIGNER, encoding="utf-8")
    b = build([f])
    assert not b.errors, b.errors
    m = b.model
    assert choices(m, "赠礼") == [("player", "good")]
    assert choices(m, "毒计") == [("player", "bad")]
    assert choices(m, "翻覆") == [("target", "bad")]
    c = intent.choices_of(m, m.skills["观星台"])
    assert [(x.kind, x.sense, x.derived) for x in c] == [("player", None, False)]  # nothing befalls the chosen
    assert facets(m, "自损") == [("bad", None)]  # all it does is cost its owner: the bots decline it
