"""The one door to the file system: what bench reads is a regular file of bounded size, and what it writes is
a file it owns, never through a symlink, never onto one of the command's own inputs, logs or other outputs.

- Reading: `open_regular` (a stream) and `read_whole` (a bounded file read at once) refuse a FIFO, a
  device or a folder before they can block or read forever.
- Writing: `atomic_output` (a whole file: a temporary beside it, renamed at the end), `open_append` (a
  log) and `open_lock` (a run's lock) open with O_NOFOLLOW; `Outputs` holds what one command reads and
  writes, so that no output lands on an input, a log or another output of the same command.
- Ownership: `mark` writes a folder's marker holding the folder's own identity (device and inode), so
  a copied or hand-made marker proves nothing; `owns` checks it.
Every failure to write is WriteFailed (one line, exit 3); every refusal is a UserError (one line, exit 2).
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

import orjson

from runner.errors import UserError, WriteFailed

MAX_WHOLE = 16 << 20   # a grid, a prompt, a marker: read whole, so bounded (16 MiB is far above any real one)
_MADE_BY = "logic-skeleton-bench"


def kind_of(mode: int) -> str:
    """What a file node is, in words (for a message)."""
    return ("a folder" if stat.S_ISDIR(mode) else "a symlink" if stat.S_ISLNK(mode) else "a FIFO"
            if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device or special file"
            if not stat.S_ISREG(mode) else "a regular file")


def open_regular(path: Path, what: str) -> BinaryIO:
    """Open a user's file for reading, only if it is a regular file (a symlink to one is fine): a FIFO or a
    device is refused before a read could block on it or never end. FileNotFoundError passes through."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # a FIFO with no writer would block the open itself
    except (FileNotFoundError, NotADirectoryError):
        raise
    except OSError as exc:
        raise UserError(f"{what} {path}: cannot read it ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UserError(f"{what} {path}: is {kind_of(mode)}, not a regular file")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb", buffering=1 << 20)
    except BaseException:
        os.close(fd)
        raise


def read_whole(path: Path, what: str, limit: int = MAX_WHOLE) -> bytes:
    """A user's regular file, read whole: refused (one line) when it is larger than `limit` bytes."""
    with open_regular(path, what) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise UserError(f"{what} {path}: larger than {limit >> 20} MiB; is it the right file?")
    return data


def node_mode(path: Path, what: str) -> int | None:
    """The mode of the node at `path` itself (a symlink is not followed); None when nothing is there."""
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UserError(f"{what} {path}: cannot use it ({exc.strerror})") from None


def _no_follow(path: Path, what: str) -> None:
    """Refuse a path whose last part is not a regular file (or absent): a rename over a symlink, a FIFO or a
    device would replace that node, and a folder cannot be replaced at all."""
    mode = node_mode(path, what)
    if mode is not None and not stat.S_ISREG(mode):
        raise UserError(f"{what} {path}: is {kind_of(mode)}, not a regular file; give a file path")


def check_output(path: Path, what: str) -> Path:
    """Refuse, before any work, an output path that is not a regular file or whose folder is missing (exit 2),
    or whose folder cannot be written to (WriteFailed: exit 3, the cause named)."""
    path = Path(path)
    _no_follow(path, what)
    parent = path.parent
    if not parent.is_dir():
        raise UserError(f"{what} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK):   # a failure to write, said before any work (exit 3, as a run's)
        code = errno.EROFS if os.statvfs(parent).f_flag & os.ST_RDONLY else errno.EACCES
        raise WriteFailed(f"{what} {path}", OSError(code, os.strerror(code)))
    return path


def output_temporary(path: Path, owner: int) -> Path:
    """The temporary atomic_output writes `path` through for the process `owner`."""
    return path.with_name(f".{path.name}.{owner}.tmp")


@contextlib.contextmanager
def atomic_output(path: Path, owner: int | None = None) -> Iterator[BinaryIO]:
    """Open a new temporary file beside `path` (never an existing node: O_EXCL, O_NOFOLLOW); rename it over
    `path` only if the block succeeds. The target is whole or as it was; a write failure is WriteFailed.
    The temporary is named by this process's pid, or by `owner`'s (a helper writing for it, so that what
    removes the owner's leftovers removes the helper's too)."""
    path = Path(path)
    _no_follow(path, "output")
    tmp = output_temporary(path, owner or os.getpid())
    with contextlib.suppress(OSError):
        tmp.unlink()   # ours, left by a killed process of the same pid (a link there goes, not what it points to)
    try:
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise WriteFailed(path, exc) from None
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            _no_follow(path, "output")   # the last step: nothing put a link in its place meanwhile
            os.replace(tmp, path)
        except OSError as exc:   # disk full, I/O error: the target is as it was
            raise WriteFailed(path, exc) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def remove_output(path: Path) -> None:
    """Remove an output an earlier command wrote that this one does not (gone already is fine); a failure is
    WriteFailed."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise WriteFailed(path, exc) from None


def _open_own(path: Path, flags: int, what: str) -> int:
    """A descriptor of a regular file bench keeps (made if absent): never through a symlink, never a FIFO or
    a device (opened without blocking, then checked)."""
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        with contextlib.suppress(OSError):
            mode = os.lstat(path).st_mode
            if not stat.S_ISREG(mode):
                raise UserError(f"{path}: is {kind_of(mode)} where a run keeps its {what}; move it away") from None
        raise WriteFailed(path, exc) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UserError(f"{path}: is {kind_of(mode)} where a run keeps its {what}; move it away")
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return fd


def open_append(path: Path) -> int:
    """A log's descriptor for appending (made if absent), never through a symlink."""
    return _open_own(path, os.O_WRONLY | os.O_APPEND, "log")


def open_lock(path: Path) -> int:
    """A lock file's descriptor (made if absent), never through a symlink."""
    return _open_own(path, os.O_RDWR, "lock")


def _identity(folder: Path) -> list[int]:
    st = os.stat(folder)
    return [st.st_dev, st.st_ino]


def mark(folder: Path, name: str) -> None:
    """Write the marker `name` that proves bench made (or took) `folder`: it names the folder's own device
    and inode, which a copied marker does not."""
    with atomic_output(folder / name) as fh:
        fh.write(orjson.dumps({"made_by": _MADE_BY, "folder": _identity(folder)}))


def mark_made(folder: Path, name: str, made: bool) -> None:
    """Mark `folder` as bench's (`mark`) unless it is already; a folder this command made (`made`) goes again
    where its marker cannot be written (a full disk), so that a command that wrote nothing leaves nothing."""
    if owns(folder, name):
        return
    try:
        mark(folder, name)
    except WriteFailed:
        if made:
            unmake(folder, name)
        raise


def unmake(folder: Path, name: str) -> None:
    """Remove a folder a command made, if it holds nothing but its marker `name` (or nothing at all)."""
    with contextlib.suppress(OSError):
        if {p.name for p in folder.iterdir()} <= {name}:
            (folder / name).unlink(missing_ok=True)
            folder.rmdir()


def owns(folder: Path, name: str) -> bool:
    """Whether `folder` holds a marker `name` that bench wrote for this very folder (not a copy, not a link)."""
    path = folder / name
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        got = orjson.loads(read_whole(path, "marker", 4096))
        return isinstance(got, dict) and got.get("made_by") == _MADE_BY and got.get("folder") == _identity(folder)
    except (OSError, UserError, orjson.JSONDecodeError):
        return False


RUN_LOGS = ("renders.jsonl", "solves.jsonl", "calibration.jsonl")   # every log a run folder holds
RUN_MARKER = ".bench-run"   # made first in a folder a run (or `bench serve`) claims: it is ours from then on
REPORT_MARKER = ".bench-report"   # a folder a report wrote into: later reports may write there again
BUNDLE_MARKER = ".bench-view"   # a bundle folder bench made: a later bundle may write there again
_RUN_GRIDS = ("grid.json", "grid.yaml")   # the grid a run saved, and the copy of the file it ran
_RUN_FOLDERS = ("grids", "servers")   # a run folder's own subfolders (every grid it ran; its servers' logs)


def run_file(path: Path) -> bool:
    """Whether `path` is a file bench keeps for itself, which no command's output may replace: in a run folder (its
    marker or grid.json there, even copied from another machine) a log, its grid, a hidden file (marker, lock,
    manifest, settled counts) or anything under its grids/, servers/ or a hidden folder (a report's plan); in a
    report's or a bundle's folder, its hidden files (the marker that lets the next one write there)."""
    parent = path.parent
    if path.name.startswith(".") and any(os.path.lexists(parent / m) for m in (REPORT_MARKER, BUNDLE_MARKER)):
        return True
    if (path.name in RUN_LOGS or path.name in _RUN_GRIDS or path.name.startswith(".")) and _run_folder(parent):
        return True
    try:
        chain = Path(path).resolve().parents
    except (OSError, RuntimeError):   # RuntimeError: a symlink loop (check_output says what is wrong with it)
        return False
    return any((inner.name in _RUN_FOLDERS or inner.name.startswith(".")) and _run_folder(outer)
               for inner, outer in zip(chain, chain[1:]))


def _run_folder(folder: Path) -> bool:
    return os.path.lexists(folder / RUN_MARKER) or os.path.isfile(folder / "grid.json")


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: one resolved path, or one device and inode."""
    try:
        if Path(a).resolve() == Path(b).resolve():
            return True
        sa, sb = os.stat(a), os.stat(b)
        return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    except (OSError, RuntimeError):   # RuntimeError: a symlink loop
        return False


class Outputs:
    """What one command reads and writes: an output may not be one of its inputs or logs, nor another of its
    outputs (`bench report RUN --csv RUN/solves.jsonl` would replace the run's log)."""

    def __init__(self, protected: Iterable[tuple[Path, str]] = ()):
        self._protected: list[tuple[Path, str]] = list(protected)
        self._claimed: list[tuple[Path, str]] = []

    def protect(self, path: Path, what: str) -> None:
        """Say that `path` is read by this command (`what` names it in a refusal)."""
        self._protected.append((Path(path), what))

    def claim(self, path: Path, what: str) -> Path:
        """Take `path` as an output named `what`: checked (check_output), and refused if it is an input, a log
        or another output of this command."""
        path = check_output(path, what)
        for other, name in self._protected + self._claimed:
            if same_file(path, other):
                raise UserError(f"{what} {path}: is {name}; give another path")
        if run_file(path):
            raise UserError(f"{what} {path}: is a file bench keeps in {path.parent}; give another path")
        self._claimed.append((path, what))
        return path
