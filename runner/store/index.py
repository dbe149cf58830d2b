"""The resume index of a log: key -> its best record's status, offset and correctness.

One pass over a small log; a big one is read in parts on every core: the run reads the first part,
helper processes (`python -m runner.store.index`) the others, each streaming its part's records in
columns, a frame per slice it has read, which the run merges while it reads its own. The best record
of a key is its last terminal one, else its last one, by offset in the file: an order, so merging
frames as they come, in any order, gives what one pass gives."""
from __future__ import annotations

import array
import gc
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Iterator
from itertools import repeat
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import orjson

from runner.children import PIPE_BYTES, cores, die_with_parent, widen_pipe, write_all
from runner.errors import UserError
from runner.store import snapshot
from runner.store.guard import open_regular
from runner.store.index_decode import BLOCK_BYTES, DecodeError, Decoder, ValidationError, fast_decoder
from runner.store.logs import CALIBRATION_FIELDS, RENDER_FIELDS, SOLVE_FIELDS, Typed, supersedes

# A log part a helper is started for. With the key-column decoder a byte costs a third of what it did, and a helper's
# own costs stay: its start-up and imports, its part sent, and its entries made and merged here (at 1M solve records
# on two loaded cores, one helper cost 1.7x the CPU and 1.9x the time of one process; quiet, with parts of 32 MiB, a
# resume's two logs took 0.7x the time for 1.3x the CPU, which takes a no-op resume past 5% of its run's CPU:
# BENCHMARKS.md, issue 44)
PART_BYTES = 1 << 30
MOST_PARTS = 16
SLICE_BYTES = 4 << 20   # a helper sends a frame per slice it reads; the run takes frames between its slices
RUN_SHARE = 0.75        # the run's part against a helper's: merging a record costs the run a third of reading it
_FRAME = struct.Struct(">I")
KINDS = {"render": RENDER_FIELDS, "solve": SOLVE_FIELDS, "calibration": CALIBRATION_FIELDS}


class Entry(NamedTuple):
    """What the index keeps of a unit: its best status, where that record starts, and `correct`.

    A NamedTuple, not a dataclass: a helper's half a million entries are then made in C when merged
    (`tuple.__new__` over zipped columns), where a dataclass's `__init__` runs in Python for each."""

    status: str
    offset: int
    correct: bool | None = None


class Index(dict[str, Entry]):
    """key -> Entry, and how many non-empty lines were skipped (torn, damaged or foreign)."""

    skipped: int = 0


def load_index(path: Path, fields: dict[str, type | tuple[type, ...]]) -> Index:
    """key -> Entry: the newest terminal record wins, over `error` ones; errors stay retryable; lines that are
    not whole records with `fields` (torn, damaged, glued, foreign, a field of another type) are skipped and
    counted, so their units are redone: exactly the lines `status` and `report` skip too.

    A big log is read in parts on as many cores as it has parts for; where a run kept the index of its first bytes
    (snapshot.py) and they are unchanged, that index is read, and only the lines after them."""
    index = Index()
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        return index
    # The hot loop of a resume over millions of records; the cyclic GC is paused (it would rescan the
    # growing index again and again; entries hold no cycles).
    paused = gc.isenabled()
    gc.disable()
    try:
        with fh:
            kind = _kind(fields)
            kept = snapshot.load(path, kind, fh) if kind is not None else None
            if kept is None:
                return _load(fh, path, fields, index)
            merge(index, *kept[0])
            index.skipped = kept[1]
            return fill(fh, index, Typed(fields), kept[2])   # what was appended since, as lines
    finally:
        if paused:
            gc.enable()


def keep_index(path: Path, fields: dict[str, type | tuple[type, ...]]) -> bool:
    """Keep the index of the log's whole lines (up to its last newline) beside it (snapshot.py), for the next
    load_index: the kept index of its first bytes, where there is one, and the lines since; False where nothing is
    kept. Other processes may append meanwhile: what they write goes past the last newline it found."""
    kind = _kind(fields)
    if kind is None:   # a table of no known kind: nothing kept
        return False
    paused = gc.isenabled()
    gc.disable()
    try:
        with open_regular(path, "log") as fh:
            end = _last_newline(fh, os.fstat(fh.fileno()).st_size)
            kept = snapshot.load(path, kind, fh)
            if kept is not None and kept[2] == end:   # nothing whole appended since
                return True
            index = Index()
            if kept is not None:
                merge(index, *kept[0])
                index.skipped = kept[1]
            fill(fh, index, Typed(fields), kept[2] if kept is not None else 0, end)
            got = columns([(key, *entry) for key, entry in index.items()])
            return got is not None and snapshot.save(path, kind, fh, end, got, index.skipped)
    except (OSError, UserError):   # no log, or one that cannot be read: nothing kept, the next resume reads it
        return False
    finally:
        if paused:
            gc.enable()


def _last_newline(fh: BinaryIO, size: int) -> int:
    """The offset just past the last newline in the file's first `size` bytes (0 where there is none): the lines
    before it are whole and never change (a writer only appends)."""
    at = size
    while at > 0:
        start = max(0, at - (1 << 16))
        fh.seek(start)
        block = fh.read(at - start)
        found = block.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        at = start
    return 0


def _kind(fields: dict[str, type | tuple[type, ...]]) -> str | None:
    """The name of the log kind whose fields these are (KINDS); None for another table."""
    return next((k for k, f in KINDS.items() if f is fields), None)


def fill(fh: BinaryIO, index: Index, typed: Typed, start: int = 0, end: int | None = None,
         rows: list[tuple[str, str, int, bool | None]] | None = None) -> Index:
    """Read into `index` the lines of `fh` that begin at offsets in [start, end) (the body of load_index); with
    `rows`, each record read is appended there instead, as (key, status, offset, correct), in file order (a
    helper's part: the run merges it, so no index is built twice); `index` then only counts the skipped lines.

    Read in blocks; a line is decoded by the key-column decoder (`index_decode.py`: the typed fields only, the rest
    skipped unbuilt) and, where that refuses it, by orjson and `Typed`, whose verdict is the rule. A block whose
    bytes are not all valid UTF-8 is read by the rule alone (the skipped fields' strings are not checked)."""
    decoder = fast_decoder(typed)
    if start:   # the part begins with the first line that begins at `start` or after
        fh.seek(start - 1)
        offset = start - 1 + len(fh.readline())
    else:
        fh.seek(0)
        offset = 0
    carry = b""
    while end is None or offset < end:
        data = fh.read(BLOCK_BYTES)
        if not data:   # the file's end: a last line without its newline (a torn tail) is read as it is
            if carry:
                _lines([carry], offset, end, index, typed, _usable(decoder, carry, len(carry)), False, rows)
            break
        block = carry + data if carry else data
        lines = block.split(b"\n")
        carry = lines.pop()   # what follows the block's last newline: the start of a line the next block ends
        if lines:
            decode = _usable(decoder, block, len(block) - len(carry))
            offset = _lines(lines, offset, end, index, typed, decode, True, rows)
    return index


def _usable(decoder: Decoder[Any] | None, block: bytes, cut: int) -> Decoder[Any] | None:
    """The decoder, where the block's first `cut` bytes are ASCII or valid UTF-8; else None (the rule reads them)."""
    return decoder if decoder is not None and (block.isascii() or _utf8(block, cut)) else None


def _utf8(block: bytes, cut: int) -> bool:
    """Whether the block's whole lines are valid UTF-8 (a newline never splits a character)."""
    try:
        block[:cut].decode()
    except UnicodeDecodeError:
        return False
    return True


def _lines(lines: list[bytes], offset: int, end: int | None, index: Index, typed: Typed,
           decoder: Decoder[Any] | None, ended: bool, rows: list[tuple[str, str, int, bool | None]] | None) -> int:
    """Index a block's lines (each without its newline; the last one without one in the file where not
    `ended`), the first at `offset`, or append them to `rows` (fill); the offset after them (or after the last
    line that begins before `end`)."""
    setdefault, new, rule = index.setdefault, tuple.__new__, _Rule(typed, index)
    row = rows.append if rows is not None else None
    decode = decoder.decode if decoder is not None else _refuse
    errors = (DecodeError, ValidationError, RecursionError)
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if end is not None and offset >= end:
            return offset
        begin = offset
        offset += len(line) + 1
        try:
            rec = decode(line)
        except errors:   # not a record the fast way: the rule says what it is, and counts it if skipped
            key, entry = rule(line + b"\n" if ended or i < last else line, begin)
            if entry is None:
                continue
            if row is not None:
                row((key, entry.status, begin, entry.correct))
                continue
        else:
            if row is not None:   # a helper's part: the run makes the entries as it merges them
                row((rec.key, rec.status, begin, rec.correct))
                continue
            key, entry = rec.key, new(Entry, (rec.status, begin, rec.correct))
        old = setdefault(key, entry)   # one lookup where the key is new, as nearly every one is
        if old is not entry and better(entry, old):   # a key seen before: rare (a unit redone)
            index[key] = entry
    if not ended and lines:
        offset -= 1   # the file's last line has no newline
    return offset


def _refuse(line: bytes) -> Any:
    """No decoder for this log: every line is the rule's."""
    raise DecodeError


class _Rule:
    """The rule for one line: whole JSON (orjson) with `typed`'s fields of their exact types; a line that is
    not is counted in `index.skipped` (an empty one is not)."""

    def __init__(self, typed: Typed, index: Index):
        self.fields, self.ok, self.index = typed.get, typed.ok, index
        self.at = typed.names.index("correct") if "correct" in typed.names else None

    def __call__(self, line: bytes, begin: int) -> tuple[str, Entry | None]:
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError:
            self.index.skipped += line != b"\n" and line != b""
            return "", None
        try:
            values = self.fields(rec)
        except (KeyError, TypeError):   # a field missing, or not an object
            self.index.skipped += 1
            return "", None
        if tuple(map(type, values)) not in self.ok:
            self.index.skipped += 1
            return "", None
        if self.at is None:
            correct = rec.get("correct")
            correct = correct if type(correct) is bool else None
        else:   # a field of the log, typed bool or None by the check above
            correct = values[self.at]
        return values[0], Entry(values[1], begin, correct)


def parts_for(size: int, cores: int) -> int:
    """How many parts a log of `size` bytes is read in: one per core, none smaller than PART_BYTES."""
    return max(1, min(cores, size // PART_BYTES, MOST_PARTS))


def better(entry: Entry, old: Entry) -> bool:
    """Whether `entry` is a better record of its key than `old`, whichever came first in the file: the
    later one if it supersedes the earlier (`supersedes`: the one rule, here by offset, not arrival)."""
    later, earlier = (entry, old) if entry.offset > old.offset else (old, entry)
    return (later if supersedes(earlier.status, later.status) else earlier) is entry


def _load(fh: BinaryIO, path: Path, fields: dict[str, type | tuple[type, ...]], index: Index) -> Index:
    """The index of the open log `fh` (at `path`), in parts where it is big and the machine has cores."""
    kind = _kind(fields)
    stat = os.fstat(fh.fileno())
    n = parts_for(stat.st_size, cores()) if kind is not None else 1
    typed = Typed(fields)
    if kind is None or n == 1:   # a log of no known kind is read here, in one part
        return fill(fh, index, typed)
    # The run's part is smaller than a helper's: it also merges theirs, so all end together.
    weights = [RUN_SHARE] + [1.0] * (n - 1)
    bounds = [int(stat.st_size * sum(weights[:i]) / sum(weights)) for i in range(n + 1)]
    helpers = []
    try:
        for i in range(1, n):   # started first: they read their parts while this process reads the first
            helpers.append(_Helper(path, bounds[i], bounds[i + 1], kind, stat))
        for start in range(0, bounds[1], SLICE_BYTES):
            fill(fh, index, typed, start, min(start + SLICE_BYTES, bounds[1]))
            for helper in helpers:
                helper.take(index, block=False)
        for helper in helpers:
            if not helper.take(index, block=True):   # it failed (or the file changed under it): read here
                fill(fh, index, typed, helper.start, helper.end)
    finally:
        for helper in helpers:
            helper.close()
    return index


class _Helper:
    """A helper process reading one part of a log, and the frames of it the run has not merged yet."""

    def __init__(self, path: Path, start: int, end: int, kind: str, stat: os.stat_result):
        self.start, self.end, self.buffer, self.skipped, self.failed = start, end, bytearray(), 0, False
        self.ended = False   # its output was read to the end (and, unless failed, merged and counted)
        self.frames_left = len(range(start, end, SLICE_BYTES))   # a frame per slice, an empty one too
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "runner.store.index", str(path), str(start), str(end), kind,
             f"{stat.st_dev}:{stat.st_ino}", str(SLICE_BYTES)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
        assert self.proc.stdout is not None   # stdout=PIPE: for the type checker, never input
        self.fd = self.proc.stdout.fileno()
        widen_pipe(self.fd)
        os.set_blocking(self.fd, False)

    def take(self, index: Index, block: bool) -> bool:
        """Merge the frames that have come; with `block`, all of them, to the helper's end. False: the
        helper failed, and its part must be read by the run (what it merged already is merged again, alike)."""
        if self.ended:
            return not self.failed
        os.set_blocking(self.fd, block)
        while not self.failed:
            try:
                data = os.read(self.fd, PIPE_BYTES)
            except BlockingIOError:
                return True
            if not data:   # its end: whole only if it exited well with every frame, none cut short
                self.ended = True
                self.failed = self.proc.wait() != 0 or self.frames_left != 0 or bool(self.buffer)
                if not self.failed:
                    index.skipped += self.skipped
                return not self.failed
            self.buffer += data
            self._merge_frames(index)
        return False

    def _merge_frames(self, index: Index) -> None:
        at = 0
        while len(self.buffer) - at >= _FRAME.size:
            size = _FRAME.unpack_from(self.buffer, at)[0]
            if len(self.buffer) - at - _FRAME.size < size:
                break
            frame = _unpickled(bytes(self.buffer[at + _FRAME.size:at + _FRAME.size + size]))
            if frame is None:   # a damaged frame: the helper's part is read by the run
                self.failed = True
                return
            self.skipped += frame[-1]
            self.frames_left -= 1
            merge(index, *frame[:-1])
            at += _FRAME.size + size
        del self.buffer[:at]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


_CORRECT_VALUES = (None, False, True)   # `correct` sent as its place here: one table for the helper and the run
_CORRECT = {value: code for code, value in enumerate(_CORRECT_VALUES)}


def merge(index: Index, keys: list[str], statuses: list[str], codes: bytes, offsets: array.array[int],
           correct: bytes) -> None:
    """A helper's frame (its records in file order, a key perhaps more than once) onto the index: for a key seen
    twice, the better record (`better`)."""
    def entries() -> Iterator[Entry]:   # made in C, not by Entry's own __new__ (a Python function) a record
        return map(tuple.__new__, repeat(Entry), zip(map(statuses.__getitem__, codes), offsets,
                                                     map(_CORRECT_VALUES.__getitem__, correct)))
    if index.keys().isdisjoint(keys):   # the common case, every unit once: no set is made
        before = len(index)
        index.update(zip(keys, entries()))
        if len(index) - before == len(keys):
            return
        for key in keys:   # a key twice in the frame (a unit redone): undone (none was here before), merged below
            index.pop(key, None)
    get = index.get
    for key, entry in zip(keys, entries()):   # a unit redone: one by one
        old = get(key)
        if old is None or better(entry, old):
            index[key] = entry


def _unpickled(data: bytes) -> tuple[Any, ...] | None:
    """A frame's columns (see `part`), or None where it is damaged."""
    try:
        frame = pickle.loads(data)
    except Exception:   # damaged: the helper's part is read again by the run
        return None
    return frame if type(frame) is tuple and len(frame) == 6 else None


def part(fh: BinaryIO, typed: Typed, start: int, end: int) -> bytes | None:
    """The records of the lines that begin in [start, end), in columns (`columns`), each in file order (a key
    redone is there twice), and the skipped lines' count, pickled; None where they hold more distinct statuses
    than a code holds (a damaged log)."""
    rows: list[tuple[str, str, int, bool | None]] = []
    skipped = fill(fh, Index(), typed, start, end, rows).skipped
    got = columns(rows)
    return None if got is None else pickle.dumps((*got, skipped), protocol=pickle.HIGHEST_PROTOCOL)


def columns(rows: list[tuple[str, str, int, bool | None]]) -> snapshot.Columns | None:
    """(key, status, offset, correct) rows in columns: keys, the distinct statuses, a status code per row, offsets,
    correct as 0/1/2 (None, False, True); None where there are more distinct statuses than a code holds."""
    keys, status, offsets, correct = map(list, zip(*rows)) if rows else ([], [], [], [])
    statuses = list(dict.fromkeys(status))
    try:
        codes = bytes(map({s: i for i, s in enumerate(statuses)}.__getitem__, status))
    except ValueError:   # a code past 255
        return None
    return keys, statuses, codes, array.array("q", offsets), bytes(map(_CORRECT.__getitem__, correct))


def main(argv: list[str]) -> int:
    """A helper: the index of one part of a log, a frame of columns per slice, to stdout.
    Arguments: PATH START END KIND DEV:INODE [SLICE_BYTES]. Or, with `--keep PATH KIND`, keep_index of the log (a
    run's checkpoint, snapshot.Keeper): exit 0 where it was kept."""
    if argv[:1] == ["--keep"]:
        return 0 if keep_index(Path(argv[1]), KINDS[argv[2]]) else 1
    path, start, end, kind, ident = Path(argv[0]), int(argv[1]), int(argv[2]), argv[3], argv[4]
    step = int(argv[5]) if len(argv) > 5 else SLICE_BYTES
    out = sys.stdout.fileno()   # each frame written whole by write_all, not through sys.stdout's buffer
    with open_regular(path, "log") as fh:
        stat = os.fstat(fh.fileno())
        if f"{stat.st_dev}:{stat.st_ino}" != ident:   # not the file the run opened: let the run read it
            return 1
        typed = Typed(KINDS[kind])
        for at in range(start, end, step):
            data = part(fh, typed, at, min(at + step, end))
            if data is None:
                return 1
            write_all(out, _FRAME.pack(len(data)) + data)
    return 0


if __name__ == "__main__":
    gc.disable()   # a part's rows hold no cycles; a collection would rescan them as they grow
    sys.exit(main(sys.argv[1:]))
