"""`sgsdsl lsp`, driven over stdio by pygls's LSP client: diagnostics, hover, completion, definition."""

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

BROKEN = """\
package trial
hero 严颜三 yanyan3 { kingdom 蜀  hp 4  gender 男  skills 拒战三 }
skill 拒战三 juzhan3 {
  "锁定技，当你受到伤害后，你摸一张牌。"
  on 受到伤害候 forced when event.amount > 0 do { draw(self, 1) }
}
"""
FIXED = BROKEN.replace("受到伤害候", "受到伤害后")


def at(line: int, text: str, after: str = "", offset: int = 0) -> lsp.Position:
    """The position of `text` (or just after `after`) on a 0-based line of FIXED."""
    src = FIXED.splitlines()[line]
    return lsp.Position(line, src.index(after) + len(after) if after else src.index(text) + offset)


async def session(tmp_path: Path) -> dict:
    client = LanguageClient("sgsdsl-test", "1")
    published: dict[str, list] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams):
        published.setdefault(params.uri, []).append(params)
        arrived.set()

    async def next_diagnostics(uri):
        while True:
            arrived.clear()
            if published.get(uri):
                return published[uri].pop(0)
            await asyncio.wait_for(arrived.wait(), 60)

    await client.start_io(sys.executable, "-m", "sgsdsl", "lsp", cwd=str(ROOT))
    out: dict = {}
    try:
        await client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(ROOT)), process_id=None))
        client.initialized(lsp.InitializedParams())
        path = tmp_path / "trial.sgs"
        path.write_text(BROKEN, encoding="utf-8")
        uri = from_fs_path(str(path))
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="sgs", version=1, text=BROKEN)))
        out["broken"] = await next_diagnostics(uri)
        # edit in the editor (not saved): the fix reaches the server as text
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(FIXED)]))
        out["fixed"] = await next_diagnostics(uri)
        doc = lsp.TextDocumentIdentifier(uri)
        hover, complete = client.text_document_hover_async, client.text_document_completion_async
        out["hover_window"] = await hover(lsp.HoverParams(doc, at(4, "受到伤害后", offset=1)))
        out["hover_skill"] = await hover(lsp.HoverParams(doc, at(2, "拒战三", offset=2)))
        out["complete_on"] = await complete(lsp.CompletionParams(doc, at(4, "", after="on ")))
        out["complete_dot"] = await complete(lsp.CompletionParams(doc, at(4, "", after="event.")))
        out["complete_any"] = await complete(lsp.CompletionParams(doc, lsp.Position(1, 0)))
        definition = client.text_document_definition_async
        out["definition"] = await definition(lsp.DefinitionParams(doc, at(4, "受到伤害后", offset=2)))
        out["definition_local"] = await definition(lsp.DefinitionParams(doc, at(1, "拒战三", offset=1)))
        draft = (ROOT / "examples" / "yanyan.sgs").read_text(encoding="utf-8").replace(
            "modify usable(p, c) = false when c is 杀 and p.juzhan_hit > 0",
            "modify sha_limit(p) = 0 when p.juzhan_hit > 0")
        draft_uri = from_fs_path(str(tmp_path / "yanyan_draft.sgs"))  # never saved: the editor's text only
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=draft_uri, language_id="sgs", version=1, text=draft)))
        out["draft"] = await next_diagnostics(draft_uri)
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
    return out


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    return asyncio.run(session(tmp_path_factory.mktemp("lsp")))


def test_an_error_is_published_at_its_range(answers):
    d = answers["broken"].diagnostics
    assert len(d) == 1 and d[0].code == "SGS104" and d[0].severity == lsp.DiagnosticSeverity.Error
    assert d[0].range == lsp.Range(lsp.Position(4, 5), lsp.Position(4, 10))  # 受到伤害候 on line 5
    assert "受到伤害后" in d[0].message  # the did-you-mean


def test_conflict_findings_are_published_too(answers):
    found = {d.code: d for d in answers["draft"].diagnostics}
    assert {"SGS301", "SGS381"} <= set(found)
    d = found["SGS301"]
    assert d.severity == lsp.DiagnosticSeverity.Warning and d.range.start == lsp.Position(15, 2)
    assert d.related_information and d.related_information[0].location.uri.endswith("rules/standard/equipment.sgs")


def test_fixing_the_text_clears_it(answers):
    assert not answers["fixed"].diagnostics and answers["fixed"].version == 2


def test_hover_shows_text_and_compiled_rows(answers):
    window = answers["hover_window"].contents.value
    assert "window 受到伤害后 damage_taken" in window and "trigger-table row" in window and "juzhan3" in window
    skill = answers["hover_skill"].contents.value
    assert "「锁定技，当你受到伤害后，你摸一张牌。」" in skill and "trial.sgs:5" in skill


def test_completion(answers):
    on = {i.label for i in answers["complete_on"].items}
    assert {"受到伤害后", "摸牌阶段摸牌时"} <= on and "杀" not in on
    dot = {i.label for i in answers["complete_dot"].items}
    assert {"hand_count", "hp", "suit", "amount"} <= dot
    anything = {i.label for i in answers["complete_any"].items}
    assert {"杀", "曹操", "奸雄", "受到伤害后", "攻击范围", "draw", "skill"} <= anything


def test_go_to_definition(answers):
    loc = answers["definition"]
    assert loc.uri.endswith("rules/core/windows.sgs") and loc.range.start.line > 0
    text = (ROOT / "rules" / "core" / "windows.sgs").read_text(encoding="utf-8").splitlines()
    assert text[loc.range.start.line].startswith("window 受到伤害后")
    local = answers["definition_local"]
    assert local.uri.endswith("trial.sgs") and local.range.start.line == 2


# ---- frames the server must survive, raw bytes on its standard input ---------------------------------------

class RawClient:
    """`sgsdsl lsp` driven with bytes: frames written as given, answers read back frame by frame."""

    def __init__(self):
        import queue
        import subprocess
        import threading

        self.proc = subprocess.Popen([sys.executable, "-m", "sgsdsl", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        self.answers: queue.Queue = queue.Queue()
        self.seen: list = []  # what came before the answer waited for: notifications, other answers
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        import json

        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.answers.put(json.loads(out.read(length)))

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def frame(self, obj, length: str | None = None) -> bytes:
        import json

        body = json.dumps(obj, ensure_ascii=False).encode()
        head = b"" if length == "missing" else f"Content-Length: {len(body) if length is None else length}\r\n".encode()
        return head + b"\r\n" + body

    def request(self, msg_id, method, params=None, length=None) -> None:
        self.send(self.frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}, length))

    def notify(self, method, params) -> None:
        self.send(self.frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def answer(self, msg_id, timeout: float = 120):
        """The answer to request msg_id (notifications and other answers that come first are kept aside)."""
        import time

        end = time.monotonic() + timeout
        while True:
            msg = self.answers.get(timeout=max(0.1, end - time.monotonic()))
            if msg.get("id") == msg_id and "method" not in msg:
                return msg
            self.seen.append(msg)


def _hover(doc_uri, line=0, char=0):
    return {"textDocument": {"uri": doc_uri}, "position": {"line": line, "character": char}}


def test_bad_frames_are_answered_and_the_server_goes_on(tmp_path):
    """A frame with a missing, non-numeric, negative or absurd Content-Length, or a body that is not JSON, is
    answered with an error (with the request's id where the body still shows it), and the next request is
    answered as if nothing happened; after `shutdown` every request is answered with InvalidRequest, and
    `exit` ends the server. A buffer past the file-size limit is one diagnostic, at once."""
    c = RawClient()
    try:
        c.request(1, "initialize", {"capabilities": {}, "processId": None, "rootUri": from_fs_path(str(ROOT))})
        assert "capabilities" in c.answer(1)["result"]
        c.notify("initialized", {})
        path = tmp_path / "t.sgs"
        path.write_text(FIXED, encoding="utf-8")
        uri = from_fs_path(str(path))
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "sgs", "version": 1,
                                                           "text": FIXED}})
        for k, length in enumerate(["abc", "-5", "missing", "99999999999", "1e3", " 12 34"]):
            bad, good = 10 + 2 * k, 11 + 2 * k
            c.request(bad, "textDocument/hover", _hover(uri), length=length)
            c.request(good, "textDocument/hover", _hover(uri, 2, 8))
            err = c.answer(bad)["error"]
            assert err["code"] == -32600 and "the message was skipped" in err["message"], (length, err)
            assert "拒战三" in c.answer(good)["result"]["contents"]["value"], length
        c.send(b"Content-Length: 5\r\n\r\n{oops")
        c.request(30, "textDocument/hover", _hover(uri, 2, 8))
        assert c.answer(None)["error"]["code"] == -32700
        assert "result" in c.answer(30)
        big = "# " + "大" * 400_000 + "\n" + FIXED  # 1.2 MB of UTF-8: past the 1 MB limit of a rules file
        big_uri = from_fs_path(str(tmp_path / "big.sgs"))
        c.notify("textDocument/didOpen", {"textDocument": {"uri": big_uri, "languageId": "sgs", "version": 1,
                                                           "text": big}})
        c.request(31, "textDocument/hover", _hover(uri, 2, 8))
        assert "result" in c.answer(31)
        published = [m for m in c.seen if m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == big_uri]
        assert [d["code"] for d in published[-1]["params"]["diagnostics"]] == ["SGS005"]
        assert "larger than 1,024 KB" in published[-1]["params"]["diagnostics"][0]["message"]
        c.request(40, "shutdown")
        assert c.answer(40)["result"] is None
        c.request(41, "textDocument/hover", _hover(uri, 2, 8))
        assert c.answer(41)["error"]["code"] == -32600
        c.notify("exit", None)
        assert c.proc.wait(timeout=60) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
        c.proc.wait()
