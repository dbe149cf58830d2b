"""Files that appear whole or not at all: write beside the target, rename at the end."""
from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import BinaryIO, Iterator

from runner.errors import UserError, WriteFailed


def check_output(path: Path, what: str) -> Path:
    """Refuse, before any work, an output path whose folder is missing or that is not a regular file.

    A rename over a FIFO, a symlink or a device would replace that node with a plain file, and a
    directory cannot be replaced at all; `what` names the option in the message (e.g. `--output`).
    """
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise UserError(f"{what} {path}: cannot use it ({exc.strerror})") from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a symlink" if stat.S_ISLNK(mode)
                else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device or special file")
        raise UserError(f"{what} {path}: is {kind}, not a regular file; give a file path")
    parent = path.parent
    if not parent.is_dir():
        raise UserError(f"{what} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise UserError(f"{what} {path}: folder {parent} is not writable")
    return path


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """Open a temporary file beside `path`; rename it over `path` only if the block succeeds."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        try:
            fh = open(tmp, "wb")
        except OSError as exc:
            raise UserError(f"{path}: cannot write here ({exc.strerror})") from None
        try:
            with fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except OSError as exc:   # disk full, I/O error: the target is as it was
            raise WriteFailed(path, exc) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
