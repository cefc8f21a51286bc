"""`sgsdsl new hero`: the skeleton checks, tests and formats clean as written."""

from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_a_new_hero_checks_and_tests_clean(tmp_path):
    f = tmp_path / "zhangsan.sgs"
    r = run("new", "hero", "张三", "zhangsan", "-o", str(f))
    assert r.exit_code == 0 and f.is_file(), r.output
    text = f.read_text(encoding="utf-8")
    assert "hero 张三 zhangsan" in text and "skill 张三之技 zhangsan_skill" in text and 'test "' in text
    r = run("check", str(f))
    assert r.exit_code == 0 and "no problems" in r.output, r.output
    r = run("test", str(f))
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output
    assert run("fmt", "--check", str(f)).exit_code == 0


def test_options_reach_the_hero_line(tmp_path):
    f = tmp_path / "h.sgs"
    assert run("new", "hero", "小乔二", "xiaoqiao2", "--kingdom", "吴", "--hp", "3", "--gender", "女",
               "-o", str(f)).exit_code == 0
    assert "kingdom 吴  hp 3  gender 女" in f.read_text(encoding="utf-8")
    assert run("check", str(f)).exit_code == 0 and run("test", str(f)).exit_code == 0


def test_the_skeleton_tests_can_fail(tmp_path):
    # without its condition the skill fires with cards in hand, and the second test says so
    f = tmp_path / "zhangsan.sgs"
    run("new", "hero", "张三", "zhangsan", "-o", str(f))
    f.write_text(f.read_text(encoding="utf-8").replace("when self.hand_count == 0 ", ""), encoding="utf-8")
    r = run("test", str(f))
    assert r.exit_code == 1 and "1 passed, 1 failed" in r.output


def test_usage_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("new", "hero", "张三")
    assert r.exit_code == 2 and "ascii id" in r.output
    assert run("new", "hero", "张三", "ZhangSan").exit_code == 2
    assert run("new", "hero", "3x", "x").exit_code == 2
    assert run("new", "hero", "zhangsan").exit_code == 0 and (tmp_path / "zhangsan.sgs").is_file()
    r = run("new", "hero", "张三", "zhangsan")
    assert r.exit_code == 2 and "never overwrites" in r.output
