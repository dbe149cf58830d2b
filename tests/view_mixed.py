"""A run with every render and solve status, for the view's browser tests, screenshots and docs: the
template renderer (faithful), a scripted structured renderer (misread, unread, a dropped fact, render
errors, repair rounds), a text renderer with injected HTML (unchecked, and invalid where the labels are
missing), a renderer whose every request fails; solvers right, wrong, invalid and erroring."""
from __future__ import annotations

import copy
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import HANG_S, ROOT, bench
from tests.fake_server import FakeServer

HOSTILE = '<script>window.HACKED=1</script><img src=x onerror="window.HACKED=2"> LEFT_OF RIGHT_OF UNKNOWN'
GRID = """name: {name}
skeletons: {{generate: {{count: {count}, complexities: [1, 2, 3], families: [transitive_order, sequential_state_update]}}}}
providers:
  template: {{kind: template}}
  scripted: {{kind: vllm, model: fake-model, base_url: "{scripted}", attempts: 1}}
  hostile: {{kind: vllm, model: fake-model, base_url: "{hostile}", attempts: 1}}
  dead: {{kind: vllm, model: dead-model, base_url: "http://127.0.0.1:9/v1", attempts: 1, connect_timeout_s: 2}}
  gone: {{kind: vllm, model: gone-model, base_url: "http://127.0.0.1:9/v1", attempts: 1, connect_timeout_s: 2}}
  fake: {{kind: vllm, model: fake-model, base_url: "{solver}", attempts: 1}}
  random: {{kind: random, seed: 1}}
renderers:
  - template
  - {{provider: scripted, repair: 1}}
  - {{provider: hostile, format: text}}
  - dead
solvers: [fake, random, gone]
"""


def _number(payload: dict) -> int:
    return int(str(payload["id"]).split("-")[1])


def _scripted(render: dict, payload: dict) -> dict | str:
    """Item n's render: n % 6 == 0 misread (a premise's names swapped), 1 unread, 2 a fact dropped then
    repaired, 3 a fact dropped twice; the rest faithful."""
    n = _number(payload) % 6
    premises = render["premises"]
    if n == 0 and len(premises) > 1:
        premises[0]["text"], premises[1]["text"] = premises[1]["text"], premises[0]["text"]
    elif n == 1:
        premises[0]["text"] = "Somewhere in all this, something happens to " + premises[0]["text"].lower()
    elif n in (2, 3):
        premises.pop(1 if len(premises) > 1 else 0)
    return render


def build(out: Path, count: int = 6, name: str = "mixed") -> Path:
    """Run the mixed grid into `out` (its folder `out/run`); the run folder."""
    out.mkdir(parents=True, exist_ok=True)
    seen: dict[str, int] = {}

    def scripted(render: dict, payload: dict) -> dict | str:
        seen[payload["id"]] = seen.get(payload["id"], 0) + 1
        if _number(payload) % 6 == 2 and seen[payload["id"]] > 1:   # the repair round is faithful
            return render
        return _scripted(copy.deepcopy(render), payload)

    def faults(body: dict) -> str | None:   # some renders fail at the server
        text = str(body.get("messages"))
        return "500" if '"id": "order-0004"' in text or '"id":"order-0004"' in text else None

    def solve(prompt: str, labels: list[str]) -> str:
        h = sum(map(ord, prompt)) % 5
        return "no idea" if h == 0 else labels[h % len(labels)]

    with FakeServer() as scripted_server, FakeServer() as hostile, FakeServer() as solver:
        scripted_server.render_hook = scripted
        scripted_server.fault_hook = faults
        hostile.answer_override = HOSTILE
        solver.solve_hook = solve
        (out / "grid.yaml").write_text(GRID.format(name=name, count=count, scripted=scripted_server.url,
                                                   hostile=hostile.url, solver=solver.url))
        proc = bench("run", "--grid", str(out / "grid.yaml"), "--out", str(out / "run"), "-q")
        if not (out / "run" / "solves.jsonl").exists():
            raise AssertionError(proc.stderr)
    return out / "run"


# ---- the browser and the server, for the view's tests ------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
NO_BROWSER = "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"


def chrome(width: int = 1300, height: int = 1400):
    """A headless Chromium driven by Selenium (the caller quits it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def go(browser, element) -> None:
    """Click a link or button and wait for the page it opens (the old one gone, the new one loaded)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    old = browser.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(browser, HANG_S).until(expected_conditions.staleness_of(old))
    WebDriverWait(browser, HANG_S).until(lambda b: b.execute_script("return document.readyState") == "complete")


def get(url: str, host: str | None = None) -> tuple[int, str]:
    """A page's status and text (an HTTP error's too), with the Host header given."""
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=HANG_S) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def ready(url: str) -> str:
    """The URL once the view has read the logs (until then its page says it is reading them)."""
    deadline = time.monotonic() + HANG_S
    while time.monotonic() < deadline:
        if "Renderer x solver" in get(url)[1]:
            return url
        time.sleep(0.2)
    raise AssertionError(f"{url} never showed the grid")


@contextmanager
def served(*folders: Path, args: tuple[str, ...] = ()):
    """`bench view FOLDERS` on a free port: (its URL, the process); stopped with Ctrl-C after."""
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", *map(str, folders),
                             "--port", "0", *args], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stderr.readline()
        head = [line]
        while line and "http://" not in line:
            line = proc.stderr.readline()
            head.append(line)
        proc.head = "".join(head)   # what it said before its URL
        match = re.search(r"(http://[^/ ]+/)", line)
        assert match, line
        yield ready(match.group(1).replace("0.0.0.0", "127.0.0.1")), proc
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG_S)


def screenshots(out: Path, work: Path, grid: str = "grid-quick.yaml") -> list[Path]:
    """docs/ screenshots at 1400 and 800 px: a grid's pages (the quick grid's, or the default grid's with its
    SmolLM2 renderer and solver: `--grid grid.yaml`), and the mixed run's grid and a repaired unit
    (python -m tests.view_mixed DOCS_DIR [WORK_DIR] [--grid grid.yaml])."""
    import yaml
    spec = yaml.safe_load((ROOT / "configs" / grid).read_text())
    run_name = spec["name"]
    model = next((p for p, c in spec["providers"].items() if c.get("kind") not in ("template", "random", "prior")),
                 None)
    renderer, solver = (model, model) if model else ("template", "random")
    quick = work / run_name
    if not (quick / "solves.jsonl").exists():
        bench("run", "--grid", str(ROOT / "configs" / grid), "--out", str(quick), "-q", timeout=3600)
    mixed = work / "mixed" / "run"
    if not (mixed / "solves.jsonl").exists():
        build(work / "mixed", count=12)
    import orjson
    repaired = next(r for r in map(orjson.loads, (mixed / "renders.jsonl").read_bytes().splitlines()) if r.get("round"))
    shots: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)
    browser = chrome()
    try:
        with served(quick) as (q, _), served(mixed) as (m, _):
            wrong = f"units?run={run_name}&renderer={renderer}&solver={solver}&status=wrong"
            pages = [("view-grid", q), ("view-list", q + wrong), ("view-unit", q + wrong),
                     ("view-failures", m), ("view-repaired", m + f"unit?run=mixed&key={repaired['key']}")]
            for name, url in pages:
                for width in (1400, 800):
                    browser.set_window_size(width, 900)
                    browser.get(url)
                    if name == "view-unit":
                        from selenium.webdriver.common.by import By
                        browser.find_element(By.CSS_SELECTOR, "table.units td a").click()
                    height = browser.execute_script("return document.documentElement.scrollHeight")
                    browser.set_window_size(width, min(height + 140, 2600))
                    path = out / f"{name}-{width}.png"
                    browser.save_screenshot(str(path))
                    shots.append(path)
    finally:
        browser.quit()
    return shots


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="bench view's screenshots for docs/")
    ap.add_argument("docs", type=Path)
    ap.add_argument("work", type=Path, nargs="?", default=Path("/tmp/view-shots"))
    ap.add_argument("--grid", default="grid-quick.yaml", help="a grid of configs/ (grid.yaml: the default grid)")
    a = ap.parse_args()
    print("\n".join(map(str, screenshots(a.docs, a.work, a.grid))))
