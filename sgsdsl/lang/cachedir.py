"""Where sgsdsl keeps what it caches between runs: the syntax trees of rules files (parsecache.py) and
lark's parser tables (parser/). A cache is only a shortcut: one that cannot be made is no cache."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path


def folder() -> Path | None:
    env = os.environ.get("SGSDSL_CACHE")
    if env is not None:
        return None if env.lower() in ("", "0", "off", "no") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sgsdsl"


@functools.cache
def parser_digest() -> str:
    """What a cached tree depends on besides its text: the grammar, the tree builder, the node classes."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(repr(sys.version_info[:2]).encode())
    files = [here / n for n in ("grammar.lark", "ast.py", "diagnostics.py", "limits.py")]
    for path in files + sorted((here / "parser").glob("*.py")):  # the builders, one module per kind
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def lark_cache_file() -> str | bool:
    """Where lark keeps the built parser tables (it checks them against the grammar itself)."""
    d = folder()
    if d is None:
        return False
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(d / f"lark-{parser_digest()[:24]}.cache")
