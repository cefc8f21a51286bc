"""No raw value reaches a person at `sgsdsl play`: a scripted human plays every mode, and no prompt,
option, board line or log line holds an ascii id, an internal name or DSL wording.

The scripted human is the terminal player itself (HumanAgent: board, question, numbered options, the
answer typed and parsed by its prompt); only what it types comes from a heuristic bot's choice."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from sgsdsl.bots.heuristic import HeuristicAgent
from sgsdsl.bots.human import HumanAgent, log_line
from sgsdsl.engine.game import Game
from sgsdsl.engine.log import GameLog


class ScriptedHuman(HumanAgent):
    """Types what a heuristic bot in its seat would answer, as a number line, into the terminal player."""

    def __init__(self, console):
        super().__init__(console)
        self.bot = HeuristicAgent()
        self.prompts: list[str] = []

    def decide(self, view, req):
        ans = self.bot.decide(view, req)
        many = req.kind in ("cards", "players", "options")
        if req.kind == "confirm":
            line = "y" if ans else "n"
        elif ans is None or (many and not ans):
            line = ""
        elif many:
            line = " ".join(str(list(req.options).index(a) + 1) for a in ans)
        else:
            line = str(list(req.options).index(ans) + 1)
        self.inp = io.StringIO(line + "\n")
        self.prompts.append(self.question(view, req))
        return super().decide(view, req)


def play(rules, mode: str, players: int, seed: int, seat: int = 0) -> tuple[str, list[str]]:
    m = rules.find_mode(mode)
    rules = rules.for_mode(m)
    m = rules.modes[m.id]
    out = io.StringIO()
    human = ScriptedHuman(Console(file=out, width=400, highlight=False, color_system=None))
    log = GameLog(records=False, seat=seat)
    agents = [human if i == seat else HeuristicAgent() for i in range(players)]
    g = Game(rules, players=players, seed=seed, agents=agents, mode=m, log=log, hero_pool=rules.hero_pool(m))
    g.build_deck(m.decks)
    g.run()
    for line in log.read(human.log_seen):
        human.say(log_line(line))
    return out.getvalue(), human.prompts


ASCII_WORD = re.compile(r"[A-Za-z_#][A-Za-z0-9_:#-]*[A-Za-z0-9_]")
# what the terminal player says of itself (its commands), the only ascii words a person should read
OWN_WORDS = {"help", "board", "quit", "resign"}
DSL_WORDING = re.compile(r"「\d+」|\bactive\b|\bon\s|\bviewas\b|\[\d+、")


def leaks(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        words = re.sub(r"‹[^›]*›", "", line)  # a rules location, set apart for a designer
        words = words.replace("(y/n)", "")
        bad = [w for w in ASCII_WORD.findall(words) if w not in OWN_WORDS] + DSL_WORDING.findall(words)
        if bad:
            found.append(f"{bad}: {line.strip()[:200]}")
    return found


@pytest.mark.parametrize("mode, players, seeds", [("identity", 5, (1, 2, 3)), ("1v1", 2, (1, 2, 3, 4)),
                                                   ("guozhan", 5, (1, 2, 3))])
def test_no_raw_value_reaches_a_person(rules, mode, players, seeds):
    found, asked = [], 0
    for seed in seeds:
        text, prompts = play(rules, mode, players, seed)
        asked += len(prompts)
        found += leaks(text)
    assert asked > 20  # the human was asked, and so read boards and questions
    assert not found, "\n".join(dict.fromkeys(found))


def test_the_scan_finds_what_it_looks_for():
    assert leaks("  1. 孙权  体力2/4  #phase:zhiheng:01")
    assert leaks("> 延祸 on 死亡时") and leaks("> 离间 active") and leaks("选择 「0」") and leaks("观看哪一张 [0、1]")
    assert leaks("gz_haoshiTrue") and leaks("yinyang_limit2")
    assert not leaks("[第2回合 出牌阶段] 曹操 发动 【奸雄】  ‹rules/standard/heroes_wei.sgs:12›")
    assert not leaks("你的选择 (选择一个编号 (1–3)，回车跳过)：help 显示各武将的技能 (y/n)")


def test_a_nullification_prompt_names_the_trick_and_its_target(rules):
    prompts = [p for mode, n, seed in (("identity", 5, 1), ("identity", 5, 2), ("1v1", 2, 1), ("1v1", 2, 2))
               for p in play(rules, mode, n, seed)[1] if "无懈可击" in p]
    assert prompts
    for p in prompts:
        assert re.search(r"\(无懈可击：\S+\([♠♥♣♦][0-9JQKA]+\)(，目标 \S+)?\)$", p), p
    assert any("，目标 " in p for p in prompts)


# ---- the table a seat sees ----------------------------------------------------------------------

def test_guozhan_shows_every_dealt_hero_its_partners_and_the_state_of_ones_own(rules):
    text, _ = play(rules, "guozhan", 4, 1)
    dealt = re.search(r"发给你的武将牌：(.*)", text).group(1).split()
    assert len(dealt) >= 4 and all(re.fullmatch(r"\S+（[魏蜀吴群]）", d) for d in dealt)
    assert "(不可选)" in text  # a dealt hero that cannot be the main or deputy is shown, not offered
    assert re.search(r"你的武将：主将\S+（\S，暗置）  副将\S+（\S，暗置）", text)
    assert re.search(r"【\S+】\(暗置，(未生效|已预亮|锁定技)\)", text)
    assert re.search(r"你的武将：主将\S+（\S，明置）|副将\S+（\S，明置）", text)  # shown later in the game


def test_a_hero_offered_names_its_partners(rules):
    from sgsdsl.bots.human import HumanAgent, partners_of

    gz = rules.for_mode(rules.modes["guozhan"])
    assert {"guanyu", "zhangfei"} <= set(partners_of(gz, "liubei"))
    assert "liubei" in partners_of(gz, "guanyu")  # named on 刘备's card only: a pair either way

    class View:
        rules = gz

        @staticmethod
        def show(x):
            return gz.enum_names.get(x, x)

    label = HumanAgent(Console(file=io.StringIO())).hero_label(View, "guanyu", ["guanyu", "liubei", "caocao"])
    assert "珠联璧合：" in label and "(可与发给你的 刘备 组成)" in label


def test_1v1_shows_line_ups_reserves_and_fallen_heroes(rules):
    text, _ = play(rules, "1v1", 2, 2)
    assert re.search(r"1号位  备用武将：\S+、\S+", text) and re.search(r"2号位  备用武将：\S+", text)
    assert re.search(r"阵亡武将：\S+", text)


def test_play_takes_what_simulate_takes():
    from click.testing import CliRunner

    from sgsdsl.cli import main

    r = CliRunner().invoke(main, ["play", "--mode", "guozhan", "--players", "4", "--option", "aozhan_mode=true",
                                  "--deck", "ex", "--with", "first_edition", "--turn-limit", "3"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "鏖战模式 是" in r.output and "加入牌堆 标准版EX" in r.output and "时间限制 3 回合" in r.output
    assert "第一版" in r.output
    for bad, words in ((["--option", "nope=1"], "no option 'nope'"), (["--deck", "nodeck"], "unknown deck nodeck"),
                       (["--with", "nopkg"], "no variant package nopkg"), (["--mode", "chess"], "no mode chess")):
        r = CliRunner().invoke(main, ["play", *bad], input="quit\n")
        assert r.exit_code == 2 and words in r.output, r.output


class PreShower(ScriptedHuman):
    """Toggles 预亮 of its first face-down skill at its first play phase, then plays on as the bot would."""

    toggled = None

    def decide(self, view, req):
        if req.kind == "confirm" and self.toggled is None:  # keeps its heroes face down until then
            self.inp = io.StringIO("n\n")
            return HumanAgent.decide(self, view, req)
        if req.kind == "play" and self.toggled is None:
            opt = next((o for o in req.options if o[0] == "preshow"), None)
            if opt is not None:
                self.toggled = (opt[1].skill.name, opt[1].skill.id in view.me.armed)
                self.inp = io.StringIO(f"{list(req.options).index(opt) + 1}\n")
                self.prompts.append(self.question(view, req))
                return HumanAgent.decide(self, view, req)
        return super().decide(view, req)


def test_preshow_can_be_changed_in_the_play_phase(rules):
    for seed in (1, 2, 3):
        out = io.StringIO()
        m = rules.for_mode(rules.modes["guozhan"])
        mode = m.modes["guozhan"]
        human = PreShower(Console(file=out, width=400, highlight=False, color_system=None))
        g = Game(m, players=4, seed=seed, agents=[human] + [HeuristicAgent() for _ in range(3)], mode=mode,
                 log=GameLog(records=False, seat=0), hero_pool=m.hero_pool(mode))
        g.build_deck(mode.decks)
        g.run()
        if human.toggled is None:
            continue
        name, was = human.toggled
        text = out.getvalue()
        offer = "取消预亮" if was else "预亮"
        assert re.search(rf"\d+\) {offer}【{name}】", text)
        after = text[text.index(f"{offer}【{name}】"):]
        now = "(暗置，未生效)" if was else "(暗置，已预亮)"
        assert f"【{name}】{now}" in after
        return
    pytest.fail("no seed gave the person a face-down skill to pre-show in a play phase")
