"""The HTML report in a real headless Chromium: it loads without console errors and draws its charts.

Out of the default suite (marker `browser`). To run it:

    apt-get install -y chromium fonts-noto-cjk
    .venv/bin/pip install -e '.[test,browser]'
    .venv/bin/python -m pytest -m browser

SGSDSL_SCREENSHOT=docs/report.png also keeps the screenshot there (the README shows it).
"""

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    sync = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test,browser]' brings playwright")
    if CHROMIUM is None:
        pytest.skip("no chromium: apt-get install -y chromium fonts-noto-cjk")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
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
