"""sgsdsl: a rules-definition language, compiler and simulator for 三国杀 (Sanguosha).

The library API (load, check, new_game, run, simulate) is described in docs/api.md. It is
imported on first use, so that `import sgsdsl` and the command start quickly.
"""

from __future__ import annotations

import os as _os

if _os.path.exists(_os.path.join(_os.path.dirname(__file__), "_native.json")):  # `sgsdsl native --build`
    from . import native as _native

    _native.guard()

_API = ("load", "check", "new_game", "run", "simulate", "Outcome", "CompileError", "Diagnostic")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name == "__version__":  # importlib.metadata is slow to import: only when asked
        from importlib import metadata

        try:
            return metadata.version("sgsdsl")
        except metadata.PackageNotFoundError:  # run from a source tree that was never installed
            return "0+unknown"
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'sgsdsl' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API))
