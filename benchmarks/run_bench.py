"""Whole `bench run` throughput vs a bare aiohttp loop; peak memory in the skeleton count; resume index time.

    python benchmarks/run_bench.py throughput [--skeletons 20000]
    python benchmarks/run_bench.py memory [--counts 10000 100000]
    python benchmarks/run_bench.py index [--records 1000000]

throughput: one fake server process with no latency, 64 requests in flight. `bench run` with the
template renderer and the fake server as solver (every unit one HTTP request), against the provider
benchmark's bare aiohttp loop sending the same solve prompts (made beforehand: it is the ceiling);
and, stricter, `bench run` with the fake server as renderer too, against a bare loop sending the
same render and solve requests. Figure: units/s of the run over requests/s of the loop, measured
alternately in one run (target >= 0.7).
memory: `bench run` with the built-in providers (no server) at two skeleton counts; peak RSS of
each child (target: within 20%).
index: a solves.jsonl of N realistic records, then the time to load the resume index (target < 5 s).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
import orjson  # noqa: E402

from benchmarks.common import ROOT, bare_loop, fake_server, run_child, template_solve_bodies  # noqa: E402

GRID_HTTP = """name: bench
skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 64}}
renderers: [{{provider: fake, max_tokens: 512}}]
solvers: [fake]
"""
GRID_SOLVE = """name: bench
skeletons: {{generate: {{count: {n}, complexities: [medium], seed: 0}}}}
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


def bench_run(grid_text: str, tmp: Path, name: str) -> tuple[float, float]:
    """(seconds, peak RSS MB) of one `bench run` child."""
    grid = tmp / f"{name}.yaml"
    grid.write_text(grid_text)
    return run_child([sys.executable, "-m", "runner", "run", "--grid", str(grid), "--out", str(tmp / name), "-q"],
                     cwd=ROOT, stdout=subprocess.DEVNULL)


async def bare_render_solve(url: str, n: int, concurrency: int = 64) -> float:
    """Requests/s of a bare loop doing the pipeline's requests: render, then solve with that text."""
    from runner.generate import make_plan
    from runner.prompts import RENDER_DEFAULT, SOLVE_DEFAULT, fill_render, fill_solve
    skeletons = list(make_plan(0, ["medium"]).items(n))
    sem = asyncio.Semaphore(concurrency)
    headers = {"content-type": "application/json"}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:
        async def post(body: dict) -> dict:
            async with sem:
                async with session.post(url + "/chat/completions", data=orjson.dumps(body), headers=headers) as r:
                    return orjson.loads(await r.read())

        async def one(sk) -> None:
            rendered = await post({"model": "fake-model", "temperature": 0.0, "max_tokens": 512, "messages": [
                {"role": "user", "content": fill_render(RENDER_DEFAULT, sk.redact())}]})
            text = rendered["choices"][0]["message"]["content"]
            await post({"model": "fake-model", "temperature": 0.0, "max_tokens": 16, "messages": [
                {"role": "user", "content": fill_solve(SOLVE_DEFAULT, text, sk.answer_options)}],
                "structured_outputs": {"choice": list(sk.answer_options)}})
        started = time.perf_counter()
        await asyncio.gather(*(one(sk) for sk in skeletons))
        return 2 * n / (time.perf_counter() - started)


async def bare_solve(url: str, n: int, concurrency: int = 64) -> float:
    """Requests/s of the provider benchmark's bare loop, sending the solve prompts the run sends."""
    return await bare_loop(url, template_solve_bodies("fake-model", n, 0, "medium"), concurrency)


def throughput(n: int, rounds: int) -> None:
    import statistics
    cases = (("template -> fake solver", GRID_SOLVE, bare_solve, 1),
             ("fake renderer -> fake solver", GRID_HTTP, bare_render_solve, 2))
    with fake_server() as url, tempfile.TemporaryDirectory() as tmp:
        for title, grid, bare_fn, per in cases:
            ratios, runs, bares = [], [], []
            for r in range(rounds):
                bare = asyncio.run(bare_fn(url, n))
                secs, _ = bench_run(grid.format(n=n, url=url), Path(tmp), f"{title[:4]}{r}")
                runs.append(per * n / secs)
                bares.append(bare)
                ratios.append(runs[-1] / bare)
            print(f"{title}: bench run {statistics.median(runs):.0f} units/s, bare loop "
                  f"{statistics.median(bares):.0f} req/s, ratio {statistics.median(ratios):.2f} "
                  f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)}; target >= 0.7)")


def memory(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'skeletons':>9}  {'units':>7}  {'seconds':>7}  {'units/s':>8}  peak RSS MB")
        for n in sorted(counts):
            secs, rss = bench_run(GRID_LOCAL.format(n=n), Path(tmp), f"m{n}")
            print(f"{n:>9}  {3 * n:>7}  {secs:>7.1f}  {3 * n / secs:>8.0f}  {rss:.1f}")


def index(n: int) -> None:
    from runner.logs import load_index
    from runner.records import SCHEMA, SolveRecord
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
        size = path.stat().st_size / 1e6
        started = time.perf_counter()
        idx = load_index(path)
        secs = time.perf_counter() - started
    print(f"{n} records ({size:.0f} MB): resume index of {len(idx)} keys loaded in {secs:.2f} s (target < 5 s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    tp = sub.add_parser("throughput")
    tp.add_argument("--skeletons", type=int, default=20000)
    tp.add_argument("--rounds", type=int, default=3)
    sub.add_parser("memory").add_argument("--counts", type=int, nargs="+", default=[10_000, 100_000])
    sub.add_parser("index").add_argument("--records", type=int, default=1_000_000)
    args = ap.parse_args()
    if args.what == "throughput":
        throughput(args.skeletons, args.rounds)
    elif args.what == "memory":
        memory(args.counts)
    else:
        index(args.records)


if __name__ == "__main__":
    main()
