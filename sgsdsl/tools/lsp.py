"""`sgsdsl lsp`: a language server for .sgs files (pygls, over stdio).

- diagnostics as a file is opened and edited: the compiler's errors and, when there are
  none, the rule-conflict findings of `sgsdsl check`, located in the file;
- hover: a skill's, card's, hero's, window's or flow's text and its compiled trigger-table
  rows (what `sgsdsl explain` prints);
- completion: windows after `on`, attributes and event fields after `.`, and otherwise
  cards, heroes, skills, windows, quantities, built-in functions, constants and keywords;
- go to definition of any of those names.

A file under the project's rules/ is compiled as part of its shipped package; any other
file as a designer's file with the shipped rules, as `sgsdsl check FILE` does. The text
the editor holds is compiled, saved or not (compiler.overlay). editors/vscode/ starts it.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..lang import compiler
from ..lang.diagnostics import Diagnostic, Span

WORD = re.compile(r"[^\W\d]\w*")
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
KIND = {"cards": lsp.CompletionItemKind.Constant, "heroes": lsp.CompletionItemKind.Class,
        "skills": lsp.CompletionItemKind.Function, "windows": lsp.CompletionItemKind.Event,
        "quantities": lsp.CompletionItemKind.Variable, "flows": lsp.CompletionItemKind.Module,
        "modes": lsp.CompletionItemKind.Module, "decks": lsp.CompletionItemKind.Module}


class Analysis:
    """What the server knows of one open document: its last build without errors, for hover and friends."""

    def __init__(self) -> None:
        self.builds: dict[str, compiler.Build] = {}
        self.rules: dict[str, object] = {}

    def diagnose(self, path: Path, text: str) -> list[lsp.Diagnostic]:
        from ..conflicts.runner import diagnose

        root = compiler.project_root()
        designer = not _inside(path, root / "rules")
        with compiler.overlay({path: text}):
            b, diags = diagnose([path] if designer else [])
        key = str(path.resolve())
        if not b.errors:
            self.builds[key] = b
            self.rules.pop(key, None)
        return [_lsp_diagnostic(d, root) for d in diags if _same(d.span.file, path, root)]

    def ruleset(self, path: Path):
        """The rules as of the last good build of this document (the shipped rules before there is one)."""
        key = str(path.resolve())
        if key not in self.rules:
            b = self.builds.get(key)
            if b is None:
                from ..lang.loader import shipped

                self.rules[key] = shipped()
            else:
                from ..engine.ruleset import Ruleset

                self.rules[key] = Ruleset([m.TABLES for m in compiler.modules_in_memory(b)])
        return self.rules[key]


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def _file_of(shown: str, root: Path) -> Path:
    p = Path(shown)
    return p if p.is_absolute() else root / p


def _same(shown: str, path: Path, root: Path) -> bool:
    return _file_of(shown, root).resolve() == path.resolve()


def _range(span: Span) -> lsp.Range:
    start = lsp.Position(max(span.line - 1, 0), max(span.col - 1, 0))
    end = lsp.Position(max(span.end_line - 1, 0), max(span.end_col - 1, 0))
    if (end.line, end.character) <= (start.line, start.character):
        end = lsp.Position(start.line, start.character + 1)
    return lsp.Range(start, end)


def _lsp_diagnostic(d: Diagnostic, root: Path) -> lsp.Diagnostic:
    message = d.message + (f"\nhelp: {d.help}" if d.help else "")
    if d.acknowledged is not None:
        message += f"\nacknowledged: {d.acknowledged}"
    related = [lsp.DiagnosticRelatedInformation(lsp.Location(from_fs_path(str(_file_of(n.span.file, root))),
                                                             _range(n.span)), n.message) for n in d.notes]
    severity = lsp.DiagnosticSeverity.Hint if d.acknowledged is not None else \
        SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Information)
    return lsp.Diagnostic(range=_range(d.span), message=message, severity=severity, code=d.code, source="sgsdsl",
                          related_information=related or None)


def word_at(text: str, pos: lsp.Position) -> tuple[str, int] | None:
    """The name under the cursor and the column it starts at."""
    lines = text.split("\n")
    if pos.line >= len(lines):
        return None
    line = lines[pos.line]
    for m in WORD.finditer(line):
        if m.start() <= pos.character <= m.end():
            return m.group(), m.start()
    return None


def hover_text(rules, name: str) -> str | None:
    from .explain import explain_text

    text = explain_text(rules, name)
    return f"```text\n{text}\n```" if text else None


def definition(rules, name: str) -> tuple[Path, int] | None:
    found = rules.lookup(name)
    if found is None:
        return None
    kind, ident = found
    loc = getattr(getattr(rules, kind)[ident], "loc", None)
    if not loc or ":" not in loc:
        return None
    file, _, line = loc.rpartition(":")
    return _file_of(file, compiler.project_root()), int(line)


def completions(rules, text: str, pos: lsp.Position) -> list[lsp.CompletionItem]:
    from ..lang.surface import ATTRS, CONSTS, CONTEXT_NAMES, EVENT_BUILTIN_FIELDS, FUNCS
    from .lexicon import lexicon

    line = text.split("\n")[pos.line] if pos.line < len(text.split("\n")) else ""
    before = line[:pos.character]
    m = re.search(r"(\.)?\s*(\w*)$", before)
    prev = re.search(r"(\w+)\s+\w*$", before)
    items: dict[str, lsp.CompletionItem] = {}

    def add(label: str, kind, detail: str | None = None) -> None:
        items.setdefault(label, lsp.CompletionItem(label=label, kind=kind, detail=detail))

    if m and m.group(1):  # after a dot: attributes of cards, players, heroes …, and event fields
        for typ, table in ATTRS.items():
            for name, a in table.items():
                add(name, lsp.CompletionItemKind.Field, f"{typ}.{name}: {a.type} — {a.doc}")
        for ev in rules.events.values():
            for name, typ, doc in ev.fields:
                add(name, lsp.CompletionItemKind.Field, f"event {ev.id}.{name}: {typ}" + (f" — {doc}" if doc else ""))
        for name, a in EVENT_BUILTIN_FIELDS.items():
            add(name, lsp.CompletionItemKind.Field, a.doc)
        return list(items.values())
    if prev and prev.group(1) == "on":  # a trigger's window
        for w in rules.windows.values():
            add(w.name, lsp.CompletionItemKind.Event, f"window {w.id} ({w.event})" + (f" — {w.doc}" if w.doc else ""))
        return list(items.values())
    for kind, k in KIND.items():
        for d in getattr(rules, kind).values():
            add(d.name, k, f"{kind[:-1] if kind != 'heroes' else 'hero'} {d.id}")
    for name, f in FUNCS.items():
        add(name, lsp.CompletionItemKind.Function, f.doc)
    for name, c in CONSTS.items():
        add(name, lsp.CompletionItemKind.Constant, c.doc)
    for name, doc in CONTEXT_NAMES.items():
        add(name, lsp.CompletionItemKind.Variable, doc)
    for word in lexicon().all:
        add(word, lsp.CompletionItemKind.Keyword)
    return list(items.values())


def make_server() -> LanguageServer:
    from .lspio import Protocol

    server = LanguageServer("sgsdsl", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full,
                            protocol_cls=Protocol)
    analysis = Analysis()

    def publish(ls: LanguageServer, uri: str) -> None:
        doc = ls.workspace.get_text_document(uri)
        try:
            diags = analysis.diagnose(Path(to_fs_path(uri)), doc.source)
        except Exception as e:  # noqa: BLE001 - a server that dies on one bad buffer helps nobody
            diags = [lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
                                    f"sgsdsl could not analyse this file: {e.__class__.__name__}: {e}",
                                    severity=lsp.DiagnosticSeverity.Error, source="sgsdsl")]
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diags,
                                                                           version=doc.version))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    def _rules_and_word(ls: LanguageServer, params):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        found = word_at(doc.source, params.position)
        return analysis.ruleset(Path(to_fs_path(params.text_document.uri))), found

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        rules, found = _rules_and_word(ls, params)
        if found is None:
            return None
        text = hover_text(rules, found[0])
        if text is None:
            return None
        rng = lsp.Range(lsp.Position(params.position.line, found[1]),
                        lsp.Position(params.position.line, found[1] + len(found[0])))
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=rng)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def goto(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        rules, found = _rules_and_word(ls, params)
        target = definition(rules, found[0]) if found else None
        if target is None:
            return None
        path, line = target
        return lsp.Location(from_fs_path(str(path)), lsp.Range(lsp.Position(line - 1, 0), lsp.Position(line - 1, 0)))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def complete(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        rules = analysis.ruleset(Path(to_fs_path(params.text_document.uri)))
        return lsp.CompletionList(is_incomplete=False, items=completions(rules, doc.source, params.position))

    return server


def serve() -> None:
    from .lspio import start_io

    start_io(make_server())
