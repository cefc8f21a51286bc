import contextlib
import functools

import pytest

from sgsdsl.lang.loader import compiled

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


def shipped_parse_cache():
    """Parse each unchanged shipped file once: sgsdsl/lang/parsecache.py does it now for every build, so this
    is a plain context, kept for the tests that say where they rely on it."""
    return contextlib.nullcontext()
