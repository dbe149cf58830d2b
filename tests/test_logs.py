"""Append-only logs and the resume index: whole lines, torn lines, the fast path agrees with a full parse."""
from __future__ import annotations

import orjson
import pytest

from runner.logs import TORN, AppendLog, load_index, read_at
from runner.records import SCHEMA, RenderRecord, SolveRecord


def solve(key: str, status: str, correct, raw: str = "LEFT_OF") -> bytes:
    return SolveRecord(
        schema=SCHEMA, key=key, status=status, render_key="r" * 32, skeleton="order-0000#abc", family="f",
        complexity=2, renderer="a", solver="b", model="m", render_sample=0, sample=0, answer=None, raw=raw,
        gold="LEFT_OF", correct=correct, constrained="choice", reason=None, attempts=1, latency_s=0.1,
        prompt_tokens=1, completion_tokens=1, finish_reason="stop", started_at=1.0, finished_at=2.0).to_line()


def test_index_fast_path_matches_full_parse(tmp_path):
    path = tmp_path / "solves.jsonl"
    tricky = 'he said ","correct":true,"x":"} and {"answer": "X"}'   # quotes and braces inside a value
    lines = [solve("a" * 32, "error", None), solve("a" * 32, "ok", False, tricky), solve("b" * 32, "invalid", None),
             solve("c" * 32, "ok", True), solve("d" * 32, "error", None)]
    path.write_bytes(b"".join(lines))
    index = load_index(path)
    assert {k[0]: (e.status, e.correct) for k, e in index.items()} == {
        "a": ("ok", False), "b": ("invalid", None), "c": ("ok", True), "d": ("error", None)}
    assert read_at(path, index["a" * 32].offset)["raw"] == tricky


def test_foreign_key_order_still_read(tmp_path):
    path = tmp_path / "solves.jsonl"
    path.write_bytes(orjson.dumps({"status": "ok", "key": "k1", "correct": True}) + b"\n")
    assert load_index(path)["k1"].status == "ok"


def test_torn_line_closed_with_marker_and_never_trusted(tmp_path):
    path = tmp_path / "renders.jsonl"
    whole = solve("e" * 32, "ok", True)
    cut = whole[: whole.index(b'"gold"')] + b'"}'     # a fragment that happens to end with "}"
    path.write_bytes(solve("f" * 32, "ok", True) + cut)
    log = AppendLog(path)
    log.write(solve("g" * 32, "ok", True))
    log.close()
    raw = path.read_bytes()
    assert cut + TORN in raw
    assert set(load_index(path)) == {"f" * 32, "g" * 32}


@pytest.mark.parametrize("record", [
    RenderRecord(schema=SCHEMA, key="h" * 32, status="ok", skeleton="s", family="f", complexity=1, renderer="r",
                 model="m", sample=0, text="t", reason=None, attempts=1, latency_s=0.0, prompt_tokens=0,
                 completion_tokens=0, finish_reason=None, started_at=0.0, finished_at=0.0)])
def test_render_records_indexed_without_correct(tmp_path, record):
    path = tmp_path / "renders.jsonl"
    path.write_bytes(record.to_line())
    entry = load_index(path)["h" * 32]
    assert entry.status == "ok" and entry.correct is None
