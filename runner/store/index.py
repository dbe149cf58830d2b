"""The resume index of a log: key -> its best record's status, offset and correctness.

One pass over a small log; a big one is read in parts on every core: the run reads the first part,
helper processes (`python -m runner.store.index`) the others, each sending back its part's index in
columns; the parts are merged in file order by the same rule (the newest terminal record wins), which
gives what one pass gives: that rule keeps, of any run of records of a key, the last terminal one, else
the last one, so a part's result stands for all its records of that key."""
from __future__ import annotations

import array
import gc
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson

from runner.children import cores, die_with_parent
from runner.store.guard import open_regular
from runner.store.logs import CALIBRATION_FIELDS, RENDER_FIELDS, SOLVE_FIELDS, TERMINAL, Typed

PART_BYTES = 32 << 20   # a log part a helper is started for (a helper's start-up is ~0.1 s: ~25 MB of records)
MOST_PARTS = 16
KINDS = {"render": RENDER_FIELDS, "solve": SOLVE_FIELDS, "calibration": CALIBRATION_FIELDS}
_STATUS_CODES = 250   # distinct statuses a part may send (there are six): more is a damaged log, read here


@dataclass(slots=True)
class Entry:
    """What the index keeps of a unit: its best status, where that record starts, and `correct`."""

    status: str
    offset: int
    correct: bool | None = None


class Index(dict):
    """key -> Entry, and how many non-empty lines were skipped (torn, damaged or foreign)."""

    skipped: int = 0


def load_index(path: Path, fields: dict[str, type | tuple[type, ...]]) -> Index:
    """key -> Entry: the newest terminal record wins, over `error` ones; errors stay retryable; lines that are
    not whole records with `fields` (torn, damaged, glued, foreign, a field of another type) are skipped and
    counted, so their units are redone: exactly the lines `status` and `report` skip too.

    A big log is read in parts on as many cores as it has parts for."""
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
            return _load(fh, path, fields, index)
    finally:
        if paused:
            gc.enable()


def fill(fh, index: Index, typed: Typed, start: int = 0, end: int | None = None) -> Index:
    """Read into `index` the lines of `fh` that begin at offsets in [start, end) (the body of load_index)."""
    get, loads, decode_error, terminal = index.get, orjson.loads, orjson.JSONDecodeError, TERMINAL
    # Typed's check, inlined (a million calls): its getter's values also give key, status and correct
    fields, types_ok = typed.get, typed.ok
    at = typed.names.index("correct") if "correct" in typed.names else None
    offset = 0
    if start:   # the part begins with the first line that begins at `start` or after
        fh.seek(start - 1)
        offset = start - 1 + len(fh.readline())
    for line in fh:
        if end is not None and offset >= end:
            break
        begin = offset
        offset += len(line)
        try:
            rec = loads(line)
        except decode_error:
            index.skipped += line != b"\n"
            continue
        try:
            values = fields(rec)
        except (KeyError, TypeError):   # a field missing, or not an object
            index.skipped += 1
            continue
        if tuple(map(type, values)) not in types_ok:
            index.skipped += 1
            continue
        key, status = values[0], values[1]
        old = get(key)
        # supersedes(), inlined: the newest terminal record wins (after a damaged line, its redone unit).
        if old is None or status in terminal or old.status not in terminal:
            correct = values[at] if at is not None else rec.get("correct")
            index[key] = Entry(status, begin, correct if type(correct) is bool else None)
    return index


def parts_for(size: int, cores: int) -> int:
    """How many parts a log of `size` bytes is read in: one per core, none smaller than PART_BYTES."""
    return max(1, min(cores, size // PART_BYTES, MOST_PARTS))


def _load(fh, path: Path, fields: dict, index: Index) -> Index:
    """The index of the open log `fh` (at `path`), in parts where it is big and the machine has cores."""
    kind = next((k for k, f in KINDS.items() if f is fields), None)
    stat = os.fstat(fh.fileno())
    n = parts_for(stat.st_size, cores()) if kind is not None else 1
    typed = Typed(fields)
    if n == 1:
        return fill(fh, index, typed)
    # equal parts: a helper's start-up and its columns take about what merging its part takes here
    bounds = [stat.st_size * i // n for i in range(n + 1)]
    helpers = []
    try:
        for i in range(1, n):   # started first: they read their parts while this process reads the first
            helpers.append(subprocess.Popen(
                [sys.executable, "-m", "runner.store.index", str(path), str(bounds[i]), str(bounds[i + 1]),
                 kind, f"{stat.st_dev}:{stat.st_ino}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                preexec_fn=die_with_parent))
        fill(fh, index, typed, 0, bounds[1])
        for i, proc in enumerate(helpers, 1):
            out, _ = proc.communicate()
            part = _columns(out) if proc.returncode == 0 else None
            if part is None:   # the helper failed (or the file changed under it): its part is read here
                fill(fh, index, typed, bounds[i], bounds[i + 1])
            else:
                _merge(index, *part)
    finally:
        for proc in helpers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return index


def _merge(index: Index, keys: list, statuses: list, codes: bytes, offsets: array.array, correct: bytes,
           skipped: int) -> None:
    """A later part's index onto the earlier parts': the rule load_index applies line by line."""
    values = (None, False, True)
    entries = list(map(Entry, map(statuses.__getitem__, codes), offsets, map(values.__getitem__, correct)))
    both = index.keys() & keys
    if both:   # keys of both parts (a unit redone later in the log): the rule, one by one
        get, terminal = index.get, TERMINAL
        for key, entry in zip(keys, entries):
            if key in both:
                old = get(key)
                if entry.status in terminal or old.status not in terminal:
                    index[key] = entry
        index.update((k, e) for k, e in zip(keys, entries) if k not in both)
    else:   # the common case: every unit once, in one part
        index.update(zip(keys, entries))
    index.skipped += skipped


def _columns(data: bytes) -> tuple | None:
    try:
        part = pickle.loads(data)
    except Exception:   # a helper that died mid-write: its part is read again here
        return None
    return part if type(part) is tuple and len(part) == 6 else None


def main(argv: list[str]) -> int:
    """A helper: the index of one part of a log, in columns, pickled to stdout."""
    path, start, end, kind, ident = Path(argv[0]), int(argv[1]), int(argv[2]), argv[3], argv[4]
    index = Index()
    with open_regular(path, "log") as fh:
        stat = os.fstat(fh.fileno())
        if f"{stat.st_dev}:{stat.st_ino}" != ident:   # not the file the run opened: let the run read it
            return 1
        fill(fh, index, Typed(KINDS[kind]), start, end)
    statuses: dict[str, int] = {}
    codes, offsets, correct = bytearray(), array.array("q"), bytearray()
    for entry in index.values():
        code = statuses.setdefault(entry.status, len(statuses))
        if code >= _STATUS_CODES:
            return 1
        codes.append(code)
        offsets.append(entry.offset)
        correct.append(0 if entry.correct is None else 2 if entry.correct else 1)
    sys.stdout.buffer.write(pickle.dumps((list(index), list(statuses), bytes(codes), offsets, bytes(correct), index.skipped),
                                         protocol=pickle.HIGHEST_PROTOCOL))
    return 0


if __name__ == "__main__":
    gc.disable()   # the part's index holds no cycles; a collection would rescan it as it grows
    sys.exit(main(sys.argv[1:]))
