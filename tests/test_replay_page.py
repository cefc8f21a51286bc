"""`sgsdsl replay LOG --html FILE`: the page of one logged game, its table at every line, as a seat sees it.

The page itself in a browser is tests/test_browser.py's; here, what the page is made of."""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def duel_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("log") / "duel.jsonl"
    r = run("simulate", "--mode", "1v1", "--games", "1", "--seed", "3", "--log", str(path), "--quiet")
    assert r.exit_code == 0, r.output
    return path


def page_of(log: Path, tmp_path: Path, *more) -> tuple[str, dict]:
    out = tmp_path / "replay.html"
    r = run("replay", str(log), "--html", str(out), *more)
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    blob = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S).group(1)
    return text, json.loads(blob.replace("<\\/", "</"))


def test_every_log_line_is_a_step_with_the_table_at_it(duel_log, tmp_path):
    _, data = page_of(duel_log, tmp_path)
    replayed = run("simulate", "--mode", "1v1", "--replay", str(duel_log))
    lines = [x for x in replayed.output.splitlines() if x.startswith("[")]
    assert [s[0] for s in data["steps"]] == [re.sub(r"\s*‹[^›]+›$", "", x) for x in lines]
    parts = data["parts"]
    first, last = data["steps"][0], data["steps"][-1]
    assert len(first[3]) == len(last[3]) == 2
    # the table changes along the game: HP are lost, cards are drawn
    hps = {(parts[k]["seat"], parts[k]["hp"]) for s in data["steps"] for k in s[3]}
    assert len(hps) > 4
    assert parts[last[4]]["draw"] != parts[first[4]]["draw"]
    # 1v1's line-ups: a reserve at the start, a fallen hero by the end (three die for a side to lose)
    assert any(parts[k]["reserve"] for k in first[3] + data["steps"][40][3])
    assert any(parts[k]["fallen"] for k in last[3])


def test_a_hand_card_is_known_to_its_owner_not_to_the_other_seat(duel_log, tmp_path):
    _, data = page_of(duel_log, tmp_path, "--seat", "2")
    assert data["seat"] == 1
    parts = data["parts"]
    mid = data["steps"][len(data["steps"]) // 2]
    for k in mid[3]:
        p = parts[k]
        for label, known in p["hand"]:
            assert known & (1 << p["seat"]), label  # its owner knows it
        hidden = [c for c in p["hand"] if not known_to(c, 1 - p["seat"])]
        if p["hand"]:
            assert hidden, "an opponent knows every card of a hand it never saw"


def known_to(card, seat: int) -> bool:
    return bool((card[1] >> seat) & 1)


def test_a_fired_skill_links_to_its_rules_line_and_text(duel_log, tmp_path):
    _, data = page_of(duel_log, tmp_path)
    fired = [s for s in data["steps"] if s[1] and "发动" in s[0]]
    assert fired
    for s in fired:
        src = data["sources"][s[1]]
        name = re.search(r"【(.+?)】", s[0]).group(1)
        assert src["name"] == name and src["text"]
        path, line = s[1].rsplit(":", 1)
        rules_line = (Path(__file__).resolve().parent.parent / path).read_text(encoding="utf-8").splitlines()[
            int(line) - 1]
        assert src["src"]["lines"][src["src"]["at"] - 1] == rules_line
        assert src["src"]["first"] + src["src"]["at"] - 1 == int(line)


def test_the_stack_is_kept_at_each_step(duel_log, tmp_path):
    _, data = page_of(duel_log, tmp_path)
    stacks = [data["parts"][s[5]] for s in data["steps"]]
    assert any(len(st["frames"]) >= 3 for st in stacks)
    assert any(st["windows"] for st in stacks)
    assert all(f[0] in ("模式", "流程", "技能", "牌的效果") for st in stacks for f in st["frames"])


def test_the_page_has_no_external_reference(duel_log, tmp_path):
    text, _ = page_of(duel_log, tmp_path)
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text


def test_the_embedded_font_draws_every_character_of_the_page(duel_log, tmp_path):
    pytest.importorskip("fontTools", reason="pip install -e '.[test]' brings fontTools")
    from fontTools.ttLib import TTFont

    from sgsdsl.sim.htmlreplay import cjk_font

    if cjk_font() is None:
        pytest.skip("no CJK font to embed here: apt-get install -y fonts-noto-cjk")
    text, data = page_of(duel_log, tmp_path)
    m = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", text)
    assert m, "no font embedded"
    font = TTFont(io.BytesIO(base64.b64decode(m.group(1))))
    cmap = font.getBestCmap()
    page_chars = {c for c in html.unescape(text.replace(m.group(1), "")) if ord(c) > 0x2000}
    missing = sorted(c for c in page_chars if ord(c) not in cmap)
    assert not missing, "".join(missing[:40])


def test_usage_errors(duel_log, tmp_path):
    out = str(tmp_path / "x.html")
    r = run("replay", str(duel_log), "--html", out, "--seat", "3")
    assert r.exit_code == 2 and "seats 1–2" in r.output
    r = run("replay", str(duel_log), "--html", out, "--seat", "north")
    assert r.exit_code == 2 and "neither a seat number" in r.output
    r = run("replay", str(duel_log), "--html", out, "--game", "5")
    assert r.exit_code == 2 and "no game 5" in r.output
    twice = tmp_path / "twice.jsonl"
    twice.write_text(duel_log.read_text(encoding="utf-8").replace('"game": 0', '"game": 1', 1)
                     + duel_log.read_text(encoding="utf-8"), encoding="utf-8")
    r = run("replay", str(twice), "--html", out)
    assert r.exit_code == 2 and "choose one with --game" in r.output
    assert not Path(out).exists()


def test_a_log_these_rules_play_otherwise_is_refused(duel_log, tmp_path):
    lines = duel_log.read_text(encoding="utf-8").splitlines(True)
    k = next(i for i, x in enumerate(lines) if '"kind": "say"' in x)
    lines[k] = lines[k].replace('"text": "', '"text": "X', 1)
    other = tmp_path / "other.jsonl"
    other.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "x.html"
    r = run("replay", str(other), "--html", str(out))
    assert r.exit_code == 1 and "differently from its log" in r.output
    assert not out.exists()


def test_a_seat_reads_the_log_as_its_own_seat_log_says_it(tmp_path):
    """The page's lines for a seat are what `play` shows a person in that seat (GameLog(seat=…)): 国战's
    hidden choices and unknown cards included."""
    from sgsdsl.engine.log import GameLog
    from sgsdsl.lang.loader import shipped
    from sgsdsl.sim.batch import setup_game
    from sgsdsl.sim.command import setup_of

    log = tmp_path / "gz.jsonl"
    r = run("simulate", "--mode", "guozhan", "--players", "4", "--games", "1", "--seed", "2", "--log", str(log),
            "--quiet")
    assert r.exit_code == 0, r.output
    _, data = page_of(log, tmp_path)
    header = json.loads(log.read_text(encoding="utf-8").split("\n", 1)[0])
    rules = shipped()
    rules = rules.for_mode(rules.modes[header["mode"]])
    changed = 0
    for seat in range(4):
        seat_log = GameLog(records=False, seat=seat)
        g = setup_game(rules, setup_of(header), header["seed"], None, seat_log)
        g.run()
        theirs = [re.sub(r"\s*‹[^›]+›$", "", x) for x in seat_log.read()]
        ours = [s[6].get(str(seat), s[0]) if len(s) > 6 else s[0] for s in data["steps"]]
        assert ours == theirs
        changed += sum(a != s[0] for a, s in zip(ours, data["steps"]))
    assert changed > 0  # some line reads otherwise from some seat
