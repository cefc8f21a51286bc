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


def test_every_argument_is_checked_against_the_rules(tmp_path, monkeypatch):
    """Nothing the rules do not declare reaches the file: a kingdom or gender outside its enum, an hp outside
    a hero's range, a name the shipped rules already use, a file name that would break a comment line."""
    monkeypatch.chdir(tmp_path)
    cases = {
        ("张三", "zhangsan", "--hp", "0"): "--hp 0: a hero's hp is 1..99",
        ("张三", "zhangsan", "--hp", "100"): "--hp 100: a hero's hp is 1..99",
        ("张三", "zhangsan", "--kingdom", "nosuch"): "--kingdom 'nosuch': it is one of 魏, 蜀, 吴, 群",
        ("张三", "zhangsan", "--kingdom", "魏 }\nskill 注入 zhuru { }\nhero x y {"): "--kingdom '魏 }\\nskill",
        ("张三", "zhangsan", "--gender", "中"): "--gender '中': it is one of 男, 女",
        ("关羽", "guanyu2"): "'关羽' is taken: the shipped rules have a hero 关羽 (guanyu)",
        ("张三", "guanyu"): "'guanyu' is taken",
        ("张三", "standard"): "'standard' is taken",
        ("张三", "zhangsan", "-o", "h\nskill x.sgs"): "cannot stand in a rules file's comment (U+000A)",
        ("张三", "zhangsan", "-o", "h\u2028.sgs"): "(U+2028)",
    }
    for args, message in cases.items():
        r = run("new", "hero", *args)
        assert r.exit_code == 2 and message in r.output, (args, r.output)
    assert not list(tmp_path.iterdir())  # nothing was written
    r = run("new", "hero", "张三", "zhangsan", "--kingdom", "wu", "--hp", "99", "--gender", "female")
    assert r.exit_code == 0 and run("check", "zhangsan.sgs").exit_code == 0
