"""A log's resume index kept beside it: the index of its first S bytes in columns, with their XXH3-128 hash, read
back where those bytes are unchanged (the rest of the log, what was appended since, is read as lines), so a resume
of a big log reads a file of columns, not a million lines. Written by a whole run at its end (commands/run.py) and
every few minutes while it runs (Keeper), so a resume after a crash reads the lines since the last; any change to
those bytes (a log edited, cut or replaced) and the log is read whole, as before."""
from __future__ import annotations

import array
import functools
import hashlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import BinaryIO

import msgspec
import orjson
import xxhash

from runner.children import die_with_parent
from runner.errors import UserError, WriteFailed
from runner.store.guard import atomic_output, open_regular

# A log's index in columns, as index.py merges them: keys, the distinct statuses, a status code per key, offsets,
# `correct` codes (0, 1, 2: None, False, True)
Columns = tuple[list[str], list[str], bytes, "array.array[int]", bytes]

FORMAT = 1
PREFIX = ".index-"   # + the log's name, its kind (index.KINDS: the fields read) and the stamp of the code
_CODE = ("index.py", "index_decode.py", "logs.py", "records.py", "snapshot.py")   # the index's rule, and this


@functools.cache
def _stamp() -> str:
    """A stamp of the code whose rule the index follows: another version's snapshot is never read."""
    # the decoders' versions too: which lines they take is the rule (index_decode.py)
    h = hashlib.sha256(f"{FORMAT} {orjson.__version__} {msgspec.__version__}".encode())
    for name in _CODE:
        h.update((Path(__file__).parent / name).read_bytes())
    return h.hexdigest()[:16]


def path_for(log: Path, kind: str) -> Path:
    """Where this code keeps the snapshot of `log`'s index read as a log of `kind` (its fields)."""
    return log.parent / f"{PREFIX}{log.name}-{kind}-{_stamp()}"


def prefix_hash(fh: BinaryIO, size: int) -> str | None:
    """The XXH3-128 of the open file's first `size` bytes; None where it holds fewer."""
    h, left = xxhash.xxh3_128(), size
    fh.seek(0)
    while left:
        chunk = fh.read(min(left, 4 << 20))
        if not chunk:
            return None
        h.update(chunk)
        left -= len(chunk)
    return h.hexdigest()


def save(log: Path, kind: str, fh: BinaryIO, size: int, columns: Columns, skipped: int) -> bool:
    """Keep the index of the first `size` bytes of the open log `fh` of `kind` (`columns`, its skipped lines' count)
    beside the log, another code's snapshot of it removed; False where it is not kept: those bytes do not end
    with a newline (a torn tail is no place to read on from), or the folder cannot be written."""
    fh.seek(max(size - 1, 0))
    if size == 0 or fh.read(1) != b"\n":
        return False
    digest = prefix_hash(fh, size)
    keys, statuses, codes, offsets, correct = columns
    parts = [orjson.dumps(keys), orjson.dumps(statuses), codes, offsets.tobytes(), correct]
    head = {"format": FORMAT, "size": size, "hash": digest, "skipped": skipped, "parts": list(map(len, parts))}
    rest = [orjson.dumps(head) + b"\n", *parts]
    target = path_for(log, kind)
    try:
        with atomic_output(target) as out:
            out.write(_check(rest).encode() + b"\n")   # a snapshot damaged anywhere is never read as another
            for data in rest:
                out.write(data)
        for old in log.parent.glob(f"{PREFIX}{log.name}-{kind}-*"):
            if old != target and len(old.name) == len(target.name) and old.is_file():
                old.unlink()
    except (OSError, WriteFailed):
        return False
    return True


def load(log: Path, kind: str, fh: BinaryIO) -> tuple[Columns, int, int] | None:
    """The kept index of the open log's first S bytes, read as `kind` (its columns, skipped lines' count), and S,
    where they are the bytes it was kept of; else None (no snapshot, another code's, a damaged one, or those bytes
    changed): the log is read whole."""
    try:
        # a FIFO there is refused, never waited on; no snapshot is bigger than the log it indexes (an entry is
        # shorter than its line), so one that is, or a link to an endless file, is not read whole
        limit = os.fstat(fh.fileno()).st_size + 4096
        with open_regular(path_for(log, kind), "kept index") as kept:
            whole = kept.read(limit + 1)
        if len(whole) > limit:
            return None
        check = whole.index(b"\n")
        data = memoryview(whole)[check + 1:]
        if _check([data]).encode() != whole[:check]:
            return None
        end = whole.index(b"\n", check + 1) - check - 1
        head = orjson.loads(data[:end])
        size, sizes, skipped = head["size"], head["parts"], head["skipped"]
        if (head["format"] != FORMAT or type(size) is not int or size < 1 or type(skipped) is not int
                or skipped < 0 or os.fstat(fh.fileno()).st_size < size or len(sizes) != 5
                or any(type(n) is not int or n < 0 for n in sizes) or sum(sizes) != len(data) - end - 1):
            return None
        cut, at = [], end + 1
        for n in sizes:
            cut.append(bytes(data[at:at + n]))
            at += n
        columns = _columns(cut, size)
    except (OSError, UserError, ValueError, KeyError, TypeError, IndexError, orjson.JSONDecodeError):
        return None
    if columns is None or prefix_hash(fh, size) != head["hash"]:
        return None
    return columns, skipped, size


def _check(parts: list[bytes] | list[memoryview]) -> str:
    """The XXH3-128 of what a snapshot holds after its first line (its head and columns), as written."""
    h = xxhash.xxh3_128()
    for data in parts:
        h.update(data)
    return h.hexdigest()


def _columns(cut: list[bytes], size: int) -> Columns | None:
    """The columns a snapshot holds, where they are whole and consistent (else None: a damaged snapshot)."""
    keys, statuses, codes, raw, correct = orjson.loads(cut[0]), orjson.loads(cut[1]), cut[2], cut[3], cut[4]
    offsets = array.array("q")
    offsets.frombytes(raw)
    n = len(keys)
    if not (type(keys) is list and type(statuses) is list and all(type(s) is str for s in statuses)
            and all(type(k) is str for k in keys) and len(codes) == len(correct) == len(offsets) == n
            and (not n or max(codes) < len(statuses) and max(correct) <= 2
                 and 0 <= min(offsets) and max(offsets) < size)):
        return None
    return keys, statuses, codes, offsets, correct


class Keeper:
    """A run's checkpoints of its logs' index: every `every` seconds, where the logs hold `least` bytes or more and
    grew since, a helper process keeps each log's index (index.keep_index: the last kept index and the lines since),
    so a resume after a crash reads the lines since the last checkpoint, not every line. Stopped (its helper let
    finish, so that no temporary is left) before the run's end step."""

    def __init__(self, logs: dict[Path, str], every: float, least: int):
        self.logs, self.every, self.least = logs, every, least
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="bench-keeper", daemon=True)

    def __enter__(self) -> Keeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        seen: list[int] = []
        while not self._stop.wait(self.every):
            sizes = [_size(path) for path in self.logs]
            if sum(sizes) < self.least or sizes == seen:
                continue
            seen = sizes
            for path, kind in self.logs.items():
                if self._stop.is_set():
                    return
                subprocess.run([sys.executable, "-m", "runner.store.index", "--keep", str(path), kind],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=die_with_parent, check=False)


def _size(path: Path) -> int:
    """A log's size (0 where there is none)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
