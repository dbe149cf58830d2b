"""The fidelity check of structured renders: the template passes it (the control), every scripted
corruption is caught with its reason, end to end against the fake server, and keys follow the format."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.base import RenderRequest
from providers.builtin import Template, template_structure
from runner.fidelity.judge import judge
from runner.fidelity.structure import assemble, check, parse, reason_code, render_schema
from tests.conftest import bench, make
from tests.fake_server import FakeServer


def codes(render: dict, payload: dict) -> set[str]:
    parsed = parse(orjson.dumps(render).decode())
    return {reason_code(r) for r in (check(parsed, payload) if not isinstance(parsed, str) else [parsed])}


@pytest.mark.parametrize("complexity", [1, 2, 5, 13, 20])
def test_the_template_renderer_passes_the_checker_on_every_family(family, complexity):
    template = Template("template")
    for i in range(60):
        payload = make(family, i, complexity, seed=8).redact()
        request = RenderRequest(prompt="", payload=payload, schema=render_schema(payload))
        judged = judge(template.render_now(request), "structured", tuple(payload["answer_options"]), payload)
        assert judged.completion.status == "ok", (payload["id"], judged.checks)
        for label in payload["answer_options"]:
            assert label in judged.completion.text


# Each corruption of a faithful render (the template's), and the reason that must catch it.
def drop_fact(r, p):
    r["premises"].pop(1)
    return r


def duplicate_fact(r, p):
    r["premises"].append(dict(r["premises"][0]))
    return r


def two_symbols_one_name(r, p):
    a, b = list(p["entities"])[:2]
    r["names"][b] = r["names"][a]
    return r


def name_is_a_label(r, p):
    r["names"][next(iter(p["entities"]))] = p["answer_options"][0]
    return r


def swapped_name(r, p):
    """The first premise speaks of a symbol that is not in its fact, instead of one that is."""
    fact = p["facts"][0]
    gone = fact["arguments"][0]
    other = next(s for s in p["entities"] if s not in fact["arguments"])
    r["premises"][0]["text"] = r["premises"][0]["text"].replace(r["names"][gone], r["names"][other])
    return r


def third_symbol(r, p):
    other = next(s for s in p["entities"] if s not in p["facts"][0]["arguments"])
    r["premises"][0]["text"] += f" So is {r['names'][other]}."
    return r


def name_inside_name(r, p):
    a, b = list(p["entities"])[:2]
    r["names"][b] = r["names"][a] + " Junior"
    return r


def reordered_updates(r, p):
    r["premises"][1], r["premises"][2] = r["premises"][2], r["premises"][1]
    return r


def changed_number(r, p):
    i = next(i for i, f in enumerate(p["facts"]) if f["predicate"] != "INITIAL_VALUE")
    number = str(p["facts"][i]["arguments"][1])
    r["premises"][i]["text"] = r["premises"][i]["text"].replace(number, str(int(number) + 100))
    return r


def question_without_the_queried_symbol(r, p):
    r["question"] = "What follows?"
    return r


def truncated(r, p):
    return orjson.dumps(r).decode()[:57]


CORRUPTIONS = [  # (family, corruption, the reason code that must catch it)
    ("transitive_order", drop_fact, "missing_fact"),
    ("membership_inheritance", duplicate_fact, "duplicate_fact"),
    ("transitive_order", two_symbols_one_name, "duplicate_name"),
    ("transitive_order", name_is_a_label, "name_is_label"),
    ("membership_inheritance", swapped_name, "wrong_symbols"),
    ("transitive_order", third_symbol, "wrong_symbols"),
    ("membership_inheritance", name_inside_name, "name_inside_name"),
    ("sequential_state_update", reordered_updates, "order"),
    ("sequential_state_update", changed_number, "missing_number"),
    ("transitive_order", question_without_the_queried_symbol, "question"),
    ("equality", truncated, "malformed"),
]


@pytest.mark.parametrize("family,corrupt,code", CORRUPTIONS, ids=[c[1].__name__ for c in CORRUPTIONS])
def test_each_corruption_is_caught_with_its_reason(family, corrupt, code):
    for i in range(20):
        payload = make(family, i, 4).redact()
        render = corrupt(template_structure(payload), payload)
        found = codes(render, payload) if isinstance(render, dict) else {reason_code(parse(render))}
        assert code in found, (payload["id"], found)


GRID = """
name: f
skeletons:
  generate: {{count: {count}, complexities: [4], seed: 5, families: [{family}]}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 4, retries: 1}}
  random: {{kind: random}}
renderers:
  - {{provider: fake{extra}}}
solvers:
  - random
"""


def run_grid(tmp: Path, url: str, family: str, count: int, extra: str = "") -> tuple[list[dict], list[dict], str]:
    tmp.mkdir(parents=True, exist_ok=True)
    grid = tmp / "grid.yaml"
    grid.write_text(GRID.format(count=count, url=url, family=family, extra=extra))
    proc = bench("run", "--grid", str(grid), "--out", str(tmp / "run"), check=True)
    read = lambda name: [orjson.loads(l) for l in (tmp / "run" / name).read_bytes().splitlines() if l]  # noqa: E731
    return read("renders.jsonl"), read("solves.jsonl") if (tmp / "run" / "solves.jsonl").exists() else [], proc.stdout


@pytest.mark.parametrize("family", ["transitive_order", "sequential_state_update"])
def test_scripted_renders_end_to_end_unfaithful_ones_reach_no_solver(tmp_path, family):
    # Item i gets corruption i of those that apply to its family; the last items stay faithful.
    mine = [c for f, c, _ in CORRUPTIONS if f == family]
    with FakeServer() as server:
        server.render_hook = lambda r, p: mine[int(p["id"].split("-")[1]) // 4](copy.deepcopy(r), p) \
            if int(p["id"].split("-")[1]) // 4 < len(mine) else r
        renders, solves, out = run_grid(tmp_path, server.url, family, 4 * (len(mine) + 1))
    by_id = {r["skeleton"].split("#")[0]: r for r in renders}
    for n, corrupt in enumerate(mine):
        rec = by_id[f"{family.split('_')[0].replace('transitive', 'order').replace('sequential', 'state')}-{4 * n:04d}"]
        assert rec["status"] == "unfaithful" and rec["checks"] and rec["raw"], rec
    faithful = [r for r in renders if r["status"] == "ok"]
    assert len(faithful) == 4 and all(r["format"] == "structured" and not r["checks"] for r in faithful)
    assert {s["render_key"] for s in solves} == {r["key"] for r in faithful}   # unfaithful: no solve
    row = next(line.split() for line in out.splitlines() if line.startswith("fake "))
    assert row[1:4] == [str(4 * (len(mine) + 1)), "4", str(4 * len(mine))]   # renders, faithful, unfaithful


def test_send_unfaithful_sends_them_marked(tmp_path):
    with FakeServer() as server:
        server.render_hook = lambda r, p: drop_fact(r, p)
        renders, solves, out = run_grid(tmp_path, server.url, "transitive_order", 6, ", send_unfaithful: true")
    assert all(r["status"] == "unfaithful" for r in renders)
    assert len(solves) == 6 and all(s["render_status"] == "unfaithful" for s in solves)
    assert "sent-unfaithful acc (n)" in out


def test_format_and_audit_settings_are_part_of_the_render_key(tmp_path):
    from runner.config.grid import parse_grid
    from runner.engine.units import UnitPlan
    base = {"name": "k", "skeletons": {"generate": {"count": 1}},
            "providers": {"m": {"kind": "vllm", "model": "x", "base_url": "http://127.0.0.1:9/v1"},
                          "a": {"kind": "vllm", "model": "y", "base_url": "http://127.0.0.1:9/v1"},
                          "random": {"kind": "random"}}, "solvers": ["random"]}
    keys = set()
    for renderer in ({"provider": "m"}, {"provider": "m", "format": "text"},
                     {"provider": "m", "audit": {"provider": "a", "rate": 0.5}},
                     {"provider": "m", "audit": {"provider": "a", "rate": 1.0}}):
        grid = parse_grid({**base, "renderers": [renderer]}, tmp_path / "g.yaml")
        sk = make("equality", 0, 2)
        keys.add(next(UnitPlan(grid).units(sk)).key)
    assert len(keys) == 4


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(value=json_values, shape=st.sampled_from(["any", "render-like"]))
def test_any_answer_gives_a_render_or_a_reason(value, shape):
    payload = make("membership_inheritance", 0, 3).redact()
    if shape == "render-like":   # keep the top-level shape, let the parts be anything
        value = {"names": value, "premises": [value, {"fact": 0, "text": str(value)}], "question": str(value)}
    parsed = parse(json.dumps(value))   # the standard library: integers of any size, as servers may send
    if isinstance(parsed, str):
        assert parsed.startswith("malformed:")
    else:
        assert all(isinstance(r, str) for r in check(parsed, payload))
        assert isinstance(assemble(parsed, payload["answer_options"]), str)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=200))
def test_any_bytes_give_a_reason(raw):
    parsed = parse(raw.decode("utf-8", "replace"))
    assert isinstance(parsed, str) or parsed.question is not None
