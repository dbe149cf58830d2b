"""Stray answers taken by solves, with the request-id check and without it (issue 43).

    python benchmarks/stray_bench.py [--requests 1000] [--rate 0.25] [--concurrency 4] [--repeats 3]
    python benchmarks/stray_bench.py --no-echo    # a server whose answers carry no id of ours
    python benchmarks/stray_bench.py --cost
    python benchmarks/stray_bench.py --pool-cost [--requests 2000] [--repeats 3]


The fake server (tests/fake_server.py, in a thread, echoing X-Request-Id in its answers' ids as vLLM does)
follows a `rate` share of its answers with a stray one (another label, STRAY_TOKENS prompt tokens): stray-apart
writes it just after the answer (it may reach the client after its next request went out on that connection),
stray-late when the connection's next request has come (always after). For each client (the lean one, aiohttp),
fault and check (the id check as shipped; `off`: every answer taken as its request's, as before it), it prints
the solves that took a stray, the answers refused as another request's and sent again, and the failed attempts.
`--cost`: the CPU a request of the id work alone (a fresh id into the request head, the answer checked and
learned from), against the same loop without it, rounds alternating.
`--pool-cost`: what a connection per request costs where the server echoes no id (each request goes alone,
`Connection: close`, since only an id can tell a late stray from a kept connection's next answer), against
kept connections to a server that echoes ids (vLLM's way): the client's CPU a request and the solves a second,
the fake server in a process of its own (plain http for both clients, and https through aiohttp with a
throwaway self-signed certificate), the two kinds alternating in each round.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from providers.answers import Response  # noqa: E402
from providers.base import SolveRequest  # noqa: E402
from providers.build import build_provider  # noqa: E402
from providers.config import parse_provider  # noqa: E402
from providers.identity import Echo, RequestIds, Whose, learned  # noqa: E402
from tests.fake_server import STRAY_TOKENS, FakeServer  # noqa: E402

LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")


async def solves(url: str, client: str, n: int, concurrency: int, check: bool) -> tuple[int, int, int]:
    """(solves that took a stray, answers refused as another request's, failed attempts) of n solves."""
    cfg = parse_provider("p", {"kind": "vllm", "model": "fake-model", "base_url": url, "http_client": client,
                               "max_concurrency": concurrency}, env={})
    prov = build_provider(cfg, env={})
    if not check:   # the provider as before the id check: any answer is the request's
        prov.ids.whose = lambda *a: Whose.OURS   # type: ignore[method-assign]
    await prov.start()
    try:
        asks = [SolveRequest(prompt=f"Problem {i}: who is left? " + " ".join(LABELS), labels=LABELS)
                for i in range(n)]
        results = await asyncio.gather(*(prov.solve(a) for a in asks))
        refused = prov.not_ours + sum(ep.wire.not_ours for ep in prov.pool.endpoints if ep.wire is not None)
    finally:
        await prov.close()
    taken = sum(r.status == "ok" and (r.usage.prompt_tokens == STRAY_TOKENS
                                      or r.label != FakeServer.pick(a.prompt, list(LABELS)))
                for r, a in zip(results, asks))
    return taken, refused, sum(r.attempts - 1 for r in results)


def cost(n: int = 200_000, rounds: int = 5) -> None:
    """µs of CPU a request of the id work, and of the same loop without it (head and answer made either way)."""
    ids = RequestIds()
    bodies = [b'{"id":"chatcmpl-%s%d","object":"chat.completion","choices":[{"index":0,"message":{"role":'
              b'"assistant","content":"LEFT_OF"},"finish_reason":"stop"}],"usage":{"prompt_tokens":120}}'
              % (ids.prefix.encode(), i + 1) for i in range(1000)]
    head, tail = b"POST /v1/chat/completions HTTP/1.1\r\nX-Request-Id: ", b"\r\nContent-Length: 300\r\n\r\n"
    with_ids, without = [], []
    for _ in range(rounds):
        t0 = time.process_time()
        for i in range(n):
            ask = ids.ask(True)
            request = head + ask.rid.encode() + tail
            answer = Response(200, {}, bodies[i % 1000])
            ask.belongs(answer)
            learned(Echo.ECHOES, 200, ask.whose(answer.headers, answer.body))
        with_ids.append(1e6 * (time.process_time() - t0) / n)
        t0 = time.process_time()
        for i in range(n):
            request = head + b"1" + tail
            answer = Response(200, {}, bodies[i % 1000])
        without.append(1e6 * (time.process_time() - t0) / n)
    del request
    for name, values in (("with ids", with_ids), ("without", without)):
        print(f"{name:9}: {min(values):.2f} µs a request, best of {rounds} (rounds: "
              f"{', '.join(f'{v:.2f}' for v in values)})")


def serve(echo: bool, tls: tuple[str, str] | None) -> tuple[subprocess.Popen[str], str]:
    """`python -m tests.fake_server` in a process of its own (echoing ids or not, https with `tls`); its URL."""
    root = Path(__file__).resolve().parent.parent
    args = [sys.executable, "-m", "tests.fake_server", *([] if echo else ["--no-echo"]),
            *(["--tls", *tls] if tls else [])]
    proc = subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def timed(url: str, client: str, n: int, concurrency: int) -> tuple[float, float]:
    """(µs of this process's CPU a solve, solves a second) of n solves, `concurrency` in flight."""
    def cpu() -> float:
        use = resource.getrusage(resource.RUSAGE_SELF)
        return use.ru_utime + use.ru_stime
    c0, t0 = cpu(), time.perf_counter()
    taken, _, failed = asyncio.run(solves(url, client, n, concurrency, True))
    c1, t1 = cpu(), time.perf_counter()
    assert taken == 0 and failed == 0, (taken, failed)
    return 1e6 * (c1 - c0) / n, n / (t1 - t0)


def pool_cost(n: int, concurrency: int, rounds: int) -> None:
    """Kept connections (ids echoed) against a connection per request (no ids), both clients, http and https."""
    with tempfile.TemporaryDirectory() as tmp:
        cert, key = f"{tmp}/cert.pem", f"{tmp}/key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], check=True, capture_output=True)
        # each cell in a process of its own: aiohttp makes its default context (which then trusts the throwaway
        # certificate) when imported, and the CPU counted is the client's alone
        env = {**os.environ, "SSL_CERT_FILE": cert}
        cells: dict[tuple[str, str, bool], list[tuple[float, float]]] = {}
        for _ in range(rounds):
            for client, tls in (("auto", None), ("aiohttp", None), ("aiohttp", (cert, key))):
                for echo in (True, False):
                    proc, url = serve(echo, tls)
                    try:
                        cell = subprocess.run([sys.executable, __file__, "--cell", url, client, "--requests", str(n),
                                               "--concurrency", str(concurrency)], env=env, check=True,
                                              capture_output=True, text=True).stdout.split()
                        cells.setdefault((client, "https" if tls else "http", echo), []).append(
                            (float(cell[0]), float(cell[1])))
                    finally:
                        proc.kill()
                        proc.wait()
    print(f"{n} solves a cell, {concurrency} in flight, {rounds} rounds (kinds alternating); client CPU a solve, "
          "solves a second")
    print("client   scheme  connections               CPU µs/solve (rounds)      solves/s (rounds)")
    for (client, scheme, echo), runs in cells.items():
        kind = "kept (ids echoed)" if echo else "one a request (no ids)"
        print(f"{'lean' if client == 'auto' else client:8} {scheme:7} {kind:25} "
              f"{', '.join(f'{c:.0f}' for c, _ in runs):26} {', '.join(f'{r:.0f}' for _, r in runs)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=0.25)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cost", action="store_true", help="the CPU a request of the id work alone")
    ap.add_argument("--no-echo", action="store_true", help="the server's answers carry no id (not as vLLM)")
    ap.add_argument("--pool-cost", action="store_true", help="a connection per request against kept ones")
    ap.add_argument("--cell", nargs=2, metavar=("URL", "CLIENT"), help=argparse.SUPPRESS)   # one --pool-cost cell
    args = ap.parse_args()
    if args.cell:
        timed(*args.cell, max(args.requests // 10, 50), args.concurrency)   # warm: imports, first connections
        print(*timed(*args.cell, args.requests, args.concurrency))
        return
    if args.cost:
        cost()
        return
    if args.pool_cost:
        pool_cost(args.requests, args.concurrency, args.repeats)
        return
    print(f"{args.requests} solves a run, a stray after {args.rate:.0%} of answers, {args.concurrency} in flight, "
          f"{'no ids echoed' if args.no_echo else 'ids echoed as vLLM'}")
    print("client   fault        check  taken (per run)        refused (per run)      failed attempts")
    for client in ("auto", "aiohttp"):
        for fault in ("stray-apart", "stray-late"):
            for check in (True, False):   # alternating, each run on a server of its own
                runs = []
                for _ in range(args.repeats):
                    with FakeServer(record_bodies=False) as srv:
                        srv.fault_rate, srv.fault_kinds = args.rate, (fault,)
                        srv.echo_ids = not args.no_echo
                        runs.append(asyncio.run(solves(srv.url, client, args.requests, args.concurrency, check)))
                taken, refused, failed = zip(*runs)
                print(f"{'lean' if client == 'auto' else client:8} {fault:12} {'on' if check else 'off':6} "
                      f"{', '.join(map(str, taken)):22} {', '.join(map(str, refused)):22} {sum(failed)}")


if __name__ == "__main__":
    main()
