"""`bench report` on a million solve records: wall time and peak memory of the whole command.

    python benchmarks/report_bench.py --skeletons 50000 --renderers 4 --solvers 5 --folder /tmp/report-bench

writes a run folder whose logs hold what a real run of that grid writes (records with the grid's own unit
keys, built-in renderer and solvers), then times `bench report` on it in a fresh process.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
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
    """The grid and its logs (every unit done; a few errors and invalid answers); the number of solve records."""
    from runner.commands.folder import save_grid
    from runner.config.grid import load_grid
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
    with open(folder / "renders.jsonl", "wb") as renders, open(folder / "solves.jsonl", "wb") as solves:
        for sk in skeletons(grid):
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
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skeletons", type=int, default=50_000)
    ap.add_argument("--renderers", type=int, default=4)
    ap.add_argument("--solvers", type=int, default=5)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/report-bench"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not (args.folder / "solves.jsonl").exists():
        t = time.perf_counter()
        n = write_run(args.folder, args.skeletons, args.renderers, args.solvers)
        print(f"wrote {n:,} solve records to {args.folder} in {time.perf_counter() - t:.1f} s", flush=True)
    size = (args.folder / "solves.jsonl").stat().st_size
    lines = sum(1 for _ in open(args.folder / "solves.jsonl", "rb"))
    print(f"solves.jsonl: {lines:,} records, {size / 2**20:.0f} MiB")
    for i in range(args.rounds):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", "report", str(args.folder)],
                              cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t
        if proc.returncode != 0:
            sys.exit(proc.stderr)
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"round {i + 1}: bench report {wall:.2f} s, peak RSS (largest child so far) {rss:.0f} MiB", flush=True)
    print(f"cores: {os.cpu_count()}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
