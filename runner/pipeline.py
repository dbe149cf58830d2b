"""The async render-solve pipeline: skeletons streamed with backpressure, every cell in flight at once."""
from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from families.ir import Skeleton
from providers.base import Completion, Provider, RenderRequest, SolveRequest
from providers.labels import missing_labels
from runner.grid import Grid
from runner.logs import TERMINAL, AppendLog, Entry, load_index, read_at
from runner.progress import Progress
from runner.prompts import fill_render, fill_solve
from runner.records import SCHEMA, RenderRecord, SolveRecord
from runner.summary import CellStats
from runner.units import RenderUnit, UnitPlan, cell, skeletons

RENDERS, SOLVES = "renders.jsonl", "solves.jsonl"


@dataclass
class RunResult:
    """What a run did, per cell, and where its logs are."""

    cells: dict[tuple[str, str], CellStats] = field(default_factory=lambda: defaultdict(CellStats))
    renders: dict[str, int] = field(default_factory=lambda: defaultdict(int))


class Pipeline:
    """One run of a grid into a run folder (the caller holds the folder's lock)."""

    def __init__(self, grid: Grid, folder: Path, shard: tuple[int, int] | None, progress: Progress,
                 providers: dict[str, Provider]):
        self.grid, self.folder, self.shard, self.progress = grid, folder, shard, progress
        self.plan = UnitPlan(grid)
        self.render_path, self.solve_path = folder / RENDERS, folder / SOLVES
        self.render_index = load_index(self.render_path)
        self.solve_index = load_index(self.solve_path)
        self.providers = providers   # built by the caller, which may have launched their servers
        self.result = RunResult()
        self._render_log: AppendLog | None = None
        self._solve_log: AppendLog | None = None

    async def run(self) -> RunResult:
        """Process every skeleton of the grid (this shard's), at most `max_in_flight` at once."""
        self._render_log, self._solve_log = AppendLog(self.render_path), AppendLog(self.solve_path)
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

            for sk in skeletons(self.grid, self.shard):
                await window.acquire()
                if failure:
                    break
                task = asyncio.create_task(self._skeleton(sk))
                tasks.add(task)
                task.add_done_callback(finished)
            if tasks:
                await asyncio.wait(set(tasks))
            if failure:
                raise failure[0]
            return self.result
        finally:
            for provider in self.providers.values():
                await provider.close()
            self._render_log.close()
            self._solve_log.close()

    async def _skeleton(self, sk: Skeleton) -> None:
        payload = sk.redact()   # the renderer's view: never gold_answer or proof
        await _all([self._render_unit(sk, payload, unit) for unit in self.plan.units(sk)])

    async def _render_unit(self, sk: Skeleton, payload: dict, unit: RenderUnit) -> None:
        pending = []
        for su in unit.solves:
            entry = self.solve_index.get(su.key)
            if entry is not None and entry.status in TERMINAL:
                self.result.cells[cell(unit.stage, su.stage)].add(entry.status, entry.correct)
                self.progress.skipped("solve")
            else:
                pending.append(su)
        entry = self.render_index.get(unit.key)
        if entry is not None and entry.status in TERMINAL:
            self.progress.skipped("render")
            self.result.renders[entry.status] += 1
            if entry.status != "ok":
                self._blocked(unit, pending)
                return
            if not pending:
                return
            text = read_at(self.render_path, entry.offset)["text"]
        else:
            record = await self._render(sk, payload, unit)
            if record.status != "ok":
                self._blocked(unit, pending)
                return
            text = record.text
        await _all([self._solve(sk, unit, text, su) for su in pending])

    def _blocked(self, unit: RenderUnit, pending: list) -> None:
        for su in pending:
            self.result.cells[cell(unit.stage, su.stage)].render_failed += 1
        self.progress.skipped("solve", len(pending))

    async def _render(self, sk: Skeleton, payload: dict, unit: RenderUnit) -> RenderRecord:
        stage = unit.stage
        provider = self.providers[stage.provider]
        started = time.time()
        res = await provider.render(RenderRequest(prompt=fill_render(stage.prompt, payload), payload=payload,
                                                  temperature=stage.temperature, max_tokens=stage.max_tokens,
                                                  sample=unit.sample))
        status, reason = res.status, res.reason
        if status == "ok":
            missing = missing_labels(res.text, sk.answer_options)
            if missing:   # a renderer failure: the solver could not give these labels
                status, reason = "invalid", f"labels missing from the text: {', '.join(missing)}"
        record = RenderRecord(
            schema=SCHEMA, key=unit.key, status=status, skeleton=sk.identity, family=sk.family,
            complexity=sk.complexity, renderer=stage.label, model=provider.model, sample=unit.sample,
            text=res.text, reason=reason, attempts=res.attempts, latency_s=round(res.latency_s, 6),
            prompt_tokens=res.usage.prompt_tokens, completion_tokens=res.usage.completion_tokens,
            finish_reason=res.finish_reason, started_at=started, finished_at=time.time())
        self._render_log.write(record.to_line())
        self.result.renders[status] += 1
        self.progress.done("render", status, res.attempts)
        return record

    async def _solve(self, sk: Skeleton, unit: RenderUnit, text: str, su) -> None:
        stage = su.stage
        provider = self.providers[stage.provider]
        started = time.time()
        res: Completion = await provider.solve(SolveRequest(
            prompt=fill_solve(stage.prompt, text, sk.answer_options), labels=sk.answer_options,
            temperature=stage.temperature, max_tokens=stage.max_tokens, constraint=stage.constraint,
            sample=su.sample, family=sk.family, complexity=sk.complexity, seed_key=su.key))
        correct = (res.label == sk.gold_answer) if res.status == "ok" else None
        record = SolveRecord(
            schema=SCHEMA, key=su.key, status=res.status, render_key=unit.key, skeleton=sk.identity,
            family=sk.family, complexity=sk.complexity, renderer=unit.stage.label, solver=stage.label,
            model=provider.model, render_sample=unit.sample, sample=su.sample, answer=res.label, raw=res.text,
            gold=sk.gold_answer, correct=correct, constrained=res.constrained, reason=res.reason,
            attempts=res.attempts, latency_s=round(res.latency_s, 6), prompt_tokens=res.usage.prompt_tokens,
            completion_tokens=res.usage.completion_tokens, finish_reason=res.finish_reason,
            started_at=started, finished_at=time.time())
        self._solve_log.write(record.to_line())
        self.result.cells[cell(unit.stage, stage)].add(res.status, correct)
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
