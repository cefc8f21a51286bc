"""The bench/ scripts whose figures go into the README: they take what the CLI takes and count what
they say they count."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_soak_takes_a_mode_alias_as_simulate_does():
    r = run("bench/soak.py", "--mode", "1v1", "--games", "3", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["mode"] == "duel" and report["games"] == 3


def test_soak_refuses_an_unknown_mode():
    r = run("bench/soak.py", "--mode", "nope", "--games", "1")
    assert r.returncode == 2 and "unknown mode nope" in r.stderr


def test_soak_plays_an_expansion_deck_and_options_and_says_so():
    r = run("bench/soak.py", "--mode", "国战", "--players", "5", "--games", "4", "--deck", "势备篇", "--option",
            "buchen=true", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["decks"] == ["shibei"] and report["options"] == ["buchen=true"]
    r = run("bench/soak.py", "--mode", "国战", "--games", "1", "--deck", "势备")
    assert r.returncode == 2 and "unknown deck 势备" in r.stderr
    r = run("bench/soak.py", "--mode", "国战", "--games", "1", "--option", "nope=1")
    assert r.returncode == 2 and "nope" in r.stderr


SKILLS = '''\
hero 测 ce { kingdom 魏  hp 4  gender 男  skills 甲, 乙 }
skill 甲 jia {
  "你的手牌上限+1。"
  # a comment
  modify hand_limit(self) += 1

  test "t" {
    seat 测
    expect true
  }
}
skill 乙 yi {
  "当你受到伤害后，你摸一张牌。"
  allow SGS365 "reason"
  on 受到伤害后 when event.amount > 0 do {
    draw(self, 1)
  }
  on 受到伤害后 do { draw(self, 1) }
}
'''


def test_lines_counts_rules_lines_without_text_comments_tests_allow_or_braces(tmp_path):
    f = tmp_path / "skills.sgs"
    f.write_text(SKILLS, encoding="utf-8")
    r = run("bench/lines.py", "--json", str(f))
    assert r.returncode == 0, r.stderr
    figs = json.loads(r.stdout)[f.as_posix()]
    assert figs == {"skills": 2, "median": 2, "mean": 2.0}  # 甲: 1 line; 乙: 3 lines
    r = run("bench/lines.py", "--skills", str(f))
    assert "  甲 1" in r.stdout and "  乙 3" in r.stdout


def test_lines_refuses_a_path_with_no_rules(tmp_path):
    r = run("bench/lines.py", str(tmp_path))
    assert r.returncode == 2 and "no .sgs file" in r.stderr


def test_intent_bench_prints_its_three_figures_with_targets():
    r = run("bench/intent.py", "--games", "2", "--paired", "1", "--timing", "1", "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "1. intended choices (target ≥ 90% per skill), 2 heuristic games per mode:" in r.stdout
    assert "heroes significantly below their blank copy:" in r.stdout and " of 25" in r.stdout
    assert "3. time per turn (target: heuristic within 2× of random)" in r.stdout


def test_intent_bench_paired_interval():
    sys.path.insert(0, str(ROOT / "bench"))
    from intent import paired_figure

    mean, lo, hi = paired_figure([(1, 0), (1, 0), (0, 0), (1, 1)])
    assert mean == 0.5 and lo < 0.5 < hi
    assert paired_figure([(0, 1)] * 5) == (-1.0, -1.0, -1.0)  # every game lost where the blank won
