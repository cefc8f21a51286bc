"""A deck acknowledges its own data findings with `allow CODE "reason"` among its entries."""

from click.testing import CliRunner

from sgsdsl.cli import main

DECK = """package 试牌
use core, standard

deck 试牌堆 shipai "三张♠A" {
%s
  ♠A 杀  ♠A 闪  ♠A 桃  ♠2 杀  ♠2 闪  ♠3 杀  ♠3 闪
}
"""


def check(tmp_path, allow: str, *opts: str):
    f = tmp_path / "deck.sgs"
    f.write_text(DECK % allow, encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(f), *opts])


def test_an_overfull_suit_and_rank_is_a_finding(tmp_path):
    r = check(tmp_path, "", "--select", "SGS35")
    assert r.exit_code == 1 and "warning[SGS351]: deck 试牌堆 holds ♠A 3 times" in r.output


def test_the_deck_acknowledges_it(tmp_path):
    r = check(tmp_path, '  allow SGS351 "印刷如此"', "--select", "SGS35")
    assert r.exit_code == 0, r.output
    assert "(acknowledged: deck 试牌堆: 印刷如此)" in r.output and "1 acknowledged" in r.output


def test_an_unknown_code_is_an_error(tmp_path):
    r = check(tmp_path, '  allow SGS999 "无此代码"')
    assert r.exit_code == 1 and "error[SGS101]: unknown diagnostic code 'SGS999'" in r.output
