"""The TextMate grammar and the Pygments lexer, held against the real lexer on every shipped file."""

import json
import re
from pathlib import Path

import pytest
from pygments import lex
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Error, Keyword, Name, Operator, String

from sgsdsl.tools.highlight import SgsLexer, tmlanguage, tmlanguage_json
from sgsdsl.tools.lexicon import lexicon, tokens

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(ROOT.glob("rules/**/*.sgs")) + sorted(ROOT.glob("examples/*.sgs"))
TM_FILE = ROOT / "editors" / "vscode" / "syntaxes" / "sgs.tmLanguage.json"


def tm_scopes(text: str, grammar: dict) -> list[str | None]:
    """A scope per character, as a TextMate engine assigns them: on each line, the pattern whose match starts
    earliest wins (the first listed on a tie), its captures name the scopes, and the search goes on after it."""
    pats = [(re.compile(p["match"]), p) for p in grammar["patterns"]]
    out: list[str | None] = []
    for line in text.split("\n"):
        scopes: list[str | None] = [None] * len(line)
        pos = 0
        while pos < len(line):
            best = None
            for rx, p in pats:
                m = rx.search(line, pos)
                if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                    best = (m, p)
            if best is None:
                break
            m, p = best
            if "name" in p:
                scopes[m.start():m.end()] = [p["name"]] * (m.end() - m.start())
            for i, cap in p.get("captures", {}).items():
                a, b = m.span(int(i))
                if a >= 0:
                    scopes[a:b] = [cap["name"]] * (b - a)
            pos = m.end()
        out += scopes + [None]
    return out


def pygments_types(text: str) -> list:
    out = []
    for typ, value in lex(text, SgsLexer()):
        out += [typ] * len(value)
    return out


@pytest.fixture(scope="module", params=SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def shipped(request):
    text = request.param.read_text(encoding="utf-8")
    return text, tokens(text)


def test_the_committed_textmate_grammar_is_generated():
    assert TM_FILE.read_text(encoding="utf-8") == tmlanguage_json(), "run `sgsdsl docs`"


def test_every_keyword_of_the_grammar_is_highlighted():
    grammar = tmlanguage()
    for word in lexicon().all:
        if word == "self":
            continue  # highlighted as the language's own name
        scopes = tm_scopes(f"x {word} y", grammar)
        assert (scopes[2] or "").split(".")[0] in ("keyword", "storage"), word
        assert dict(lex(f"x {word} y", SgsLexer())).keys() & {Keyword, Keyword.Declaration, Keyword.Pseudo,
                                                              Operator.Word}, word


def _check(text, toks, kind_of):
    """kind_of(offset) -> 'keyword' | 'string' | 'comment' | 'number' | 'entity' | 'property' | other."""
    lx = lexicon()
    for prev, t in zip([None, *toks], toks):
        k = kind_of(t.start)
        where = f"line {t.line} col {t.col}: {t.text!r} ({t.rule})"
        if t.type == "STRING":
            assert {kind_of(i) for i in range(t.start, t.end)} == {"string"}, where
        elif t.keyword and t.text != "self":
            assert k == "keyword", where
        elif t.type in ("INT", "HALF"):
            assert k == "number", where
        elif t.type == "NAME":
            assert k != "keyword" or t.text in lx.all, where
            before = text[:t.start].rstrip()
            if before.endswith(".") and not before.endswith(".."):
                assert k == "property", where
            if prev is not None and prev.text in lx.declarations and prev.rule == t.rule and \
                    t.rule in ("hero_decl", "skill_decl", "card_decl", "window_decl", "flow_decl"):
                assert k == "entity", where  # the name a declaration gives
    for m in re.finditer(r"#[^\n]*", text):
        inside_string = any(t.start <= m.start() < t.end for t in toks if t.type == "STRING")
        if not inside_string:
            assert {kind_of(i) for i in range(*m.span())} == {"comment"}, m.group()


def _tm_kind(scope):
    if scope is None:
        return None
    for prefix, kind in (("keyword.operator.word", "keyword"), ("keyword.operator", "operator"),
                         ("keyword", "keyword"), ("storage", "keyword"), ("string", "string"),
                         ("comment", "comment"), ("constant.numeric", "number"), ("entity", "entity"),
                         ("variable.other.property", "property")):
        if scope.startswith(prefix):
            return kind
    return scope


def test_textmate_grammar_agrees_with_the_lexer_on_every_shipped_file(shipped):
    text, toks = shipped
    scopes = tm_scopes(text, json.loads(tmlanguage_json()))
    _check(text, toks, lambda i: _tm_kind(scopes[i]))


def _pyg_kind(t):
    for typ, kind in ((Operator.Word, "keyword"), (Keyword, "keyword"), (String, "string"), (Comment, "comment"),
                      (Name.Class, "entity"), (Name.Attribute, "property")):
        if t in typ:
            return kind
    if "Number" in str(t):
        return "number"
    return str(t)


def test_pygments_lexer_agrees_with_the_lexer_on_every_shipped_file(shipped):
    text, toks = shipped
    pieces = list(lex(text, SgsLexer()))
    assert "".join(v for _, v in pieces).rstrip("\n") == text.rstrip("\n")
    assert not [v for t, v in pieces if t in Error]
    types = pygments_types(text)
    _check(text, toks, lambda i: _pyg_kind(types[i]))


def test_pygments_finds_the_lexer_through_its_entry_point():
    assert isinstance(get_lexer_by_name("sgs"), SgsLexer)


def test_the_vscode_extension_holds_together():
    import shutil
    import subprocess

    from sgsdsl.cli import main
    from sgsdsl.tools.lexicon import lexicon

    ext = ROOT / "editors" / "vscode"
    pkg = json.loads((ext / "package.json").read_text(encoding="utf-8"))
    lang = pkg["contributes"]["languages"][0]
    grammar = pkg["contributes"]["grammars"][0]
    assert lang["extensions"] == [".sgs"] and grammar["language"] == lang["id"]
    assert (ext / grammar["path"]).resolve() == TM_FILE and grammar["scopeName"] == tmlanguage()["scopeName"]
    assert pkg["activationEvents"] == [f"onLanguage:{lang['id']}"]
    command = pkg["contributes"]["configuration"]["properties"]["sgsdsl.command"]["default"]
    assert command[0] == "sgsdsl" and command[1] in main.commands
    conf = json.loads((ext / lang["configuration"]).read_text(encoding="utf-8"))
    assert re.match(lexicon().terminals["COMMENT"], conf["comments"]["lineComment"])
    if shutil.which("node"):
        assert subprocess.run(["node", "--check", str(ext / pkg["main"])]).returncode == 0


def test_a_negative_one_is_a_number_and_a_horse_kind_a_card():
    # `-1` read as a horse's kind (`horse -1`) everywhere once coloured `change_max_hp(who: self, delta: -1)`
    text = 'card 赤兔 chitu horse -1 { }\nskill 损 sun { active do { change_max_hp(who: self, delta: -1) } }\n'
    scopes = tm_scopes(text, json.loads(tmlanguage_json()))
    at = text.index("-1 {")
    assert scopes[at] == scopes[at + 1] == "constant.other.card.sgs"
    one = text.rindex("1)")
    assert scopes[one] == "constant.numeric.sgs" and scopes[one - 1] == "keyword.operator.sgs"
    types = pygments_types(text)
    assert "Number" in str(types[one]) and "Number" not in str(types[at + 1])
