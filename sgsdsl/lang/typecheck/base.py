"""What every part of the checker shares: diagnostics, notes, visibility across packages, type references."""

from __future__ import annotations

from .. import ast
from ..diagnostics import Diagnostic, Note, suggest
from ..model import Model
from ..surface import (
    BUILTIN_TYPES,
    EVENT_BUILTIN_FIELDS,
    TYPE_ALIASES,
)


class CheckerBase:
    """The checker's state and the helpers every part of it uses."""

    def __init__(self, model: Model):
        self.m = model
        self.diags: list[Diagnostic] = []
        self.locals_taken: set[str] = set()
        self.pkg = ""
        self.mode_options: dict[str, tuple[str, str]] = {}  # while checking a mode: its options

    def err(self, code, msg, span, help=None, notes=()):
        self.diags.append(Diagnostic(code, msg, span, help=help, notes=tuple(notes)))

    def note(self, node, value):
        self.m.analysis.refs[node] = value

    # ---- visibility across packages
    def visible(self, decl, span, what: str) -> None:
        skill = self.m.scoped.get(id(decl))
        if skill is not None:
            here = getattr(self, "checking", None)
            if not (here is skill or self.m.scoped.get(id(here)) is skill
                    or (isinstance(here, ast.TestDecl) and here.owner == skill.id.text)):
                self.err("SGS101", f"{what} is declared inside skill '{skill.name.text}' and belongs to its rules "
                         "alone", span, help="declare it at the top level of the file to share it between skills",
                         notes=[Note(decl.span, "declared here")])
                return
        owner = self.m.package_of(decl)
        if owner in ("?", self.pkg):
            return
        if owner not in self._reach(self.pkg) and not any(owner in self._reach(v) for v in self.m.scope):
            self.err("SGS101", f"{what} is declared in package '{owner}', which this package does not use", span,
                     help=f"add `use {owner}` at the top of the file")

    def _reach(self, pkg: str) -> set[str]:
        seen, todo = set(), [pkg]
        while todo:
            p = todo.pop()
            if p in seen or p not in self.m.packages:
                continue
            seen.add(p)
            todo.extend(self.m.packages[p].uses)
        return seen

    # ---- type references
    def typeref(self, t: ast.TypeRef) -> str:
        typ = self.m.analysis.types[t] = self._typeref(t)  # the code generator reads declared types here
        return typ

    def _typeref(self, t: ast.TypeRef) -> str:
        name = t.name.text
        if t.elem is not None:
            if name != "list":
                self.err("SGS109", f"only `list[T]` takes a parameter, not '{name}'", t.name.span)
                return "error"
            inner = self._typename(t.elem)
            return f"list[{inner}]" + ("?" if t.optional else "")
        return self._typename(t.name) + ("?" if t.optional else "")

    def _typename(self, n: ast.Name) -> str:
        if n.text in TYPE_ALIASES:
            return TYPE_ALIASES[n.text]
        if n.text in BUILTIN_TYPES or n.text in self.m.types:
            if n.text in self.m.types:
                self.visible(self.m.types[n.text], n.span, f"type '{n.text}'")
            return n.text
        self.err("SGS109", f"unknown type '{n.text}'", n.span,
                 help=suggest(n.text, list(BUILTIN_TYPES) + list(self.m.types) + list(TYPE_ALIASES))
                 or "built-in types: int, bool, text, player, card, cardname, hero, skill, suit, color, zone")
        return "error"

    def field_type(self, event: str, fname: str) -> str | None:
        d = self.m.events.get(event)
        if fname in EVENT_BUILTIN_FIELDS:
            return EVENT_BUILTIN_FIELDS[fname].type
        if d is None:
            return None
        for f in d.fields:
            if f.name.text == fname:
                return self.typeref(f.type)
        f = self.m.extensions.get((event, fname))
        if f is not None:
            return self.typeref(f.type)
        return None

    def event_fields(self, event: str) -> list[tuple[str, str, ast.Field]]:
        d = self.m.events.get(event)
        return [(f.name.text, self.typeref(f.type), f) for f in d.fields] if d else []

    def role_type(self, role: str) -> str:
        target = self.m.role_target(role)
        if isinstance(target, ast.EventDecl):
            return target.name.text
        if isinstance(target, (ast.FlowDecl, ast.WindowDecl)):
            return target.event.text
        return "any"
