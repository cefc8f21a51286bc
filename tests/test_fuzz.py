"""Fuzzing the compiler (the fast profile): bad input gets diagnostics, never a traceback.

(a) random text, grammar-aware text and extremes, (b) mutations of the shipped rules compiled
as a designer's file (token edits drawn by hypothesis, byte and token mutants), (c) mutated
files that compile cleanly also give Python that compiles. The inputs and the oracle are in
sgsdsl/tools/fuzz.py; bench/fuzz.py runs the long profile (about 100,000 inputs, each under a timeout).

The shipped rules are parsed once per process (sgsdsl/lang/parsecache.py), so the examples spend their
time on the text under test. The tests that compile a whole mutated rules file run a third of
their examples by default (the default suite stays within two minutes); SGSDSL_SLOW=1 runs them
all and adds the largest extremes (files of several hundred KB, seconds each).
SGSDSL_FUZZ_SCALE=10 runs ten times as many examples; SGSDSL_FUZZ_RANDOM=1 draws them from a fresh
seed instead of the fixed one CI uses.
"""

from __future__ import annotations

import functools
import keyword
import os
import random
import re
from pathlib import Path

import pytest
from conftest import shipped_parse_cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgsdsl.lang.codegen import generate
from sgsdsl.lang.compiler import build, sources_of
from sgsdsl.lang.diagnostics import render_all
from sgsdsl.tools import fuzz
from sgsdsl.tools.fuzz import EXPR_AT, KEYWORDS, LOG_AT, NAMES, NESTERS, PUNCT, SOURCE_TEXT, STMT_AT

ROOT = Path(__file__).resolve().parent.parent
SCALE = int(os.environ.get("SGSDSL_FUZZ_SCALE", "1"))
RANDOM = bool(os.environ.get("SGSDSL_FUZZ_RANDOM"))
SLOW = bool(os.environ.get("SGSDSL_SLOW"))
TEXT = fuzz.text_strategies()


def fuzz_settings(n: int, share: int = 1):
    """n examples (times SCALE); a test that compiles whole files runs n // share of them unless SLOW."""
    return settings(max_examples=(n if SLOW else max(1, n // share)) * SCALE, deadline=None, derandomize=not RANDOM, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- checks --------------------------------------------------------------------------


def assert_well_formed(b) -> None:
    assert fuzz.malformed(b) is None, fuzz.malformed(b)
    assert all(d.severity in ("error", "warning") for d in b.diagnostics)


def assert_judged_ok(v: fuzz.Verdict) -> None:
    assert v.ok, f"{v.kind}: {v.detail}"


@pytest.fixture(scope="module", autouse=True)
def fast_shipped():
    with shipped_parse_cache():
        yield


@pytest.fixture(scope="module")
def sandboxes(tmp_path_factory):
    """rules file -> fuzz.Sandbox: a project holding the shipped rules without that file."""
    base = tmp_path_factory.mktemp("sandboxes")
    return functools.partial(_sandbox, base)


_SANDBOXES: dict[str, fuzz.Sandbox] = {}


def _sandbox(base: Path, rel: str) -> fuzz.Sandbox:
    if rel not in _SANDBOXES:
        _SANDBOXES[rel] = fuzz.sandbox(base, rel)
    return _SANDBOXES[rel]


def compile_designer(root: Path, text: str):
    path = root / "designer.sgs"
    path.write_text(text, encoding="utf-8")
    b = build(extra=[path], root=root)
    assert_well_formed(b)
    return b


# ---- (a) random text, grammar-aware text, extremes ------------------------------------------------


def check_random(base: Path, text: str) -> None:
    assert_judged_ok(fuzz.judge(ROOT, base / "random.sgs", text.encode("utf-8", "surrogatepass")))


@fuzz_settings(400)
@given(text=TEXT["soup"])
def test_random_text_gives_diagnostics(tmp_path_factory, text):
    check_random(tmp_path_factory.getbasetemp(), text)


@fuzz_settings(100)
@given(text=st.one_of(TEXT["deep"], TEXT["numbers"]))
def test_extreme_text_gives_diagnostics(tmp_path_factory, text):
    check_random(tmp_path_factory.getbasetemp(), text)


@fuzz_settings(100)
@given(text=TEXT["grammar"])
def test_grammar_text_gives_diagnostics_or_valid_python(tmp_path_factory, text):
    """Text expanded from the grammar itself: it parses, so it reaches resolution, types and codegen."""
    check_random(tmp_path_factory.getbasetemp(), text)


def test_grammar_text_parses(tmp_path_factory):
    """The grammar-aware strategy is what it says: its text gets past the parser."""
    from sgsdsl.lang.parser import lark_parser

    seen = []

    @fuzz_settings(60)
    @given(text=TEXT["grammar"])
    def collect(text):
        seen.append(text)

    collect()
    for text in seen:
        lark_parser().parse(text, start="start")
    assert len(set(seen)) > 30


EXTREMES = fuzz.extremes()
BIG = 100_000  # bytes: the larger extremes take seconds each and run with SGSDSL_SLOW=1 (and in bench/fuzz.py)


@pytest.mark.parametrize("name,data", [pytest.param(n, d, marks=pytest.mark.skipif(
    len(d) > BIG and not SLOW, reason="large: SGSDSL_SLOW=1")) for n, d in EXTREMES], ids=[n for n, _ in EXTREMES])
def test_extremes(tmp_path, name, data):
    """Size, depth, long lines, huge literals, NUL, invalid UTF-8, BOM, CRLF, full-width punctuation:
    located diagnostics or valid Python, never a traceback or a hang."""
    assert_judged_ok(fuzz.judge(ROOT, tmp_path / "extreme.sgs", data, limit=120))


def test_the_extremes_that_must_be_refused_are(tmp_path):
    """The limits the language documents: each of these is a located error, not a compile that
    merely happens to survive."""
    must = {"a list of 1,000,000 items": "SGS005", "a file just over the size limit": "SGS005",
            "a list of 1,001 items": "SGS001", "a 4,301-digit number": "SGS004", "a 4,300-digit number": "SGS004",
            "one past the largest number": "SGS004", "hp 100": "SGS004", "hp 0": "SGS004",
            "weapon range 0": "SGS004", "players 0..1000": "SGS004", "turns 1001": "SGS004",
            "a bad escape inside a log interpolation": "SGS004", "a NUL byte in a string": "SGS004",
            "invalid UTF-8": "SGS005", "a BOM": "SGS002", "full-width punctuation": "SGS002",
            "a lone surrogate escape": "SGS004",  # once accepted, then explain, simulate --json and test crashed
            "1000 levels of (": None, "65 levels of -": "SGS001", "a 5,000-digit number in a log": "SGS004"}
    data = dict(EXTREMES)
    for name, code in must.items():
        v = fuzz.judge(ROOT, tmp_path / "x.sgs", data[name])
        assert v.kind == ("diagnosed" if code else "accepted") and (code is None or code in v.codes), (name, v)


# ---- (b), (c) mutations of the shipped rules ------------------------------------------------

IDENT = re.compile(r"[^\W\d]\w*")


def mutate(draw, rel: str, gentle: bool = False) -> str:
    text = SOURCE_TEXT[rel]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(_mutation(text, gentle))
    return text


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


@fuzz_settings(200, share=3)
@given(data=st.data())
def test_mutated_rules_give_diagnostics(sandboxes, data):
    rel = data.draw(st.sampled_from(sorted(SOURCE_TEXT)), label="file")
    compile_designer(sandboxes(rel).root, mutate(data.draw, rel))


@fuzz_settings(80, share=3)
@given(data=st.data())
def test_mutated_rules_that_compile_give_valid_python(sandboxes, data):
    clean = [rel for rel in sorted(SOURCE_TEXT) if sandboxes(rel).clean]
    rel = data.draw(st.sampled_from(clean), label="file")
    b = compile_designer(sandboxes(rel).root, mutate(data.draw, rel, gentle=True))
    if b.errors:
        return
    for name, src in sources_of(b).items():
        compile(src, f"<sgsdsl:{name}>", "exec")


@fuzz_settings(150, share=3)
@given(rel=st.sampled_from(sorted(SOURCE_TEXT)), seed=st.integers(0, 2**32), kind=st.sampled_from(["bytes", "tokens"]))
def test_byte_and_token_mutants_give_diagnostics(sandboxes, tmp_path_factory, rel, seed, kind):
    """The mutations of the long profile: random byte edits (invalid UTF-8, NUL, control bytes) and
    token edits, each as a designer's file beside the rest of the shipped rules."""
    rng = random.Random(seed)
    data = (fuzz.byte_mutant(rng, SOURCE_TEXT[rel].encode("utf-8")) if kind == "bytes"
            else fuzz.token_mutant(rng, SOURCE_TEXT[rel]).encode("utf-8", "surrogatepass"))
    assert_judged_ok(fuzz.judge(sandboxes(rel).root, sandboxes(rel).root / "designer.sgs", data))


def test_unmutated_rules_compile_as_designer_files(sandboxes):
    """The sandboxes work: most shipped files compile as a designer's file, so (c) is not vacuous."""
    clean = [rel for rel in SOURCE_TEXT if sandboxes(rel).clean]
    assert len(clean) >= len(SOURCE_TEXT) // 2, clean


# ---- regressions: inputs that once crashed the compiler ------------------------------------------

REGRESSIONS = {
    # RecursionError in the tree transformer (nested blocks) and the type checker (a long chain).
    "nested_ifs": (STMT_AT.format("if true { " * 300 + "draw(self, 1)" + " }" * 300), "SGS001"),
    "long_sum": (EXPR_AT.format("+".join(["1"] * 3000)), "SGS001"),
    # Checked cleanly, then the generated Python broke Python's limit of 200 nested brackets.
    "nested_minus": (EXPR_AT.format("-" * 300 + "1"), "SGS001"),
    "nested_lists": (EXPR_AT.format("[" * 300 + "]" * 300), "SGS001"),
    # OverflowError: float() of a long hp; now past the documented range of a hero's hp.
    "long_hp": ("hero 测试 ceshi { kingdom 魏 hp " + "9" * 400 + ".5 gender 男 skills 奸雄 }", "SGS004"),
    # ValueError text from int() as the message, at the declaration instead of the number.
    "huge_number": (STMT_AT.format("draw(self, " + "9" * 5000 + ")"), "SGS004"),
    # A line separator in a comment shifted the quoted source line (the parser counts only \n).
    "line_separator": ("skill 测试 ceshi {\n # a\u2028b\n on 回合开始时 do { drow(self, 1) } }", "SGS113"),
    # The warning filters decided whether an unknown escape compiled.
    "unknown_escape": (STMT_AT.format('log "a\\qb"'), None),
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


# Compiled cleanly, then `sgsdsl check` (the conflict checks) broke. Found by bench/fuzz.py.
CHECK_REGRESSIONS = {
    # KeyError in the hero pools per mode: a designer's file that declares a mode and calls itself a variant.
    "variant_mode": 'event hbc203_ { } mode aimed_by_source i "文本" { } package A "文本" variant '
                    'package A "文本" variant',
}


@pytest.mark.parametrize("name", sorted(CHECK_REGRESSIONS))
def test_check_regression(tmp_path, name):
    assert_judged_ok(fuzz.judge(ROOT, tmp_path / f"{name}.sgs", CHECK_REGRESSIONS[name].encode(), checks=True))


def test_unknown_escape_compiles_under_any_warning_filter(tmp_path):
    import warnings

    path = tmp_path / "escape.sgs"
    path.write_text(REGRESSIONS["unknown_escape"][0], encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not build(extra=[path], root=ROOT).errors


@pytest.mark.parametrize("where,prefix,inner,suffix", NESTERS,
                         ids=[("log " if w is LOG_AT else "") + f"{p}{i}{s}".strip() for w, p, i, s in NESTERS])
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
    "loops_17_deep": STMT_AT.format("for p in players { " * 17 + "draw(p, 1)" + " }" * 17),
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
    path.write_text(STMT_AT.format("draw(self, 1)"), encoding="utf-8")
    b = build(extra=[path], root=ROOT)
    assert not b.errors
    src = generate(b.model, "designer", b.rel)
    compile(src, "<sgsdsl:designer>", "exec")


# ---- the other inputs (sgsdsl/tools/fuzz_surfaces.py): report JSON, replay headers, options, new hero, LSP ----

SURFACE_EXAMPLES = {"report": 6, "replay": 12, "options": 150, "scaffold": 40, "lsp": 150}


@pytest.fixture(scope="module")
def surfaces(tmp_path_factory):
    from sgsdsl.tools.fuzz_surfaces import Surfaces

    return Surfaces(tmp_path_factory.mktemp("surfaces"))


@pytest.mark.parametrize("surface", sorted(SURFACE_EXAMPLES))
def test_other_inputs_give_an_error_or_work(surfaces, surface):
    """Random edits of a results file and of a log's header, random --option texts, arguments of `new hero`
    and LSP frames: each is refused with an error or does what it should, never a traceback. bench/fuzz.py
    runs many more."""
    from sgsdsl.tools.fuzz_surfaces import JUDGES, scaffold

    rng = random.Random(7 if not RANDOM else None)
    kinds = []
    for k in range(SURFACE_EXAMPLES[surface] * SCALE):
        if surface == "scaffold":  # a skeleton that is accepted compiles: a few of them, the rest judged only
            v = scaffold(surfaces, rng, compile_accepted=k < 4)
        else:
            v = JUDGES[surface](surfaces, rng)
        assert_judged_ok(v)
        kinds.append(v.kind)
    assert "diagnosed" in kinds, kinds  # the inputs reach the checks
