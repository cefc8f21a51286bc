"""The state of one function being written."""

from __future__ import annotations

from .. import ast
from ..model import Model
from .names import _comment


class FunctionBase:
    """One Python function being written: its lines, depth and the flow it is in."""

    def __init__(self, model: Model, name: str, params: str, doc: str, loc: str):
        self.m = model
        self.name = name
        self.lines: list[str] = [f"def {name}({params}):", f"    # {_comment(doc)} — {_comment(loc)}"]
        self.file = loc.rpartition(":")[0]  # for the locations of loops, which the runaway guard names
        self.depth = 1
        self.in_flow = False
        self.in_phase = False  # inside a flow's phase function: `stop` must end the flow, not just the phase
        self.phase_fns: dict = {}  # PhaseStmt -> name of the local function that runs it
        self.later_no = 0
        self.opens: list[str] = []

    def at(self, s: ast.Stmt) -> str:
        return f"{self.file}:{s.span.line}"
