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


def shown_n(browser) -> int:
    cells = browser.find_elements(By.CSS_SELECTOR, "table.heatmap td.cell")
    return sum(int(td.get_attribute("data-n")) for td in cells)


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
            WebDriverWait(None, 120, poll_frequency=0.1).until(lambda _: answers(run) >= 2)
            with served(run) as (url, _):
                browser.get(url)
                first = shown_n(browser)
                assert "running, updated" in browser.find_element(By.CSS_SELECTOR, "nav.top").text
                assert first < 40
                # no browser.get from here: the page reloads itself
                WebDriverWait(browser, 180, poll_frequency=0.2).until(lambda b: shown_n(b) > first)
                assert proc.wait(timeout=300) == 0
                WebDriverWait(browser, 120, poll_frequency=0.2).until(
                    lambda b: "finished" in b.find_element(By.CSS_SELECTOR, "nav.top").text and shown_n(b) == 40)
                assert not browser.find_elements(By.CSS_SELECTOR, 'meta[http-equiv="refresh"]')
        finally:
            browser.quit()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
