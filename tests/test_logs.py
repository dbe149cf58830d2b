"""Append-only logs and the resume index: whole lines, torn lines, the fast path agrees with a full parse."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any, Literal

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.store.index import load_index
from runner.store.logs import (
    CALIBRATION_FIELDS,
    LOGS,
    RENDER_FIELDS,
    SOLVE_FIELDS,
    TERMINAL,
    TORN,
    UNREADABLE,
    AppendLog,
    as_kinds,
    best_records,
    exact_types,
    log_values,
    read_at,
    read_many,
    usable,
)
from runner.store.records import SCHEMA, CalibrationRecord, RenderRecord, SolveRecord

ROOT = Path(__file__).resolve().parent.parent


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
    index = load_index(path, SOLVE_FIELDS)
    assert {k[0]: (e.status, e.correct) for k, e in index.items()} == {
        "a": ("ok", False), "b": ("invalid", None), "c": ("ok", True), "d": ("error", None)}
    assert read_at(path, index["a" * 32].offset)["raw"] == tricky


def test_foreign_key_order_still_read(tmp_path):
    path = tmp_path / "solves.jsonl"
    rec = orjson.loads(solve("k" * 32, "ok", True))
    path.write_bytes(orjson.dumps(dict(reversed(rec.items()))) + b"\n")
    assert load_index(path, SOLVE_FIELDS)["k" * 32].status == "ok"


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
    assert set(load_index(path, SOLVE_FIELDS)) == {"f" * 32, "g" * 32}


@pytest.mark.parametrize("record", [
    RenderRecord(schema=SCHEMA, key="h" * 32, status="ok", skeleton="s", family="f", complexity=1, renderer="r",
                 model="m", sample=0, text="t", reason=None, attempts=1, latency_s=0.0, prompt_tokens=0,
                 completion_tokens=0, finish_reason=None, started_at=0.0, finished_at=0.0)])
def test_render_records_indexed_without_correct(tmp_path, record):
    path = tmp_path / "renders.jsonl"
    path.write_bytes(record.to_line())
    entry = load_index(path, RENDER_FIELDS)["h" * 32]
    assert entry.status == "ok" and entry.correct is None


def test_a_damaged_line_is_skipped_by_the_index_as_by_every_reader(tmp_path):
    """An unescaped quote inside a value, the line still starting and ending as ours: the index skips it as
    status and report do (the run redoes the unit)."""
    path = tmp_path / "renders.jsonl"
    good = solve("a" * 32, "ok", True, raw="fine")
    bad = solve("b" * 32, "ok", True, raw="x").replace(b'"raw":"x"', b'"raw":"a "quoted" word"')
    path.write_bytes(good + bad + good.replace(b"a" * 32, b"c" * 32))
    index = load_index(path, SOLVE_FIELDS)
    assert "b" * 32 not in index and index.skipped == 1
    assert read_at(path, index["c" * 32].offset)["raw"] == "fine"
    found = best_records(path, {"a" * 32, "b" * 32, "c" * 32}, SOLVE_FIELDS)
    assert sorted(r["key"][0] for r in found) == ["a", "c"] and found.skipped == 1


def test_partial_and_foreign_records_are_skipped_and_counted(tmp_path):
    path = tmp_path / "solves.jsonl"
    key = "a" * 32
    path.write_bytes(solve(key, "ok", True) + orjson.dumps({"key": key, "status": "ok"}) + b"\n"
                     + b"[1, 2]\n" + b'{"key": 5, "status": []}\n' + b"\n" + b"\xff\xfe not json\n")
    found = best_records(path, {key}, SOLVE_FIELDS)
    assert [r["correct"] for r in found] == [True] and found.skipped == 4
    assert load_index(path, SOLVE_FIELDS).skipped == 4   # as best_records: a blank line is no loss


_KEY = st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)
_STATUS = st.sampled_from(["ok", "invalid", "error", "unfaithful", "unchecked", "?"])
_whole = st.builds(lambda k, s, c, raw: solve(k, s, c, raw), _KEY, _STATUS, st.sampled_from([True, False, None]),
                   st.text(max_size=30))
_prefixed = st.builds(lambda k, junk: b'{"schema":1,"key":"' + k + b'","status":"' + junk + b'}\n',
                      st.binary(min_size=32, max_size=32), st.binary(max_size=40))
_line = st.one_of(_whole, _prefixed, _whole.map(lambda b: b[: len(b) // 2] + b"\n"), st.binary(max_size=60),
                  st.builds(lambda v: orjson.dumps(v) + b"\n",
                            st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=10),
                                         lambda inner: st.lists(inner, max_size=3)
                                         | st.dictionaries(st.sampled_from(["key", "status", "correct", "renderer",
                                                                            "solver", "family", "complexity", "text"]),
                                                           inner, max_size=5), max_leaves=10)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line, max_size=12))
def test_any_log_content_reads_without_an_exception(tmp_path, lines):
    """Whatever bytes a log holds, the index, read-back and record readers answer; never an exception."""
    path = tmp_path / "any.jsonl"
    path.write_bytes(b"".join(lines))
    index = load_index(path, SOLVE_FIELDS)
    for entry in index.values():
        rec = read_at(path, entry.offset)
        assert rec is None or isinstance(rec, dict)
    for fields in (SOLVE_FIELDS, RENDER_FIELDS):
        found = best_records(path, set(index), fields)
        assert all(usable(r, fields) for r in found)
        whole = sum(1 for line in path.read_bytes().splitlines() if line.strip())
        assert found.skipped <= whole
    # No whole record is lost: every line that parses as one is in the index, a terminal one as terminal.
    for line in path.read_bytes().split(b"\n"):   # lines as the readers split them (not at a bare \r)
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if usable(rec, SOLVE_FIELDS):
            assert rec["key"] in index
            if rec["status"] in TERMINAL:
                assert index[rec["key"]].status in TERMINAL


_MUTATIONS = {   # each a line no reader may count: glued to the next record, or a field of another type or missing
    "glued": lambda rec, line, other: line[:-1] + other,
    "complexity as text": lambda rec, line, other: orjson.dumps({**rec, "complexity": "2"}) + b"\n",
    "complexity as a float": lambda rec, line, other: orjson.dumps({**rec, "complexity": 2.0}) + b"\n",
    "complexity as a bool": lambda rec, line, other: orjson.dumps({**rec, "complexity": True}) + b"\n",
    "correct as text": lambda rec, line, other: orjson.dumps({**rec, "correct": "true"}) + b"\n",
    "family as a number": lambda rec, line, other: orjson.dumps({**rec, "family": 3}) + b"\n",
    "sample missing": lambda rec, line, other: orjson.dumps({k: v for k, v in rec.items() if k != "sample"}) + b"\n",
}


@pytest.mark.parametrize("mutation", sorted(_MUTATIONS))
def test_the_index_and_the_record_readers_agree_on_what_is_a_record(tmp_path, mutation):
    """Run (the index), status (best_records) and report read one record type: a line one skips, all skip."""
    line, other = solve("a" * 32, "ok", True), solve("b" * 32, "ok", False)
    bad = _MUTATIONS[mutation](orjson.loads(line), line, other)
    path = tmp_path / "solves.jsonl"
    path.write_bytes(bad + solve("c" * 32, "ok", True))
    index = load_index(path, SOLVE_FIELDS)
    found = best_records(path, {"a" * 32, "b" * 32, "c" * 32}, SOLVE_FIELDS)
    assert set(index) == {r["key"] for r in found} == {"c" * 32}
    assert index.skipped == found.skipped == 1


# --- One reader: every log is read through runner/store/logs.py, with the record types' own fields ---

_OWN = "# own parser:"   # a line that parses a log's line itself says why (a peer measured against the reader)
_LOG_NAMES = {"RENDERS", "SOLVES", "CALIBRATION", "LOGS"}   # the constants that name a run's logs


def line_parses(source: str) -> list[int]:
    """The lines where a module that names a run's log parses a line of a file as JSON itself: `loads` of a loop's
    (or comprehension's) variable or of a `readline()`, or `loads` mapped over lines; less lines marked _OWN."""
    tree = ast.parse(source)
    if not any(isinstance(n, ast.Constant) and n.value in LOGS or isinstance(n, ast.Name) and n.id in _LOG_NAMES
               or isinstance(n, ast.alias) and n.name in _LOG_NAMES for n in ast.walk(tree)):
        return []
    loop_vars = {t.id for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))
                 for t in ast.walk(n.target) if isinstance(t, ast.Name)}

    def is_loads(f: ast.expr) -> bool:
        return isinstance(f, ast.Attribute) and f.attr in ("loads", "load") or isinstance(f, ast.Name) and f.id == "loads"

    hits = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call) or not n.args:
            continue
        arg = n.args[0]
        line_arg = (isinstance(arg, ast.Name) and arg.id in loop_vars
                    or isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "readline")
        if is_loads(n.func) and line_arg or isinstance(n.func, ast.Name) and n.func.id == "map" and is_loads(arg):
            hits.append(n.lineno)
    lines = source.splitlines()
    return sorted(i for i in set(hits) if _OWN not in lines[i - 1])


def test_the_check_for_a_second_parser_finds_one():
    """The check below is not vacuous: the forms a log's line was parsed in before finds it, the reader's use not."""
    head = "from runner.store.sinks import RENDERS\nimport orjson\n"
    assert line_parses(head + "for line in fh:\n    rec = orjson.loads(line)\n") == [4]
    assert line_parses(head + "rec = orjson.loads(fh.readline())\n") == [3]
    assert line_parses(head + "recs = [orjson.loads(x) for x in data.splitlines()]\n") == [3]
    assert line_parses(head + "recs = list(map(orjson.loads, data.splitlines()))\n") == [3]
    assert line_parses(head + f"for line in fh:\n    rec = orjson.loads(line)   {_OWN} a peer\n") == []
    assert line_parses(head + "for rec in log_values(path):\n    print(rec)\n") == []
    assert line_parses("import orjson\nfor line in fh:\n    orjson.loads(line)\n") == []   # no log named


@pytest.mark.parametrize("area", ["runner", "benchmarks"])
def test_no_module_outside_the_store_parses_a_log_line(area):
    """Report, status, index, resume, view and the benchmarks read a run's logs through runner/store's reader (one
    parse, one check of the record types' fields): no module outside runner/store/ parses a log's line itself."""
    found = {str(p.relative_to(ROOT)): hits for p in sorted((ROOT / area).rglob("*.py"))
             if ROOT / "runner" / "store" not in p.parents and (hits := line_parses(p.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("record, fields", [(RenderRecord, RENDER_FIELDS), (SolveRecord, SOLVE_FIELDS),
                                            (CalibrationRecord, CALIBRATION_FIELDS)], ids=["render", "solve", "calibration"])
def test_the_fields_read_are_the_record_types(record, fields):
    """What a reader requires of a line is the record type's own fields, with the JSON types its annotations give:
    a record the type writes is read; each required field of another JSON type, or missing, is not."""
    kinds = {f.name for f in dataclasses.fields(record)}
    assert set(fields) <= kinds and list(fields)[:2] == ["key", "status"]
    rec = orjson.loads(_example(record).to_line())
    assert usable(rec, fields)
    for name, kind in fields.items():
        allowed = as_kinds(kind)
        for other in ("2", 2, 2.5, True, None, [], {}):
            assert usable({**rec, name: other}, fields) == (type(other) in allowed), (name, other)
        assert not usable({k: v for k, v in rec.items() if k != name}, fields)


def _example(record: type):
    """A record of each type as the run writes it."""
    if record is SolveRecord:
        return SolveRecord(**orjson.loads(solve("a" * 32, "ok", True)))
    if record is RenderRecord:
        return RenderRecord(schema=SCHEMA, key="h" * 32, status="ok", skeleton="s#h", family="f", complexity=1,
                            renderer="r", model="m", sample=0, text="t", reason=None, attempts=1, latency_s=0.0,
                            prompt_tokens=0, completion_tokens=0, finish_reason=None, started_at=0.0, finished_at=0.0)
    return CalibrationRecord(schema=SCHEMA, key="k" * 32, status="ok", auditor="aud", model="m", skeleton="s#h",
                             family="order", complexity=2, audit="agrees", audit_reason=None, attempts=1,
                             latency_s=0.1, prompt_tokens=1, completion_tokens=1, started_at=1.0, finished_at=2.0)


@pytest.mark.parametrize("hint, kinds", [
    (Literal["ok", "error"], str), (int, int), (bool | None, (bool, type(None))), (Literal["a"] | None, (str, type(None))),
    (str | int | None, (str, int, type(None)))])
def test_exact_types_of_an_annotation(hint, kinds):
    assert exact_types(hint) == kinds


@pytest.mark.parametrize("hint", [Any, tuple[str, ...], Literal[1, "a"], list[int]])
def test_an_annotation_without_one_json_type_is_refused(hint):
    with pytest.raises(TypeError):
        exact_types(hint)


def test_read_many_gives_a_record_or_none_for_each_offset_even_when_the_log_is_gone(tmp_path):
    """The view and the walk zip offsets with what read_many gives: one answer per offset, in their order."""
    path = tmp_path / "solves.jsonl"
    a, b = solve("a" * 32, "ok", True), solve("b" * 32, "ok", False)
    path.write_bytes(a + b"{torn\n" + b)
    got = list(read_many(path, [0, len(a), len(a) + 6]))
    assert [r and r["key"] for r in got] == ["a" * 32, None, "b" * 32]
    path.unlink()
    assert list(read_many(path, [0, 5])) == [None, None]
    assert list(read_many(path, [])) == []


@pytest.mark.parametrize("content, values", [
    (b"", []), (b"\n\n", []), (b'{"a":1}\n \n[2]\n', [{"a": 1}, [2]]), (b'{"a":1}\n{"b"', [{"a": 1}, "bad"]),
    (b"nope\n{}\n", ["bad", {}])])
def test_log_values_gives_each_non_blank_line_parsed_or_unreadable(tmp_path, content, values):
    path = tmp_path / "renders.jsonl"
    path.write_bytes(content)
    assert ["bad" if v is UNREADABLE else v for v in log_values(path)] == values
    assert list(log_values(tmp_path / "none.jsonl")) == []
