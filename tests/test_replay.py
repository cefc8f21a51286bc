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
