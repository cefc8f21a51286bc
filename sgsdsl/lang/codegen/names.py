"""What may reach the generated code: validated identifiers and printable comments."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).parent.parent / "templates"
SAFE_ID = re.compile(r"[a-z][a-z0-9_]*\Z")


def _safe(ident: str) -> str:
    if not SAFE_ID.match(ident):  # the resolver rejects these; never trust it twice
        raise ValueError(f"unsafe identifier {ident!r}")
    return ident


def _comment(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


def _within(span, outer) -> bool:
    return (outer.line, outer.col) <= (span.line, span.col) <= (outer.end_line, outer.end_col)
