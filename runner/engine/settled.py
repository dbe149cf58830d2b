"""A finished run's closing counts, kept beside its logs: a rerun that finds nothing changed does nothing.

When a run ends with every unit of its grid (or shard) terminal, it writes what its closing lines
showed to `.settled` (`.settled-shard-I-of-N` for a shard), with a stamp of everything that decides
which units there are and which are settled: the resolved grid's hash, the shard, a hash of the code
that makes skeletons and keys, the skeleton file's bytes, and both logs' bytes (their XXH3-128, at the
speed of reading them: manifest.bytes_stamp). A rerun whose stamp is the same would read the same records, make the same skeletons and
keys, and find every unit settled: it prints the same closing lines without reading a log line, making
a skeleton, starting a server or sending a request. Any difference (a record appended by any process, a
log edited, the grid, the source or the code changed) and the rerun takes the full path, as before.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from providers.base import RENDER_STATUSES
from runner.config.grid import Grid
from runner.engine.result import RunResult
from runner.errors import UserError
from runner.plan.manifest import bytes_stamp, code_stamp
from runner.store.guard import atomic_output, read_whole
from runner.store.sinks import RENDERS, SOLVES
from runner.store.tally import CellStats, RenderStats, total

FORMAT = 1   # of the file; another is read as no file


@dataclass(frozen=True)
class Settled:
    """What a finished run's closing lines showed: the skeletons it counted, its counts, its render table's rows
    (None when it ran with -q and made none), and the unreadable lines each log held."""

    skeletons: int
    result: RunResult
    skipped: dict[Path, int]
    render_stats: dict[str, RenderStats] | None = field(default=None)
    seen: tuple[tuple[int, ...], ...] = ()   # the logs' (device, inode, size, mtime) before their bytes were hashed


def _seen(folder: Path) -> tuple[tuple[int, ...], ...]:
    """Both logs' device, inode, size and modification time (a missing log: an empty tuple)."""
    out: list[tuple[int, ...]] = []
    for name in (RENDERS, SOLVES):
        try:
            st = (folder / name).stat()
            out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))
        except FileNotFoundError:
            out.append(())
    return tuple(out)


def unchanged(folder: Path, known: Settled) -> bool:
    """Whether the logs are as `load` found them (nothing appended since): checked again once the run's lock
    is held, without hashing the logs twice."""
    return _seen(folder) == known.seen


def path_for(folder: Path, shard: tuple[int, int] | None) -> Path:
    """Where a run folder keeps the settled counts of the whole grid, or of one shard."""
    return folder / (".settled" if shard is None else f".settled-shard-{shard[0]}-of-{shard[1]}")


def eligible(grid: Grid) -> bool:
    """Whether a grid's rerun may be answered from its settled counts: not where an auditor is calibrated (its
    calibration log is read and its trust lines printed on every run)."""
    return not any(st.audit_provider for st in grid.renderers)


def complete(result: RunResult) -> bool:
    """Whether a run left nothing to do: no unit errored or left, no render errored (all would be tried again)."""
    t = total(result.cells)
    return not (t.left or t.error or result.renders.get("error") or result.errors)


def stamp(folder: Path, grid: Grid, shard: tuple[int, int] | None) -> dict[str, Any]:
    """Everything that decides a rerun's units and which are settled (see the module's docstring)."""
    source = grid.source.path
    return {"format": FORMAT, "grid": grid.hash(), "shard": list(shard) if shard else None, "code": code_stamp(),
            "source": bytes_stamp(Path(source)) if source else None,
            "renders": bytes_stamp(folder / RENDERS), "solves": bytes_stamp(folder / SOLVES)}


def save(folder: Path, grid: Grid, shard: tuple[int, int] | None, skeletons: int, result: RunResult,
         skipped: dict[Path, int], render_stats: dict[str, RenderStats] | None) -> None:
    """Keep a finished run's closing counts (call it only after its logs are closed, and if `complete`)."""
    body = {"stamp": stamp(folder, grid, shard), "skeletons": skeletons,
            "cells": [[r, s, asdict(st)] for (r, s), st in result.cells.items()],
            "renders": dict(result.renders),
            # the lines the logs' index skipped (a rerun says so again); not the renders this run read back damaged
            "skipped": {p.name: n - (result.unreadable if p.name == RENDERS else 0) for p, n in skipped.items()},
            "render_stats": None if render_stats is None else
            {label: {"statuses": st.statuses, "reasons": st.reasons, "audits": st.audits}
             for label, st in render_stats.items()}}
    with atomic_output(path_for(folder, shard)) as fh:
        fh.write(orjson.dumps(body))


def load(folder: Path, grid: Grid, shard: tuple[int, int] | None, need_render_stats: bool) -> Settled | None:
    """A finished run's counts where its stamp is the one of now, else None (no file, a damaged one, another
    stamp, or no render table kept where one is needed): the rerun then takes the full path."""
    if not eligible(grid):
        return None
    try:
        body = orjson.loads(read_whole(path_for(folder, shard), "kept counts"))
    except (OSError, UserError, orjson.JSONDecodeError):   # none, or not a regular file (never waited on)
        return None
    try:
        seen = _seen(folder)   # before the bytes are hashed: a record appended meanwhile shows in `unchanged`
        if need_render_stats and body["render_stats"] is None or body["stamp"] != stamp(folder, grid, shard):
            return None
        return _settled(folder, body, seen)
    except (OSError, UserError):   # a log that is a folder, a FIFO...: the full path, whose checks say so in one line
        return None
    except (KeyError, TypeError, ValueError, AttributeError):   # a file of ours, damaged by hand: the full path
        return None


def _settled(folder: Path, body: dict[str, Any], seen: tuple[tuple[int, ...], ...]) -> Settled:
    """The Settled a saved body holds (the caller catches what a damaged one raises: every count must be what a
    run writes, a whole number of 0 or more, or the rerun takes the full path)."""
    result = RunResult()
    for r, s, counts in body["cells"]:
        result.cells[(r, s)] = CellStats(**{name: _count(n) for name, n in counts.items()})
    for status, n in body["renders"].items():
        if status not in RENDER_STATUSES:   # no run writes it: a file edited by hand, read as none
            raise ValueError(f"not a render status: {status!r}")
        result.renders[status] = _count(n)
    stats = body["render_stats"]
    render_stats = None if stats is None else {
        label: RenderStats(*(Counter({k: _count(n) for k, n in st[part].items()})
                             for part in ("statuses", "reasons", "audits")))
        for label, st in stats.items()}
    skipped = {folder / name: _count(n) for name, n in body["skipped"].items()}
    return Settled(_count(body["skeletons"]), result, skipped, render_stats, seen)


def _count(n: Any) -> int:
    """A count as a run writes it (an int, not a bool, 0 or more); a ValueError for anything else (a hand edit:
    "many" stopped a rerun with a TypeError, a negative count was printed as it stood)."""
    if type(n) is not int or n < 0:
        raise ValueError(f"not a count: {n!r}")
    return n
