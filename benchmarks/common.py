"""Benchmark helpers: the fake server in a process of its own, and the bare aiohttp loop (the ceiling)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Iterator, NamedTuple

import aiohttp
import orjson

ROOT = Path(__file__).resolve().parent.parent
LABELS = ["LEFT_OF", "RIGHT_OF", "UNKNOWN"]


class Server(NamedTuple):
    """A running fake server: its /v1 URL and its process id (to read its CPU time)."""

    url: str
    pid: int


@contextlib.contextmanager
def fake_server(latency: float = 0.0) -> Iterator[Server]:
    """Start `python -m tests.fake_server` on a free port; yield its URL and pid; stop it."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.fake_server", "--port", "0", "--latency", str(latency)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        if not url.startswith("http"):
            raise RuntimeError("the fake server did not start")
        yield Server(url, proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)


def solve_body(i: int) -> dict:
    """The body the provider sends for one constrained vLLM solve (same as the pipeline's)."""
    return {"model": "fake-model", "messages": [{"role": "user", "content": f"Problem {i}: who is left?"}],
            "temperature": 0.0, "max_tokens": 16, "structured_outputs": {"choice": LABELS}}


def template_solve_bodies(model: str, n: int, seed: int, complexity: str) -> list[bytes]:
    """The solve requests `bench run` sends with the template renderer: rendered problem, choice constraint."""
    from providers.builtin import render_template
    from runner.config.prompts import SOLVE_DEFAULT, fill_solve
    from runner.source.generate import make_plan
    return [orjson.dumps({"model": model, "temperature": 0.0, "max_tokens": 16, "messages": [
        {"role": "user", "content": fill_solve(SOLVE_DEFAULT, render_template(sk.redact()), sk.answer_options)}],
        "structured_outputs": {"choice": list(sk.answer_options)}}) for sk in make_plan(seed, [complexity]).items(n)]


@contextlib.asynccontextmanager
async def bare_client(url: str, concurrency: int, check=None,
                      lean: bool = False) -> AsyncIterator[Callable[[bytes], Awaitable[dict]]]:
    """The simplest correct client: one session and a semaphore; `post(body)` returns the parsed answer
    (a 200 is asserted, and `check`, if given, may assert something of the answer). `lean`: bench's own
    lean client (providers/wire.py) instead of aiohttp, its keep-alive connections one per request in
    flight (the caller caps them: 64 workers)."""
    if lean:
        async with _lean_client(url, check) as post:
            yield post
        return
    sem = asyncio.Semaphore(concurrency)
    headers = {"content-type": "application/json"}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:
        async def post(body: bytes) -> dict:
            async with sem:
                async with session.post(url + "/chat/completions", data=body, headers=headers) as resp:
                    assert resp.status == 200, resp.status
                    data = orjson.loads(await resp.read())
                    if check is not None:
                        check(data)
                    return data
        yield post


@contextlib.asynccontextmanager
async def _lean_client(url: str, check=None) -> AsyncIterator[Callable[[bytes], Awaitable[dict]]]:
    from urllib.parse import urlsplit

    from providers.wire import Wire
    parts = urlsplit(url)
    wire = Wire(parts.hostname, parts.port or 80, 10.0)
    head = (f"POST {parts.path}/chat/completions HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "content-type: application/json\r\nContent-Length: ").encode()

    async def post(body: bytes) -> dict:
        answer = await wire.post(head + str(len(body)).encode() + b"\r\n\r\n" + body, 600.0)
        assert answer.status == 200, answer.status
        data = orjson.loads(answer.body)
        if check is not None:
            check(data)
        return data
    try:
        yield post
    finally:
        wire.close()


async def bare_loop(url: str, bodies: list[bytes], concurrency: int, check=None, shape: str = "tasks") -> float:
    """Requests per second of the bare client sending `bodies`, made beforehand, in the given `shape`."""
    async with bare_client(url, concurrency, check, lean=shape == "lean") as post:
        started = time.perf_counter()
        await fan_out(bodies, post, concurrency, shape)
        return len(bodies) / (time.perf_counter() - started)


# The bare loops a run is measured against: aiohttp in two shapes, and bench's own lean client
SHAPES = ("workers", "tasks", "lean")
SHAPE_NAMES = {"workers": "aiohttp, 64 workers (issue 33's ceiling)",
               "tasks": "aiohttp, a task per request (the older yardstick)",
               "lean": "bench's lean client, 64 workers (the true ceiling now)"}


async def fan_out(items: list, send: Callable[[Any], Awaitable[Any]], concurrency: int, shape: str) -> None:
    """`send` every item, `concurrency` at a time. `workers`: that many coroutines, each sending the next
    item (the shape of `bench run`'s own loop, and the ceiling: no task per request); `tasks`: a task per
    item, all made at once, the client's semaphore holding `concurrency` in flight (the bare loop of every
    figure before 2026-12-02's second session: its cost per request grows with the count of items, and at
    50,000 it sends 25 to 40% fewer requests a second than the workers on this machine)."""
    if shape == "tasks":
        await asyncio.gather(*(send(x) for x in items))
        return
    it = iter(items)   # "workers", and "lean" (another client, this shape)

    async def worker() -> None:
        for x in it:
            await send(x)
    await asyncio.gather(*(worker() for _ in range(concurrency)))


class ChildRun(NamedTuple):
    """What one child process took."""

    seconds: float
    peak_rss_mb: float   # the child's own peak, not the largest of its children's
    cpu_s: float         # user + system CPU of the child and the children it waited for (the helpers)
    helpers_cpu_s: float = 0.0   # of that, its skeleton helpers' (sampled from /proc every 20 ms)
    helpers: int = 0             # how many helpers it started


def run_child(cmd: list[str], **kwargs) -> ChildRun:
    """Wall time, peak RSS and CPU of one child process, from its own rusage; its helpers' CPU apart."""
    import threading
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, **kwargs)
    seen: dict[int, float] = {}
    stop = threading.Event()

    def sample() -> None:   # the last reading of each helper before it exits (its CPU misses <= 20 ms)
        while not stop.is_set():
            for pid in _helpers(proc.pid):
                try:
                    seen[pid] = cpu_seconds(pid)
                except (OSError, IndexError, ValueError):
                    pass
            stop.wait(0.02)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    stop.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return ChildRun(time.perf_counter() - started, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime,
                    sum(seen.values()), len(seen))


def _helpers(pid: int) -> list[int]:
    """The skeleton helpers (`python -m runner.engine.feed`) among a process's children."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    out = []
    for child in children:
        try:
            if b"runner.engine.feed" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(int(child))
        except OSError:
            pass
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a running process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
