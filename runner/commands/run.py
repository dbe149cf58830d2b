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

from families.ir import SkeletonError
from providers.config import build_provider
from runner.commands.folder import claim_run_folder, run_folder, save_grid
from runner.commands.probes import check_constraints, check_reasoning, check_scoring
from runner.config.grid import Grid, Stage, load_grid
from runner.engine import settled
from runner.engine.feed import Feed, helpers
from runner.engine.loop import run as run_loop
from runner.engine.pipeline import Pipeline
from runner.engine.progress import Progress
from runner.engine.result import RunResult
from runner.engine.skip import walk
from runner.errors import Interrupted, UserError, printable
from runner.plan import manifest
from runner.plan.units import UnitPlan, in_shard, skeletons
from runner.reporting.summary import ranked, render_table, table
from runner.serving.servers import ServerSet, read_endpoints, serving, start_servers
from runner.source.reader import scan
from runner.store.index import load_index
from runner.store.logs import (
    RENDER_FIELDS,
    SOLVE_FIELDS,
    TERMINAL,
    RunLock,
    best_records,
    check_log_files,
    skipped_note,
)
from runner.store.sinks import RENDERS, SOLVES, FolderLogs
from runner.store.tally import render_stats, total


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


def count_skeletons(grid: Grid, shard: tuple[int, int] | None) -> int:
    """Check every line of the skeleton file before anything is written, and count this shard's."""
    if not grid.source.path:
        if shard is None:
            return grid.source.count
        return sum(1 for _ in skeletons(grid, shard))
    n = 0
    for lineno, item in scan(Path(grid.source.path), grid.source.format):
        if isinstance(item, SkeletonError):
            raise UserError(f"{grid.source.path}:{lineno}: {item}")
        n += shard is None or in_shard(item, shard)
    return n


def dry_run(grid: Grid, folder: Path, shard: tuple[int, int] | None, ray_address: str | None = None) -> None:
    """Print the plan and unit counts (and how many are already done); send nothing, write nothing. Names
    and values from the grid are printed with their control characters escaped."""
    def echo(text: str) -> None:
        typer.echo(printable(text))
    n = count_skeletons(grid, shard)
    renders, solves = UnitPlan(grid).counts(n)
    check_log_files(folder)
    done_r = sum(e.status in TERMINAL for e in load_index(folder / RENDERS, RENDER_FIELDS).values())
    done_s = sum(e.status in TERMINAL for e in load_index(folder / SOLVES, SOLVE_FIELDS).values())
    echo(f"grid {grid.name} ({grid.hash()}) -> {folder}" + (f", shard {shard[0]}/{shard[1]}" if shard else ""))
    workers = helpers(grid, n)
    echo(f"skeletons: {n}  ({grid.source.path or 'generated: ' + str(grid.source.count)}), prepared "
         + (f"by {workers} helper process(es)" if workers else "in the run's own process")
         + (" (prepare_workers: auto)" if grid.prepare_workers is None else ""))
    for st in grid.renderers:
        p = grid.providers[st.provider]
        echo(f"renderer {st.label}: {' '.join(filter(None, (p.kind, p.settings.get('model'))))} "
                   f"x{st.samples} sample(s), {describe_renderer(grid, st)}")
    for st in grid.solvers:
        p = grid.providers[st.provider]
        echo(f"solver   {st.label}: {' '.join(filter(None, (p.kind, p.settings.get('model'))))} "
                   f"x{st.samples} sample(s), {describe_solver(st)}")
    echo(f"cells: {len(grid.renderers) * len(grid.solvers)}  render units: {renders}  solve units: {solves}")
    echo(f"already terminal in the logs (any grid version): renders {done_r}, solves {done_s}")
    if ray_address is not None:
        from runner.cluster.placement import needs  # Ray itself is not imported: nothing is placed
        what = ", ".join(f"{k} {v:g}" for k, v in needs(grid).items()) or "nothing"
        nodes = f"{grid.ray.agents} node(s)" if grid.ray.agents else "every node"
        echo(f"on Ray ({ray_address}): {grid.ray.agents_per_node} agent(s) on {nodes}, each with {what}, "
             f"{grid.ray.batch} skeletons per batch; the driver writes the logs")


def describe_renderer(grid: Grid, st: Stage) -> str:
    """How a renderer will run, in words: its format, who names the symbols, repair rounds, its audit."""
    if grid.providers[st.provider].kind in ("template",):
        return "the template (faithful by construction)"
    if st.format == "text":
        return "free text (unchecked)"
    out = "structured, checked; " + ("names assigned by us" if st.names == "assigned" else "names its own")
    if st.repair:
        out += f"; up to {st.repair} repair round(s)"
    if st.audit_provider:
        out += f"; {st.audit_rate:.0%} audited by {st.audit_provider}"
        out += f" (calibrated on {st.audit_calibrate} control renders per family)" if st.audit_calibrate else ""
    return out


def audit_notes(grid: Grid) -> list[str]:
    """A line for each renderer whose audit samples no render (`rate: 0`) yet calibrates its auditor: those
    requests are sent all the same, and a user who set rate 0 to turn the audit off would not expect them."""
    return [f"bench: renderer {st.label}: audit rate 0 samples no render, but auditor {st.audit_provider} still reads "
            f"{st.audit_calibrate} control renders per family to calibrate, then the premises the check could not "
            "read; remove the audit block to turn it off, or set calibrate: 0"
            for st in grid.renderers if st.audit_provider and st.audit_rate == 0 and st.audit_calibrate]


def describe_solver(st: Stage) -> str:
    """How a solver will run, in words: a loglik solver generates nothing and takes no constraint."""
    if st.mode == "loglik":
        return f"loglik: scores each option's log-likelihood (by {st.score}), generates nothing, no constraint"
    if st.thinks:
        how = ", ".join(f"{k} {v}" for k, v in (st.reasoning or {}).items() if k != "enabled") or "on"
        return (f"thinks ({how}) within max_tokens {st.max_tokens}, then one label: constraint {st.constraint} "
                "after the thought where the server has a reasoning parser, else the label read from text")
    return f"constraint {st.constraint}"


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
                result, skipped = _run_here(grid, folder, shard, workers, progress)
        except KeyboardInterrupt:
            for bars in made:
                bars.close()
            raise Interrupted(f"finished units are in {folder}; rerun the same command to resume") from None
        for bars in made:
            bars.close()
        stats = None if quiet else known.render_stats if known else \
            render_stats(map(plan.relabel, best_records(folder / RENDERS, result.render_keys, RENDER_FIELDS)))
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
              progress: Callable[[], Progress]) -> tuple[RunResult, dict[Path, int]]:
    """The run on this machine: its servers, its feed, its pipeline; the result and unreadable lines per log."""
    servers = ServerSet()
    # The logs' index first: a resume makes no skeleton whose every unit it holds as settled (engine/skip.py).
    # A big run prepares the others in helper processes (from the saved grid), started before the servers.
    logs = FolderLogs(folder)
    walked = walk(grid, folder, shard, logs.render_index, logs.solve_index)
    if walked.skeletons:
        typer.echo(f"bench: {walked.skeletons} skeleton(s) have every unit settled in the logs: counted, "
                   "not made again", err=True)
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
