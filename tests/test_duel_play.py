"""1v1 as seed 003 has it, at the terminal and for agents: the starting heroes chosen in secret and
revealed together, 认输 (resign), the 2013 rule set as a variant (its scenario tests: rules/duel_2013)."""

from __future__ import annotations

import re

from click.testing import CliRunner
from test_play_words import play

from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.cli import main
from sgsdsl.engine.game import Game
from sgsdsl.engine.log import GameLog
from sgsdsl.engine.requests import Agent, Resign


def test_the_second_chooser_does_not_see_the_first_ones_starting_hero(rules):
    saw_a_secret = 0
    for seed in (1, 2, 3):
        for seat in (0, 1):
            text, _ = play(rules, "1v1", 2, seed, seat)
            before = text[:text.index("> 选择上场武将")]
            since_draft = before[before.rindex("选择武将"):]
            other = 2 - seat  # the other seat's number as the log and board write it
            if f"座位{other} 作出了选择" in since_draft:
                saw_a_secret += 1
                board = [line for line in since_draft.splitlines() if line.startswith(f"  {other}. ")][-1]
                assert "未选将" in board, board
            assert not re.search(rf"座位{other} 选择 「", since_draft.split("作出了选择")[-1])
            # once both have chosen, both enter: the person sees the other's hero by the first turn
            assert re.search(rf"  {other}\. (?!座位)\S+  \[", text[text.index("> 选择上场武将"):])
    assert saw_a_secret >= 3  # in every game one side chooses second, and reads only that the other chose


def test_resigning_at_the_terminal_ends_the_game_with_a_result():
    r = CliRunner().invoke(main, ["play", "--mode", "1v1", "--seed", "2"], input="认输\n")
    assert r.exit_code == 0, r.output
    assert "座位1 认输" in r.output and re.search(r"游戏结束：座位1 认输；胜利者：(主公|内奸)", r.output)
    assert r.output.rstrip().endswith("你输了。")


class Resigner(Agent):
    """An agent that plays like the heuristic bot and resigns at its third turn."""

    def __init__(self):
        self.bot = HeuristicAgent()

    def decide(self, view, req):
        if view.turn_no >= 5 and view.current is not None and view.current.is_me:
            raise Resign()
        return self.bot.decide(view, req)


def test_an_agent_resigns_through_the_api(rules):
    duel = rules.for_mode(rules.modes["duel"])
    m = duel.modes["duel"]
    log = GameLog()
    g = Game(duel, players=2, seed=4, agents=[Resigner(), HeuristicAgent()], mode=m, log=log,
             hero_pool=duel.hero_pool(m))
    g.build_deck(m.decks)
    g.run()
    quitter, other = g.players
    assert g.end_reason.endswith("认输") and g.winners == (other.identity,) and g.won_seats == {1}
    assert log.records[-1]["kind"] == "end" and "认输" in log.records[-1]["text"]
