"""Type checking of every body, and the annotations the code generator reads (lang/analysis.py).

Each expression gets a type string (see surface.py). Names are resolved through the local scope, the
context (self, event, it …), built-in constants, then the global declarations. An event field read at a
window whose event lacks it is an error here.

The checker is one class of mixins by kind: bodies (expressions, calls, statements) and one per kind of
declaration (declarations and roles, skills, cards and decks, modes, scenario tests).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model import Model
from .base import CheckerBase
from .calls import Calls
from .cards import CardsAndDecks
from .declarations import Declarations, package_scope  # noqa: F401 - the package's API
from .expressions import Expressions
from .modes import Modes
from .scenarios import ScenarioTests, view_seat  # noqa: F401 - the package's API
from .skills import Skills
from .statements import Statements
from .types import compatible, counter_default, elem, is_list, opt, strip  # noqa: F401 - the package's API


def check(model: Model) -> list[Diagnostic]:
    c = DeclChecker(model)
    c.run()
    return c.diags


class Checker(Expressions, Calls, Statements, CheckerBase):
    """The type checker of bodies."""


class DeclChecker(Declarations, Skills, CardsAndDecks, Modes, ScenarioTests, Checker):
    """The type checker of every declaration, each kind in a mixin of its own."""
