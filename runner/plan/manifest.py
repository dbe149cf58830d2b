"""Which skeleton a run folder's source holds at each index, kept as the run prepares them: a resume knows a
skeleton's unit keys (they hash its identity, nothing else of it) without making or reading it again, and a
report its family and number of answer options (the chance level) too.

The manifest is named by a stamp of everything that decides the skeleton at an index (the grid's source
block, the skeleton file's bytes, the code that makes and reads skeletons): another source, another file,
or changed code reads another manifest (none, at first), so an index's identity there is always the one
the source would give now. It is only a shortcut: an index it does not hold (a line lost to a crash, a
run that never got there) is made as before.
"""
from __future__ import annotations

import fcntl
import functools
import hashlib
import os
from pathlib import Path
from typing import Iterator, NamedTuple

import orjson
import xxhash

from runner.children import write_all
from runner.config.grid import Grid
from runner.errors import WriteFailed
from runner.store.guard import open_append, open_regular

_ROOT = Path(__file__).resolve().parent.parent.parent
# What makes skeletons (families, the generation plan, the reader) and unit keys (the plan, the grid's stage
# identities, the records' hashing), with what they import: any change of a file there retires every stamp.
_CODE = ("families", "rendering", "providers", "runner")


@functools.cache
def code_stamp() -> str:
    """A hash of the code's files (their paths and bytes) that make skeletons and keys; made once a process."""
    h = hashlib.sha256()
    for package in _CODE:
        for path in sorted((_ROOT / package).rglob("*.py")):
            h.update(str(path.relative_to(_ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def bytes_stamp(path: Path) -> str | None:
    """A 128-bit hash of a regular file's bytes (XXH3-128: 5 GB/s, the speed of reading them, where SHA-256 is 1.4
    GB/s; a witness of any change, not of a forgery: whoever can forge a log can edit the stamp beside it); None
    where there is no file. A FIFO, a device or a folder is refused (UserError) before a read could block on it."""
    h = xxhash.xxh3_128()
    try:
        fh = open_regular(path, "file")
    except (FileNotFoundError, NotADirectoryError):
        return None
    with fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


@functools.cache
def _source_stamp(source_json: bytes, path: str | None) -> str:
    h = hashlib.sha256(source_json + b"\0" + code_stamp().encode())
    if path:
        h.update(b"\0" + (bytes_stamp(Path(path)) or "").encode())
    return h.hexdigest()[:24]


def path_for(folder: Path, grid: Grid) -> Path:
    """The manifest of this grid's source, as the code and the skeleton file are now."""
    source = orjson.dumps(orjson.loads(grid.to_json())["source"], option=orjson.OPT_SORT_KEYS)
    return folder / f".skeletons-{_source_stamp(source, grid.source.path)}"


class Noted(NamedTuple):
    """What the manifest keeps of a skeleton: its index in the source, identity, family and answer options' count."""

    source_index: int
    identity: str
    family: str
    options: int


def read(path: Path) -> Iterator[Noted]:
    """The skeleton of each whole line; torn or damaged lines are passed over."""
    try:
        fh = open_regular(path, "manifest")
    except (FileNotFoundError, NotADirectoryError):
        return
    with fh:
        for line in fh:
            if not line.endswith(b"\n"):
                continue
            try:
                got = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if type(got) is list and len(got) == 4 and [type(x) for x in got] == [int, str, str, int] and got[3] > 0:
                yield Noted(*got)


class Writer:
    """Appends a line a skeleton (`Noted`), a batch in one write(); a torn last line is closed off first."""

    def __init__(self, path: Path):
        self.path = path
        self.fd: int | None = None

    def add(self, notes: list[Noted]) -> None:
        """Note these skeletons."""
        if not notes:
            return
        try:
            if self.fd is None:
                self.fd = open_append(self.path)
                size = os.fstat(self.fd).st_size
                if size:
                    with open_regular(self.path, "manifest") as fh:
                        fh.seek(size - 1)
                        torn = fh.read(1) != b"\n"
                    if torn:   # a crash cut the last line: it stays one bad line, never glued to ours
                        write_all(self.fd, b"\n")
            write_all(self.fd, b"".join(orjson.dumps(tuple(note)) + b"\n" for note in notes))
        except OSError as exc:
            raise WriteFailed(self.path, exc) from None

    def close(self) -> None:
        """Close the file (its lines are the kernel's already)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def written_whole(path: Path, notes: Iterator[Noted]) -> Iterator[Noted]:
    """`notes`, passed on as they are noted, a batch a write, in a new manifest at `path` put in place once all are:
    written under a name of this process's own (shards of one run may write one at once), held locked, then renamed.
    One cut short (an error, an interrupt) leaves none and no part of one; the part of a writer killed outright
    (SIGKILL: no cleanup runs) is removed by the next one, as no process holds it any more."""
    _sweep_parts(path.parent)
    part = path.with_name(f"{path.name}.new-{os.getpid()}")   # one this pid left before, no one holds: swept
    writer = Writer(part)
    whole = False
    try:
        writer.fd = _held(part)
        for batch in _batches(notes):
            writer.add(batch)
            yield from batch
        try:
            os.replace(part, path)
        except OSError as exc:
            raise WriteFailed(path, exc) from None
        whole = True
    finally:
        writer.close()
        if not whole:
            part.unlink(missing_ok=True)


_BATCH = 4096   # skeletons noted a write
_PARTS = ".skeletons-*.new-*"   # every manifest's parts (path_for's names, then written_whole's suffix)


def _held(part: Path) -> int:
    """`part` made and locked (exclusive) for as long as its descriptor is open: the lock vanishes with the process,
    SIGKILL included. Made again where a sweep removed it between its making and its locking."""
    while True:
        try:
            fd = open_append(part)
        except OSError as exc:
            raise WriteFailed(part, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_ino == os.stat(part).st_ino:
                return fd
        except FileNotFoundError:
            pass   # swept between its making and its locking: made again
        except OSError as exc:   # no lock to be had (ENOLCK on some network mounts): its descriptor closed too
            os.close(fd)
            raise WriteFailed(part, exc) from None
        os.close(fd)


def _sweep_parts(folder: Path) -> None:
    """Remove every manifest part in `folder` that no process holds: its writer was killed before it could."""
    for part in folder.glob(_PARTS):
        try:
            fd = os.open(part, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            part.unlink(missing_ok=True)   # locked by us: its writer is gone, and one making it anew checks its inode
        except BlockingIOError:
            pass   # a writer at work
        except OSError:
            pass   # no lock to be had here (ENOLCK on some network mounts): whether one holds it is unknown, so kept
        finally:
            os.close(fd)


def _batches(notes: Iterator[Noted]) -> Iterator[list[Noted]]:
    batch: list[Noted] = []
    for note in notes:
        batch.append(note)
        if len(batch) == _BATCH:
            yield batch
            batch = []
    yield batch
