"""A resume with nothing left to do against the run that did the work: CPU of each, in fresh processes.

    python benchmarks/resume_bench.py --skeletons 5000 --rounds 3 [--baseline /path/to/other/checkout] [--server]

runs `bench run` of a grid of built-in providers (template renderers, random solvers: no server, every
unit done; 4 renderers x 5 solvers, so 5,000 skeletons are 100,000 solve units; with `--server` the solvers
are five providers on one fake server, latency 0, `benchmarks/common.py`) into a new folder, then
the same command again, `--rounds` times, each round alternating:
- `kept`: the rerun as a user makes it; the finished run kept its closing counts (`.settled`), nothing
  changed since, so the rerun reads no log line and makes no skeleton (runner/engine/settled.py);
- `walk`: the same rerun with `.settled` removed first: it reads the logs' index and the skeleton
  manifest, finds every skeleton settled and makes none (runner/engine/skip.py);
- `baseline`: the `--baseline` checkout's `bench run` on the same folder, when given (its rounds after the
  first find the manifest its first round wrote: a checkout with one then walks as this code's `walk` does).
CPU is user + system of the command and its helpers (os.wait4: waited-for children count).

    python benchmarks/resume_bench.py --index FOLDER --rounds 3

times the resume index of a run folder's two logs (runner/store/index.py `load_index`, the run's own call, its
helper processes included) against DuckDB (`read_json`, the key columns typed, bad lines ignored) and polars
(`scan_ndjson` of the key columns), each then made into the key -> status dict a resume looks keys up in; each
side in a fresh process, rounds alternating; wall and CPU (threads and helpers counted); with `--baseline`, that
checkout's `load_index` too (`before`).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import fake_server  # noqa: E402

GRID = """name: resume-bench
skeletons:
  generate: {{count: {count}, complexities: [2, 4, 6, 8], seed: 0}}
providers:
{providers}
renderers: [{renderers}]
solvers: [{solvers}]
"""


def run(root: Path, grid: Path, out: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak RSS MiB, stdout) of one `bench run` from the checkout at `root`."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as std:
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                                 str(grid), "--out", str(out)], cwd=root, stdout=std, stderr=err,
                                env={**os.environ, "PYTHONPATH": str(root)})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(err.read().decode()[-2000:])
        std.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, std.read().decode()


INDEX_SIDES = {
    "bench": """
from runner.store.index import load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS
n = len(load_index(folder / "solves.jsonl", SOLVE_FIELDS)) + len(load_index(folder / "renders.jsonl", RENDER_FIELDS))
""",
    "duckdb": """
import duckdb
con, n = duckdb.connect(), 0
con.execute("SET enable_progress_bar = false")
for name, cols in (("solves.jsonl", "{'key': 'VARCHAR', 'status': 'VARCHAR', 'correct': 'BOOLEAN'}"),
                   ("renders.jsonl", "{'key': 'VARCHAR', 'status': 'VARCHAR'}")):
    t = con.execute(f"select key, status from read_json('{folder / name}', format='newline_delimited', "
                    f"columns={cols}, ignore_errors=true)").fetchnumpy()
    n += len(dict(zip(t["key"].tolist(), t["status"].tolist())))
""",
    "polars": """
import polars as pl
n = 0
for name, cols in (("solves.jsonl", {"key": pl.String, "status": pl.String, "correct": pl.Boolean}),
                   ("renders.jsonl", {"key": pl.String, "status": pl.String})):
    df = pl.scan_ndjson(folder / name, schema=cols).collect()
    n += len(dict(zip(df["key"].to_list(), df["status"].to_list())))
""",
}


def index_side(name: str, folder: Path, root: Path = ROOT) -> tuple[float, float, str]:
    """(wall s, CPU s, keys) of one side of the index comparison, in a fresh process (imports not timed); `root`:
    the checkout whose `load_index` the bench side runs."""
    return timed_side(INDEX_SIDES["bench" if name == "before" else name], folder, root)


def timed_side(side: str, folder: Path, root: Path = ROOT) -> tuple[float, float, str]:
    """(wall s, CPU s, its `n`) of `side`, code that reads `folder` and sets `n`, in a fresh process: its first
    import before the clock, its helper processes' CPU counted."""
    code = ("import os, sys, time\nfrom pathlib import Path\nfolder = Path(sys.argv[1])\n"
            + side.split("\n", 2)[1] + "\n"   # its first import, before the clock
            + "t0_, c0_ = time.perf_counter(), os.times()\n" + side
            + "e_ = os.times()\nprint(time.perf_counter() - t0_, e_.user + e_.system + e_.children_user"
              " + e_.children_system - c0_.user - c0_.system - c0_.children_user - c0_.children_system, n)\n")
    out = subprocess.run([sys.executable, "-c", code, str(folder)], cwd=root, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(root)}, check=True).stdout.splitlines()[-1].split()
    return float(out[0]), float(out[1]), out[2]


def index_rounds(folder: Path, rounds: int, baseline: Path | None) -> None:
    """The resume index against the columnar engines (and `baseline`'s index) on one folder, rounds alternating."""
    print(f"index of {folder}; cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}", flush=True)
    for i in range(rounds):
        got = {name: index_side(name, folder) for name in INDEX_SIDES}
        if baseline is not None:
            got["before"] = index_side("before", folder, baseline)
        if len({n for _, _, n in got.values()}) != 1:
            sys.exit(f"the sides found different numbers of keys: {got}")
        ours = got["bench"]
        print(f"round {i + 1}: " + "; ".join(
            f"{name} {w:.2f} s wall, {c:.2f} s CPU" + ("" if name == "bench" else
                                                       f" (bench/{name}: wall {ours[0] / w:.2f}x, CPU {ours[1] / c:.2f}x)")
            for name, (w, c, _) in got.items()) + f" (load {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skeletons", type=int, default=5000)
    ap.add_argument("--renderers", type=int, default=4)
    ap.add_argument("--solvers", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--folder", type=Path, default=Path(tempfile.mkdtemp()) / "run")
    ap.add_argument("--server", action="store_true", help="solvers on a fake server (latency 0), not baselines")
    ap.add_argument("--index", type=Path, help="a run folder: time its resume index against DuckDB and polars")
    args = ap.parse_args()
    if args.index is not None:
        index_rounds(args.index, args.rounds, args.baseline)
        return
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(fake_server(0.0)).url if args.server else None
        bench(args, url)


def bench(args: argparse.Namespace, url: str | None) -> None:
    """The run, then the rounds (see the module's docstring)."""
    grid = args.folder.parent / "resume-bench.yaml"
    providers = [f"  t{i}: {{kind: template, model: template-{i}}}" for i in range(args.renderers)]
    providers += [f"  r{i}: {{kind: random, seed: {i}}}" if url is None else
                  f'  r{i}: {{kind: vllm, model: fake-model, variant: v{i}, base_url: "{url}", max_concurrency: 64}}'
                  for i in range(args.solvers)]
    grid.write_text(GRID.format(count=args.skeletons, providers="\n".join(providers),
                                renderers=", ".join(f"t{i}" for i in range(args.renderers)),
                                solvers=", ".join(f"r{i}" for i in range(args.solvers))))
    units = args.skeletons * args.renderers * args.solvers
    print(f"{units:,} solve units; cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}", flush=True)
    wall, cpu, rss, first = run(ROOT, grid, args.folder)
    print(f"the run: {wall:.1f} s, CPU {cpu:.1f} s, peak {rss:.0f} MiB", flush=True)
    kept = args.folder / ".settled"
    sides = [("kept", ROOT), ("walk", ROOT)] + ([("baseline", args.baseline)] if args.baseline else [])
    for i in range(args.rounds):
        line = []
        for name, root in sides:
            if name != "kept" and kept.exists():
                kept.unlink()   # the walk and the baseline read the logs; the walk's rerun keeps the counts again
            w, c, r, out = run(root, grid, args.folder)
            if out != first:
                sys.exit(f"{name}: its closing lines differ from the run's:\n{out}\n---\n{first}")
            line.append(f"{name} {w:.1f} s, CPU {c:.2f} s ({100 * c / cpu:.1f}% of the run's), peak {r:.0f} MiB")
        if args.baseline is not None:   # the baseline kept counts under its own code's stamp (or none):
            run(ROOT, grid, args.folder)   # this code's rerun keeps them again, for the next round's `kept`
        print(f"round {i + 1}: " + "; ".join(line) + f" (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
