"""Child processes: the one preexec function every helper and server starts with (none outlives bench), how
many cores helpers may share, and the pipes helpers stream through (and how to write to one whole)."""
from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import signal

_PR_SET_PDEATHSIG = 1

_LIBC: ctypes.CDLL | None
try:   # loaded here, not in the forked child: a dlopen() there could wait on a lock held by a thread
    _LIBC = ctypes.CDLL(None, use_errno=True)
except OSError:   # pragma: no cover - not Linux
    _LIBC = None


def die_with_parent() -> None:
    """In a child, before exec: get SIGTERM when `bench` dies, even by SIGKILL (Linux), so no orphan
    keeps a port or a pipe."""
    if _LIBC is None:   # not Linux: no parent-death signal to ask for
        return
    with contextlib.suppress(Exception):
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def cores() -> int:
    """The cores this process may run on (its affinity, where the OS says)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


PIPE_BYTES = 1 << 20   # a helper's pipe: its kernel buffer holds a few frames, so the helper seldom waits


def widen_pipe(fd: int) -> None:
    """Grow a pipe's kernel buffer (64 KiB by default, a frame or two) to PIPE_BYTES, so reads are few and large."""
    try:
        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except OSError:   # above /proc/sys/fs/pipe-max-size, or not Linux: the default works, with more waits
        pass


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to a file descriptor (a helper's pipe, a run's log), however often the write is
    cut short.

    A process stopped and continued (SIGSTOP and SIGCONT: a scheduler's suspend, Ctrl-Z, a profiler
    attaching) while blocked on a full pipe gets a partial write back. Python 3.11's buffered writer,
    given a write larger than its buffer, then drops the rest of it (measured: a helper's frames came
    out torn and the run stopped on an unpickling error), so frames go to the file descriptor here."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
