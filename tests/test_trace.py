"""The window trace of a whole turn (seed 001 §1), kept as a snapshot.

The scenario lives in rules/standard/timing.sgs. Run with `--snapshot-update` after a deliberate
change of the timing model, and read the diff: the windows must keep seed 001's order.
"""

from sgsdsl.scenarios.runner import run_test

FULL_TURN = "时机：一个完整的回合"
PREVENTED = "时机：伤害被防止后不再开启之后的伤害时机"


def _test(rules, title):
    found = [t for t in rules.tests if t.title == title]
    assert len(found) == 1, f"no single scenario titled {title!r}"
    return found[0]


def test_full_turn_window_trace(rules, snapshot):
    r = run_test(rules, _test(rules, FULL_TURN), windows=True)
    assert r.ok, "\n".join(r.failures)
    assert r.log.text() == snapshot


def test_prevented_damage_opens_no_later_window(rules):
    """The scenario's `expect nolog "· 受到伤害时"` lines only bite on a traced log: run it traced."""
    r = run_test(rules, _test(rules, PREVENTED), windows=True)
    assert r.ok, "\n".join(r.failures) + "\n--- log ---\n" + r.log.text()
    lines = r.log.text().splitlines()
    # the damage settlement did start: 造成伤害时 opened, and 寒冰剑 fired there
    causing = [i for i, line in enumerate(lines) if line.endswith("· 造成伤害时")]
    assert len(causing) == 1
    said = [line for line in lines[causing[0] + 1:] if "] ? " not in line]  # skip the requests and answers
    assert "发动 【寒冰剑】" in said[0]
    for later in ("受到伤害时", "扣减体力时", "扣减体力后", "造成伤害后", "受到伤害后"):
        assert not any(line.endswith(f"· {later}") for line in lines), later
