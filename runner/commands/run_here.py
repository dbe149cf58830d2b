"""A run on this machine once something is left to do: its servers, providers, probes, feed and pipeline.

Imported by `bench run` only when a rerun is not answered from its kept counts (engine/settled.py): the
providers' HTTP client (aiohttp), the probes, the feed and the pipeline cost a no-op resume most of its CPU
to import, and it sends nothing."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
from pathlib import Path
from typing import Any, Callable, Coroutine, Iterator

import typer

from providers.build import build_provider
from runner.commands.probes import check_constraints, check_reasoning, check_scoring
from runner.config.grid import Grid
from runner.engine.feed import Feed, helpers
from runner.engine.loop import run as run_loop
from runner.engine.pipeline import Pipeline
from runner.engine.progress import Progress
from runner.engine.result import RunResult
from runner.engine.skip import Walk
from runner.errors import Interrupted, Terminated
from runner.plan import manifest
from runner.serving.servers import ServerSet, read_endpoints, serving, start_servers
from runner.store.sinks import FolderLogs


def run_here(grid: Grid, folder: Path, shard: tuple[int, int] | None, workers: int, progress: Callable[[], Progress],
             n_skeletons: int, logs: FolderLogs, walked: Walk) -> tuple[RunResult, dict[Path, int]]:
    """The run on this machine, past the walk (skip.walk): its servers, its feed, its pipeline; the result and
    unreadable lines per log."""
    servers = ServerSet()
    left = n_skeletons - walked.skeletons   # helpers only for what is left to make (each costs its imports)
    workers = min(workers, helpers(grid, left)) if left > 0 else 0
    feed = Feed(grid, shard, folder / "grid.json" if workers else None, workers, walked.settled,
                manifest.path_for(folder, grid), walked.known)
    try:
        try:
            servers, urls = ensure_servers(grid, folder)
        except KeyboardInterrupt as exc:   # during server start-up
            raise Interrupted.by(exc, "while starting servers") from None
        providers = {n: build_provider(grid.providers[n], urls=urls.get(n)) for n in grid.used_providers()}
        check_constraints(grid, providers)
        check_scoring(grid, providers)
        check_reasoning(grid, providers)
        pipeline = Pipeline(grid, logs, progress(), providers, settled=walked)
        with fewer_collections():
            result = _run_until_signal(pipeline.run(feed, folder))
        return result, logs.unreadable(result.unreadable)
    finally:
        feed.close()
        servers.stop()


def ensure_servers(grid: Grid, folder: Path) -> tuple[ServerSet, dict[str, list[str]]]:
    """URLs for every provider with `launch:`: a healthy server already serving the model (its
    base_url, or one `bench serve` keeps up for this run folder) is used and left running; else
    `bench` starts its own and the returned ServerSet stops them."""
    urls: dict[str, list[str]] = {}
    to_start = {}
    published = read_endpoints(folder)
    for name in grid.used_providers():
        cfg = grid.providers[name]
        launch = cfg.settings.get("launch")
        if not launch:
            continue
        model = cfg.settings["model"]
        for candidate in (cfg.settings.get("base_url"), published.get(name)):
            if candidate and all(serving(u, model) for u in candidate):
                urls[name] = list(candidate)
                typer.echo(f"bench: using the {name} server(s) already running at {', '.join(candidate)}", err=True)
                break
        else:
            to_start[name] = launch
    servers = start_servers(to_start, folder) if to_start else ServerSet()
    urls.update(servers.urls())
    return servers, urls


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Tune the cyclic GC for a long run, and restore it after.

    A unit allocates a few hundred container objects that refcounting frees; with the default
    threshold (700) they still set off a young collection every unit or two, and the older
    generations hold the modules, the providers and the resume index, which are alive for the whole
    run. Freezing those and collecting less often costs no memory to speak of (the rare cycles,
    mostly finished futures, are still collected) and saves about a tenth of the loop's CPU.
    """
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)


def _run_until_signal(coro: Coroutine[Any, Any, RunResult]) -> RunResult:
    """Run the pipeline; SIGINT, SIGTERM and SIGHUP cancel it cleanly (finished units are already on disk), and
    unwind as the signal would: KeyboardInterrupt for Ctrl-C, Terminated (128 + its number) for the others."""
    caught: list[int] = []

    def stop(task: asyncio.Future[RunResult], signum: int) -> None:
        caught.append(signum)
        task.cancel()

    async def main() -> RunResult:
        task = asyncio.ensure_future(coro)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop, task, sig)
        try:
            return await task
        except asyncio.CancelledError:
            if caught and caught[0] != signal.SIGINT:
                raise Terminated(caught[0]) from None
            raise KeyboardInterrupt from None
    result: RunResult = run_loop(main())   # on uvloop where installed
    return result
