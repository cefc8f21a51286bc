"""The parse cache (sgsdsl/lang/parsecache.py): an unchanged text gives the same tree without parsing, a
changed one is parsed afresh, and a broken or foreign cache file is ignored, never trusted."""

import pytest

from sgsdsl.lang import cachedir, parsecache, parser

TEXT = 'hero 测试 ceshi { kingdom 魏  hp 4  gender 男 }\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path))
    monkeypatch.setattr(parsecache, "_memory", type(parsecache._memory)())
    calls = []
    real = parser.parse

    def counting(text, path):
        calls.append(path)
        return real(text, path)

    monkeypatch.setattr(parser, "parse", counting)
    return tmp_path, calls


def test_a_tree_is_parsed_once_then_read_from_memory_and_disk(cache):
    folder, calls = cache
    a = parsecache.parse(TEXT, "rules/x/a.sgs", persist=True)
    assert parsecache.parse(TEXT, "rules/x/a.sgs", persist=True) is a and calls == ["rules/x/a.sgs"]
    parsecache._memory.clear()  # a new process: the tree comes from the disk
    b = parsecache.parse(TEXT, "rules/x/a.sgs", persist=True)
    assert calls == ["rules/x/a.sgs"] and b is not a and repr(b.decls[0].name) == repr(a.decls[0].name)
    assert len(list(folder.glob("tree-*.pickle"))) == 1


def test_a_changed_text_or_a_broken_file_is_parsed_afresh(cache):
    folder, calls = cache
    parsecache.parse(TEXT, "rules/x/a.sgs", persist=True)
    parsecache._memory.clear()
    changed = parsecache.parse(TEXT.replace("hp 4", "hp 3"), "rules/x/a.sgs", persist=True)
    assert len(calls) == 2 and changed.decls[0].hp_halves == 6
    for f in folder.glob("tree-*.pickle"):
        f.write_bytes(b"not a pickle")
    parsecache._memory.clear()
    parsecache.parse(TEXT, "rules/x/a.sgs", persist=True)
    assert len(calls) == 3


def test_designer_files_and_errors_stay_off_the_disk(cache, monkeypatch):
    folder, calls = cache
    parsecache.parse(TEXT, "mine.sgs")
    with pytest.raises(Exception):
        parsecache.parse("hero {", "rules/x/bad.sgs", persist=True)
    assert not list(folder.glob("tree-*.pickle"))
    monkeypatch.setenv("SGSDSL_CACHE", "off")
    assert cachedir.folder() is None and cachedir.lark_cache_file() is False
