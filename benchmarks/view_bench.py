"""`bench view` on a million solve records: the first page (the snapshot built, then the grid) and later pages.

    python benchmarks/view_bench.py --skeletons 50000 --renderers 4 --solvers 5 --folder /tmp/report-bench

writes (or reuses) the run folder of benchmarks/report_bench.py, then times, in this process, what a server
does: the snapshot (the report's loaders and the offset index) and the grid page, then the run page, a
renderer's list, a cell's list (plain, filtered, searched), unit pages (the first one also reads the grid's
source) and a comparison.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def timed(label: str, fn):
    started = time.perf_counter()
    out = fn()
    print(f"{label:<42} {time.perf_counter() - started:7.2f} s")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skeletons", type=int, default=50_000)
    ap.add_argument("--renderers", type=int, default=4)
    ap.add_argument("--solvers", type=int, default=5)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/report-bench"))
    args = ap.parse_args()
    from report_bench import write_run

    from runner.view import pages
    from runner.view.data import Runs
    from runner.view.unit import unit_page
    if not (args.folder / "solves.jsonl").exists():
        n = timed("writing the run folder", lambda: write_run(args.folder, args.skeletons, args.renderers, args.solvers))
        print(f"{n:,} solve records")
    runs = timed("snapshot (report loaders + offsets)", lambda: Runs([args.folder]))
    snap = runs.snapshot
    run = "report-bench"
    timed("grid page (heatmap, plots, fidelity)", lambda: pages.grid_page(snap))
    timed("run page", lambda: pages.run_page(snap, {"run": run}))
    timed("a renderer's renders (first)", lambda: pages.list_page(snap, {"run": run, "renderer": "t0"}))
    timed("a renderer's renders (again)", lambda: pages.list_page(snap, {"run": run, "renderer": "t0"}))
    timed("a cell's answers", lambda: pages.list_page(snap, {"run": run, "renderer": "t0", "solver": "r0"}))
    timed("a cell, wrong answers at complexity 4", lambda: pages.list_page(
        snap, {"run": run, "renderer": "t1", "solver": "r2", "status": "wrong", "complexity": "4"}))
    timed("a cell, a search by name", lambda: pages.list_page(
        snap, {"run": run, "renderer": "t1", "solver": "r2", "q": "order-0001"}))
    key = snap.by_renderer[(run, "t0")][123]["key"]
    timed("first unit page (reads the source once)", lambda: unit_page(runs, snap, {"run": run, "key": key}))
    key = snap.by_renderer[(run, "t2")][4567]["key"]
    timed("another unit page (in a cell, with prev/next)", lambda: unit_page(
        runs, snap, {"run": run, "key": key, "renderer": "t2", "solver": "r3"}))
    timed("comparison of two solvers", lambda: pages.compare_page(snap, {"kind": "solver", "a": "r0", "b": "r1"}))
    import resource
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")


if __name__ == "__main__":
    main()
