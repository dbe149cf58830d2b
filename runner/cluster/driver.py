"""The driver of a Ray run: places the agents, streams them batches with backpressure, writes every record.

Each agent keeps a bounded number of batches in flight (enough for the grid's `max_in_flight`
skeletons, and one more so it never waits for the next); a free agent takes the next batch. The
driver is the only writer of the run folder. An agent that is lost (its actor died, its node left)
loses only its unfinished batches: they go to the agents left, first in line.
"""
from __future__ import annotations

import math
import signal
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any, Callable

from runner.cluster.agents import Agent, closing, lose, reason, start, stop
from runner.cluster.placement import connect, nodes_for, place
from runner.cluster.work import Batch, BatchResult, Writer, make_batches
from runner.config.grid import Grid
from runner.engine.calibration import pending, trusts
from runner.engine.progress import Progress, finished
from runner.engine.result import RunResult
from runner.errors import Terminated, UserError
from runner.fidelity.calibration import CALIBRATION, Trust
from runner.store.index import load_index
from runner.store.logs import CALIBRATION_FIELDS, AppendLog
from runner.store.sinks import FolderLogs

MAX_SENDS = 3   # a batch whose agent is lost this many times stops the run: it may be what kills them


def join(grid: Grid, address: str) -> list[dict[str, Any]]:
    """Join the cluster and find the nodes that get an agent, before the run writes anything."""
    connect(address)
    return nodes_for(grid)


def drive(grid: Grid, folder: Path, nodes: list[dict[str, Any]], skeletons: int,
          progress_for: Callable[[], Progress]) -> tuple[RunResult, dict[Path, int], list[str]]:
    """Run the grid's `skeletons` on the joined Ray cluster into `folder` (the caller holds its lock): the
    result, the unreadable lines per log, and one closing line per agent."""
    import ray
    logs = FolderLogs(folder)
    logs.open(lambda error: None)   # outside an event loop a failed write raises at once, from write()
    agents: list[Agent] = []
    limiter = None
    # Ctrl-C, SIGTERM and SIGHUP stop the run as on one machine, whatever this process inherited (a job started in
    # the background by a shell, or by a CI runner, ignores SIGINT until told otherwise)
    old = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        placed, limiter = place(grid, nodes, grid.to_json())
        agents = [Agent(i, p) for i, p in enumerate(placed)]
        live = start(agents)
        progress = progress_for()
        trust = _calibrate(grid, folder, live[0])
        for t in trust.values():
            progress.note(t.line())
        ray.get([a.placed.handle.set_trust.remote(trust) for a in live])
        result = RunResult()
        _dispatch(grid, logs, agents, progress, result, batch_size(grid.ray.batch, skeletons, len(live)))
        return result, logs.unreadable(result.unreadable), closing(agents)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        try:
            stop(agents, limiter)
        finally:
            logs.close()
            ray.shutdown()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt if signum == signal.SIGINT else Terminated(signum)


def _calibrate(grid: Grid, folder: Path, agent: Agent) -> dict[tuple[str, str], Trust]:
    """The auditors' calibration: units the log lacks run on one agent; the driver writes and decides."""
    import ray
    if not any(s.calibrate for s in grid.auditors().values()):
        return {}
    keys, jobs = pending(grid, load_index(folder / CALIBRATION, CALIBRATION_FIELDS))
    if jobs:
        lines = ray.get(agent.placed.handle.calibrate.remote(jobs))
        log = AppendLog(folder / CALIBRATION)
        try:
            if lines:
                log.write(b"".join(lines))
        finally:
            log.close()
    return trusts(grid, folder, keys)


def batch_size(asked: int, skeletons: int, agents: int) -> int:
    """Skeletons per batch: the grid's `ray.batch`, smaller for a grid too small to give every agent four
    batches (else one agent would get it all, and progress would move once, at the end)."""
    return max(1, min(asked, math.ceil(skeletons / (4 * max(agents, 1)))))


def _dispatch(grid: Grid, logs: FolderLogs, agents: list[Agent], progress: Progress, result: RunResult,
              size: int) -> None:
    """Keep every live agent's batches in flight until every batch is written."""
    import ray
    per_agent = math.ceil(grid.max_in_flight / size) + 1
    source = make_batches(grid, logs, size, result, progress.skipped)
    again: deque[Batch] = deque()      # batches of lost agents, sent first
    sends: Counter[int] = Counter()
    writer = Writer(logs)
    inflight: dict[Any, tuple[Agent, Batch]] = {}   # ObjectRef -> the agent it was sent to, and its batch
    shown = time.monotonic()

    def fill() -> None:
        """Top every live agent up to `per_agent` batches, one batch each in turn (the least busy first)."""
        while True:
            free = sorted((a for a in agents if a.live and a.inflight < per_agent), key=lambda a: a.inflight)
            if not free:
                return
            for agent in free:
                batch = None
                while batch is None or batch.id in writer.written:
                    batch = again.popleft() if again else next(source, None)
                    if batch is None:
                        return
                sends[batch.id] += 1
                inflight[agent.placed.handle.run_batch.remote(batch)] = agent, batch
                agent.inflight += 1
                agent.first = agent.first or time.monotonic()

    fill()
    while inflight:
        ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
        if ready:
            ready, _ = ray.wait(list(inflight), num_returns=len(inflight), timeout=0)
        for ref in ready:
            agent, batch = inflight.pop(ref)
            agent.inflight -= 1
            try:
                res: BatchResult = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                    ray.exceptions.ObjectLostError) as exc:
                lose(agent, exc, agents, progress)
                if sends[batch.id] >= MAX_SENDS:
                    raise UserError(f"batch {batch.id} lost its agent {MAX_SENDS} times (last: {agent.lost}); "
                                    f"finished units are in {logs.render_path.parent}: rerun the same command") from None
                again.append(batch)
                continue
            except ray.exceptions.RayTaskError as exc:   # a bug on the agent: stop, the finished units are kept
                raise UserError(f"{agent.name} failed on batch {batch.id}: {reason(exc)}") from None
            _absorb(res, agent, writer, progress, result)
        if not any(a.live for a in agents):
            lost = [a for a in agents if a.lost]
            raise UserError(f"every agent was lost (last: {lost[-1].name}: {lost[-1].lost}); finished units are in "
                            f"{logs.render_path.parent}: rerun the same command to resume")
        fill()
        if time.monotonic() - shown >= progress.every:
            shown = time.monotonic()
            line = "bench: per node: " + "; ".join(
                f"{a.node} {a.rate():.1f} units/s" + (" (lost)" if a.lost else "") for a in agents if a.ready)
            progress.note(f"{progress.line()}\n{line}" if progress.lines else line)


def _absorb(res: BatchResult, agent: Agent, writer: Writer, progress: Progress, result: RunResult) -> None:
    """Write a batch's records (once) and count them."""
    if not writer.absorb(res):
        return
    result.merge(res.result)
    progress.absorb(res.counts)
    agent.batches += 1
    agent.last = time.monotonic()
    for stage, c in res.counts.items():
        agent.units[stage] += finished(c)
        agent.errors += c.get("error", 0)
