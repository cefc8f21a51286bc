"""The designer files in examples/ check clean (a finding they acknowledge with `allow` and notes
aside) and every scenario test they carry passes, as README and docs/language.md promise."""

import re
from pathlib import Path

import pytest

import sgsdsl
from sgsdsl.lang.loader import compiled_tables
from sgsdsl.scenarios.runner import run_test, scenario_jobs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(ROOT.glob("examples/*.sgs"))
JOBS = [(path, job) for path in EXAMPLES
        for job in scenario_jobs(compiled_tables([path])[0]) if not job[1].loc.startswith("rules/")]


def test_there_are_examples():
    assert {p.name for p in EXAMPLES} >= {"yanyan.sgs", "expansions.sgs"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_checks_clean(path):
    open_findings = [d for d in sgsdsl.check(path) if d.severity != "note" and d.acknowledged is None]
    assert open_findings == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_has_tests(path):
    assert any(p == path for p, _ in JOBS), f"{path.name} carries no scenario test"


@pytest.mark.parametrize("job", JOBS, ids=lambda j: f"{j[0].name} {j[1][1].title}")
def test_example_scenario(job):
    _, (rules, t) = job
    r = run_test(rules, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


def test_readme_counts_the_heroes_of_the_expansions_file():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"examples/expansions\.sgs\]\(examples/expansions\.sgs\) goes further: (\d+) official heroes", readme)
    heroes = re.findall(r"^hero ", (ROOT / "examples/expansions.sgs").read_text(encoding="utf-8"), re.M)
    assert said is not None and int(said.group(1)) == len(heroes)
