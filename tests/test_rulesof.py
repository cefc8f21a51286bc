"""`rules of P.S`: a skill that plays by another skill's rules under its own text and tests.

The 国战 versions of 强袭 挑衅 再起 烈刃 据守 take the 1v1 package's rules; the compiler sees them as
copies of those rules (the same facets), the generated code holds the rules' functions once, the
engine runs the very same functions for both, and `check` says of a skill that takes rules what it
says of a copy of them. The errors (a skill or package that is not there or not in reach, a ring,
rules of its own besides) are golden files in tests/diagnostics/ (rules_of_*, misspelt_rules_of_*).
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.engine.ruleset import RulesError, Ruleset
from sgsdsl.lang import ast
from sgsdsl.lang.compiler import build
from sgsdsl.lang.loader import compiled
from sgsdsl.scenarios.runner import run_test, scenario_jobs

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = {"强袭": "qiangxi", "挑衅": "tiaoxin", "再起": "zaiqi", "烈刃": "lieren", "据守": "jushou"}


def _skill(b, package: str, sid: str) -> ast.SkillDecl:
    return next(d for d in b.model.packages[package].decls if isinstance(d, ast.SkillDecl) and d.id.text == sid)


def _shape(x):
    """A node as data, without its place, text and tests: what two copies of one rule have in common."""
    if isinstance(x, ast.Name):
        return x.text
    if attrs.has(type(x)):
        return (type(x).__name__,) + tuple((f.name, _shape(getattr(x, f.name))) for f in attrs.fields(type(x))
                                           if f.name not in ("span", "texts", "tests", "rules_of"))
    if isinstance(x, (tuple, list)):
        return tuple(_shape(i) for i in x)
    return x


def test_the_guozhan_near_copies_take_the_duel_rules(shipped_build):
    for sid in SHARED.values():
        mine, theirs = _skill(shipped_build, "guozhan_heroes", sid), _skill(shipped_build, "duel", sid)
        assert [(r.package.text, r.skill.text) for r in mine.rules_of] == [("duel", mine.name.text)]
        assert mine.facets and all(a is b for a, b in zip(mine.facets, theirs.facets, strict=True))
        assert mine.texts != theirs.texts and mine.tests and mine.span.file.startswith("rules/guozhan_heroes/")


def test_no_skill_repeats_the_rules_of_another_package_skill_of_its_id(shipped_build):
    """Two packages' skills of one id with the same rules are one set of rules: one must take the other's."""
    seen: dict = {}
    for name, pkg in shipped_build.model.packages.items():
        for d in pkg.decls:
            if isinstance(d, ast.SkillDecl) and not d.rules_of:
                seen.setdefault((d.id.text, _shape(d)), []).append(name)
    assert {k[0]: v for k, v in seen.items() if len(v) > 1} == {}


def test_the_generated_module_names_the_shared_rules_and_holds_no_copy():
    src = (ROOT / "generated" / "guozhan_heroes.py").read_text(encoding="utf-8")
    duel = (ROOT / "generated" / "duel.py").read_text(encoding="utf-8")
    for sid in SHARED.values():
        assert f"def sk_{sid}_" not in src and f"def sk_{sid}_" in duel
        assert f"rules_of=('duel', {sid!r})" in src


def test_a_sharing_skill_runs_the_functions_of_the_skill_it_names(rules):
    guozhan = rules.for_mode(rules.find_mode("guozhan"))
    for sid in SHARED.values():
        mine, theirs = guozhan.skills[sid], rules.skills[sid]
        assert mine.rules_of == ("duel", sid) and theirs.rules_of is None
        assert mine.text != theirs.text and mine.loc != theirs.loc  # its own text and place
        rows = mine.triggers + mine.actives
        assert rows and rows == theirs.triggers + theirs.actives  # the same rows, the same function objects
        assert all(a.run is b.run for a, b in zip(rows, theirs.triggers + theirs.actives))


def test_the_guozhan_tests_of_the_shared_skills_run_and_need_the_shared_rules(rules):
    jobs = [(r, t) for r, t in scenario_jobs(rules.all_tables)
            if t.owner in SHARED.values() and t.loc.startswith("rules/guozhan_heroes/")]
    assert sorted({t.owner for _, t in jobs}) == sorted(SHARED.values())
    for r, t in jobs:
        result = run_test(r, t)
        assert result.ok, result.failures
    # Without the rows it takes, the 国战 强袭 is a skill that does nothing, and its test fails.
    def bare(s):
        return attrs.evolve(s, rules_of=None, triggers=(), actives=(), viewas=(), modifiers=(), filters=())

    bare = [attrs.evolve(t, skills=tuple(bare(s) if s.rules_of else s for s in t.skills)) for t in rules.all_tables]
    r, t = next((r, t) for r, t in scenario_jobs(bare) if t.owner == "qiangxi" and "guozhan" in t.loc)
    assert not run_test(r, t).ok


def test_a_designers_skill_takes_rules_under_its_own_id():
    rules, _ = compiled([DATA / "rules_of_share.sgs"])
    mine, theirs = rules.skills["chibo"], rules.skills["luoyi"]
    assert mine.rules_of == ("standard", "luoyi")
    assert [t.skill for t in mine.triggers] == ["chibo", "chibo"]  # the rows answer to the skill that has them
    assert [t.run for t in mine.triggers] == [t.run for t in theirs.triggers]
    heard = {w for t in theirs.triggers for w in t.windows}  # the windows its table lists it at: 裸衣's
    assert {w for w, ids in rules.triggers.items() if "chibo" in ids} == heard and len(heard) == 2
    r = CliRunner().invoke(main, ["test", str(DATA / "rules_of_share.sgs")])
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output


def test_the_engine_refuses_rules_that_are_not_compiled(rules):
    without_duel = [t for t in rules.all_tables if t.package != "duel"]
    with pytest.raises(RulesError, match=r"takes the rules of duel\.\w+, which is not compiled"):
        Ruleset(without_duel)


def test_check_says_of_a_skill_that_takes_rules_what_it_says_of_a_copy(monkeypatch):
    monkeypatch.chdir(ROOT)

    def findings(name: str) -> list[tuple]:
        r = CliRunner().invoke(main, ["check", "--format", "json", f"tests/data/{name}.sgs"])
        return [(d["code"], d["file"], d["message"]) for d in json.loads(r.stdout)["diagnostics"]]

    copy, share = findings("rules_of_copy"), findings("rules_of_share")
    assert {c for c, _, _ in copy} == {"SGS302", "SGS381"}
    assert [(c, m) for c, _, m in share] == [(c, m) for c, _, m in copy]
    assert {f for _, f, _ in share} == {"tests/data/rules_of_share.sgs"}  # at its `rules of` line, in its own file


def test_shipped_check_findings_stand_where_a_copy_would(shipped_build):
    """Findings on the 国战 versions are placed at their `rules of` line, not at the 1v1 rules they share."""
    from sgsdsl.conflicts.facts import facts_of

    b = build()
    b.model.current = "guozhan_heroes"
    try:
        rules = [r for r in facts_of(b).rules if r.decl.id.text in SHARED.values()]
    finally:
        b.model.current = None
    assert {r.decl.id.text for r in rules} == set(SHARED.values())
    assert all(r.span == r.decl.rules_of[0].span and r.facet.span.file.startswith("rules/duel/") for r in rules)


def test_a_sharing_skill_acknowledges_what_the_skill_it_takes_from_acknowledges(tmp_path):
    f = tmp_path / "fangjia.sgs"
    f.write_text('hero 仿主 fangzhu { kingdom 魏  hp 4  gender 男  skills 仿驾 }\n'
                 'skill 仿驾 fangjia lord {\n  "主公技，当你需要使用或打出一张【闪】时，……"\n'
                 '  rules of standard.护驾\n}\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "--format", "json", str(f)])
    (d,) = json.loads(r.stdout)["diagnostics"]
    assert d["code"] == "SGS312" and d["line"] == 4 and "仿驾 (仿主)" in d["message"]
    assert d["acknowledged"] and r.exit_code == 0  # 护驾's `allow SGS312` comes with its rules


def test_a_sharing_skill_may_acknowledge_a_finding_of_its_own(tmp_path):
    text = (DATA / "rules_of_share.sgs").read_text(encoding="utf-8")
    f = tmp_path / "chibo.sgs"
    f.write_text(text.replace("  rules of standard.裸衣\n", '  rules of standard.裸衣\n'
                              '  allow SGS381 "许褚 and 裸者 each read the draw count they change, in the order ③ gives"\n'),
                 encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "--format", "json", str(f)])
    found = {d["code"]: d.get("acknowledged") for d in json.loads(r.stdout)["diagnostics"]}
    assert found["SGS381"] and not found["SGS302"]  # its own `allow`, beside the rules it takes
    rules, _ = compiled([f])
    assert rules.skills["chibo"].allows[-1][0] == "SGS381"
    f.write_text(f.read_text(encoding="utf-8").replace("allow SGS381", "allow SGS999"), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 1 and "unknown diagnostic code 'SGS999'" in r.output
