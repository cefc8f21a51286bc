"""The README's simulate figures, from a real run: the walk-through's featured-hero comparison,
its skill rows, and the screenshot of the HTML report.

    nice -n 10 .venv/bin/python docs/figures.py            # the 2,000-game run on two workers
    .venv/bin/python docs/figures.py --games 200           # a quick look (does not touch the README)

Runs `sgsdsl simulate examples/yanyan.sgs --hero 严颜 --games 2000 --seed 1 --workers 2 --html …`,
rewrites the README block between `<!-- figures:simulate -->` and `<!-- /figures:simulate -->`
with its output, the date and the machine, and screenshots the page into docs/report.png with
Debian's chromium (when playwright and chromium are installed; see tests/test_browser.py).
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
BEGIN, END = "<!-- figures:simulate -->", "<!-- /figures:simulate -->"
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


def text_of(summary: dict) -> str:
    """The featured comparison and a few skill rows of the text output, as `simulate` prints them."""
    from rich.console import Console

    from sgsdsl import report

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


def screenshot(html: Path, png: Path) -> bool:
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
        page = b.new_page(viewport={"width": 1200, "height": 1000})
        page.goto(html.as_uri())
        page.wait_for_selector("#chart-turns .main-svg")
        page.screenshot(path=str(png), clip={"x": 0, "y": 0, "width": 1200, "height": 1250})
        b.close()
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    cmd = ["sgsdsl", "simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", str(args.games), "--seed", "1",
           "--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "report.html"
        start = time.perf_counter()
        out = subprocess.run([str(Path(sys.executable).parent / "sgsdsl"), *cmd[1:], "--json", "--quiet", "--html",
                              str(html)], cwd=ROOT, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
        summary = json.loads(out.stdout)
        text = text_of(summary)
        print(text)
        if args.games != 2000:
            return
        shot = screenshot(html, ROOT / "docs" / "report.png")
    stamp = (f"Measured {datetime.date.today().isoformat()} on {machine()}: "
             f"{summary['games'] + summary['control_games']} games in {seconds:.0f} s with `--workers "
             f"{args.workers}`, made by `python docs/figures.py`.")
    block = (f"{BEGIN}\n```\n$ {' '.join(cmd)} --html report.html\n{text}\n```\n\n{stamp}"
             + ("\n\n![The HTML report of that run](docs/report.png)" if shot or (ROOT / "docs/report.png").exists()
                else "") + f"\n{END}")
    readme = ROOT / "README.md"
    old = readme.read_text(encoding="utf-8")
    new, n = re.subn(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, old, flags=re.S)
    if n != 1:
        sys.exit(f"README.md has no {BEGIN} … {END} block")
    readme.write_text(new, encoding="utf-8")
    print(f"README.md updated; {'docs/report.png written' if shot else 'screenshot unchanged'}", file=sys.stderr)


if __name__ == "__main__":
    main()
