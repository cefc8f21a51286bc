"""One Python function from statements and expressions of the rules."""

from __future__ import annotations

from .expressions import Expressions
from .function import FunctionBase
from .statements import Statements


class FunctionWriter(Expressions, Statements, FunctionBase):
    """Emits one Python function from statements/expressions of the rules."""
