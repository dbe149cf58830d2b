"""Requests per second of the OpenAI-compatible provider vs a bare aiohttp loop, concurrency 64.

    python benchmarks/provider_bench.py [--requests 6000] [--rounds 3] [--shape tasks|workers|lean]
    python benchmarks/provider_bench.py --clients [--requests 20000] [--rounds 5]

Both clients send the same constrained-solve requests to the same fake server (a separate
process), alternating, in one run; the ratio provider/bare is the figure (target >= 0.8). Both in one
shape (benchmarks/common.py `fan_out`): a task per request (the default, as in every earlier figure),
or 64 workers (the shape of `bench run`'s loop); `lean`: 64 workers, the bare loop through bench's
lean client (providers/wire.py, which the provider too uses on plain http). Also each client's CPU per
request.

`--clients`: the client CPU a request of the provider's request path (`post`, 64 workers) through each HTTP
client in turn, rounds alternating in one run: the lean client parsing with httptools (llhttp, as shipped),
the same lean client with the hand-written parser it had before (providers/wire.py at commit e60bdee, read
from git), and aiohttp (`http_client: aiohttp`).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from benchmarks.common import LABELS, SHAPES, bare_loop, fake_server, fan_out, solve_body  # noqa: E402
from providers.base import SolveRequest  # noqa: E402
from providers.build import build_provider  # noqa: E402
from providers.config import parse_provider  # noqa: E402

HAND_PARSER_COMMIT = "e60bdee"   # the last providers/wire.py with the hand-written parser


def hand_wire() -> types.ModuleType:
    """providers/wire.py as it was with its hand-written parser, loaded from git as a module of its own."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "show", f"{HAND_PARSER_COMMIT}:providers/wire.py"], cwd=root, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType("hand_wire")
    exec(compile(source, "hand_wire.py", "exec"), module.__dict__)
    return module


async def client_loop(url: str, n: int, concurrency: int, client: str, old: types.ModuleType) -> float:
    """CPU seconds of n `post`s through the provider with `client`: httptools, hand or aiohttp."""
    cfg = parse_provider("bench", {"kind": "vllm", "model": "fake-model", "base_url": url, "max_concurrency": concurrency,
                                   "http_client": "aiohttp" if client == "aiohttp" else "auto"}, env={})
    provider = build_provider(cfg, env={})
    await provider.start()
    provider._started = True
    if client == "hand":   # the same pool and provider, the old connection class and its parser
        parts = urlsplit(url)
        wire = old.Wire(parts.hostname, parts.port, 10.0)
        plain = wire.post   # the old post takes the request and its timeout; the id check is the new client's
        wire.post = lambda request, timeout_s, *checks: plain(request, timeout_s)
        provider.pool.endpoints[0].wire = wire
    try:
        async def one(i: int) -> None:
            data, _ = await provider.post(solve_body(i))
            assert data["choices"][0]["message"]["content"] in LABELS
        c0 = time.process_time()
        await fan_out(range(n), one, concurrency, "workers")
        return time.process_time() - c0
    finally:
        await provider.close()


def clients(url: str, args: argparse.Namespace) -> None:
    """Rounds alternating httptools, hand, aiohttp; the median client CPU a request of each."""
    old, cpu = hand_wire(), {"httptools": [], "hand": [], "aiohttp": []}
    for name in cpu:   # warm-up
        asyncio.run(client_loop(url, 500, args.concurrency, name, old))
    for _ in range(args.rounds):
        for name in cpu:
            cpu[name].append(1e6 * asyncio.run(client_loop(url, args.requests, args.concurrency, name, old))
                             / args.requests)
    for name, values in cpu.items():
        print(f"{name:9}: {statistics.median(values):6.1f} µs CPU a request (rounds: "
              f"{', '.join(f'{v:.1f}' for v in values)})")


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
    ap.add_argument("--clients", action="store_true", help="client CPU a request: httptools, hand parser, aiohttp")
    args = ap.parse_args()
    if args.clients:
        with fake_server() as (url, _):
            clients(url, args)
        return
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
