"""What each primitive changes is declared once, beside it in the surface registry (surface.Effect), and
`check` reads it from there: every primitive has a declaration, and each declaration names parameters the
primitive has."""

from __future__ import annotations

import attrs

from sgsdsl.conflicts.reading import STATE_OF_ATTR
from sgsdsl.lang.surface import FUNCS, Effect

# state categories beyond what a `when` reads through attributes (STATE_OF_ATTR), with their meaning
EXTRA_STATE = {"skills", "phase", "turn", "hero", "kingdom", "gender", "limits", "stack"}


def test_every_primitive_declares_what_it_changes():
    missing = [name for name, f in FUNCS.items() if f.kind == "primitive" and not isinstance(f.effect, Effect)]
    assert missing == []
    assert not [name for name, f in FUNCS.items() if f.kind != "primitive" and f.effect is not None]


def test_declarations_name_real_parameters_and_states():
    known = set(STATE_OF_ATTR.values()) | EXTRA_STATE
    for name, f in FUNCS.items():
        if f.kind != "primitive":
            continue
        params = {p for p, _, _ in f.params}
        e = f.effect
        assert e.state <= known, (name, e.state - known)
        refs = [how.split(":", 1)[1] for _, how in e.deltas if ":" in how]
        if e.moves is not None:
            m = e.moves
            refs += [x for x in (m.cards, m.gainer, m.owner) if x is not None]
            refs += [m.to.split(":", 1)[1]] if m.to.startswith("param:") else []
        if e.uses not in (None, "any"):
            refs.append(e.uses)
        assert set(refs) <= params, (name, set(refs) - params)


def test_a_primitive_without_a_declaration_fails_the_test(monkeypatch):
    """The test above can fail: a primitive added without its effect is caught."""
    bare = attrs.evolve(FUNCS["draw"], effect=None)
    monkeypatch.setitem(FUNCS, "draw", bare)
    missing = [name for name, f in FUNCS.items() if f.kind == "primitive" and not isinstance(f.effect, Effect)]
    assert missing == ["draw"]
