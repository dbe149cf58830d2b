"""`bench report` on logs real runs wrote: every figure equals a count taken from the JSONL, pictures, paired tests."""
from __future__ import annotations

import csv
import hashlib
import os
from collections import defaultdict
from pathlib import Path

import orjson
import pytest

from runner.reporting.compare import compare, mcnemar_exact
from runner.reporting.load import Outcome
from runner.store.logs import TERMINAL
from tests.conftest import bench
from tests.fake_server import FakeServer
from tests.test_pipeline import run_bench, write_grid


def _h(text: str) -> int:
    return int(hashlib.blake2b(text.encode(), digest_size=4).hexdigest(), 16)


@pytest.fixture(scope="module")
def messy_run(tmp_path_factory) -> Path:
    """A run with every kind of outcome: right and wrong answers, invalid answers (a server ignoring the
    constraint), errors (404, not retried), unfaithful renders (a premise dropped), two renderers, two solvers."""
    tmp = tmp_path_factory.mktemp("messy")
    out = tmp / "run"
    with FakeServer() as server:
        def render_hook(render, payload):
            if _h(payload["id"]) % 4 == 0:
                render["premises"].pop(0)
            return render

        server.render_hook = render_hook
        server.solve_hook = lambda prompt, labels: "MAYBE" if _h(prompt) % 5 == 0 else FakeServer.pick(prompt, labels)
        server.fault_hook = lambda body: "404" if "choice" in body.get("structured_outputs", {}) and \
            _h(body["messages"][0]["content"]) % 7 == 0 else None
        run_bench(write_grid(tmp, server.url, count=40, retries=1), out, check=False)
    return out


def best(path: Path) -> list[dict]:
    """The newest terminal record of each key (else its last), read straight from a log."""
    got: dict[str, dict] = {}
    for line in path.read_bytes().splitlines():
        rec = orjson.loads(line)
        old = got.get(rec["key"])
        if old is None or rec["status"] in TERMINAL or old["status"] not in TERMINAL:
            got[rec["key"]] = rec
    return list(got.values())


def test_every_figure_of_summary_csv_is_a_count_from_the_logs(messy_run):
    proc = bench("report", str(messy_run), check=True)
    assert "Traceback" not in proc.stderr
    expect: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in best(messy_run / "solves.jsonl"):
        g = expect[(r["renderer"], r["solver"], r["family"], str(r["complexity"]))]
        if r["status"] == "ok" and r.get("render_status", "ok") == "ok":
            g["n"] += 1
            g["correct"] += r["correct"]
        elif r["status"] == "invalid":
            g["invalid"] += 1
        elif r["status"] == "error":
            g["errors"] += 1
    solvers = ("fake", "random")
    for r in best(messy_run / "renders.jsonl"):
        if r["status"] in ("unfaithful", "invalid"):
            for s in solvers:
                expect[(r["renderer"], s, r["family"], str(r["complexity"]))][
                    "unfaithful" if r["status"] == "unfaithful" else "render_failed"] += 1
    with open(messy_run / "report" / "summary.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {(r["renderer"], r["solver"], r["family"], r["complexity"]) for r in rows} == set(expect)
    for row in rows:
        want = expect[(row["renderer"], row["solver"], row["family"], row["complexity"])]
        for col in ("n", "correct", "invalid", "errors", "unfaithful", "render_failed"):
            assert int(row[col]) == want[col], (row, col)
        if want["n"]:
            assert float(row["accuracy"]) == round(want["correct"] / want["n"], 4)
            assert float(row["ci95_low"]) <= float(row["accuracy"]) <= float(row["ci95_high"])
        assert row["run"] == "t" and float(row["chance"]) in (0.25, round(1 / 3, 4))
    # the run has every kind of outcome, so each column above was tested on non-zero counts
    totals = {col: sum(int(r[col]) for r in rows) for col in ("n", "invalid", "errors", "unfaithful")}
    assert all(totals.values()), totals


def test_errors_invalid_and_unfaithful_are_apart_from_accuracy(messy_run):
    out = bench("report", str(messy_run), check=True).stdout
    assert "renderer x solver" in out and "never counted as wrong" in out
    summary = orjson.loads((messy_run / "report" / "summary.json").read_bytes())
    cells = {(c["renderer"], c["solver"]): c for c in summary["cells"]}
    rows = summary["rows"]
    for (renderer, solver), c in cells.items():
        mine = [r for r in rows if r["renderer"] == renderer and r["solver"] == solver]
        assert c["n"] == sum(r["n"] for r in mine) and c["correct"] == sum(r["correct"] for r in mine)
        accs = [r["correct"] / r["n"] for r in mine if r["n"]]   # unrounded, then rounded once
        assert c["macro_over_groups"] == round(sum(accs) / len(accs), 4)
    assert sum(r["invalid"] for r in rows if r["solver"] == "fake") > 0
    assert sum(r["invalid"] for r in rows if r["solver"] == "random") == 0


def test_pictures_and_markdown_exist(messy_run, tmp_path):
    plot = tmp_path / "accuracy.png"   # --plot: the accuracy picture once more, where asked, and said so
    proc = bench("report", str(messy_run), "--plot", str(plot), check=True)
    folder = messy_run / "report"
    for path in (folder / "heatmap.png", folder / "accuracy_by_complexity.png", plot):
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000
    assert proc.stderr.strip().splitlines()[-1].endswith(f"accuracy_by_complexity.png) and {plot}"), proc.stderr
    md = (folder / "report.md").read_text()
    assert "![renderer x solver accuracy](heatmap.png)" in md and "## transitive_order" in md


def _written(proc) -> set[str]:
    """The files a report says it wrote into its folder (its last line: `wrote CSV and DIR/ (a, b, ...)`)."""
    return set(proc.stderr.strip().splitlines()[-1].rsplit("(", 1)[1].rstrip(")").split(", "))


def test_a_report_folder_holds_only_what_this_report_wrote(messy_run, tmp_path):
    """A picture this report did not draw is not left there from an earlier one (a run with no answers yet, no
    thinking solver, no matplotlib): an earlier report's heatmap beside this one's tables was another run's figures."""
    out, empty = tmp_path / "report", tmp_path / "empty"
    empty.mkdir()
    (empty / "grid.json").write_bytes((messy_run / "grid.json").read_bytes())
    no_matplotlib = tmp_path / "no-matplotlib" / "matplotlib"
    no_matplotlib.mkdir(parents=True)
    (no_matplotlib / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    every = {"summary.csv", "summary.json", "report.md", "heatmap.png", "accuracy_by_complexity.png"}
    tables = every - {"heatmap.png", "accuracy_by_complexity.png"}
    for folder, args, env, expected in ((messy_run, (), {}, every), (empty, (), {}, tables),
                                        (messy_run, (), {}, every), (messy_run, ("--no-pictures",), {}, tables),
                                        (messy_run, (), {}, every),
                                        (messy_run, (), {"PYTHONPATH": str(no_matplotlib.parent)}, tables)):
        if out.is_dir():   # a folder a report wrote into (a folder holding others' files is refused)
            (out / "thinking_by_complexity.png").write_bytes(b"\x89PNG an earlier report's thinking picture")
        proc = bench("report", str(folder), *args, "--out", str(out), "--csv", str(tmp_path / "report.csv"), env=env,
                     check=True)
        assert _written(proc) == expected and {p.name for p in out.iterdir()} == expected | {".bench-report"}, \
            (folder, env, proc.stderr)
        md = (out / "report.md").read_text()
        assert ("heatmap.png" in md) == ("heatmap.png" in expected) and "thinking_by_complexity" not in md
        for table in (tmp_path / "report.csv", out / "summary.csv"):   # a header even with no row (pandas reads it)
            with open(table, newline="") as fh:
                reader = csv.DictReader(fh)
                fields, got = reader.fieldnames, list(reader)
            assert fields and {"solver", "n"} <= set(fields) and bool(got) == (folder != empty), (table, fields)


def test_paired_comparison_on_a_real_run_counts_what_the_logs_hold(messy_run):
    proc = bench("report", str(messy_run), "--compare", "fake", "random", check=True)
    assert "paired: solver fake (A) vs random (B)" in proc.stdout
    paired = orjson.loads((messy_run / "report" / "summary.json").read_bytes())["paired"]
    by_unit: dict[tuple, dict[str, bool | None]] = defaultdict(dict)
    for r in best(messy_run / "solves.jsonl"):
        ok = r["status"] == "ok" and r.get("render_status", "ok") == "ok"
        by_unit[(r["renderer"], r["skeleton"], r["render_sample"], r["sample"])][r["solver"]] = r["correct"] if ok else None
    for p in paired:
        units = [u for k, u in by_unit.items() if k[0] == p["within"]]
        both = [(u.get("fake"), u.get("random")) for u in units if u.get("fake") is not None and u.get("random") is not None]
        assert p["pairs"] == len(both)
        assert p["a_only"] == sum(a and not b for a, b in both) and p["b_only"] == sum(b and not a for a, b in both)
        assert p["mcnemar_p"] == round(mcnemar_exact(p["a_only"], p["b_only"]), 6)
        assert p["ci95_low"] <= p["difference"] <= p["ci95_high"]
    bad = bench("report", str(messy_run), "--compare", "fake", "nobody")
    assert bad.returncode == 2 and "no solver 'nobody'" in bad.stderr and "fake, random" in bad.stderr


def _outcome(solver: str, skeleton: str, correct: bool) -> Outcome:
    return Outcome(run="r", renderer="t", solver=solver, family="f", complexity=2, skeleton=skeleton, render_sample=0,
                   sample=0, status="ok", correct=correct, render_status="ok", latency_s=0.1, prompt_tokens=1,
                   completion_tokens=1)


def test_paired_test_known_answer():
    """A right alone on 10 units, B right alone on none, both right on 30: McNemar's exact p is 2 / 2**10."""
    outs = []
    for i in range(40):
        outs += [_outcome("A", f"s{i}", True), _outcome("B", f"s{i}", i >= 10)]
    (p,) = compare(outs, "solver", "A", "B")
    assert (p.pairs, p.a_only, p.b_only, p.both_right, p.both_wrong) == (40, 10, 0, 30, 0)
    assert p.difference == 0.25 and p.mcnemar_p == round(2 / 2 ** 10, 6)
    assert 0 < p.ci95_low < 0.25 < p.ci95_high <= 0.5
    assert mcnemar_exact(5, 5) == 1.0 and mcnemar_exact(0, 0) == 1.0
    assert abs(mcnemar_exact(1000, 1100) - 0.0305) < 0.001   # the normal approximation agrees at this size
    assert compare(outs, "solver", "A", "B", seed=0) == compare(outs, "solver", "A", "B", seed=0)


def test_several_runs_merge_by_key_and_differ_by_grid(tmp_path):
    with FakeServer() as server:
        grid = write_grid(tmp_path, server.url, count=6)
        first, second = tmp_path / "a", tmp_path / "b"
        run_bench(grid, first)
        server.fault_hook = lambda body: "404"   # the second copy of the run: every unit errors
        run_bench(grid, second, check=False)
        other = tmp_path / "other.yaml"
        other.write_text(grid.read_text().replace("name: t", "name: u").replace("count: 6", "count: 3"))
        server.fault_hook = None
        third = tmp_path / "c"
        run_bench(other, third)
    # the error records of the later folder do not win over the terminal ones of the earlier one
    merged = bench("report", str(first), str(second), "--out", str(tmp_path / "rep"), check=True)
    alone = bench("report", str(first), "--out", str(tmp_path / "rep1"), check=True)
    assert (tmp_path / "rep" / "summary.csv").read_bytes() == (tmp_path / "rep1" / "summary.csv").read_bytes()
    assert merged.stdout.split("paired")[0] == alone.stdout.split("paired")[0]
    both = bench("report", str(first), str(third), "--out", str(tmp_path / "rep2"), check=True)
    with open(tmp_path / "rep2" / "summary.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["run"] for r in rows} == {"t", "u"}
    assert sum(int(r["n"]) + int(r["invalid"]) + int(r["errors"]) for r in rows if r["run"] == "u") == 3 * 4
    assert "t: accuracy, renderer x solver" in both.stdout and "u: accuracy, renderer x solver" in both.stdout


def test_tolerant_reading_and_newer_schema(tmp_path):
    with FakeServer() as server:
        out = tmp_path / "run"
        run_bench(write_grid(tmp_path, server.url, count=4), out)
    clean = bench("report", str(out), check=True).stdout
    log = out / "solves.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    extra = orjson.loads(lines[0])
    extra["a_field_from_the_future"] = [1, 2]
    log.write_bytes(orjson.dumps(extra) + b"\n" + b"".join(lines[1:]) + lines[0][:30])   # an extra field; a torn end
    again = bench("report", str(out), check=True)
    assert again.stdout == clean and "skipped 1 unreadable line(s)" in again.stderr
    with open(log, "ab") as fh:
        fh.write(b"\n" + orjson.dumps({**extra, "schema": 2}) + b"\n")
    newer = bench("report", str(out))
    assert newer.returncode == 2 and "records of schema 2; this bench reads schema 1" in newer.stderr
    log.write_bytes(b"".join(lines) + orjson.dumps({**extra, "schema": 0}) + b"\n")
    older = bench("report", str(out))
    assert older.returncode == 2 and "records of schema 0, from an older bench" in older.stderr


@pytest.fixture(scope="module")
def repaired_run(tmp_path_factory) -> Path:
    """A run with `repair: 1`: some first tries unfaithful and repaired, some unfaithful twice, and (in
    one family) the share of faithful renders falling with complexity, so a warning is due."""
    tmp = tmp_path_factory.mktemp("repaired")
    out = tmp / "run"
    calls: dict[str, int] = defaultdict(int)
    with FakeServer() as server:
        def render_hook(render, payload):
            calls[payload["id"]] += 1
            hard = payload["family"] == "transitive_order" and payload["complexity"] > 2
            if _h(payload["id"]) % 3 == 0 and calls[payload["id"]] == 1 or hard and _h(payload["id"]) % 2:
                render["premises"].pop(0)
            return render

        server.render_hook = render_hook
        grid = write_grid(tmp, server.url, count=48, retries=1, render_extra=", repair: 1")
        run_bench(grid, out)
    return out


def test_faithful_share_per_complexity_equals_a_recount_of_every_round(repaired_run):
    proc = bench("report", str(repaired_run), check=True)
    summary = orjson.loads((repaired_run / "report" / "summary.json").read_bytes())
    first: dict[str, str] = {}
    last: dict[str, dict] = {}
    for line in (repaired_run / "renders.jsonl").read_bytes().splitlines():
        rec = orjson.loads(line)
        if rec.get("round", 0) == 0:
            first[rec["key"]] = rec["status"]
        last[rec["key"]] = rec   # records of one key come in round order
    expect: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    for key, rec in last.items():
        if rec["status"] in ("ok", "unfaithful"):
            e = expect[(rec["renderer"], rec["family"], rec["complexity"])]
            e[0] += 1
            e[1] += first[key] == "ok"
            e[2] += rec["status"] == "ok"
    got = {(r["renderer"], r["family"], r["complexity"]): [r["renders"], r["faithful_first_try"], r["faithful"]]
           for r in summary["renders"]}
    assert got == dict(expect)
    assert any(f < final for _, f, final in got.values())   # repair made some faithful
    for row in summary["rows"]:   # each accuracy row carries the faithful share it was measured under
        e = expect[(row["renderer"], row["family"], row["complexity"])]
        assert [row["renders"], row["faithful_renders_first_try"], row["faithful_renders"]] == e
    # transitive_order's share falls from complexity 2 to 5: one warning, under the heatmap and in the files
    assert len(summary["warnings"]) == 1 and "fake's faithful share in transitive_order" in summary["warnings"][0]
    assert summary["warnings"][0] in proc.stdout.replace("\n", " ") or "warning: fake's" in proc.stdout
    assert summary["warnings"][0] in (repaired_run / "report" / "report.md").read_text()
    assert "faithful renders by complexity" in proc.stdout and "first try > after repair" in proc.stdout


def test_no_warning_when_the_share_holds_across_complexities(messy_run):
    bench("report", str(messy_run), check=True)
    summary = orjson.loads((messy_run / "report" / "summary.json").read_bytes())
    shares = defaultdict(list)
    for r in summary["renders"]:
        shares[(r["renderer"], r["family"])].append(r["faithful_share"])
    spread = max(max(v) - min(v) for v in shares.values())
    assert (summary["warnings"] == []) == (spread <= 0.2), (spread, summary["warnings"])


def _newest(folders) -> dict[str, dict]:
    """Per key, across folders: the terminal record with the latest finished_at, else the latest error."""
    got: dict[str, dict] = {}
    for folder in folders:
        for line in (folder / "solves.jsonl").read_bytes().splitlines():
            rec = orjson.loads(line)
            old = got.get(rec["key"])
            term, old_term = rec["status"] in TERMINAL, old is not None and old["status"] in TERMINAL
            if old is None or (term and not old_term) or (term == old_term and rec["finished_at"] >= old["finished_at"]):
                got[rec["key"]] = rec
    return got


def test_several_folders_in_either_order_give_the_newest_record_and_exact_figures(tmp_path):
    with FakeServer() as server:
        grid = write_grid(tmp_path, server.url, count=16, retries=1)
        old, new = tmp_path / "old", tmp_path / "new"
        run_bench(grid, old)
        # the later copy answers differently, and errors on a fifth of its solves (those stay the old ones)
        server.solve_hook = lambda prompt, labels: labels[-1]
        server.fault_hook = lambda body: "404" if "choice" in body.get("structured_outputs", {}) and \
            _h(body["messages"][0]["content"]) % 5 == 0 else None
        run_bench(grid, new, check=False)
    outs = []
    for order, name in (((old, new), "ab"), ((new, old), "ba")):
        proc = bench("report", *map(str, order), "--out", str(tmp_path / name), check=True)
        outs.append(proc.stdout)
    assert (tmp_path / "ab" / "summary.csv").read_bytes() == (tmp_path / "ba" / "summary.csv").read_bytes()
    assert outs[0] == outs[1]
    expect: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for r in _newest([old, new]).values():
        if r["status"] == "ok" and r["render_status"] == "ok":
            e = expect[(r["renderer"], r["solver"], r["family"], r["complexity"])]
            e[0] += 1
            e[1] += r["correct"]
    summary = orjson.loads((tmp_path / "ab" / "summary.json").read_bytes())
    got = {(r["renderer"], r["solver"], r["family"], r["complexity"]): [r["n"], r["correct"]]
           for r in summary["rows"] if r["n"]}
    assert got == dict(expect)
    for cell in summary["cells"]:   # pooled and macro from exact fractions, rounded once, as printed
        mine = [v for k, v in expect.items() if k[:2] == (cell["renderer"], cell["solver"])]
        n, correct = sum(v[0] for v in mine), sum(v[1] for v in mine)
        assert cell["pooled"] == round(correct / n, 4)
        assert cell["macro_over_groups"] == round(sum(c / k for k, c in mine) / len(mine), 4)
        assert f"{cell['pooled']:.3f} (n={n})" in outs[0]


def test_macro_is_averaged_from_unrounded_accuracies():
    from runner.reporting.stats import SummaryRow, average
    row = lambda n, k: SummaryRow("r", "a", "b", "f", n, n, k, round(k / n, 4), None, None, None, 0, 0, 0, 0, 0, 0, 0,  # noqa: E731
                                  0, None, None, None, None)
    got = average([row(48, 14), row(43, 12), row(46, 17)])
    exact = (14 / 48 + 12 / 43 + 17 / 46) / 3
    assert got.macro == round(exact, 4) == 0.3134   # averaging rows rounded to 4 places gave 0.3135


def test_mean_tokens_leave_out_units_without_tokens(messy_run):
    bench("report", str(messy_run), check=True)
    summary = orjson.loads((messy_run / "report" / "summary.json").read_bytes())
    sums: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for r in best(messy_run / "solves.jsonl"):
        if r["status"] != "error" and (r["prompt_tokens"] or r["completion_tokens"]):
            e = sums[(r["renderer"], r["solver"], r["family"], r["complexity"])]
            e[0] += r["prompt_tokens"]
            e[1] += 1
    assert any(r["errors"] for r in summary["rows"])
    for row in summary["rows"]:
        e = sums.get((row["renderer"], row["solver"], row["family"], row["complexity"]))
        assert row["prompt_tokens_mean"] == (round(e[0] / e[1], 1) if e else None), row


def _rows(cells: int, families=("equality", "transitive_order"), empty=()):
    from runner.reporting.stats import SummaryRow
    out = []
    for c in range(cells):
        for fam in families:
            for comp in (2, 4):
                n = 0 if c in empty else 10
                out.append(SummaryRow("r", f"renderer{c % 5}", f"solver{c // 5}", fam, comp, n, n // 2,
                                      0.5 if n else None, 0.2 if n else None, 0.8 if n else None, 0.25, 0, 0,
                                      24 if c in empty else 0, 0, 0, 0, 0, 0, None, None, None, None))
    return out


def test_by_complexity_keeps_20_lines_apart_with_one_legend_outside_the_data():
    from runner.reporting.figures import by_complexity_figure, line_styles
    styles = line_styles(list(range(40)))
    assert len(set(styles.values())) == 40   # no two lines look alike
    fig = by_complexity_figure(_rows(20), {"equality": 0.25, "transitive_order": 1 / 3})
    assert all(ax.get_legend() is None for ax in fig.axes)   # nothing drawn over the data
    [legend] = fig.legends
    assert len(legend.get_texts()) == 20
    looks = {(h.get_color(), h.get_linestyle(), h.get_marker()) for h in legend.legend_handles}
    assert len(looks) == 20
    for ax in fig.axes:   # each panel's lines carry the same looks as the legend
        assert {(l.get_color(), l.get_linestyle(), l.get_marker()) for l in ax.get_lines() if l.get_marker() != "None"} <= looks


def test_the_heatmap_marks_baselines_and_says_why_a_cell_is_empty():
    from runner.reporting.figures import heatmap_figure
    fig = heatmap_figure(_rows(2, empty=(1,)), {"equality": 0.25}, frozenset({("r", "solver0")}))
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert any(t.startswith("no faithful render:\n96 unfaithful") for t in texts), texts
    assert [t.get_text() for t in ax.get_xticklabels()] == ["solver0\n(baseline)"]
    empty = next(t for t in ax.texts if t.get_text().startswith("no faithful"))
    assert empty.get_color() == "#333333"   # dark on the light grey of an empty cell, not white on white


@pytest.mark.parametrize("cells, empty", [(1, ()), (2, (1,)), (7, (3,)), (20, ())])
@pytest.mark.parametrize("picture", ["heatmap", "by_complexity"])
def test_a_picture_drawn_once_is_the_picture_savefig_crops_in_two_drawings(tmp_path, picture, cells, empty):
    """save_tight (the tight box measured, one drawing) writes the bytes of savefig(bbox_inches="tight"), which draws
    the figure once to find the box and again to write it."""
    from runner.reporting.figures import by_complexity_figure, heatmap_figure, pyplot, save_tight
    chance = {"equality": 0.25, "transitive_order": 1 / 3}

    def make():
        rows = _rows(cells, empty=empty)
        return heatmap_figure(rows, chance, frozenset()) if picture == "heatmap" else by_complexity_figure(rows, chance)
    plt = pyplot()
    fig = make()
    fig.savefig(tmp_path / "twice.png", dpi=130, bbox_inches="tight")
    plt.close(fig)
    fig = make()
    save_tight(fig, tmp_path / "once.png")
    plt.close(fig)
    assert (tmp_path / "once.png").read_bytes() == (tmp_path / "twice.png").read_bytes()


WIDE = """name: wide-grid-with-a-long-name
skeletons: {{generate: {{count: 8, complexities: [short, 5], seed: 3}}}}
providers:
  qwen2.5-7b-instruct: {{kind: vllm, model: qwen, base_url: "{qwen}", attempts: 1}}
  llama-3.1-8b-instruct: {{kind: vllm, model: llama, base_url: "{llama}", attempts: 1}}
  smollm2-135m-instruct: {{kind: vllm, model: smollm, base_url: "{smollm}", attempts: 1}}
  template: {{kind: template}}
  random: {{kind: random}}
  prior: {{kind: prior}}
renderers: [template, qwen2.5-7b-instruct, llama-3.1-8b-instruct, {{provider: smollm2-135m-instruct, temperature: 0.7}}]
solvers: [random, prior, qwen2.5-7b-instruct, {{provider: llama-3.1-8b-instruct, mode: loglik}}]
"""


def test_every_table_of_a_4x4_report_fits_100_columns_and_never_breaks_a_name(tmp_path):
    with FakeServer("qwen") as qwen, FakeServer("llama") as llama, FakeServer("smollm") as smollm:
        def render_hook(render, payload):   # some unfaithful renders, so the reasons line is long
            if _h(payload["id"]) % 3 == 0:
                render["premises"].pop(0)
            return render
        for server in (qwen, llama, smollm):
            server.render_hook = render_hook
        grid = tmp_path / "grid.yaml"
        grid.write_text(WIDE.format(qwen=qwen.url, llama=llama.url, smollm=smollm.url))
        out = tmp_path / "run"
        run = bench("run", "--grid", str(grid), "--out", str(out), check=True)
    report = bench("report", str(out), check=True)
    names = ["qwen2.5-7b-instruct", "llama-3.1-8b-instruct", "smollm2-135m-instruct@T0.7", "template", "random",
             "prior", "llama-3.1-8b-instruct:loglik", "wide-grid-with-a-long-name"]
    for text in (run.stdout, report.stdout):
        lines = [l for l in text.splitlines() if str(tmp_path) not in l]   # a path is as long as it is
        assert max(len(l) for l in lines) <= 100, max(lines, key=len)
        for line in lines:   # a name is whole wherever it stands: no line ends in a part of one
            words = line.replace("\u2026", " \u2026").split()
            last = words[-1] if words else ""
            assert last in names or not any(n.startswith(last) and len(last) >= 3 for n in names), line
            assert "\u2026" not in line, line   # nor is one cut short with an ellipsis
    assert "smollm2-135m-instruct@T0.7" in report.stdout


def test_two_solvers_that_once_shared_keys_are_both_reported(tmp_path):
    """A run folder from before bench kept two setups' keys apart: one model named twice, its records under
    one key each. The report keeps both solvers, each with its own records, never one for the other."""
    grid = tmp_path / "grid.yaml"
    grid.write_text("name: twins\nskeletons: {generate: {count: 12}}\nproviders:\n  t: {kind: template}\n"
                    "  a: {kind: random, seed: 3}\n  b: {kind: random, seed: 4}\nrenderers: [t]\nsolvers: [a, b]\n")
    out = tmp_path / "run"
    bench("run", "--grid", str(grid), "--out", str(out), check=True)
    saved = orjson.loads((out / "grid.json").read_bytes())
    saved["providers"]["b"]["seed"] = 3   # the grid as it was: the same settings twice
    (out / "grid.json").write_bytes(orjson.dumps(saved))
    records = [orjson.loads(line) for line in (out / "solves.jsonl").read_bytes().splitlines()]
    key_of = {(r["render_key"], r["sample"]): r["key"] for r in records if r["solver"] == "a"}
    for r in records:   # b's records under a's keys, as that grid's run wrote them
        r["key"] = key_of[(r["render_key"], r["sample"])]
    (out / "solves.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    bench("report", str(out), check=True)
    rows = list(csv.DictReader((out / "report" / "summary.csv").open()))
    per_solver = defaultdict(int)
    for row in rows:
        per_solver[row["solver"]] += int(row["n"])
    assert per_solver == {"a": 12, "b": 12}
    want = {s: sum(r["correct"] for r in records if r["solver"] == s) for s in "ab"}
    got = defaultdict(int)
    for row in rows:
        got[row["solver"]] += int(row["correct"])
    assert got == want


def test_one_model_behind_two_engines_is_two_solvers_each_asked_and_reported(tmp_path):
    with FakeServer(owned_by="vllm") as vllm, FakeServer(owned_by="sglang") as sglang:
        grid = tmp_path / "grid.yaml"
        grid.write_text("name: engines\nskeletons: {generate: {count: 10}}\nproviders:\n  t: {kind: template}\n"
                        f"  on_vllm: {{kind: vllm, model: fake-model, base_url: '{vllm.url}'}}\n"
                        f"  on_sglang: {{kind: openai, server: sglang, model: fake-model, base_url: '{sglang.url}'}}\n"
                        "renderers: [t]\nsolvers: [on_vllm, on_sglang]\n")
        out = tmp_path / "run"
        bench("run", "--grid", str(grid), "--out", str(out), check=True)
        asked = (len([b for b in vllm.bodies if "messages" in b]), len([b for b in sglang.bodies if "messages" in b]))
    assert asked == (10, 10)
    records = [orjson.loads(line) for line in (out / "solves.jsonl").read_bytes().splitlines()]
    assert len({r["key"] for r in records}) == 20
    bench("report", str(out), check=True)
    per_solver = defaultdict(int)
    for row in csv.DictReader((out / "report" / "summary.csv").open()):
        per_solver[row["solver"]] += int(row["n"])
    assert per_solver == {"on_vllm": 10, "on_sglang": 10}


@pytest.mark.parametrize("runs", [1, 2])
@pytest.mark.parametrize("within", ["template", "smollm2-135m-instruct@T0.7", "a" * 36])
def test_the_paired_table_keeps_every_name_whole_within_100_columns(runs, within):
    """`--compare`'s table at four-digit counts and signed intervals: the name held fixed is never folded ("templat"
    over "e" was one) nor cut, and no figure is cut short; a name the figures leave too little room for is given
    by a number in the table and in full under it."""
    from rich.console import Console

    from runner.reporting.compare import Paired
    from runner.reporting.terminal import WIDTH, paired_table
    got = [Paired("solver", "random", "prior", f"run-{i}", within, 1800, 900, 392, 360, 148, 1800, 0.321, 0.303,
                  -0.018, -0.0213, 0.0612, 0.258) for i in range(runs)]
    console = Console(width=WIDTH, record=True, file=open(os.devnull, "w"))
    console.print(paired_table(got))
    lines = console.export_text().splitlines()
    words = [w for line in lines for w in line.split()]
    assert max(map(len, lines)) <= WIDTH and within in words and "\u2026" not in "".join(lines), lines
    assert (runs == 1 or all(f"run-{i}" in words for i in range(runs))) and words.count("1800") == 2 * runs, lines
    if "[1]" in words:   # numbered: only where the name in the table would have made it wider than the console
        assert len(within) + 2 * (runs > 1) > 20 and words.count("[1]") == runs + 1, lines
