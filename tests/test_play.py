"""`sgsdsl play`: what the human sees and how answers are checked, in process and through a pseudo-terminal."""

import io
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from sgsdsl.bots.human import HumanAgent
from sgsdsl.engine.log import GameLog
from sgsdsl.engine.ruleset import Ruleset
from sgsdsl.lang import compiler
from sgsdsl.scenarios.runner import setup

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def human_at_table(answers: str):
    """The table of tests/data/play_table.sgs with a human (reading `answers`) at 曹操's seat."""
    b = compiler.build(extra=[ROOT / "tests" / "data" / "play_table.sgs"])
    rules = Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])
    t = next(t for t in rules.tests if t.title.startswith("关羽的杀"))
    g, _ = setup(rules, t, GameLog(records=False, seat=1))
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=200, highlight=False), inp=io.StringIO(answers))
    g.agents[1] = human
    g.play_turn(g.players[0])
    return g, out.getvalue()


def test_a_response_says_what_it_answers_and_bad_answers_get_a_message():
    g, out = human_at_table("0\n-3\nxyz\n1 1\nhelp\n1\n")
    assert "> 闪 (响应 关羽 的 杀)" in out
    assert "   1) 闪(♦2)" in out and "你的手牌：闪(♦2)" in out
    assert "编号 0 无效" in out and "编号 -3 无效" in out and "“xyz” 不是编号" in out
    assert "同一个编号只能选一次" in out
    assert "【奸雄】当你受到伤害后" in out  # help: every hero's skills with their text
    assert g.players[1].hp == 4 and not g.players[1].hand  # the 闪 was used


def test_a_skill_question_shows_the_skill_text():
    g, out = human_at_table("\ny\n")  # no 闪: the damage is taken; then 奸雄 asks
    assert re.search(r"> 发动【奸雄】？ 当你受到伤害后，你可以获得对你造成伤害的牌。", out)
    assert g.players[1].hp == 3 and sorted(c.name for c in g.players[1].hand) == ["sha", "shan"]
    # the board came before both questions
    assert out.count("你的手牌：") == 2


def test_the_human_sees_only_what_the_seat_may_know():
    g, out = human_at_table("1\n")
    board = out[out.index("  1. 关羽"):out.index("> 闪")]
    assert "手牌0" in board and "♠7" not in board.split("\n")[0]  # 关羽's hand is a count
    assert "[?]" in board  # no identities shown


def test_input_that_ends_stops_the_game_cleanly():
    from sgsdsl.bots.human import Quit

    with pytest.raises(Quit):
        human_at_table("0\n")


# ---- through a pseudo-terminal ------------------------------------------------------------------

def answer_for(prompt: str) -> str:
    """A legal answer for the prompt's hint: the first few numbers, or Enter where nothing is needed."""
    m = re.search(r"选择(\d+)(?:–\d+)?个编号", prompt)
    if m:
        return " ".join(str(i) for i in range(1, int(m.group(1)) + 1))
    return "1"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_play_through_a_pseudo_terminal():
    master, slave = os.openpty()
    env = dict(os.environ, COLUMNS="200", LINES="50", TERM="xterm", NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "sgsdsl", "play", "--players", "4", "--seed", "2"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    script = ["0", "-1", "abc", "1 2", "help"]
    seen, pending, deadline = "", "", time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536).decode("utf-8", "replace")
            except OSError:  # the child closed the terminal
                break
            seen += chunk
            pending += chunk
            text = ANSI.sub("", pending)
            if re.search(r"你的选择 \(.*\)：[ \t]*$", text):
                last = text[text.rindex("你的选择"):]
                os.write(master, ((script.pop(0) if script else answer_for(last)) + "\n").encode("utf-8"))
                pending = ""
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        os.close(master)
    out = ANSI.sub("", seen).replace("\r", "")
    assert proc.returncode == 0, out[-3000:]
    assert "编号 0 无效" in out and "编号 -1 无效" in out and "“abc” 不是编号" in out and "只能选择一个编号" in out
    assert "回答方法" in out
    hero_choice = out[out.index("> 选择武将"):out.index("你的选择")]
    assert len(re.findall(r"^\s+【.+】.+$", hero_choice, re.M)) >= 3  # skill texts under each hero offered
    assert ("你赢了" in out) != ("你输了" in out)
    questions = re.findall(r"^> ", out, re.M)
    assert len(questions) > 10 and out.count("你的手牌：") == len(questions)  # the board before each question


def test_a_conversion_through_another_players_skill_names_its_owner():
    b = compiler.build(extra=[ROOT / "examples" / "relay.sgs"])
    rules = Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])
    t = next(t for t in rules.tests if t.title.startswith("其他群势力角色于回合外"))
    g, _ = setup(rules, t, GameLog(records=False, seat=1))
    out = io.StringIO()
    g.agents[1] = HumanAgent(Console(file=out, width=200, highlight=False), inp=io.StringIO("1\n1\n"))
    g.play_turn(g.players[0])
    assert "发动君张角的【黄巾天兵符】当杀使用" in out.getvalue()
    assert g.players[1].hp == 3 and g.players[0].hp == 3 and len(g.players[2].pile("tianbingpai")) == 1
