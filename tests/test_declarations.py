"""What a body of rules declares counts wherever the body is: a hero's skill, a package's `rule` or a
mode's `rule`. A counter, mark or pile declared in any of them is in the compiled tables with its scope
(a mode's per-turn counter is reset each turn, as a skill's is), and a test written in any of them runs."""

from __future__ import annotations

from sgsdsl.lang import ast
from sgsdsl.lang.compiler import build, modules_in_memory
from sgsdsl.lang.tree import walk

COUNTERS = (ast.CounterDecl, ast.MarkDecl, ast.PileDecl)


def _declared():
    b = build()
    assert not b.errors
    trees = [d for pkg in b.model.packages.values() for d in pkg.decls]
    counters, tests = [], []
    for d in trees:
        for n in walk(d):
            if isinstance(n, COUNTERS):
                counters.append(n)
            elif isinstance(n, ast.TestDecl):
                tests.append(n)
    return b, counters, tests


def test_every_counter_mark_and_pile_reaches_the_tables_with_its_scope():
    b, declared, _ = _declared()
    compiled = {c.id: c for m in modules_in_memory(b) for c in m.TABLES.counters}
    missing = [f"{d.name.text} ({d.span})" for d in declared if d.id.text not in compiled]
    assert not missing, f"declared but dropped from the tables: {missing}"
    for d in declared:
        if isinstance(d, ast.CounterDecl):
            assert compiled[d.id.text].scope == d.scope, d.name.text
    # the class of the bug: a mode's rule declares one (国战's 阴阳鱼上限 … per turn)
    assert any(c.id == "yinyang_limit" and c.scope == "turn" for c in compiled.values())


def test_every_test_written_anywhere_is_run():
    b, _, declared = _declared()
    titles = [t.title for m in modules_in_memory(b) for t in m.TABLES.tests]
    missing = [f"{d.title} ({d.span})" for d in declared if d.title not in titles]
    assert not missing, f"tests written but never run: {missing}"
    # the class of the bug: tests inside a package's `rule` (酒的结算) were dropped
    assert "濒死时对自己使用【酒】，回复1点体力" in titles
