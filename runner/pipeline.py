"""The async render-solve pipeline: skeletons streamed with backpressure, every cell in flight at once."""
from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from providers.base import Completion, Provider, SolveRequest
from runner.feed import Item, RenderJob, SolveJob, checked_render, prepared
from runner.grid import Grid, Stage
from runner.logs import TERMINAL, AppendLog, Entry, load_index, read_at
from runner.progress import Progress
from runner.prompts import fill_solve
from runner.records import SCHEMA, SolveRecord, render_record
from runner.summary import CellStats
from runner.units import UnitPlan, cell, skeletons

RENDERS, SOLVES = "renders.jsonl", "solves.jsonl"


@dataclass
class RunResult:
    """What a run did, per cell, and where its logs are."""

    cells: dict[tuple[str, str], CellStats] = field(default_factory=lambda: defaultdict(CellStats))
    renders: dict[str, int] = field(default_factory=lambda: defaultdict(int))


class Pipeline:
    """One run of a grid into a run folder (the caller holds the folder's lock)."""

    def __init__(self, grid: Grid, folder: Path, shard: tuple[int, int] | None, progress: Progress,
                 providers: dict[str, Provider], prepare_aside: Path | None = None):
        self.grid, self.folder, self.shard, self.progress = grid, folder, shard, progress
        self.render_path, self.solve_path = folder / RENDERS, folder / SOLVES
        self.render_index = load_index(self.render_path)
        self.solve_index = load_index(self.solve_path)
        self.providers = providers   # built by the caller, which may have launched their servers
        self.prepare_aside = prepare_aside   # the saved grid: prepare skeletons in a helper process
        self.result = RunResult()
        self._render_log: AppendLog | None = None
        self._solve_log: AppendLog | None = None

    async def run(self) -> RunResult:
        """Process every skeleton of the grid (this shard's), at most `max_in_flight` at once."""
        self._render_log, self._solve_log = AppendLog(self.render_path), AppendLog(self.solve_path)
        items = prepared(self.grid, self.shard, self.prepare_aside)
        try:
            for provider in self.providers.values():
                await provider.start()
            window = asyncio.Semaphore(self.grid.max_in_flight)
            tasks: set[asyncio.Task] = set()
            failure: list[BaseException] = []

            def finished(task: asyncio.Task) -> None:
                tasks.discard(task)
                window.release()
                if not task.cancelled() and task.exception() is not None:
                    failure.append(task.exception())

            async for item in items:
                await window.acquire()
                if failure:
                    break
                task = asyncio.create_task(self._item(item))
                tasks.add(task)
                task.add_done_callback(finished)
            if tasks:
                await asyncio.wait(set(tasks))
            if failure:
                raise failure[0]
            return self.result
        finally:
            await items.aclose()
            for provider in self.providers.values():
                await provider.close()
            self._render_log.close()
            self._solve_log.close()

    async def _item(self, item: Item) -> None:
        await _all([self._render_unit(item, job) for job in item.renders])

    async def _render_unit(self, item: Item, job: RenderJob) -> None:
        stage = self.grid.renderers[job.stage]
        pending = []
        for su in job.solves:
            entry = self.solve_index.get(su.key)
            if entry is not None and entry.status in TERMINAL:
                self.result.cells[cell(stage, self.grid.solvers[su.stage])].add(entry.status, entry.correct)
                self.progress.skipped("solve")
            else:
                pending.append(su)
        entry = self.render_index.get(job.key)
        if entry is not None and entry.status in TERMINAL:
            self.progress.skipped("render")
            self.result.renders[entry.status] += 1
            if entry.status != "ok":
                self._blocked(stage, pending)
                return
            if not pending:
                return
            text = read_at(self.render_path, entry.offset)["text"]
        else:
            status, text = await self._render(item, job, stage)
            if status != "ok":
                self._blocked(stage, pending)
                return
        await _all([self._solve(item, job, stage, text, su) for su in pending])

    def _blocked(self, stage: Stage, pending: list[SolveJob]) -> None:
        for su in pending:
            self.result.cells[cell(stage, self.grid.solvers[su.stage])].render_failed += 1
        self.progress.skipped("solve", len(pending))

    async def _render(self, item: Item, job: RenderJob, stage: Stage) -> tuple[str, str]:
        """Run (or take the local result of) one render unit and log it; its status and text."""
        if job.local is not None:   # made while preparing, its record with it
            self._render_log.write(job.local.line)
            status, text, attempts = job.local.status, job.local.text, 1
        else:
            provider = self.providers[stage.provider]
            started = time.time()
            res = checked_render(await provider.render(job.request), item.answer_options)
            self._render_log.write(render_record(
                job.key, item.identity, item.family, item.complexity, stage.label, provider.model, job.sample,
                res, started).to_line())
            status, text, attempts = res.status, res.text, res.attempts
        self.result.renders[status] += 1
        self.progress.done("render", status, attempts)
        return status, text

    async def _solve(self, item: Item, job: RenderJob, render_stage: Stage, text: str, su: SolveJob) -> None:
        stage = self.grid.solvers[su.stage]
        provider = self.providers[stage.provider]
        started = time.time()
        res: Completion = await provider.solve(SolveRequest(
            prompt=fill_solve(stage.prompt, text, item.answer_options), labels=item.answer_options,
            temperature=stage.temperature, max_tokens=stage.max_tokens, constraint=stage.constraint,
            sample=su.sample, family=item.family, complexity=item.complexity, seed_key=su.key))
        correct = (res.label == item.gold_answer) if res.status == "ok" else None
        record = SolveRecord(
            schema=SCHEMA, key=su.key, status=res.status, render_key=job.key, skeleton=item.identity,
            family=item.family, complexity=item.complexity, renderer=render_stage.label, solver=stage.label,
            model=provider.model, render_sample=job.sample, sample=su.sample, answer=res.label, raw=res.text,
            gold=item.gold_answer, correct=correct, constrained=res.constrained, reason=res.reason,
            attempts=res.attempts, latency_s=round(res.latency_s, 6), prompt_tokens=res.usage.prompt_tokens,
            completion_tokens=res.usage.completion_tokens, finish_reason=res.finish_reason,
            started_at=started, finished_at=time.time())
        self._solve_log.write(record.to_line())
        self.result.cells[cell(render_stage, stage)].add(res.status, correct)
        self.progress.done("solve", res.status, res.attempts)


async def _all(coros: list) -> None:
    """Await all at once; a single one directly (a task per unit costs more than the unit's own work)."""
    if len(coros) == 1:
        await coros[0]
    elif coros:
        await asyncio.gather(*coros)


def unit_status(grid: Grid, folder: Path) -> dict[tuple[str, str], CellStats]:
    """Per cell: done, invalid, errored and left, from the logs alone (no request is sent)."""
    plan = UnitPlan(grid)
    renders, solves = load_index(folder / RENDERS), load_index(folder / SOLVES)
    cells: dict[tuple[str, str], CellStats] = defaultdict(CellStats)
    for sk in skeletons(grid):
        for unit in plan.units(sk):
            r: Entry | None = renders.get(unit.key)
            for su in unit.solves:
                st = cells[cell(unit.stage, su.stage)]
                s = solves.get(su.key)
                if s is not None and s.status in TERMINAL:
                    st.add(s.status, s.correct)
                elif r is not None and r.status == "invalid":
                    st.render_failed += 1
                else:
                    st.add(s.status if s else None, None)
    return cells
