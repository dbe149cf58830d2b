"""The skeleton manifest written whole (`manifest.written_whole`): the part of a writer killed outright is swept by
the next writer, the part of a writer at work is left to it; real processes, SIGKILLed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from runner.errors import WriteFailed
from runner.plan.manifest import Noted, read, written_whole

ROOT = Path(__file__).resolve().parent.parent

# A writer that notes a first batch of skeletons, says so, and waits for a line on stdin before it notes the rest
WRITER = """
import sys
from pathlib import Path
from runner.plan.manifest import Noted, written_whole
notes = written_whole(Path(sys.argv[1]), (Noted(i, f"{i:032x}", "transitive_order", 3) for i in range(5000)))
next(notes)
print("noted", flush=True)
sys.stdin.readline()
for _ in notes:
    pass
"""


def _writer(target: Path) -> subprocess.Popen:
    """A writer of `target`, returned once its first batch is in its part (it said so)."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "noted\n"
    return proc


def test_a_killed_writers_part_is_swept_by_the_next_writer_and_a_working_writers_is_kept(tmp_path):
    killed, working = _writer(tmp_path / ".skeletons-a"), _writer(tmp_path / ".skeletons-b")
    try:
        parts = {p.name for p in tmp_path.glob(".skeletons-*.new-*")}
        assert parts == {f".skeletons-a.new-{killed.pid}", f".skeletons-b.new-{working.pid}"}
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        assert (tmp_path / f".skeletons-a.new-{killed.pid}").stat().st_size > 0   # left behind: no cleanup ran
        ours = [Noted(i, f"{i:032x}", "equality", 2) for i in range(10)]
        assert list(written_whole(tmp_path / ".skeletons-c", iter(ours))) == ours
        assert list(read(tmp_path / ".skeletons-c")) == ours
        assert {p.name for p in tmp_path.glob(".skeletons-*.new-*")} == {f".skeletons-b.new-{working.pid}"}
        working.communicate("go\n", timeout=120)   # the working writer goes on, its part untouched, and finishes
        assert working.returncode == 0
        assert [n.source_index for n in read(tmp_path / ".skeletons-b")] == list(range(5000))
        assert list(tmp_path.glob(".skeletons-*.new-*")) == []
    finally:
        for proc in (killed, working):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_where_no_lock_can_be_had_the_writer_fails_in_one_line_and_keeps_what_was_there(tmp_path, request):
    """A folder whose file system gives no locks (flock fails with ENOLCK, as on some network mounts): the sweep
    leaves a part it cannot tell is held, and the writer stops with WriteFailed (one line, exit 3), its descriptor
    closed and its own part removed; the manifest already there is untouched."""
    kept = [Noted(i, f"{i:032x}", "equality", 2) for i in range(3)]
    assert list(written_whole(tmp_path / ".skeletons-a", iter(kept))) == kept
    stale = tmp_path / ".skeletons-b.new-999999"
    stale.write_bytes(b"someone's part")

    request.getfixturevalue("no_locks")   # from here on: the manifest above was written with locks
    open_before = sorted(os.listdir("/proc/self/fd"))
    with pytest.raises(WriteFailed) as failed:
        list(written_whole(tmp_path / ".skeletons-a", iter([Noted(9, "f" * 32, "equality", 2)])))
    assert ".skeletons-a.new-" in str(failed.value) and "\n" not in str(failed.value)
    assert sorted(os.listdir("/proc/self/fd")) == open_before
    assert list(read(tmp_path / ".skeletons-a")) == kept
    assert stale.read_bytes() == b"someone's part"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".skeletons-a", stale.name]
