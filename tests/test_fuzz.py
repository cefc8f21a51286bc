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
import keyword
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import shipped_parse_cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
_LOG_AT = 'skill 测试 ceshi {{ on 回合开始时 do {{ log "x={{{0}}}" }} }}'
NESTERS = [  # (where, prefix, inner, suffix): prefix * n + inner + suffix * n
    (_EXPR_AT, "(", "1", ")"), (_EXPR_AT, "-", "1", ""), (_EXPR_AT, "not ", "true", ""),
    (_EXPR_AT, "[", "1", "]"), (_EXPR_AT, "reverse(", "[self]", ")"), (_EXPR_AT, "1 + ", "1", ""),
    (_EXPR_AT, "", "self", ".next"), (_EXPR_AT, "if true then 1 else ", "2", ""),
    (_EXPR_AT, "count(players where ", "true", ") > 0"), (_EXPR_AT, "(choose self player where it == ", "self", ")"),
    (_STMT_AT, "if true { ", "draw(self, 1)", " }"), (_STMT_AT, "for p in players { ", "draw(p, 1)", " }"),
    (_STMT_AT, "if false { } else ", "{ }", ""), (_LOG_AT, "-", "1", ""), (_LOG_AT, "reverse(", "[self]", ")"),
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


@pytest.fixture(scope="module", autouse=True)
def fast_shipped():
    with shipped_parse_cache():
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


@fuzz_settings(400)
@given(text=st.one_of(SOUP, SKELETON_TEXT, st.text(max_size=60)))
def test_random_text_gives_diagnostics(tmp_path_factory, text):
    check_random(tmp_path_factory.getbasetemp(), text)


@fuzz_settings(100)
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


# Names the generated Python reserves or uses itself: a rules name must never become one of them.
RISKY = {k for k in keyword.kwlist if k.islower()} | {"self", "g", "me", "ev", "T", "it", "card", "targets"}


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
        pool = sorted({x.group() for x in idents} | RISKY) if gentle else NAMES + KEYWORDS
        new = draw(st.sampled_from(pool)) if gentle or draw(st.booleans()) else draw(
            st.one_of(st.text(max_size=6), st.sampled_from(PUNCT)))
        return text[:m.start()] + new + text[m.end():]

    @st.composite
    def truncate(draw):
        return text[:draw(st.integers(0, n))]

    if gentle:
        return st.one_of(replace_ident(), duplicate_line(), swap_lines())
    return st.one_of(delete_span(), duplicate_line(), swap_lines(), replace_ident(), truncate())


@fuzz_settings(200)
@given(data=st.data())
def test_mutated_rules_give_diagnostics(sandboxes, data):
    rel = data.draw(st.sampled_from(sorted(_SOURCE_TEXT)), label="file")
    root, _, _ = sandboxes(rel)
    compile_designer(root, mutate(data.draw, rel))


@fuzz_settings(80)
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


# ---- regressions: inputs that once crashed the compiler ------------------------------------------

REGRESSIONS = {
    # RecursionError in the tree transformer (nested blocks) and the type checker (a long chain).
    "nested_ifs": (_STMT_AT.format("if true { " * 300 + "draw(self, 1)" + " }" * 300), "SGS001"),
    "long_sum": (_EXPR_AT.format("+".join(["1"] * 3000)), "SGS001"),
    # Checked cleanly, then the generated Python broke Python's limit of 200 nested brackets.
    "nested_minus": (_EXPR_AT.format("-" * 300 + "1"), "SGS001"),
    "nested_lists": (_EXPR_AT.format("[" * 300 + "]" * 300), "SGS001"),
    # OverflowError: float() of a long hp; now past the documented range of a hero's hp.
    "long_hp": ("hero 测试 ceshi { kingdom 魏 hp " + "9" * 400 + ".5 gender 男 skills 奸雄 }", "SGS004"),
    # ValueError text from int() as the message, at the declaration instead of the number.
    "huge_number": (_STMT_AT.format("draw(self, " + "9" * 5000 + ")"), "SGS004"),
    # A line separator in a comment shifted the quoted source line (the parser counts only \n).
    "line_separator": ("skill 测试 ceshi {\n # a\u2028b\n on 回合开始时 do { drow(self, 1) } }", "SGS113"),
    # The warning filters decided whether an unknown escape compiled.
    "unknown_escape": (_STMT_AT.format('log "a\\qb"'), None),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_regression(tmp_path, name):
    text, code = REGRESSIONS[name]
    path = tmp_path / f"{name}.sgs"
    path.write_text(text, encoding="utf-8")
    b = build(extra=[path], root=ROOT)
    assert_well_formed(b)
    assert [d.code for d in b.errors] == ([code] if code else []), render_all(b.diagnostics, b.sources)
    if name == "line_separator":
        assert "drow(self, 1)" in render_all(b.diagnostics, b.sources)
    if not code:
        compile(generate(b.model, "designer", b.rel), "<sgsdsl:designer>", "exec")


def test_unknown_escape_compiles_under_any_warning_filter(tmp_path):
    import warnings

    path = tmp_path / "escape.sgs"
    path.write_text(REGRESSIONS["unknown_escape"][0], encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not build(extra=[path], root=ROOT).errors


@pytest.mark.parametrize("where,prefix,inner,suffix", NESTERS,
                         ids=[("log " if w is _LOG_AT else "") + f"{p}{i}{s}".strip() for w, p, i, s in NESTERS])
def test_deepest_accepted_nesting_gives_valid_python(tmp_path, where, prefix, inner, suffix):
    """Nesting is either refused with a diagnostic or compiles, right up to the limit."""
    path = tmp_path / "deep.sgs"

    def attempt(n: int):
        path.write_text(where.format(prefix * n + inner + suffix * n), encoding="utf-8")
        b = build(extra=[path], root=ROOT)
        assert_well_formed(b)
        return b

    deepest = attempt(300)
    if not deepest.errors:  # a nesting the parser flattens, such as parentheses
        compile(generate(deepest.model, "designer", deepest.rel), "<sgsdsl:designer>", "exec")
        return
    assert [d.code for d in deepest.errors] == ["SGS001"]
    lo, hi = 1, 300  # the deepest accepted nesting lies in [lo, hi)
    if attempt(lo).errors:
        return  # a form that is wrong at any depth (checked above: no crash)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if not attempt(mid).errors else (lo, mid)
    b = attempt(lo)
    assert lo >= 10, f"only {lo} levels of {prefix!r} are accepted"
    compile(generate(b.model, "designer", b.rel), "<sgsdsl:designer>", "exec")


def test_unreadable_files_are_located(tmp_path):
    bad = tmp_path / "gbk.sgs"
    bad.write_bytes("# 注释\nskill 英才 yingcai {}\n".encode("gbk"))
    b = build(extra=[bad, tmp_path / "missing.sgs"], root=ROOT)
    assert_well_formed(b)
    assert [d.code for d in b.errors] == ["SGS005", "SGS005"]


# Checked cleanly, then the generated Python did not compile.
INVALID_PYTHON = {
    "keyword_field": "event ceshi { class: int }",
    "self_field": "event ceshi { self: int }",
    "twice_the_same_parameter": "quantity 测试量 ceshi_q(p: player, p: player): int = 1",
    "twice_the_same_pattern_name": "quantity 测试量 ceshi_q(p: player, q: player): int = 1\n"
                                   "skill 英才 yingcai { modify 测试量(x, x) += 1 }",
    "loops_17_deep": _STMT_AT.format("for p in players { " * 17 + "draw(p, 1)" + " }" * 17),
}


@pytest.mark.parametrize("name", sorted(INVALID_PYTHON))
def test_what_python_refuses_is_a_diagnostic(tmp_path, name):
    path = tmp_path / f"{name}.sgs"
    path.write_text(INVALID_PYTHON[name], encoding="utf-8")
    b = build(extra=[path], root=ROOT)
    assert_well_formed(b)
    assert len(b.errors) == 1, render_all(b.diagnostics, b.sources)


@pytest.mark.skipif(os.name == "nt", reason="such a folder name needs a POSIX file system")
def test_a_designer_path_with_backslashes_gives_valid_python(tmp_path):
    folder = tmp_path / 'C:\\Users\\"""'
    folder.mkdir()
    path = folder / "x.sgs"
    path.write_text(_STMT_AT.format("draw(self, 1)"), encoding="utf-8")
    b = build(extra=[path], root=ROOT)
    assert not b.errors
    src = generate(b.model, "designer", b.rel)
    compile(src, "<sgsdsl:designer>", "exec")
