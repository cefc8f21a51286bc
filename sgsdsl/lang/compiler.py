"""The pipeline: rules files -> parse -> resolve -> type-check -> generate.

Two ways out: `generated/<package>.py` files for the shipped rules (written
only when changed), or modules built in memory for a designer's files in
`check`, `simulate` and `test`.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import linecache
import os
import sys
import types
from pathlib import Path

import attrs

from . import ast
from .diagnostics import CompileError, Diagnostic, SourceCache, Span
from .files import NotReadable, not_a_file, read_bytes, universal_newlines, utf8_name
from .files import shown as printable
from .limits import FILE_BYTES
from .model import Model, Package
from .parsecache import parse
from .resolve import resolve
from .typecheck import check


def __getattr__(name: str):
    # codegen (and jinja2 with it) is imported when code is generated: `check` never needs it
    if name == "generate":
        from .codegen import generate

        return generate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def project_root() -> Path:
    """Where rules/ and generated/ live: a source checkout, or the copy shipped inside the package."""
    env = os.environ.get("SGSDSL_ROOT")
    if env:
        return Path(env)
    cwd = Path.cwd()
    if (cwd / "rules" / "core").is_dir() and (cwd / "generated").is_dir():
        return cwd
    package = Path(__file__).resolve().parents[1]  # sgsdsl/
    if (package.parent / "rules" / "core").is_dir():
        return package.parent
    return package / "_shipped"


def rules_paths(paths) -> list[Path]:
    """A designer's files and folders; FileNotFoundError for a missing one, a folder without .sgs files, or
    a path that is not a file (a device never ends, a FIFO blocks) or whose name is not UTF-8 (it becomes
    part of every location, and of the generated code)."""
    out = []
    for p in paths:
        path = Path(p)
        if not utf8_name(path):
            raise FileNotFoundError(f"the name {printable(p)!r} is not UTF-8 text: rename the file (rules files and "
                                    "their names are UTF-8)")
        if not path.exists():
            raise FileNotFoundError(f"no such file or directory: {p}")
        if path.is_dir():
            if not any(path.glob("**/*.sgs")):
                raise FileNotFoundError(f"no .sgs files in {p}")
        elif (why := not_a_file(path)) is not None:
            raise FileNotFoundError(f"{p}: {why} (rules files are UTF-8 text files ending in .sgs)")
        out.append(path)
    return out


@attrs.define
class Build:
    model: Model
    sources: SourceCache
    diagnostics: list[Diagnostic]
    root: Path
    _rel: dict = attrs.field(factory=dict, repr=False)
    memo: dict = attrs.field(factory=dict, repr=False)  # what the conflict checks derived from this build, once

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def rel(self, path: str) -> str:
        memo = self._rel
        if path not in memo:  # asked for every declaration: resolving paths is slow
            try:
                memo[path] = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                memo[path] = path
        return memo[path]


# Texts that stand in for files on disk while a build runs (an editor's unsaved buffers: lsp.py).
_OVERLAY: contextvars.ContextVar[dict[Path, str]] = contextvars.ContextVar("overlay", default={})


@contextlib.contextmanager
def overlay(texts: dict[Path, str]):
    token = _OVERLAY.set({Path(p).resolve(): t for p, t in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.reset(token)


def read_rules_text(path: Path, shown: str, sources: SourceCache, diags: list[Diagnostic]) -> str | None:
    """A rules file's text, kept in `sources`; None, with a located diagnostic, if it cannot be read."""
    try:
        over = _OVERLAY.get()
        if over and path.resolve() in over:
            text = over[path.resolve()]
            if len(text) > FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > FILE_BYTES:
                diags.append(_too_large(path, shown, sources, text))  # an editor's buffer has the file's limit
                return None
        else:
            if (why := not_a_file(path)) is not None:  # a device never ends, a FIFO blocks
                raise NotReadable(why)
            if path.stat().st_size > FILE_BYTES:
                diags.append(_too_large(path, shown, sources))
                return None
            text = universal_newlines(read_bytes(path, FILE_BYTES, "rules file").decode("utf-8"))
    except UnicodeDecodeError:
        diags.append(_not_utf8(path, shown, sources))
        return None
    except OSError as e:
        # At the file's first line (nothing to quote): every diagnostic has a place.
        reason = str(e) if isinstance(e, NotReadable) else (e.strerror or e.__class__.__name__).lower()
        diags.append(Diagnostic("SGS005", f"cannot read rules file: {reason}", Span(shown, 1, 1, 1, 2),
                                help="check the path; rules files are UTF-8 text files ending in .sgs"))
        return None
    sources.add(shown, text)
    return text


def _read(path: Path, shown: str, sources: SourceCache, diags: list[Diagnostic],
          shipped: bool = False) -> ast.Module | None:
    text = read_rules_text(path, shown, sources, diags)
    if text is None:
        return None
    # Every file's tree is kept on disk (parsecache.py), but an editor's unsaved buffer, which changes
    # with every keystroke, is not.
    over = _OVERLAY.get()
    persist = not (over and path.resolve() in over)
    try:
        return parse(text, shown, persist, designer=not shipped)
    except CompileError as e:
        diags.extend(e.diagnostics)
        return None
    except RecursionError:
        diags.append(Diagnostic("SGS001", "the text nests too deeply to parse", Span(shown, 1, 1, 1, 2)))
        return None


def _too_large(path: Path, shown: str, sources: SourceCache, text: str | None = None) -> Diagnostic:
    """Located at the line where the file (or the editor's `text` of it) passes the limit (only that much of
    it is read)."""
    if text is None:
        with path.open("rb") as f:
            raw = f.read(FILE_BYTES)
    else:
        raw = text.encode("utf-8", "surrogatepass")[:FILE_BYTES]
    head = raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    sources.add(shown, head)
    line = head.count("\n") + 1
    col = len(head) - (head.rfind("\n") + 1) + 1
    return Diagnostic("SGS005", f"this file is larger than {FILE_BYTES // 1024:,} KB, the limit for one rules file; "
                      "it passes the limit here", Span(shown, line, col, line, col + 1),
                      help="split it into several files (a folder of .sgs files is one package)")


def _not_utf8(path: Path, shown: str, sources: SourceCache) -> Diagnostic:
    """Point at the first byte that is not UTF-8, on its line shown with the bad bytes replaced."""
    raw = path.read_bytes()
    try:
        raw.decode("utf-8")
        pos = 0
    except UnicodeDecodeError as e:
        pos = e.start

    def text(b: bytes) -> str:  # as read_text() would give it: universal newlines
        return b.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")

    before = text(raw[:pos])
    line = before.count("\n") + 1
    col = len(before) - (before.rfind("\n") + 1) + 1
    sources.add(shown, text(raw))
    bad = f" (byte 0x{raw[pos]:02x})" if pos < len(raw) else ""
    return Diagnostic("SGS005", f"this file is not UTF-8 text{bad}", Span(shown, line, col, line, col + 1),
                      help="save it as UTF-8; files saved as GBK or GB2312 cannot be read")


def _load_files(files: list[Path], pkg: Package, root: Path, sources: SourceCache, diags, seen: set) -> None:
    for f in files:
        key = f.resolve()
        if key in seen:
            continue
        seen.add(key)
        if not utf8_name(f):  # a file found in a designer's folder: its name would be in every location
            diags.append(Diagnostic("SGS005", "this file's name is not UTF-8 text", Span(printable(_show(f, root)),
                                    1, 1, 1, 2), help="rename it: rules files and their names are UTF-8"))
            continue
        shown = _show(f, root)
        mod = _read(f, shown, sources, diags, shipped=pkg.shipped)
        if mod is None:
            continue
        pkg.files.append(shown)
        for d in mod.decls:
            if isinstance(d, ast.Package):
                pkg.title = pkg.title or d.title
                pkg.variant = pkg.variant or d.variant
                if not pkg.shipped:
                    pkg.name = d.name.text
            elif isinstance(d, ast.Use):
                pkg.uses.extend(n.text for n in d.names if n.text not in pkg.uses)
            elif isinstance(d, ast.Import):
                target = (f.parent / d.path)
                if not target.is_file():
                    diags.append(Diagnostic("SGS005", f"cannot import '{d.path}': no such file", d.span,
                                            help="import paths are relative to the importing file"))
                    continue
                _load_files([target], pkg, root, sources, diags, seen)
            pkg.decls.append(d)


def _show(f: Path, root: Path) -> str:
    try:
        return f.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(f)


def shipped_packages(root: Path, sources: SourceCache, diags) -> list[Package]:
    pkgs = []
    rules = root / "rules"
    for d in sorted(p for p in rules.iterdir() if p.is_dir()) if rules.is_dir() else []:
        files = sorted(d.glob("*.sgs"))
        if not files:
            continue
        pkg = Package(name=d.name, title=None, files=[], uses=[], shipped=True)
        _load_files(files, pkg, root, sources, diags, set())
        pkgs.append(pkg)
    return pkgs


def build(extra: list[Path] | None = None, root: Path | None = None) -> Build:
    """Parse and check the shipped rules plus a designer's files (their own package)."""
    root = root or project_root()
    sources = SourceCache()
    diags: list[Diagnostic] = []
    model = Model()
    for pkg in shipped_packages(root, sources, diags):
        model.packages[pkg.name] = pkg
    if extra:
        shipped = list(model.packages)
        files: list[Path] = []
        for p in extra:
            files.extend(sorted(p.glob("**/*.sgs")) if p.is_dir() else [p])
        shipped = [n for n in shipped if not model.packages[n].variant]  # variants only when `use`d
        pkg = Package(name="designer", title=None, files=[], uses=list(shipped), shipped=False)
        _load_files(files, pkg, root, sources, diags, set())
        if pkg.name in model.packages and pkg.name != "designer":
            diags.append(Diagnostic("SGS102", f"package '{pkg.name}' already exists in the shipped rules",
                                    pkg.decls[0].span if pkg.decls else Span(str(extra[0]), 1, 1, 1, 2),
                                    help="name your package differently"))
        else:
            # A designer's files see every shipped package without `use`.
            pkg.uses = list(dict.fromkeys(shipped + pkg.uses))
            model.packages[pkg.name] = pkg
    for text_path, text in sources.texts.items():
        model.sources[text_path] = text
    for name, pkg in model.packages.items():
        if pkg.variant:
            model.variant(name)
    if not diags:
        diags.extend(resolve(model))
        if not diags:
            diags.extend(check(model))
    diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))
    return Build(model, sources, _dedupe(diags), root)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def order(model: Model) -> list[str]:
    """Packages in dependency order (a package after those it uses)."""
    done: list[str] = []

    def visit(name: str, trail: tuple = ()) -> None:
        if name in done or name in trail or name not in model.packages:
            return
        for u in model.packages[name].uses:
            visit(u, trail + (name,))
        done.append(name)

    for name in model.packages:
        visit(name)
    return done


def sources_of(b: Build) -> dict[str, str]:
    """package -> generated Python source."""
    from .codegen import generate

    return {name: generate(b.model, name, b.rel) for name in order(b.model)}


GENERATED_PREFIX = "sgsdsl_generated"


def load_module(name: str, source: str, filename: str) -> types.ModuleType:
    mod = types.ModuleType(f"{GENERATED_PREFIX}.{name}")
    mod.__file__ = filename
    code = compile(source, filename, "exec")
    # Tracebacks through generated code show its lines even when it lives only in memory.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, mod.__dict__)
    return mod


def load_generated(root: Path | None = None) -> list[types.ModuleType]:
    """Import the committed generated modules (no parsing: the fast path for simulation)."""
    root = root or project_root()
    gen = root / "generated"
    mods = []
    for f in sorted(gen.glob("*.py")):
        if f.name.startswith("_"):
            continue
        name = f"{GENERATED_PREFIX}.{f.stem}"
        if name in sys.modules:
            mods.append(sys.modules[name])
            continue
        spec = importlib.util.spec_from_file_location(name, f)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        mods.append(mod)
    return mods


def write_generated(b: Build, check_only: bool = False) -> tuple[list[str], list[str]]:
    """Write generated/<package>.py for each shipped package. Returns (changed, stale) file names."""
    gen = b.root / "generated"
    srcs = sources_of(b)
    changed, stale = [], []
    wanted = {f"{name}.py" for name, pkg in b.model.packages.items() if pkg.shipped}
    for name, src in srcs.items():
        if not b.model.packages[name].shipped:
            continue
        path = gen / f"{name}.py"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != src:
            stale.append(path.name)
            if not check_only:
                gen.mkdir(parents=True, exist_ok=True)
                path.write_text(src, encoding="utf-8")
                changed.append(path.name)
    for f in sorted(gen.glob("*.py")) if gen.is_dir() else []:
        if not f.name.startswith("_") and f.name not in wanted:
            stale.append(f.name)
            if not check_only:
                f.unlink()
                changed.append(f.name)
    return changed, stale


def modules_in_memory(b: Build) -> list[types.ModuleType]:
    return [load_module(name, src, f"<sgsdsl:{name}>") for name, src in sources_of(b).items()]
