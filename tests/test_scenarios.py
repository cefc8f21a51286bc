"""Every `test` block of the shipped rules is a pytest test."""

import pytest

from sgsdsl.engine.scenario import run_test
from sgsdsl.loader import compiled

RULES = compiled()[0]


@pytest.mark.parametrize("t", RULES.tests, ids=lambda t: f"{t.loc} {t.title}")
def test_scenario(t):
    r = run_test(RULES, t)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()


def test_shipped_rules_carry_scenarios():
    assert len(RULES.tests) > 0
