"""The LogicMark card's format read back: our export gives the same skeletons; bad records get file:line: reason."""
from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.ir import Skeleton, SkeletonError
from families.logicmark import logicmark_record, skeleton_from_logicmark
from families.validation import skeleton_from_json
from tests.conftest import bench


@pytest.mark.parametrize("distractors", ["ours", "card"])
def test_our_export_reads_back_as_the_same_skeletons(tmp_path, distractors):
    lm, sk = tmp_path / "lm.jsonl", tmp_path / "sk.jsonl"
    common = ["-n", "600", "-s", "5", "--distractors", distractors, "-q"]
    bench("generate", "--format", "logicmark", "-o", str(lm), *common, check=True)
    bench("generate", "-f", "equality", "--target-hop-dist", "1:0.10,2:0.40,3:0.25,4:0.15,5:0.10", "-o", str(sk),
          *common, check=True)
    originals = [skeleton_from_json(line) for line in sk.read_bytes().splitlines()]
    back = [skeleton_from_logicmark(line, i + 1) for i, line in enumerate(lm.read_bytes().splitlines())]
    for b, o in zip(back, originals):
        assert (b.id, b.complexity, b.facts, b.answer_options, b.gold_answer, b.rules, b.query) == \
            (o.id, o.complexity, o.facts, o.answer_options, o.gold_answer, o.rules, o.query)
        # the proof is the same shortest derivation, read from the option's first variable: maybe reversed
        assert b.proof in (o.proof, o.proof[::-1])
        # the card's format does not list variables that no premise or option mentions
        mentioned = {x for f in o.facts for x in f.arguments} | {x for opt in o.answer_options for x in opt.split()[::2]}
        assert set(b.entities) == mentioned and mentioned <= set(o.entities)
    assert all(logicmark_record(b, i) == line for i, (b, line) in enumerate(zip(back, lm.read_bytes().splitlines())))
    assert "600 skeletons valid" in bench("validate", "--format", "logicmark", str(lm), check=True).stdout


GOOD = {"id": "symbolic_00007", "domain": "Symbolic", "context": "If:\na = b\nb = c\nc != d\nx = y\n\nThen",
        "options": ["a = c", "a != c", "x = d", "x != d"], "answer_index": 0, "answer": "a = c", "hop_depth": 2}


@pytest.mark.parametrize("change, reason", [
    ({"context": None}, "context: expected the premises"),
    ({"options": "a = c"}, "options: expected a list"),
    ({"answer_index": 4}, "answer_index: 4 is out of range for 4 options"),
    ({"answer_index": -1}, "answer_index: -1 is out of range"),
    ({"answer_index": "0"}, "answer_index: expected an integer"),
    ({"hop_depth": 3}, "hop_depth: 3, but the shortest derivation of 'a = c' takes 2 premise(s)"),
    ({"hop_depth": 0}, "hop_depth: 0 is outside 1..20"),
    ({"answer_index": 2, "answer": "x = d"}, "answer_index: option 'x = d' does not follow from the context"),
    ({"answer": "a != c"}, "answer: 'a != c' is not options[0] ('a = c'), the option answer_index names"),
    ({"options": ["a = c", "a != c", "b = c", "x != d"]}, "options: 'b = c' follows too"),
    ({"context": "a = b\nThen"}, "context: expected 'If:'"),
    ({"context": "If:\na == b\n\nThen"}, "context: premise 'a == b' is not"),
    ({"options": ["a = c", "a <> c", "x = d", "x != d"]}, "options[1]: 'a <> c' is not"),
])
def test_bad_records_name_file_line_and_reason(tmp_path, change, reason):
    rec = {**GOOD, **change}
    if change.get("context", 1) is None:
        del rec["context"]
    path = tmp_path / "lm.jsonl"
    path.write_bytes(orjson.dumps(GOOD) + b"\n" + orjson.dumps(rec) + b"\n")
    proc = bench("validate", "--format", "logicmark", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == f"{path}:2: {reason}" or proc.stderr.splitlines()[0].startswith(f"{path}:2: {reason}")
    grid = tmp_path / "grid.yaml"
    grid.write_text(f"name: lm\nskeletons: {{path: {path}, format: logicmark}}\n"
                    "providers: {t: {kind: template}, r: {kind: random}}\nrenderers: [t]\nsolvers: [r]\n")
    run = bench("run", "--grid", str(grid), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and f"{path}:2: {reason}" in run.stderr and not (tmp_path / "out").exists()


def test_a_grid_runs_the_cards_file_and_reports_by_hop(tmp_path):
    lm = tmp_path / "lm.jsonl"
    bench("generate", "--format", "logicmark", "-n", "100", "-o", str(lm), "-q", check=True)
    grid = tmp_path / "grid.yaml"
    grid.write_text("name: lm\nskeletons: {path: lm.jsonl, format: logicmark}\n"
                    "providers: {t: {kind: template}, r: {kind: random}}\nrenderers: [t]\nsolvers: [r]\n")
    bench("run", "--grid", str(grid), "--out", str(tmp_path / "out"), "-q", check=True)
    out = bench("report", str(tmp_path / "out"), check=True).stdout
    assert "equality: accuracy by complexity" in out
    rows = [json.loads(line) for line in (tmp_path / "out" / "solves.jsonl").read_text().splitlines()]
    assert len(rows) == 100 and sorted({r["complexity"] for r in rows}) == [1, 2, 3, 4, 5]
    bad = grid.read_text().replace("format: logicmark", "format: csv")
    grid.write_text(bad)
    proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "o2"))
    assert proc.returncode == 2 and "skeletons.format: expected jsonl" in proc.stderr
    # the card's file read as skeletons (no format given): each line says what it is and how to read it
    grid.write_text(bad.replace(", format: csv", ""))
    hint = "a LogicMark record, not a skeleton: read the file with --format logicmark"
    proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "o3"))
    assert proc.returncode == 2 and f"{lm}:1: {hint}" in proc.stderr and "format: logicmark" in proc.stderr
    checked = bench("validate", str(lm))
    assert checked.returncode == 2 and checked.stderr.count(hint) == 100 and "missing field" not in checked.stderr
    ours = tmp_path / "ours.jsonl"   # a skeleton line (it has a family) keeps its own reason, card keys or not
    bench("generate", "-n", "1", "-o", str(ours), "-q", check=True)
    ours.write_bytes(ours.read_bytes().replace(b'"family"', b'"answer_index":0,"context":1,"hop_depth":1,"family"'))
    assert f"{ours}:1: answer_index: unknown field" in bench("validate", str(ours)).stderr


_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=30),
                     lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
                         st.sampled_from(list(GOOD) + ["x"]), inner, max_size=7), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(value=_json, field=st.sampled_from(list(GOOD)))
def test_any_record_gives_a_skeleton_or_a_reason(value, field):
    for rec in (value, {**GOOD, field: value}):
        try:
            sk = skeleton_from_logicmark(json.dumps(rec), 3)
        except SkeletonError as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert isinstance(sk, Skeleton)
