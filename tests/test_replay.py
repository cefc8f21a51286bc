"""`simulate --replay` of a file that is not one of our logs, or one written with other rules:
a message that says what is wrong (which field, which package), exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
YANYAN = str(ROOT / "examples" / "yanyan.sgs")


def run(*args):
    # catch_exceptions=False: a traceback fails the test instead of becoming an exit code
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def good_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    r = run("simulate", "--games", "1", "--seed", "4", "--agent", "random", "--log", str(path), "--quiet")
    assert r.exit_code == 0
    return path


def header_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])


def with_header(good: Path, tmp_path: Path, **changes) -> Path:
    first, rest = good.read_text(encoding="utf-8").split("\n", 1)
    h = json.loads(first)
    for k, v in changes.items():
        if v is ...:
            del h[k]
        else:
            h[k] = v
    out = tmp_path / "changed.jsonl"
    out.write_text(json.dumps(h, ensure_ascii=False) + "\n" + rest, encoding="utf-8")
    return out


CASES = {
    # name: (file content or header changes, words the message must hold)
    "empty object": ("{}\n", ["line 1 is not a header"]),
    "empty file": ("", ["it is empty"]),
    "truncated header": ('{"kind": "header", "mode": "ident', ["line 1 is not JSON"]),
    "a list": ("[1, 2, 3]\n", ["line 1 is not a header"]),
    "plain text": ("hello\nworld\n", ["line 1 is not JSON"]),
    "no mode": ({"mode": ...}, ['no field "mode"']),
    "players as text": ({"players": "five"}, ['field "players" is "five"', "a number of players"]),
    "seed as float": ({"seed": 1.5}, ['field "seed" is 1.5', "an integer seed"]),
    "unknown agent": ({"agent": "alphago"}, ['field "agent"', "heuristic, random, first"]),
    "another ruleset": ({"packages": ["core", "standard", "wuxing"]}, ["package(s) wuxing", "packages here: "]),
    "a designer's log without the file": ({"packages": ["core", "designer"]}, ["package(s) designer", "PATHS"]),
    "unknown mode": ({"mode": "guozhan_x"}, ['mode "guozhan_x" is not in these rules']),
    "too many players": ({"players": 40}, ["40 players", "identity"]),
    "unknown deck": ({"decks": ["nodeck"]}, ['deck "nodeck"']),
    "unknown variant package": ({"with": ["nopkg"]}, ["--with nopkg", "no variant package nopkg"]),
    "bad variant row": ({"variant": 7}, ["identity variant 7"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_malformed_or_foreign_log_says_what_is_wrong(good_log, tmp_path, case):
    content, words = CASES[case]
    if isinstance(content, dict):
        path = with_header(good_log, tmp_path, **content)
    else:
        path = tmp_path / "bad.jsonl"
        path.write_text(content, encoding="utf-8")
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: "), r.output
    for w in words:
        assert w in r.output, r.output
    assert "Traceback" not in r.output


def test_a_log_cut_short_mid_record(good_log, tmp_path):
    text = good_log.read_text(encoding="utf-8")
    path = tmp_path / "cut.jsonl"
    path.write_text(text[:len(text) // 2], encoding="utf-8")
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 2 and "is not JSON" in r.output and "cut short" in r.output, r.output


def test_not_utf8(tmp_path):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b"\xff\xfe\x00header")
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 2 and "not UTF-8" in r.output


def test_a_missing_log_is_a_usage_error(tmp_path):
    r = run("simulate", "--replay", str(tmp_path / "none.jsonl"))
    assert r.exit_code == 2 and "cannot read" in r.output


def test_a_designers_log_replays_with_its_files(tmp_path):
    path = tmp_path / "designer.jsonl"
    assert run("simulate", YANYAN, "--games", "1", "--seed", "3", "--agent", "random", "--log", str(path),
               "--quiet").exit_code == 0
    assert "yanyan" in header_of(path)["packages"]  # the example's own `package` line
    r = run("simulate", YANYAN, "--replay", str(path))
    assert r.exit_code == 0 and "identical" in r.output, r.output
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 2 and "package(s) yanyan" in r.output and "PATHS" in r.output, r.output


def test_a_changed_record_differs_and_says_where(good_log, tmp_path):
    lines = good_log.read_text(encoding="utf-8").splitlines(True)
    rec = json.loads(lines[5])
    rec["turn"] = 999
    lines[5] = json.dumps(rec, ensure_ascii=False) + "\n"
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 1 and "first at line 6" in r.output, r.output


@pytest.fixture(scope="module")
def guozhan_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("log") / "guozhan.jsonl"
    r = run("simulate", "--mode", "guozhan", "--games", "1", "--seed", "2", "--agent", "random", "--log", str(path),
            "--quiet")
    assert r.exit_code == 0
    return path


@pytest.fixture(scope="module")
def featured_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("log") / "featured.jsonl"
    r = run("simulate", "--games", "1", "--seed", "2", "--agent", "random", "--hero", "关羽", "--log", str(path),
            "--quiet")
    assert r.exit_code == 0 and header_of(path)["plan"]["hero"] == "guanyu"
    return path


TAMPERED = {
    # a header's fields changed by hand: each is an error naming the field and what it must be, never a
    # traceback or a game that "DIFFERS" because it could not be played
    "options a list": ("guozhan", {"options": [1, 2]}, ['field "options" is [1, 2]', "an object"]),
    "an option of the wrong type": ("guozhan", {"options": {"hero_cards": "abc"}},
                                    ['option hero_cards is "abc"', "a whole number 0..1,000,000"]),
    "an option out of range": ("guozhan", {"options": {"hero_cards": -5}}, ["not -5"]),
    "a boolean option as text": ("guozhan", {"options": {"aozhan_mode": "ture"}}, ["true or false"]),
    "an option the mode lacks": ("guozhan", {"options": {"nosuch": 1}}, ["mode guozhan has no option 'nosuch'"]),
    "a seat that does not exist": ("featured", {"plan": {"seat": 99}}, ["seat 99 is not one of the 5 seats"]),
    "a plan of another hero": ("featured", {"plan": {"hero": "nobody"}}, ["hero nobody is not in these rules"]),
    "a plan that is text": ("featured", {"plan": "abc"}, ['field "plan" is "abc"', "a seat plan"]),
    "a plan of an identity not dealt": ("featured", {"plan": {"identity": "careerist"}}, ["identity careerist"]),
    "an unknown hero pick": ("featured", {"pick": "best"}, ['field "pick" is "best"', "uniform, strongest"]),
    "a turn limit as text": ("featured", {"turn_limit": "x"}, ['field "turn_limit" is "x"']),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_header_says_which_field(guozhan_log, featured_log, tmp_path, case):
    which, changes, words = TAMPERED[case]
    good = guozhan_log if which == "guozhan" else featured_log
    h = header_of(good)
    changes = {k: ({**h[k], **v} if isinstance(v, dict) and isinstance(h.get(k), dict) else v)
               for k, v in changes.items()}
    r = run("simulate", "--replay", str(with_header(good, tmp_path, **changes)))
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: ") and "DIFFERS" not in r.output, r.output
    for w in words:
        assert w in r.output, r.output


HERO = """
hero 试者 shizhe {{ kingdom 群  hp 4  gender 男  skills 试技 }}
skill 试技 shiji locked {{
  "锁定技，回合开始时，你摸一张牌。"
  on 回合开始时 do {{ {body} }}
}}
"""


def test_a_game_that_breaks_while_replayed_says_so(tmp_path):
    """The rules changed since the log was written, and the game now breaks: the replay says where it broke,
    not that it differs."""
    designer = tmp_path / "shizhe.sgs"
    designer.write_text(HERO.format(body="draw(self, 1)"), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert run("simulate", str(designer), "--games", "1", "--seed", "5", "--agent", "random", "--hero", "试者",
               "--log", str(log), "--quiet").exit_code == 0
    assert run("simulate", str(designer), "--replay", str(log)).exit_code == 0
    designer.write_text(HERO.format(body='while true { log "等" }'), encoding="utf-8")
    r = CliRunner().invoke(main, ["simulate", str(designer), "--replay", str(log)])
    assert r.exit_code == 1, r.output
    assert "broke while it was replayed" in r.stderr and "runaway rules" in r.stderr, r.stderr
    assert "DIFFERS" not in r.stderr


def test_null_header_fields_are_their_defaults(good_log, tmp_path):
    """Found by the fuzz profile: `"decks": null` broke the replay with a TypeError."""
    r = run("simulate", "--replay", str(with_header(good_log, tmp_path, decks=None, variant=None, options=None,
                                                    pick=None, turn_limit=None, game=None, plan=None, **{"with": None})))
    assert r.exit_code == 0 and "identical" in r.output, r.output
