"""Parsed rules files kept between builds, so that an unchanged file is not parsed again.

Parsing is most of what `sgsdsl check FILE` would spend (the type checker and the conflict checks are
fast next to lark, and loading lark's tables alone costs more than checking one designer's hero).
Syntax trees are frozen attrs objects that nothing changes after parsing, and every later pass keys
what it learns by node in its own Model, so one tree can serve any number of builds:

- in memory, for the life of the process (tests, the language server, `simulate` with a
  designer's file after `check`): keyed by the file's path and text;
- on disk: one pickle per tree in the cache folder, named by and stored with the digest of the
  file's path and text and of the parser's own sources (grammar, tree builder, node classes,
  limits), and used only when that digest matches, so an edited file or a changed parser is parsed
  afresh (and two checkouts with different rules never overwrite each other's trees). The shipped
  rules' trees are `tree-*.pickle`; a designer's files are kept too (`designer-*.pickle`: `check`,
  `test` and `simulate` of one file parse it once); of each kind the trees used last are kept
  (KEEP), since every edit leaves one behind. An editor's unsaved buffer (compiler.overlay) is never
  kept, nor a file with errors.

The cache folder is $SGSDSL_CACHE, else $XDG_CACHE_HOME/sgsdsl, else ~/.cache/sgsdsl;
SGSDSL_CACHE=off turns the disk cache off. A cache that cannot be read or written is ignored:
it never changes a result, only how long it takes (tests/test_parsecache.py and
tests/test_check_reuse.py edit, break and swap the files under it).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections import OrderedDict
from pathlib import Path

from .cachedir import folder, parser_digest

MEMORY_ENTRIES = 256  # parsed files kept in memory (the shipped rules are about 40)
_memory: OrderedDict[tuple[str, str], object] = OrderedDict()


def _disk_path(key: str, designer: bool = False) -> Path | None:
    """The file of the tree whose digest is `key`: one per text and parser, so that checkouts whose rules
    or parser differ (branches, worktrees) share the folder without overwriting each other's trees."""
    d = folder()
    if d is None:
        return None
    return d / f"{DESIGNER if designer else TREE}-{key[:32]}.pickle"


TREE, DESIGNER = "tree", "designer"  # file name prefixes: a shipped rules file's tree, a designer's file's
KEEP = {TREE: 512, DESIGNER: 32}  # trees of each kind kept, the last used (the shipped rules are ~45 files)


def _prune(d: Path, prefix: str) -> None:
    """Keep the trees of a kind used last: each edit of a file, and each path a build ever read (a test's
    temporary file …), would otherwise leave one behind for good."""
    try:
        files = sorted(d.glob(f"{prefix}-*.pickle"), key=lambda f: f.stat().st_mtime, reverse=True)
        for f in files[KEEP[prefix]:]:
            f.unlink()
    except OSError:  # another process pruned first, or the folder is read-only
        pass


def _load(file: Path, key: str):
    try:
        with file.open("rb") as f:
            stored, tree = pickle.load(f)
    except Exception:  # missing, truncated or from another version: parse afresh
        return None
    if stored != key:
        return None
    try:
        os.utime(file)  # used: _prune keeps it
    except OSError:
        pass
    return tree


def _store(file: Path, key: str, tree) -> None:
    # a name no other writer uses (not tempfile: importing it costs a designer's `check` 3 ms)
    tmp = file.with_name(f".{file.stem}-{os.getpid()}-{id(tree)}.tmp")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as f:
            pickle.dump((key, tree), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, file)  # whole or not at all: a concurrent reader never sees half a file
    except Exception:  # a read-only home, a tree too deep to pickle …: the cache is only a shortcut
        try:
            os.unlink(tmp)
        except OSError:
            pass


def parse(text: str, path: str, persist: bool = False, designer: bool = False):
    """parser.parse(text, path), from the cache when the same text was parsed before. `persist` keeps the
    tree on disk too; `designer` says it is a designer's file (fewer of those are kept: KEEP)."""
    mkey = (path, text)
    tree = _memory.get(mkey)
    if tree is not None:
        _memory.move_to_end(mkey)
        return tree
    key = file = None
    if persist:
        # the spans in a tree name its file: the path is part of what it is made from
        key = hashlib.sha256(parser_digest().encode() + b"\0" + path.encode("utf-8") + b"\0" +
                             text.encode("utf-8")).hexdigest()
        file = _disk_path(key, designer)
    if file is not None:
        tree = _load(file, key)
    if tree is None:
        from .parser import parse as parse_text  # lark is imported only when a tree must be parsed

        tree = parse_text(text, path)  # raises CompileError on bad input: errors are never cached
        if file is not None:
            _store(file, key, tree)
            _prune(file.parent, DESIGNER if designer else TREE)
    _memory[mkey] = tree
    if len(_memory) > MEMORY_ENTRIES:
        _memory.popitem(last=False)
    return tree
