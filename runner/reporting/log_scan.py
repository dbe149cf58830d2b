"""A run log scanned into the engine for the report: exactly (each field's JSON type checked, as load.py checks a
parsed record), or with the engine's typed read where an earlier exact scan found the log, unchanged since, with no
loose line (a field of another JSON type than its own, an integer beyond BIGINT, a number beyond a double), and
marked it so in its run folder; or, fastest, from the columns an earlier scan of the log, unchanged since, kept beside it
(Parquet). The solve logs and the render logs are scanned so, each with its own SQL, mark and kept columns."""
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
from runner.store.guard import open_regular
from runner.store.records import SCHEMA

# A log the exact scan found with no loose line is marked so (its file's identity, in the run folder): the next
# report on it, unchanged, reads it with the engine's typed read, about half the CPU of the exact scan (a million
# solve lines). Any write to the log changes its size or times (ctime cannot be set back), so it is scanned exactly
# again; another code's mark (another scan) is never read.
MARGIN = 2.0   # seconds: the coarsest file times of a file system (FAT: 2 s; ext4: a clock tick)

# The kept columns: the rows a scan put in the engine's table for the log, written as Parquet with the log's identity
# in its metadata (`seen`), read instead of the log while the log's file is that one: the engine reads them in about a
# quarter of the typed read's time (a million solve records: 0.43 to 0.52 s, against 1.7 to 1.8 s; the exact scan
# 3.2 to 3.5 s). Written (to a temporary, named by `keep_marks`) once the report has read well, for a log not written
# to within MARGIN before its scan; any write to the log changes its identity: the log is scanned and kept again.
ROWS_READ = "INSERT INTO {table} SELECT $f, * FROM read_parquet($rows)"
ROWS_WRITE = ("COPY (SELECT * EXCLUDE (f) FROM {table} WHERE f = {f} ORDER BY rowid) TO '{tmp}' "
              "(FORMAT parquet, KV_METADATA {{seen: '{seen}'}})")


@dataclass(frozen=True)
class Mark:
    """What a scan leaves to keep once the report has written everything: the log, its identity when scanned, its
    mark where it was found well-typed, and its kept columns' name where they are to be kept (the rows of folder
    `f` in `table`, written by `write_kept` to `temporary(rows)`)."""

    log: Path
    seen: tuple
    mark: Path | None
    rows: Path | None
    table: str
    f: int


@dataclass(frozen=True)
class LogScan:
    """How one kind of log is scanned: the table its rows go to (with the columns `whole`, `schema` and `loose`),
    its exact and typed scans (INSERTs taking $f, $path and $most), and its mark's name before the stamp."""

    table: str
    exact: str
    typed: str
    prefix: str
    columns: str   # the table's CREATE statement: the kept columns are its rows
    rows_prefix: str

    def mark_of(self, log: Path) -> Path:
        """The mark of this code's scans beside the log (stamped with the engine's version and both scans)."""
        stamp = hashlib.sha256(f"{duckdb.__version__}{self.exact}{self.typed}".encode()).hexdigest()[:16]
        return log.parent / f"{self.prefix}{stamp}"

    def rows_of(self, log: Path) -> Path:
        """The kept columns of this code's exact scan beside the log (stamped with the engine's version, the scan and
        the table)."""
        stamp = hashlib.sha256(f"{duckdb.__version__}{self.exact}{self.columns}".encode()).hexdigest()[:16]
        return log.parent / f"{self.rows_prefix}{stamp}"


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
    seen, mark, rows = identity(path), kind.mark_of(path), kind.rows_of(path)
    kept = bool(seen[2]) and rows.is_file() and _read_kept(con, kind, i, rows, seen, before)
    typed = not kept and _marked(mark, seen)
    if seen[2] and not kept:
        run_scan(con, kind.typed if typed else kind.exact, {"f": i, "path": str(path)})
    if typed and not _same(path, seen):   # written to while read (lines not checked): the exact scan instead
        con.execute(f"DELETE FROM {kind.table} WHERE rowid >= $b", {"b": before})
        run_scan(con, kind.exact, {"f": i, "path": str(path)})
        typed = False
    bad, other, loose = con.execute(
        "SELECT count(*) FILTER (NOT whole), arg_min(schema, rowid) FILTER (whole AND schema IS NOT NULL AND "
        f"schema <> {SCHEMA}), count(*) FILTER (loose) FROM {kind.table} WHERE rowid >= $b", {"b": before}).fetchone()
    if other is not None:   # an integer other than SCHEMA (the scan types it)
        refuse_schema(int(other), path)
    # a log changed within the margin before its scan could change again in the same clock tick of its file
    # system keeping its size and times: neither marked nor kept (git's "racily clean" files)
    settled = _same(path, seen) and max(seen[3:]) <= now - int(MARGIN * 1e9)
    well_typed = settled and not typed and not kept and not loose
    keep = settled and not kept and bool(seen[2])
    if not (well_typed or keep):
        return bad, None
    return bad, Mark(path, seen, mark if well_typed else None, rows if keep else None, kind.table, i)


def _marked(mark: Path, seen: tuple) -> bool:
    """Whether the log's mark names it as it is now."""
    try:
        with open_regular(mark, "mark") as fh:   # a FIFO there is refused, never waited on
            return bool(orjson.loads(fh.read()) == list(seen))
    except (OSError, UserError, orjson.JSONDecodeError):
        return False


def _read_kept(con: duckdb.DuckDBPyConnection, kind: LogScan, i: int, rows: Path, seen: tuple, before: int) -> bool:
    """Read the log's kept columns into kind.table as folder `i`'s where they were kept of the log as it is now;
    kept columns that cannot be read (damaged, another engine's) are only not read."""
    try:
        said = con.execute("SELECT value::VARCHAR FROM parquet_kv_metadata($rows) WHERE key::VARCHAR = 'seen'",
                           {"rows": str(rows)}).fetchall()
        if [row[0] for row in said] != [orjson.dumps(list(seen)).decode()]:
            return False
        con.execute(ROWS_READ.format(table=kind.table), {"f": i, "rows": str(rows)})
    except duckdb.Error:
        con.execute(f"DELETE FROM {kind.table} WHERE rowid >= $b", {"b": before})
        return False
    return True


def write_kept(con: duckdb.DuckDBPyConnection, marks: list[Mark]) -> None:
    """Write the columns to keep of each log still as scanned, to their temporaries (`keep_marks` names them once
    the report has written everything); a folder that cannot be written to only keeps none."""
    for got in marks:
        if got.rows is None or not _same(got.log, got.seen):
            continue
        tmp = temporary(got.rows)
        try:
            con.execute(ROWS_WRITE.format(table=got.table, f=int(got.f), tmp=str(tmp).replace("'", "''"),
                                          seen=orjson.dumps(list(got.seen)).decode()))
        except duckdb.Error:
            tmp.unlink(missing_ok=True)


def temporary(path: Path) -> Path:
    """This process's temporary for `path` (kept columns, a mark): written there, then renamed to `path`."""
    return path.with_name(f"{path.name}.{os.getpid()}.tmp")


def _writer(temp: Path, path: Path) -> str:
    """The process number in the name of `temp` if it is a temporary of a file named as long as `path` (another
    code's kept columns of the same log), else ""."""
    return temp.name[len(path.name) + 1:-len(".tmp")] if temp.name.endswith(".tmp") else ""


def keep_marks(marks: list[Mark]) -> None:
    """Mark the logs found well-typed and name their kept columns (once the report has written everything); a log
    written to since its scan is neither (its next report scans it exactly)."""
    for got in marks:
        if _same(got.log, got.seen):
            if got.mark is not None:
                _mark(got.mark, got.seen)
            if got.rows is not None and temporary(got.rows).is_file():
                _name_kept(got.rows)
    drop_unkept(marks)


def drop_unkept(marks: list[Mark]) -> None:
    """Remove the kept columns' temporaries not named (a report that failed leaves its folders as they were)."""
    for got in marks:
        if got.rows is not None:
            temporary(got.rows).unlink(missing_ok=True)


def identity(path: Path) -> tuple[int, int, int, int, int]:
    """A log's file as its mark names it: device, inode, size, modification and change times."""
    st = path.stat()
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _same(path: Path, seen: tuple) -> bool:
    """Whether the log is still the file `seen` names (one removed or made unreadable since is not)."""
    try:
        return identity(path) == seen
    except OSError:
        return False


def _mark(mark: Path, seen: tuple) -> None:
    """Write the mark of a log found with no loose line (an older code's mark of that log removed); a folder that
    cannot be written to is only not marked."""
    folder, prefix = mark.parent, mark.name[:-16]
    tmp = temporary(mark)
    try:
        for old in folder.glob(f"{prefix}*"):
            if old != mark and len(old.name) == len(mark.name) and old.is_file() and not old.name.endswith(".tmp"):
                old.unlink()
        tmp.write_bytes(orjson.dumps(list(seen)))
        os.rename(tmp, mark)
    except OSError:
        tmp.unlink(missing_ok=True)


def _name_kept(rows: Path) -> None:
    """Name kept columns written by this report, removing those of another code and the temporaries of reports no
    longer running (a report killed before it named its own); a folder that cannot be written to only keeps none."""
    tmp, prefix = temporary(rows), rows.name[:-16]
    try:
        for old in rows.parent.glob(f"{prefix}*"):
            pid = _writer(old, rows)
            if old not in (rows, tmp) and old.is_file() and (not pid or not _running(pid)):
                old.unlink()
        os.rename(tmp, rows)
    except OSError:
        tmp.unlink(missing_ok=True)


def _running(pid: str) -> bool:
    """Whether the process numbered `pid` (a temporary's) may still be writing it."""
    if not pid.isdigit() or not pid.isascii():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:   # another user's: running
        return True
    return True
