"""The async render-solve pipeline: skeletons streamed with backpressure, every cell in flight at once."""
from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any, AsyncGenerator, Awaitable, Coroutine, NamedTuple

from providers.base import SOLVE_STATUSES, Completion, Provider, RenderRequest, RenderStatus, SolveRequest
from providers.build import BUILTIN_KINDS
from runner.config.grid import Grid, Stage
from runner.config.prompts import fill_repair, fill_solve
from runner.engine.auditor import Trusts, audited
from runner.engine.calibration import calibrate
from runner.engine.feed import Feed
from runner.engine.items import Item, LocalRender, RenderJob, SolveJob
from runner.engine.progress import Counts, Progress
from runner.engine.result import RunResult, StageKey
from runner.engine.resume import goes_to_solvers
from runner.engine.skip import Walk
from runner.fidelity.judge import judge
from runner.plan.units import cell
from runner.store.index import Entry
from runner.store.logs import TERMINAL
from runner.store.records import SCHEMA, SentRenderStatus, SolveRecord, render_record
from runner.store.sinks import FolderLogs, MemoryLogs


class _Lane(NamedTuple):
    """What a solve unit of one (renderer, solver) pair needs, worked out once per run, not per unit."""

    stage: Stage
    provider: Provider
    renderer: str            # the labels its records and its cell carry
    solver: str
    cell: tuple[str, str]


class Pipeline:
    """Render -> check -> solve for a stream of items, against `logs` (a run folder's, or an agent's batch)."""

    def __init__(self, grid: Grid, logs: FolderLogs | MemoryLogs, progress: Counts, providers: dict[str, Provider],
                 trust: Trusts | None = None, settled: Walk | None = None):
        """`progress`: a run's bars and lines (Progress), or a node agent's bare counts (Counts)."""
        self.grid, self.logs, self.progress = grid, logs, progress
        self.render_index, self.solve_index = logs.render_index, logs.solve_index
        self.providers = providers   # built by the caller, which may have launched their servers
        self.result = RunResult()
        if settled is not None:   # a resume's skeletons whose every unit is settled (skip.walk): counted, never made
            self.result.merge(settled.result)
            for (stage, instant), n in settled.skipped.items():
                progress.skipped(stage, n, instant)
        # lanes[renderer index][solver index], the indices that items carry
        self.lanes = [[_Lane(st, providers[st.provider], rst.label, st.label, cell(rst, st)) for st in grid.solvers]
                      for rst in grid.renderers]
        self.trust: Trusts = trust or {}
        # solvers that answer at once (the baselines): their units cost no time in the time left
        self._instant_solver = [grid.providers[st.provider].kind in BUILTIN_KINDS for st in grid.solvers]
        self._failure: Exception | None = None
        self._workers: list[asyncio.Task[None]] = []

    async def run(self, feed: Feed, folder: Path) -> RunResult:
        """The whole run into a folder (the caller holds its lock): start the providers, calibrate the
        auditors, process every item of the feed, close everything."""
        self.logs.open(self._write_failed)
        shown = self.progress if isinstance(self.progress, Progress) else None   # bars, lines and a clock to start
        ticker = asyncio.create_task(shown.lines_every()) if shown is not None and shown.lines else None
        try:
            for provider in self.providers.values():
                await provider.start()
            self.trust = await calibrate(self.grid, folder, self.providers, self.progress)
            for t in self.trust.values():
                self.progress.note(t.line())
            if shown is not None:
                shown.start_clock()
            return await self.process(feed.batches())
        finally:
            if ticker:
                ticker.cancel()
                await asyncio.gather(ticker, return_exceptions=True)
            feed.close()
            for provider in self.providers.values():
                await provider.close()
            self.logs.close()

    async def process(self, batches: AsyncGenerator[list[Item], None], workers: int | None = None) -> RunResult:
        """See every item through, at most `max_in_flight` at once.

        `max_in_flight` workers (or `workers`) each take the next item and see it through, so the window
        holds without a task or a semaphore per item (they cost more than a fast server's answer).
        """
        queue: deque[Item] = deque()
        refill = asyncio.Lock()   # one worker reads the next batch; the others wait for it
        exhausted = False

        async def more() -> bool:
            nonlocal exhausted
            async with refill:
                if not queue and not exhausted:
                    batch = await anext(batches, None)
                    if batch is None:
                        exhausted = True
                    else:
                        queue.extend(batch)
            return bool(queue)

        async def worker() -> None:
            while queue or await more():
                item = queue.popleft()
                await _all([self._render_unit(item, job) for job in item.renders])

        tasks: list[asyncio.Task[None]] = []
        try:
            self._workers = tasks = [asyncio.create_task(worker()) for _ in range(workers or self.grid.max_in_flight)]
            try:
                await asyncio.gather(*tasks)   # the first failure (a bug, or the helper's) ends the run
            except asyncio.CancelledError:
                if self._failure is not None:   # a log write failed: its workers were stopped
                    raise self._failure from None
                raise
            return self.result
        finally:
            for w in tasks:
                w.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await batches.aclose()

    def _write_failed(self, error: Exception) -> None:
        """A log write failed (disk full, I/O error): stop every worker; the run ends with that one line.
        Units whose records did not reach the disk are redone by the next run."""
        if self._failure is None:
            self._failure = error
            for w in self._workers:
                w.cancel()

    async def _render_unit(self, item: Item, job: RenderJob) -> None:
        """One render unit and its solve units; what the logs already hold is counted, not redone."""
        stage = self.grid.renderers[job.stage]
        lanes = self.lanes[job.stage]
        entry = self.render_index.get(job.key)
        text: str | None = None
        repair_from: tuple[int, tuple[str, ...]] | None = None
        if entry is not None and entry.status == "unfaithful" and stage.repair:
            entry, repair_from = self._repair_point(entry, stage)
        if entry is not None and repair_from is None and entry.status in TERMINAL and goes_to_solvers(entry.status, stage) and any(
                (done := self.solve_index.get(su.key)) is None or done.status not in TERMINAL for su in job.solves):
            text = self._stored_text(entry)
            if text is None:   # a damaged line the index's fast path trusted: render again
                entry = None
        local = self.grid.providers[stage.provider].kind in BUILTIN_KINDS
        status: RenderStatus
        if entry is not None and entry.status in TERMINAL and repair_from is None:
            self.progress.skipped("render", 1, local)
            status = entry.status
        elif isinstance(job.work, LocalRender):   # made while preparing, its record with it
            self.logs.write_render(job.work.line)
            status, text = job.work.status, job.work.text
            self.progress.done("render", status, 1)
        else:
            started = time.monotonic()
            unit = self.progress.begin("render")
            status, text, attempts = await self._render(item, job, job.work, stage, *(repair_from or (0, ())))
            self.progress.done("render", status, attempts, time.monotonic() - started, unit)
        self.result.renders[status] += 1
        self.result.render_keys.add(job.key)
        pending = []
        for su in job.solves:
            done = self.solve_index.get(su.key)
            if done is not None and done.status in TERMINAL:
                self.result.cells[lanes[su.stage].cell].add(done.status, done.correct, status)
                self.progress.skipped("solve", 1, self._instant_solver[su.stage])
            else:
                pending.append(su)
        if not goes_to_solvers(status, stage):
            for su in pending:
                self.result.cells[lanes[su.stage].cell].blocked(status)
                self.progress.skipped("solve", 1, self._instant_solver[su.stage])
            return
        if not pending:
            return
        # A settled render whose solves are pending had its text read above (else it was rendered again)
        assert text is not None, f"render {job.key}: no text for its pending solves"
        await _all([self._solve(item, job, text, su, lanes[su.stage], status) for su in pending])

    def _repair_point(self, entry: Entry, stage: Stage) -> tuple[Entry | None, tuple[int, tuple[str, ...]] | None]:
        """For a logged unfaithful render of a repairing renderer: (the entry, None) when its rounds are
        spent, else (the entry, (the next round, the last round's reasons)); (None, None) when its line
        cannot be read back (the unit is rendered again from its first round)."""
        rec = self.logs.render_record(entry)
        if rec is None:
            self.result.unreadable += 1
            return None, None
        done = rec.get("round")
        done = done if type(done) is int else 0   # not a bool, nor anything a damaged line holds
        if done >= stage.repair:
            return entry, None
        checks = rec.get("checks")
        reasons = tuple(c for c in checks if isinstance(c, str)) if isinstance(checks, list) else ()
        return entry, (done + 1, reasons)

    def _stored_text(self, entry: Entry) -> str | None:
        """A logged render's text, None if its line cannot be read back (counted as a skipped line)."""
        rec = self.logs.render_record(entry)
        text = None if rec is None else rec.get("text")
        if not isinstance(text, str):
            self.result.unreadable += 1
            return None
        return text

    async def _render(self, item: Item, job: RenderJob, first: RenderRequest, stage: Stage, first_round: int = 0,
                      reasons: tuple[str, ...] = ()) -> tuple[RenderStatus, str, int]:
        """Run one model render unit (`first`: its request), check it (and audit it, if sampled), log it; while
        it is unfaithful and repair rounds are left, ask again with its reasons, logging every round. Its last
        round's status and text, and the attempts of all rounds."""
        provider = self.providers[stage.provider]
        auditor = self.providers[stage.audit_provider] if stage.audit_provider else None
        attempts = 0
        for round_ in range(first_round, stage.repair + 1):
            started = time.time()
            request = first if round_ == 0 else replace(first, prompt=fill_repair(first.prompt, reasons, job.names))
            self.progress.repairing += round_ > 0   # said in the progress line while it waits
            try:
                rendered = await provider.render(request)
            finally:
                self.progress.repairing -= round_ > 0
            judged, audit = await audited(
                stage, auditor, job.key, item.family, first.payload,
                judge(rendered, stage.format, item.answer_options, first.payload, job.names), self.trust)
            res = judged.completion
            attempts += res.attempts
            self.logs.write_render(render_record(
                job.key, item.identity, item.family, item.complexity, stage.label, provider.model, job.sample,
                judged, started, stage.format, audit, round_).to_line())
            if res.status != "unfaithful":
                break
            reasons = judged.checks
        self._count(("render", stage.label), res)   # a unit counts once, as its last round ended
        return res.status, res.text, attempts

    async def _solve(self, item: Item, job: RenderJob, text: str, su: SolveJob, lane: _Lane,
                     render_status: SentRenderStatus) -> None:
        stage, provider = lane.stage, lane.provider
        started = time.time()
        prompt = fill_solve(stage.prompt, text, item.answer_options)
        if item.card or "{card}" in prompt:   # the card's own context for equality; the render for the others
            prompt = prompt.replace("{card}", item.card or text)
        request = SolveRequest(
            prompt=prompt, labels=item.answer_options,
            temperature=stage.temperature, max_tokens=stage.max_tokens, constraint=stage.constraint,
            sample=su.sample, family=item.family, complexity=item.complexity, seed_key=su.key,
            mode=stage.mode, delimiter=stage.delimiter, score=stage.score, reasoning=stage.reasoning)
        unit = 0 if self._instant_solver[su.stage] else self.progress.begin("solve")
        res: Completion = await (provider.score(request) if stage.mode == "loglik" else provider.solve(request))
        status, usage = res.status, res.usage
        if status not in SOLVE_STATUSES:   # a provider's bug: a solve is answered ok, invalid or error
            raise RuntimeError(f"provider {stage.provider!r} answered a solve with status {status!r}")
        correct = (res.label == item.gold_answer) if status == "ok" else None
        self.logs.write_solve(SolveRecord(
            schema=SCHEMA, key=su.key, status=status, render_key=job.key, skeleton=item.identity,
            family=item.family, complexity=item.complexity, renderer=lane.renderer, solver=lane.solver,
            model=provider.model, render_sample=job.sample, sample=su.sample, answer=res.label, raw=res.text,
            gold=item.gold_answer, correct=correct, constrained=res.constrained, reason=res.reason,
            attempts=res.attempts, latency_s=round(res.latency_s, 6), prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens, finish_reason=res.finish_reason,
            started_at=started, finished_at=time.time(), render_status=render_status, scores=res.scores,
            error_kind=res.error_kind, thinking=res.thinking).to_line())
        self.result.cells[lane.cell].add(status, correct, render_status)
        self._count(("solve", lane.solver), res)
        self.progress.done("solve", status, res.attempts, None if self._instant_solver[su.stage] else
                           time.time() - started, unit)

    def _count(self, stage: StageKey, res: Completion) -> None:
        """Count a sent unit's status, and its reason if it errored, for the run's closing lines."""
        self.result.sent[stage][res.status] += 1
        if res.status == "error":
            self.result.errors[stage][(res.error_kind or "other", res.reason or "?")] += 1


def _all(coros: list[Coroutine[Any, Any, None]]) -> Awaitable[Any]:
    """What awaits all of `coros`: a single one itself, the common case (a gather's tasks, and a coroutine
    of ours in between, would cost more than a fast server's answer), else their gather."""
    return coros[0] if len(coros) == 1 else asyncio.gather(*coros)
