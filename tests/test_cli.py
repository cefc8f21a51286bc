"""The command line: exit codes, JSON outputs, logs and replays."""

import json

from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_help_lists_exit_codes():
    r = run("--help")
    assert r.exit_code == 0 and "Exit codes" in r.output and "2 usage" in r.output


def test_compile_check_passes_on_the_shipped_rules():
    r = run("compile", "--check")
    assert r.exit_code == 0, r.output


def test_info_json_counts(rules):
    data = json.loads(run("info", "--json").stdout)
    assert data["decks"]["standard"]["size"] == 104
    assert data["decks"]["ex"]["size"] == 4
    assert sum(1 for h in data["heroes"] if h["package"] == "standard") == 25
    assert {w["name"] for w in data["windows"]} >= {"受到伤害后", "判定牌生效前", "摸牌阶段摸牌时"}


def test_explain_unknown_name_is_a_usage_error():
    r = run("explain", "奸熊")
    assert r.exit_code == 2 and "奸雄" in r.output


def test_simulate_bad_options_exit_2():
    assert run("simulate", "--players", "3", "--games", "1").exit_code == 2
    assert run("simulate", "--mode", "nomode", "--games", "1").exit_code == 2
    assert run("simulate", "no/such/file.sgs").exit_code == 2


def test_simulate_json(tmp_path):
    r = run("simulate", "--games", "6", "--seed", "1", "--agent", "random", "--json", "--quiet")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["games"] == 6 and data["seed"] == 1 and "games_per_second" in data
    assert set(data["identities"]) == {"lord", "loyalist", "rebel", "renegade"}


def test_log_then_replay_is_identical(tmp_path):
    path = tmp_path / "game.jsonl"
    r = run("simulate", "--games", "1", "--seed", "4", "--agent", "random", "--log", str(path), "--quiet")
    assert r.exit_code == 0 and path.read_text(encoding="utf-8").count("\n") > 10
    r = run("simulate", "--replay", str(path))
    assert r.exit_code == 0 and "游戏结束" in r.output
    lines = path.read_text(encoding="utf-8").splitlines(True)
    path.write_text("".join(lines[:-1]), encoding="utf-8")
    assert run("simulate", "--replay", str(path)).exit_code == 1


def test_import_brings_a_file_into_the_package():
    # imports.sgs alone: its hero's skill lives only in the imported lib/wall.sgs
    r = run("test", "tests/scenarios/imports.sgs")
    assert r.exit_code == 0 and "1 passed" in r.output


def test_import_of_a_missing_file_is_located(tmp_path):
    f = tmp_path / "a.sgs"
    f.write_text('import "nope.sgs"\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 1 and "a.sgs:1:1: error[SGS005]" in r.output and "Traceback" not in r.output


def test_a_game_that_breaks_is_reported_and_the_batch_goes_on():
    r = run("simulate", "tests/data/runtime_bug.sgs", "--games", "60", "--seed", "3", "--agent", "random",
            "--json", "--quiet")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["games"] == 60
    assert 0 < len(data["errors"]) < 60  # the others played on
    e = data["errors"][0]
    assert e.startswith("seed ") and "AttributeError" in e
    assert "at tests/data/runtime_bug.sgs:5" in e and "stack:" in e and "skill 长兵" in e


def test_play_at_the_terminal_runs_a_game_to_its_end():
    # the human answers "1" to everything: the first hero, the first action, the first target …
    r = CliRunner().invoke(main, ["play", "--seed", "2", "--players", "4"], input="1\n" * 4000)
    assert r.exit_code == 0, r.output[-2000:]
    assert "选择武将" in r.output and "游戏结束" in r.output
    assert ("你赢了" in r.output) != ("你输了" in r.output)


def test_play_rejects_a_bad_seat():
    r = CliRunner().invoke(main, ["play", "--players", "4", "--seat", "9"])
    assert r.exit_code == 2
