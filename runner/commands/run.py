"""What `bench run`, `bench status` and `--dry-run` do, between the CLI and the pipeline."""
from __future__ import annotations

import contextlib
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import typer

from runner.commands.folder import claim_run_folder, run_folder, save_grid
from runner.config.grid import Grid, load_grid
from runner.engine import settled
from runner.engine.feed import helpers
from runner.engine.result import RunResult
from runner.errors import Interrupted, UserError, printable
from runner.reporting.summary import ranked, render_table, table
from runner.store.lock import RunLock
from runner.store.logs import check_log_files, skipped_note
from runner.store.sinks import log_sizes
from runner.store.tally import total

if TYPE_CHECKING:
    from runner.engine.progress import Progress
    from runner.engine.skip import Walk
    from runner.plan.units import UnitPlan
    from runner.store.sinks import FolderLogs
    from runner.store.tally import RenderStats

# What a rerun answered from its kept counts (engine/settled.py) never needs is imported where it is first
# needed, not here: the dry run, the walk, the feed, the pipeline, the providers' HTTP client (aiohttp), the
# probes (runner/commands/run_here.py). They were most of a no-op resume's CPU, and it sends nothing.


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """`i/n` with 0 <= i < n, both ASCII digits, n under 2**63 (the run's settled counts stamp it in 64 bits)."""
    if text is None:
        return None
    parts = text.split("/")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 19 for p in parts):
        raise UserError(f"--shard {text[:60]!r}: expected i/n, e.g. 0/2")
    i, n = int(parts[0]), int(parts[1])
    if not (1 <= n < 2**63 and 0 <= i < n):
        raise UserError(f"--shard {text!r}: expected 0 <= i < n, n under 2**63")
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
    if any(st.audit_provider for st in grid.renderers):   # (the notes are on audits: none without an auditor)
        from runner.commands.dry_run import audit_notes
        for note in audit_notes(grid):
            typer.echo(printable(note), err=True)
    if dry:
        from runner.commands.dry_run import dry_run
        dry_run(grid, folder, shard, ray_address)
        return 0
    # A rerun of a finished run that nothing has changed since (engine/settled.py) does nothing: its counts are kept
    known = settled.load(folder, grid, shard, need_render_stats=not quiet) if ray_address is None else None
    if known is None:
        from runner.commands.dry_run import count_skeletons
    n = known.skeletons if known else count_skeletons(grid, shard)   # a bad skeleton line stops us here, before
    workers = helpers(grid, n)         # any file exists, as does a bad LSB_PREPARE_ASIDE_MIN
    plan = None if known else _plan(grid)   # its fingerprints made once; the kept counts need none
    (renders, solves), instant = plan.counts(n) if plan else (0, 0), plan.instant_counts(n) if plan else (0, 0)
    # On Ray: joined, and its nodes found, before anything is written (no Ray, no cluster: one line)
    nodes = _join(grid, ray_address) if ray_address is not None else None
    claim_run_folder(folder, grid)
    check_log_files(folder)
    agents: list[str] = []
    with RunLock(folder, shard):
        save_grid(grid, folder, grid_file)
        before = None if shard is not None else log_sizes(folder)
        made: list[Progress] = []

        def progress() -> Progress:
            """The bars, made once the servers are up (their start-up lines would run through them)."""
            from runner.engine.progress import Progress
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
                with _keeper(folder, before):
                    result, skipped, agents = drive(grid, folder, nodes, n, progress)
            else:
                with _keeper(folder, before):
                    result, skipped = _run_here(grid, folder, shard, workers, progress, n)
        except KeyboardInterrupt as exc:
            for bars in made:
                bars.close()
            raise Interrupted.by(exc, f"finished units are in {folder}; rerun the same command to resume") from None
        for bars in made:
            bars.close()
        stats = None if quiet else known.render_stats if known else _render_rows(folder, plan, result)
        if known is None and nodes is None and settled.eligible(grid) and settled.complete(result):
            settled.save(folder, grid, shard, n, result, skipped, stats)   # the logs are closed, and ours still
        _keep_ahead(folder, before)
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


def _keeper(folder: Path, before: tuple[int, int] | None) -> contextlib.AbstractContextManager[object]:
    """A whole run's checkpoints of its logs' index while it runs (store/snapshot.py Keeper), every LSB_KEEP_EVERY
    seconds where the logs hold LSB_AHEAD_MIN bytes or more; none for a shard (`before` None)."""
    if before is None:
        return contextlib.nullcontext()
    from runner.config import environment
    from runner.store.sinks import RENDERS, SOLVES
    from runner.store.snapshot import Keeper
    return Keeper({folder / RENDERS: "render", folder / SOLVES: "solve"}, environment.number("LSB_KEEP_EVERY"),
                  int(environment.number("LSB_AHEAD_MIN")))


def _keep_ahead(folder: Path, before: tuple[int, int] | None) -> None:
    """Where a whole run (its lock the folder's alone: `before` the logs' sizes as it found them; None for a shard,
    beside which others may write) wrote to big logs, keep their index for the next resume (store/snapshot.py)
    and what their first report reads (reporting/ahead.py), saying so: seconds at a million records, once, where
    each resume would read every line and each report scan them."""
    if before is None or log_sizes(folder) == before:
        return
    from runner.reporting.ahead import prepare, worth_it
    if not worth_it(folder):
        return
    from runner.store.index import keep_index
    from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS
    from runner.store.sinks import RENDERS, SOLVES
    typer.echo("bench: keeping the logs' index and columns for the next resume and report (LSB_AHEAD_MIN)", err=True)
    try:
        for name, fields in ((RENDERS, RENDER_FIELDS), (SOLVES, SOLVE_FIELDS)):
            keep_index(folder / name, fields)
    except KeyboardInterrupt:   # the run is done: Ctrl-C stops only this, and its closing lines still come
        typer.echo("bench: the logs' index and columns were not kept (interrupted)", err=True)
        return
    if (why := prepare(folder)) is not None:
        typer.echo(f"bench: the logs' columns were not kept ({printable(why)}); `bench report` reads the logs",
                   err=True)


def _plan(grid: Grid) -> UnitPlan:
    """The grid's units (runner.plan.units, imported for a run that is not answered from its kept counts)."""
    from runner.plan.units import UnitPlan
    return UnitPlan(grid)


def _render_rows(folder: Path, plan: UnitPlan | None, result: RunResult) -> dict[str, RenderStats]:
    """The closing renders table's rows (engine/resume.py) of a run not answered from its kept counts."""
    from runner.engine.resume import render_rows
    assert plan is not None   # made wherever there were no kept counts
    return render_rows(folder, plan, result)


def _run_here(grid: Grid, folder: Path, shard: tuple[int, int] | None, workers: int,
              progress: Callable[[], Progress], n_skeletons: int) -> tuple[RunResult, dict[Path, int]]:
    """The run on this machine: the walk first; what is left to make, if anything, in run_here."""
    from runner.engine.skip import retired, walk
    from runner.store.sinks import FolderLogs
    # The logs' index first: a resume makes no skeleton whose every unit it holds as settled (engine/skip.py).
    # A big run prepares the others in helper processes (from the saved grid), started before the servers.
    logs = FolderLogs(folder)
    if retired(grid, folder, logs.render_index):
        typer.echo("bench: the code or the skeleton source changed since these logs were written (no skeleton "
                   "manifest of this one): making every skeleton again to find its units' keys (none rendered or "
                   "checked)", err=True)
    walked = walk(grid, folder, shard, logs.render_index, logs.solve_index)
    if walked.skeletons:
        typer.echo(f"bench: {walked.skeletons} skeleton(s) have every unit settled in the logs: counted, "
                   "not made again", err=True)
    if walked.skeletons and walked.skeletons == n_skeletons and settled.eligible(grid):
        return _all_settled(logs, progress, walked)
    from runner.commands.run_here import run_here
    return run_here(grid, folder, shard, workers, progress, n_skeletons, logs, walked)


def _all_settled(logs: FolderLogs, progress: Callable[[], Progress], walked: Walk) -> tuple[RunResult, dict[Path, int]]:
    """A walk that found every skeleton settled (and no auditor to calibrate): nothing to make or send, so no
    server, provider, probe, feed or pipeline; what the pipeline would have returned: the walk's counts. The logs
    are opened and closed as the pipeline does (a torn last line is closed off), and the bars show the skipped."""
    bars = progress()
    for (stage, instant), n in walked.skipped.items():
        bars.skipped(stage, n, instant)
    logs.open(_no_writes)
    logs.close()
    result = RunResult()
    result.merge(walked.result)
    return result, logs.unreadable(result.unreadable)


def _no_writes(error: Exception) -> None:
    """The logs' write-failure hook where nothing is written (it is never called)."""


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


