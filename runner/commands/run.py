"""What `bench run`, `bench status` and `--dry-run` do, between the CLI and the pipeline."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import re
import signal
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Coroutine, Iterator

import typer

from providers.build import build_provider
from runner.commands.dry_run import audit_notes, count_skeletons, dry_run
from runner.commands.folder import claim_run_folder, run_folder, save_grid
from runner.commands.probes import check_constraints, check_reasoning, check_scoring
from runner.config.grid import Grid, load_grid
from runner.engine import settled
from runner.engine.feed import Feed, helpers
from runner.engine.loop import run as run_loop
from runner.engine.pipeline import Pipeline
from runner.engine.progress import Progress
from runner.engine.result import RunResult
from runner.engine.resume import render_rows
from runner.engine.skip import walk
from runner.errors import Interrupted, UserError, printable
from runner.plan import manifest
from runner.plan.units import UnitPlan
from runner.reporting.summary import ranked, render_table, table
from runner.serving.servers import ServerSet, read_endpoints, serving, start_servers
from runner.store.lock import RunLock
from runner.store.logs import check_log_files, skipped_note
from runner.store.sinks import FolderLogs
from runner.store.tally import total


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """`i/n` with 0 <= i < n."""
    if text is None:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise UserError(f"--shard {text!r}: expected i/n, e.g. 0/2") from None
    if not (n >= 1 and 0 <= i < n):
        raise UserError(f"--shard {text!r}: expected 0 <= i < n")
    return i, n


def run(grid_file: Path, out: Path | None, shard_text: str | None, dry: bool, quiet: bool,
        ray_address: str | None = None) -> int:
    """`bench run`: check everything, then run (or resume) the grid into its folder, here or on Ray."""
    grid = load_grid(grid_file)
    shard = parse_shard(shard_text)
    if ray_address is not None:
        ray_address = check_ray_address(ray_address)
    if ray_address is not None and shard is not None:
        raise UserError("--ray and --shard: a Ray run spreads the whole grid over the cluster; drop --shard")
    folder = run_folder(grid, out)
    for note in audit_notes(grid):
        typer.echo(printable(note), err=True)
    if dry:
        dry_run(grid, folder, shard, ray_address)
        return 0
    # A rerun of a finished run that nothing has changed since (engine/settled.py) does nothing: its counts are kept
    known = settled.load(folder, grid, shard, need_render_stats=not quiet) if ray_address is None else None
    n = known.skeletons if known else count_skeletons(grid, shard)   # a bad skeleton line stops us here, before
    workers = helpers(grid, n)         # any file exists, as does a bad LSB_PREPARE_ASIDE_MIN
    plan = UnitPlan(grid)   # its fingerprints made once
    (renders, solves), instant = plan.counts(n), plan.instant_counts(n)
    # On Ray: joined, and its nodes found, before anything is written (no Ray, no cluster: one line)
    nodes = _join(grid, ray_address) if ray_address is not None else None
    claim_run_folder(folder, grid)
    check_log_files(folder)
    agents: list[str] = []
    with RunLock(folder, shard):
        save_grid(grid, folder, grid_file)
        made: list[Progress] = []

        def progress() -> Progress:
            """The bars, made once the servers are up (their start-up lines would run through them)."""
            made.append(Progress(renders, solves, quiet, instant))
            return made[-1]
        if known is not None and not settled.unchanged(folder, known):
            known = None   # a record was appended while we took the lock: the full path
        try:
            if known is not None:
                result, skipped = known.result, known.skipped
                typer.echo("bench: every unit is settled in the logs, unchanged since the run that finished "
                           "them: nothing to do", err=True)
            elif nodes is not None:
                from runner.cluster.driver import drive
                result, skipped, agents = drive(grid, folder, nodes, n, progress)
            else:
                result, skipped = _run_here(grid, folder, shard, workers, progress, n)
        except KeyboardInterrupt:
            for bars in made:
                bars.close()
            raise Interrupted(f"finished units are in {folder}; rerun the same command to resume") from None
        for bars in made:
            bars.close()
        stats = None if quiet else known.render_stats if known else render_rows(folder, plan, result)
        if known is None and nodes is None and settled.eligible(grid) and settled.complete(result):
            settled.save(folder, grid, shard, n, result, skipped, stats)   # the logs are closed, and ours still
    cells = result.cells
    if stats is not None:
        typer.echo(render_table(stats))
        typer.echo("")
        typer.echo(table(cells))
    t = total(cells)
    by_status = ", ".join(f"{k} {v}" for k, v in sorted(result.renders.items(), key=lambda kv: (kv[0] != "ok", kv[0])))
    typer.echo(f"renders: {by_status or 'none'}; solves: ok {t.ok}, invalid {t.invalid}, error {t.error}, "
               f"unfaithful {t.unfaithful}, render_failed {t.render_failed}; logs in {folder}/")
    for line in agents:
        typer.echo(line)
    return closing_lines(result, skipped)


RAY_ADDRESS = re.compile(r"auto|local|(ray://)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


def check_ray_address(text: str) -> str:
    """`--ray`'s value: auto, local, or HOST[:PORT] (ray://HOST:PORT for Ray Client); one line otherwise."""
    if not RAY_ADDRESS.fullmatch(text) or (":" in text and not text.startswith("[") and
                                            not 0 < int(text.rsplit(":", 1)[1] or 0) < 65536):
        raise UserError(f"--ray {printable(text)!r}: expected auto, local or HEAD:PORT (e.g. 10.0.0.5:6379)")
    return text


def _join(grid: Grid, address: str) -> list[dict[str, Any]]:
    """Join the Ray cluster (runner.cluster) and find its nodes for agents; one line if Ray is missing."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise UserError("--ray needs Ray: pip install -e '.[ray]'") from None
    from runner.cluster.driver import join
    return join(grid, address)


def _run_here(grid: Grid, folder: Path, shard: tuple[int, int] | None, workers: int,
              progress: Callable[[], Progress], n_skeletons: int) -> tuple[RunResult, dict[Path, int]]:
    """The run on this machine: its servers, its feed, its pipeline; the result and unreadable lines per log."""
    servers = ServerSet()
    # The logs' index first: a resume makes no skeleton whose every unit it holds as settled (engine/skip.py).
    # A big run prepares the others in helper processes (from the saved grid), started before the servers.
    logs = FolderLogs(folder)
    walked = walk(grid, folder, shard, logs.render_index, logs.solve_index)
    if walked.skeletons:
        typer.echo(f"bench: {walked.skeletons} skeleton(s) have every unit settled in the logs: counted, "
                   "not made again", err=True)
    left = n_skeletons - walked.skeletons   # helpers only for what is left to make (each costs its imports)
    workers = min(workers, helpers(grid, left)) if left > 0 else 0
    feed = Feed(grid, shard, folder / "grid.json" if workers else None, workers, walked.settled,
                manifest.path_for(folder, grid), walked.known)
    try:
        try:
            servers, urls = ensure_servers(grid, folder)
        except KeyboardInterrupt:   # during server start-up
            raise Interrupted("while starting servers") from None
        providers = {n: build_provider(grid.providers[n], urls=urls.get(n)) for n in grid.used_providers()}
        check_constraints(grid, providers)
        check_scoring(grid, providers)
        check_reasoning(grid, providers)
        pipeline = Pipeline(grid, logs, progress(), providers, settled=walked)
        with fewer_collections():
            result = _run_until_signal(pipeline.run(feed, folder))
        return result, {logs.render_path: logs.render_index.skipped + result.unreadable,
                        logs.solve_path: logs.solve_index.skipped}
    finally:
        feed.close()
        servers.stop()


def closing_lines(result: RunResult, skipped: dict[Path, int]) -> int:
    """Say what went wrong, once: unreadable log lines, and per stage the units that errored and why.

    The exit code is 1 when every unit a stage sent in this run errored (a server down, a wrong key):
    a sweep script must not take such a run for a finished one. Some errors exit 0, with how to retry.
    """
    for path, n in skipped.items():
        if note := skipped_note(path, n, redone=True):
            typer.echo(note, err=True)
    code = 0
    for (kind, label), reasons in sorted(result.errors.items()):
        n, sent = sum(reasons.values()), sum(result.sent[(kind, label)].values())
        kinds: Counter[str] = Counter()
        for (error_kind, _), times in reasons.items():
            kinds[error_kind] += times
        (_, top), times = ranked(Counter({(str(k), why): n for (k, why), n in reasons.items()}))[0]
        # grouped by kind (http, timeout, connection, malformed, ...), then the commonest message as it was said
        why = (", ".join(f"{k} {c}" for k, c in ranked(kinds)) + f"; most often: {printable(top)}"
               + (f" ({times} of them)" if len(reasons) > 1 else ""))
        if n == sent:
            typer.echo(f"bench: every {kind} unit of {label} failed ({n}): {why}", err=True)
            code = 1
        else:
            typer.echo(f"bench: {n} of {sent} {kind} units of {label} failed: {why}; "
                       "rerun the same command to retry them", err=True)
    return code


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
    """Run the pipeline; SIGINT and SIGTERM cancel it cleanly (finished units are already on disk)."""
    async def main() -> RunResult:
        task = asyncio.ensure_future(coro)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        try:
            return await task
        except asyncio.CancelledError:
            raise KeyboardInterrupt from None
    result: RunResult = run_loop(main())   # on uvloop where installed
    return result
