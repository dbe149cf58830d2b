"""Whole `bench run` throughput vs a bare aiohttp loop; peak memory in the skeleton count; resume index time.

    python benchmarks/run_bench.py throughput [--skeletons 100000] [--latency 0.2] [--workers 1 2 4] [--cases template]
                                              [--loops uvloop asyncio]
    python benchmarks/run_bench.py memory [--counts 10000 100000]
    python benchmarks/run_bench.py index [--records 1000000]

throughput: one fake server process with no latency, 64 requests in flight, the run and the bare
loop alternating. The default size makes the run's fixed start-up (printed apart) a small part of
its time, as in the hours-long runs it is made for. Two grids: the fake server as renderer and
solver (every request of the run goes to the server), against a bare loop sending the same render
and solve requests; and the template renderer with the fake server as solver, against the provider
benchmark's bare loop sending the same solve prompts. The bare loops' bodies are made beforehand
(they are the ceiling): the run also generates the skeletons, and in the second grid renders them,
while it is timed. Three bare loops (benchmarks/common.py `SHAPES`): aiohttp with 64 workers, the
shape of the run's own loop (issue 33's ceiling); aiohttp with a task per request, the yardstick of
the figures before 2026-12-02's second session (issue 33's goals were set against it; it is slower,
and more so the more requests it is given); and bench's own lean client with 64 workers, the client
the run sends through to plain-http servers since the fourth session, and so its true ceiling.
Figure: units (requests) per second of the run over requests per second of each loop, and the CPU
per request of each process, which shows what the two cores are spent on. Renders are structured
(the default): the fake server makes them, and the run checks each against its skeleton on the
event loop, which the bare loop does not. `--loops uvloop asyncio` runs the grid on each event loop every round
(asyncio's own: `LSB_UVLOOP=0`), after the same bare loops.
memory: `bench run` with the built-in providers (no server) at two skeleton counts; peak RSS of
each child (target: within 20%).
index: a solves.jsonl of N realistic records, then the time to load the resume index (target < 5 s).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from benchmarks.common import (  # noqa: E402
    ROOT,
    SHAPE_NAMES,
    SHAPES,
    ChildRun,
    bare_client,
    bare_loop,
    cpu_seconds,
    fake_server,
    fan_out,
    run_child,
    template_solve_bodies,
)

GRID_HTTP = """name: bench
{workers}skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 64}}
renderers: [{{provider: fake, max_tokens: 512}}]
solvers: [fake]
"""
GRID_SOLVE = """name: bench
{workers}skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 64}}
  template: {{kind: template}}
renderers: [template]
solvers: [fake]
"""
GRID_LOCAL = """name: mem
skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers: {{template: {{kind: template}}, random: {{kind: random}}, prior: {{kind: prior}}}}
renderers: [template]
solvers: [random, prior]
"""


def bench_run(grid_text: str, tmp: Path, name: str, loop: str = "uvloop") -> ChildRun:
    """One `bench run` child: its time, peak RSS and CPU (with its skeleton helper's); `loop`: its event loop,
    uvloop's (the default where installed) or asyncio's own (`LSB_UVLOOP=0`)."""
    grid = tmp / f"{name}.yaml"
    grid.write_text(grid_text)
    env = {**os.environ, "LSB_UVLOOP": "1" if loop == "uvloop" else "0"}
    return run_child([sys.executable, "-m", "runner", "run", "--grid", str(grid), "--out", str(tmp / name), "-q"],
                     cwd=ROOT, stdout=subprocess.DEVNULL, env=env)


def render_solve_loop(n: int):
    """A bare loop doing the pipeline's requests for n skeletons: a structured render, then a solve.

    Render requests (prompt and schema) are made beforehand (the ceiling); a solve prompt needs the
    render, which the bare loop sends as it came (the run checks it and assembles the problem).
    """
    from rendering.schema import render_schema
    from runner.config.prompts import RENDER_STRUCTURED_DEFAULT, SOLVE_DEFAULT, fill_render, fill_solve
    from runner.source.generate import make_plan
    jobs = [(orjson.dumps({"model": "fake-model", "temperature": 0.0, "max_tokens": 512, "messages": [
        {"role": "user", "content": fill_render(RENDER_STRUCTURED_DEFAULT, p, True)}],
        "structured_outputs": {"json": render_schema(p), "disable_any_whitespace": True}}), sk.answer_options)
        for sk in make_plan(0, ["medium"]).items(n) for p in (sk.redact(),)]

    async def loop(url: str, shape: str, concurrency: int = 64) -> float:
        async with bare_client(url, concurrency, lean=shape == "lean") as post:
            async def one(job: tuple[bytes, tuple[str, ...]]) -> None:
                render, labels = job
                text = (await post(render))["choices"][0]["message"]["content"]
                await post(orjson.dumps({"model": "fake-model", "temperature": 0.0, "max_tokens": 16, "messages": [
                    {"role": "user", "content": fill_solve(SOLVE_DEFAULT, text, labels)}],
                    "structured_outputs": {"choice": list(labels)}}))
            started = time.perf_counter()
            await fan_out(jobs, one, concurrency, shape)
            return 2 * n / (time.perf_counter() - started)
    return loop


def solve_loop(n: int):
    """The provider benchmark's bare loop, sending the solve prompts the run sends (made beforehand)."""
    bodies = template_solve_bodies("fake-model", n, 0, "medium")
    return lambda url, shape: bare_loop(url, bodies, 64, shape=shape)


def throughput(n: int, rounds: int, latency: float = 0.0, workers: list[str] | None = None,
               cases: list[str] | None = None, loops: list[str] | None = None) -> None:
    """Run and bare loop alternately per case (and per `prepare_workers` value); units/s, their ratio, and the
    CPU per unit of the run's own process (the event loop), of its helpers, and of the server. With several
    `loops` (uvloop, asyncio), each round runs the grid once on each event loop, after the same bare loops."""
    import statistics
    every = {"fake": ("fake renderer -> fake solver", GRID_HTTP, render_solve_loop, 2),
             "template": ("template -> fake solver", GRID_SOLVE, solve_loop, 1)}
    with fake_server(latency) as (url, server_pid), tempfile.TemporaryDirectory() as tmp:
        for key in cases or list(every):
            title, grid, make_loop, per = every[key]
            loop = make_loop(n)
            for w in workers or ["auto"]:
                text = grid.format(n=n, url=url, workers=f"prepare_workers: {w}\n")
                each = loops or ["uvloop"]
                runs: dict[str, list[float]] = {lp: [] for lp in each}
                cpu: dict[str, list[list[float]]] = {lp: [] for lp in each}
                bares: dict[str, list[float]] = {sh: [] for sh in SHAPES}
                helpers = 0
                for r in range(rounds):
                    # the bare loops (SHAPES: aiohttp with 64 workers and with a task per request, bench's lean client),
                    # then the run on each event loop: CPU µs per unit of each bare client and the server under it,
                    # then of the run's loop, its helpers and the server under it
                    row = []
                    for sh in SHAPES:
                        s0, c0 = cpu_seconds(server_pid), time.process_time()
                        bares[sh].append(asyncio.run(loop(url, sh)))
                        s1, c1 = cpu_seconds(server_pid), time.process_time()
                        row += [1e6 * (c1 - c0) / (per * n), 1e6 * (s1 - s0) / (per * n)]
                    for lp in each:
                        s1 = cpu_seconds(server_pid)
                        child = bench_run(text, Path(tmp), f"{key}-{w}-{lp}-{r}", lp)
                        s2 = cpu_seconds(server_pid)
                        runs[lp].append(per * n / child.seconds)
                        helpers = child.helpers
                        cpu[lp].append(row + [1e6 * x / (per * n) for x in (child.cpu_s - child.helpers_cpu_s,
                                                                            child.helpers_cpu_s, s2 - s1)])
                k = 2 * len(SHAPES)   # each bare loop's CPU and its server's, then the run's three
                for lp in each:
                    med = [statistics.median(c[i] for c in cpu[lp]) for i in range(k + 3)]
                    print(f"{title}, latency {latency:g} s, prepare_workers {w} ({helpers} helper(s)), event loop {lp}: "
                          f"bench run {statistics.median(runs[lp]):.0f} units/s (rounds: "
                          f"{', '.join(f'{x:.0f}' for x in runs[lp])})", flush=True)
                    for i, sh in enumerate(SHAPES):
                        ratios = [a / b for a, b in zip(runs[lp], bares[sh])]
                        print(f"  bare loop, {SHAPE_NAMES[sh]}: {statistics.median(bares[sh]):.0f} req/s, ratio "
                              f"{statistics.median(ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)}); "
                              f"CPU µs per unit: bare loop {med[2 * i]:.0f} + server {med[2 * i + 1]:.0f}", flush=True)
                    print(f"  CPU µs per unit (medians), bench run: its event loop process {med[k]:.0f} + helpers "
                          f"{med[k + 1]:.0f} + server {med[k + 2]:.0f}; on {os.cpu_count()} cores", flush=True)
            fixed = bench_run(grid.format(n=1, url=url, workers=""), Path(tmp), f"{key}-one").seconds
            print(f"  a run of 1 skeleton (start-up and shutdown, in every run's time) takes {fixed:.2f} s", flush=True)


def memory(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'skeletons':>9}  {'units':>7}  {'seconds':>7}  {'units/s':>8}  peak RSS MB")
        for n in sorted(counts):
            child = bench_run(GRID_LOCAL.format(n=n), Path(tmp), f"m{n}")
            secs, rss = child.seconds, child.peak_rss_mb
            print(f"{n:>9}  {3 * n:>7}  {secs:>7.1f}  {3 * n / secs:>8.0f}  {rss:.1f}")


def index(n: int) -> None:
    import inspect

    from runner.store import logs
    from runner.store.records import SCHEMA, SolveRecord
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "solves.jsonl"
        with open(path, "wb") as fh:
            for i in range(n):
                ok = rng.random() < 0.9
                fh.write(SolveRecord(
                    schema=SCHEMA, key=f"{rng.getrandbits(128):032x}", status="ok" if ok else "error",
                    render_key=f"{rng.getrandbits(128):032x}", skeleton=f"order-{i:07d}#3fa1c2d4e5b6",
                    family="transitive_order", complexity=4, renderer="qwen", solver="llama", model="m",
                    render_sample=0, sample=0, answer="LEFT_OF" if ok else None, raw="LEFT_OF", gold="RIGHT_OF",
                    correct=False if ok else None, constrained="choice", reason=None if ok else "http 503",
                    attempts=1, latency_s=0.123, prompt_tokens=412, completion_tokens=3, finish_reason="stop",
                    started_at=1.7e9, finished_at=1.7e9).to_line())
            fh.flush()
            os.fsync(fh.fileno())   # as a run leaves its logs (it syncs them on close): no writeback timed below
        size = path.stat().st_size / 1e6
        started = time.perf_counter()
        try:   # where this bench keeps it (an older one kept it in logs, and took the path alone)
            from runner.store.index import load_index
        except ImportError:
            load_index = logs.load_index
        fields = (logs.SOLVE_FIELDS,) if len(inspect.signature(load_index).parameters) > 1 else ()
        idx = load_index(path, *fields)
        secs = time.perf_counter() - started
    print(f"{n} records ({size:.0f} MB): resume index of {len(idx)} keys loaded in {secs:.2f} s (target < 5 s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    tp = sub.add_parser("throughput")
    tp.add_argument("--skeletons", type=int, default=100_000)
    tp.add_argument("--rounds", type=int, default=3)
    tp.add_argument("--latency", type=float, default=0.0, help="the fake server's seconds per answer")
    tp.add_argument("--workers", nargs="+", default=["auto"], help="prepare_workers values to compare")
    tp.add_argument("--cases", nargs="+", choices=["fake", "template"], default=["fake", "template"])
    tp.add_argument("--loops", nargs="+", choices=["uvloop", "asyncio"], default=["uvloop"],
                    help="the run's event loops to compare, each round (asyncio: LSB_UVLOOP=0)")
    sub.add_parser("memory").add_argument("--counts", type=int, nargs="+", default=[10_000, 100_000])
    sub.add_parser("index").add_argument("--records", type=int, default=1_000_000)
    args = ap.parse_args()
    if args.what == "throughput":
        throughput(args.skeletons, args.rounds, args.latency, args.workers, args.cases, args.loops)
    elif args.what == "memory":
        memory(args.counts)
    else:
        index(args.records)


if __name__ == "__main__":
    main()
