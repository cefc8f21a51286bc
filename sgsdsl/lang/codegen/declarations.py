"""Table rows of counters and events."""

from __future__ import annotations

from .. import ast
from ..analysis import Ref
from .names import _safe


class Declarations:
    """Mixed into ModuleWriter: counters and events."""

    def counter(self, d) -> None:
        scope = d.scope if isinstance(d, ast.CounterDecl) else None
        kind = {ast.CounterDecl: "counter", ast.MarkDecl: "mark", ast.PileDecl: "pile"}[type(d)]
        extra = f", kind={kind!r}" if kind != "counter" else ""
        if isinstance(d, (ast.PileDecl, ast.MarkDecl)) and d.hidden:
            extra += ", hidden=True"
        if isinstance(d, ast.PileDecl) and d.seat:
            extra += ", seat=True"
        self.tables["counters"].append(
            f"T.CounterDef(id={_safe(d.id.text)!r}, name={d.name.text!r}, scope={scope!r}, loc={self.loc(d.span)!r}"
            f"{extra})")

    def event(self, d: ast.EventDecl) -> None:
        fields = []
        for f in d.fields:
            typ = self.m.analysis.types[f.type]
            if f.default is not None:
                if isinstance(f.default, ast.NameRef):
                    default = self.m.analysis.refs.get(f.default, Ref("None")).py
                else:
                    default = repr(f.default.value)
                fresh = None
            elif typ.startswith("list[") and not typ.endswith("?"):
                default, fresh = "None", "[]"
            elif typ == "int":
                default, fresh = "0", None
            elif typ == "bool":
                default, fresh = "False", None
            elif typ == "text":
                default, fresh = "''", None
            else:
                default, fresh = "None", None
            fields.append({"name": _safe(f.name.text), "default": default, "fresh": fresh, "type": typ, "doc": f.doc})
        cls = f"Ev_{_safe(d.name.text)}"
        self.events.append({"cls": cls, "id": d.name.text, "title": d.title, "fields": fields})
        ftuple = tuple((f["name"], f["type"], f["doc"]) for f in fields)
        self.tables["events"].append(
            f"T.EventDef(id={d.name.text!r}, title={d.title!r}, cls={cls}, fields={ftuple!r}, "
            f"loc={self.loc(d.span)!r})")
