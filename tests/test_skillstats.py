"""What each skill did: the observer's counts on shipped scenario tests, and over bot games."""

import pytest

from sgsdsl.scenarios.runner import run_test
from sgsdsl.sim.batch import new_game
from sgsdsl.sim.skillstats import FIELDS, RECIPIENTS, SHARED, SkillStats, sides


def observed(rules, title: str) -> dict:
    t = next(t for t in rules.tests if t.title == title)
    stats = SkillStats(rules)
    r = run_test(rules, t, observer=stats)
    assert r.ok, r.failures
    return {rules.skills[sid].name: {k: v for k, v in rec.items() if v} for sid, rec in stats.counts.items()}


@pytest.mark.parametrize("title,skill,counts", [
    # 英姿 raises the draw count by one: one of the three cards drawn is its doing
    ("摸牌阶段摸三张牌", "英姿", {"offered": 1, "used": 1, "drawn": 1}),
    # 裸衣 adds 1 to the 杀's damage: 1 of the 2 points is its doing, the other the 杀's
    ("少摸一张牌，【杀】的伤害+1", "裸衣", {"offered": 2, "used": 2, "damage": 1}),
    ("受到【杀】的伤害后获得此【杀】", "奸雄", {"offered": 1, "used": 1, "gained": 1}),
    ("判定不为♥：手牌不足两张的伤害来源受到1点伤害", "刚烈", {"offered": 1, "used": 1, "damage": 1}),
    # losing HP is not damage: 苦肉 draws, and costs its owner the HP; offered at each of the three play
    # decisions, the last declined
    ("失去1点体力，摸两张牌；可以多次发动", "苦肉", {"offered": 3, "used": 2, "drawn": 4, "hp_lost": 2}),
    # a damage cancelled at 造成伤害时 was prevented, by the skill that cancelled it
    ("寒冰剑：防止杀造成的伤害，依次弃置目标的两张牌", "寒冰剑", {"offered": 1, "used": 1, "prevented": 1}),
])
def test_effects_belong_to_the_skill_that_caused_them(rules, title, skill, counts):
    got = observed(rules, title)
    assert got[skill] == counts, got


def test_a_card_used_in_a_dying_flow_is_not_the_skill_s_doing(rules):
    # 苦肉 at 1 HP: 黄盖 is dying inside 苦肉's frame, and the 桃 that saves him is the 桃's doing
    got = observed(rules, "体力为1时发动：濒死被救回后摸牌")
    assert "recovered" not in got["苦肉"] and got["苦肉"]["drawn"] == 2


def test_counts_over_bot_games_are_consistent(rules):
    totals: dict[str, dict] = {}
    for seed in range(12):
        g = new_game(rules, "identity", 5, seed, "heuristic")
        g.observer = SkillStats(rules)
        g.run()
        res = g.observer.result(g)
        seated = {sid for p in g.players for h in p.heroes for sid in h.skills
                  if not rules.skills[sid].lord or g.is_lord(p)}
        assert seated <= set(res)  # every seated hero's skill was available
        for sid, rec in res.items():
            by_whom = {k for k in rec if "@" in k}
            assert rec["games"] == 1 and set(rec) - by_whom == set(FIELDS) | {"games"}
            for k in by_whom:  # what went to each recipient adds up to the effect
                effect, rel = k.split("@")
                assert rel in RECIPIENTS and effect in SHARED
            for effect in SHARED:
                assert sum(rec.get(f"{effect}@{r}", 0) for r in RECIPIENTS) <= rec[effect]
            t = totals.setdefault(sid, dict.fromkeys(FIELDS, 0))
            for k in FIELDS:
                t[k] += rec[k]
    for sid, t in totals.items():
        assert t["used"] <= t["offered"], (sid, t)  # nothing is used without being offered
        assert all(v >= 0 for v in t.values())
    assert sum(t["damage"] for t in totals.values()) > 0 and sum(t["drawn"] for t in totals.values()) > 0


def test_a_recast_offer_is_no_skill_s(rules):
    # the play phase offers recasting a card (铁索连环, 知己知彼): the observer counts skills only, and a
    # recast offer is a card; the 国战 deck has them from the first turn on
    from sgsdsl.engine.requests import Request

    g = new_game(rules, "guozhan", 4, 3, "heuristic")
    g.observer = SkillStats(rules)
    card = next(c for c in g.draw_pile if c.cdef.recast)
    g.observer.on_request(g, Request("play", g.players[0], [("recast", card)], lo=0, prompt="出牌阶段"))
    assert g.observer.counts == {} or all(rec.get("offered", 0) == 0 for rec in g.observer.counts.values())


def test_effects_are_counted_by_recipient_as_the_game_ended(rules):
    g = new_game(rules, "identity", 5, 4, "heuristic")
    g.observer = SkillStats(rules)
    g.run()
    side = sides(g)
    lord = next(p for p in g.players if p.identity == "lord")
    loyal = [p for p in g.players if p.identity == "loyalist"]
    rebels = [p for p in g.players if p.identity == "rebel"]
    assert all(side[p.seat] == side[lord.seat] for p in loyal)  # 主公 and 忠臣 win together
    assert side[rebels[0].seat] == side[rebels[1].seat] != side[lord.seat]
    res = g.observer.result(g)
    got = {k.split("@")[1] for rec in res.values() for k in rec if "@" in k}
    assert got <= set(RECIPIENTS) and "self" in got


def test_a_skill_that_gives_cards_away_costs_them(rules):
    got = observed(rules, next(t.title for t in rules.tests if t.owner == "rende"))
    assert got["仁德"].get("cards_lost", 0) >= 1
