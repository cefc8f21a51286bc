"""`viewas A, B, C from …`: one conversion per card named, the same as a line of its own for each."""

from __future__ import annotations

from sgsdsl.lang.compiler import build, modules_in_memory

HEAD = """package designer
hero 测试 ceshi { kingdom 群  hp 3  gender 男  skills 巧变术 }
skill 巧变术 qiaobianshu {
  "你可以将一张黑色手牌当【过河拆桥】或【顺手牵羊】使用。"
"""


def _viewas(tmp_path, body: str, name: str):
    f = tmp_path / f"{name}.sgs"
    f.write_text(HEAD + body + "}\n", encoding="utf-8")
    b = build([f])
    assert not b.errors, [str(e) for e in b.errors]
    mods = modules_in_memory(b)
    sk = next(s for m in mods for s in m.TABLES.skills if s.id == "qiaobianshu")
    return [(v.index, v.card, v.count, v.hand_only, v.mode, v.where(None, None, _Black()), v.loc.split(":")[-1])
            for v in sk.viewas]


class _Black:
    black = True
    color = "black"


def test_a_list_of_cards_is_a_facet_for_each_in_order(tmp_path):
    listed = _viewas(tmp_path, "  viewas 过河拆桥, 顺手牵羊\n    from 1 hand card where it.black for use\n", "a")
    apart = _viewas(tmp_path, "  viewas 过河拆桥 from 1 hand card where it.black for use\n"
                              "  viewas 顺手牵羊 from 1 hand card where it.black for use\n", "b")
    assert [x[:6] for x in listed] == [x[:6] for x in apart]
    assert [x[1] for x in listed] == ["guohe", "shunshou"]
    assert [x[0] for x in listed] == [x[0] for x in apart] == sorted({x[0] for x in listed})
    assert {x[6] for x in listed} == {"5"}  # each facet is placed where the `viewas` line begins


def _first_error(tmp_path, line: str):
    f = tmp_path / "bad.sgs"
    f.write_text(HEAD + line + "}\n", encoding="utf-8")
    b = build([f])
    assert b.errors
    return b.errors[0]


def test_an_unknown_card_in_the_list_is_reported_at_its_name(tmp_path):
    d = _first_error(tmp_path, "  viewas 过河拆桥, 顺手牵牛 from 1 hand card for use\n")
    assert d.code == "SGS105" and "顺手牵牛" in d.message and "顺手牵羊" in d.help
    assert (d.span.line, d.span.col) == (5, 16)  # the second name, not the line's start


def test_a_card_named_twice_in_the_list_is_an_error_at_the_second(tmp_path):
    d = _first_error(tmp_path, "  viewas 过河拆桥, 过河拆桥 from 1 hand card for use\n")
    assert d.code == "SGS001" and "named twice" in d.message and "过河拆桥" in d.message
    assert (d.span.line, d.span.col) == (5, 16)
