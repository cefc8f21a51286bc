"""Every `test` block of the shipped rules is a pytest test; so are those in tests/scenarios/*.sgs
(engine semantics, written as a designer would, compiled together with the shipped rules)."""

from pathlib import Path

import pytest

from sgsdsl.engine.scenario import run_test
from sgsdsl.loader import compiled

RULES = compiled()[0]
EXTRA_DIR = Path(__file__).resolve().parent / "scenarios"
EXTRA = compiled([EXTRA_DIR])[0]


@pytest.mark.parametrize("t", RULES.tests, ids=lambda t: f"{t.loc} {t.title}")
def test_scenario(t):
    r = run_test(RULES, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


@pytest.mark.parametrize("t", [t for t in EXTRA.tests if not t.loc.startswith("rules/")],
                         ids=lambda t: f"{Path(t.loc).name} {t.title}")
def test_engine_scenario(t):
    r = run_test(EXTRA, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


def test_shipped_rules_carry_scenarios():
    assert len(RULES.tests) > 0
