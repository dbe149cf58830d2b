"""Where a pipeline learns what is done and puts what it finishes: a run folder's logs, or memory (a Ray agent).

Both hold the same three things: the resume index of render and solve units, a way to read a
logged render's record back (its text, its repair round), and a place for finished records'
lines. A run on one machine writes to its folder; a node agent on a Ray cluster gets the part of
the index its batch needs from the driver and hands its lines back to it, the only writer.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from runner.errors import WriteFailed
from runner.store.index import Entry, Index, load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, AppendLog, read_at

RENDERS, SOLVES = "renders.jsonl", "solves.jsonl"


def log_sizes(folder: Path) -> tuple[int, int]:
    """The render and solve logs' sizes (0 where there is none): compared before and after, whether a run wrote."""
    out = []
    for name in (RENDERS, SOLVES):
        try:
            out.append((folder / name).stat().st_size)
        except OSError:
            out.append(0)
    return out[0], out[1]


class FolderLogs:
    """A run folder's render and solve logs: the index read when made, records appended as they finish."""

    def __init__(self, folder: Path):
        self.render_path, self.solve_path = folder / RENDERS, folder / SOLVES
        self.render_index: Index = load_index(self.render_path, RENDER_FIELDS)
        self.solve_index: Index = load_index(self.solve_path, SOLVE_FIELDS)
        self._render_log: AppendLog | None = None
        self._solve_log: AppendLog | None = None

    def open(self, on_error: Callable[[WriteFailed], None]) -> None:
        """Open both logs for appending; `on_error` hears of a failed write at once."""
        self._render_log = AppendLog(self.render_path, on_error)
        self._solve_log = AppendLog(self.solve_path, on_error)

    def unreadable(self, render_lines: int) -> dict[Path, int]:
        """Unreadable lines per log: the indexes' skipped ones, and `render_lines` more the run found in the render log."""
        return {self.render_path: self.render_index.skipped + render_lines, self.solve_path: self.solve_index.skipped}

    def render_record(self, entry: Entry) -> dict[str, Any] | None:
        """The logged render record an index entry points at (None: the line cannot be read back)."""
        return read_at(self.render_path, entry.offset)

    def write_render(self, line: bytes) -> None:
        self._opened(self._render_log).write(line)

    def write_solve(self, line: bytes) -> None:
        self._opened(self._solve_log).write(line)

    @staticmethod
    def _opened(log: AppendLog | None) -> AppendLog:
        """A log `open` made: a write before it is a bug of the caller's, said as one."""
        if log is None:
            raise RuntimeError("a run folder's log written before FolderLogs.open")
        return log

    def close(self) -> None:
        """Flush, sync and close both logs (raises the first write failure)."""
        try:
            if self._render_log is not None:
                self._render_log.close()
        finally:
            if self._solve_log is not None:
                self._solve_log.close()


class MemoryLogs:
    """What an agent is told of one batch's units (render records, solve statuses) and the lines it made."""

    def __init__(self, renders: Mapping[str, dict[str, Any]], solves: Mapping[str, tuple[str, bool | None]]):
        self.render_index, self.solve_index = Index(), Index()
        self._records: list[dict[str, Any]] = []
        for key, rec in renders.items():
            correct = rec.get("correct")
            self.render_index[key] = Entry(rec["status"], len(self._records), correct if isinstance(correct, bool) else None)
            self._records.append(rec)
        for key, (status, correct) in solves.items():
            self.solve_index[key] = Entry(status, -1, correct)
        self.render_lines: list[bytes] = []
        self.solve_lines: list[bytes] = []

    def open(self, on_error: Callable[[WriteFailed], None]) -> None:
        """Nothing to open: lines stay in memory until the batch goes back."""

    def render_record(self, entry: Entry) -> dict[str, Any] | None:
        return self._records[entry.offset]

    def write_render(self, line: bytes) -> None:
        self.render_lines.append(line)

    def write_solve(self, line: bytes) -> None:
        self.solve_lines.append(line)

    def close(self) -> None:
        """Nothing to close."""
