"""The README's simulate figures, from real runs, with the date and the machine.

    nice -n 10 .venv/bin/python docs/figures.py                 # every block
    nice -n 10 .venv/bin/python docs/figures.py --only workers  # one block
    .venv/bin/python docs/figures.py --only simulate --games 200  # a quick look (README untouched)

Block `simulate` (the walk-through): `sgsdsl simulate examples/yanyan.sgs --hero 严颜 --games 2000
--seed 1 --workers 2 --html …`, its featured comparison and a few skill rows, and a screenshot of
the page in docs/report.png with Debian's chromium (when playwright and chromium are installed;
see tests/test_browser.py). Block `workers` (the benchmark section): 1,000 random games on one
worker and on two. Block `replay`: a 1v1 game logged by `simulate --log`, written as a page by `sgsdsl
replay --html`, and a screenshot of it in docs/replay.png at a step where a skill fires. Block `lines` (a hero in a dozen lines): rules lines per skill, by bench/lines.py. Each block is rewritten between `<!-- figures:NAME -->` and
`<!-- /figures:NAME -->` in README.md.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOWN_SKILLS = ("juzhan", "ganglie", "wusheng", "jianxiong", "renwang", "rende", "yingzi", "luoyi")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def commit() -> str | None:
    """The commit the figures were measured at (short; `+` when tracked files have changes), None outside git."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (rev + ("+" if dirty else "")) or None


def text_of(summary: dict) -> str:
    """The featured comparison and a few skill rows of the text output, as `simulate` prints them."""
    from rich.console import Console

    from sgsdsl.sim import summary as report

    buf = io.StringIO()
    report.print_summary(summary, Console(file=buf, width=118, highlight=False, color_system=None))
    lines = buf.getvalue().splitlines()
    out, keep = [], False
    for line in lines:
        if "against the control" in line:
            keep = True
        if keep:
            out.append(line)
        if keep and line.startswith(summary["featured"][0]["name"] + ":"):
            break
    names = [k["name"] for k in summary["skills"] if k["id"] in SHOWN_SKILLS]
    rows = [line for line in lines if any(line.startswith(f"│ {n} ") for n in names)]
    head = next(i for i, line in enumerate(lines) if "what each skill did" in line)
    return "\n".join(out + ["…"] + lines[head:head + 4] + rows)


def _page(html: Path, viewport: dict, ready: str, shoot) -> bool:
    """Open `html` in headless Chromium, wait for `ready`, and let `shoot(page)` take the picture; False (and
    why, on stderr) when playwright or chromium is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("no screenshot: pip install -e '.[test,browser]'", file=sys.stderr)
        return False
    if chromium is None:
        print("no screenshot: apt-get install -y chromium fonts-noto-cjk", file=sys.stderr)
        return False
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = b.new_page(viewport=viewport)
        page.goto(html.as_uri())
        page.wait_for_selector(ready)
        shoot(page)
        b.close()
    return True


def screenshot(html: Path, png: Path) -> bool:
    return _page(html, {"width": 1200, "height": 1000}, "#chart-turns .main-svg",
                 lambda page: page.screenshot(path=str(png), clip={"x": 0, "y": 0, "width": 1200, "height": 1250}))


def replay_shot(html: Path, png: Path) -> bool:
    """The replay page at the first step, past the middle of the game, where a skill fires: its rules shown."""
    def shoot(page) -> None:
        k = page.evaluate("S.findIndex((s, i) => i > S.length / 3 && s[1] && s[0].includes('发动'))")
        page.keyboard.press("Home")
        for _ in range(max(k, 0)):  # stepped with the arrow key, as a person would
            page.keyboard.press("ArrowRight")
        page.screenshot(path=str(png))

    return _page(html, {"width": 1400, "height": 860}, "#seats .seat", shoot)


def replay_block() -> str:
    args = ["--mode", "1v1", "--games", "1", "--seed", "3"]
    with tempfile.TemporaryDirectory() as tmp:
        log, html = Path(tmp) / "duel.jsonl", Path(tmp) / "replay.html"
        sgsdsl("simulate", *args, "--quiet", "--log", str(log))
        out = subprocess.run([str(Path(sys.executable).parent / "sgsdsl"), "replay", str(log), "--html", str(html),
                              "--seat", "1"], cwd=ROOT, capture_output=True, text=True, check=True).stderr.strip()
        size = html.stat().st_size
        shot = replay_shot(html, ROOT / "docs" / "replay.png")
    steps = re.search(r"(\d+) steps", out).group(1)
    text = (f"```sh\nsgsdsl simulate {' '.join(args)} --log duel.jsonl\n"
            f"sgsdsl replay duel.jsonl --html replay.html --seat 1\n```\n\n"
            f"That game's page has {steps} steps and weighs {size / 1024:.0f} KB, its font subset included "
            f"({datetime.date.today().isoformat()}, `python docs/figures.py --only replay`).")
    if shot or (ROOT / "docs/replay.png").exists():
        text += "\n\n![The replay page of that game, seat 1's view](docs/replay.png)"
    print(text)
    return text


def sgsdsl(*args: str) -> tuple[str, float]:
    """Run the CLI of this interpreter's environment; its stdout and wall time."""
    start = time.perf_counter()
    out = subprocess.run([str(Path(sys.executable).parent / "sgsdsl"), *args], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout, time.perf_counter() - start


def stamp() -> str:
    import os

    load = os.getloadavg()[0]  # the machine is shared: other work slows a run, and the figures say so
    return f"measured {datetime.date.today().isoformat()} on {machine()}, load average {load:.1f}"


def simulate_block(games: int, workers: int) -> str | None:
    cmd = ["examples/yanyan.sgs", "--hero", "严颜", "--games", str(games), "--seed", "1", "--workers", str(workers)]
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "report.html"
        out, seconds = sgsdsl("simulate", *cmd, "--json", "--quiet", "--html", str(html))
        summary = json.loads(out)
        text = text_of(summary)
        print(text)
        if games != 2000:
            return None
        shot = screenshot(html, ROOT / "docs" / "report.png")
    return (f"```\n$ sgsdsl simulate {' '.join(cmd)} --html report.html\n{text}\n```\n\n"
            f"{(s := stamp())[0].upper() + s[1:]}: {summary['games'] + summary['control_games']} games in {seconds:.0f} s "
            f"with `--workers {workers}`, made by `python docs/figures.py`."
            + ("\n\n![The HTML report of that run](docs/report.png)" if shot or (ROOT / "docs/report.png").exists()
               else ""))


def workers_block() -> str:
    times = {}
    for w in (1, 2):
        runs = [sgsdsl("simulate", "--games", "1000", "--agent", "random", "--seed", "1", "--quiet", "--json",
                       "--workers", str(w))[1] for _ in range(3)]
        times[w] = sorted(runs)[1]
    import os

    busy = os.getloadavg()[0] >= (os.cpu_count() or 1)
    text = (f"1,000 random 5-player games took {times[1]:.1f} s on one worker and {times[2]:.1f} s on two "
            f"(median of three runs, skill statistics included; {stamp()}, `python docs/figures.py --only workers`"
            + ("; other work held both cores, so a second worker had none to itself" if busy else "") + ")")
    print(text)
    return text


def lines_block() -> str:
    paths = ["examples/expansions.sgs", "rules/"]
    out = subprocess.run([sys.executable, "bench/lines.py", "--json", *paths], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    figs = json.loads(out)
    ex, every = figs["examples/expansions.sgs"], figs["all"]
    text = (f"Over the {ex['skills']} skills of examples/expansions.sgs a skill takes a median of {ex['median']:g} "
            f"rules lines beside its text and tests (mean {ex['mean']:g}); over all {every['skills']} skills there "
            f"and in rules/, a median of {every['median']:g} (mean {every['mean']:g}) "
            f"(`python bench/lines.py {' '.join(paths)}`, {datetime.date.today().isoformat()})")
    print(text)
    return text


def write_block(name: str, block: str) -> None:
    begin, end = f"<!-- figures:{name} -->", f"<!-- /figures:{name} -->"
    readme = ROOT / "README.md"
    old = readme.read_text(encoding="utf-8")
    blocks = ("simulate", "bench", "fuzz", "mutations", "against", "intent", "replay", "peer", "instructions")
    sep = "\n" if name in blocks else ""
    new, n = re.subn(re.escape(begin) + ".*?" + re.escape(end), lambda _: f"{begin}{sep}{block}{sep}{end}", old,
                     flags=re.S)
    if n != 1:
        sys.exit(f"README.md has no {begin} … {end} block")
    readme.write_text(new, encoding="utf-8")
    print(f"README.md: block {name} updated", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=["simulate", "workers", "lines", "replay"], help="one block only")
    ap.add_argument("--games", type=int, default=2000, help="games of the simulate block (README only at 2000)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.only in (None, "simulate"):
        block = simulate_block(args.games, args.workers)
        if block is not None:
            write_block("simulate", block)
    if args.only in (None, "workers"):
        write_block("workers", workers_block())
    if args.only in (None, "lines"):
        write_block("lines", lines_block())
    if args.only in (None, "replay"):
        write_block("replay", replay_block())


if __name__ == "__main__":
    main()
