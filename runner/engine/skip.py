"""A resume's settled skeletons, found before anything is prepared: from the manifest's identities and the logs'
index alone, which source indices have every unit settled; they are counted here, as the pipeline counts
a settled unit, and never made, read into items, rendered or checked again."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

from providers.build import BUILTIN_KINDS
from runner.config.grid import Grid
from runner.engine.result import RunResult
from runner.engine.resume import goes_to_solvers, unit_done
from runner.plan import manifest
from runner.plan.units import RenderUnit, UnitPlan, cell, identity_in_shard, is_set
from runner.store.index import Index
from runner.store.logs import TERMINAL


class Walk(NamedTuple):
    """What a resume found settled: a bit per source index (every unit settled, or another shard's skeleton), a
    bit per index the manifest holds, the settled units' counts, (stage, instant) -> units skipped, and how
    many of this run's skeletons (this shard's) are settled."""

    settled: bytes
    known: bytearray
    result: RunResult
    skipped: Counter[tuple[str, bool]]
    skeletons: int = 0


def set_bit(bits: bytearray, index: int) -> None:
    """Set bit `index` (see units.is_set), the bitmap grown as needed."""
    if index >> 3 >= len(bits):
        bits.extend(bytes((index >> 3) + 1 - len(bits)))
    bits[index >> 3] |= 1 << (index & 7)


def walk(grid: Grid, folder: Path, shard: tuple[int, int] | None, renders: Index, solves: Index) -> Walk:
    """The skeletons the manifest knows whose every unit the logs hold as settled (`resume.unit_done`), counted."""
    plan = UnitPlan(grid)
    settled, known = bytearray(), bytearray()
    result, ours = RunResult(), 0
    for index, identity in manifest.read(manifest.path_for(folder, grid)):
        if is_set(known, index):   # a line written twice (a crash between a write and its bit): once
            continue
        set_bit(known, index)
        if shard is not None and not identity_in_shard(identity, shard):
            set_bit(settled, index)   # another shard's: nothing of it is ours to make
            continue
        if not renders:   # a first run: nothing is settled (the manifest is still read for what it holds)
            continue
        units = list(plan.units_of(identity))
        if all(unit_done(u, renders, solves) for u in units):
            set_bit(settled, index)
            ours += 1
            for unit in units:
                _count(result, unit, renders, solves)
    return Walk(bytes(settled), known, result, _skipped(grid, ours), ours)


def _skipped(grid: Grid, skeletons: int) -> Counter[tuple[str, bool]]:
    """(stage, instant) -> units of `skeletons` settled skeletons (every one has the grid's units)."""
    local = {id(st): grid.providers[st.provider].kind in BUILTIN_KINDS for st in grid.renderers + grid.solvers}
    renders = sum(st.samples for st in grid.renderers)
    out = Counter[tuple[str, bool]]()
    for st in grid.renderers:
        out[("render", local[id(st)])] += skeletons * st.samples
    for st in grid.solvers:
        out[("solve", local[id(st)])] += skeletons * renders * st.samples
    return out


def _count(result: RunResult, unit: RenderUnit, renders: Index, solves: Index) -> None:
    """Count a settled render unit and its solve units as Pipeline._render_unit counts them."""
    status = renders[unit.key].status
    if status not in TERMINAL:   # never: `walk` counts only units `unit_done` found settled (narrows the type)
        return
    result.renders[status] += 1
    result.render_keys.add(unit.key)
    cells, get = result.cells, solves.get
    for su in unit.solves:
        done = get(su.key)
        st = cells[cell(unit.stage, su.stage)]
        if done is not None and done.status in TERMINAL:
            st.add(done.status, done.correct, status)
        elif not goes_to_solvers(status, unit.stage):
            st.blocked(status)
