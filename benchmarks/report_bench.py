"""`bench report` on a million solve records: wall time and peak memory of the whole command.

    python benchmarks/report_bench.py --skeletons 50000 --renderers 4 --solvers 5 --folder /tmp/report-bench

writes a run folder whose logs hold what a real run of that grid writes (records with the grid's own unit
keys, built-in renderer and solvers), then times `bench report` on it in a fresh process.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GRID = """name: report-bench
skeletons:
  generate: {{count: {count}, complexities: [2, 4, 6, 8], seed: 0}}
providers:
{providers}
renderers: [{renderers}]
solvers: [{solvers}]
"""


def write_run(folder: Path, count: int, renderers: int, solvers: int) -> int:
    """The grid and its logs (every unit done; a few errors and invalid answers), and the skeleton manifest a run
    keeps; the number of solve records."""
    from runner.commands.folder import save_grid
    from runner.config.grid import load_grid
    from runner.plan import manifest
    from runner.plan.units import UnitPlan, skeletons
    from runner.store.records import SCHEMA, RenderRecord, SolveRecord

    folder.mkdir(parents=True, exist_ok=True)
    providers = [f"  t{i}: {{kind: template, model: template-{i}}}" for i in range(renderers)]
    providers += [f"  r{i}: {{kind: random, seed: {i}}}" for i in range(solvers)]
    grid_file = folder / "grid.yaml"
    grid_file.write_text(GRID.format(count=count, providers="\n".join(providers),
                                     renderers=", ".join(f"t{i}" for i in range(renderers)),
                                     solvers=", ".join(f"r{i}" for i in range(solvers))))
    grid = load_grid(grid_file)
    save_grid(grid, folder, grid_file)
    plan, rng, n = UnitPlan(grid), random.Random(0), 0
    notes = manifest.Writer(manifest.path_for(folder, grid))
    with open(folder / "renders.jsonl", "wb") as renders, open(folder / "solves.jsonl", "wb") as solves:
        for index, sk in enumerate(skeletons(grid)):
            notes.add([manifest.Noted(index, sk.identity, sk.family, len(sk.answer_options))])
            for unit in plan.units(sk):
                renders.write(RenderRecord(
                    schema=SCHEMA, key=unit.key, status="ok", skeleton=sk.identity, family=sk.family,
                    complexity=sk.complexity, renderer=unit.stage.label, model="template", sample=unit.sample,
                    text="(text)", reason=None, attempts=1, latency_s=0.0, prompt_tokens=0, completion_tokens=0,
                    finish_reason="stop", started_at=0.0, finished_at=0.0, format="structured").to_line())
                for su in unit.solves:
                    roll = rng.random()
                    status = "error" if roll < 0.01 else "invalid" if roll < 0.03 else "ok"
                    answer = rng.choice(sk.answer_options) if status == "ok" else None
                    solves.write(SolveRecord(
                        schema=SCHEMA, key=su.key, status=status, render_key=unit.key, skeleton=sk.identity,
                        family=sk.family, complexity=sk.complexity, renderer=unit.stage.label, solver=su.stage.label,
                        model="random", render_sample=unit.sample, sample=su.sample, answer=answer, raw=answer or "",
                        gold=sk.gold_answer, correct=(answer == sk.gold_answer) if status == "ok" else None,
                        constrained="choice", reason="http 500: x" if status == "error" else None, attempts=1,
                        latency_s=round(rng.random() * 2, 6), prompt_tokens=rng.randrange(100, 400),
                        completion_tokens=rng.randrange(1, 8), finish_reason="stop", started_at=0.0,
                        finished_at=0.0).to_line())
                    n += 1
    notes.close()
    return n


# The peers, each in a fresh process on the same folder: the same figures per renderer x solver x family x
# complexity (units by status, correct answers, latency p50 and p95, mean tokens), with the newest record of each
# unit winning; neither checks keys against the grid nor makes the tables, files and pictures.
DUCKDB = """
import duckdb, sys
rows = duckdb.sql(f\"\"\"
WITH s AS (SELECT * FROM read_ndjson('{sys.argv[1]}/solves.jsonl', ignore_errors = true)),
w AS (SELECT arg_max(s, struct_pack(t := status <> 'error', d := finished_at)) AS r FROM s GROUP BY key)
SELECT r.renderer, r.solver, r.family, r.complexity, count(*) FILTER (r.status = 'ok'),
  count(*) FILTER (r.correct), count(*) FILTER (r.status = 'invalid'), count(*) FILTER (r.status = 'error'),
  quantile_cont(r.latency_s, [0.5, 0.95]) FILTER (r.status <> 'error'), avg(r.prompt_tokens), avg(r.completion_tokens)
FROM w GROUP BY ALL\"\"\").fetchall()
assert len(rows) > 0
"""
# DuckDB with the render log's figures too, which the report also makes (its renders table, the fidelity rows): the
# newest record of each render unit, counted by renderer x status x family x complexity
DUCKDB_RENDERS = DUCKDB + """
rows = duckdb.sql(f\"\"\"
WITH s AS (SELECT * FROM read_ndjson('{sys.argv[1]}/renders.jsonl', ignore_errors = true)),
w AS (SELECT arg_max(s, struct_pack(t := status <> 'error', d := finished_at)) AS r FROM s GROUP BY key)
SELECT r.renderer, r.status, r.family, r.complexity, count(*), count(*) FILTER (len(r.checks) = 0)
FROM w GROUP BY ALL\"\"\").fetchall()
assert len(rows) > 0
"""
ORJSON = """
import orjson, sys
from collections import defaultdict
best = {}
with open(sys.argv[1] + '/solves.jsonl', 'rb') as fh:
    for line in fh:
        try:
            r = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        new = (r['status'] != 'error', r['finished_at'], r['renderer'], r['solver'], r['family'], r['complexity'],
               r['status'], r['correct'], r['latency_s'], r['prompt_tokens'], r['completion_tokens'])
        old = best.get(r['key'])
        if old is None or new[:2] >= old[:2]:
            best[r['key']] = new
groups = defaultdict(lambda: [0, 0, 0, 0, [], 0, 0])
for _, _, renderer, solver, family, complexity, status, correct, latency, pt, ct in best.values():
    g = groups[(renderer, solver, family, complexity)]
    g[0] += status == 'ok'; g[1] += bool(correct); g[2] += status == 'invalid'; g[3] += status == 'error'
    if status != 'error':
        g[4].append(latency); g[5] += pt; g[6] += ct
for g in groups.values():
    g[4].sort()
    g[4] = (g[4][len(g[4]) // 2], g[4][int(0.95 * (len(g[4]) - 1))]) if g[4] else None
assert groups
"""


def twin(folder: Path) -> Path:
    """A twin of the run folder for the old code's report: its logs and grids hard-linked (no copy). Each code
    keeps its own cached plan in the folder it reads and removes any other's, so on one folder two codes would
    make theirs again every round, and every report would be a first one."""
    other = folder.with_name(folder.name + "-old")
    for name in ("solves.jsonl", "renders.jsonl", "grid.json", "grid.yaml", *(
            f"grids/{p.name}" for p in (folder / "grids").glob("*.json"))):
        target = other / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or not target.samefile(folder / name):
            target.unlink(missing_ok=True)
            os.link(folder / name, target)
    return other


# A run's skeleton manifest, as the code in the working directory names it (its stamp covers that code): written
# where that code finds none, as its own run would have left it
NOTE = """
import sys
from pathlib import Path
from runner.config.grid import load_grid
from runner.plan import manifest
from runner.plan.units import skeletons
folder = Path(sys.argv[1])
grid = load_grid(folder / "grid.yaml")
path = manifest.path_for(folder, grid)
if not path.exists():
    notes = manifest.Writer(path)
    notes.add([manifest.Noted(i, sk.identity, sk.family, len(sk.answer_options)) for i, sk in enumerate(skeletons(grid))])
    notes.close()
"""


# What a run's end does where it wrote to big logs (runner/reporting/ahead.py): the plan, the logs' columns and marks
# its first report reads, kept; timed apart from the report (`--after-run`)
AHEAD = """
import sys
from pathlib import Path
from runner.reporting.ahead import prepare
why = prepare(Path(sys.argv[1]))
if why is not None:
    sys.exit(why)
"""


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one command in a fresh process."""
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(err.read().decode())
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skeletons", type=int, default=50_000)
    ap.add_argument("--renderers", type=int, default=4)
    ap.add_argument("--solvers", type=int, default=5)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/report-bench"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peers", action="store_true", help="also time DuckDB alone and a one-process orjson loop")
    ap.add_argument("--old", type=Path, help="a checkout of the code before: its bench report is timed too")
    ap.add_argument("--cold", action="store_true",
                    help="remove the cached plans, marks and kept columns (.report-plan-*, .report-*typed-*, "
                         ".report-*rows-*) before each bench report: a run's first report (each code's skeleton "
                         "manifest written first, unmeasured, as its run leaves it; else each code's plan, marks and "
                         "kept columns are made by an unmeasured report first)")
    ap.add_argument("--after-run", action="store_true",
                    help="as --cold, then before this code's report what its run's end keeps where it wrote to big "
                         "logs (reporting/ahead.py), timed apart: a run's first report as it is now; the old code's "
                         "and the peers' as with --cold")
    args = ap.parse_args()
    args.cold = args.cold or args.after_run
    if not (args.folder / "solves.jsonl").exists():
        t = time.perf_counter()
        n = write_run(args.folder, args.skeletons, args.renderers, args.solvers)
        print(f"wrote {n:,} solve records to {args.folder} in {time.perf_counter() - t:.1f} s", flush=True)
    size = (args.folder / "solves.jsonl").stat().st_size
    lines = sum(1 for _ in open(args.folder / "solves.jsonl", "rb"))
    print(f"solves.jsonl: {lines:,} records, {size / 2**20:.0f} MiB")
    report = [sys.executable, "-c", "from runner.cli import main; main()", "report", str(args.folder)]
    peers = {"bench report": (report, ROOT)}
    if args.peers:   # the report without its pictures: the figures, tables and files that DuckDB's peers stand for
        peers["bench report --no-pictures"] = ([*report, "--no-pictures", "--out", str(args.folder / "report-np"),
                                                "--csv", str(args.folder / "report-np.csv")], ROOT)
        peers["duckdb alone"] = ([sys.executable, "-c", DUCKDB, str(args.folder)], ROOT)
        peers["duckdb, renders too"] = ([sys.executable, "-c", DUCKDB_RENDERS, str(args.folder)], ROOT)
        peers["orjson loop"] = ([sys.executable, "-c", ORJSON, str(args.folder)], ROOT)
    if args.old:   # a checkout of the code before (git worktree add DIR COMMIT): its bench report
        peers["old bench report"] = ([sys.executable, "-c", "from runner.cli import main; main()", "report",
                                      str(twin(args.folder)), "--out", str(args.folder / "report-old")], args.old)
    times: dict[str, list[float]] = {name: [] for name in peers}
    reports = {"bench report": args.folder, "bench report --no-pictures": args.folder,
               "old bench report": twin(args.folder) if args.old else None}
    if args.cold:   # a first report after a run of its own code: the run's manifest there (a new code finds none)
        for name in peers.keys() & reports.keys():
            subprocess.run([sys.executable, "-c", NOTE, str(reports[name])], cwd=peers[name][1], check=True)
    if args.rounds and not args.cold:   # each code's plan cached in the folder it reads, unmeasured
        for name in peers.keys() & reports.keys():
            print(f"warm-up: {name} {timed(*peers[name])[0]:.2f} s", flush=True)
    for i in range(args.rounds):
        for name, (cmd, cwd) in peers.items():   # alternating: each round runs every peer once
            if args.cold and name in reports:   # what a first report finds: no plan, mark or kept columns
                for cached in reports[name].glob(".report-plan-*"):
                    shutil.rmtree(cached)
                for kept in (*reports[name].glob(".report-*rows-*"), *reports[name].glob(".report-*typed-*")):
                    kept.unlink()
                if args.after_run and name != "old bench report":
                    end = timed([sys.executable, "-c", AHEAD, str(reports[name])], cwd)[0]
                    print(f"round {i + 1}: the run's end before {name} (not in its time) {end:.2f} s", flush=True)
            wall, rss = timed(cmd, cwd)
            times[name].append(wall)
            print(f"round {i + 1}: {name} {wall:.2f} s, peak RSS {rss:.0f} MiB", flush=True)
    if args.rounds:
        base = times["bench report"]
        for name, walls in times.items():
            print(f"{name}: {', '.join(f'{w:.2f}' for w in walls)} s; bench report / {name} per round: "
                  + ", ".join(f"{b / w:.2f}x" for b, w in zip(base, walls)))
    print(f"cores: {os.cpu_count()}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
