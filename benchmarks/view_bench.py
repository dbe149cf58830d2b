"""`bench view` on a million solve records: the first page (the snapshot built, then the grid) and later pages.

    python benchmarks/view_bench.py --skeletons 50000 --renderers 4 --solvers 5 --folder /tmp/report-bench
    python benchmarks/view_bench.py --folder /tmp/report-bench --serve /tmp/base . --rounds 3

The first form times the pages in this process. The second (`--serve TREE...`) starts `bench view FOLDER` from
each source tree in turn (rounds alternated) and times, from the process's start, the first HTTP 200 of the
grid page with its cell table (a preliminary one counts: its figures are the counts of the records) and the
whole reading (a grid page no longer preliminary), with the server's peak RSS (VmHWM) at each.

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


def serve_once(tree: Path, folder: Path) -> tuple[float, float, float, float]:
    """(s to the first grid page, its peak RSS in MB, s to the whole reading, peak RSS in MB) of one `bench view`."""
    import re
    import signal
    import subprocess
    import urllib.request
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", str(folder),
                             "--port", "0"], cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                            stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "http://" not in line:
            line = proc.stderr.readline()
            if not line:
                raise SystemExit(f"bench view from {tree} said no URL")
        url = re.search(r"(http://[^/ ]+/)", line).group(1)   # type: ignore[union-attr]
        first = whole = None
        while whole is None:
            with urllib.request.urlopen(url, timeout=120) as resp:
                page = resp.read().decode()
            if resp.status == 200 and 'table class="heatmap"' in page:
                at = (time.perf_counter() - started, _hwm(proc.pid))
                first = first or at
                if "Preliminary figures" not in page:
                    whole = at
            time.sleep(0.05)
        return first[0], first[1], whole[0], whole[1]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)


def _hwm(pid: int) -> float:
    """A process's peak resident memory so far, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def serve_rounds(trees: list[Path], folder: Path, rounds: int) -> None:
    """Each tree's `bench view` on the folder, rounds alternated; one line per run, then the medians."""
    got: dict[Path, list[tuple[float, float, float, float]]] = {t: [] for t in trees}
    for r in range(rounds):
        for tree in trees:
            got[tree].append(serve_once(tree, folder))
            f, fm, w, wm = got[tree][-1]
            print(f"round {r + 1} {str(tree):<28} first grid {f:6.2f} s {fm:6.0f} MB   whole {w:6.2f} s {wm:6.0f} MB",
                  flush=True)
    for tree, runs in got.items():
        med = [sorted(x[i] for x in runs)[len(runs) // 2] for i in range(4)]
        print(f"median {str(tree):<28} first grid {med[0]:6.2f} s {med[1]:6.0f} MB   whole {med[2]:6.2f} s {med[3]:6.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skeletons", type=int, default=50_000)
    ap.add_argument("--renderers", type=int, default=4)
    ap.add_argument("--solvers", type=int, default=5)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/report-bench"))
    ap.add_argument("--serve", type=Path, nargs="+", metavar="TREE", help="source trees to serve from, in turn")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from report_bench import write_run

    from runner.view import pages
    from runner.view.data import Runs
    from runner.view.unit import unit_page
    if not (args.folder / "solves.jsonl").exists():
        n = timed("writing the run folder", lambda: write_run(args.folder, args.skeletons, args.renderers, args.solvers))
        print(f"{n:,} solve records")
    if args.serve:
        serve_rounds([t.resolve() for t in args.serve], args.folder, args.rounds)
        return
    from runner.view.data import build_quick
    quick = timed("grid's fast figures (quick.py, DuckDB)", lambda: build_quick([args.folder]))
    timed("grid page, preliminary", lambda: pages.grid_page(quick))
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
