"""The run lock: who works on a run folder (one whole run, or shards i/n), and who holds it, as its files say."""
from __future__ import annotations

import fcntl
import os
import socket
import sys
from pathlib import Path

from runner.errors import UserError, printable
from runner.store.guard import open_lock, read_whole


class RunLock:
    """Who works on a run folder: one whole run (exclusive), or shards i/n (shared + one lock per shard).

    flock locks vanish with their process, SIGKILL included, so a crash never leaves the folder locked.
    """

    def __init__(self, folder: Path, shard: tuple[int, int] | None):
        self.folder, self.shard = folder, shard
        self._fds: list[int] = []

    def _holders(self) -> str:
        notes = []
        for path in sorted(self.folder.glob(".lock*")):
            text = _note(path)
            if text and locked(path):
                notes.append(text)
        return "; ".join(notes) or "another process"

    def _take(self, name: str, mode: int, note: str) -> None:
        fd = open_lock(self.folder / name)   # a read-only folder, a full disk, a link: one line, nothing touched
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UserError(f"{self.folder} is in use by {self._holders()}; wait for it to finish, stop it, "
                            "or split the work between processes with --shard i/n") from None
        except OSError as exc:   # ENOLCK: a file system that gives no locks (some network mounts)
            os.close(fd)
            raise UserError(f"{self.folder}: cannot lock {name} ({exc.strerror}): its file system gives no locks; "
                            "put the run folder on a local disk") from None
        if mode == fcntl.LOCK_EX:
            os.ftruncate(fd, 0)
            os.pwrite(fd, note.encode(), 0)
        self._fds.append(fd)

    def __enter__(self) -> "RunLock":
        who = f"process {os.getpid()} on {socket.gethostname()} ({' '.join(sys.argv[:4])})"
        try:
            if self.shard is None:
                self._take(".lock", fcntl.LOCK_EX, who)
            else:
                i, n = self.shard
                self._take(".lock", fcntl.LOCK_SH, "")
                for other in self.folder.glob(".lock-shard-*-of-*"):
                    if not other.name.endswith(f"-of-{n}") and locked(other):
                        raise UserError(f"{self.folder}: shards of another split are running "
                                        f"({_note(other)}); use the same n")
                self._take(f".lock-shard-{i}-of-{n}", fcntl.LOCK_EX, f"{who}, shard {i}/{n}")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in reversed(self._fds):
            os.ftruncate(fd, 0) if _holds_exclusive(fd) else None
            os.close(fd)
        self._fds.clear()


def _note(path: Path) -> str:
    """Who holds a lock, as its file says (empty if it cannot be read as one of ours)."""
    try:
        return printable(read_whole(path, "lock", 4096).decode(errors="replace").strip())
    except (OSError, UserError):
        return ""


def locked(path: Path) -> bool:
    """Whether some process holds an exclusive lock on `path` (we cannot take a shared one)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    except OSError:   # no locks on this file system: no one can hold one
        return False
    finally:
        os.close(fd)


def _holds_exclusive(fd: int) -> bool:
    """Whether we alone hold `fd`'s lock (a shared lock that others share too is not ours to clear)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # upgrading our own lock succeeds only if alone
        return True
    except OSError:   # others hold it too (or, unknowable, no locks here): its note is left
        return False
