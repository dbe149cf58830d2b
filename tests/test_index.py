"""The resume index; a big log read in parts by helper processes gives exactly what one pass over the file gives,
whatever the records (units redone across parts, errors after terminal records, damaged and foreign lines,
parts that begin in the middle of a line), and a helper that cannot help leaves its part to the run."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.store import index as index_module
from runner.store.index import Index, fill, load_index
from runner.store.logs import SOLVE_FIELDS, Typed, read_at
from tests.test_logs import solve

_LINES = st.one_of(
    st.tuples(st.sampled_from("abcdefgh"), st.sampled_from(["ok", "error", "invalid", "unfaithful"]),
              st.sampled_from([True, False, None])).map(lambda t: solve(t[0] * 32, t[1], t[2] if t[1] == "ok" else None)),
    st.sampled_from([b"\n", b"{torn\n", b'{"key": 1}\n', b"[1, 2]\n", b'"text"\n']))


def one_pass(path) -> dict:
    with open(path, "rb") as fh:
        index = fill(fh, Index(), Typed(SOLVE_FIELDS))
    return {k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINES, min_size=1, max_size=60), parts=st.integers(2, 5), slice_bytes=st.integers(1, 2000))
def test_parts_give_what_one_pass_gives(tmp_path, monkeypatch, lines, parts, slice_bytes):
    """Helpers stream a frame per slice, merged by the run between its own slices, in whatever order they come."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(lines))
    monkeypatch.setattr(index_module, "PART_BYTES", 1)            # every log is big here
    monkeypatch.setattr(index_module, "cores", lambda: parts)     # and the machine has `parts` cores
    monkeypatch.setattr(index_module, "SLICE_BYTES", slice_bytes)
    index = load_index(path, SOLVE_FIELDS)
    assert ({k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped) == one_pass(path)
    for key, entry in index.items():   # every offset is where that record's line begins
        assert read_at(path, entry.offset)["key"] == key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINES, min_size=1, max_size=40), slice_bytes=st.integers(1, 2000), data=st.data())
def test_frames_merged_in_any_order_give_one_pass(tmp_path, lines, slice_bytes, data):
    """The run merges frames as they come, helpers' and its own slices interleaved: any order of the slices'
    indexes gives the one pass's index (the best record of a key is an order by offset, not by arrival)."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(lines))
    size = path.stat().st_size
    with open(path, "rb") as fh:
        slices = [pickle.loads(index_module.part(fh, Typed(SOLVE_FIELDS), a, a + slice_bytes))
                  for a in range(0, size, slice_bytes)]
    index = Index()
    for *columns, skipped in data.draw(st.permutations(slices)):
        index_module.merge(index, *columns)
        index.skipped += skipped
    assert ({k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped) == one_pass(path)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINES, min_size=1, max_size=40), cut=st.integers(0, 3000), code=st.sampled_from([0, 3]))
def test_a_helper_that_stops_midway_leaves_its_part_to_the_run(tmp_path, monkeypatch, lines, cut, code):
    """A helper whose output ends early (after some whole frames, or inside one), whatever its exit code: the
    frames already merged are merged again by the run's own read of that part, and the index is one pass's."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(lines))
    monkeypatch.setattr(index_module, "PART_BYTES", 1)
    monkeypatch.setattr(index_module, "cores", lambda: 3)
    monkeypatch.setattr(index_module, "SLICE_BYTES", 300)
    real_popen = index_module.subprocess.Popen

    def cut_short(args, **kw):   # the helper's output cut at `cut` bytes, then the exit code `code`
        return real_popen(["sh", "-c", f'"$@" | head -c {cut}; exit {code}', "sh", *args], **kw)
    monkeypatch.setattr(index_module.subprocess, "Popen", cut_short)
    index = load_index(path, SOLVE_FIELDS)
    assert ({k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped) == one_pass(path)


@pytest.mark.parametrize("slice_bytes", [1, 50, 10_000])
def test_a_helper_asked_again_after_its_end_counts_its_part_once(tmp_path, monkeypatch, slice_bytes):
    """The run asks each helper for frames after every slice of its own; a helper that ended long before
    is asked many times: its part's entries and skipped lines are counted once."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"{torn\n" + solve("a" * 32, "ok", True) + b"[1, 2]\n" + solve("b" * 32, "error", None))
    monkeypatch.setattr(index_module, "SLICE_BYTES", slice_bytes)
    helper = index_module._Helper(path, 0, path.stat().st_size, "solve", os.stat(path))
    try:
        helper.proc.wait()   # it has ended before the run first asks
        index = Index()
        for _ in range(5):
            assert helper.take(index, block=False)
        assert helper.take(index, block=True) and helper.take(index, block=True)
    finally:
        helper.close()
    assert index.skipped == 2 and sorted(index) == ["a" * 32, "b" * 32]


def test_a_part_whose_file_changed_is_read_by_the_run(tmp_path, monkeypatch):
    """A helper checks it reads the file the run opened (device and inode); another file there makes it stop,
    and the run reads that part itself: the index is whole either way."""
    path = tmp_path / "solves.jsonl"
    lines = [solve(c * 32, "ok", True) for c in "abcdef"]
    path.write_bytes(b"".join(lines))
    monkeypatch.setattr(index_module, "PART_BYTES", 1)
    monkeypatch.setattr(index_module, "cores", lambda: 3)
    real_popen = index_module.subprocess.Popen

    def elsewhere(args, **kw):   # the helper is told another file's identity, as if the log were replaced
        return real_popen(args[:-1] + ["0:0"], **kw)
    monkeypatch.setattr(index_module.subprocess, "Popen", elsewhere)
    index = load_index(path, SOLVE_FIELDS)
    assert sorted(k[0] for k in index) == list("abcdef") and index.skipped == 0


@pytest.mark.parametrize("size, cores, parts", [(1e-8, 16, 1), (2, 2, 2), (2, 16, 2), (20, 16, 16), (20, 1, 1),
                                                (0.99, 16, 1), (400, 64, 16)])
def test_how_many_parts(size, cores, parts):
    """A part per core, none smaller than PART_BYTES (`size` counts them), at most MOST_PARTS."""
    assert index_module.parts_for(int(size * index_module.PART_BYTES), cores) == parts


def frames(data: bytes) -> list[tuple]:
    """A helper's output, its frames unpickled."""
    out, at = [], 0
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        out.append(pickle.loads(data[at + 4:at + 4 + size]))
        at += 4 + size
    return out


def test_a_helper_part_in_columns(tmp_path):
    """What a helper sends: a frame per slice, each its records' keys, statuses by code, offsets and correct as
    0/1/2, in file order, and its skipped lines; a key read twice in a slice is sent twice (the run keeps the
    better record)."""
    path = tmp_path / "solves.jsonl"
    a, b, again = solve("a" * 32, "ok", True), solve("b" * 32, "error", None), solve("b" * 32, "ok", False)
    path.write_bytes(a + b"{torn\n" + b + again)
    st_ = os.stat(path)
    out = subprocess.run([sys.executable, "-m", "runner.store.index", str(path), "0", str(st_.st_size), "solve",
                          f"{st_.st_dev}:{st_.st_ino}", str(len(a) + 6)], capture_output=True, check=True).stdout
    at = len(a) + len(b"{torn\n")
    got = frames(out)   # a frame per slice, one with no line beginning in it too
    assert len(got) == -(-st_.st_size // (len(a) + 6))
    got = [(k, [s[c] for c in codes], list(o), list(r), skip) for k, s, codes, o, r, skip in got if k]
    assert got == [(["a" * 32], ["ok"], [0], [2], 1),   # slices: [a, torn], [b, again]
                   (["b" * 32] * 2, ["error", "ok"], [at, at + len(b)], [0, 1], 0)]
