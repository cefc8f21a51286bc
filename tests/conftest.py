import contextlib
import functools

import pytest

from sgsdsl import compiler
from sgsdsl.loader import compiled

# Snapshot files of generated modules end in .py: they are data, not tests.
collect_ignore_glob = ["__snapshots__/*"]


@functools.cache
def _rules():
    return compiled()


@pytest.fixture(scope="session")
def rules():
    """The shipped rules, compiled in memory from rules/ (never the possibly stale generated/)."""
    return _rules()[0]


@pytest.fixture(scope="session")
def shipped_build():
    return _rules()[1]


@contextlib.contextmanager
def shipped_parse_cache():
    """Parse each unchanged shipped file once (syntax trees are immutable): builds of a designer's
    file then spend their time on that file."""
    real = compiler.parse
    shipped = functools.lru_cache(maxsize=512)(real)

    def parse(text: str, path: str):
        return shipped(text, path) if path.startswith("rules/") else real(text, path)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler, "parse", parse)
        yield
