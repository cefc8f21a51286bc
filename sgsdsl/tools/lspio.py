"""The language server's transport: LSP frames (`Content-Length: N` headers, a blank line, N bytes of JSON)
read from standard input so that no frame can silence the server.

pygls's own reader matches only a well-formed `Content-Length` line: after a frame whose length is missing,
not a number or negative, it takes the next frame's bytes for headers, and every later message is lost while
the server stays alive (issue 31). Here a frame that cannot be read is answered with a JSON-RPC error (with
the request's id when its body can still be read as JSON, else id null) and reading resumes at the next
`Content-Length` header. A frame larger than FRAME_BYTES is skipped unread, in pieces, and answered the same
way. After `shutdown` every request but `exit` is answered with InvalidRequest, as LSP asks, instead of
nothing (Protocol).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter
from pygls.protocol import LanguageServerProtocol

from ..lang.limits import FILE_BYTES

# A frame may carry a whole buffer as JSON text: a buffer past the file-size limit still gets through, to be
# told that it is too large (lsp.py), but nothing larger than this is read into memory.
FRAME_BYTES = 8 * FILE_BYTES
HEADER_BYTES = 8192  # a header block longer than this is not a header: it is skipped as a bad frame
SKIPPED_BYTES = 65536  # of the bytes skipped after a bad header, so many are kept to find the request's id

PARSE_ERROR, INVALID_REQUEST = -32700, -32600
logger = logging.getLogger(__name__)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, answering every request after `shutdown` (LSP: InvalidRequest) instead of none."""

    def handle_message(self, message):
        if self._shutdown and isinstance(getattr(message, "method", None), str) and \
                getattr(message, "id", None) is not None and message.method != lsp.EXIT:
            self._send_data({"jsonrpc": "2.0", "id": message.id, "error": {
                "code": INVALID_REQUEST, "message": f"{message.method}: the server is shutting down (`shutdown` was "
                                                    "requested); only `exit` is answered now"}})
            return
        super().handle_message(message)


HEADER = re.compile(rb"content-length[ \t]*:", re.I)  # where a frame starts (a header line may come in any case)
# A whole header line inside other bytes. JSON cannot hold it (a string has no raw line break, and outside
# strings the words are not JSON): a body that holds one is cut there, whatever its length said.
WHOLE_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*\d+[ \t]*\r\n", re.I)


def _header_start(data: bytes) -> int | None:
    """Where a frame header starts in bytes that are not a message: a whole `Content-Length:`, or its first
    letters at the very end (the rest of it is still to be read)."""
    m = HEADER.search(data)
    if m is not None:
        return m.start()
    word, tail = b"content-length", data[-14:].lower()
    return next((len(data) - k for k in range(min(len(word), len(tail)), 0, -1) if tail[-k:] == word[:k]), None)


def _request_id(skipped: bytes):
    """The id of the request in the bytes of a bad frame's body, when they are JSON; else None."""
    try:
        msg = json.loads(skipped.decode("utf-8", "replace").strip())
    except ValueError:
        return None
    return msg.get("id") if isinstance(msg, dict) and isinstance(msg.get("id"), (int, str)) else None


class StdinReader:
    """Standard input read in a thread (as pygls does), with reads that return what has come (read1), so
    that a frame whose length is a lie cannot make the server wait for bytes that never come."""

    def __init__(self, stream, executor):
        self.stream, self.executor = stream, executor

    def _run(self, fn, *args):
        return asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def readline(self, limit: int):
        return self._run(self.stream.readline, limit)

    def read_some(self, n: int):
        return self._run(self.stream.read1, n)


class FrameReader:
    def __init__(self, reader, protocol, error_handler=None):
        self.reader, self.protocol, self.error_handler = reader, protocol, error_handler
        self.buf = b""  # bytes read ahead: the start of the next frame

    def reject(self, msg_id, code: int, why: str) -> None:
        print(f"sgsdsl lsp: {why}", file=sys.stderr, flush=True)
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": why}})

    async def line(self, limit: int) -> bytes:
        if self.buf:
            end = self.buf.find(b"\n", 0, limit)
            cut = end + 1 if end >= 0 else min(limit, len(self.buf))
            out, self.buf = self.buf[:cut], self.buf[cut:]
            if out.endswith(b"\n") or len(out) >= limit:
                return out
            return out + await self.reader.readline(limit - len(out))
        return await self.reader.readline(limit)

    async def some(self, n: int) -> bytes:
        if self.buf:
            out, self.buf = self.buf[:n], self.buf[n:]
            return out
        return await self.reader.read_some(n)

    async def headers(self):
        """The next frame's Content-Length, or why it has none: (length, None) or (None, why); None at the end
        of the input. Bytes found before a header line are a frame whose header was missing: rejected here."""
        length, problem, size = None, None, 0
        while True:
            line = await self.line(HEADER_BYTES + 1)
            if not line:
                return None
            m = HEADER.search(line)
            if m is not None and (line[:m.start()].strip() or problem is not None):
                # a frame starts here: what came before it (a body, or a header block already wrong) was a frame
                # that cannot be read
                self.reject(_request_id(line[:m.start()]), INVALID_REQUEST,
                            f"{problem or 'a frame has no Content-Length header'}: the message was skipped")
                line, length, problem, size = line[m.start():], None, None, 0
            if not line.strip():
                if size == 0:  # blank lines between frames
                    continue
                break
            size += len(line)
            if size > HEADER_BYTES:
                problem = problem or f"a frame's headers are longer than {HEADER_BYTES:,} bytes"
                continue
            name, colon, value = line.partition(b":")
            if not colon:
                problem = problem or f"a frame's header line is not `Name: value`: {line[:60]!r}"
            elif name.strip().lower() == b"content-length":
                value = value.strip()
                if value.isdigit():
                    length = int(value)
                else:
                    problem = problem or (f"a frame's Content-Length is {value.decode('utf-8', 'replace')!r}, "
                                          "not a number of bytes")
        if length is not None and size <= HEADER_BYTES:
            problem = None  # a header line that was wrong does not matter when the length is there
        if problem is None and length is None:
            problem = "a frame has no Content-Length header"
        if problem is None and length > FRAME_BYTES:
            problem = f"a frame of {length:,} bytes is more than the {FRAME_BYTES:,} the server reads"
        return (None, problem) if problem else (length, None)

    async def skip_to_next_frame(self) -> bytes:
        """Skip what follows a bad header (a body of unknown length) up to the next Content-Length header, in
        pieces; the first bytes skipped are returned (the body: to find the request's id)."""
        kept, tail = b"", b""
        while True:
            piece = await self.some(1 << 16)
            if not piece:
                return kept
            seen = tail + piece
            m = HEADER.search(seen)
            if m is not None:
                self.buf = seen[m.start():] + self.buf
                return (kept + seen[len(tail):m.start()] if m.start() >= len(tail) else kept)[:SKIPPED_BYTES]
            kept = (kept + piece)[:SKIPPED_BYTES]
            tail = seen[-32:]

    async def body(self, length: int) -> bytes | None:
        """The frame's body; None at the end of the input. A frame header inside it means the length was a
        lie: the frame ends there, and the next one starts."""
        body = bytearray()
        while len(body) < length:
            piece = await self.some(min(length - len(body), 1 << 16))
            if not piece:
                return None
            start = max(0, len(body) - 32)
            body += piece
            m = WHOLE_HEADER.search(body, start)
            if m is not None:
                self.buf = bytes(body[m.start():]) + self.buf
                print(f"sgsdsl lsp: a frame's Content-Length ({length:,}) is more than its body "
                      f"({m.start():,} bytes)", file=sys.stderr, flush=True)
                return bytes(body[:m.start()])
        return bytes(body)

    async def run(self, stop_event) -> None:
        while not stop_event.is_set():
            head = await self.headers()
            if head is None:
                return
            length, problem = head
            if problem is not None:
                skipped = await self.skip_to_next_frame()
                self.reject(_request_id(skipped), INVALID_REQUEST, f"{problem}: the message was skipped")
                continue
            body = await self.body(length)
            if body is None:
                return
            try:
                message = json.loads(body, object_hook=self.protocol.structure_message)
            except Exception as e:  # noqa: BLE001 - a body that is not JSON-RPC: answered, and the next one read
                cut = _header_start(body)
                if cut is not None and cut > 0:  # the length ran into the next frame: it starts there
                    self.buf, body = body[cut:] + self.buf, body[:cut]
                self.reject(_request_id(body), PARSE_ERROR, f"a frame's body is not a JSON-RPC message ({e})")
                continue
            try:
                self.protocol.handle_message(message)
            except Exception as exc:  # noqa: BLE001 - as pygls's own loop: one message, not the server
                logger.exception("Unable to handle message")
                if self.error_handler:
                    from pygls.exceptions import JsonRpcException

                    self.error_handler(exc, JsonRpcException)


def start_io(server) -> None:
    """pygls's `start_io`, with FrameReader in place of its reader loop."""
    from threading import Event

    server._stop_event = Event()
    reader = StdinReader(sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    frames = FrameReader(reader, server.protocol, server.report_server_error)
    try:
        asyncio.run(frames.run(server._stop_event))
    except BrokenPipeError:
        logger.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
