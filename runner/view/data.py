"""What `bench view` shows, read once and kept fresh: the report's loaders for the figures (so the view and
`bench report` never disagree), an offset index of each unit's records for the unit pages, and the skeletons
by identity. A newer snapshot is built in the background when a log grows; pages are served from the last
whole one meanwhile, so a page never waits on a run and a run never waits on a page.

`read_runs` is the one seam to the report's loaders: a columnar reader can replace it without touching a page."""
from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from families.ir import Skeleton
from runner.config.grid import Grid
from runner.plan.units import UnitPlan, skeletons
from runner.reporting.fidelity import FidelityRow, fidelity_rows
from runner.reporting.load import Loaded, load_runs
from runner.reporting.stats import SummaryRow, summary_rows, tallies
from runner.store.keyed import keyed_lines, unit_offsets
from runner.store.lock import locked
from runner.store.logs import LOGS, RENDER_FIELDS, SOLVE_FIELDS, read_many, usable
from runner.store.records import unit_key
from runner.store.sinks import RENDERS, SOLVES
from runner.view.quick import quick
from runner.view.verdicts import verdict_of

FRESH_S = 2.0   # a page looks at the logs' sizes at most this often
# logs bigger than this get the grid's figures read fast first (quick.py; about 3 s a million records on two
# cores, against 11 s for the whole snapshot), the whole snapshot after: a small run's whole one comes as fast
QUICK_BYTES = 64 << 20


def read_runs(folders: list[Path]) -> Loaded:
    """The runs as `bench report` reads them (the seam: a faster reader of the same records goes here)."""
    return load_runs(folders)


@dataclass
class Snapshot:
    """The runs as they were at one moment: the report's figures and the offsets of every record."""

    loaded: Loaded
    rows: list[SummaryRow]
    fidelity: list[FidelityRow]
    folders: list[Path]
    runs: dict[str, list[int]]                                 # run name -> its folders' indexes
    render_fp: dict[tuple[str, str], str]                      # (run, renderer label) -> its key fingerprint
    # per folder, render key -> the offsets of its lines in renders.jsonl, and of its answers in solves.jsonl
    renders_at: list[dict[str, list[int]]] = field(default_factory=list)
    solves_at: list[dict[str, list[int]]] = field(default_factory=list)
    by_renderer: dict[tuple[str, str], list[dict]] = field(default_factory=dict)   # (run, renderer) -> best renders
    sizes: tuple = ()
    made_at: float = 0.0
    changed_at: dict[str, float] = field(default_factory=dict)  # run -> its logs' last write (epoch s)
    stale: bool = False   # the logs moved since: a newer snapshot is being read
    plans: list[UnitPlan] = field(default_factory=list)   # per folder: its grid's units, to name records by key
    # the grid's figures only, read fast (quick.py): the whole snapshot is being read; other pages wait for it
    partial: bool = False
    verdicts: dict[tuple[str, str], Counter] = field(default_factory=dict)   # (run, renderer) -> renders by verdict
    families: dict[str, set[str]] = field(default_factory=dict)              # run -> its renders' families

    def render_key(self, run: str, renderer: str, skeleton: str, sample: int) -> str | None:
        """A render unit's key, as the run made it."""
        fp = self.render_fp.get((run, renderer))
        return None if fp is None else unit_key(fp, skeleton, sample)

    def records(self, log: str, key: str) -> list[dict]:
        """Every whole record of one render unit in a log (renders: every round; solves: every answer), by its
        key alone: a line whose key is not this one is never shown, whatever the index said."""
        out = []
        fields, name = (RENDER_FIELDS, "key") if log == RENDERS else (SOLVE_FIELDS, "render_key")
        for i, index in enumerate(self.renders_at if log == RENDERS else self.solves_at):
            at = index.get(key)
            if not at:
                continue
            # named as the grid names it now: a provider renamed since keeps its records
            plan = self.plans[i] if i < len(self.plans) else None
            for rec in read_many(self.folders[i] / log, at):
                if usable(rec, fields) and rec.get(name) == key:
                    out.append(rec if plan is None else
                               plan.relabel(rec) if log == RENDERS else plan.relabel_solve(rec))
        return out

    def lines(self, log: str):
        """(render key, raw line) of every line of a log in every folder (a search reads them as bytes)."""
        for folder in self.folders:
            for key, _, line in keyed_lines(folder / log, log):
                yield key, line

    def running(self, run: str) -> bool:
        """Whether a `bench run` holds one of this run's folders now (its lock)."""
        return any(locked(p) for i in self.runs.get(run, []) for p in self.folders[i].glob(".lock*"))


def sizes(folders: list[Path]) -> tuple:
    """The logs' sizes and change times: a snapshot is stale when they move."""
    out: list = []
    for folder in folders:
        for name in LOGS:
            try:
                st = (folder / name).stat()
                out.append((st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
    return tuple(out)


def _frame(snap: Snapshot, folders: list[Path]) -> None:
    """A snapshot's runs, their plans and key fingerprints, and each run's logs' last write."""
    for i, folder in enumerate(folders):
        grid = Grid.saved(folder)
        snap.runs.setdefault(grid.name, []).append(i)
        snap.plans.append(UnitPlan(grid))
        for st, fp in snap.plans[-1].render_parts:
            snap.render_fp.setdefault((grid.name, st.label), fp)
        for log in (RENDERS, SOLVES):
            try:
                mtime = (folder / log).stat().st_mtime
            except OSError:
                continue
            snap.changed_at[grid.name] = max(snap.changed_at.get(grid.name, 0.0), mtime)


def _by_renderer(snap: Snapshot) -> None:
    """Each renderer's best renders in skeleton order, its renders by verdict, and each run's families."""
    for rec in snap.loaded.renders:
        snap.by_renderer.setdefault((rec["run"], rec["renderer"]), []).append(rec)
        snap.verdicts.setdefault((rec["run"], rec["renderer"]), Counter())[verdict_of(rec)] += 1
        snap.families.setdefault(rec["run"], set()).add(str(rec.get("family")))
    for recs in snap.by_renderer.values():
        recs.sort(key=lambda r: (r["skeleton"], r["key"]))


def build_quick(folders: list[Path]) -> Snapshot:
    """The grid page's snapshot, read fast (the figures' counts; see quick.py), while the whole one is read."""
    stamp = sizes(folders)
    got = quick(folders)
    snap = Snapshot(Loaded(grids=got.grids), got.rows, got.fidelity, list(folders), {}, {}, sizes=stamp,
                    made_at=time.time(), partial=True, verdicts=got.verdicts, families=got.families)
    _frame(snap, folders)
    return snap


def log_bytes(folders: list[Path]) -> int:
    """The size of the folders' solve and render logs, in bytes."""
    total = 0
    for folder in folders:
        for log in (RENDERS, SOLVES):
            try:
                total += (folder / log).stat().st_size
            except OSError:
                continue
    return total


def build(folders: list[Path]) -> Snapshot:
    """A whole snapshot of the runs (the report's reading of them, and every record's offset)."""
    stamp = sizes(folders)
    loaded = read_runs(folders)
    fidelity = fidelity_rows(loaded.renders)
    rows = summary_rows(loaded, tallies(loaded), fidelity)
    snap = Snapshot(loaded, rows, fidelity, list(folders), {}, {}, sizes=stamp, made_at=time.time())
    _frame(snap, folders)
    for folder in folders:
        snap.renders_at.append(unit_offsets(folder / RENDERS, RENDERS))
        snap.solves_at.append(unit_offsets(folder / SOLVES, SOLVES))
    _by_renderer(snap)
    return snap


class Runs:
    """The runs a view shows: the current snapshot, rebuilt in the background when the logs change.

    The first snapshot is built in the background too (`wait=False`): a server answers at once, with a
    page saying it is still reading, instead of after a million records are read."""

    def __init__(self, folders: list[Path], wait: bool = True, warm: Callable[[Snapshot], object] | None = None,
                 quick_bytes: int = QUICK_BYTES):
        self.folders = folders
        self.quick_bytes = quick_bytes   # logs at least this big: the grid's figures first (build_quick)
        self.quick_s: float | None = None       # how long the grid's fast figures took, once made
        self.quick_failed: str | None = None    # why they could not be made (the whole snapshot is read anyway)
        self.warm = warm   # what to work out ahead on each new snapshot, in the background (the lists' index)
        self.snapshot: Snapshot | None = None
        self.failed: str | None = None
        self.started = time.monotonic()
        self._checked = time.monotonic()
        self._building = False
        self._lock = threading.Lock()
        self._skeletons: dict[str, dict[str, Skeleton]] = {}
        if wait:
            self.snapshot = build(folders)
        else:
            self._building = True
            threading.Thread(target=self._rebuild, daemon=True).start()

    def current(self) -> Snapshot | None:
        """The newest whole snapshot (None while the first is read); starts a rebuild (never waited for) when
        the logs moved since it."""
        now = time.monotonic()
        if self.snapshot is not None and now - self._checked >= FRESH_S:
            self._checked = now
            if sizes(self.folders) != self.snapshot.sizes:
                self.snapshot.stale = True
                with self._lock:
                    if not self._building:
                        self._building = True
                        threading.Thread(target=self._rebuild, daemon=True).start()
        return self.snapshot

    def _rebuild(self) -> None:
        if self.snapshot is None and log_bytes(self.folders) >= self.quick_bytes:
            started = time.monotonic()
            try:
                self.snapshot = build_quick(self.folders)
                self.quick_s = time.monotonic() - started
            except Exception as exc:  # noqa: BLE001  (what the fast reading cannot read, the whole snapshot will say)
                self.quick_failed = f"{type(exc).__name__}: {exc}"
        try:
            self.snapshot = build(self.folders)
            if self.warm is not None:
                self.warm(self.snapshot)
            for run in self.snapshot.loaded.grids:   # the unit pages' skeletons, read before anyone asks
                self.skeleton(run, "")
        except Exception as exc:  # noqa: BLE001  (a log mid-write, a folder gone: the last whole snapshot stays)
            self.failed = f"{type(exc).__name__}: {exc}"
            if self.snapshot is not None and self.snapshot.partial:   # no whole one: say why, never the preliminary figures
                self.snapshot = None
        finally:
            self._building = False

    def skeleton(self, run: str, identity: str) -> Skeleton | None:
        """A skeleton of a run's source, by identity (the source is read once)."""
        with self._lock:
            if run not in self._skeletons:
                snap = self.snapshot
                grid = snap.loaded.grids.get(run) if snap is not None else None
                self._skeletons[run] = {sk.identity: sk for sk in skeletons(grid)} if grid is not None else {}
        return self._skeletons[run].get(identity)
