"""`bench view` on a run being written: the page in the browser changes by itself (no reload by the test), says
"running, updated N s ago" while `bench run` holds the folder, and "finished" with the final counts after."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.fake_server import FakeServer
from tests.view_mixed import CHROMIUM, DRIVER, NO_BROWSER, chrome, served

if not (CHROMIUM and DRIVER):
    pytest.skip(NO_BROWSER, allow_module_level=True)

from selenium.common.exceptions import JavascriptException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

GRID = """name: live
skeletons: {{generate: {{count: 40, complexities: [1, 2], families: [transitive_order]}}}}
providers:
  template: {{kind: template}}
  slow: {{kind: vllm, model: fake-model, base_url: "{url}", attempts: 1, max_concurrency: 1}}
renderers: [template]
solvers: [slow]
"""


# Read in one script, inside the page: the page reloads itself every few seconds, and an element found before a
# reload is stale after it (what failed on a loaded CI machine when the read took two calls).
STATE = """const n = [...document.querySelectorAll('table.heatmap td.cell')]
    .reduce((s, td) => s + parseInt(td.dataset.n || '0', 10), 0);
const nav = document.querySelector('nav.top');
return [n, nav ? nav.textContent : ''];"""


def shown(browser) -> tuple[int, str]:
    """The answers the grid counts and the top bar's text, read at one instant of one page."""
    n, nav = browser.execute_script(STATE)
    return int(n), str(nav)


def waiting(browser, timeout_s: float) -> WebDriverWait:
    """A wait that reads again when the page was between two loads at the moment of a read."""
    return WebDriverWait(browser, timeout_s, poll_frequency=0.2,
                         ignored_exceptions=(StaleElementReferenceException, JavascriptException))


def answers(run: Path) -> int:
    try:
        return sum(1 for line in (run / "solves.jsonl").read_bytes().splitlines() if line.strip())
    except FileNotFoundError:
        return 0


def test_the_grid_changes_while_the_run_writes_and_then_says_finished(tmp_path):
    run = tmp_path / "run"
    with FakeServer(latency_s=0.4) as server:
        (tmp_path / "grid.yaml").write_text(GRID.format(url=server.url))
        proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                                 str(tmp_path / "grid.yaml"), "--out", str(run), "-q"], cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)
        browser = chrome()
        try:
            WebDriverWait(None, 300, poll_frequency=0.1).until(lambda _: answers(run) >= 2)
            server.hold = True   # the run stands still while the page loads, however slow the machine
            with served(run) as (url, _):
                browser.get(url)
                first, nav = shown(browser)
                assert "running, updated" in nav
                assert 2 <= first < 40
                server.hold = False
                # no browser.get from here: the page reloads itself
                waiting(browser, 300).until(lambda b: shown(b)[0] > first)
                assert proc.wait(timeout=600) == 0
                waiting(browser, 300).until(lambda b: shown(b)[0] == 40 and "finished" in shown(b)[1])
                assert not browser.find_elements(By.CSS_SELECTOR, 'meta[http-equiv="refresh"]')
        finally:
            browser.quit()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
