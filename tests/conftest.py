import contextlib
import functools
import os
import signal

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


@pytest.fixture
def killing():
    """Make a `play` that kills its own process on these seeds: every time, or (with a folder of marks)
    the first time only. Closures reach process workers by fork and Ray workers by value (cloudpickle)."""
    from sgsdsl.sim import batch

    real = batch.play

    def make(seeds: set[int], marks):
        def play(rules, s, index, seed, rot=None, control=False):
            if seed in seeds:
                mark = marks / str(seed) if marks is not None else None
                if mark is None or not mark.exists():
                    if mark is not None:
                        mark.touch()
                    os.kill(os.getpid(), signal.SIGKILL)
            return real(rules, s, index, seed, rot, control)

        return play

    return make
