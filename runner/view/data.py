"""What `bench view` shows, read once and kept fresh: the report's loaders for the figures (so the view and
`bench report` never disagree), an offset index of each render's records and answers for the unit pages,
and the skeletons by identity. A newer snapshot is built in the background when a log grows; pages are
served from the last whole one meanwhile, so a page never waits on a run and a run never waits on a page."""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from families.ir import Skeleton
from runner.config.grid import Grid
from runner.engine.units import UnitPlan, skeletons
from runner.reporting.fidelity import FidelityRow, fidelity_rows
from runner.reporting.load import Loaded, Outcome, load_runs
from runner.reporting.stats import SummaryRow, summary_rows, tallies
from runner.store.guard import open_regular
from runner.store.logs import LOGS, RENDER_FIELDS, SOLVE_FIELDS, usable
from runner.store.records import unit_key
from runner.store.sinks import RENDERS, SOLVES

FRESH_S = 2.0   # a page looks at the logs' sizes at most this often


@dataclass
class Snapshot:
    """The runs as they were at one moment: the report's figures and the offsets of every record."""

    loaded: Loaded
    rows: list[SummaryRow]
    fidelity: list[FidelityRow]
    folders: dict[str, Path]                                   # run name -> its folder
    render_fp: dict[tuple[str, str], str]                      # (run, renderer label) -> its key fingerprint
    renders_at: dict[str, list[int]] = field(default_factory=dict)   # render key -> offsets in renders.jsonl
    solves_at: dict[str, list[int]] = field(default_factory=dict)    # render key -> offsets in solves.jsonl
    sizes: tuple = ()
    made_at: float = 0.0

    def render_key(self, run: str, renderer: str, skeleton: str, sample: int) -> str | None:
        """A render unit's key, as the run made it."""
        fp = self.render_fp.get((run, renderer))
        return None if fp is None else unit_key(fp, skeleton, sample)

    def records(self, run: str, log: str, render_key: str) -> list[dict]:
        """The whole records of one render unit in a log (renders: every round; solves: every answer)."""
        at = (self.renders_at if log == RENDERS else self.solves_at).get(render_key, [])
        out = []
        fields = RENDER_FIELDS if log == RENDERS else SOLVE_FIELDS
        with open_regular(self.folders[run] / log, "log") as fh:
            for offset in at:
                fh.seek(offset)
                try:
                    rec = orjson.loads(fh.readline())
                except orjson.JSONDecodeError:
                    continue
                if usable(rec, fields):
                    out.append(rec)
        return out

    def cell(self, run: str, renderer: str, solver: str) -> list[Outcome]:
        """The best record of every solve unit of one cell."""
        return [o for o in self.loaded.outcomes if o.run == run and o.renderer == renderer and o.solver == solver]


def sizes(folders: list[Path]) -> tuple:
    """The logs' sizes and change times: a snapshot is stale when they move."""
    out = []
    for folder in folders:
        for name in LOGS:
            try:
                st = (folder / name).stat()
                out.append((st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
    return tuple(out)


def _offsets(path: Path, needle: bytes) -> dict[str, list[int]]:
    """Render key -> the offsets of the lines of a log that carry it after `needle` (a byte search: the
    records are read whole, and checked, when a page shows them)."""
    out: dict[str, list[int]] = defaultdict(list)
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        return out
    with fh:
        offset = 0
        for line in fh:
            at = line.find(needle)
            if at >= 0:
                out[line[at + len(needle):at + len(needle) + 32].decode("ascii", "replace")].append(offset)
            offset += len(line)
    return out


def build(folders: list[Path]) -> Snapshot:
    """A whole snapshot of the runs (the report's reading of them, and every record's offset)."""
    stamp = sizes(folders)
    loaded = load_runs(folders)
    fidelity = fidelity_rows(loaded.renders)
    rows = summary_rows(loaded, tallies(loaded), fidelity)
    snap = Snapshot(loaded, rows, fidelity, {}, {}, sizes=stamp, made_at=time.time())
    for folder in folders:
        grid = Grid.saved(folder)
        snap.folders.setdefault(grid.name, folder)
        for st, fp in UnitPlan(grid).render_parts:
            snap.render_fp[(grid.name, st.label)] = fp
        for key, at in _offsets(folder / RENDERS, b'"key":"').items():
            snap.renders_at.setdefault(key, []).extend(at)
        for key, at in _offsets(folder / SOLVES, b'"render_key":"').items():
            snap.solves_at.setdefault(key, []).extend(at)
    return snap


class Runs:
    """The runs a view shows: the current snapshot, rebuilt in the background when the logs change.

    The first snapshot is built in the background too (`wait=False`): a server answers at once, with a
    page saying it is still reading, instead of after a million records are read."""

    def __init__(self, folders: list[Path], wait: bool = True):
        self.folders = folders
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
                with self._lock:
                    if not self._building:
                        self._building = True
                        threading.Thread(target=self._rebuild, daemon=True).start()
        return self.snapshot

    def _rebuild(self) -> None:
        try:
            self.snapshot = build(self.folders)
            for run in self.snapshot.loaded.grids:   # the unit pages' skeletons, read before anyone asks
                self.skeleton(run, "")
        except Exception as exc:   # a log mid-write or a folder gone: the last whole snapshot stays
            self.failed = f"{type(exc).__name__}: {exc}"
        finally:
            self._building = False

    def skeleton(self, run: str, identity: str) -> Skeleton | None:
        """A skeleton of a run's source, by identity (the source is read once)."""
        with self._lock:
            if run not in self._skeletons:
                grid = self.snapshot.loaded.grids[run]
                self._skeletons[run] = {sk.identity: sk for sk in skeletons(grid)}
        return self._skeletons[run].get(identity)
