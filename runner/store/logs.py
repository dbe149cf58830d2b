"""Append-only JSONL logs: whole-line writes, the resume index (torn lines tolerated), and the run lock."""
from __future__ import annotations

import asyncio
import functools
import itertools
import os
import stat
from operator import itemgetter
from pathlib import Path
from types import UnionType
from typing import Any, Callable, Container, Iterator, Literal, TypeGuard, Union, get_args, get_origin, get_type_hints

import orjson

from runner.children import write_all
from runner.errors import UserError, WriteFailed
from runner.store.guard import RUN_LOGS, RUN_MARKER, kind_of, node_mode, open_append, open_regular
from runner.store.records import CalibrationRecord, RenderRecord, SolveRecord

Terminal = Literal["ok", "invalid", "unfaithful", "unchecked"]   # a settled unit's status: `error` is tried again
TERMINAL: tuple[Terminal, ...] = get_args(Terminal)   # `status in TERMINAL` narrows a read status to the type
TORN = b" <torn by a crash>\n"


class AppendLog:
    """An O_APPEND file of whole lines, each handed to the kernel in the loop iteration that made it.

    Inside an event loop, the lines written during one iteration of the loop go out together in one
    write() at its end (a write per line cost a twentieth of a unit's CPU); outside a loop each line
    is written at once. Several processes (shards) may append to one log: O_APPEND places every
    write at the end, and a line is never split across writes. A torn last line left by a crash is
    closed off with TORN before the first new record: it stays one bad line that readers skip, and
    since no whole record ends that way, a reader can trust any line ending in `}\n` to be whole.
    """

    def __init__(self, path: Path, on_error: Callable[[WriteFailed], None] | None = None):
        self.path = path
        self._pending: list[bytes] = []
        # A write that fails (disk full, I/O error) is kept here: the next write or close raises it, and
        # `on_error` (the run's, to stop its workers) hears of it at once, even from a loop callback.
        self.error: WriteFailed | None = None
        self._on_error = on_error
        self.fd = open_append(path)
        try:
            size = os.fstat(self.fd).st_size
            if size:
                with open_regular(path, "log") as fh:
                    fh.seek(size - 1)
                    if fh.read(1) != b"\n":
                        os.write(self.fd, TORN)
        except OSError as exc:
            os.close(self.fd)
            raise WriteFailed(path, exc) from None

    def write(self, line: bytes) -> None:
        """Append one complete line (it must end with a newline): at the end of this loop iteration."""
        if self.error is not None:
            raise self.error
        if self._pending:
            self._pending.append(line)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:   # no loop runs (a helper, a test): the line goes now
            loop = None
        if loop is None:
            self._write(line)
            if self.error is not None:
                raise self.error
            return
        self._pending.append(line)
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Hand the pending lines to the kernel now."""
        if self._pending and self.error is None:
            data = b"".join(self._pending)
            self._pending.clear()
            self._write(data)

    def _write(self, data: bytes) -> None:
        try:
            write_all(self.fd, data)
        except OSError as exc:   # a part may be on disk: a torn last line, which the next run closes off
            # Never raised here: from a loop callback asyncio would only log it. write() and close() raise it.
            self.error = WriteFailed(self.path, exc)
            if self._on_error is not None:
                self._on_error(self.error)

    def close(self) -> None:
        """Flush, sync and close; raises the write failure if there was one (after closing)."""
        if self.fd < 0:
            return
        try:
            self.flush()
            if self.error is None:
                os.fsync(self.fd)
        except OSError as exc:
            self.error = self.error or WriteFailed(self.path, exc)
        finally:
            os.close(self.fd)
            self.fd = -1
        if self.error is not None:
            raise self.error


_NONE = type(None)


# The fields (and their types) a record must have to be read at all, by the run's index, `status`, `report`
# and anything that reads a run later: what one of them skips, the others skip too, and the run redoes. They
# are the record types' own fields, with the types their annotations give a parsed line (one schema).
def exact_types(hint: Any) -> type | tuple[type, ...]:
    """The type(s) of value a parsed JSON line holds for a field of this annotation: a Literal's (its values'
    one type), an optional one's with None's, a plain type itself; anything else (Any, a tuple) is refused."""
    if get_origin(hint) is Literal:
        kinds = {type(v) for v in get_args(hint)}
        if len(kinds) != 1:
            raise TypeError(f"a Literal of values of one type, not {hint}")
        return kinds.pop()
    if get_origin(hint) in (Union, UnionType):
        parts = tuple(t for arg in get_args(hint) for t in as_kinds(exact_types(arg)))
        return tuple(dict.fromkeys(parts))
    if isinstance(hint, type) and hint in (str, int, float, bool, _NONE):
        return hint
    raise TypeError(f"no exact JSON type for {hint}")


def as_kinds(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    """A field's type(s) as a tuple, one type or several."""
    return kinds if isinstance(kinds, tuple) else (kinds,)


def fields_of(record: type, *names: str) -> dict[str, type | tuple[type, ...]]:
    """`names`, fields of a record type, each with the exact type(s) its annotation gives a parsed line."""
    hints = get_type_hints(record)
    return {name: exact_types(hints[name]) for name in names}


RENDER_FIELDS = fields_of(RenderRecord, "key", "status", "skeleton", "family", "complexity", "renderer", "sample")
SOLVE_FIELDS = fields_of(SolveRecord, "key", "status", "render_key", "skeleton", "family", "complexity", "renderer",
                         "solver", "render_sample", "sample", "correct")
CALIBRATION_FIELDS = fields_of(CalibrationRecord, "key", "status", "auditor")


class Typed:
    """The one check of a record's fields and their exact types (true is not an integer here), made once per
    table: a C-level itemgetter and a set lookup, so the index of a million records can afford it per line."""

    def __init__(self, fields: dict[str, type | tuple[type, ...]]):
        if len(fields) < 2 or list(fields)[:2] != ["key", "status"]:
            raise ValueError("a log's fields begin with key and status")   # fill reads them by place
        self.names = list(fields)
        self.types = list(fields.values())
        self.get = itemgetter(*fields)   # a record's values of the fields, in order
        self.ok = set(itertools.product(*((t if isinstance(t, tuple) else (t,)) for t in fields.values())))

    def __call__(self, rec: object) -> bool:
        if type(rec) is not dict:
            return False
        try:
            return tuple(map(type, self.get(rec))) in self.ok
        except KeyError:
            return False


@functools.lru_cache(maxsize=None)
def _typed(fields: tuple[tuple[str, type | tuple[type, ...]], ...]) -> Typed:
    return Typed(dict(fields))


def usable(rec: object, fields: dict[str, type | tuple[type, ...]]) -> TypeGuard[dict[str, Any]]:
    """Whether a parsed line is a record with every field in `fields`, of its exact type (foreign or partial
    ones are not)."""
    return _typed(tuple(fields.items()))(rec)


LOGS, MARKER = RUN_LOGS, RUN_MARKER   # every log a run folder holds; the mark of a folder a run claimed


def check_log_files(folder: Path) -> None:
    """Each log of a run folder is a plain file or absent: a folder, a symlink (a loop, or one that points
    out of the run) or a device in its place gets one line naming it, before anything is read or written."""
    for name in LOGS:
        path = folder / name
        mode = node_mode(path, "log")
        if mode is not None and not stat.S_ISREG(mode):
            raise UserError(f"{path}: is {kind_of(mode)}, where a run keeps its log; move it out of {folder}")


class Records(list[dict[str, Any]]):
    """Records read from a log, and how many of its lines could not be used (torn, damaged or foreign)."""

    skipped: int = 0


class Unreadable:
    """What `log_values` gives for a line that is not JSON (torn by a crash, damaged): its reader counts it."""


UNREADABLE = Unreadable()


def parse_line(line: bytes) -> Any:
    """The one parse of a log's line: its JSON value, or UNREADABLE."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return UNREADABLE


def log_values(path: Path) -> Iterator[Any]:
    """The JSON value of every non-blank line of a log, in file order (UNREADABLE for one that does not parse);
    nothing when there is no log. A log that cannot be read is one line naming it (a UserError)."""
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        return
    with fh:
        for line in fh:
            rec = parse_line(line)
            if rec is not UNREADABLE or line.strip():
                yield rec


def read_records(path: Path, fields: dict[str, type | tuple[type, ...]], counter: Records) -> Iterator[dict[str, Any]]:
    """Every whole record of a log with `fields`; the other non-empty lines are counted in `counter.skipped`."""
    for rec in log_values(path):
        if usable(rec, fields):
            yield rec
        else:
            counter.skipped += 1


def supersedes(old_status: str, new_status: str) -> bool:
    """Whether a later record of a unit replaces an earlier one: a terminal record always does (the newest
    wins), an `error` one only replaces another `error`. The resume index applies it by offset (`better`)."""
    return new_status in TERMINAL or old_status not in TERMINAL


def newer(old_status: str, old_at: float, new_status: str, new_at: float) -> bool:
    """Across run folders, whether a record replaces another of its unit: a terminal record beats an error,
    and between two of a kind the later `finished_at` wins (a tie: the one read later), so the order in
    which folders are given does not matter."""
    if (new_status in TERMINAL) != (old_status in TERMINAL):
        return new_status in TERMINAL
    return new_at >= old_at


def best_records(path: Path, keys: Container[str], fields: dict[str, type | tuple[type, ...]]) -> Records:
    """The newest terminal record (else the last one) of each unit in `keys`, from a log; lines that are
    not such records are skipped and counted."""
    best: dict[str, dict[str, Any]] = {}
    out = Records()
    for rec in read_records(path, fields, out):
        key = rec["key"]
        if key in keys:
            old = best.get(key)
            if old is None or supersedes(old["status"], rec["status"]):
                best[key] = rec
    out.extend(best.values())
    return out


def skipped_note(path: Path, skipped: int, redone: bool = False) -> str | None:
    """The one line that says how many lines of a log were skipped (None if none were). A skipped line stays in
    the log (it is append-only) after its unit is redone: the line says what holds either way, no "rerun" once
    nothing is left, no "redone" beside "nothing to do"."""
    if not skipped:
        return None
    tail = ("; a unit only they held is redone, not read from them" if redone else
            "; a unit only they held counts as left until `bench run` redoes it")
    return f"bench: skipped {skipped} unreadable line(s) in {path}{tail}"


def read_at(path: Path, offset: int) -> dict[str, Any] | None:
    """The record that starts at `offset` (from the index); None if that line is not a whole JSON object
    (the fast path trusted a damaged line: its unit is redone)."""
    with open(path, "rb") as fh:   # a small buffer: one line is read
        fh.seek(offset)
        rec = parse_line(fh.readline())
    return rec if isinstance(rec, dict) else None


def read_many(path: Path, offsets: list[int]) -> Iterator[dict[str, Any] | None]:
    """`read_at` of each offset (in file order, for one pass of the disk), through one open file; None for each
    when the log is gone."""
    if not offsets:
        return
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        yield from (None for _ in offsets)
        return
    with fh:
        for offset in offsets:
            fh.seek(offset)
            rec = parse_line(fh.readline())
            yield rec if isinstance(rec, dict) else None
