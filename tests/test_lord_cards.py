"""The 君主's own equipment (rules/guozhan_heroes/lord_cards.sgs): a deck whose entries say `replaces C`, so that a
game dealing it leaves out the cards it takes the place of, and a game without it keeps them."""

from collections import Counter

import pytest

from sgsdsl import api

LORD = ("飞龙夺凤", "太平要术", "定澜夜明珠", "六龙骖驾")
REPLACED = ("雌雄双股剑", "惊帆", "吴六剑", "爪黄飞电")


@pytest.fixture(scope="module")
def rules():
    return api.load(variants=("guozhan_heroes",))


def _dealt(rules, decks):
    g = api.new_game(rules, mode="国战", players=6, seed=3, decks=decks)
    return Counter(c.title for c in g.all_cards if c.uid >= 0)


def test_the_deck_says_what_each_card_replaces(rules):
    d = rules.decks[rules.deck_ids(["君主专属装备"])[0]]
    assert [rules.cards[c].name for _, _, c in d.entries] == list(LORD)
    assert [rules.cards[c].name for c in d.replaces] == list(REPLACED)


def test_a_game_with_the_lord_cards_deals_them_instead_of_the_cards_they_replace(rules):
    plain = _dealt(rules, ["势备篇"])
    lord = _dealt(rules, ["势备篇", "君主专属装备"])
    assert all(plain[n] == 1 for n in REPLACED) and not any(plain[n] for n in LORD)
    assert all(lord[n] == 1 for n in LORD) and not any(lord[n] for n in REPLACED)
    assert sum(lord.values()) == sum(plain.values())  # one for one
