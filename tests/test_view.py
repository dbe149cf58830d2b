"""`bench view` in a real browser (headless Chromium, Debian's chromium and chromium-driver, driven by Selenium),
walking a reviewer's path on a run with every render and solve status: the grid (counts equal to `bench
report`'s), a renderer's or a cell's list (filters, counts, search), a unit (verdict and answers first, the
premise table equal to the record's checks, proof facts, repair rounds folded, prev/next, back); every failed
render within two clicks of the grid; model text shown as text; the comparison's pairs as the report counts."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import orjson
import pytest

from tests.conftest import bench
from tests.view_mixed import CHROMIUM, DRIVER, NO_BROWSER, build, chrome, go, served

if not (CHROMIUM and DRIVER):   # without a browser these tests skip (CI installs one: .ci/run)
    pytest.skip(NO_BROWSER, allow_module_level=True)

from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("view"), count=12)


@pytest.fixture(scope="module")
def url(run):
    with served(run) as (address, _):
        yield address


@pytest.fixture(scope="module")
def browser():
    driver = chrome()
    yield driver
    driver.quit()


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def best_renders(run: Path) -> dict[str, dict]:
    """Each render unit's last record (the run writes rounds in order)."""
    out: dict[str, dict] = {}
    for rec in lines(run / "renders.jsonl"):
        out[rec["key"]] = rec
    return out


def report_cells(run: Path, tmp: Path) -> dict[tuple[str, str], Counter]:
    bench("report", str(run), "--out", str(tmp / "rep"), "--csv", str(tmp / "r.csv"), check=True)
    cells: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in orjson.loads((tmp / "rep" / "summary.json").read_bytes())["rows"]:
        cells[(r["renderer"], r["solver"])].update(
            n=r["n"], correct=r["correct"], invalid=r["invalid"], errors=r["errors"], unfaithful=r["unfaithful"],
            render_failed=r["render_failed"], unchecked=r["unchecked_n"])
    return cells


def test_the_grid_shows_every_renderer_and_solver_with_the_reports_counts(url, browser, run, tmp_path):
    browser.get(url)
    table = browser.find_element(By.CSS_SELECTOR, "table.heatmap")
    solvers = [th.text for th in table.find_elements(By.CSS_SELECTOR, "tr:first-child th")][1:-1]
    renderers = [a.text for a in table.find_elements(By.CSS_SELECTOR, "a.renderer")]
    assert solvers == ["fake", "random", "gone"]
    assert renderers == ["template", "scripted", "hostile:text", "dead"]   # dead: every render failed
    expected = report_cells(run, tmp_path)
    labels = {"inv": "invalid", "err": "errors", "unf": "unfaithful", "bad": "render_failed", "text": "unchecked"}
    for tr, renderer in zip(table.find_elements(By.CSS_SELECTOR, "tr")[1:], renderers):
        for td, solver in zip(tr.find_elements(By.CSS_SELECTOR, "td.cell"), solvers):
            want = expected.get((renderer, solver), Counter())
            assert int(td.get_attribute("data-n")) == want["n"]
            shown = dict(s.text.split() for s in td.find_elements(By.CSS_SELECTOR, ".fails span.count"))
            assert {labels[k]: int(v) for k, v in shown.items()} == {k: v for k, v in want.items()
                                                                     if k in labels.values() and v}
            acc = td.find_element(By.CSS_SELECTOR, "a.acc").text
            if want["n"]:
                assert acc == f"{want['correct'] / want['n']:.3f}" and "empty" not in td.get_attribute("class")
            else:   # visibly empty: no 0.000, no red
                assert acc == "no answers" and "empty" in td.get_attribute("class")
    assert "chance level" in browser.page_source and browser.find_elements(By.CSS_SELECTOR, "svg.plot")


def test_every_failed_render_is_two_clicks_from_the_grid(url, browser, run):
    failed = {k: r for k, r in best_renders(run).items() if r["status"] != "ok"}
    assert {r["status"] for r in failed.values()} >= {"unfaithful", "invalid", "error", "unchecked"}
    for key, rec in sorted(failed.items()):
        browser.get(url)
        row = next(tr for tr in browser.find_elements(By.CSS_SELECTOR, "table.heatmap tr")[1:]
                   if tr.find_element(By.CSS_SELECTOR, "a.renderer").text == rec["renderer"])
        links = row.find_elements(By.CSS_SELECTOR, "td.verdicts a")
        found = False
        for i in range(len(links)):   # click 1: a verdict of that renderer; click 2: the unit
            browser.get(url)
            row = next(tr for tr in browser.find_elements(By.CSS_SELECTOR, "table.heatmap tr")[1:]
                       if tr.find_element(By.CSS_SELECTOR, "a.renderer").text == rec["renderer"])
            go(browser, row.find_elements(By.CSS_SELECTOR, "td.verdicts a")[i])
            mine = browser.find_elements(By.CSS_SELECTOR, f'table.units a[href*="key={key}"]')
            if mine:
                go(browser, mine[0])
                found = True
                break
        assert found, (rec["renderer"], rec["skeleton"], rec["status"])
        assert browser.find_element(By.TAG_NAME, "h1").text.startswith(rec["skeleton"].split("#")[0])


def test_a_list_counts_under_its_filters_and_the_active_filter_shows(url, browser, run):
    browser.get(url + "units?run=mixed&renderer=template&solver=fake")
    chips = {a.get_attribute("data-value"): int(a.text.split()[-1])
             for a in browser.find_elements(By.CSS_SELECTOR, '.chips[data-dim="status"] a[data-value]')}
    answers = [r for r in lines(run / "solves.jsonl") if r["renderer"] == "template" and r["solver"] == "fake"]
    assert chips.get("wrong", 0) == sum(r["correct"] is False for r in answers)
    go(browser, browser.find_element(By.CSS_SELECTOR, '.chips[data-dim="family"] a[data-value="transitive_order"]'))
    active = browser.find_element(By.CSS_SELECTOR, '.chips[data-dim="family"] .on')
    assert active.get_attribute("data-value") == "transitive_order"
    chips = {a.get_attribute("data-value"): int(a.text.split()[-1])
             for a in browser.find_elements(By.CSS_SELECTOR, '.chips[data-dim="status"] a[data-value]')}
    mine = [r for r in answers if r["family"] == "transitive_order"]
    assert chips.get("wrong", 0) == sum(r["correct"] is False for r in mine)
    go(browser, browser.find_element(By.CSS_SELECTOR, '.chips[data-dim="status"] a[data-value="wrong"]'))
    rows = browser.find_elements(By.CSS_SELECTOR, "table.units tr")[1:]
    assert len(rows) == chips["wrong"] and all(r.find_element(By.CSS_SELECTOR, "td.status").text == "wrong" for r in rows)
    said = {(r.find_element(By.CSS_SELECTOR, "td.answer").text, r.find_element(By.CSS_SELECTOR, "td.gold").text)
            for r in rows}
    assert said == {(r["answer"], r["gold"]) for r in mine if r["correct"] is False}   # the answer beside the gold
    assert browser.find_element(By.CSS_SELECTOR, "p.total b").text == str(chips["wrong"])


def test_search_finds_names_and_texts(url, browser, run):
    browser.get(url + "units?run=mixed&renderer=scripted")
    box = browser.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
    box.send_keys("Somewhere in all this")   # the unread premise's own words: only in the render's text
    go(browser, browser.find_element(By.ID, "search"))
    ids = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "table.units td:first-child a")]
    unread = sorted({r["skeleton"].split("#")[0] for r in best_renders(run).values()
                     if r["renderer"] == "scripted" and "Somewhere in all this" in (r.get("raw") or "")})
    assert ids == unread and ids
    browser.get(url + "units?run=mixed&renderer=scripted&q=order-0000")
    assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "table.units td:first-child a")] == ["order-0000"]


def _checks(rec: dict) -> dict[int, str]:
    out = {}
    for c in rec["checks"] or []:
        m = re.match(r"(misread|unread): the premise of fact (\d+)", c)
        if m:
            out[int(m.group(2))] = m.group(1)
    return out


def test_a_unit_shows_its_verdict_and_answers_first_and_its_checks_premises(url, browser, run):
    renders = best_renders(run)
    judged = [r for r in renders.values() if r["renderer"] == "scripted" and r["status"] in ("ok", "unfaithful")
              and r.get("raw")]
    assert any(_checks(r) for r in judged)
    for rec in judged:
        browser.get(url + f"unit?run=mixed&key={rec['key']}")
        verdict = browser.find_element(By.CSS_SELECTOR, "span.verdict").text
        assert verdict in ("faithful", "misread", "unread", "unfaithful")
        assert (verdict == "faithful") == (rec["status"] == "ok")
        last = browser.find_element(By.CSS_SELECTOR, "div.round.last")
        shown = {int(tr.get_attribute("data-index")): tr.get_attribute("class")
                 for tr in last.find_elements(By.CSS_SELECTOR, "table.premises tr[data-index]")
                 if int(tr.get_attribute("data-index")) >= 0}
        want = _checks(rec)
        assert {i: k for i, k in shown.items() if k in ("misread", "unread")} == want
        assert all(k in ("read", "missing", "twice") for i, k in shown.items() if i not in want)
        # the question is never called unread: the check does not judge it unless it misreads
        question = last.find_element(By.CSS_SELECTOR, 'table.premises tr[data-index="-1"]')
        assert question.get_attribute("class") in ("question", "misread")
        # the answers come before the render on the page
        page = browser.page_source
        assert page.index("<h2>Answers</h2>") < page.index("<h2>Render</h2>")


def test_repair_rounds_are_folded_and_proof_facts_marked_in_every_family(url, browser, run):
    repaired = [r for r in lines(run / "renders.jsonl") if r.get("round")]
    assert repaired
    browser.get(url + f"unit?run=mixed&key={repaired[0]['key']}")
    folded = browser.find_elements(By.CSS_SELECTOR, "details.round")
    assert folded and all(d.get_attribute("open") is None for d in folded)
    assert browser.find_elements(By.CSS_SELECTOR, "div.round.last table.premises")
    for family in ("transitive_order", "sequential_state_update"):
        rec = next(r for r in best_renders(run).values() if r["renderer"] == "template" and r["family"] == family)
        browser.get(url + f"unit?run=mixed&key={rec['key']}")
        assert browser.find_elements(By.CSS_SELECTOR, "table.premises code.proof"), family
        assert browser.find_elements(By.CSS_SELECTOR, "table.facts td.proof"), family


def test_prev_next_walk_the_list_and_back_returns_to_it(url, browser):
    browser.get(url + "units?run=mixed&renderer=template&solver=fake&status=wrong")
    keys = [a.get_attribute("href").split("key=")[1].split("&")[0]
            for a in browser.find_elements(By.CSS_SELECTOR, "table.units td:first-child a")]
    assert len(keys) >= 2
    go(browser, browser.find_element(By.CSS_SELECTOR, "table.units td:first-child a"))
    seen = []
    while True:
        seen.append(browser.current_url.split("key=")[1].split("&")[0])
        nxt = browser.find_elements(By.CSS_SELECTOR, "a.next")
        if not nxt:
            break
        go(browser, nxt[0])
    assert seen == list(dict.fromkeys(keys))
    go(browser, browser.find_element(By.CSS_SELECTOR, "a.back"))
    assert "status=wrong" in browser.current_url and browser.find_elements(By.CSS_SELECTOR, "table.units")


def test_the_run_page_groups_errors_by_kind(url, browser, run):
    browser.get(url + "run?run=mixed")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.errors tr")[1:]
    counted = Counter()
    for tr in rows:
        stage, who, _, n = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        counted[(stage, who)] += int(n)
    renders = [r for r in best_renders(run).values() if r["status"] == "error"]
    answers = [r for r in lines(run / "solves.jsonl") if r["status"] == "error"]
    assert counted == Counter([("render", r["renderer"]) for r in renders] + [("answer", r["solver"]) for r in answers])
    assert "fake-model" in browser.find_element(By.CSS_SELECTOR, "table.servers").text
    assert "finished" in browser.find_element(By.CSS_SELECTOR, "table.info").text


def test_an_out_of_range_page_shows_the_last_and_says_so(url, browser):
    browser.get(url + "units?run=mixed&renderer=template&page=99")
    assert "page 100 asked for; this list has 1" in browser.page_source
    assert browser.find_elements(By.CSS_SELECTOR, "table.units td a")


def test_model_text_is_shown_as_text_and_runs_nothing(url, browser):
    browser.get(url + "units?run=mixed&renderer=hostile%3Atext&verdict=unchecked")
    go(browser, browser.find_element(By.CSS_SELECTOR, "table.units a"))
    browser.find_element(By.CSS_SELECTOR, "pre.render-text").find_element(By.XPATH, "..").click()
    # an onerror handler would have run by now: the page's images are settled once it is complete, and two frames
    # after the click any markup the click revealed has been laid out (waited on, not timed)
    browser.execute_async_script("const done = arguments[arguments.length - 1];"
                                 "const wait = () => document.readyState === 'complete' ? "
                                 "requestAnimationFrame(() => requestAnimationFrame(done)) : setTimeout(wait, 10);"
                                 "wait();")
    assert browser.execute_script("return window.HACKED") is None
    shown = browser.find_element(By.CSS_SELECTOR, "pre.render-text").get_attribute("textContent")
    assert "<script>window.HACKED=1</script>" in shown and '<img src=x onerror="window.HACKED=2">' in shown
    assert not browser.find_elements(By.CSS_SELECTOR, "pre.render-text script, pre.render-text img")


def test_the_comparison_lists_exactly_the_pairs_the_report_counts(url, browser, run, tmp_path):
    bench("report", str(run), "--compare", "fake", "random", "--out", str(tmp_path / "rep"),
          "--csv", str(tmp_path / "r.csv"), check=True)
    paired = orjson.loads((tmp_path / "rep" / "summary.json").read_bytes())["paired"]
    browser.get(url + "compare?kind=solver&a=fake&b=random")
    for p in paired:
        heading = next(h for h in browser.find_elements(By.TAG_NAME, "h2") if f"renderer {p['within']}:" in h.text)
        assert f"fake alone right {p['a_only']}, random alone right {p['b_only']}" in heading.text
    rows = browser.find_elements(By.CSS_SELECTOR, "table.pairs tr td a")
    assert len(rows) == sum(p["a_only"] + p["b_only"] for p in paired) and rows
    go(browser, rows[0])
    assert browser.find_elements(By.CSS_SELECTOR, "table.answers tr")


def test_each_fidelity_row_opens_its_renders(url, browser):
    browser.get(url)
    rows = [(tr.find_element(By.CSS_SELECTOR, "a").get_attribute("href"),
             int(tr.find_elements(By.TAG_NAME, "td")[3].text))
            for tr in browser.find_elements(By.CSS_SELECTOR, "table.fidelity tr")[1:]]
    assert rows
    for href, checked in rows:
        browser.get(href)
        total = int(browser.find_element(By.CSS_SELECTOR, "p.total b").text)
        assert total >= checked > 0   # the checked renders, and any invalid or errored ones of that group
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.units tr")) - 1 == min(total, 100)
