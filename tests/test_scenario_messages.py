"""Scenario tests say what went wrong in the test's own words: never a Python repr."""

from __future__ import annotations

from sgsdsl.lang.loader import compiled
from sgsdsl.scenarios.runner import run_test

FAILING = '''
package messages
test "顺序与多余的答案" {
  seat 关羽 hand [杀]
  seat 曹操
  start 关羽 出牌阶段
  decide 关羽: 杀, 曹操, "摸2张牌", [闪, 桃], ♠7 杀
  expect log "曹操 受到 1 点伤害" then "关羽 使用 杀"
  expect asked 曹操, 关羽
}
'''


def test_failures_name_answers_lines_and_requests_as_written(tmp_path):
    f = tmp_path / "messages.sgs"
    f.write_text(FAILING, encoding="utf-8")
    rules, _ = compiled([f])
    t = next(t for t in rules.tests if t.title == "顺序与多余的答案")
    r = run_test(rules, t)
    text = "\n".join(r.failures)
    assert not r.ok
    assert 'answers of 关羽 never asked for: "摸2张牌", [闪, 桃], ♠7 杀' in text
    assert 'no lines containing "曹操 受到 1 点伤害" then "关羽 使用 杀" in this order' in text
    assert "the requests did not go to 曹操、关羽 in this order" in text
    assert "('" not in text and "[('" not in text
    assert any("? 关羽「出牌阶段」" in line and "(脚本: 杀)" in line for line in r.log.requests)
