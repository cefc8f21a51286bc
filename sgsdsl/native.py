"""The native core, an optional build: the interpreter's modules and the bots compiled with Cython as they are
written (plain Python, no type declarations yet), beside their sources.

    pip install -e '.[fast]' && sgsdsl native --build

Python imports a compiled module before its source, so nothing else changes: the games are the same, byte for
byte (tests/test_native.py compares their logs, and CI builds and tests both). Two guards keep the source the
truth:
- a compiled module whose source has changed since it was built is not used (its source is, with a warning),
  so an edit never runs stale code; the manifest records each source's hash;
- SGSDSL_PURE=1 runs every module from its source, to compare the two in one checkout.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_native.json"
PURE_ENV = "SGSDSL_PURE"

# view.py stays Python: a seat's view finds its decision by walking the Python frames (view._desk_of), and a
# compiled function has no frame. The generated rules stay Python too: their loops' runaway guards read the
# rule's own frame (runaway.check_locals).
MODULES = (
    *(f"engine.{m}" for m in ("decisions", "game", "history", "inplay", "invariants", "log", "play",
                              "primitives", "quantities", "relations", "requests", "ruleset", "runaway",
                              "settlement", "state", "tables", "turns", "zones")),
    *(f"bots.{m}" for m in ("agents", "allegiance", "heuristic", "herochoice")),
)
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,  # an annotation is documentation here, never a runtime check: same behaviour
    "binding": True,  # functions keep their Python attributes (__code__, __name__, __doc__)
}


def source(mod: str) -> Path:
    return PACKAGE / (mod.replace(".", "/") + ".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled(mod: str) -> list[Path]:
    """The compiled files of a module (any Python's) beside its source."""
    src = source(mod)
    return sorted(src.parent.glob(f"{src.stem}.*.so")) + sorted(src.parent.glob(f"{src.stem}.*.pyd"))


def status() -> dict[str, str]:
    """Each module: native (compiled, fresh and loadable by this Python), stale, or source."""
    try:
        recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError):
        recorded = {}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    out = {}
    for mod in MODULES:
        mine = [p for p in compiled(mod) if any(p.name.endswith(s) for s in suffixes)]
        if not mine:
            out[mod] = "source"
        elif recorded.get(mod) != digest(source(mod)):
            out[mod] = "stale"
        else:
            out[mod] = "native"
    return out


class _FromSource(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their sources, ahead of the compiled files beside them."""

    def __init__(self, names: set[str]):
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname.split(".", 1)[1]))


def guard() -> None:
    """Called on `import sgsdsl` when a native build exists: stale modules (all with SGSDSL_PURE=1) from
    their sources."""
    st = status()
    if os.environ.get(PURE_ENV):
        names = {m for m, s in st.items() if s != "source"}
    else:
        names = {m for m, s in st.items() if s == "stale"}
        if names:
            print(f"sgsdsl: {len(names)} compiled module(s) are older than their sources and run as Python "
                  f"({', '.join(sorted(names))}): rebuild with `sgsdsl native --build`", file=sys.stderr)
    if names:
        sys.meta_path.insert(0, _FromSource({f"sgsdsl.{m}" for m in names}))


def active() -> bool:
    """Is this process running the compiled engine?"""
    from .engine import play

    return not play.__file__.endswith(".py")


def clean() -> int:
    n = 0
    for mod in MODULES:
        for p in compiled(mod):
            p.unlink()
            n += 1
    MANIFEST.unlink(missing_ok=True)
    return n


def build(jobs: int = 2, log=print) -> None:
    """Compile every module of MODULES in a scratch folder and put the compiled files beside their sources.
    Raises ImportError when Cython or setuptools is missing (the `fast` extra)."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    clean()
    with tempfile.TemporaryDirectory(prefix="sgsdsl-native-") as tmp:
        work = Path(tmp)
        exts = []
        for mod in MODULES:
            dest = work / "sgsdsl" / (mod.replace(".", "/") + ".py")
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source(mod), dest)
            exts.append(Extension(f"sgsdsl.{mod}", [str(dest)]))
        log(f"compiling {len(exts)} modules with Cython and the C compiler ({jobs} at a time) …")
        modules = cythonize(exts, compiler_directives=DIRECTIVES, nthreads=jobs, quiet=True,
                            build_dir=str(work / "c"))
        dist = Distribution({"name": "sgsdsl-native", "ext_modules": modules})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib, cmd.build_temp, cmd.parallel = str(work / "lib"), str(work / "tmp"), jobs
        cwd = os.getcwd()
        os.chdir(work)  # (no configuration file of the caller's folder is read)
        try:
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
        for mod in MODULES:
            built = sorted((work / "lib" / "sgsdsl").glob(mod.replace(".", "/") + ".*"))
            for f in built:
                shutil.copyfile(f, source(mod).parent / f.name)
    MANIFEST.write_text(json.dumps({"python": sys.version.split()[0], "modules": {
        m: digest(source(m)) for m in MODULES}}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
