"""The run lock (runner/store/lock.py): one whole run or the shards of one split work on a folder, a second is told
who holds it, a holder SIGKILLed leaves the folder free, and a file system without locks is one line; real
processes hold the locks."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.store.lock import RunLock

ROOT = Path(__file__).resolve().parent.parent

# A process that takes the run lock (whole, or the shard given as i/n), says so, and holds it until a line on stdin
HOLDER = """
import sys
from pathlib import Path
from runner.store.lock import RunLock
shard = tuple(map(int, sys.argv[2].split("/"))) if len(sys.argv) > 2 else None
with RunLock(Path(sys.argv[1]), shard):
    print("held", flush=True)
    sys.stdin.readline()
"""


def _holder(folder: Path, *shard: str) -> subprocess.Popen:
    """A process holding `folder`'s lock, returned once it holds it."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), *shard], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def _stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()
        if proc.stdout is not None:
            proc.stdout.close()


def _refused(folder: Path, shard: tuple[int, int] | None) -> str:
    with pytest.raises(UserError) as refused:
        with RunLock(folder, shard):
            pass
    return str(refused.value)


def test_a_whole_run_keeps_out_every_other_and_a_sigkill_frees_the_folder(tmp_path):
    holder = _holder(tmp_path)
    try:
        for shard in (None, (0, 2)):
            said = _refused(tmp_path, shard)
            assert f"{tmp_path} is in use by process {holder.pid} on " in said and "--shard i/n" in said
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        with RunLock(tmp_path, None):   # the lock went with its process; its note is ours now
            assert f"process {os.getpid()} on " in (tmp_path / ".lock").read_text()
        assert (tmp_path / ".lock").read_text() == ""   # let go: no holder named
    finally:
        _stop(holder)


def test_shards_of_one_split_work_together_and_keep_out_the_rest(tmp_path):
    first = _holder(tmp_path, "0/2")
    try:
        with RunLock(tmp_path, (1, 2)):   # the other shard of the same split
            assert (tmp_path / ".lock-shard-1-of-2").read_text().endswith("shard 1/2")
        assert "shards of another split are running" in _refused(tmp_path, (0, 3))
        assert f"in use by process {first.pid} on " in _refused(tmp_path, (0, 2))   # the same shard twice
        whole = _refused(tmp_path, None)
        assert f"in use by process {first.pid} on " in whole and whole.count("shard 0/2") == 1
    finally:
        _stop(first)


def test_a_file_system_without_locks_is_one_line_and_leaks_nothing(tmp_path, no_locks):
    """flock fails with ENOLCK (some network mounts): the run stops (before its logs are read or written) in one
    line that says why and what to do, its lock file's descriptor closed."""
    for shard in (None, (0, 2)):
        open_before = sorted(os.listdir("/proc/self/fd"))
        said = _refused(tmp_path, shard)
        assert said == (f"{tmp_path}: cannot lock .lock (No locks available): its file system gives no locks; "
                        "put the run folder on a local disk")
        assert sorted(os.listdir("/proc/self/fd")) == open_before
