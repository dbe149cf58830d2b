"""Before a run's audits count: each auditor reads back the control's renders (runner/fidelity/calibration.py).

Calibration units are keyed like any unit (the auditor's identity, its prompt and token budget, the
control, the skeleton), logged in `calibration.jsonl`, and resumed the same way: a unit with an `ok`
record is not asked again, an `error` one is.
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Callable, NamedTuple

from families.ir import Skeleton
from providers.base import Provider
from runner.config.grid import Grid
from runner.engine.progress import Counts
from runner.fidelity.calibration import (
    CALIBRATION,
    AuditorSettings,
    Trust,
    control_render,
    trust,
)
from runner.fidelity.parse_back import audit_request, compare
from runner.plan.calibration import units
from runner.store.index import Index, load_index
from runner.store.logs import CALIBRATION_FIELDS, AppendLog, best_records, fields_of
from runner.store.records import SCHEMA, CalibrationRecord

_FIELDS = fields_of(CalibrationRecord, "key", "status", "auditor", "family")   # the trust table counts by family


class Job(NamedTuple):
    """One calibration unit to run: its auditor, the auditor's settings, its key and its control skeleton."""

    auditor: str
    settings: AuditorSettings
    key: str
    skeleton: Skeleton


def pending(grid: Grid, index: Index) -> tuple[set[str], list[Job]]:
    """Every calibration unit's key, and the units the log (`index`) has no `ok` record of."""
    keys: set[str] = set()
    jobs = []
    for auditor, settings, key, sk in units(grid):
        keys.add(key)
        done = index.get(key)
        if done is None or done.status != "ok":
            jobs.append(Job(auditor, settings, key, sk))
    return keys, jobs


async def read_backs(jobs: list[Job], providers: dict[str, Provider], write: Callable[[bytes], None]) -> None:
    """Run calibration units (all at once: the providers' caps pace them), each record to `write`."""
    await asyncio.gather(*(_read_back(providers[j.auditor], j, write) for j in jobs))


def trusts(grid: Grid, folder: Path, keys: set[str]) -> dict[tuple[str, str], Trust]:
    """(auditor, family) -> Trust, from the calibration log's records of `keys`."""
    auditors = {a: s for a, s in grid.auditors().items() if s.calibrate}
    return trust(best_records(folder / CALIBRATION, keys, _FIELDS), auditors)


async def calibrate(grid: Grid, folder: Path, providers: dict[str, Provider],
                    progress: Counts | None = None) -> dict[tuple[str, str], Trust]:
    """Run the calibration units the log lacks (all auditors at once), then (auditor, family) -> Trust.
    `progress` (its `phase`) says how far the auditors have read, for the progress line.

    The sample is the whole grid's, not a shard's: every shard of a run trusts an auditor alike."""
    if not any(s.calibrate for s in grid.auditors().values()):
        return {}
    path = folder / CALIBRATION
    keys, jobs = pending(grid, load_index(path, CALIBRATION_FIELDS))
    log = AppendLog(path)
    read = [0]
    names = ", ".join(sorted({j.auditor for j in jobs}))

    def write(line: bytes) -> None:
        log.write(line)
        read[0] += 1
        if progress is not None:
            progress.phase = f"auditor(s) {names} reading their control renders: {read[0]}/{len(jobs)}"
    try:
        if progress is not None and jobs:
            progress.phase = f"auditor(s) {names} reading their control renders: 0/{len(jobs)}"
            progress.note(f"bench: {progress.phase} (before any render is audited)")
        await read_backs(jobs, providers, write)
    finally:
        log.close()
        if progress is not None:
            progress.phase = None
    return trusts(grid, folder, keys)


async def _read_back(provider: Provider, job: Job, write: Callable[[bytes], None]) -> None:
    """One control render read back by the auditor, compared with its skeleton, logged."""
    started = time.time()
    sk = job.skeleton
    payload = sk.redact()
    text, names = control_render(payload)
    res = await provider.render(audit_request(payload, names, text, job.settings.max_tokens))
    verdict, why = compare(res.text, payload, names) if res.status == "ok" else (None, res.reason)
    write(CalibrationRecord(
        schema=SCHEMA, key=job.key, status="ok" if res.status == "ok" else "error", auditor=job.auditor,
        model=provider.model, skeleton=sk.identity, family=sk.family, complexity=sk.complexity, audit=verdict,
        audit_reason=why, attempts=res.attempts, latency_s=round(res.latency_s, 6),
        prompt_tokens=res.usage.prompt_tokens, completion_tokens=res.usage.completion_tokens, started_at=started,
        finished_at=time.time()).to_line())
