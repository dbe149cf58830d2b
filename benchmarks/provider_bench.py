"""Requests per second of the OpenAI-compatible provider vs a bare aiohttp loop, concurrency 64.

    python benchmarks/provider_bench.py [--requests 6000] [--rounds 3]

Both clients send the same constrained-solve requests to the same fake server (a separate
process), alternating, in one run; the ratio provider/bare is the figure (target >= 0.8).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import LABELS, bare_loop, fake_server, solve_body  # noqa: E402
import orjson  # noqa: E402
from providers.base import SolveRequest  # noqa: E402
from providers.config import build_provider, parse_provider  # noqa: E402


async def provider_loop(url: str, n: int, concurrency: int) -> float:
    cfg = parse_provider("bench", {"kind": "vllm", "model": "fake-model", "base_url": url,
                                   "max_concurrency": concurrency}, env={})
    provider = build_provider(cfg, env={})
    await provider.start()
    try:
        labels = tuple(LABELS)
        started = time.perf_counter()
        results = await asyncio.gather(*(provider.solve(SolveRequest(prompt=f"Problem {i}: who is left?",
                                                                     labels=labels)) for i in range(n)))
        rate = n / (time.perf_counter() - started)
    finally:
        await provider.close()
    assert all(r.status == "ok" for r in results), {r.reason for r in results}
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=6000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=64)
    args = ap.parse_args()
    bare, prov = [], []
    with fake_server() as (url, _):
        bodies = [orjson.dumps(solve_body(i)) for i in range(args.requests)]

        def in_set(data: dict) -> None:
            assert data["choices"][0]["message"]["content"] in LABELS
        asyncio.run(bare_loop(url, bodies[:500], args.concurrency, in_set))   # warm-up
        for _ in range(args.rounds):
            bare.append(asyncio.run(bare_loop(url, bodies, args.concurrency, in_set)))
            prov.append(asyncio.run(provider_loop(url, args.requests, args.concurrency)))
    b, p = statistics.median(bare), statistics.median(prov)
    print(f"bare aiohttp loop : {b:8.0f} req/s (median of {args.rounds}: {', '.join(f'{x:.0f}' for x in bare)})")
    print(f"provider          : {p:8.0f} req/s (median of {args.rounds}: {', '.join(f'{x:.0f}' for x in prov)})")
    print(f"ratio provider/bare: {p / b:.2f} (target >= 0.8)")


if __name__ == "__main__":
    main()
