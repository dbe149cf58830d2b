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
from runner.store.logs import SOLVE_FIELDS, Typed, read_at
from runner.store.index import Index, fill, load_index
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
@given(lines=st.lists(_LINES, min_size=1, max_size=60), parts=st.integers(2, 5))
def test_parts_give_what_one_pass_gives(tmp_path, monkeypatch, lines, parts):
    path = tmp_path / "solves.jsonl"
    path.write_bytes(b"".join(lines))
    monkeypatch.setattr(index_module, "PART_BYTES", 1)            # every log is big here
    monkeypatch.setattr(index_module, "cores", lambda: parts)     # and the machine has `parts` cores
    index = load_index(path, SOLVE_FIELDS)
    assert ({k: (e.status, e.offset, e.correct) for k, e in index.items()}, index.skipped) == one_pass(path)
    for key, entry in index.items():   # every offset is where that record's line begins
        assert read_at(path, entry.offset)["key"] == key


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


@pytest.mark.parametrize("size, cores, parts", [(10, 16, 1), (64 << 20, 2, 2), (64 << 20, 16, 2), (600 << 20, 16, 16),
                                                (600 << 20, 1, 1), (10 << 30, 64, 16)])
def test_how_many_parts(size, cores, parts):
    assert index_module.parts_for(size, cores) == parts


def test_a_helper_part_in_columns(tmp_path):
    """What a helper sends: its part's keys, statuses by code, offsets, correct as 0/1/2, and its skipped lines."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(solve("a" * 32, "ok", True) + b"{torn\n" + solve("b" * 32, "error", None))
    st_ = os.stat(path)
    out = subprocess.run([sys.executable, "-m", "runner.store.index", str(path), "0", str(st_.st_size), "solve",
                          f"{st_.st_dev}:{st_.st_ino}"], capture_output=True, check=True).stdout
    keys, statuses, codes, offsets, correct, skipped = pickle.loads(out)
    assert keys == ["a" * 32, "b" * 32] and [statuses[c] for c in codes] == ["ok", "error"]
    assert list(offsets) == [0, len(solve("a" * 32, "ok", True)) + len(b"{torn\n")] and list(correct) == [2, 0]
    assert skipped == 1
