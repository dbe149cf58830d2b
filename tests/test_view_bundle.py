"""`bench view --bundle`: static pages that work offline: every link of every page opens a page of the bundle,
no form (a filter or a comparison is a link to a page written ahead), nothing refreshes, the path from the grid
to a failed render works by file; never written inside a run folder or over files it did not write."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import bench
from tests.view_mixed import CHROMIUM, DRIVER, NO_BROWSER, build, chrome, go


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("view-bundle"), count=12)


@pytest.fixture(scope="module")
def bundle(run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("b") / "bundle"
    proc = bench("view", str(run), "--bundle", str(out), "--max-units", "2", check=True)
    assert "pages to" in proc.stderr and (out / "index.html").is_file()
    return out


def test_every_link_of_every_page_opens_a_page_of_the_bundle(bundle):
    seen, todo = set(), ["index.html"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (bundle / name).read_text()
        assert "<form" not in text and 'http-equiv="refresh"' not in text, name
        for href in re.findall(r'href="([^"]*)"', text):
            assert "/" not in href and "?" not in href and href.endswith(".html"), (name, href)
            assert (bundle / href).is_file(), (name, href)
            todo.append(href)
    assert seen == {p.name for p in bundle.glob("*.html")}   # and every page is reachable from the grid


def test_filters_and_comparisons_are_pages(bundle):
    index = (bundle / "index.html").read_text()
    compare = re.findall(r'<a class="compare" href="([^"]+)"', index)
    assert len(compare) == 3 + 6   # 3 solvers: 3 pairs; 4 renderers: 6 pairs
    for name in compare:
        assert "alone right" in (bundle / name).read_text() or "compared" in (bundle / name).read_text()


@pytest.mark.skipif(not (CHROMIUM and DRIVER), reason=NO_BROWSER)
def test_the_path_to_a_failed_render_works_offline(bundle, run):
    from selenium.webdriver.common.by import By
    browser = chrome()
    try:
        browser.get((bundle / "index.html").as_uri())
        go(browser, browser.find_element(By.CSS_SELECTOR, "td.verdicts a.v-misread"))
        rows = browser.find_elements(By.CSS_SELECTOR, "table.units tr")[1:]
        assert rows and all(r.find_element(By.CSS_SELECTOR, "td.verdict").text.startswith("misread") for r in rows)
        go(browser, browser.find_element(By.CSS_SELECTOR, '.chips[data-dim="verdict"] a[data-value="error"]'))
        assert all(td.text == "error" for td in browser.find_elements(By.CSS_SELECTOR, "table.units td.verdict"))
        go(browser, browser.find_element(By.CSS_SELECTOR, "table.units td a"))
        assert browser.find_element(By.CSS_SELECTOR, "span.verdict").text == "error"
    finally:
        browser.quit()


def test_a_bundle_is_never_written_inside_a_run_folder_or_over_files_of_yours(run, tmp_path, bundle):
    before = sorted(p.name for p in run.iterdir())
    for inside in (run, run / "view", run / "grids" / "x"):
        proc = bench("view", str(run), "--bundle", str(inside))
        assert proc.returncode == 2 and "inside the run folder" in proc.stderr and proc.stderr.count("\n") == 1
    assert sorted(p.name for p in run.iterdir()) == before
    bench("view", str(run), "--bundle", str(bundle), check=True)   # a bundle's own folder: written again
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    refused = bench("view", str(run), "--bundle", str(mine))
    assert refused.returncode == 2 and "holds files that no bundle wrote" in refused.stderr
    assert (mine / "notes.txt").read_text() == "mine"


def test_a_bundle_written_again_holds_its_own_pages_only(run, tmp_path):
    """A second bundle into the same folder with fewer pages (fewer units kept, or another run) left every page
    of the first one there, units of another run beside this one's; a file not named as a page stays."""
    out, smaller = tmp_path / "bundle", build(tmp_path / "smaller", count=3)
    counts = []
    for folder in (run, smaller, run):
        proc = bench("view", str(folder), "--bundle", str(out), check=True)
        counts.append(int(re.search(r"wrote (\d+) pages", proc.stderr).group(1)))
        pages = {p.name for p in out.iterdir() if p.suffix == ".html"}
        assert len(pages) == counts[-1], (folder, len(pages), counts)
        (out / "notes.txt").write_text("mine")
    assert counts[1] < counts[0] == counts[2] and (out / "notes.txt").read_text() == "mine"


def test_a_folder_it_cannot_read_is_one_line(tmp_path):
    proc = bench("view", str(tmp_path / "nowhere"))
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0 and "not a folder" in proc.stderr


@pytest.mark.parametrize("serve", [True, False])
def test_a_folder_no_run_made_is_one_line_as_status_says_it(tmp_path, serve):
    """`bench view /tmp` served a page that showed the error and refreshed for ever, where `status` and `report`
    exit 2 (found by a fuzz); served or bundled, it is the same one line now, and nothing is written."""
    folder = tmp_path / "not-a-run"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    # the code before served for ever: the wait is bounded so that a return of that fails, not hangs
    proc = bench("view", str(folder), *(() if serve else ("--bundle", str(tmp_path / "b"))), timeout=600)
    status = bench("status", str(folder))
    assert proc.returncode == status.returncode == 2 and proc.stderr == status.stderr, (proc.stderr, status.stderr)
    assert proc.stderr.strip().count("\n") == 0 and "no grid.json here" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-run"]
