"""A run's first report prepared by the run (runner/reporting/ahead.py): a whole run that wrote to big logs keeps
their plan, columns and marks, and its first report reads those, with the figures of a report that scanned the logs;
a run that wrote nothing, a shard, or small logs keep nothing."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import orjson
import pytest

from runner.reporting.log_scan import identity
from tests.conftest import bench

GRID = """name: ahead
skeletons:
  generate: {count: 24, complexities: [2, 4], seed: 0}
providers:
  t0: {kind: template, model: template-0}
  r0: {kind: random, seed: 0}
  r1: {kind: random, seed: 1}
renderers: [t0]
solvers: [r0, {provider: r1, samples: 2}]
"""
EVERY = {"LSB_AHEAD_MIN": "0"}   # every log is big enough
KEPT = (".report-rows-*", ".report-renders-rows-*")
SAYS = "keeping the logs' index and columns for the next resume and report"


def kept(folder: Path) -> list[Path]:
    """What a report or a run's end keeps in a run folder: the plan, the logs' marks and columns."""
    return sorted(folder.glob(".report-*"))


def run(tmp_path: Path, *extra: str, env: dict | None = None):
    """`bench run` of GRID into tmp_path/run."""
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID)
    return bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), "-q", *extra, env=env, check=True)


def seen(kept_rows: Path) -> list[int]:
    """The log identity kept columns were kept of (their Parquet metadata)."""
    said = duckdb.sql(f"SELECT value::VARCHAR FROM parquet_kv_metadata('{kept_rows}')").fetchall()[0][0]
    return orjson.loads(said)


def test_a_run_that_wrote_big_logs_keeps_what_its_first_report_reads(tmp_path):
    """Both logs' columns are kept of the logs as the run left them, with the plan and the marks; the first report
    reads them (kept columns made to say every answer wrong give a report of wrong answers) and rewrites nothing;
    with them removed, the report scans the logs and writes the same files as one that read them."""
    got = run(tmp_path, env=EVERY)
    folder = tmp_path / "run"
    assert SAYS in got.stderr and "not kept" not in got.stderr
    assert len(list(folder.glob(".report-plan-*"))) == 1 and len(list(folder.glob(".report-*typed-*"))) == 2
    for pattern, log in zip(KEPT, ("solves.jsonl", "renders.jsonl")):
        [rows] = folder.glob(pattern)
        assert seen(rows) == list(identity(folder / log))
    cold = tmp_path / "cold"
    shutil.copytree(folder, cold)
    for path in kept(cold):
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in kept(folder)}
    bench("report", str(folder), "--no-pictures", check=True)
    bench("report", str(cold), "--no-pictures", check=True)
    assert {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in kept(folder)} == before   # read, not made
    for name in ("report.csv", "report/summary.csv", "report/summary.json", "report/report.md"):
        assert (folder / name).read_bytes() == (cold / name).read_bytes(), name
    [rows] = folder.glob(KEPT[0])
    wrong = tmp_path / "wrong.parquet"
    duckdb.sql(f"COPY (SELECT * REPLACE (false AS correct) FROM read_parquet('{rows}')) TO '{wrong}' "
               f"(FORMAT parquet, KV_METADATA {{seen: '{orjson.dumps(seen(rows)).decode()}'}})")
    os.replace(wrong, rows)
    bench("report", str(folder), "--no-pictures", "--csv", str(tmp_path / "wrong.csv"), check=True)
    right = [line.split(",") for line in (folder / "report.csv").read_text().splitlines()]
    told = [line.split(",") for line in (tmp_path / "wrong.csv").read_text().splitlines()]
    column = right[0].index("correct")
    assert sum(int(row[column]) for row in right[1:]) > 0 and {row[column] for row in told[1:]} == {"0"}


def test_a_rerun_that_writes_nothing_keeps_nothing_again(tmp_path):
    """A rerun answered from the kept counts, and one that walks the logs (`.settled` removed), write no record:
    they scan nothing at their end (what a report kept, or nothing, stays as it was)."""
    run(tmp_path, env=EVERY)
    folder = tmp_path / "run"
    for path in kept(folder):
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    assert SAYS not in run(tmp_path, env=EVERY).stderr
    (folder / ".settled").unlink()
    assert SAYS not in run(tmp_path, env=EVERY).stderr
    assert kept(folder) == []


@pytest.mark.parametrize("how", ["small logs", "a shard"])
def test_small_logs_or_a_shard_keep_nothing(tmp_path, how):
    """Below LSB_AHEAD_MIN (64 MiB by default) the report's own scan is quick: nothing is kept. A shard
    keeps nothing whatever the size: other shards may be writing the logs it would scan."""
    got = run(tmp_path) if how == "small logs" else run(tmp_path, "--shard", "0/2", env=EVERY)
    assert SAYS not in got.stderr and kept(tmp_path / "run") == []
    assert (tmp_path / "run" / "solves.jsonl").stat().st_size > 0


@pytest.mark.parametrize("where", ["solve mark", "render mark", "plan facts"])
def test_a_fifo_where_a_report_keeps_a_file_is_never_waited_on(tmp_path, where):
    """A FIFO (whose read would wait for a writer for ever) where the report reads a mark or its cached plan's
    facts: the report reads the logs as if none were kept, with the same files (bounded, so a wait fails the test
    instead of hanging it)."""
    from runner.reporting.columnar import SOLVE_SCAN
    from runner.reporting.render_sql import RENDER_SCAN
    run(tmp_path, env=EVERY)
    folder, cold = tmp_path / "run", tmp_path / "cold"
    shutil.copytree(folder, cold)
    for path in kept(cold):
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    bench("report", str(cold), "--no-pictures", check=True)
    if where == "plan facts":
        [plan] = folder.glob(".report-plan-*")
        fifo = plan / "facts.json"
    else:
        scan, log = (SOLVE_SCAN, "solves.jsonl") if where == "solve mark" else (RENDER_SCAN, "renders.jsonl")
        fifo = scan.mark_of(folder / log)
        for rows in folder.glob(".report-*rows-*"):   # read first where kept: the mark is read where they are not
            rows.unlink()
    fifo.unlink()
    os.mkfifo(fifo)
    bench("report", str(folder), "--no-pictures", timeout=120, check=True)
    for name in ("report.csv", "report/summary.csv", "report/report.md"):
        assert (folder / name).read_bytes() == (cold / name).read_bytes(), name
