"""The report of a batch as one self-contained HTML page (`simulate --html`, `sgsdsl report`).

Charts are plotly figures with plotly.js inlined once in the page, so the page needs no
network to be viewed. The page is made from the `simulate --json` object alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..lang.files import NotReadable, read_bytes, shown
from .balance import INSTALL, MissingExtra
from .skillstats import SHARED

RESULTS_BYTES = 64 * 1024 * 1024  # the largest results file `report` reads (a batch's JSON is well under 1 MB)


def _plotly():
    try:
        import plotly.graph_objects as go
        import plotly.offline
    except ImportError:
        raise MissingExtra(f"the HTML report draws its charts with plotly: {INSTALL}") from None
    return go, plotly.offline


def require() -> None:
    _plotly()


LAYOUT = {"template": "plotly_white", "height": 340, "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
          "font": {"family": "Noto Sans CJK SC, Noto Sans SC, Microsoft YaHei, sans-serif"}}


def _div(fig, div_id: str) -> str:
    # a fixed div id keeps the page the same from one run to the next
    return fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                       config={"displaylogo": False, "responsive": True})


def _rate_bars(go, names, rows, name: str, color: str):
    return go.Bar(x=names, y=[r["rate"] * 100 for r in rows], name=name, marker_color=color,
                  error_y={"type": "data", "symmetric": False,
                           "array": [(r["ci95"][1] - r["rate"]) * 100 for r in rows],
                           "arrayminus": [(r["rate"] - r["ci95"][0]) * 100 for r in rows]},
                  hovertemplate="%{x}: %{y:.1f}%<extra>" + name + "</extra>")


def charts(s: dict) -> dict[str, str]:
    go, _ = _plotly()
    out = {}
    idents = list(s["identities"].values())
    fig = go.Figure(_rate_bars(go, [f"{r['name']}" for r in idents], idents, "win rate", "#4c78a8"))
    fig.update_layout(title=f"win rate per {s.get('side', 'identity')} (95% interval)", yaxis_title="% of games won", **LAYOUT)
    out["identities"] = _div(fig, "chart-identities")
    for n, f in enumerate(s["featured"]):
        rows = f["rows"]
        names = [r["name"] for r in rows]
        fig = go.Figure([_rate_bars(go, names, [r["featured"] for r in rows], f["name"], "#e45756"),
                         _rate_bars(go, names, [r["control"] for r in rows], "control", "#9d9d9d")])
        fig.update_layout(title=f"{f['name']} and the control, per {s.get('side', 'identity')} of its seat", barmode="group",
                          yaxis_title="% of games won", **LAYOUT)
        out[f"rates-{n}"] = _div(fig, f"chart-rates-{n}")
        known = [r for r in rows if r["delta"] is not None and r["ci95"] is not None]
        fig = go.Figure(go.Scatter(
            x=[r["delta"] * 100 for r in known], y=[r["name"] for r in known], mode="markers",
            marker={"size": 11, "color": ["#e45756" if not r["ci95"][0] <= 0 <= r["ci95"][1] else "#4c78a8"
                                          for r in known]},
            error_x={"type": "data", "symmetric": False,
                     "array": [(r["ci95"][1] - r["delta"]) * 100 for r in known],
                     "arrayminus": [(r["delta"] - r["ci95"][0]) * 100 for r in known]},
            customdata=[[r["p_value"]] for r in known],
            hovertemplate="%{y}: %{x:+.1f} points, p = %{customdata[0]:.2g}<extra></extra>"))
        fig.add_vline(x=0, line_color="#888", line_dash="dot")
        fig.update_layout(title=f"{f['name']}: change in win rate against the control (95% interval)",
                          xaxis_title="percentage points", yaxis={"autorange": "reversed"}, **LAYOUT)
        out[f"delta-{n}"] = _div(fig, f"chart-delta-{n}")
    turns = s["turns"]
    fig = go.Figure(go.Histogram(x=[t for t, _ in turns], y=[c for _, c in turns], histfunc="sum",
                                 xbins={"size": 5}, marker_color="#72b7b2",
                                 hovertemplate="%{x} turns: %{y} games<extra></extra>"))
    fig.update_layout(title=f"game length (average {s['avg_turns']:.1f} turns)", xaxis_title="turns",
                      yaxis_title="games", bargap=0.05, **LAYOUT)
    out["turns"] = _div(fig, "chart-turns")
    return out


def render(s: dict) -> str:
    import jinja2

    _, offline = _plotly()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda x: "" if x is None else f"{x * 100:.1f}%"
    env.filters["pts"] = lambda x: "" if x is None else f"{x * 100:+.1f}"
    env.filters["num"] = lambda x: "·" if not x else (f"{x:.2f}" if isinstance(x, float) else str(x))
    return env.get_template("report.html.j2").render(s=s, charts=charts(s), plotly_js=offline.get_plotlyjs(),
                                                     effects=("drawn", "gained", "damage", "prevented", "recovered",
                                                              "kills"), recipient_effects=SHARED)


def write_html(s: dict, path: Path) -> None:
    path.write_text(render(s), encoding="utf-8")


def report_command(results: Path, output: Path) -> int:
    from .stats import SCHEMA

    try:
        s = json.loads(read_bytes(results, RESULTS_BYTES, "results file").decode("utf-8"))
    except NotReadable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # not UTF-8, not JSON
        print(f"error: {shown(results)} is not the output of `sgsdsl simulate --json`: {e}", file=sys.stderr)
        return 2
    if not isinstance(s, dict) or s.get("schema") != SCHEMA:
        print(f"error: {shown(results)} is not the output of `sgsdsl simulate --json` (schema {SCHEMA})",
              file=sys.stderr)
        return 2
    from .schema import first_error

    wrong = first_error(s)
    if wrong is not None:  # the shape the page is drawn from (simulate.schema.json): one error, not a traceback
        print(f"error: {shown(results)} is not the output of `sgsdsl simulate --json` ({SCHEMA}): {wrong}",
              file=sys.stderr)
        return 2
    try:
        write_html(s, output)
    except MissingExtra as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
        # a file of the schema's shape whose figures contradict each other (edited by hand): no page, one error
        print(f"error: {shown(results)} has the shape of `sgsdsl simulate --json` but its figures cannot be drawn "
              f"({e.__class__.__name__}: {e})", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: cannot write {output}: {e}", file=sys.stderr)
        return 2
    print(f"wrote {output}", file=sys.stderr)
    return 0
