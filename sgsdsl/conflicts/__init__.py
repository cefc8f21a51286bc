"""The conflict checks of `sgsdsl check` (findings SGS3nn): one module per family, named for what it finds.

Each family is a function (Facts) -> list[Finding] (a Finding is a Diagnostic that also keeps the rules
behind it, for `--scenario`). runner.py runs them all over a build, marks the findings that a rule involved
acknowledges with `allow SGS3nn "reason"`, and keeps those of a designer's files when asked; catalogue.py
names every code (docs/checks.md describes them). facts.py gathers what the families read (bodies.py
summarises each rule's reads and writes, meetings.py which heroes can meet, progress.py what a loop uses
up), findings.py builds a finding, drafts.py writes the `--scenario` files that pose one.
"""

from .catalogue import CATALOGUE, catalogue
from .runner import run_checks

__all__ = ["CATALOGUE", "catalogue", "run_checks"]
