"""Fuzzing what is not a rules file: the other inputs a user or a program hands sgsdsl (issue 31).

- `report`: a `simulate --json` results file with random edits, read by `sgsdsl report`;
- `replay`: a game log whose header fields are given random values, read by `simulate --replay`;
- `options`: random `--option ID=VALUE` texts for 国战's options;
- `scaffold`: random arguments of `sgsdsl new hero`;
- `lsp`: random frames (headers of any length and case, bodies that lie) read by the language server's
  transport (tools/lspio.py), each followed by a good request that must be answered.

The oracle is fuzz.py's: `accepted` (the input was taken and did what it should), `diagnosed` (refused
with an error that says so) and the failures: `traceback` (an exception escaped) and `malformed` (an
answer of the wrong kind: an exit code outside 0–2, a request not answered, a skeleton that does not
check clean). tests/test_fuzz.py runs a few of each; bench/fuzz.py runs the long profile.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import time
import traceback
from pathlib import Path

from .fuzz import PUNCT, Verdict

SURFACES = ("report", "replay", "options", "scaffold", "lsp")
ODD = ["", "x", "-1", "0", "1", "true", "ture", "1e3", "９", "null", "[]", "{}", "\n", "=", "==", " ", "\x00",
       "\ud800", "9" * 30, "魏", "野心家", "hp", "standard", "hero_cards", "aozhan_mode"]
VALUES = [None, True, False, 0, -1, 1, 99, 2**64, 1.5, "", "x", "abc", [], [1, 2], {}, {"a": 1}, "\ud800"]


class Surfaces:
    """The inputs' raw material, made once per process in `tmp`: a results file and a log to edit."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self._results = self._log = None
        self._rules = None

    def prepare(self) -> Surfaces:
        """Make the raw material now (a few games): not in the time of the first input."""
        self.rules(), self.results(), self.log()
        return self

    def rules(self):
        if self._rules is None:
            from ..lang.loader import shipped

            self._rules = shipped()
        return self._rules

    def results(self) -> dict:
        if self._results is None:
            from ..sim.command import SimOptions, simulate_command

            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                simulate_command(SimOptions(games=4, seed=3, agent="random", quiet=True, as_json=True,
                                            heroes=("guanyu",)))
            self._results = json.loads(out.getvalue())
        return json.loads(json.dumps(self._results))

    def log(self) -> tuple[dict, str]:
        if self._log is None:
            from ..sim.command import SimOptions, simulate_command

            path = self.tmp / "fuzz-log.jsonl"
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                simulate_command(SimOptions(mode="guozhan", games=1, seed=2, agent="random", quiet=True,
                                            log_file=str(path)))
            first, rest = path.read_text(encoding="utf-8").split("\n", 1)
            self._log = (json.loads(first), rest)
        return json.loads(json.dumps(self._log[0])), self._log[1]


def _mutate(rng: random.Random, doc):
    """A few random edits of a JSON document: a value replaced, a field deleted or added, a list emptied."""
    for _ in range(rng.randint(1, 3)):
        places = []

        def walk(x, depth=0):
            if depth > 6:
                return
            if isinstance(x, dict):
                for k in list(x):
                    places.append((x, k))
                    walk(x[k], depth + 1)
            elif isinstance(x, list):
                for i in range(min(len(x), 3)):
                    places.append((x, i))
                    walk(x[i], depth + 1)

        walk(doc)
        if not places:
            return doc
        parent, key = rng.choice(places)
        op = rng.randrange(4)
        if op == 0 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, dict):
            parent[rng.choice(ODD) or "extra"] = rng.choice(VALUES)
        elif op == 2 and isinstance(parent[key], list):
            parent[key] = []
        else:
            parent[key] = rng.choice(VALUES)
    return doc


def _timed(kind_of):
    """Run `kind_of()` -> (kind, detail) under the oracle: an exception is a traceback."""
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            kind, detail = kind_of()
    except Exception as e:  # noqa: BLE001 - any escape is what the fuzzer looks for
        tb = traceback.extract_tb(e.__traceback__)[-3:]
        where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(tb))
        return Verdict("traceback", f"{e.__class__.__name__}: {str(e)[:200]} (at {where})",
                       time.perf_counter() - start)
    return Verdict(kind, detail, time.perf_counter() - start)


def _exit_kind(code: int) -> tuple[str, str]:
    if code == 0:
        return "accepted", ""
    return ("diagnosed", f"exit {code}") if code in (1, 2) else ("malformed", f"exit code {code}")


def report(s: Surfaces, rng: random.Random) -> Verdict:
    from ..sim.htmlreport import report_command

    doc = _mutate(rng, s.results())
    path = s.tmp / "fuzz-results.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8", errors="surrogatepass")
    return _timed(lambda: _exit_kind(report_command(path, s.tmp / "fuzz-report.html")))


def replay(s: Surfaces, rng: random.Random) -> Verdict:
    from ..lang.loader import load
    from ..sim.command import replay as replay_command

    header, rest = s.log()
    for _ in range(rng.randint(1, 3)):
        field = rng.choice(list(header) + ["plan", "options", "pick", "turn_limit"])
        if field == "options" and rng.random() < 0.5:
            header["options"] = {rng.choice(["hero_cards", "aozhan_mode", "buchen", "x"]): rng.choice(VALUES)}
        elif field == "plan" and rng.random() < 0.5:
            header["plan"] = {"seat": rng.choice([0, 4, 99, -1, "0"]), "identity": rng.choice(["wei", "lord", 1]),
                              "hero": rng.choice(["guanyu", "nobody"]), "reserved": rng.choice([[], ["x"], "x"])}
        else:
            header[field] = rng.choice(VALUES)
    path = s.tmp / "fuzz-log.jsonl"
    path.write_text(json.dumps(header, ensure_ascii=False) + "\n" + rest, encoding="utf-8", errors="surrogatepass")
    return _timed(lambda: _exit_kind(replay_command(s.rules(), path, lambda w: load(None, variants=w))))


def options(s: Surfaces, rng: random.Random) -> Verdict:
    from ..sim.options import OptionError, from_command_line, value_error

    mode = s.rules().modes["guozhan"]
    given = []
    for _ in range(rng.randint(1, 3)):
        oid = rng.choice([o[0] for o in mode.options] + [o[1] for o in mode.options] + ODD)
        given.append(oid + rng.choice(["=", "", "==", " = "]) + rng.choice(ODD + [str(rng.randint(-10, 10**7))]))

    def run():
        try:
            out = from_command_line(mode, given)
        except OptionError as e:
            return "diagnosed", str(e)[:80]
        defaults = {o[0]: o[2] for o in mode.options}
        wrong = [(k, v) for k, v in out if value_error(defaults[k], v)]
        return ("malformed", f"accepted {wrong}") if wrong else ("accepted", "")

    return _timed(run)


def scaffold(s: Surfaces, rng: random.Random, compile_accepted: bool = True) -> Verdict:
    """Random arguments of `new hero`: refused with a reason, or a skeleton that checks clean."""
    from ..lang import compiler
    from .lexicon import WORD
    from .scaffold import ASCII_ID, hero_skeleton, problem

    name = rng.choice(["张三", "李四之", "关羽", "体", "x", "a_b", "三" * rng.randint(1, 9), rng.choice(ODD)])
    ident = rng.choice(["zhangsan", "lisi2", "guanyu", "standard", "hp", "x", "Z", "a-b", rng.choice(ODD)])
    kingdom = rng.choice(["魏", "蜀", "吴", "群", "wei", "野心家", "nosuch", "魏 }\nskill x y {"] + ODD)
    gender = rng.choice(["男", "女", "male", "中"] + ODD)
    hp = rng.choice([-1, 0, 1, 3, 4, 99, 100, 10**9])
    file = rng.choice(["h.sgs", "a b.sgs", "h\n.sgs", "h\u2028.sgs", "目录/h.sgs", rng.choice(ODD) + ".sgs"])

    def run():
        if not WORD.match(name) or not ASCII_ID.match(ident):
            return "diagnosed", "name or id"  # cli.py refuses these before problem()
        why = problem(name, ident, kingdom, hp, gender, file)
        if why:
            return "diagnosed", why[:80]
        if not compile_accepted:
            return "accepted", ""
        path = s.tmp / f"{ident}.sgs"
        path.write_text(hero_skeleton(name, ident, kingdom, hp, gender, file=file), encoding="utf-8")
        b = compiler.build(extra=[path])
        if b.errors:
            return "malformed", f"the skeleton of {name} {ident} {kingdom} {hp} {gender} does not compile: " \
                                f"{b.errors[0].code} {b.errors[0].message[:80]}"
        return "accepted", ""

    return _timed(run)


class _Recorder:
    """A protocol that records what the transport hands it and what it answers."""

    def __init__(self):
        self.handled, self.sent = [], []

    def structure_message(self, data):
        return data

    def handle_message(self, message):
        self.handled.append(message)

    def _send_data(self, data):
        self.sent.append(data)


class _Bytes:
    def __init__(self, data: bytes):
        self.stream = io.BytesIO(data)

    async def readline(self, limit: int) -> bytes:
        return self.stream.readline(limit)

    async def read_some(self, n: int) -> bytes:
        return self.stream.read1(n)


def lsp_frames(s: Surfaces, rng: random.Random) -> Verdict:
    """A random frame, then a good request (id "after"): the transport must hand the good one on."""
    from .lspio import FrameReader

    body = json.dumps({"jsonrpc": "2.0", "id": rng.choice([1, "a", None]), "method": "textDocument/hover",
                       "params": {}}).encode()
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    head = rng.choice([b"Content-Length: %d\r\n" % len(body), b"content-length:%d\r\n" % len(body),
                       b"Content-Length: %d\r\n" % rng.randint(0, 10**12), b"Content-Length: -5\r\n",
                       b"Content-Length: abc\r\n", b"", b"Content-Type: x\r\n", b"Content-Length: " + junk + b"\r\n",
                       b"X" * rng.randint(1, 20000) + b"\r\n", junk + b"\r\n"])
    bad = head + rng.choice([b"\r\n", b"", b"\r\n\r\n"]) + rng.choice([body, body[:rng.randint(0, len(body))], junk,
                                                                       rng.choice(PUNCT).encode()])
    good = json.dumps({"jsonrpc": "2.0", "id": "after", "method": "shutdown"}).encode()
    data = bad + b"Content-Length: %d\r\n\r\n" % len(good) + good

    def run():
        proto = _Recorder()
        frames = FrameReader(_Bytes(data), proto)

        class Never:
            def is_set(self):
                return False

        asyncio.run(asyncio.wait_for(frames.run(Never()), 20))
        if not any(isinstance(m, dict) and m.get("id") == "after" for m in proto.handled):
            return "malformed", f"the request after {bad[:60]!r} was not read"
        return ("diagnosed", "answered with an error") if proto.sent else ("accepted", "")

    return _timed(run)


JUDGES = {"report": report, "replay": replay, "options": options, "scaffold": scaffold, "lsp": lsp_frames}
