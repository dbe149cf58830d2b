"""Requests per second of the OpenAI-compatible provider vs a bare aiohttp loop, concurrency 64.

    python benchmarks/provider_bench.py [--requests 6000] [--rounds 3] [--shape tasks|workers|lean]

Both clients send the same constrained-solve requests to the same fake server (a separate
process), alternating, in one run; the ratio provider/bare is the figure (target >= 0.8). Both in one
shape (benchmarks/common.py `fan_out`): a task per request (the default, as in every earlier figure),
or 64 workers (the shape of `bench run`'s loop); `lean`: 64 workers, the bare loop through bench's
lean client (providers/wire.py, which the provider too uses on plain http). Also each client's CPU per
request.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import LABELS, SHAPES, bare_loop, fake_server, fan_out, solve_body  # noqa: E402
import orjson  # noqa: E402
from providers.base import SolveRequest  # noqa: E402
from providers.config import build_provider, parse_provider  # noqa: E402


async def provider_loop(url: str, n: int, concurrency: int, shape: str, post_only: bool = False) -> float:
    """Requests per second of the provider's `solve`, or (`post_only`) of its request path alone: `post`
    with the body `solve` would send, none of the rest (building it, retries, reading the answer)."""
    cfg = parse_provider("bench", {"kind": "vllm", "model": "fake-model", "base_url": url,
                                   "max_concurrency": concurrency}, env={})
    provider = build_provider(cfg, env={})
    await provider.start()
    try:
        labels = tuple(LABELS)
        results: list[tuple[str, str | None]] = []   # each answer's status, and why where it is not ok

        async def one(i: int) -> None:
            if post_only:
                data, _ = await provider.post(solve_body(i))
                text = data["choices"][0]["message"]["content"]
                results.append(("ok", None) if text in labels else ("invalid", text))
            else:
                res = await provider.solve(SolveRequest(prompt=f"Problem {i}: who is left?", labels=labels))
                results.append((res.status, res.reason))
        started = time.perf_counter()
        await fan_out(range(n), one, concurrency, shape)
        rate = n / (time.perf_counter() - started)
    finally:
        await provider.close()
    assert len(results) == n and all(status == "ok" for status, _ in results), {why for _, why in results}
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=6000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--shape", choices=SHAPES, default="tasks")
    args = ap.parse_args()
    bare, prov, cpu = [], [], {"bare": [], "provider": [], "post": []}
    with fake_server() as (url, _):
        bodies = [orjson.dumps(solve_body(i)) for i in range(args.requests)]

        def in_set(data: dict) -> None:
            assert data["choices"][0]["message"]["content"] in LABELS
        asyncio.run(bare_loop(url, bodies[:500], args.concurrency, in_set, args.shape))   # warm-up
        for _ in range(args.rounds):
            c0 = time.process_time()
            bare.append(asyncio.run(bare_loop(url, bodies, args.concurrency, in_set, args.shape)))
            c1 = time.process_time()
            prov.append(asyncio.run(provider_loop(url, args.requests, args.concurrency, args.shape)))
            cpu["bare"].append(1e6 * (c1 - c0) / args.requests)
            cpu["provider"].append(1e6 * (time.process_time() - c1) / args.requests)
            c2 = time.process_time()
            asyncio.run(provider_loop(url, args.requests, args.concurrency, args.shape, post_only=True))
            cpu["post"].append(1e6 * (time.process_time() - c2) / args.requests)
    b, p = statistics.median(bare), statistics.median(prov)
    print(f"shape: {args.shape}")
    client = "lean" if args.shape == "lean" else "aiohttp"
    print(f"bare {client} loop : {b:8.0f} req/s (median of {args.rounds}: {', '.join(f'{x:.0f}' for x in bare)}), "
          f"{statistics.median(cpu['bare']):.0f} µs CPU a request")
    print(f"provider          : {p:8.0f} req/s (median of {args.rounds}: {', '.join(f'{x:.0f}' for x in prov)}), "
          f"{statistics.median(cpu['provider']):.0f} µs CPU a request")
    print(f"ratio provider/bare: {p / b:.2f} (target >= 0.8)")
    print(f"the provider's request path alone (`post`, the same body): {statistics.median(cpu['post']):.0f} µs CPU a "
          f"request (rounds: {', '.join(f'{x:.0f}' for x in cpu['post'])})")


if __name__ == "__main__":
    main()
