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


def test_a_match_alternates_the_choice_of_identity_and_reports_its_result():
    r = CliRunner().invoke(main, ["play", "--mode", "1v1", "--match", "3", "--seed", "5"], input="认输\n" * 3)
    assert r.exit_code == 0, r.output
    games = r.output.split("==== 第")[1:]
    assert len(games) == 3
    assert "比点结果" in games[0] and "比点结果" in games[2]  # odd games: 比点 decides who chooses
    assert "比点结果" not in games[1]  # even games: the other seat has the choice
    first = re.search(r"比点结果：座位(\d) 赢", games[0]).group(1)
    asked = "> 选择身份" in games[1].split("认输")[0]  # the person (seat 1) is asked in game 2 …
    assert asked == (first == "2")  # … exactly when seat 2 had the choice in game 1
    assert re.search(r"比赛结果 \(1号位、2号位\)：0 : 3，2号位赢得了比赛。", r.output)
    r = CliRunner().invoke(main, ["play", "--mode", "1v1", "--match", "2", "--option", "identity_chooser=1"])
    assert r.exit_code == 2 and "--match sets who chooses" in r.output


def test_the_action_timer_passes_and_the_clock_ends_the_game_by_the_time_rule(rules):
    import io
    import os

    from rich.console import Console

    from sgsdsl.bots.human import play_human

    read, write = os.pipe()
    out = io.StringIO()
    with os.fdopen(read, "r") as stream, os.fdopen(write, "w"):
        code = play_human(rules, "1v1", None, 3, 0, console=Console(file=out, width=300), inp=stream,
                          timer=(0.02, 0.01), minutes=1e-6)
    text = out.getvalue()
    assert code == 0
    assert "限时0.02秒" in text and "限时0.01秒" in text and "（超时）" in text
    assert "比赛时间到" in text and re.search(r"游戏结束：时间到：", text)
