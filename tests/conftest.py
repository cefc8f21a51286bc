import functools

import pytest

from sgsdsl.loader import compiled


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
