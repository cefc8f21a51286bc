"""Issue 24: a designer's tests in every mode (seat any shipped hero, scripted answers bound to their
requests, requests and views asserted, failures that show their operands …)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.lang.compiler import build, modules_in_memory
from sgsdsl.lang.loader import compiled
from sgsdsl.scenarios.runner import run_test, scenario_jobs

ROOT = Path(__file__).resolve().parent.parent


def _file(tmp_path, text: str, name: str = "mine.sgs"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def _run(tmp_path, text: str):
    """Every test of one designer file, run as `sgsdsl test FILE` runs them: (title -> result)."""
    b = build(extra=[_file(tmp_path, text)])
    assert not b.errors, [d.message for d in b.errors]
    jobs = [(r, t) for r, t in scenario_jobs([m.TABLES for m in modules_in_memory(b)]) if not t.loc.startswith("rules/")]
    return {t.title: run_test(r, t) for r, t in jobs}


def _errors(tmp_path, text: str):
    b = build(extra=[_file(tmp_path, text)])
    return b.errors


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


# ---- 1. seat and name anything that ships ------------------------------------------------------

USES = '''
use guozhan_heroes
hero 新人 xinren { kingdom 魏  hp 4  gender 男  skills 放逐 }
test "use 一个变体包：它的技能给设计者的武将" {
  seat 关羽 hand [杀]
  seat 新人
  start 关羽 出牌阶段
  decide 关羽: 杀, 新人
  decide 新人: yes, 关羽
  expect 关羽.flipped and 新人.hp == 3
}
'''


def test_a_designer_hero_takes_a_skill_of_a_variant_it_uses(tmp_path):
    r = _run(tmp_path, USES)["use 一个变体包：它的技能给设计者的武将"]
    assert r.ok, r.failures
    assert any("新人 发动 【放逐】" in line for line in r.log.lines)


def test_a_mode_test_seats_the_heroes_of_the_variants_the_mode_plays_with(tmp_path):
    text = '''
test "曹丕" {
  mode guozhan
  seat 曹丕 deputy 许褚
  seat 刘备 deputy 关羽
  turns 0
  expect 曹丕.max_hp == 3 and 放逐 in 曹丕.skills and 行殇 in 曹丕.skills
}
'''
    assert _run(tmp_path, text)["曹丕"].ok


def test_a_name_not_in_view_is_an_error_that_names_its_package(tmp_path):
    errs = _errors(tmp_path, '''
hero 新人 xinren { kingdom 魏  hp 4  gender 男  skills 放逐 }
test "没有模式" {
  seat 曹丕
  seat 新人
  expect 曹丕.hp == 3
}
''')
    by_code = {}
    for d in errs:
        by_code.setdefault(d.code, []).append(d)
    assert {"SGS106", "SGS112", "SGS101"} <= set(by_code)
    for d in errs:
        assert "variant package guozhan_heroes" in (d.help or ""), (d.code, d.message, d.help)
        assert "`use guozhan_heroes`" in d.help and "`mode 国战`" in d.help


def test_explain_finds_the_skills_of_every_variant():
    for name, package in (("藏机", "duel_skills"), ("翩仪", "duel_skills"), ("骁袭", "duel_skills"),
                          ("虎威", "duel_skills"), ("放逐", "guozhan_heroes")):
        r = cli("explain", name)
        assert r.exit_code == 0, r.output
        assert f"in the variant package {package}" in r.output and f"skill {name} " in r.output
    r = cli("explain", "奸雄")  # the default version first, alone when no variant redeclares it
    assert r.output.startswith("skill 奸雄 jianxiong")
    assert cli("explain", "没有这个技能").exit_code == 2


def test_the_shipped_rules_compile_their_tests_with_the_variants_they_play_with():
    rules, _ = compiled()
    played = {t.variants for t in rules.tests if t.mode == "guozhan"}
    assert ("guozhan_heroes",) in played


# ---- 2. scripted answers bound to what they answer -------------------------------------------

CANGJI = '''
test "{title}" {{
  mode duel
  seat 关羽 hand [杀]
  seat 黄月英 hp 1 equip [八卦阵] reserve [孙权]
  deck [♠2 杀]
  start 关羽 出牌阶段
  decide 关羽: 杀, 黄月英
  {decide}
  expect 八卦阵 in 孙权.equips
}}
'''


def test_an_answer_bound_to_a_skill_goes_to_that_skills_request_only(tmp_path):
    # unbound, the `yes` meant for 藏机 is taken by 八卦阵's question, asked first: 藏机 is not used
    r = _run(tmp_path, CANGJI.format(title="未绑定", decide="decide 黄月英: yes"))["未绑定"]
    assert not r.ok
    assert any("发动【八卦阵】" in line and "脚本: yes" in line for line in r.log.requests)
    r = _run(tmp_path, CANGJI.format(title="绑定", decide="decide 藏机: yes"))["绑定"]
    assert r.ok, r.failures
    assert any("发动【八卦阵】" in line and "(默认" in line for line in r.log.requests)
    assert any("发动【藏机】" in line and "脚本 【藏机】: yes" in line for line in r.log.requests)
    # bound to one seat and one card
    r = _run(tmp_path, CANGJI.format(title="座位与牌", decide="decide 黄月英 八卦阵: no\n  decide 黄月英: yes"))
    assert r["座位与牌"].ok, r["座位与牌"].failures


def test_a_skill_with_bound_answers_takes_no_unbound_one(tmp_path):
    # 八卦阵's answers are bound (and used up): the seat's unbound `yes` waits for 藏机
    r = _run(tmp_path, CANGJI.format(title="t", decide="decide 八卦阵: no\n  decide 黄月英: yes"))["t"]
    assert r.ok, r.failures


def test_unused_and_misbound_answers_fail_with_the_request_list(tmp_path):
    r = _run(tmp_path, '''
test "多余" {
  seat 关羽 hand [杀]
  seat 曹操
  start 关羽 出牌阶段
  decide 关羽: 杀, 曹操, 桃
  decide 奸雄: yes, yes
  decide 八卦阵: no
}
''')["多余"]
    text = "\n".join(r.failures)
    assert "answers bound to 【奸雄】 never used: yes" in text
    assert "the requests of 【奸雄】:" in text and "曹操「发动【奸雄】？」 → 是 (脚本 【奸雄】: yes)" in text
    assert "answers bound to 【八卦阵】 never used: no; 【八卦阵】 made no request" in text
    assert "answers of 关羽 never asked for: 桃" in text and "the requests to 关羽:" in text
    assert "关羽「杀的目标」 [曹操] → 曹操 (脚本: 曹操)" in text


def test_an_unbound_answer_taken_by_another_request_fails_as_misbound(tmp_path):
    # the `yes` meant for 藏机 goes to 八卦阵's question, asked first; 藏机's question, which it also fits, is then
    # left to the default: the test fails and names both ways of binding the answer
    r = _run(tmp_path, CANGJI.format(title="错绑", decide="decide 黄月英: yes"))["错绑"]
    text = "\n".join(r.failures)
    assert "the answer yes went to 黄月英「发动【八卦阵】？」, and a later request of 【藏机】 that it also fits" in text
    assert "(`decide 八卦阵: yes` or `decide 藏机: yes`)" in text
    # a `no` spent on one question and the default `no` of a later one: nothing went astray
    r = _run(tmp_path, CANGJI.format(title="否", decide="decide 黄月英: no").replace(
        "expect 八卦阵 in 孙权.equips", "expect 八卦阵 not in 孙权.equips"))["否"]
    assert r.ok, r.failures


def test_a_decide_names_a_seat_a_skill_or_a_card(tmp_path):
    errs = _errors(tmp_path, '''
test "t" {
  seat 关羽
  decide 谁: no
  decide 关羽 不存在: no
}
''')
    assert [(d.code, d.message) for d in errs] == [
        ("SGS211", "'谁' has no seat in this test, and is no skill or card"),
        ("SGS106", "unknown skill or card '不存在'")]


# ---- 3. the requests made: options offered, and how many --------------------------------------

ASKED = '''
test "请求" {{
  seat 关羽 hand [♥7 杀, ♠2 杀]
  seat 曹操 equip [八卦阵]
  deck [♥K 闪]
  start 关羽 出牌阶段
  decide 关羽: 杀, 曹操
  decide 曹操: yes
  {expect}
}}
'''


def test_expect_asked_offers_exact_options_in_order_and_counts(tmp_path):
    good = ["expect asked 关羽: [♥7 杀, ♠2 杀, 武圣]", "expect asked 关羽: [杀, 杀, 武圣] == 1",
            "expect asked 曹操 八卦阵 == 1", "expect asked 八卦阵 == 1", "expect asked 曹操 == 1",
            "expect asked 关羽: [曹操]", "expect asked 奸雄 == 0"]
    bad = ["expect asked 关羽: [♠2 杀, ♥7 杀, 武圣]", "expect asked 关羽: [杀, 杀]", "expect asked 曹操 == 2",
           "expect asked 八卦阵 == 2", "expect asked 关羽: [杀, 杀, 武圣] == 2", "expect asked 曹操: [杀]"]
    for e in good + bad:
        r = _run(tmp_path, ASKED.format(expect=e))["请求"]
        assert r.ok == (e in good), (e, r.failures, r.log.requests)
    r = _run(tmp_path, ASKED.format(expect="expect asked 关羽: [♠2 杀, ♥7 杀, 武圣]"))["请求"]
    text = r.failures[0]
    assert "expected a request to 关羽 offering exactly [♠2 杀, ♥7 杀, 武圣]; there were 0" in text
    assert "关羽「出牌阶段」 [杀(♥7)、杀(♠2)、【武圣】]" in text


# ---- 4. a failed expect shows its operands --------------------------------------------------------

def test_a_failed_expect_prints_the_value_of_every_operand(tmp_path):
    r = _run(tmp_path, '''
test "操作数" {
  seat 关羽 hand [♥7 杀]
  seat 曹操 hp 3
  start 关羽 出牌阶段
  decide 关羽: 杀, 曹操
  expect 曹操.hp == 1 and 杀 in 关羽.hand and not 曹操.flipped and count(曹操.hand) > 5 and 魏 == 曹操.kingdom
  expect 曹操.hand[3] is 杀
  expect 曹操.hp == 2
}
''')["操作数"]
    assert len(r.failures) == 2
    first, second = r.failures
    assert first.splitlines()[1:] == ["         曹操.hp = 2", "         关羽.hand = []", "         曹操.flipped = false",
                                      "         count(曹操.hand) = 0", "         曹操.kingdom = 魏"]
    assert second.endswith("expected 曹操.hand[3] is 杀\n         曹操.hand[3] = none")


# ---- 5. card literals in a test's expressions ---------------------------------------------------

def test_a_card_by_suit_and_rank_in_an_expect(tmp_path):
    text = '''
test "牌面" {{
  seat 关羽 hand [♥7 杀, ♣2 杀]
  seat 曹操
  start 关羽 出牌阶段
  decide 关羽: ♥7 杀, 曹操
  decide 曹操: yes
  expect {expect}
}}
'''
    good = ["♣2 杀 in 关羽.hand and ♥7 杀 not in 关羽.hand and ♥7 杀 in 曹操.hand",
            "关羽.hand[0] is ♣2 杀 and 关羽.hand[0] == ♣2 杀 and 关羽.hand[0] != ♣3 杀"]
    bad = ["♣3 杀 in 关羽.hand", "♥7 杀 in 关羽.hand", "♣2 闪 in 关羽.hand", "关羽.hand[0] is ♠2 杀"]
    for e in good + bad:
        r = _run(tmp_path, text.format(expect=e))["牌面"]
        assert r.ok == (e in good), (e, r.failures)


def test_a_card_literal_is_for_tests_and_for_cards(tmp_path):
    errs = _errors(tmp_path, '''
skill 坏 huai {
  "x"
  on 受到伤害后 when ♣2 杀 in self.hand do { draw(self, 1) }
}
test "t" {
  seat 关羽
  expect ♣2 杀 == 1 and ♣2 不存在 in 关羽.hand
}
''')
    got = [(d.code, d.span.line) for d in errs]
    assert got == [("SGS201", 4), ("SGS201", 8), ("SGS105", 8)], [(d.code, d.message) for d in errs]


# ---- 7. what a seat's view shows -------------------------------------------------------------------

def test_expect_view_reads_the_table_through_the_seats_view(tmp_path):
    text = '''
test "视角" {{
  mode guozhan
  seat 曹操 deputy 郭嘉 hidden hand [♥7 杀]
  seat 刘备 deputy 关羽 hidden 副将
  turns 0
  expect view {expect}
}}
'''
    good = ["座位2: 曹操.hero == none and 曹操.heroes == [none, none] and 刘备.heroes == [刘备, 关羽]",
            "刘备: count(曹操.hand) == 1 and not (杀 in 曹操.hand) and not (♥7 杀 in 曹操.hand)",
            "曹操: ♥7 杀 in 曹操.hand and 刘备.heroes == [刘备, none] and 曹操.heroes == [曹操, 郭嘉]",
            "关羽: 曹操.kingdom == none and 刘备.kingdom == 蜀"]
    bad = ["座位1: 曹操.hero == none", "座位2: 杀 in 曹操.hand", "曹操: 刘备.heroes == [刘备, 关羽]"]
    for e in good + bad:
        r = _run(tmp_path, text.format(expect=e))["视角"]
        assert r.ok == (e in good), (e, r.failures)
    r = _run(tmp_path, text.format(expect="座位2: 杀 in 曹操.hand"))["视角"]
    assert r.failures[0].endswith("expected, as 座位2 sees it, 杀 in 曹操.hand\n         曹操.hand = [一张牌]")
    errs = _errors(tmp_path, text.format(expect="座位3: 曹操.hp == 4"))
    assert [(d.code, d.message) for d in errs] == [("SGS211", "'座位3' names no seat of this test")]


# ---- 8. draw pools, 1v1's draft, a flipped seat's start --------------------------------------------

POOLS = '''
hero 设计甲 shejijia {{ kingdom 魏  hp 4  gender 男  skills 设计技 }}
hero 设计乙 shejiyi {{ kingdom 蜀  hp 4  gender 男  skills 设计技 }}
skill 设计技 shejiji {{
  "锁定技，你的手牌上限+0。"
  modify hand_limit(self) += 0
}}
test "甲" {{
  mode identity
  setup
  seat {a} identity 主公
  seat 关羽 identity 反贼
  seat 张飞 identity 反贼
  seat 孙权 identity 内奸
  turns 0
}}
'''


def test_a_designer_hero_joins_the_pools_of_the_tests_that_seat_it_only(tmp_path):
    from sgsdsl.engine.log import GameLog
    from sgsdsl.scenarios.runner import setup

    for seated, other in (("设计甲", "shejiyi"), ("曹操", "shejijia")):
        b = build(extra=[_file(tmp_path, POOLS.format(a=seated))])
        assert not b.errors, [d.message for d in b.errors]
        rules, t = next((r, t) for r, t in scenario_jobs([m.TABLES for m in modules_in_memory(b)]) if t.title == "甲")
        g, _ = setup(rules, t, GameLog())
        assert other not in g.hero_pool and other in rules.hero_pool(rules.modes["identity"])
        assert ("shejijia" in g.hero_pool) == (seated == "设计甲")


def test_a_1v1_setup_deals_the_seats_heroes_and_enters_the_chosen_one():
    rules, _ = compiled([ROOT / "tests" / "scenarios" / "variants.sgs"])
    jobs = {t.title: (r, t) for r, t in scenario_jobs(rules.all_tables) if "variants.sgs" in t.loc}
    for title in ("1v1 setup：座位的武将在12名之中，选定的首发武将登场", "叠置的角色从结束阶段开始"):
        r = run_test(*jobs[title])
        assert r.ok, r.failures


# ---- 9. how the log names a seat, in every mode ----------------------------------------------------

def test_the_log_names_a_seat_by_its_face_up_heroes_in_every_mode(tmp_path):
    results = _run(tmp_path, '''
test "身份局" {
  seat 关羽 hand [杀]
  seat 曹操
  start 关羽 出牌阶段
  decide 关羽: 杀, 曹操
}
test "国战" {
  mode guozhan
  seat 关羽 deputy 张飞 hand [杀]
  seat 曹操 deputy 郭嘉 hidden 副将
  seat 孙权 deputy 周瑜 hidden
  start 关羽 出牌阶段
  decide 关羽: 杀, 孙权
}
test "1v1" {
  mode duel
  setup
  seat 关羽 identity 主公
  seat 曹操 identity 内奸
  turns 0
}
''')
    lines = {title: "\n".join(r.log.lines) for title, r in results.items()}
    assert "关羽 使用 杀" in lines["身份局"] and "→ 曹操" in lines["身份局"]
    assert "关羽/张飞 使用 杀" in lines["国战"] and "→ 座位3" in lines["国战"]
    assert "比点：座位1 亮出" in lines["1v1"] and "关羽 登场" in lines["1v1"]


# ---- hero cards as objects (issue 26 class 1): the windows after 暗置, 移除 and 变更 -----------------------------

HERO_CARD_WINDOWS = '''
use guozhan_heroes
hero 观者 guanzhe { kingdom 魏  hp 2  gender 男  skills 观变 }
skill 观变 guanbian locked {
  "锁定技，当一名角色的一张武将牌暗置、移除或变更后，你摸一张牌。"
  on 暗置武将牌后 any do { draw(self, 1) }
  on 移除武将牌后 any do { draw(self, 1) }
  on 变更副将后 any do { draw(self, 1) }
}
test "暗置之后" {
  mode guozhan
  seat 邹氏 deputy 华佗 equip [赤兔]
  seat 甘宁 deputy 吕蒙
  seat 观者 deputy 许褚
  start 邹氏 出牌阶段
  decide 邹氏: 倾城, 甘宁, 吕蒙
  expect 观者.hand_count == 1 and not 甘宁.shown[1]
}
test "移除之后" {
  mode guozhan
  seat 张任 deputy 纪灵 hand [杀]
  seat 甘宁 deputy 吕蒙
  seat 观者 deputy 许褚
  start 张任 出牌阶段
  decide 张任: 杀, 甘宁, yes
  expect 观者.hand_count == 1 and 1 in 甘宁.removed
}
test "变更之后" {
  mode guozhan
  heroes [张昭张纮]
  seat 关羽 deputy 张飞 hand [过河拆桥, 顺手牵羊]
  seat 吕范 deputy 甘宁 hp 2 hand [闪, 闪]
  seat 观者 deputy 许褚
  start 关羽 出牌阶段
  decide 关羽: 过河拆桥, 吕范, 顺手牵羊, 吕范
  decide 吕范: yes, yes, 张昭张纮
  expect 观者.hand_count == 1 and 吕范.heroes[1] == 张昭张纮
}
'''


def test_the_windows_after_a_hero_card_is_hidden_removed_or_changed_open_for_every_listener(tmp_path):
    results = _run(tmp_path, HERO_CARD_WINDOWS)
    for title in ("暗置之后", "移除之后", "变更之后"):
        r = results[title]
        assert r.ok, (title, r.failures)
        assert any("观者/许褚 发动 【观变】" in line for line in r.log.lines), title
