"""The HTML pages in a real headless Chromium: the report loads without console errors and draws its
charts; the replay page loads without errors or requests, and → steps the table.

Out of the default suite (marker `browser`). To run it:

    apt-get install -y chromium fonts-noto-cjk
    .venv/bin/pip install -e '.[test,browser]'
    .venv/bin/python -m pytest -m browser

SGSDSL_SCREENSHOT=docs/report.png also keeps the screenshot there (the README shows it).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main

pytestmark = pytest.mark.browser

def chromium() -> str:
    """Debian's chromium: found, else installed where this test may (root, apt-get), else the test is skipped
    saying why."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("no chromium, and no apt-get as root to install it: apt-get install -y chromium fonts-noto-cjk")
    try:
        r = subprocess.run(["apt-get", "install", "-y", "chromium", "fonts-noto-cjk"], capture_output=True, text=True,
                           timeout=900)
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"no chromium, and `apt-get install -y chromium` failed: {e}")
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip(f"no chromium, and `apt-get install -y chromium` did not bring it: {r.stderr.strip()[-300:]}")
    return found


@pytest.fixture(scope="module")
def browser():
    sync = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test,browser]' brings playwright")
    path = chromium()
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


def test_the_report_loads_without_errors_and_shows_its_charts(browser, tmp_path):
    page_file = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["simulate", "examples/yanyan.sgs", "--hero", "严颜", "--games", "200", "--seed", "1",
                                  "--workers", "2", "--quiet", "--html", str(page_file)])
    assert r.exit_code == 0, r.output
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda req: errors.append(f"network: {req.url}") if not req.url.startswith("file:") else None)
    page.goto(page_file.as_uri())
    page.wait_for_selector("#chart-turns .main-svg")
    for div in ("chart-identities", "chart-rates-0", "chart-delta-0", "chart-turns"):
        # a drawn chart has its SVG and at least one plotted trace
        assert page.locator(f"#{div} .main-svg").count() >= 1
        assert page.locator(f"#{div} .trace").count() >= 1
    assert errors == []
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 1200, "height": 1250})
    assert shot.stat().st_size > 50_000  # charts and text, not a blank page
    keep = os.environ.get("SGSDSL_SCREENSHOT")
    if keep:
        Path(keep).write_bytes(shot.read_bytes())


def watched(browser, errors: list, width=1400, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda req: errors.append(f"network: {req.url}") if not req.url.startswith(("file:", "data:"))
            else None)
    return page


def test_the_replay_page_loads_and_the_arrow_key_steps_the_table(browser, tmp_path):
    log, page_file = tmp_path / "duel.jsonl", tmp_path / "replay.html"
    r = CliRunner().invoke(main, ["simulate", "--mode", "1v1", "--games", "1", "--seed", "3", "--quiet", "--log", str(log)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["replay", str(log), "--html", str(page_file), "--seat", "1"])
    assert r.exit_code == 0, r.output
    errors: list = []
    page = watched(browser, errors)
    page.goto(page_file.as_uri())
    page.wait_for_selector("#seats .seat")
    assert page.locator("#where").inner_text().startswith("第 1 /")
    boards = [page.locator("#seats").inner_html()]
    for _ in range(40):  # the first lines deal and choose; the table changes within a few of them
        page.keyboard.press("ArrowRight")
        boards.append(page.locator("#seats").inner_html())
    assert page.locator("#where").inner_text().startswith("第 41 /")
    assert len(set(boards)) > 3
    assert page.locator("#log div.at").inner_text() == page.locator("#log div").nth(40).inner_text()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#seats").inner_html() == boards[39]
    # seat 1's view: the other hand is card backs; everything: the other hand by name
    k = page.evaluate("S.findIndex(s => P[s[3][1]].hand.length > 0 && P[s[3][0]].hand.length > 0 && s[0].includes('出牌阶段'))")
    page.evaluate(f"go({k})")
    other, mine = page.locator("#seats .seat").nth(1), page.locator("#seats .seat").nth(0)
    assert other.locator(".card.back").count() > 0 and mine.locator(".card.back").count() == 0
    page.select_option("#seat", "all")
    assert other.locator(".card.back").count() == 0 and other.locator(".card").count() > 0
    # the embedded font, not a system one, draws the Chinese text
    assert page.evaluate("document.fonts.ready.then(() => document.fonts.check('16px SgsReplay', '杀闪桃'))")
    assert page.evaluate("[...document.fonts].some(f => f.family.includes('SgsReplay') && f.status === 'loaded')")
    assert errors == []
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 50_000
