"""`bench report`'s figures as queries over the run's logs (DuckDB): the solve logs scanned and checked in the
engine, keys joined to the grid's planned keys, the newest record of each unit kept, the groups counted there.
Python outcomes are made only where a step needs them one by one: the thinking solvers' and `--compare`."""
from __future__ import annotations

import gc
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from runner.children import die_with_parent
from runner.config.grid import Grid
from runner.reporting import columnar_sql as sql
from runner.reporting import log_scan
from runner.reporting.fidelity import FidelityRow
from runner.reporting.forked import Forked
from runner.reporting.load import Loaded, Outcome, _Reader, calibrations, opened, stage_part
from runner.reporting.log_scan import LogScan, Mark, scan_log
from runner.reporting.planned import cached_plan, parts
from runner.reporting.render_sql import RenderFigures, render_figures, scan_render_logs
from runner.reporting.stats import Cell, Tally
from runner.store.sinks import SOLVES
from runner.store.tally import RenderStats


@dataclass
class Figures:
    """What the report's tables and files are made from: `loaded` as load_runs gives it, but with outcomes only
    for the units a step reads one by one (thinking solvers', or all with `outcomes="all"`) and no render records
    (they are counted in the engine: the groups' tallies hold the solves they blocked), the groups' tallies,
    and the counts of the `--by` table."""

    loaded: Loaded
    groups: dict[tuple, Tally] = field(default_factory=dict)
    by_counts: list[tuple[tuple, int]] = field(default_factory=list)
    fidelity: list[FidelityRow] = field(default_factory=list)       # fidelity_rows of the best renders
    render_counts: dict[str, RenderStats] = field(default_factory=dict)   # render_stats of the best renders
    # per (run, renderer, solver): the p50 and p95 of its answers' latencies (the groups hold none: cell_latency)
    cell_quantiles: dict[Cell, tuple[float | None, float | None]] = field(default_factory=dict)
    # the logs found well-typed and the columns to keep, marked and kept only once the report has written
    # everything (keep_marks): a report that fails leaves its folders as they were
    marks: list[Mark] = field(default_factory=list)


def read_figures(folders: list[Path], pool_renders: bool = False, by: tuple[str, ...] = ("renderer",),
                 all_outcomes: bool = False) -> Figures:
    """Read run folders as load_runs does (the same records count, the same newest record of each unit wins),
    the solve logs in DuckDB. A helper process makes (or finds cached, or reads from the run's manifest) each grid's
    planned keys and a thread scans the render logs, while this one scans the solve logs."""
    with reading(folders, pool_renders, by, all_outcomes) as figures:
        return figures


@contextmanager
def reading(folders: list[Path], pool_renders: bool = False, by: tuple[str, ...] = ("renderer",),
            all_outcomes: bool = False) -> Iterator[Figures]:
    """read_figures's figures, the engine, helper and thread let go only when the block ends: what the report does
    next (the pictures sent to be drawn) need not wait for that (a fifth of a second on a million records)."""
    loaded, grids = opened(folders)
    # A helper, forked before any thread starts here, makes (or finds cached) each grid's planned keys; a thread
    # scans the render logs into the engine, and counts their figures there once the planned keys are in.
    # The helper is a plain forked child, not a multiprocessing Pool: a Pool's exit kills a worker that may be
    # sending its result, holding the result queue's lock, and then waits on that lock for ever (seen here, once,
    # on a report that failed early).
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp, ThreadPoolExecutor(1) as thread:
        scratch = [Path(tmp) / str(i) for i in range(len(grids))]
        for place in scratch:
            place.mkdir()
        plans = Forked(lambda: _plans(folders, grids, scratch), what="planning")
        try:
            yield from _reading(loaded, folders, grids, plans, thread, pool_renders, by, all_outcomes)
        finally:
            plans.stop()


def _plans(folders: list[Path], grids: list[Grid], scratch: list[Path]) -> list[tuple[Path, list[str], dict]]:
    """In the helper: each grid's cached_plan, in order."""
    die_with_parent()
    return [cached_plan(folder, grid, place) for folder, grid, place in zip(folders, grids, scratch)]


def _reading(loaded: Loaded, folders: list[Path], grids: list[Grid], plans: Forked, thread: ThreadPoolExecutor,
             pool_renders: bool, by: tuple[str, ...], all_outcomes: bool) -> Iterator[Figures]:
    """The body of `reading` once its helper runs: the engine and the render logs' thread, let go at the end."""
    con = duckdb.connect(config={"preserve_insertion_order": True})
    cursor = con.cursor()   # the render logs' scan, in the thread: the engine's own connection for it
    for session in (con, cursor):   # no progress bar: DuckDB draws it on stdout, into the report's tables
        session.execute("SET enable_progress_bar = false")
    renders = thread.submit(scan_render_logs, cursor, folders)
    paused = gc.isenabled()
    gc.disable()   # the outcomes held hold no cycles: the cyclic GC would rescan them
    try:
        figures = _figures(con, cursor, loaded, folders, grids, plans, renders, thread, pool_renders, by, all_outcomes)
        yield figures
        log_scan.write_kept(con, figures.marks)   # reached only where the block ended well: the report goes on
    finally:
        renders.cancel()
        try:   # the thread is done with its connection (the scan, the render figures) before it is closed
            thread.submit(int).result()
        finally:
            cursor.close()
            con.close()
        if paused:
            gc.enable()


def _figures(con: duckdb.DuckDBPyConnection, cursor: duckdb.DuckDBPyConnection, loaded: Loaded,
             folders: list[Path], grids: list[Grid],
             plans: Forked, renders: Future, thread: ThreadPoolExecutor, pool_renders: bool,
             by: tuple[str, ...], all_outcomes: bool) -> Figures:
    """The body of read_figures, once the helpers run: the solve logs into the engine; then the render logs
    and the planned keys as the helpers give them."""
    con.execute(sql.RAW)
    marks = [_scan(con, i, folder / SOLVES, loaded) for i, folder in enumerate(folders)]
    readers = [_Reader(grid, loaded) for grid in grids]
    sources: dict[str, set[str]] = {}
    for name in sql.PLAN.split(";"):
        con.execute(name)
    for i, (grid, (place, identities, chance)) in enumerate(zip(grids, plans.result())):
        sources[grid.name] = sources.get(grid.name, set()) | set(identities)
        for fam, level in chance.items():
            loaded.chance.setdefault(fam, level)
        _load_plan(con, i, grid, place)
    for run, identities in sources.items():
        con.execute("INSERT INTO src SELECT $run, unnest($ids)", {"run": run, "ids": sorted(identities)})
    _match_keys(con, readers)
    skipped, render_marks = renders.result()   # the render logs' scan, which the keys' matching need not wait for
    for path, n in skipped.items():
        loaded.skipped[path] += n
    # The render figures are counted on the thread's connection while this one folds the solve records.
    side = thread.submit(render_figures, cursor, readers)
    calibrations(loaded, folders, grids)
    con.execute(sql.REDONE)
    outcomes = sql.outcomes_sql(redone=bool(con.execute("SELECT count(*) FROM redone").fetchall()[0][0]))
    con.execute(sql.grains_sql(outcomes))
    figures = _results(con, loaded, pool_renders, by, outcomes, all_outcomes, side)
    figures.marks = [m for m in marks if m is not None] + render_marks
    return figures


def _scan(con: duckdb.DuckDBPyConnection, i: int, path: Path, loaded: Loaded) -> Mark | None:
    """Scan one solve log into `raw`, its unreadable lines counted; the mark to keep where it was found well-typed."""
    got = scan_log(con, SOLVE_SCAN, i, path)
    if got is None:   # no log: named with nothing skipped, as the loader names it
        loaded.skipped[path] += 0
        return None
    bad, mark = got
    loaded.skipped[path] += bad
    return mark


def keep_marks(figures: Figures) -> None:
    """Mark the logs the report found well-typed and keep their columns, once it has written everything; a log
    written to since its scan is neither (its next report scans it exactly)."""
    log_scan.keep_marks(figures.marks)


def drop_unkept(figures: Figures) -> None:
    """Remove the columns the report wrote to keep and did not (it failed before it had written everything)."""
    log_scan.drop_unkept(figures.marks)


SOLVE_SCAN = LogScan("raw", sql.SCAN, sql.TYPED, ".report-typed-", sql.RAW, ".report-rows-")


def _load_plan(con: duckdb.DuckDBPyConnection, i: int, grid: Grid, place: Path) -> None:
    """A folder's planned keys (written by the helper) and its stages' labels into the engine."""
    con.execute(f"INSERT INTO runs VALUES ({i}, $run)", {"run": grid.name})
    if (place / "renders.parquet").is_file():
        con.execute(sql.LOAD_PLAN_R, {"f": i, "path": str(place / "renders.parquet")})
    if (place / "solves.parquet").is_file():
        con.execute(sql.LOAD_PLAN_S, {"f": i, "path": str(place / "solves.parquet")})
    from runner.plan.units import UnitPlan
    plan = UnitPlan(grid)
    rows = [(i, stage, part, label, n == 0)
            for stage, stages in (("render", plan.render_parts), ("solve", plan.solve_parts))
            for part, (_, labels, _) in enumerate(parts(stages)) for n, label in enumerate(labels)]
    if rows:
        con.executemany("INSERT INTO labels VALUES (?, ?, ?, ?, ?)", rows)


def _match_keys(con: duckdb.DuckDBPyConnection, readers: list[_Reader]) -> None:
    """Each folder's render keys and solve keys matched to its grid's stages: by the planned keys in the engine,
    and those not planned (a sample beyond the grid's, a skeleton not in its source) by hashing them here."""
    con.execute(sql.RFIRST)
    con.execute(sql.RMATCH)
    extra = []
    for f, rkey, named, skeleton, sample in con.execute(sql.RLEFT).fetchall():
        part = stage_part(readers[f].render_fp, named, skeleton, sample, rkey)
        if part is not None:
            extra.append((f, rkey, part[2]))
    if extra:
        con.executemany("INSERT INTO rmatch VALUES (?, ?, ?)", extra)
    con.execute(sql.JOINED)
    extra = []
    for f, key, rkey, sample, named in con.execute(sql.SLEFT).fetchall():
        part = stage_part(readers[f].solve_fp, named, rkey, sample, key)
        if part is not None:
            extra.append((f, key, rkey, sample, named, part[2]))
    if extra:
        con.executemany("INSERT INTO sextra VALUES (?, ?, ?, ?, ?, ?)", extra)


def _results(con: duckdb.DuckDBPyConnection, loaded: Loaded, pool_renders: bool, by: tuple[str, ...],
             outcomes: str, all_outcomes: bool, side: Future) -> Figures:
    """The groups' tallies and the `--by` counts, from the outcomes' grains; the outcomes (of query `outcomes`) a
    step reads one by one; the render figures once its thread is done (the solve units they blocked counted in the
    groups)."""
    groups: dict[tuple, Tally] = defaultdict(Tally)
    for (run, renderer, solver, family, complexity, ok, correct, invalid, error, unchecked, unchecked_correct,
         sent, sent_correct, left, latency, pt, ct, answered, thoughts, cut, sources) \
            in con.execute(sql.tallies_sql(pool_renders)).fetchall():
        groups[(run, renderer, solver, family, complexity)] = Tally(
            ok=ok, correct=correct, invalid=invalid, error=error, unchecked=unchecked,
            unchecked_correct=unchecked_correct, sent_unfaithful=sent, sent_unfaithful_correct=sent_correct,
            left=left, quantiles=_pair(latency), prompt_tokens=int(pt), completion_tokens=int(ct),
            answered=answered, thoughts=thoughts, cut=cut, sources=set(sources))
    cell_quantiles = {(run, renderer, solver): _pair(latency)
                      for run, renderer, solver, latency in con.execute(sql.CELL_QUANTILES).fetchall()}
    counts = [(tuple(row[:-1]), row[-1]) for row in con.execute(sql.grouped_sql(by)).fetchall()]
    loaded.outcomes = _outcomes(con, outcomes, all_outcomes)
    rendered: RenderFigures = side.result()
    for run, renderer, solver, family, complexity, status, n in rendered.blocked:
        groups[(run, renderer, solver, family, complexity)].blocked(status, n)
    return Figures(loaded, groups, counts, rendered.fidelity, rendered.counts, cell_quantiles=cell_quantiles)


def _outcomes(con: duckdb.DuckDBPyConnection, outcomes: str, all_outcomes: bool) -> list[Outcome]:
    """The outcomes of query `outcomes`: all of them, or the thinking solvers' (none made where the grains hold no
    thought: the query runs again only for outcomes read one by one)."""
    if not all_outcomes and not con.execute(sql.THOUGHTS).fetchone()[0]:
        return []
    where = "" if all_outcomes else "WHERE thinking IS NOT NULL"
    return [Outcome._make(row) for row in con.execute(sql.outcome_rows(outcomes, where)).fetchall()]


def _pair(quantiles: list[float | None]) -> tuple[float | None, float | None]:
    """The engine's [p50, p95] as a pair (each None where there was no latency to take it of)."""
    p50, p95 = quantiles
    return p50, p95
