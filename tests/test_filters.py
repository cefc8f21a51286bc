"""Nothing succeeds silently: filters and paths that select nothing are usage errors (exit 2)."""

from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_check_select_of_an_unknown_code_is_a_usage_error():
    r = run("check", "--select", "NOPE")
    assert r.exit_code == 2 and "no finding code starts with 'NOPE'" in r.output
    assert run("check", "--ignore", "SGS9x").exit_code == 2


def test_check_select_of_a_known_family_runs():
    r = run("check", "--select", "SGS30")
    assert r.exit_code == 0 and "no problems" in r.output


def test_test_k_matches_chinese_names_and_ascii_ids():
    by_id, by_name, by_hero = run("test", "-k", "jianxiong"), run("test", "-k", "奸雄"), run("test", "-k", "曹操")
    assert by_id.exit_code == by_name.exit_code == by_hero.exit_code == 0
    assert by_id.output == by_name.output and "3 passed" in by_name.output
    assert "受到【杀】的伤害后获得此【杀】" in by_hero.output and "其他魏势力角色代为打出【闪】" in by_hero.output


def test_test_k_that_matches_nothing_exits_2():
    r = run("test", "-k", "没有这个技能")
    assert r.exit_code == 2 and "no test" in r.output and "passed" not in r.output


def test_a_directory_without_sgs_files_exits_2(tmp_path):
    for cmd in ("check", "test", "simulate", "info"):
        r = run(cmd, str(tmp_path))
        assert r.exit_code == 2 and "no .sgs files" in r.output, cmd


def test_a_file_without_tests_exits_2():
    r = run("test", "examples/yanyan.sgs", "-k", "zzz")
    assert r.exit_code == 2 and "examples/yanyan.sgs" in r.output


def test_suits_print_in_chinese_in_the_log():
    r = run("test", "tests/data/suit_log.sgs")
    assert r.exit_code == 0 and "1 passed" in r.output, r.output
