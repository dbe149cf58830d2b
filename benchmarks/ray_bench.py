"""`bench run --ray`: the driver's write path, and a Ray run against a plain run of the same grid.

    python benchmarks/ray_bench.py driver [--skeletons 40000] [--agents 2]
    python benchmarks/ray_bench.py compare [--skeletons 20000]

driver: the cluster's ceiling. Synthetic agents (Ray actors on this machine) answer every batch at
once with ready records (real record lines: one render and three solves per skeleton), so what is
timed is the driver alone: making the batches (the skeletons), sending them, receiving the records
and appending them to the logs. Figure: records per second it absorbs, and the driver process's CPU
per record (Ray's threads in it included).
compare: two fake servers; one grid (template renderer, the fake servers as one shared solver with
both URLs, 64 requests in flight); `bench run` plain, then `bench run --ray ADDRESS` with 2 agents
on a 2-node local cluster started beforehand (whole commands, fresh folders, alternating). Ray's
start-up on its own: the Ray command for a 1-skeleton grid (join, place and start 2 agents, stop).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, fake_server, run_child  # noqa: E402

GRID_DRIVER = """name: driver
skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers: {{template: {{kind: template}}, random: {{kind: random}}}}
renderers: [template]
solvers: [{{provider: random, samples: 3}}]
max_in_flight: 1024
ray: {{batch: {batch}, resources: {{agent: 1}}}}
"""
GRID_COMPARE = """name: compare
skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers:
  fake: {{kind: openai, model: fake-model, base_url: ["{url1}", "{url2}"], max_concurrency: 64}}
  template: {{kind: template}}
renderers: [template]
solvers: [fake]
ray: {{batch: 64, resources: {{agent: 1}}}}
"""


def sample_lines(tmp: Path) -> tuple[bytes, bytes]:
    """A real render record and a real solve record (of the driver grid), from a 1-skeleton run."""
    grid = tmp / "one.yaml"
    grid.write_text(GRID_DRIVER.format(n=1, batch=1))
    subprocess.run([sys.executable, "-m", "runner", "run", "--grid", str(grid), "--out", str(tmp / "one"), "-q"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return ((tmp / "one" / "renders.jsonl").read_bytes().splitlines(keepends=True)[0],
            (tmp / "one" / "solves.jsonl").read_bytes().splitlines(keepends=True)[0])


class Synthetic:
    """An agent that answers a batch at once: one render and three solve records per skeleton."""

    def __init__(self, render: bytes, solve: bytes):
        self.render, self.solve = render, solve

    def run_batch(self, batch):
        from runner.cluster.work import BatchResult
        from runner.engine.result import RunResult
        n = len(batch.skeletons) if batch.span is None else batch.span[1] - batch.span[0]
        return BatchResult(batch.id, [self.render] * n, [self.solve] * (3 * n), RunResult(),
                           {"render": Counter(ok=n), "solve": Counter(ok=3 * n)}, 0.0)


def driver(n: int, agents: int, batch: int) -> None:
    import ray

    from runner.cluster.agent import Started
    from runner.cluster.agents import Agent
    from runner.cluster.driver import _dispatch
    from runner.cluster.placement import Placed
    from runner.config.grid import load_grid
    from runner.engine.progress import Progress
    from runner.engine.result import RunResult
    from runner.store.sinks import FolderLogs

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        render, solve = sample_lines(tmp)
        grid_path = tmp / "grid.yaml"
        grid_path.write_text(GRID_DRIVER.format(n=n, batch=batch))
        grid = load_grid(grid_path)
        ray.init(num_cpus=agents, include_dashboard=False, logging_level="WARNING")
        try:
            remote = ray.remote(Synthetic).options(num_cpus=1)
            placed = [Agent(i, Placed(remote.remote(render, solve), "here", f"{i:06d}"),
                            ready=Started("", {})) for i in range(agents)]
            ray.get([a.placed.handle.__ray_ready__.remote() for a in placed])
            folder = tmp / "out"
            folder.mkdir()
            logs = FolderLogs(folder)
            logs.open(lambda error: None)
            result = RunResult()
            cpu0, wall0 = time.process_time(), time.perf_counter()
            _dispatch(grid, logs, placed, Progress(None, None, True), result, batch)
            logs.close()
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        finally:
            ray.shutdown()
        records = n * 4
        written = sum((folder / f).read_bytes().count(b"\n") for f in ("renders.jsonl", "solves.jsonl"))
        assert written == records, (written, records)
        print(f"driver: {records} records from {agents} synthetic agents in {wall:.2f} s: {records / wall:,.0f} "
              f"records/s; driver CPU {cpu / records * 1e6:.0f} µs per record ({cpu / wall:.0%} of a core); "
              f"{n / wall:,.0f} skeletons/s (batch {batch})")


def compare(n: int, rounds: int) -> None:
    from ray.cluster_utils import Cluster
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False,
                                                            "object_store_memory": 200 * 2**20})
    for _ in range(2):
        cluster.add_node(num_cpus=1, resources={"agent": 1}, object_store_memory=200 * 2**20)
    cluster.wait_for_nodes()
    try:
        with fake_server() as one, fake_server() as two, tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            times: dict[str, list[float]] = {"plain": [], "ray": [], "ray start-up": []}
            for r in range(rounds):
                for kind in ("plain", "ray", "ray start-up"):
                    grid = tmp / f"{kind}-{r}.yaml"
                    grid.write_text(GRID_COMPARE.format(n=1 if kind == "ray start-up" else n,
                                                        url1=one.url, url2=two.url))
                    cmd = [sys.executable, "-m", "runner", "run", "--grid", str(grid), "--out",
                           str(tmp / f"{kind}-{r}"), "-q"] + (["--ray", cluster.address] if kind != "plain" else [])
                    times[kind].append(run_child(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL).seconds)
    finally:
        cluster.shutdown()
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"compare: {n} skeletons (template render, 1 solve each) against 2 fake servers")
    for k, v in times.items():
        print(f"  {k}: median {med[k]:.2f} s (rounds: {', '.join(f'{x:.2f}' for x in v)})")
    print(f"  ray / plain: {med['ray'] / med['plain']:.2f}; {n * 2 / med['plain']:,.0f} vs "
          f"{n * 2 / med['ray']:,.0f} units/s; Ray's start-up on its own {med['ray start-up']:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    d = sub.add_parser("driver")
    d.add_argument("--skeletons", type=int, default=40000)
    d.add_argument("--agents", type=int, default=2)
    d.add_argument("--batch", type=int, default=64)
    c = sub.add_parser("compare")
    c.add_argument("--skeletons", type=int, default=20000)
    c.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    if args.what == "driver":
        driver(args.skeletons, args.agents, args.batch)
    else:
        compare(args.skeletons, args.rounds)


if __name__ == "__main__":
    main()
