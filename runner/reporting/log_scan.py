"""A run log scanned into the engine for the report: exactly (each field's JSON type checked, as load.py checks a
parsed record), or with the engine's typed read where an earlier exact scan found the log, unchanged since, with no
loose line (a field of another JSON type than its own, an integer beyond BIGINT, a number beyond a double), and
marked it so in its run folder. The solve logs and the render logs are scanned so, each with its own SQL and mark."""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import orjson

from runner.errors import UserError
from runner.reporting.columnar_sql import run_scan
from runner.reporting.load import refuse_schema
from runner.store.records import SCHEMA

# A log the exact scan found with no loose line is marked so (its file's identity, in the run folder): the next
# report on it, unchanged, reads it with the engine's typed read, about half the CPU of the exact scan (a million
# solve lines). Any write to the log changes its size or times (ctime cannot be set back), so it is scanned exactly
# again; another code's mark (another scan) is never read.
MARGIN = 2.0   # seconds: the coarsest file times of a file system (FAT: 2 s; ext4: a clock tick)

Mark = tuple[Path, Path, tuple]   # (the log, its mark, the log's identity when it was found well-typed)


@dataclass(frozen=True)
class LogScan:
    """How one kind of log is scanned: the table its rows go to (with the columns `whole`, `schema` and `loose`),
    its exact and typed scans (INSERTs taking $f, $path and $most), and its mark's name before the stamp."""

    table: str
    exact: str
    typed: str
    prefix: str

    def mark_of(self, log: Path) -> Path:
        """The mark of this code's scans beside the log (stamped with the engine's version and both scans)."""
        stamp = hashlib.sha256(f"{duckdb.__version__}{self.exact}{self.typed}".encode()).hexdigest()[:16]
        return log.parent / f"{self.prefix}{stamp}"


def scan_log(con: duckdb.DuckDBPyConnection, kind: LogScan, i: int, path: Path) -> tuple[int, Mark | None] | None:
    """Scan one log into kind.table as folder `i`'s: None if there is no log, else its unreadable lines and the mark
    to keep where it was found well-typed. A record of another schema stops the report as the loader stops it (at
    the first, in the order of the lines)."""
    try:
        open(path, "rb").close()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:   # unreadable (permissions, I/O): one line, as run and status say it
        raise UserError(f"log {path}: cannot read it ({exc.strerror})") from None
    before = con.execute(f"SELECT coalesce(max(rowid) + 1, 0) FROM {kind.table}").fetchone()[0]
    now = time.time_ns()
    seen, mark = identity(path), kind.mark_of(path)
    try:
        typed = orjson.loads(mark.read_bytes()) == list(seen)
    except (OSError, orjson.JSONDecodeError):
        typed = False
    if seen[2]:
        run_scan(con, kind.typed if typed else kind.exact, {"f": i, "path": str(path)})
    if typed and identity(path) != seen:   # written to while read (lines not checked): the exact scan instead
        con.execute(f"DELETE FROM {kind.table} WHERE rowid >= $b", {"b": before})
        run_scan(con, kind.exact, {"f": i, "path": str(path)})
        typed = False
    bad, other, loose = con.execute(
        "SELECT count(*) FILTER (NOT whole), arg_min(schema, rowid) FILTER (whole AND schema IS NOT NULL AND "
        f"schema <> {SCHEMA}), count(*) FILTER (loose) FROM {kind.table} WHERE rowid >= $b", {"b": before}).fetchone()
    if other is not None:   # an integer other than SCHEMA (the scan types it)
        refuse_schema(int(other), path)
    # a log changed within the margin before its scan could change again in the same clock tick of its file
    # system keeping its size and times: not marked (git's "racily clean" files)
    well_typed = not typed and not loose and identity(path) == seen and max(seen[3:]) <= now - int(MARGIN * 1e9)
    return bad, ((path, mark, seen) if well_typed else None)


def keep_marks(marks: list[Mark]) -> None:
    """Mark the logs found well-typed (once the report has written everything); a log written to since its scan is
    left unmarked (its next report scans it exactly)."""
    for log, mark, seen in marks:
        if identity(log) == seen:
            _mark(mark, seen)


def identity(path: Path) -> tuple[int, int, int, int, int]:
    """A log's file as its mark names it: device, inode, size, modification and change times."""
    st = path.stat()
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _mark(mark: Path, seen: tuple) -> None:
    """Write the mark of a log found with no loose line (an older code's mark of that log removed); a folder that
    cannot be written to is only not marked."""
    folder, prefix = mark.parent, mark.name[:-16]
    tmp = folder / f"{mark.name}.{os.getpid()}.tmp"
    try:
        for old in folder.glob(f"{prefix}*"):
            if old != mark and len(old.name) == len(mark.name) and old.is_file() and not old.name.endswith(".tmp"):
                old.unlink()
        tmp.write_bytes(orjson.dumps(list(seen)))
        os.rename(tmp, mark)
    except OSError:
        tmp.unlink(missing_ok=True)
