"""A mode's options (`simulate --option ID=VALUE`): each value is checked against the type of the option's
default in the rules, a number against the range of numbers the rules may write; a wrong one is a usage
error naming the option and what it takes, before any game is played."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.sim.options import OptionError, from_command_line, from_header


@pytest.fixture(scope="module")
def guozhan(rules):
    return rules.modes["guozhan"]


@pytest.mark.parametrize("given,message", [
    ("aozhan_mode=ture", "--option aozhan_mode=ture: it takes true or false, not 'ture'"),
    ("hero_cards=-5", "--option hero_cards=-5: it takes a whole number 0..1,000,000, not -5"),
    ("hero_cards=1000001", "not 1,000,001"),
    ("hero_cards=abc", "it takes a whole number 0..1,000,000, not 'abc'"),
    ("hero_cards", "--option hero_cards: give it a value, e.g. --option hero_cards=4"),
    ("hero_card=3", "mode guozhan has no option 'hero_card' (its options: hero_cards=4, aozhan_mode=false, "
                    "buchen=false); did you mean 'hero_cards'?"),
    ("=3", "mode guozhan has no option ''"),
])
def test_a_wrong_option_says_what_it_takes(guozhan, given, message):
    with pytest.raises(OptionError) as e:
        from_command_line(guozhan, [given])
    assert message in str(e.value)


def test_good_options(guozhan):
    assert from_command_line(guozhan, ["aozhan_mode=yes", "武将牌数=5", "buchen=False"]) == (
        ("aozhan_mode", True), ("hero_cards", 5), ("buchen", False))
    assert from_command_line(guozhan, []) == ()
    with pytest.raises(OptionError, match="given twice"):
        from_command_line(guozhan, ["hero_cards=5", "武将牌数=6"])


def test_header_options_are_typed_values(guozhan):
    assert from_header(guozhan, {"hero_cards": 5, "aozhan_mode": True}) == (("hero_cards", 5), ("aozhan_mode", True))
    for bad, words in (([1], "an object"), ({"hero_cards": "5"}, 'hero_cards is "5"'),
                       ({"aozhan_mode": 1}, "true or false"), ({"hero_cards": True}, "a whole number")):
        with pytest.raises(OptionError, match=words):
            from_header(guozhan, bad)


def test_the_command_refuses_before_playing():
    r = CliRunner().invoke(main, ["simulate", "--mode", "guozhan", "--games", "1000", "--option", "hero_cards=-5"])
    assert r.exit_code == 2 and r.stderr == "error: --option hero_cards=-5: it takes a whole number 0..1,000,000, " \
                                            "not -5\n", r.output
    r = CliRunner().invoke(main, ["simulate", "--games", "1", "--option", "hero_cards=4"])
    assert r.exit_code == 2 and "mode identity has no option 'hero_cards' (its options: none)" in r.stderr
