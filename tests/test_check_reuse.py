"""What makes `sgsdsl check` fast must not change what it finds: the summaries' fixed point that skips
unchanged bodies, the summaries a variant package's pass takes over from the default pass, the walks kept
per subtree, and the designer's syntax tree kept on disk (sgsdsl/lang/parsecache.py) all give exactly what
computing afresh gives; a stale or broken cache is never used. (bench/samechecks.py compares the whole
output of `sgsdsl check` for every rules file in the repo before and after a change.)"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.conflicts import run_checks
from sgsdsl.conflicts.bodies import Analyzer
from sgsdsl.conflicts.facts import facts_of
from sgsdsl.lang import ast, compiler, parsecache, parser
from sgsdsl.lang.diagnostics import render_all
from sgsdsl.lang.tree import walk, walk_of

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "check"


def _build(*paths: Path):
    return compiler.build(extra=list(paths) or None, root=ROOT)


def _summaries(az: Analyzer) -> tuple:
    return az.flows, az.hooks, az._special


@pytest.mark.parametrize("name", ["", "loops_cycle.sgs", "pairs_seat.sgs", "dead_window.sgs"])
def test_skipping_unchanged_bodies_gives_the_summaries_of_full_rounds(name, monkeypatch):
    b = _build(CORPUS / name) if name else _build()
    fast = Analyzer(b.model)
    monkeypatch.setattr(Analyzer, "SKIP_UNCHANGED", False)
    full = Analyzer(b.model)
    assert _summaries(fast) == _summaries(full)
    assert any(s.opens for s in full.flows.values())  # the comparison compares something


def test_a_variant_pass_reuses_the_summaries_only_when_they_are_its_own(shipped_build):
    b = shipped_build
    base = facts_of(b).az.summaries  # the default pass's, with the names they looked up
    variants = [n for n, p in b.model.packages.items() if p.variant]
    assert variants and base.seen.names["values"]
    try:
        fitting = 0
        for name in variants:
            b.model.current = name
            # a variant that redeclares what the summaries read (duel_2013's 过河拆桥: the cards table, read
            # whole) does not fit them and has its own; either way the summaries are those of a fresh pass
            fits = base.fits(b.model)
            reused, fresh = Analyzer(b.model, base), Analyzer(b.model)
            assert (reused.flows is base.flows) == fits and fresh.flows is not base.flows
            assert _summaries(reused) == _summaries(fresh)
            fitting += fits
        assert 0 < fitting < len(variants)  # some variant passes reuse them, duel_2013's does not
        # A variant that redeclares a name the summaries looked up sees other declarations: computed afresh.
        b.model.current = variants[0]
        over = b.model.overlays[variants[0]]["values"]
        looked_up = sorted(base.seen.names["values"])[0]
        over[looked_up] = None
        try:
            assert not base.fits(b.model)
            assert Analyzer(b.model, base).flows is not base.flows
        finally:
            del over[looked_up]
    finally:
        b.model.current = None


def test_walk_of_is_walk_filtered(shipped_build):
    m = shipped_build.model
    kinds = [(ast.Call,), (ast.Attr, ast.Call, ast.New), (ast.Open,), (ast.While, ast.Repeat, ast.Let)]
    decls = m.unique(m.skills) + m.unique(m.cards) + [f.body for f in m.unique(m.flows)]
    for d in decls:
        for k in kinds:
            assert walk_of(d, k) == tuple(n for n in walk(d) if isinstance(n, k))
            assert walk_of(d, k) is walk_of(d, k)  # kept


HERO = """hero 测验 ceyan { kingdom 魏  hp 4  gender 男  skills 试探 }
skill 试探 shitan {
  "锁定技，你的手牌上限+1。"
  modify hand_limit(self) += 1
}
"""
# The same hero with a skill that loops for good (SGS323): the check's result depends on the text.
LOOPING = HERO.replace("  modify hand_limit(self) += 1\n", "  modify hand_limit(self) += 1\n"
                       "  on 准备阶段 do { while true { draw(self, 1) } }\n")


def _check(path: Path) -> str:
    b = _build(path)
    assert not b.errors, render_all(b.errors, b.sources)
    return render_all(run_checks(b, only_designer=True), b.sources)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of its own, and a count of the designer's file's parses; `restart()` forgets the
    designer's trees the process holds, as a new `sgsdsl check` would (the shipped rules' stay in memory:
    parsing them into the new folder would only take time)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SGSDSL_CACHE", str(folder))
    calls: list[str] = []
    real = parser.parse

    def counting(text, path):
        calls.append(path)
        return real(text, path)

    monkeypatch.setattr(parser, "parse", counting)

    class Cache:
        def __init__(self):
            self.folder, self.calls = folder, calls

        def designer_files(self) -> list[Path]:
            return sorted(folder.glob(f"{parsecache.DESIGNER}-*.pickle"))

        @staticmethod
        def restart():
            for key in [k for k in parsecache._memory if k[0].startswith(str(tmp_path))]:
                del parsecache._memory[key]

    yield Cache()
    Cache.restart()


def test_a_designers_tree_is_kept_and_read_back_until_its_text_changes(cache, tmp_path):
    f = tmp_path / "mine.sgs"
    f.write_text(HERO, encoding="utf-8")
    first = _check(f)
    mine = [c for c in cache.calls if c.endswith("mine.sgs")]
    assert len(mine) == 1 and len(cache.designer_files()) == 1
    cache.restart()
    assert _check(f) == first and [c for c in cache.calls if c.endswith("mine.sgs")] == mine  # from the disk
    cache.restart()
    f.write_text(LOOPING, encoding="utf-8")
    edited = _check(f)
    assert "SGS323" in edited and "SGS323" not in first  # the edit is seen: the stale tree is not used
    assert len([c for c in cache.calls if c.endswith("mine.sgs")]) == 2 and len(cache.designer_files()) == 2
    cache.restart()
    f.write_text(HERO, encoding="utf-8")  # back to the first text (another branch …): its tree is still there
    assert _check(f) == first and len([c for c in cache.calls if c.endswith("mine.sgs")]) == 2


def test_a_broken_or_foreign_designer_tree_is_ignored(cache, tmp_path, monkeypatch):
    f = tmp_path / "mine.sgs"
    f.write_text(LOOPING, encoding="utf-8")
    expected = _check(f)
    for junk in (b"", b"not a pickle", b"\x80\x05K\x01."):  # empty, garbage, a valid pickle of something else
        (stored,) = cache.designer_files()
        stored.write_bytes(junk)
        cache.restart()
        assert _check(f) == expected
    parses = len(cache.calls)
    cache.restart()
    _check(f)
    assert len(cache.calls) == parses  # rewritten whole: read back
    # A new parser (grammar, tree builder, node classes) does not read the trees of the old one.
    monkeypatch.setattr(parsecache, "parser_digest", lambda: "another parser")
    cache.restart()
    assert _check(f) == expected and len(cache.calls) > parses


def test_unsaved_buffers_and_a_switched_off_cache_leave_nothing_on_disk(cache, tmp_path, monkeypatch):
    f = tmp_path / "mine.sgs"
    f.write_text(HERO, encoding="utf-8")
    with compiler.overlay({f: LOOPING}):
        assert "SGS323" in _check(f)
    assert not cache.designer_files()
    monkeypatch.setenv("SGSDSL_CACHE", "off")
    cache.restart()
    _check(f)
    assert not cache.folder.exists() or not cache.designer_files()


def test_only_the_trees_used_last_are_kept(cache, tmp_path, monkeypatch):
    monkeypatch.setitem(parsecache.KEEP, parsecache.DESIGNER, 2)
    monkeypatch.setitem(parsecache.KEEP, parsecache.TREE, 3)
    for i in range(4):
        parsecache.parse(HERO, str(tmp_path / f"d{i}.sgs"), persist=True, designer=True)
    assert len(cache.designer_files()) == 2
    for i in range(3):
        parsecache.parse(HERO.replace("hp 4", f"hp {i + 1}"), str(tmp_path / "rules/x/a.sgs"), persist=True)
    assert len(list(cache.folder.glob("tree-*.pickle"))) == 3  # each kind counted apart
    assert len(cache.designer_files()) == 2


def test_the_check_command_leaves_the_collector_as_it_found_it():
    assert gc.isenabled()
    r = CliRunner().invoke(main, ["check", str(ROOT / "examples" / "yanyan.sgs")])
    assert r.exit_code == 0, r.output
    assert gc.isenabled()
