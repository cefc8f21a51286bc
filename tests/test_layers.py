"""The package layout is the pipeline: every import runs downward and no modules import each other.

Layers, top to bottom (README "How it fits together" lists them in pipeline order): the command and the
library (cli, api), the tools around the language, simulation and reports, the conflict checks, the scenario
tests, the bots, the language, the interpreter. A module may import its own package and the packages below
it, never one above; lazy imports inside functions count too, since a circle through them is still a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sgsdsl"
LAYERS = ["engine", "lang", "bots", "scenarios", "conflicts", "sim", "tools", "top"]  # bottom first


def _modules() -> dict[str, Path]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _imports(name: str, is_package: bool, text: str) -> set[str]:
    """The sgsdsl modules `name` imports, anywhere in its body (`from . import x` names the module x)."""
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: _imports(name, path.name == "__init__.py", path.read_text(encoding="utf-8"))
         for name, path in MODULES.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else "top"


def test_the_layers_are_the_packages():
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(LAYERS) - {"top"}


def upward(module: str, imports: set[str]) -> list[str]:
    mine = LAYERS.index(layer(module))
    return sorted(m for m in imports if m != "sgsdsl" and LAYERS.index(layer(m)) > mine)


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"sgsdsl"}))  # the root's lazy attributes are the API
def test_imports_run_downward(module):
    assert not upward(module, GRAPH[module]), f"{module} ({layer(module)}) imports from a layer above it"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles():
    assert not circles(GRAPH), "modules that import each other"


def test_the_detectors_see_a_lazy_import_of_the_cli_from_the_engine():
    """The tests above can fail: such an import runs upward, and closes a circle through the CLI."""
    text = "import attrs\n\ndef f():\n    from ..cli import main\n    from . import zones\n"
    found = _imports("sgsdsl.engine.game", False, text)
    assert found == {"sgsdsl.cli", "sgsdsl.engine.zones"}
    assert upward("sgsdsl.engine.game", found) == ["sgsdsl.cli"]
    graph = dict(GRAPH, **{"sgsdsl.engine.game": GRAPH["sgsdsl.engine.game"] | found})
    assert any({"sgsdsl.cli", "sgsdsl.engine.game"} <= set(c) for c in circles(graph))
