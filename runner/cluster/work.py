"""What travels between the driver and its agents: batches of skeletons out, finished records back.

The driver makes the batches from the grid's skeletons and the run folder's resume index: a
skeleton whose every unit is settled in the logs is counted and not sent; the others go out with
what the logs hold of their units, so an agent resumes them exactly as a run on one machine would
(same keys, same records). Each batch has an id, and each skeleton is in one batch only: a batch
whose records come back twice (sent again after its agent was lost, yet answered) is written once.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple

from families.ir import Skeleton
from runner.config.grid import Grid
from runner.engine.result import RunResult
from runner.engine.resume import count_unit, unit_done
from runner.plan.units import UnitPlan, skeletons
from runner.store.logs import TERMINAL
from runner.store.sinks import FolderLogs


class Batch(NamedTuple):
    """Skeletons for one agent, with what the logs hold of their units (empty on a fresh run). A fresh run
    of generated skeletons sends their index range instead: the agent makes them (the driver's CPU is the
    cluster's ceiling, and making and sending a skeleton costs it more than writing its records)."""

    id: int
    skeletons: tuple[Skeleton, ...]
    renders: dict[str, dict[str, Any]]            # render key -> its logged record (a terminal one)
    solves: dict[str, tuple[str, bool | None]]    # solve key -> (terminal status, correct)
    span: tuple[int, int] | None = None           # [start, stop) of the generated skeletons, instead of them


class BatchResult(NamedTuple):
    """A batch's finished records (lines as a run writes them) and its counts."""

    id: int
    render_lines: list[bytes]
    solve_lines: list[bytes]
    result: RunResult
    counts: dict[str, Counter[str]]    # units per stage by status, retries, skipped: for the driver's progress
    seconds: float


def make_batches(grid: Grid, logs: FolderLogs, size: int, result: RunResult,
                 skipped: Callable[[str, int], None]) -> Iterator[Batch]:
    """The run's batches, made as they are asked for. Settled skeletons are counted into `result` and
    `skipped(stage, n)`, as the pipeline counts units it finds done."""
    plan = UnitPlan(grid)
    renders, solves = logs.render_index, logs.solve_index
    fresh = not renders and not solves
    if fresh and not grid.source.path:
        count = grid.source.count
        for n, start in enumerate(range(0, count, size)):
            yield Batch(n, (), {}, {}, (start, min(start + size, count)))
        return
    batch: list[Skeleton] = []
    known_renders: dict[str, dict[str, Any]] = {}
    known_solves: dict[str, tuple[str, bool | None]] = {}
    n = 0
    for sk in skeletons(grid):
        if not fresh:
            units = list(plan.units(sk))
            if all(unit_done(u, renders, solves) for u in units):
                for u in units:
                    status = count_unit(result.cells, u, renders, solves)
                    if status is not None:   # never None here: unit_done holds its render terminal
                        result.renders[status] += 1
                    result.render_keys.add(u.key)
                    skipped("render", 1)
                    skipped("solve", len(u.solves))
                continue
            for u in units:
                entry = renders.get(u.key)
                if entry is not None and entry.status in TERMINAL:
                    rec = logs.render_record(entry)
                    if rec is None or not isinstance(rec.get("status"), str):
                        result.unreadable += 1   # a damaged line: the agent renders the unit again
                    else:
                        known_renders[u.key] = rec
                for su in u.solves:
                    done = solves.get(su.key)
                    if done is not None and done.status in TERMINAL:
                        known_solves[su.key] = (done.status, done.correct)
        batch.append(sk)
        if len(batch) >= size:
            yield Batch(n, tuple(batch), known_renders, known_solves)
            n += 1
            batch, known_renders, known_solves = [], {}, {}
    if batch:
        yield Batch(n, tuple(batch), known_renders, known_solves)


@dataclass
class Writer:
    """The driver's side of the logs: each batch's records appended once, in one write per log."""

    logs: FolderLogs

    def __post_init__(self) -> None:
        self.written: set[int] = set()

    def absorb(self, res: BatchResult) -> bool:
        """Append a batch's records unless that batch was written already; whether they were written."""
        if res.id in self.written:
            return False
        self.written.add(res.id)
        if res.render_lines:
            self.logs.write_render(b"".join(res.render_lines))
        if res.solve_lines:
            self.logs.write_solve(b"".join(res.solve_lines))
        return True
