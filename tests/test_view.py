"""`bench view` in a real browser (headless Chromium, Debian's chromium and chromium-driver, driven by
Selenium): the grid, a cell filtered to wrong answers, a unit with its skeleton, premises and every solver's
label, the comparison's discordant pairs as `bench report --compare` counts them, model text shown as text;
and `--bundle`."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from tests.conftest import ROOT, bench
from tests.fake_server import FakeServer

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and DRIVER) and not os.environ.get("CI"):   # CI installs them (.ci/run): there they must run
    pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

HOSTILE = '<script>window.HACKED=1</script><img src=x onerror="window.HACKED=2"> LEFT_OF RIGHT_OF UNKNOWN'
GRID = """name: view
skeletons: {{generate: {{count: 12, complexities: [short], families: [transitive_order]}}}}
providers:
  template: {{kind: template}}
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", attempts: 1}}
  hostile: {{kind: vllm, model: fake-model, base_url: "{hostile}", attempts: 1}}
  random: {{kind: random, seed: 1}}
renderers: [template, {{provider: hostile, format: text}}]
solvers: [fake, random]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small run with the fake server: template renders, a text renderer whose text is an XSS attempt."""
    tmp = tmp_path_factory.mktemp("view")
    with FakeServer() as server, FakeServer() as hostile:
        hostile.answer_override = HOSTILE
        (tmp / "grid.yaml").write_text(GRID.format(url=server.url, hostile=hostile.url))
        bench("run", "--grid", str(tmp / "grid.yaml"), "--out", str(tmp / "run"), "-q", check=True)
    return tmp / "run"


def ready(url: str) -> str:
    """The URL once the view has read the logs (until then its page says it is reading them)."""
    import urllib.request
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with urllib.request.urlopen(url, timeout=10) as resp:
            if "Renderer x solver" in resp.read().decode():
                return url
        time.sleep(0.2)
    raise AssertionError(f"{url} never showed the grid")


@pytest.fixture(scope="module")
def served(run):
    """`bench view RUN` on a free port; its URL."""
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", str(run),
                             "--port", "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    assert match, line
    yield ready(match.group(1))
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1400"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def solves(run: Path) -> list[dict]:
    return [orjson.loads(line) for line in (run / "solves.jsonl").read_bytes().splitlines()]


def test_from_the_grid_to_a_wrong_answer_and_its_unit(served, browser, run):
    from selenium.webdriver.common.by import By
    browser.get(served)
    assert "Renderer x solver" in browser.page_source
    browser.find_element(By.CSS_SELECTOR, 'table.heatmap a[href*="renderer=template"][href*="solver=fake"]').click()
    assert "template / fake" in browser.find_element(By.TAG_NAME, "h1").text
    browser.find_element(By.CSS_SELECTOR, "a.wrong").click()   # filter: wrong answers
    statuses = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "table.units td:nth-child(6)")]
    wrong = [r for r in solves(run) if r["renderer"] == "template" and r["solver"] == "fake" and r["correct"] is False]
    assert statuses == ["wrong"] * len(wrong) and wrong
    browser.find_element(By.CSS_SELECTOR, "table.units a").click()
    page = browser.page_source
    shown = browser.find_element(By.TAG_NAME, "h1").text.split()[0]   # the skeleton's id
    unit = next(r for r in wrong if r["skeleton"].split("#")[0] == shown)
    facts = browser.find_elements(By.CSS_SELECTOR, "table.facts tr td:nth-child(2)")
    premises = browser.find_elements(By.CSS_SELECTOR, "table.premises tr")
    assert facts and len(premises) == len(facts) + 2   # a header, one row per fact, the question
    assert all(row.get_attribute("class") == "read" for row in premises[1:])   # the template's: each premise read
    labels = {r["solver"]: r["answer"] for r in solves(run) if r["render_key"] == unit["render_key"]}
    answers = {row.find_elements(By.TAG_NAME, "td")[0].text: row.find_element(By.CSS_SELECTOR, "td.answer").text
               for row in browser.find_elements(By.CSS_SELECTOR, "table.answers tr")[1:]}
    assert answers == labels and set(answers) == {"fake", "random"}
    assert unit["gold"] in page


def test_the_comparison_lists_exactly_the_pairs_the_report_counts(served, browser, run, tmp_path):
    from selenium.webdriver.common.by import By
    bench("report", str(run), "--compare", "fake", "random", "--out", str(tmp_path / "rep"),
          "--csv", str(tmp_path / "r.csv"), check=True)
    paired = orjson.loads((tmp_path / "rep" / "summary.json").read_bytes())["paired"]
    browser.get(served + "compare?kind=solver&a=fake&b=random")
    for p in paired:
        heading = next(h for h in browser.find_elements(By.TAG_NAME, "h2") if f"renderer {p['within']}:" in h.text)
        assert f"fake alone right {p['a_only']}, random alone right {p['b_only']}" in heading.text
    rows = browser.find_elements(By.CSS_SELECTOR, "table.pairs tr td a")
    assert len(rows) == sum(p["a_only"] + p["b_only"] for p in paired)
    rows[0].click()
    assert browser.find_elements(By.CSS_SELECTOR, "table.answers tr")


def test_model_text_is_shown_as_text_and_runs_nothing(served, browser, run):
    from selenium.webdriver.common.by import By
    browser.get(served + "cell?run=view&renderer=hostile%3Atext&solver=random")
    browser.find_element(By.CSS_SELECTOR, "table.units a").click()
    time.sleep(0.3)   # an onerror handler would have run by now
    assert browser.execute_script("return window.HACKED") is None
    shown = browser.find_element(By.CSS_SELECTOR, "pre.render-text").text
    assert "<script>window.HACKED=1</script>" in shown and '<img src=x onerror="window.HACKED=2">' in shown
    assert not browser.find_elements(By.CSS_SELECTOR, "pre.render-text script, pre.render-text img")


def test_a_bundle_is_the_same_pages_as_files(run, browser, tmp_path):
    from selenium.webdriver.common.by import By
    out = tmp_path / "bundle"
    proc = bench("view", str(run), "--bundle", str(out), "--max-units", "2", check=True)
    assert "pages to" in proc.stderr and (out / "index.html").is_file()
    wrong = sum(1 for r in solves(run) if r["correct"] is False and r["renderer"] == "template")
    browser.get((out / "index.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, 'table.heatmap a[href*="cell-"]').click()
    assert browser.find_elements(By.CSS_SELECTOR, "table.units a")
    units = [p for p in out.glob("unit-*.html")]
    assert len(units) >= min(wrong, 1)
    # a second bundle into the same folder is allowed (ours); into a folder of someone else's, refused
    bench("view", str(run), "--bundle", str(out), check=True)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    refused = bench("view", str(run), "--bundle", str(mine))
    assert refused.returncode == 2 and "holds files that no bundle wrote" in refused.stderr
    assert (mine / "notes.txt").read_text() == "mine"


def test_the_first_page_says_the_logs_are_being_read_until_they_are(run):
    """The server answers at once; its page says it is reading, then shows the grid."""
    import urllib.request
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", str(run),
                             "--port", "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stderr.readline()).group(1)
        with urllib.request.urlopen(url, timeout=10) as resp:
            first = resp.read().decode()
        assert "Renderer x solver" in first or "reading the run logs" in first
        assert ready(url)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def test_a_folder_it_cannot_read_is_one_line(tmp_path):
    proc = bench("view", str(tmp_path / "nowhere"))
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0 and "not a folder" in proc.stderr


def test_opened_on_a_run_being_written_a_reload_shows_what_landed_since(run, browser, tmp_path):
    from selenium.webdriver.common.by import By
    live = tmp_path / "live"
    shutil.copytree(run, live)
    lines = (live / "solves.jsonl").read_bytes().splitlines(keepends=True)
    # the answers the grid counts (on the template's faithful renders): half written now, half later
    counted = [line for line in lines if b'"renderer":"template"' in line]
    rest = [line for line in lines if line not in counted]
    (live / "solves.jsonl").write_bytes(b"".join(rest + counted[: len(counted) // 2]))
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", str(live),
                             "--port", "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        url = ready(re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stderr.readline()).group(1))

        def answers() -> int:
            browser.get(url)
            return sum(int(span.text.split()[1]) for span in browser.find_elements(By.CSS_SELECTOR, "td.cell span"))
        before = answers()
        with open(live / "solves.jsonl", "ab") as fh:   # the run writes the rest
            fh.write(b"".join(counted[len(counted) // 2:]))
        deadline = time.monotonic() + 30
        while answers() == before and time.monotonic() < deadline:
            time.sleep(0.5)
        assert before < answers()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
