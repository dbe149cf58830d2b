"""A log's kept index (runner/store/snapshot.py): read back where the bytes it was kept of are unchanged, with the
lines appended since read on from there, it gives exactly what reading the whole log gives, whatever was appended
(units redone, errors after terminal records, damaged, foreign and torn lines); a log edited, cut or replaced, and
a snapshot damaged or of another code, are read whole."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.store import snapshot
from runner.store.index import columns, keep_index, load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS
from runner.store.records import SCHEMA, RenderRecord
from tests.test_index import _LINES, one_pass
from tests.test_logs import solve
from tests.test_report_ahead import EVERY, run

KIND = {"renders.jsonl": "render", "solves.jsonl": "solve"}
RENDER = RenderRecord(schema=SCHEMA, key="h" * 32, status="ok", skeleton="s", family="f", complexity=1, renderer="r",
                      model="m", sample=0, text="t", reason=None, attempts=1, latency_s=0.0, prompt_tokens=0,
                      completion_tokens=0, finish_reason=None, started_at=0.0, finished_at=0.0).to_line()


def read(path) -> tuple[dict, int]:
    """load_index's index of the log, as one_pass gives it."""
    index = load_index(path, SOLVE_FIELDS)
    return {k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.lists(_LINES, min_size=1, max_size=30), then=st.lists(_LINES, max_size=30),
       more=st.lists(_LINES, max_size=20), torn=st.sampled_from([b"", b'{"key": "aaaa', b"{torn"]))
def test_a_kept_index_and_the_lines_after_it_give_the_whole_logs_index(tmp_path, first, then, more, torn):
    """Kept of a log, read after more lines (and perhaps a torn tail) were appended, kept again from there (the kept
    index and the whole lines since: a checkpoint) and read after more: each time the whole log's index."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(first))
    for old in tmp_path.glob(".index-*"):
        old.unlink()
    assert keep_index(path, SOLVE_FIELDS)
    assert read(path) == one_pass(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(then) + torn)
    assert read(path) == one_pass(path)
    assert keep_index(path, SOLVE_FIELDS)   # up to the last newline: a torn tail is not kept, nor read on from
    assert read(path) == one_pass(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(more) + torn)
    assert read(path) == one_pass(path)


def kept_wrong(path) -> None:
    """Keep a snapshot of the log whose every status says `invalid`: an index read from it shows that."""
    with open(path, "rb") as fh:
        size = fh.seek(0, 2)
        index = load_index(path, SOLVE_FIELDS)
        rows = [(key, "invalid", entry.offset, entry.correct) for key, entry in index.items()]
        assert snapshot.save(path, "solve", fh, size, columns(rows), index.skipped)


def test_the_kept_index_is_what_is_read_until_the_bytes_it_was_kept_of_change(tmp_path):
    """A snapshot made to say `invalid` for every unit is read while the log's bytes are those it was kept of
    (lines appended after them are read on from there); an edit inside them of the same size, a log cut short
    or replaced, and a damaged snapshot, and the log is read whole."""
    path = tmp_path / "solves.jsonl"
    whole = b"".join(solve(c * 32, "ok", True) for c in "abcd")
    path.write_bytes(whole)
    kept_wrong(path)
    assert {status for status, _, _ in read(path)[0].values()} == {"invalid"}
    with open(path, "ab") as fh:
        fh.write(solve("e" * 32, "ok", True))
    got = read(path)[0]
    assert got["e" * 32][0] == "ok" and {got[c * 32][0] for c in "abcd"} == {"invalid"}
    path.write_bytes(whole.replace(b'"ok"', b'"no"', 1) + solve("e" * 32, "ok", True))   # same size, one edit
    assert read(path) == one_pass(path)
    for changed in (whole[: len(whole) // 2], whole.replace(b"a" * 32, b"z" * 32)):
        path.write_bytes(whole)
        kept_wrong(path)
        path.write_bytes(changed)
        assert read(path) == one_pass(path)
    path.write_bytes(whole)
    kept_wrong(path)
    saved = snapshot.path_for(path, "solve")
    body = saved.read_bytes()
    for damaged in (body[: len(body) // 2], body[: body.index(b"\n") + 1], b"", body.replace(b'"format":1', b'"format":9')):
        saved.write_bytes(damaged)
        assert read(path) == one_pass(path)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINES, min_size=1, max_size=12), data=st.data())
def test_a_damaged_snapshot_is_never_read(tmp_path, lines, data):
    """Any bytes of a kept snapshot changed (one byte, a cut, another's bytes in its place), and the log is read
    whole: its index is the whole log's, never an error."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(lines))
    kept_wrong(path)
    saved = snapshot.path_for(path, "solve")
    body = saved.read_bytes()
    how = data.draw(st.sampled_from(["flip", "cut", "bytes"]))
    if how == "flip":
        at = data.draw(st.integers(0, len(body) - 1))
        body = body[:at] + bytes([body[at] ^ data.draw(st.integers(1, 255))]) + body[at + 1:]
    elif how == "cut":
        body = body[:data.draw(st.integers(0, len(body) - 1))]
    else:
        body = data.draw(st.binary(max_size=300))
    saved.write_bytes(body)
    assert read(path) == one_pass(path)


def test_a_snapshot_is_read_only_as_the_kind_of_log_it_was_kept_as(tmp_path):
    """A render log kept as a solve log (every line skipped: a render record lacks a solve's fields) and read as a
    render log: every line is read, as a render log's."""
    path = tmp_path / "renders.jsonl"
    path.write_bytes(b"".join(RENDER.replace(b"h" * 32, c.encode() * 32) for c in "abc"))
    assert keep_index(path, SOLVE_FIELDS)
    got = load_index(path, RENDER_FIELDS)
    assert sorted(got) == [c * 32 for c in "abc"] and got.skipped == 0


@pytest.mark.parametrize("node", ["fifo", "folder", "link to a log", "huge"])
def test_a_snapshot_that_is_no_regular_file_is_never_waited_on_nor_read(tmp_path, node):
    """A FIFO (whose read would wait for a writer for ever), a folder, a symlink to another log's snapshot, or a file far
    bigger than any snapshot of the log where the snapshot goes: the log is read whole (in a child process, so that a wait fails the
    test, not hangs it)."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(solve(c * 32, "ok", True) for c in "abc"))
    saved = snapshot.path_for(path, "solve")
    if node == "fifo":
        os.mkfifo(saved)
    elif node == "folder":
        saved.mkdir()
    elif node == "huge":   # 4 GiB (sparse): read whole, it would take more memory than the child is given
        with open(saved, "wb") as fh:
            fh.truncate(4 << 30)
    else:
        other = tmp_path / "other" / "solves.jsonl"
        other.parent.mkdir()
        other.write_bytes(path.read_bytes().replace(b"c" * 32, b"d" * 32))   # another log's bytes: not these
        kept_wrong(other)
        saved.symlink_to(snapshot.path_for(other, "solve"))
    code = ("import resource, sys, orjson\nfrom pathlib import Path\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\nfrom runner.store.index import load_index\n"
            "from runner.store.logs import SOLVE_FIELDS\nindex = load_index(Path(sys.argv[1]), SOLVE_FIELDS)\n"
            "print(orjson.dumps([{k: list(e) for k, e in index.items()}, index.skipped]).decode())")
    got = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    index, skipped = orjson.loads(got)
    assert ({k: tuple(e) for k, e in index.items()}, skipped) == one_pass(path)


def test_another_codes_snapshot_is_never_read(tmp_path, monkeypatch):
    """The snapshot's name stamps the code of the index's rule: another code's is not found, and keeping a new
    one removes it."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(solve("a" * 32, "ok", True))
    kept_wrong(path)
    other = snapshot.path_for(path, "solve")
    monkeypatch.setattr(snapshot, "FORMAT", 2)
    snapshot._stamp.cache_clear()   # made once a process: here the code changes under it
    try:
        assert snapshot.path_for(path, "solve") != other and read(path) == one_pass(path)
        assert keep_index(path, SOLVE_FIELDS) and not other.exists() and snapshot.path_for(path, "solve").is_file()
    finally:
        monkeypatch.undo()
        snapshot._stamp.cache_clear()


@pytest.mark.parametrize("log", ["renders.jsonl", "solves.jsonl"])
def test_a_whole_run_keeps_its_logs_index_and_its_resume_reads_it(tmp_path, log):
    """A run that wrote to big logs (LSB_AHEAD_MIN=0: every log is) keeps both logs' index; a resume of it (its
    kept counts removed, so that it reads the logs) reads the kept index: made to say every unit errored, the
    resume does them again."""
    out = tmp_path / "run"
    run(tmp_path, env=EVERY)
    for name in ("renders.jsonl", "solves.jsonl"):
        assert snapshot.path_for(out / name, KIND[name]).is_file()
        assert read_any(out / name) == load_index(out / name, fields_of(name))   # kept, and equal to a whole read
    rows = len((out / log).read_bytes().splitlines())
    index = load_index(out / log, fields_of(log))
    with open(out / log, "rb") as fh:
        size = fh.seek(0, 2)
        said = [(key, "error", entry.offset, None) for key, entry in index.items()]
        assert snapshot.save(out / log, KIND[log], fh, size, columns(said), 0)
    (out / ".settled").unlink()
    again = run(tmp_path, env=EVERY)
    assert len((out / log).read_bytes().splitlines()) == 2 * rows, again.stderr   # every unit of that log redone


def fields_of(log: str) -> dict:
    """The fields of a run folder's log."""
    return RENDER_FIELDS if log == "renders.jsonl" else SOLVE_FIELDS


def read_any(path) -> dict:
    """The log's index read whole (its snapshot set aside), as a dict."""
    saved = snapshot.path_for(path, KIND[path.name])
    body = saved.read_bytes()
    saved.unlink()
    try:
        return dict(load_index(path, fields_of(path.name)))
    finally:
        saved.write_bytes(body)


def test_a_run_killed_after_a_checkpoint_resumes_from_it(tmp_path):
    """A run keeps its logs' index as it goes (LSB_KEEP_EVERY): killed (SIGKILL) after a checkpoint, with lines
    written since, its logs' kept index stands for their first bytes and gives, with the lines since, the whole log's
    index; the resume does every unit left exactly once."""
    from tests.fake_server import FakeServer
    from tests.test_pipeline import terminal_counts, write_grid
    from tests.test_settled import whole_records
    out = tmp_path / "run"
    log = out / "solves.jsonl"
    env = {**os.environ, **EVERY, "LSB_KEEP_EVERY": "0.2"}
    with FakeServer() as server:
        server.latency_s = 0.2   # 120 requests of the server's, 8 at a time: seconds of work
        grid = write_grid(tmp_path, server.url, count=40)
        proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                                 str(grid), "--out", str(out), "-q"], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        try:
            while (kept := _kept_size(log)) is None or log.stat().st_size <= kept:   # a checkpoint, lines after it
                assert proc.poll() is None, f"the run ended before a checkpoint with lines after it: {proc.stderr}"
                time.sleep(0.01)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert not (out / ".settled").exists() and 0 < _kept_size(log) < log.stat().st_size
        assert read(log) == one_pass(log)
        server.latency_s = 0.0
        run_again = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                                    str(grid), "--out", str(out), "-q"], env=env, capture_output=True, text=True)
        assert run_again.returncode == 0, run_again.stderr
    solves = whole_records(log)
    assert len(terminal_counts(solves)) == 160 and set(terminal_counts(solves).values()) == {1}


def _kept_size(log) -> int | None:
    """The size of the log's first bytes its kept index stands for (None where none is kept, or not yet whole)."""
    try:
        with open(log, "rb") as fh:
            kept = snapshot.load(log, "solve", fh)
    except FileNotFoundError:   # no log yet
        return None
    return None if kept is None else kept[2]
