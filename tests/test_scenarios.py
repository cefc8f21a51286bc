"""Every `test` block of the shipped rules is a pytest test (a variant package's with that variant
selected); so are those in tests/scenarios/*.sgs (engine semantics, written as a designer would,
compiled together with the shipped rules)."""

from pathlib import Path

import pytest

from sgsdsl.lang.loader import compiled_tables
from sgsdsl.scenarios.runner import run_test, scenario_jobs

JOBS = scenario_jobs(compiled_tables()[0])
EXTRA_DIR = Path(__file__).resolve().parent / "scenarios"
EXTRA = [(r, t) for r, t in scenario_jobs(compiled_tables([EXTRA_DIR])[0]) if not t.loc.startswith("rules/")]


@pytest.mark.parametrize("job", JOBS, ids=lambda j: f"{j[1].loc} {j[1].title}")
def test_scenario(job):
    rules, t = job
    r = run_test(rules, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


@pytest.mark.parametrize("job", EXTRA, ids=lambda j: f"{Path(j[1].loc).name} {j[1].title}")
def test_engine_scenario(job):
    rules, t = job
    r = run_test(rules, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


def test_every_skill_and_card_has_a_scenario():
    rules = JOBS[0][0]
    tested_skills = {t.owner for _, t in JOBS}
    missing = [s.name for s in rules.skills.values() if s.id not in tested_skills and not rules.cards.get(s.id)]
    assert not missing, f"skills without a test: {missing}"
    named = set()
    for _, t in JOBS:
        for seat in t.seats:
            named.update(c[2] for c in seat.hand + seat.equip + seat.judge)
        named.update(c[2] for c in t.deck)
    assert not [c.name for c in rules.cards.values() if c.id not in named]
