"""engine/history.py's COVERAGE, the table docs/language.md prints, says what the engine records: every kind
of record it lists happens in seeded games, each built-in it names reads records, and a draw is a gain."""

from sgsdsl.engine.history import COVERAGE, GAIN
from sgsdsl.lang.surface import FUNCS
from sgsdsl.sim.batch import game_seed, new_game


def test_every_kind_of_record_the_table_lists_is_recorded(rules):
    seen: dict[str, int] = {}
    draws = 0
    for i in range(40):
        g = new_game(rules, "identity", 5, game_seed(3, i), "random")
        g.run()
        for r in g.records:
            seen[r.what] = seen.get(r.what, 0) + 1
            draws += r.what == GAIN and r.target is None
    listed = {row[0] for row in COVERAGE}
    assert listed <= set(seen), f"listed but never recorded: {listed - set(seen)}"
    assert set(seen) <= listed, f"recorded but not in the table: {set(seen) - listed}"
    assert draws > 40 * 5  # every draw phase draws: gains from the draw pile, with no giver


def test_the_readers_named_are_built_ins():
    for *_, readers in COVERAGE:
        for name in readers.split(", "):
            assert name == "—" or name in FUNCS, name
