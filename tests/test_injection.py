"""House rule 6, tried hard: no rules text becomes code.

An injection corpus puts hostile text everywhere a designer can write text: strings (skill and
card texts, log lines, prompts, options, test titles, expected log lines, docs and titles of
events, windows, flows, enums, decks, modes, `allow` reasons), names (heroes, skills, cards,
marks, counters, locals, loop variables, event fields, enum items, ids), comments and file
paths. The payloads carry quotes, triple quotes, backslashes, jinja2 delimiters, `__import__`,
Python keywords and the generated module's own globals, bidi controls and lookalike letters.

Every file either is refused with diagnostics or compiles to valid Python whose syntax tree
calls nothing it should not; the accepted ones are loaded and their scenario tests run. No
payload ever runs: the canary file they all try to create never appears.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from conftest import shipped_parse_cache

from sgsdsl.lang import compiler
from sgsdsl.lang.diagnostics import render_all
from sgsdsl.lang.loader import shipped_tables
from sgsdsl.scenarios.runner import run_test, scenario_jobs

ROOT = Path(__file__).resolve().parent.parent
CANARY = Path("/tmp") / "sgsdsl_injection_canary"
RUN = f"__import__('os').system('touch {CANARY}')"
OPEN = f"open('{CANARY}', 'w').write('x')"

# Raw text: what the designer means the string to contain.
PAYLOADS = [
    RUN,
    f'"""; {RUN} #',
    f"'''; {RUN} #",
    f'"); {RUN}; ("',
    f"'); {OPEN}; ('",
    f"\\'); {RUN} #",
    "\\",
    "ends with a backslash \\",
    "\\\\\\",
    f"\n{RUN}\n",
    f"\r\n{OPEN}\r\n",
    f"{{{{ {RUN} }}}}",
    f"{{% import os %}}{{{{ os.system('touch {CANARY}') }}}}",
    "{# comment #} {{ g }} {% raw %}",
    f"{{{RUN}}}",
    "{self}{event}{g}{me}{ev}{T}{TABLES}",
    "\u202e" + RUN[::-1] + "\u202c",
    "\u2066" + RUN + "\u2069",
    "\u2028" + RUN + "\u2029",
    "ｅｖａｌ('1') ｅｘｅｃ __іmport__('os')",
    "\\N{LATIN SMALL LETTER A} \\x41 \\u0041 \\101",
    "# not a comment",
    "class def lambda None True import from return yield await",
]

# Names a rules file may write where a NAME goes: Python keywords, the generated module's globals,
# builtins, lookalikes (NFKC turns fullwidth letters into ascii in Python identifiers), bidi.
NAMES = ["class", "None", "lambda", "match", "g", "me", "ev", "T", "TABLES", "it", "self", "__builtins__",
         "__import__", "exec", "ｅｖａｌ", "еval", "a\u202eb", "ｇ", "v0", "Ev_damage"]


def rules_string(raw: str) -> str:
    """`raw` as a rules string literal (escapes for `\\`, `"` and line breaks)."""
    return '"' + raw.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def strings_file(s: str, interpolated: bool = True) -> str:
    """Every place a string goes, holding `s` (a rules string literal, escaped or not). Without
    `interpolated`, the log lines and prompts (where `{…}` is an expression) are left out."""
    q = s if interpolated else '"提问"'  # a prompt interpolates `{…}` like a log line
    text = f"""package injected {s}
enum heimingdan {s} {{ 甲 jia {s}, 乙 yi }}
event heievent {s} {{ note: text = {s} {s}  amount: int = 1 }}
window 黑窗 heichuang (heievent) {s}
flow 黑流程 heiliucheng (heievent) {s} {{ log {s} }}
quantity 黑量 heiliang (p: player): int = 1 {s}
mark 黑标记 heibiaoji {s}
card 黑牌 heipai basic {{ {s} target 1 effect {{ log {s} }} }}
deck 黑牌堆 heipaidui {s} {{ ♠A 黑牌 }}
hero 刺客 cike {{ {s} kingdom 群  hp 4  gender 男  skills 潜入 }}
skill 潜入 qianru locked {{
  {s}
  allow SGS301 {s}
  on 回合开始时 do {{
    log {s}
    if ask self {q} {{ draw(self, 1) }}
    let o = choose self {q} option from [{s}, "b"]
    let p = choose self {q} player from players
    log {s}
  }}
  test {s} {{
    seat 刺客
    seat 曹操
    decide 刺客: {s}
    expect log {s}
  }}
}}
"""
    if not interpolated:
        text = text.replace(f"expect log {s}", "").replace(f"log {s}", "")
    return text


NAME_PLACES = {
    "hero": "hero {n} cike {{ kingdom 群  hp 4  gender 男  skills 奸雄 }}",
    "skill": 'skill {n} qianru {{ "text" on 回合开始时 do {{ draw(self, 1) }} }}',
    "card": "card {n} heipai basic {{ target 1 effect {{ draw(self, 1) }} }}",
    "mark": "mark {n} heibiaoji",
    "counter": "skill 潜入 qianru {{ counter {n} per turn  on 回合开始时 do {{ draw(self, 1) }} }}",
    "local": "skill 潜入 qianru {{ on 回合开始时 do {{ let {n} = 1  draw(self, {n}) }} }}",
    "loop variable": "skill 潜入 qianru {{ on 回合开始时 do {{ for {n} in players {{ draw({n}, 1) }} }} }}",
    "event field": "event heievent {{ {n}: int = 1 }}",
    "enum item": "enum heimingdan {{ {n} }}",
    "ascii id": 'skill 潜入 {n} {{ "text" on 回合开始时 do {{ draw(self, 1) }} }}',
}

# Calls that generated code never makes; finding one means text became code. (A name such as `exec`
# may appear as an event field, hence a parameter: that is a validated id, not a call.)
FORBIDDEN_NAMES = {"__import__", "exec", "eval", "open", "compile", "os", "sys", "system", "globals", "locals",
                   "getattr", "setattr", "delattr", "vars", "breakpoint", "input", "print", "__builtins__"}
FORBIDDEN_ATTRS = {"system", "popen", "__class__", "__subclasses__", "__globals__", "__builtins__", "__import__"}


@pytest.fixture(scope="module", autouse=True)
def fast_shipped():
    with shipped_parse_cache():
        yield


@pytest.fixture(autouse=True)
def no_canary():
    CANARY.unlink(missing_ok=True)
    yield
    assert not CANARY.exists(), "a payload ran"


def judge(tmp_path: Path, text: str, name: str = "injected.sgs") -> str:
    """'refused' or 'accepted'; fails the test if text became code."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    b = compiler.build(extra=[path], root=ROOT)
    render_all(b.diagnostics, b.sources)
    if b.errors:
        return "refused"
    mods = []
    for pkg, p in b.model.packages.items():
        if p.shipped:
            continue
        src = compiler.generate(b.model, pkg, b.rel)
        assert_only_data(ast.parse(src))  # valid Python, or this raises
        mods.append(compiler.load_module(pkg, src, f"<sgsdsl:{pkg}>"))
    tables = shipped_tables() + [m.TABLES for m in mods]
    for r, t in scenario_jobs(tables):
        if t.loc.startswith(str(tmp_path)):
            run_test(r, t)
    return "accepted"


def assert_only_data(tree: ast.AST) -> None:
    """The generated module calls nothing that rules text could have put there."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            assert not (isinstance(f, ast.Name) and f.id in FORBIDDEN_NAMES), ast.unparse(node)
            assert not (isinstance(f, ast.Attribute) and f.attr in FORBIDDEN_ATTRS), ast.unparse(node)
        assert not (isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr != "__init__"), \
            ast.unparse(node)
        assert not isinstance(node, (ast.Import, ast.ImportFrom)) or node.lineno < 20, ast.unparse(node)


@pytest.mark.parametrize("k", range(len(PAYLOADS)), ids=[repr(p)[:40] for p in PAYLOADS])
def test_hostile_strings(tmp_path, k):
    """Each payload, escaped as a valid rules string, in every place a string goes: accepted (the
    text stays data) or refused; and written raw, unescaped, where it breaks out of the string."""
    raw = PAYLOADS[k]
    verdict = judge(tmp_path, strings_file(rules_string(raw)))
    if "{" not in raw:  # `{…}` in a log line is an expression: refused unless it is one
        assert verdict == "accepted", raw
    assert judge(tmp_path, strings_file(rules_string(raw), interpolated=False), "plain.sgs") == "accepted"
    judge(tmp_path, strings_file('"' + raw + '"'), "raw.sgs")


def test_a_hostile_string_survives_as_data(tmp_path):
    """The accepted text is kept exactly: the log line and the skill text hold the payload."""
    raw = f'"""; {RUN} #'
    path = tmp_path / "data.sgs"
    path.write_text(strings_file(rules_string(raw)), encoding="utf-8")
    b = compiler.build(extra=[path], root=ROOT)
    assert not b.errors, render_all(b.errors, b.sources)
    mods = compiler.modules_in_memory(b)
    designer = next(m for m in mods if m.TABLES.package == "injected")
    skill = next(s for s in designer.TABLES.skills if s.id == "qianru")
    assert skill.text == raw
    jobs = [(r, t) for r, t in scenario_jobs([m.TABLES for m in mods]) if t.title == raw]
    result = run_test(*jobs[0])
    assert any(raw in line for line in result.log.lines)


@pytest.mark.parametrize("place,name", list(itertools.product(NAME_PLACES, NAMES)),
                         ids=[f"{p}-{n!r}" for p, n in itertools.product(NAME_PLACES, NAMES)])
def test_hostile_names(tmp_path, place, name):
    judge(tmp_path, NAME_PLACES[place].format(n=name))


def test_hostile_comments(tmp_path):
    text = "".join(f"# {p}\n" for p in PAYLOADS if "\n" not in p and "\r" not in p and "\u2028" not in p)
    text += 'skill 潜入 qianru { "x" on 回合开始时 do { draw(self, 1) } }  # ' + RUN + "\n"
    assert judge(tmp_path, text) == "accepted"


def test_the_shipped_hostile_file(tmp_path):
    assert judge(tmp_path, (ROOT / "tests" / "data" / "hostile.sgs").read_text(encoding="utf-8")) == "accepted"


@pytest.mark.parametrize("folder", ['C:\\Users\\"""', "''' + __import__('os')", "{{ g }}", "\u202ename"])
def test_hostile_paths(tmp_path, folder):
    """The designer's file path is quoted in the generated module (docstring, locations)."""
    d = tmp_path / folder
    d.mkdir()
    assert judge(d, 'skill 潜入 qianru { "x" on 回合开始时 do { while self.hp > 99 { draw(self, 1) } } }') == "accepted"
