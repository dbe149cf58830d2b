"""A resume's settled skeletons, found before anything is prepared: from the manifest's identities and the logs'
index alone, which source indices have every unit settled; they are counted here, as the pipeline counts
a settled unit, and never made, read into items, rendered or checked again. Their renders' rows of the closing
table are counted here too, from the index (a record is read back only where the row needs more than its status).
Where the logs hold records and no manifest of this code and source is there (the code or the skeleton file changed
since the run, or the manifest was removed), every skeleton is made again (made: not rendered or checked), noted,
and walked alike: 40 µs a skeleton, where preparing every one again for the pipeline to pass over cost most of the
run's CPU."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterator, NamedTuple

from providers.build import BUILTIN_KINDS
from runner.config.grid import Grid
from runner.engine.result import RunResult
from runner.engine.resume import goes_to_solvers
from runner.plan import manifest
from runner.plan.units import UnitPlan, cell, identity_in_shard, is_set, striped
from runner.store.index import Entry, Index
from runner.store.logs import TERMINAL, read_many
from runner.store.records import unit_keys
from runner.store.sinks import RENDERS
from runner.store.tally import CellStats, RenderStats


class Walk(NamedTuple):
    """What a resume found settled: a bit per source index (every unit settled, or another shard's skeleton), a
    bit per index the manifest holds, the settled units' counts, (stage, instant) -> units skipped, and how
    many of this run's skeletons (this shard's) are settled. Their render units are counted in
    `result.render_stats`, not keyed in `result.render_keys` (whose records the closing table reads)."""

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
    """The skeletons the manifest knows whose every unit the logs hold as settled (`resume.unit_done`), counted;
    where it is `retired`, every skeleton, made again and noted."""
    settled, known = bytearray(), bytearray()
    tally = _Tally(grid, renders, solves)
    path = manifest.path_for(folder, grid)
    ours = 0
    for index, identity, _, _ in _remade(grid, path) if retired(grid, folder, renders) else manifest.read(path):
        if is_set(known, index):   # a line written twice (a crash between a write and its bit): once
            continue
        set_bit(known, index)
        if shard is not None and not identity_in_shard(identity, shard):
            set_bit(settled, index)   # another shard's: nothing of it is ours to make
            continue
        if not renders:   # a first run: nothing is settled (the manifest is still read for what it holds)
            continue
        if tally.skeleton(identity):
            set_bit(settled, index)
            ours += 1
    return Walk(bytes(settled), known, tally.finish(folder), _skipped(grid, ours), ours)


def retired(grid: Grid, folder: Path, renders: Index) -> bool:
    """Whether a resume must make every skeleton again to know its keys: the logs hold records, and no manifest of
    this code and source is there (either changed since the run, or the manifest was removed)."""
    return bool(renders) and not manifest.path_for(folder, grid).exists()


def _remade(grid: Grid, path: Path) -> Iterator[manifest.Noted]:
    """Every skeleton of the grid's source made again (not rendered, not checked) and noted, as the feed notes what
    it prepares, in a new manifest at `path` once all are (a resume cut short before makes them all again, where
    a part of them would have left the rest to be prepared again)."""
    return manifest.written_whole(path, (manifest.Noted(index, sk.identity, sk.family, len(sk.answer_options))
                                         for index, sk in striped(grid, None, (0, 1), _EVERY) if sk is not None))


_EVERY = 1 << 62   # one block: every source index, one stripe


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


# A settled render unit as the walk found it: its stage's place in the grid, its entry, its solve units' entries
_Found = tuple[int, Entry, list[Entry | None]]


class _Tally:
    """The walk's counts: per skeleton, whether every unit is settled (`unit_done`'s rule), and if so its units
    counted as `Pipeline._render_unit` counts them, and its renders' table rows as `render_stats` counts them.

    The keys are made here from the plan's fingerprints (`unit_keys`, the run's own hashers), without a unit
    object per key; solve counts are gathered per (cell, status, correct, render status) and added once."""

    def __init__(self, grid: Grid, renders: Index, solves: Index):
        plan = UnitPlan(grid)
        self.renders, self.solves = renders, solves
        self.stages = [st for st, _ in plan.render_parts]
        self.render_keys = [(i, st, unit_keys(fp), range(st.samples)) for i, (st, fp) in enumerate(plan.render_parts)]
        self.solve_keys = [(j, unit_keys(fp), t) for j, (st, fp) in enumerate(plan.solve_parts) for t in range(st.samples)]
        self.cells = [[cell(rst, sst) for sst, _ in plan.solve_parts] for rst in self.stages]
        self.result = RunResult()
        self.solve_counts = Counter[tuple[int, int, str, bool | None, str]]()   # (render, solver, status, correct, of)
        self.render_counts = Counter[tuple[int, str]]()   # (renderer, status) of renders read no further
        self.read_back: list[tuple[int, int, str]] = []   # (offset, renderer, status): rows that need more
        self.seen: set[str] = set()   # identities counted in the table already (the table counts a key once)
        # two renderers of one identity make the same keys: the table counts such a key once, under the first
        fingerprints = [fp for _, fp in plan.render_parts]
        self.twins = len(set(fingerprints)) < len(fingerprints)

    def skeleton(self, identity: str) -> bool:
        """Whether every unit of this skeleton is settled; if so, counted."""
        found = self._found(identity)
        if found is None:
            return False
        result, solve_counts = self.result, self.solve_counts
        rows = identity not in self.seen
        self.seen.add(identity)
        keys: set[int] = set()   # the offsets of this skeleton's renders counted in the table (twins: once)
        for i, entry, solved in found:
            status = entry.status
            if status not in TERMINAL:   # never: `_found` let only settled units through (narrows the type)
                continue
            result.renders[status] += 1
            if rows and not (self.twins and entry.offset in keys):
                keys.add(entry.offset)
                self._row(i, entry)
            for (j, _, _), done in zip(self.solve_keys, solved):
                if done is not None and done.status in TERMINAL:
                    solve_counts[(i, j, done.status, done.correct, status)] += 1
                else:   # never sent: its render's status blocked it (`_found` let no other case through)
                    solve_counts[(i, j, "", None, status)] += 1
        return True

    def _found(self, identity: str) -> list[_Found] | None:
        """Each render unit of the skeleton with its entries; None where a unit is not settled (`unit_done`)."""
        rget, sget, solve_keys = self.renders.get, self.solves.get, self.solve_keys
        out: list[_Found] = []
        for i, stage, key, samples in self.render_keys:
            for s in samples:
                rkey = key(identity, s)
                r = rget(rkey)
                if r is None or r.status not in TERMINAL or (r.status == "unfaithful" and stage.repair):
                    return None
                solved = [sget(skey(rkey, t)) for _, skey, t in solve_keys]
                if goes_to_solvers(r.status, stage) and \
                        not all(e is not None and e.status in TERMINAL for e in solved):
                    return None
                out.append((i, r, solved))
        return out

    def _row(self, i: int, entry: Entry) -> None:
        """Count a settled render in its renderer's table row; read back later where the row needs its reasons
        (unfaithful) or its audit (a renderer with an auditor: its key says so, see runner/config/identity.py)."""
        if entry.status == "unfaithful" or self.stages[i].audit_provider:
            self.read_back.append((entry.offset, i, entry.status))
        else:
            self.render_counts[(i, entry.status)] += 1

    def finish(self, folder: Path) -> RunResult:
        """The counts, cells and table rows added up (the records to read back read, in file order)."""
        cells = self.result.cells
        for (i, j, status, correct, of), n in self.solve_counts.items():
            _add(cells[self.cells[i][j]], n, status, correct, of)
        rows = self.result.render_stats
        for (i, status), n in self.render_counts.items():
            rows.setdefault(self.stages[i].label, RenderStats()).statuses[status] += n
        self.read_back.sort()
        offsets = [offset for offset, _, _ in self.read_back]
        for (_, i, status), rec in zip(self.read_back, read_many(folder / RENDERS, offsets)):
            row = rows.setdefault(self.stages[i].label, RenderStats())
            if rec is not None and rec.get("status") == status:
                row.add(rec)
            else:   # the line changed since the index read it (not a whole record now): its status, as indexed
                row.statuses[status] += 1
        return self.result


def _add(st: CellStats, n: int, status: str, correct: bool | None, render_status: str) -> None:
    """Count `n` solve units alike into `st`: as many `CellStats.add` (or `blocked`, status "") would."""
    one = CellStats()
    if status:
        one.add(status, correct, render_status)
    else:
        one.blocked(render_status)
    st.merge(_times(one, n))


def _times(one: CellStats, n: int) -> CellStats:
    """`one`'s counts, each times n."""
    return CellStats(**{name: value * n for name, value in vars(one).items()})
