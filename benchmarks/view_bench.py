"""`bench view` on a million solve records: the first page (the snapshot built, then the grid) and later pages.

    python benchmarks/view_bench.py --skeletons 50000 --renderers 4 --solvers 5 --folder /tmp/report-bench

writes (or reuses) the run folder of benchmarks/report_bench.py, then times, in this process, what a server
does: the snapshot (the report's loaders and the offset index) and the grid page, then a cell page, a
filtered cell page, a unit page (the first one also reads the grid's source) and a comparison.
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
    if not (args.folder / "solves.jsonl").exists():
        n = timed("writing the run folder", lambda: write_run(args.folder, args.skeletons, args.renderers, args.solvers))
        print(f"{n:,} solve records")
    runs = timed("snapshot (report loaders + offsets)", lambda: Runs([args.folder]))
    snap = runs.snapshot
    timed("grid page", lambda: pages.grid_page(snap))
    timed("cell page", lambda: pages.cell_page(snap, {"run": "report-bench", "renderer": "t0", "solver": "r0"}))
    timed("cell page, wrong answers at complexity 4", lambda: pages.cell_page(
        snap, {"run": "report-bench", "renderer": "t1", "solver": "r2", "status": "wrong", "complexity": "4"}))
    o = snap.cell("report-bench", "t0", "r0")[123]
    q = {"run": "report-bench", "renderer": "t0", "skeleton": o.skeleton, "rs": "0"}
    timed("first unit page (reads the source once)", lambda: pages.unit_page(runs, snap, q))
    o = snap.cell("report-bench", "t2", "r3")[4567]
    q = {"run": "report-bench", "renderer": "t2", "skeleton": o.skeleton, "rs": "0"}
    timed("another unit page", lambda: pages.unit_page(runs, snap, q))
    timed("comparison of two solvers", lambda: pages.compare_page(snap, {"kind": "solver", "a": "r0", "b": "r1"}))
    import resource
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")


if __name__ == "__main__":
    main()
