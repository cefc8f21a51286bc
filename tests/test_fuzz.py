"""Fuzzing the compiler: bad input gets diagnostics, never a traceback.

(a) random text, (b) mutations of the shipped rules compiled as a designer's
file, (c) mutated files that compile cleanly also give Python that compiles.

Each build re-parses the shipped rules, which takes most of its time; the
`fast_shipped` fixture memoizes the parse of unchanged shipped files (their
syntax trees are immutable), so the examples spend their time on the text
under test. SGSDSL_FUZZ_SCALE=10 runs ten times as many examples; SGSDSL_FUZZ_RANDOM=1 draws
them from a fresh seed instead of the fixed one CI uses.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgsdsl import compiler
from sgsdsl.codegen import generate
from sgsdsl.compiler import build, sources_of
from sgsdsl.diagnostics import CODES, render_all

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*/*.sgs"))
SCALE = int(os.environ.get("SGSDSL_FUZZ_SCALE", "1"))
RANDOM = bool(os.environ.get("SGSDSL_FUZZ_RANDOM"))


def fuzz_settings(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=not RANDOM, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- the vocabulary random text is made of -----------------------------------------

_GRAMMAR = (ROOT / "sgsdsl" / "grammar.lark").read_text(encoding="utf-8")
KEYWORDS = sorted({k for k in re.findall(r'"([^"\s]+)"', _GRAMMAR) if not k.startswith("\\")})
_SHIPPED_TEXT = "\n".join(f.read_text(encoding="utf-8") for f in RULES)
NAMES = sorted(set(re.findall(r"[^\W\d]\w*", _SHIPPED_TEXT)) - set(KEYWORDS))
PUNCT = ["{", "}", "(", ")", "[", "]", ",", ".", ":", "=", "+=", "-=", "..", "->", "?", "|", "==", "<", "-",
         "\n", "\"", "#", "♠A", "♥10", "♣", "♦K", "♠14", "3", "0", "2.5", "-1", "+1", "\"文本\"", "\"{self}\"",
         "\"{\"", "\"\\\"", "，", "（", "）", "\u3000", "\ufeff", "\t", "\r\n"]
TOKEN = st.one_of(st.sampled_from(KEYWORDS), st.sampled_from(NAMES), st.sampled_from(PUNCT),
                  st.text(max_size=4))
SOUP = st.lists(TOKEN, max_size=40).map(" ".join)

# Skeletons whose holes get random tokens: they take the text past the parser more often.
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
SKELETON_TEXT = st.builds(lambda s, fill: s.format(fill), st.sampled_from(SKELETONS), SOUP)

# Extremes: deep nesting and long chains (Python recursion, Python's own nesting limits in the
# generated code) and huge numbers (int() and float() limits).
_EXPR_AT = "skill 测试 ceshi {{ on 回合开始时 do {{ let x = {0} }} }}"
_STMT_AT = "skill 测试 ceshi {{ on 回合开始时 do {{ {0} }} }}"
NESTERS = [  # (where, prefix, inner, suffix): prefix * n + inner + suffix * n
    (_EXPR_AT, "(", "1", ")"), (_EXPR_AT, "-", "1", ""), (_EXPR_AT, "not ", "true", ""),
    (_EXPR_AT, "[", "1", "]"), (_EXPR_AT, "first(", "[self]", ")"), (_EXPR_AT, "1 + ", "1", ""),
    (_EXPR_AT, "", "self", ".next"), (_EXPR_AT, "if true then 1 else ", "2", ""),
    (_EXPR_AT, "count(players where ", "true", ") > 0"), (_EXPR_AT, "(choose self player where it == ", "self", ")"),
    (_STMT_AT, "if true { ", "draw(self, 1)", " }"), (_STMT_AT, "for p in players { ", "draw(p, 1)", " }"),
    (_STMT_AT, "if false { } else ", "{ }", ""), (_STMT_AT, "log \"{{", "self", "}}\" "),
    (_STMT_AT, 'log "{{' + "(" * 20, "1", ")" * 20 + '}}" '),
]
DEEP = st.builds(lambda nest, n: nest[0].format(nest[1] * n + nest[2] + nest[3] * n),
                 st.sampled_from(NESTERS), st.integers(1, 300))
_NUMBER_AT = ["skill 测试 ceshi {{ on 回合开始时 do {{ draw(self, {0}) }} }}",
              "hero 测试 ceshi {{ kingdom 魏 hp {0}.5 gender 男 skills 奸雄 }}",
              "card 测试刀 ceshidao weapon {0}", "deck 测试牌堆 ceshi_deck {{ ♠{0} 杀 }}",
              "mode 测试模式 ceshi_mode {{ players 2..{0} }}"]
BIG_NUMBER = st.builds(lambda at, n: at.format("9" * n), st.sampled_from(_NUMBER_AT), st.integers(1, 6000))


# ---- checks --------------------------------------------------------------------------


def assert_well_formed(b) -> None:
    for d in b.diagnostics:
        assert d.code in CODES, d
        assert d.span.line > 0 and d.span.col > 0, d
        assert d.severity in ("error", "warning"), d
        assert d.message, d
    render_all(b.diagnostics, b.sources)
    render_all(b.diagnostics, b.sources, fmt="json")
    from hypothesis import event
    event("codes: " + ",".join(sorted({d.code for d in b.errors})[:3]) if b.errors else "clean")


@pytest.fixture(scope="module", autouse=True)
def fast_shipped():
    real = compiler.parse

    @functools.lru_cache(maxsize=512)
    def shipped(text: str, path: str):
        return real(text, path)

    def parse(text: str, path: str):
        return shipped(text, path) if path.startswith("rules/") else real(text, path)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler, "parse", parse)
        yield


@pytest.fixture(scope="module")
def sandboxes(tmp_path_factory):
    """rules file -> (root, designer text): a project holding the shipped rules without that file."""
    base = tmp_path_factory.mktemp("sandboxes")
    return functools.partial(_sandbox, base)


_SANDBOXES: dict[str, tuple[Path, str, bool]] = {}


def _sandbox(base: Path, rel: str) -> tuple[Path, str, bool]:
    """A root holding the shipped rules without `rel`, the text of `rel` as a designer's file, and
    whether that unmutated text compiles there.

    The file's `package` line goes (it joins the designer's package, which sees every shipped one),
    and each shipped package gets a `use designer`, so that the rest of the rules still find what
    the file declares.
    """
    if rel in _SANDBOXES:
        return _SANDBOXES[rel]
    root = base / re.sub(r"\W", "_", rel)
    for f in RULES:
        dest = root / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if f != ROOT / rel:
            shutil.copy(f, dest)
        (dest.parent / "zz_designer.sgs").write_text("use designer\n", encoding="utf-8")
    text = _SOURCE_TEXT[rel]
    designer = root / "designer.sgs"
    designer.write_text(text, encoding="utf-8")
    clean = not build(extra=[designer], root=root).errors
    _SANDBOXES[rel] = (root, text, clean)
    return _SANDBOXES[rel]


def compile_designer(root: Path, text: str):
    path = root / "designer.sgs"
    path.write_text(text, encoding="utf-8")
    b = build(extra=[path], root=root)
    assert_well_formed(b)
    return b


# ---- (a) random text -------------------------------------------------------------------


def check_random(base: Path, text: str) -> None:
    path = base / "random.sgs"
    path.write_text(text, encoding="utf-8")
    b = build(extra=[path], root=ROOT)
    assert_well_formed(b)
    if not b.errors:
        src = generate(b.model, "designer", b.rel)
        compile(src, "<sgsdsl:designer>", "exec")


@fuzz_settings(60)
@given(text=st.one_of(SOUP, SKELETON_TEXT, st.text(max_size=60)))
def test_random_text_gives_diagnostics(tmp_path_factory, text):
    check_random(tmp_path_factory.getbasetemp(), text)


@fuzz_settings(30)
@given(text=st.one_of(DEEP, BIG_NUMBER))
def test_extreme_text_gives_diagnostics(tmp_path_factory, text):
    check_random(tmp_path_factory.getbasetemp(), text)


# ---- (b), (c) mutations of the shipped rules ------------------------------------------------

IDENT = re.compile(r"[^\W\d]\w*")


def mutate(draw, rel: str, gentle: bool = False) -> str:
    text = _SOURCE_TEXT[rel]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(_mutation(text, gentle))
    return text


_SOURCE_TEXT = {f.relative_to(ROOT).as_posix(): re.sub(r"^package .*$", "", f.read_text(encoding="utf-8"), flags=re.M)
                for f in RULES}


def _mutation(text: str, gentle: bool):
    lines = text.split("\n")
    n = len(text)

    @st.composite
    def delete_span(draw):
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, min(n, a + 40)))
        return text[:a] + text[b:]

    @st.composite
    def duplicate_line(draw):
        i = draw(st.integers(0, len(lines) - 1))
        return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])

    @st.composite
    def swap_lines(draw):
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        ls = list(lines)
        ls[i], ls[j] = ls[j], ls[i]
        return "\n".join(ls)

    idents = list(IDENT.finditer(text))

    @st.composite
    def replace_ident(draw):
        if not idents:
            return text
        m = draw(st.sampled_from(idents))
        pool = sorted({x.group() for x in idents}) if gentle else NAMES + KEYWORDS
        new = draw(st.sampled_from(pool)) if gentle or draw(st.booleans()) else draw(
            st.one_of(st.text(max_size=6), st.sampled_from(PUNCT)))
        return text[:m.start()] + new + text[m.end():]

    @st.composite
    def truncate(draw):
        return text[:draw(st.integers(0, n))]

    if gentle:
        return st.one_of(replace_ident(), duplicate_line(), swap_lines())
    return st.one_of(delete_span(), duplicate_line(), swap_lines(), replace_ident(), truncate())


@fuzz_settings(60)
@given(data=st.data())
def test_mutated_rules_give_diagnostics(sandboxes, data):
    rel = data.draw(st.sampled_from(sorted(_SOURCE_TEXT)), label="file")
    root, _, _ = sandboxes(rel)
    compile_designer(root, mutate(data.draw, rel))


@fuzz_settings(60)
@given(data=st.data())
def test_mutated_rules_that_compile_give_valid_python(sandboxes, data):
    clean = [rel for rel in sorted(_SOURCE_TEXT) if sandboxes(rel)[2]]
    rel = data.draw(st.sampled_from(clean), label="file")
    root, _, _ = sandboxes(rel)
    b = compile_designer(root, mutate(data.draw, rel, gentle=True))
    if b.errors:
        return
    for name, src in sources_of(b).items():
        compile(src, f"<sgsdsl:{name}>", "exec")


def test_unmutated_rules_compile_as_designer_files(sandboxes):
    """The sandboxes work: most shipped files compile as a designer's file, so (c) is not vacuous."""
    clean = [rel for rel in _SOURCE_TEXT if sandboxes(rel)[2]]
    assert len(clean) >= len(_SOURCE_TEXT) // 2, clean
