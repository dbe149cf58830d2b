"""The index's key-column decoder (msgspec) against the rule it stands in for (orjson, then the exact types): on
random logs of whole, redone, damaged, foreign and odd lines, torn tails and bytes that are not UTF-8, read in
blocks of any size and in parts, the index is the one the rule gives line by line (keys, statuses, offsets,
`correct`, skipped lines)."""
from __future__ import annotations

import pickle

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.store import index as index_module
from runner.store.index import Index, better, load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, Typed, usable
from runner.store.records import RenderRecord
from tests.test_logs import solve


def render(key: str, status: str, text: str = "A is left of B.") -> bytes:
    return RenderRecord(schema=1, key=key, status=status, skeleton="order-0000#abc", family="f", complexity=2,
                        renderer="t", model="m", sample=0, text=text, reason=None, attempts=1, latency_s=0.1,
                        prompt_tokens=0, completion_tokens=0, finish_reason="stop", started_at=1.0,
                        finished_at=2.0).to_line()


DEEP = b"[" * 1030 + b"]" * 1030   # nested past orjson's limit


def known_difference(data: bytes) -> bool:
    """Whether a log holds a line where the decoder may part from the rule (index_decode.py): a number past a double,
    or nesting past orjson's limit while Hypothesis runs (it raises Python's recursion limit, msgspec's too)."""
    return b"1e400" in data or DEEP in data


def edited(line: bytes, old: bytes, new: bytes) -> bytes:
    return line.replace(old, new, 1)


KEYS = st.sampled_from(["a" * 32, "b" * 32, "c" * 32])
STATUSES = st.sampled_from(["ok", "error", "invalid", "unfaithful", "unchecked"])
SOLVES = st.builds(lambda k, s, c, raw: solve(k, s, c, raw), KEYS, STATUSES, st.sampled_from([True, False, None]),
                   st.sampled_from(["LEFT_OF", "é ünïcode", '"}{', "x" * 300]))
RENDERS = st.builds(render, KEYS, STATUSES, st.sampled_from(["plain", "naïve “quoted”", "x" * 3000]))
# What a line may become: each a way the rule and a decoder of only some fields could part
ODD = [(b'"complexity":2', b'"complexity":true'), (b'"complexity":2', b'"complexity":2.0'),
       (b'"complexity":2', b'"complexity":123456789012345678901234567890'),
       (b'"complexity":2', b'"complexity":18446744073709551615'), (b'"complexity":2', b'"complexity":-0'),
       (b'"status":"', b'"status":"x","status":"'), (b'"key":"', b'"key":1,"key":"'),
       (b'"latency_s":0.1', b'"latency_s":1e400'), (b'"latency_s":0.1', b'"latency_s":' + DEEP),
       (b'"latency_s":0.1', b'"latency_s":' + b"[" * 500 + b"]" * 500), (b'"sample":0', b'"sample":' + DEEP), (b'"model":"m"', b'"model":"\xff\xfe"'),
       (b'"model":"m"', b'"model":"\xed\xa0\x80"'), (b'"model":"m"', b'"model":"\\ud800"'), (b'"model":"m"', b'"model":"\x01"'),
       (b'"family":"f"', b'"family":"\xc3"'), (b'"key":"', b'"correct":1,"key":"'), (b'"key":"', b'"correct":true,"key":"'),
       (b'"sample":0', b'"sample":null'), (b'"renderer":"', b'"rendererX":"'), (b"{", b" \r{"), (b"}\n", b"} \r\n"),
       (b"}\n", b"}\x0c\n"), (b"}\n", b"}"), (b"}\n", b"}\n\n"), (b"{", b"\xef\xbb\xbf{")]
OTHER = st.sampled_from([b"\n", b"  \n", b"{torn\n", b'{"key": 1}\n', b"[1, 2]\n", b'"text"\n', b"\r\n", b"\xff\n"])


def logs(records: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    """Lines of a log: records, some changed in an odd way, other lines, a torn or glued line; the last line
    maybe without its newline (a torn tail)."""
    changed = st.tuples(records, st.sampled_from(ODD)).map(lambda t: edited(t[0], *t[1]))
    torn = st.tuples(records, st.integers(1, 200)).map(lambda t: t[0][:-t[1]])
    glued = st.tuples(torn, records).map(lambda t: t[0] + t[1])
    lines = st.lists(st.one_of(records, records, changed, OTHER, glued), min_size=1, max_size=30)
    return st.tuples(lines, st.one_of(st.just(b""), torn)).map(lambda t: b"".join(t[0]) + t[1])


def by_rule(data: bytes, fields: dict) -> tuple[dict, int]:
    """The index the rule gives, line by line: orjson, then every field of its exact type."""
    index: dict = {}
    skipped, offset = 0, 0
    for line in data.splitlines(keepends=True) if b"\r" not in data else _lines(data):
        begin, offset = offset, offset + len(line)
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError:
            skipped += line != b"\n"
            continue
        if not usable(rec, fields):
            skipped += 1
            continue
        correct = rec.get("correct")
        entry = index_module.Entry(rec["status"], begin, correct if type(correct) is bool else None)
        old = index.get(rec["key"])
        if old is None or better(entry, old):
            index[rec["key"]] = entry
    return {k: tuple(e) for k, e in index.items()}, skipped


def _lines(data: bytes) -> list[bytes]:
    """Lines split at newlines only (a carriage return is JSON's whitespace, not a line's end)."""
    parts = data.split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def indexed(index: Index) -> tuple[dict, int]:
    return {k: tuple(e) for k, e in index.items()}, index.skipped


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=logs(SOLVES), block=st.sampled_from([1, 7, 100, 1000, 1 << 20]))
def test_a_solve_log_is_indexed_as_the_rule_reads_it(tmp_path, monkeypatch, data, block):
    monkeypatch.setattr(index_module, "BLOCK_BYTES", block)
    path = tmp_path / "solves.jsonl"
    path.write_bytes(data)
    expected = by_rule(data, SOLVE_FIELDS)
    if known_difference(data):   # lines the decoder takes and the rule does not (index_decode.py says why)
        return
    assert indexed(load_index(path, SOLVE_FIELDS)) == expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=logs(RENDERS), block=st.sampled_from([1, 50, 3000, 1 << 20]))
def test_a_render_log_is_indexed_as_the_rule_reads_it(tmp_path, monkeypatch, data, block):
    monkeypatch.setattr(index_module, "BLOCK_BYTES", block)
    path = tmp_path / "renders.jsonl"
    path.write_bytes(data)
    if known_difference(data):
        return
    assert indexed(load_index(path, RENDER_FIELDS)) == by_rule(data, RENDER_FIELDS)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=logs(SOLVES), block=st.sampled_from([1, 64, 1 << 20]), cuts=st.lists(st.integers(0, 20000), max_size=4))
def test_parts_read_in_blocks_give_the_rules_index(tmp_path, monkeypatch, data, block, cuts):
    """Parts that begin anywhere (inside a line, on a newline), each read in blocks: merged, the rule's index."""
    monkeypatch.setattr(index_module, "BLOCK_BYTES", block)
    if known_difference(data):
        return
    path = tmp_path / "solves.jsonl"
    path.write_bytes(data)
    bounds = sorted({0, len(data), *(min(c, len(data)) for c in cuts)})
    index = Index()
    with open(path, "rb") as fh:
        for a, b in zip(bounds, bounds[1:]):
            *columns, skipped = pickle.loads(index_module.part(fh, Typed(SOLVE_FIELDS), a, b))
            index_module.merge(index, *columns)
            index.skipped += skipped
    assert indexed(index) == by_rule(data, SOLVE_FIELDS)


def test_the_decoder_takes_a_number_past_a_double_only_in_a_field_it_does_not_read(tmp_path):
    """Said in index_decode.py: the known difference, in a field the index does not read; in one it reads (or in
    nesting past orjson's limit, with Python's recursion limit as bench runs), the rule's verdict."""
    path = tmp_path / "solves.jsonl"
    path.write_bytes(edited(solve("a" * 32, "ok", True), b'"latency_s":0.1', b'"latency_s":1e400'))
    assert by_rule(path.read_bytes(), SOLVE_FIELDS) == ({}, 1)
    assert indexed(load_index(path, SOLVE_FIELDS)) == ({"a" * 32: ("ok", 0, True)}, 0)
    for old, new in ((b'"sample":0', b'"sample":1e400'), (b'"latency_s":0.1', b'"latency_s":' + DEEP)):
        path.write_bytes(edited(solve("a" * 32, "ok", True), old, new))
        assert indexed(load_index(path, SOLVE_FIELDS)) == by_rule(path.read_bytes(), SOLVE_FIELDS) == ({}, 1)
