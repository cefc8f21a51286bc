"""Family 8: pairs of heroes.

Families 1–3 are run over every pair of heroes that can meet (both in the hero pool of one
mode: the heroes of its `heroes` packages, plus every designer's hero). What needs two
different heroes at the table is reported here, once per pair, with both heroes named:

SGS381: order-dependent modifiers or event writes across two heroes (family 1).
SGS382: competing replacements or costs across two heroes (family 2).
SGS383: a loop of triggers across two heroes (family 3).
"""

from __future__ import annotations

from . import loops, modifiers, replacements
from .facts import Facts


def check(facts: Facts) -> list:
    out = []
    for family in (modifiers, replacements, loops):
        out.extend(f for f in family.all_findings(facts) if f.code in ("SGS381", "SGS382", "SGS383"))
    return out
