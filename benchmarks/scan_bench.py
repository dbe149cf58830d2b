"""The solve log's scans (runner/reporting/columnar_sql.py: the exact SCAN and the TYPED read) at two longest-line
limits, in one process, rounds alternated: wall and CPU seconds of each.

    python benchmarks/scan_bench.py --folder /tmp/rep44/bench1m --rounds 3

The engine reads a log in buffers of `maximum_object_size`, a buffer a thread: a limit at or over the log's size
reads it on one core.

    python benchmarks/scan_bench.py --folder /tmp/rep44/bench1m2 --rounds 3 --kept

`--kept`: instead, the report's own read of the solve log (runner/reporting/log_scan.py's `scan_log`) three ways,
rounds alternated: from the rows an earlier report kept beside it, by the typed read (the rows moved aside), and by
the exact scan (the mark moved aside too). A report must have kept both on the folder before (`bench report`)."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from runner.reporting import columnar_sql as sql  # noqa: E402
from runner.reporting.columnar import SOLVE_SCAN  # noqa: E402
from runner.reporting.log_scan import scan_log  # noqa: E402


def timed(con: duckdb.DuckDBPyConnection, scan: str, path: Path, most: int) -> tuple[float, float]:
    """Wall and CPU seconds of one scan into a fresh `raw`."""
    con.execute("DROP TABLE IF EXISTS raw")
    con.execute(sql.RAW)
    t, c = time.perf_counter(), time.process_time()
    con.execute(scan, {"f": 0, "path": str(path), "most": most})
    return time.perf_counter() - t, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path, required=True, help="a run folder (benchmarks/report_bench.py makes one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kept", action="store_true", help="time scan_log from kept rows, typed and exact")
    args = ap.parse_args()
    path = args.folder / "solves.jsonl"
    if args.kept:
        return kept(path, args.rounds)
    con = duckdb.connect(config={"preserve_insertion_order": True})
    con.execute("SET enable_progress_bar = false")
    print(f"{path}: {path.stat().st_size / 2**20:.0f} MiB; cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    for i in range(args.rounds):
        for name, scan in (("exact", sql.SCAN), ("typed", sql.TYPED)):
            for most in (sql.FIRST_MOST, sql.LAST_MOST):
                wall, cpu = timed(con, scan, path, most)
                print(f"round {i + 1}: {name} scan, longest line {most // 2**20} MiB: {wall:.2f} s, {cpu:.2f} s CPU",
                      flush=True)


def kept(path: Path, rounds: int) -> None:
    """scan_log of the log from its kept rows, by the typed read and by the exact scan, each into a fresh engine."""
    rows, mark = SOLVE_SCAN.rows_of(path), SOLVE_SCAN.mark_of(path)
    if not (rows.is_file() and mark.is_file()):
        sys.exit(f"{path.parent}: no kept rows or mark of this code: run `bench report {path.parent}` first")
    aside = {rows: rows.with_name(rows.name + ".aside"), mark: mark.with_name(mark.name + ".aside")}
    for i in range(rounds):
        for name, moved in (("kept rows", ()), ("typed read", (rows,)), ("exact scan", (rows, mark))):
            try:
                for p in moved:
                    os.rename(p, aside[p])
                con = duckdb.connect(config={"preserve_insertion_order": True})
                con.execute("SET enable_progress_bar = false")
                con.execute(sql.RAW)
                t, c = time.perf_counter(), time.process_time()
                scan_log(con, SOLVE_SCAN, 0, path)
                print(f"round {i + 1}: {name}: {time.perf_counter() - t:.2f} s, {time.process_time() - c:.2f} s CPU",
                      flush=True)
                con.close()
            finally:
                for p, q in aside.items():
                    if q.exists():
                        os.rename(q, p)

if __name__ == "__main__":
    main()
