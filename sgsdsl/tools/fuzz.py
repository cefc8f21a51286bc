"""Fuzzing the compiler: the inputs (grammar-aware text, mutations of the shipped rules, an
extremes set) and the oracle that judges what the compiler did with one input.

The oracle's verdicts: `diagnosed` (located, well-formed errors), `accepted` (no errors, and the
generated Python compiles), and the failures: `traceback` (an exception escaped the compiler),
`malformed` (a diagnostic without a known code or a place), `invalid-python` (accepted, but the
generated module does not compile) and `hang` (no answer within the time allowed).

tests/test_fuzz.py runs a fast profile in the default suite; bench/fuzz.py runs the long one in
worker processes, each input under a timeout. hypothesis (a test extra) is imported only by the
strategies, so importing this module needs nothing more than the compiler.
"""

from __future__ import annotations

import random
import re
import shutil
import signal
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

import attrs

from ..lang.codegen import generate
from ..lang.compiler import build, project_root
from ..lang.diagnostics import CODES, render_all

ROOT = project_root()
RULES = sorted((ROOT / "rules").glob("*/*.sgs"))
_GRAMMAR = (Path(__file__).resolve().parents[1] / "lang" / "grammar.lark").read_text(encoding="utf-8")
_SHIPPED_TEXT = "\n".join(f.read_text(encoding="utf-8") for f in RULES)

# ---- the vocabulary random text is made of ---------------------------------------------------

KEYWORDS = sorted({k for k in re.findall(r'"([^"\s]+)"', _GRAMMAR) if not k.startswith("\\")})
NAMES = sorted(set(re.findall(r"[^\W\d]\w*", _SHIPPED_TEXT)) - set(KEYWORDS))
PUNCT = ["{", "}", "(", ")", "[", "]", ",", ".", ":", "=", "+=", "-=", "..", "->", "?", "|", "==", "<", "-",
         "\n", "\"", "#", "♠A", "♥10", "♣", "♦K", "♠14", "3", "0", "2.5", "-1", "+1", "\"文本\"", "\"{self}\"",
         "\"{\"", "\"\\\"", "，", "（", "）", "\u3000", "\ufeff", "\t", "\r\n"]
STRINGS = ['"文本"', '"{self}"', '"{event.card}"', '"a\\"b"', '"{\\"\\\\x\\"}"', '"\\n"', '"{{"', '"{1 + 1}"',
           '"{__import__(1)}"', '"\'\'\'"', '"\\"\\"\\""', '"{{ x }}"', '"{% if %}"', '""']
# Source texts of the shipped files, their `package` line removed (they become a designer's file).
SOURCE_TEXT = {f.relative_to(ROOT).as_posix(): re.sub(r"^package .*$", "", f.read_text(encoding="utf-8"),
                                                       flags=re.M) for f in RULES}

# Where generated text is put: inside a skill, a flow, a card … (holes get random tokens).
SKELETONS = [
    "skill 测试 ceshi {{ on 回合开始时 do {{ {0} }} }}",
    "skill 测试 ceshi {{ on 受到伤害后 when {0} do {{ draw(self, 1) }} }}",
    "skill 测试 ceshi {{ active {0} do {{ }} }}",
    "skill 测试 ceshi {{ modify {0} }}",
    "flow 测试流程 ceshi (turn) {{ {0} }}",
    "card 测试牌 ceshi basic {{ target 1 where {0} effect {{ {0} }} }}",
    "hero 测试 ceshi {{ {0} }}",
    "deck 测试牌堆 ceshi {{ {0} }}",
    "mode 测试模式 ceshi {{ {0} }}",
    "test \"t\" {{ seat 曹操 {0} }}",
    "event ceshi {{ {0} }}",
    "quantity 测试量 ceshi(p: player): int = {0}",
    "{0}",
]
EXPR_AT = "skill 测试 ceshi {{ on 回合开始时 do {{ let x = {0} }} }}"
STMT_AT = "skill 测试 ceshi {{ on 回合开始时 do {{ {0} }} }}"
LOG_AT = 'skill 测试 ceshi {{ on 回合开始时 do {{ log "x={{{0}}}" }} }}'
# (where, prefix, inner, suffix): prefix * n + inner + suffix * n. Deep nesting meets Python's
# recursion and the generated code's own nesting limits.
NESTERS = [
    (EXPR_AT, "(", "1", ")"), (EXPR_AT, "-", "1", ""), (EXPR_AT, "not ", "true", ""),
    (EXPR_AT, "[", "1", "]"), (EXPR_AT, "reverse(", "[self]", ")"), (EXPR_AT, "1 + ", "1", ""),
    (EXPR_AT, "", "self", ".next"), (EXPR_AT, "if true then 1 else ", "2", ""),
    (EXPR_AT, "count(players where ", "true", ") > 0"), (EXPR_AT, "(choose self player where it == ", "self", ")"),
    (STMT_AT, "if true { ", "draw(self, 1)", " }"), (STMT_AT, "for p in players { ", "draw(p, 1)", " }"),
    (STMT_AT, "if false { } else ", "{ }", ""), (LOG_AT, "-", "1", ""), (LOG_AT, "reverse(", "[self]", ")"),
]
NUMBER_AT = ["skill 测试 ceshi {{ on 回合开始时 do {{ draw(self, {0}) }} }}",
             "hero 测试 ceshi {{ kingdom 魏 hp {0}.5 gender 男 skills 奸雄 }}",
             "card 测试刀 ceshidao weapon {0}", "deck 测试牌堆 ceshi_deck {{ ♠{0} 杀 }}",
             "mode 测试模式 ceshi_mode {{ players 2..{0} }}", LOG_AT.replace("x={{{0}}}", "{{{0}}}"),
             "test \"t\" {{ seat 曹操 hp {0} }}", "test \"t\" {{ seat 曹操 turns {0} }}"]


def nested(where: str, prefix: str, inner: str, suffix: str, n: int) -> str:
    return where.format(prefix * n + inner + suffix * n)


# ---- the extremes set -------------------------------------------------------------------------


def extremes() -> list[tuple[str, bytes]]:
    """Inputs at the edges: size, depth, long lines, huge literals, NUL, invalid UTF-8, BOM, CRLF,
    full-width punctuation. Each is (name, bytes of the file)."""
    ok = "skill 测试 ceshi { on 回合开始时 do { draw(self, 1) } }\n"
    out: dict[str, str | bytes] = {
        "10,000 skills": "".join(f"skill 技{i} ji{i} {{ on 回合开始时 do {{ draw(self, 1) }} }}\n" for i in range(10_000)),
        "10,000 triggers in one skill": "skill 技 ji {\n" + "  on 回合开始时 do { draw(self, 1) }\n" * 10_000 + "}\n",
        "a list of 1,000,000 items": EXPR_AT.format("[" + ", ".join(["1"] * 1_000_000) + "]"),
        "a list of 1,001 items": EXPR_AT.format("[" + ", ".join(["1"] * 1_001) + "]"),
        "a file just over the size limit": "# " + "x" * 1_048_600 + "\n" + ok,
        "a 500 KB comment line": "# " + "注" * 170_000 + "\n" + ok,
        "a 200,000-character line of code": STMT_AT.format("draw(self, 1) " * 14_000),
        "a 100,000-character string": STMT_AT.format('log "' + "长" * 100_000 + '"'),
        "a 100,000-character name": "skill 测试 " + "a" * 100_000 + " { on 回合开始时 do { } }",
        "a 4,301-digit number": STMT_AT.format("draw(self, " + "9" * 4_301 + ")"),
        "a 4,300-digit number": STMT_AT.format("draw(self, " + "9" * 4_300 + ")"),
        "one past the largest number": STMT_AT.format("draw(self, 1000001)"),
        "the largest number": STMT_AT.format("draw(self, 1000000)"),
        "a product of large numbers in a log": LOG_AT.format(" * ".join(["1000000"] * 120)),
        "a 5,000-digit number in a log": LOG_AT.format("9" * 5_000),
        "hp 100": "hero 测试 ceshi { kingdom 魏 hp 100 gender 男 skills 奸雄 }",
        "hp 0": "hero 测试 ceshi { kingdom 魏 hp 0 gender 男 skills 奸雄 }",
        "weapon range 0": "card 测试刀 ceshidao weapon 0 { }",
        "players 0..1000": "mode 测试模式 ceshi_mode { players 0..1000 }",
        "turns 1001": 'test "t" { seat 曹操 turns 1001 }',
        "a NUL byte in code": ok.replace("draw", "dr\x00aw"),
        "a NUL byte in a string": STMT_AT.format('log "a\x00b"'),
        "a NUL escape in a string": STMT_AT.format('log "a\\x00b"'),
        "only NUL bytes": "\x00" * 1000,
        "invalid UTF-8": ok.encode("utf-8").replace(b"draw", b"dr\xff\xfeaw"),
        "GBK text": ok.encode("gbk"),
        "a lone surrogate escape": STMT_AT.format('log "\\ud800"'),
        "a BOM": "\ufeff" + ok,
        "a BOM in the middle": ok + "\ufeff" + ok.replace("ceshi", "ceshi2").replace("测试", "测试二"),
        "CRLF line ends": ok.replace("{ on", "{\r\n on").replace("}\n", "}\r\n") * 1,
        "lone CR line ends": "skill 测试 ceshi {\r on 回合开始时 do {\r drow(self, 1) } }\r",
        "full-width punctuation": "skill 测试 ceshi ｛ on 回合开始时 do ｛ draw（self，1） ｝ ｝",
        "ideographic space": "skill\u3000测试 ceshi { on 回合开始时 do { } }",
        "Chinese quotes": "skill 测试 ceshi { “文本” on 回合开始时 do { } }",
        "a line separator": "skill 测试 ceshi {\u2028 on 回合开始时 do { drow(self, 1) } }",
        "bidi override in a name": "skill 测\u202e试 ceshi { on 回合开始时 do { } }",
        "a zero-width space": "skill 测试\u200b ceshi { on 回合开始时 do { } }",
        "an empty file": "",
        "only whitespace": " \t\n" * 1000,
        "only a comment": "# nothing",
        "an unclosed string": 'skill 测试 ceshi { "abc',
        "an unclosed brace at depth 1,000": "{" * 1000,
        "1,000 closing braces": "}" * 1000,
        "10,000 semicolons": ";" * 10_000,
        "a bad escape inside a log interpolation": STMT_AT.format('log "{\\"\\\\x\\"}"'),
        "a string as a log interpolation": STMT_AT.format('log "{\\"abc\\"}"'),
        "nested braces in a log": STMT_AT.format('log "{{{{self}}}}"'),
        "a sum of 100,000 terms": EXPR_AT.format("+".join(["1"] * 100_000)),
    }
    for where, prefix, inner, suffix in NESTERS:
        for n in (65, 1_000, 10_000):
            out[f"{n} levels of {prefix.strip() or suffix.strip()}{' in a log' if where is LOG_AT else ''}"] = \
                nested(where, prefix, inner, suffix, n)
    return [(k, v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass")) for k, v in out.items()]


# ---- mutations driven by random.Random (the long profile) ---------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[^\W\d]\w*|\d+(?:\.5)?|[♠♥♣♦](?:10|[2-9AJQK])?|\.\.|->|\+=|-=|'
                    r'==|!=|<=|>=|\s+|.', re.S)


def byte_mutant(rng: random.Random, data: bytes) -> bytes:
    """A few random byte edits: flips, inserts (incl. NUL and bytes that are never UTF-8), deletes,
    copies of a span elsewhere."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i:i] = bytes([rng.choice((0, 0xFF, 0xC0, 0x80, 0x0D, 0x22, 0x5C, 0x7B, 0x7D, rng.randrange(256)))])
        elif op == 2:
            del b[i:i + rng.randint(1, 40)]
        elif op == 3 and b:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randint(1, 80)]
        else:
            b[i:i] = rng.choice(PUNCT).encode("utf-8")
    return bytes(b)


def token_mutant(rng: random.Random, text: str) -> str:
    """A few edits of whole tokens: replace one with a keyword, a name, punctuation or a string,
    delete, duplicate or swap tokens, truncate."""
    toks = _TOKEN.findall(text)
    words = [i for i, t in enumerate(toks) if not t.isspace()]
    for _ in range(rng.randint(1, 3)):
        if not words:
            break
        i = rng.choice(words)
        op = rng.randrange(6)
        if op == 0:
            toks[i] = rng.choice(KEYWORDS)
        elif op == 1:
            toks[i] = rng.choice(NAMES)
        elif op == 2:
            toks[i] = rng.choice(PUNCT + STRINGS)
        elif op == 3:
            toks[i] = ""
        elif op == 4:
            toks[i] = toks[i] + " " + toks[rng.choice(words)]
        else:
            j = rng.choice(words)
            toks[i], toks[j] = toks[j], toks[i]
    out = "".join(toks)
    return out[:rng.randrange(len(out) + 1)] if rng.random() < 0.05 else out


# ---- grammar-aware hypothesis strategies ------------------------------------------------------


def grammar_text(max_depth: int = 9):
    """A hypothesis strategy for text derived from the grammar itself: rules expanded at random
    (the shortest ones once deep enough), terminals drawn from the shipped rules' vocabulary, tokens
    separated by spaces. Nearly all of it parses, so it exercises the stages after the parser."""
    from hypothesis import strategies as st

    from ..lang.parser import lark_parser

    lk = lark_parser()
    rules: dict[str, list[list]] = {}
    for r in lk.rules:
        rules.setdefault(r.origin.name, []).append(list(r.expansion))
    height = _heights(rules)
    terms = {t.name: t.pattern for t in lk.terminals}
    special = {
        "NAME": st.one_of(st.sampled_from(NAMES), st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)),
        "INT": st.one_of(st.integers(0, 12).map(str), st.sampled_from(["1000000", "1000001", "99", "4300"])),
        "HALF": st.sampled_from(["0.5", "3.5", "99.5"]),
        "STRING": st.sampled_from(STRINGS),
        "SUIT": st.sampled_from(list("♠♥♣♦")),
        "SUITRANK": st.from_regex(r"[♠♥♣♦](10|[2-9AJQK])", fullmatch=True),
    }

    def terminal(name: str):
        if name in special:
            return special[name]
        pat = terms[name]
        return st.just(pat.value) if pat.type == "str" else st.from_regex(pat.to_regexp(), fullmatch=True)

    @st.composite
    def expand(draw, symbol: str = "start", depth: int = 0):
        if symbol not in rules:
            return draw(terminal(symbol))
        options = rules[symbol]
        if depth >= max_depth:
            best = min(height[(symbol, i)] for i in range(len(options)))
            options = [o for i, o in enumerate(options) if height[(symbol, i)] == best]
        chosen = draw(st.sampled_from(options))
        return " ".join(draw(expand(s.name, depth + 1)) for s in chosen)

    return expand()


def text_strategies() -> dict:
    """name -> hypothesis strategy of rules text: `grammar` (derived from the grammar), `soup` (random
    tokens, alone or in the holes of declaration skeletons, and random unicode), `deep` (nesting near
    and past the limit) and `numbers` (numbers of up to 6,000 digits wherever the rules write one)."""
    from hypothesis import strategies as st

    token = st.one_of(st.sampled_from(KEYWORDS), st.sampled_from(NAMES), st.sampled_from(PUNCT), st.text(max_size=4))
    soup = st.lists(token, max_size=40).map(" ".join)
    skeleton = st.builds(lambda sk, fill: sk.format(fill), st.sampled_from(SKELETONS), soup)
    return {
        "grammar": grammar_text(),
        "soup": st.one_of(soup, skeleton, st.text(max_size=60)),
        "deep": st.builds(lambda nest, n: nested(*nest, n), st.sampled_from(NESTERS), st.integers(1, 300)),
        "numbers": st.builds(lambda at, n: at.format("9" * n), st.sampled_from(NUMBER_AT), st.integers(1, 6000)),
    }


def _heights(rules: dict[str, list[list]]) -> dict:
    """(rule, expansion index) -> the least depth at which that expansion derives only terminals."""
    best: dict[str, float] = {n: float("inf") for n in rules}
    changed = True
    while changed:
        changed = False
        for n, options in rules.items():
            for o in options:
                h = 1 + max((best.get(s.name, 0) for s in o), default=0)
                if h < best[n]:
                    best[n], changed = h, True
    return {(n, i): 1 + max((best.get(s.name, 0) for s in o), default=0)
            for n, options in rules.items() for i, o in enumerate(options)}


# ---- sandboxes: the shipped rules without one file, that file as a designer's ----------------------


@attrs.define
class Sandbox:
    root: Path
    text: str  # the file's text, as a designer's file
    clean: bool  # whether that text compiles unchanged there


def sandbox(base: Path, rel: str) -> Sandbox:
    """A root holding the shipped rules without `rel`; `rel`'s text compiles there as a designer's
    file. The file's `package` line goes (it joins the designer's package, which sees every shipped
    one), and each shipped package gets a `use designer`, so the rest still finds what it declares."""
    root = base / re.sub(r"\W", "_", rel)
    for f in RULES:
        dest = root / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if f != ROOT / rel:
            shutil.copy(f, dest)
        (dest.parent / "zz_designer.sgs").write_text("use designer\n", encoding="utf-8")
    text = SOURCE_TEXT[rel]
    designer = root / "designer.sgs"
    designer.write_text(text, encoding="utf-8")
    return Sandbox(root, text, not build(extra=[designer], root=root).errors)


def cache_shipped_parses() -> None:
    """Parse each unchanged shipped file once in this process, so that a build spends its time on the
    file under test: sgsdsl/lang/parsecache.py now does so for every build (kept for bench/'s callers)."""


# ---- the oracle -----------------------------------------------------------------------------------


class Hang(Exception):
    """An input took longer than the time allowed."""


@contextmanager
def time_limit(seconds: float | None):
    """Raise Hang in the main thread after `seconds` (POSIX); nothing elsewhere."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@attrs.define
class Verdict:
    kind: str  # diagnosed | accepted | traceback | malformed | invalid-python | hang
    detail: str = ""
    seconds: float = 0.0
    codes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kind in ("diagnosed", "accepted")


def malformed(b) -> str | None:
    """What is wrong with a build's diagnostics, or None."""
    for d in b.diagnostics:
        if d.code not in CODES or d.span.line <= 0 or d.span.col <= 0 or d.severity not in ("error", "warning") \
                or not d.message:
            return f"malformed diagnostic: {d}"
    render_all(b.diagnostics, b.sources)
    render_all(b.diagnostics, b.sources, fmt="json")
    return None


def judge(root: Path, path: Path, data: bytes, checks: bool = False, limit: float | None = None) -> Verdict:
    """Compile `data` as a designer's file at `path` next to the rules in `root` (as `sgsdsl check`
    does, with the conflict checks when `checks`) and say how that went."""
    path.write_bytes(data)
    start = time.perf_counter()
    try:
        with time_limit(limit):
            b = build(extra=[path], root=root)
            bad = malformed(b)
            if bad:
                return Verdict("malformed", bad, time.perf_counter() - start)
            codes = tuple(sorted({d.code for d in b.errors}))
            if b.errors:
                return Verdict("diagnosed", codes[0], time.perf_counter() - start, codes)
            try:
                for name, pkg in b.model.packages.items():
                    if not pkg.shipped:  # the designer's package (its name is the file's `package`)
                        compile(generate(b.model, name, b.rel), f"<sgsdsl:{name}>", "exec")
            except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
                return Verdict("invalid-python", f"{e.__class__.__name__}: {e}", time.perf_counter() - start)
            if checks:
                from ..conflicts import run_checks
                from ..conflicts.fields import explain

                explain(b, list(b.diagnostics))
                run_checks(b, only_designer=True)
            return Verdict("accepted", "", time.perf_counter() - start)
    except Hang as e:
        return Verdict("hang", str(e), time.perf_counter() - start)
    except Exception as e:  # noqa: BLE001 - any escape is what the fuzzer looks for
        tb = traceback.extract_tb(e.__traceback__)[-3:]
        where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(tb))
        return Verdict("traceback", f"{e.__class__.__name__}: {str(e)[:200]} (at {where})",
                       time.perf_counter() - start)
