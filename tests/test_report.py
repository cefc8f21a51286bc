"""The HTML report: one self-contained page from `simulate --json`, and its usage errors."""

import json
import re
import sys

import plotly.offline
import pytest
from click.testing import CliRunner

from sgsdsl.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "results.json"
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "12", "--seed", "5", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    path.write_text(r.stdout, encoding="utf-8")
    return path


def test_report_is_one_self_contained_page(results, tmp_path):
    out = tmp_path / "report.html"
    r = run("report", str(results), "-o", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    bundle = plotly.offline.get_plotlyjs()
    assert page.count(bundle) == 1  # plotly.js is inlined, once
    rest = page.replace(bundle, "")
    assert not re.search(r"<(script|link|img)[^>]*(src|href)=", rest)  # nothing is fetched: no network needed
    assert page.count("Plotly.newPlot(") == 4  # identities, the featured rates, the deltas, game lengths
    for div in ("chart-identities", "chart-rates-0", "chart-delta-0", "chart-turns"):
        assert f'id="{div}"' in page
    data = json.loads(results.read_text(encoding="utf-8"))
    assert "锁定技，当你受到【杀】造成的伤害后" in page and data["command"] in page
    assert data["featured"][0]["rows"][-1]["verdict"] in page
    # the same results give the same page
    again = tmp_path / "again.html"
    run("report", str(results), "-o", str(again))
    assert again.read_text(encoding="utf-8") == page


def test_simulate_html_writes_the_same_page(results, tmp_path):
    out = tmp_path / "sim.html"
    r = run("simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "12", "--seed", "5", "--quiet",
            "--html", str(out))
    assert r.exit_code == 0, r.output
    ref = tmp_path / "ref.html"
    run("report", str(results), "-o", str(ref))
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")


def test_report_rejects_what_is_not_a_simulate_result(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": 3}', encoding="utf-8")
    r = run("report", str(bad), "-o", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "not the output of `sgsdsl simulate --json`" in r.output
    bad.write_text("{", encoding="utf-8")
    assert run("report", str(bad), "-o", str(tmp_path / "x.html")).exit_code == 2
    assert run("report", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.html")).exit_code == 2


def test_a_missing_extra_says_how_to_install_it(results, tmp_path, monkeypatch):
    for name in {"plotly", "statsmodels"} | {m for m in sys.modules if m.split(".")[0] in ("plotly", "statsmodels")}:
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails
    r = run("report", str(results), "-o", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "pip install 'sgsdsl[report]'" in r.output
    r = run("simulate", "--games", "2", "--quiet", "--html", str(tmp_path / "y.html"))
    assert r.exit_code == 2 and "pip install 'sgsdsl[report]'" in r.output
    r = run("simulate", "--games", "2", "--quiet", "--hero", "关羽")
    assert r.exit_code == 2 and "needs statsmodels" in r.output
    assert run("simulate", "--games", "2", "--quiet").exit_code == 0  # plain figures need neither


# ---- a results file of the wrong shape: one error naming the place, never a traceback --------------------


def _sites(doc, path=()):
    """Every place in a JSON document, (path, value); of a list, its first two items."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _sites(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:2]):
            yield from _sites(v, path + (i,))


def _changed(doc, path, new):
    import copy

    out = copy.deepcopy(doc)
    at = out
    for p in path[:-1]:
        at = at[p]
    if new is ...:
        del at[path[-1]]
    else:
        at[path[-1]] = new
    return out


def _mutants(doc):
    """Each place of the document deleted, or given a value of another kind: (path, the document's text).
    Made in place and put back, the document is not copied thousands of times."""
    for path, value in list(_sites(doc)):
        if not path:
            continue
        at = doc
        for p in path[:-1]:
            at = at[p]
        key = path[-1]
        for new in (..., "x", -1, 1.5, None, [], {}, True, [[1]]):
            if new is not ... and type(new) is type(value):
                continue
            if new is ...:
                if not isinstance(key, str):
                    continue
                del at[key]
            else:
                at[key] = new
            yield path, json.dumps(doc, ensure_ascii=False)
            at[key] = value
        if isinstance(at, dict):  # put back in its place: the order of the fields is kept
            rest = {k: at.pop(k) for k in list(at)[list(at).index(key) + 1:]}
            at.update(rest)


def test_the_small_validator_agrees_with_jsonschema(results):
    """sim/schema.py checks the keywords the shipped schema uses as jsonschema does: the same verdict on
    every single-site change of a real results file."""
    import jsonschema

    from sgsdsl.sim.schema import first_error, load

    schema = load()
    ref = jsonschema.Draft202012Validator(schema)
    doc = json.loads(results.read_text(encoding="utf-8"))
    assert first_error(doc, schema) is None
    seen = bad = 0
    for path, text in list(_mutants(doc))[::5]:  # a fifth of them: each takes a walk of the whole document
        mutant = json.loads(text)
        ours = first_error(mutant, schema)
        theirs = next(iter(ref.iter_errors(mutant)), None)
        assert (ours is None) == (theirs is None), (path, ours, theirs and theirs.message)
        seen += 1
        bad += ours is not None
    assert seen > 300 and bad > 200  # the changes reach every part of the schema, and most are refused


@pytest.mark.parametrize("change,words", [
    ((("games",), "many"), ['at .games: "many" is not integer']),
    ((("identities", "lord", "rate"), 1.5), ["at .identities.lord.rate: 1.5 is more than 1"]),
    ((("featured", 0, "rows"), []), ["at .featured[0].rows: 0 items, fewer than 1"]),
    ((("turns", 0), "12"), ['at .turns[0]: "12" is not array']),
    ((("heroes",), ...), ['the field "heroes" is missing']),
    ((("skills", 0, "per_game"), None), ["at .skills[0].per_game"]),
    ((("errors",), [1]), ["at .errors[0]: 1 is not string"]),
])
def test_report_of_the_wrong_shape_says_where(results, tmp_path, change, words):
    path, new = change
    doc = _changed(json.loads(results.read_text(encoding="utf-8")), path, new)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    r = run("report", str(bad), "-o", str(tmp_path / "r.html"))
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    assert not (tmp_path / "r.html").exists()


def test_every_single_site_change_is_drawn_or_refused(results, tmp_path):
    """No change of a results file ends in a traceback: what the schema allows is drawn, the rest refused."""
    from sgsdsl.sim.htmlreport import report_command
    from sgsdsl.sim.schema import first_error

    doc = json.loads(results.read_text(encoding="utf-8"))
    mutants = list(_mutants(doc))[::3]
    verdicts = [first_error(json.loads(m)) is None for _, m in mutants]
    allowed = [m for m, ok in zip(mutants, verdicts) if ok]
    refused = [m for m, ok in zip(mutants, verdicts) if not ok]
    assert len(allowed) > 10
    drawn = allowed[::len(allowed) // 6]  # a page takes a second to draw: a few here, the fuzz profile has more
    for k, (path, text) in enumerate(drawn + refused[::10]):
        f = tmp_path / f"m{k}.json"
        f.write_text(text, encoding="utf-8")
        assert report_command(f, tmp_path / f"m{k}.html") == (0 if k < len(drawn) else 2), path
