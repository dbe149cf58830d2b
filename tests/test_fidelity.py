"""The fidelity check of structured renders: the template passes it (the control), every scripted
corruption is caught with its reason, end to end against the fake server, and keys follow the format."""
from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.base import RenderRequest
from providers.builtin import Template, template_structure
from rendering.schema import render_schema
from rendering.structure import assemble, check, parse, reason_code
from runner.fidelity.judge import judge
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


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, 500), tag=st.sampled_from(["json", "JSON", ""]), pad=st.sampled_from(["", "\n", "  \n\n"]),
       indent=st.booleans(), before=st.sampled_from(["", "Here is the puzzle:\n", "Sure! Here's the puzzle in the "
                                                      "requested format:\n\n"]),
       after=st.sampled_from(["", "\nHope this helps!", "\n\nLet me know if you want another scene."]))
def test_a_render_in_one_code_fence_reads_as_the_bare_object_and_the_prose_around_it_as_an_aside(
        index, tag, pad, indent, before, after):
    # models write JSON in a ```json fence where no schema holds them, often with a line before or after it: the
    # fence is not the render's, and the prose around it is kept aside (no solver sees it), held to the intro's rule
    family = ["transitive_order", "equality", "membership_inheritance", "sequential_state_update"][index % 4]
    payload = make(family, index, 3, seed=5).redact()
    request = RenderRequest(prompt="", payload=payload, schema=render_schema(payload))
    done = Template("template").render_now(request)
    bare = done.text
    body = orjson.dumps(orjson.loads(bare), option=orjson.OPT_INDENT_2).decode() if indent else bare
    text = f"{before}{pad}```{tag}\n{body}\n```{pad}{after}"
    got = parse(text)
    assert not isinstance(got, str) and replace(got, aside="") == parse(bare)
    assert got.aside == f"{before.strip()}\n{after.strip()}".strip()
    judged = judge(replace(done, text=text), "structured", tuple(payload["answer_options"]), payload)
    assert judged.completion.status == "ok", judged.checks
    assert before.strip() not in judged.completion.text or not before   # the solvers' text is the object's alone
    assert isinstance(parse(f"```{tag}\n{body}\n```\n```{tag}\n{body}\n```"), str)   # two fences: not one object
    assert isinstance(parse(f"Here it is: ```{tag}\n{body}\n```"), str)   # a fence that opens no line: not read


@settings(max_examples=100, deadline=None)
@given(index=st.integers(0, 500), indent=st.booleans(),
       before=st.sampled_from(["", "Here is the natural-language puzzle:\n\n", "Sure, here it is:\n"]),
       after=st.sampled_from(["", "\n\nHope this helps!", "\nLet me know if you want changes."]))
def test_a_bare_object_with_prose_around_it_reads_as_the_object_and_the_prose_as_an_aside(index, indent, before, after):
    # "Here is the natural-language puzzle:\n\n{...}" with no fence (blind30): the object from the line that opens with
    # "{" to the last that closes with "}", the prose around it aside; prose holding a brace, or two objects, are not read
    family = ["transitive_order", "equality", "membership_inheritance", "sequential_state_update"][index % 4]
    payload = make(family, index, 3, seed=5).redact()
    request = RenderRequest(prompt="", payload=payload, schema=render_schema(payload))
    done = Template("template").render_now(request)
    body = orjson.dumps(orjson.loads(done.text), option=orjson.OPT_INDENT_2).decode() if indent else done.text
    text = f"{before}{body}{after}"
    got = parse(text)
    assert not isinstance(got, str) and replace(got, aside="") == parse(done.text)
    assert got.aside == f"{before.strip()}\n{after.strip()}".strip()
    judged = judge(replace(done, text=text), "structured", tuple(payload["answer_options"]), payload)
    assert judged.completion.status == "ok", judged.checks
    assert isinstance(parse(f"Here is {{one}}:\n{body}"), str)        # prose with a brace: not read
    assert isinstance(parse(f"Here it is:\n{body}\n{body}"), str)      # two objects: not one render
    labelled = judge(replace(done, text=f"The answer is {payload['answer_options'][0]}:\n{body}"), "structured",
                     tuple(payload["answer_options"]), payload)
    assert labelled.completion.status != "ok"                          # the aside held to the intro's rule


@settings(max_examples=100, deadline=None)
@given(index=st.integers(0, 500), aside=st.sampled_from([
    "Here is the puzzle with 12 facts:", "Here is the puzzle; the answer is {label}.", "Hint: think about {name}.",
    "The puzzle has one answer: {label}.", "The correct option is easy to find."]))
def test_prose_around_the_fence_may_hold_no_number_label_or_talk_of_the_answer(index, aside):
    family = ["transitive_order", "equality", "membership_inheritance", "sequential_state_update"][index % 4]
    payload = make(family, index, 3, seed=5).redact()
    request = RenderRequest(prompt="", payload=payload, schema=render_schema(payload))
    done = Template("template").render_now(request)
    name = next(iter(orjson.loads(done.text)["names"].values()))
    prose = aside.format(label=payload["answer_options"][0], name=name)
    judged = judge(replace(done, text=f"{prose}\n```json\n{done.text}\n```"), "structured", tuple(payload["answer_options"]), payload)
    assert judged.completion.status != "ok"
    assert any(c.startswith("intro: the text around the JSON") for c in judged.checks), judged.checks


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
    """The first premise speaks of a symbol (of the same type) that is not in its fact, instead of one that is."""
    fact = p["facts"][0]
    gone = fact["arguments"][0]
    other = next(s for s, t in p["entities"].items() if s not in fact["arguments"] and t == p["entities"][gone])
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


def intro_with_an_answer(r, p):
    r["intro"] = f"The answer is {p['answer_options'][0].lower()}."
    return r


def renamed_variable(r, p):   # equality's options spell the symbols: a renamed one is never in the text
    first = next(iter(r["names"]))
    r["names"][first] = first + "x"
    return r


def truncated(r, p):
    return orjson.dumps(r).decode()[:57]


CORRUPTIONS = [  # (family, corruption, the reason code that must catch it)
    ("transitive_order", drop_fact, "missing_fact"),
    ("membership_inheritance", duplicate_fact, "duplicate_fact"),
    ("transitive_order", two_symbols_one_name, "duplicate_name"),
    ("transitive_order", name_is_a_label, "name_is_label"),
    ("membership_inheritance", swapped_name, "misread"),   # reads as a fact about another symbol
    ("transitive_order", third_symbol, "unread"),          # the sentence is no phrasing of any fact
    ("membership_inheritance", name_inside_name, "name_inside_name"),
    ("sequential_state_update", reordered_updates, "order"),
    ("sequential_state_update", changed_number, "misread"),
    ("transitive_order", question_without_the_queried_symbol, "question"),
    ("equality", truncated, "malformed"),
    ("membership_inheritance", intro_with_an_answer, "intro"),
    ("equality", renamed_variable, "wrong_name"),
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
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 4, attempts: 1}}
  random: {{kind: random}}
renderers:
  - {{provider: fake{extra}}}
solvers:
  - random
"""


def run_grid(tmp: Path, url: str, family: str, count: int, extra: str = "",
             check: bool = True) -> tuple[list[dict], list[dict], str]:
    tmp.mkdir(parents=True, exist_ok=True)
    grid = tmp / "grid.yaml"
    grid.write_text(GRID.format(count=count, url=url, family=family, extra=extra))
    proc = bench("run", "--grid", str(grid), "--out", str(tmp / "run"), check=check)
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
    for n in range(len(mine)):
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
    from runner.plan.units import UnitPlan
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


# ---- the request prevents what it can: fact slots, assigned names, patterns; repair rounds ---------------

def _bodies(server: FakeServer) -> list[dict]:
    """The structured render requests the server got (vLLM's or OpenAI's field, or Anthropic's tool)."""
    out = []
    for b in server.bodies:
        schema = (b.get("structured_outputs") or {}).get("json") or \
            ((b.get("response_format") or {}).get("json_schema") or {}).get("schema") or \
            (b["tools"][0].get("input_schema") if b.get("tools") and b["tools"][0].get("name") == "render" else None)
        if schema and "premises" in schema.get("properties", {}):
            out.append({"prompt": b["messages"][0]["content"], "schema": schema})
    return out


def _patterns(node) -> list[str]:
    if isinstance(node, dict):
        return ([node["pattern"]] if isinstance(node.get("pattern"), str) else []) + \
            [p for v in node.values() for p in _patterns(v)]
    return [p for v in node for p in _patterns(v)] if isinstance(node, list) else []


def test_assigned_names_are_drawn_from_the_unit_key_and_fixed_by_the_schema(tmp_path):
    from rendering.names import assigned_names
    from runner.source.generate import make_plan
    payloads = {sk.identity: sk.redact() for sk in make_plan(5, ["4"], ["membership_inheritance"]).items(6)}
    seen = []
    for attempt in ("a", "b"):   # two runs of the same grid in two folders: the same names per unit
        with FakeServer() as server:
            renders, solves, _ = run_grid(tmp_path / attempt, server.url, "membership_inheritance", 6,
                                          ", names: assigned")
            bodies = _bodies(server)
        assert len(bodies) == 6 and all(r["status"] == "ok" for r in renders) and len(solves) == 6
        for rec in renders:
            names = assigned_names(payloads[rec["skeleton"]], rec["key"])
            assert orjson.loads(rec["raw"])["names"] == names
            body = next(b for b in bodies if b["schema"]["properties"]["names"]["properties"] ==
                        {s: {"const": n} for s, n in names.items()})
            assert all(n in body["prompt"] for n in names.values())   # told in the prompt too
            slots = body["schema"]["properties"]["premises"]["prefixItems"]
            assert [s["properties"]["fact"]["const"] for s in slots] == list(range(len(payloads[rec["skeleton"]]["facts"])))
        seen.append({r["key"]: r["raw"] for r in renders})
    assert seen[0] == seen[1]


@pytest.mark.parametrize("kind, owned_by, patterns", [("vllm", "vllm", True), ("openai", "openai", False),
                                                     ("anthropic", None, False)])
def test_patterns_go_only_to_servers_whose_grammar_honours_them(tmp_path, kind, owned_by, patterns):
    with FakeServer(owned_by=owned_by or "vllm") as server:
        provider = (f"{{kind: anthropic, model: fake-model, base_url: \"{server.url[:-3]}\", api_key_env: K}}"
                    if kind == "anthropic" else f"{{kind: {kind}, model: fake-model, base_url: \"{server.url}\"}}")
        grid = tmp_path / "grid.yaml"
        grid.write_text(GRID.format(count=4, url=server.url, family="transitive_order", extra=", names: assigned")
                        .replace(f"fake: {{kind: vllm, model: fake-model, base_url: \"{server.url}\", max_concurrency: 4, "
                                 "attempts: 1}", f"fake: {provider}"))
        bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), env={"K": "secret"}, check=True)
        bodies = _bodies(server)
    assert len(bodies) == 4
    for body in bodies:
        found = _patterns(body["schema"])
        premises = body["schema"]["properties"]["premises"]["prefixItems"]
        if patterns:
            assert len(found) >= len(premises) + 1
            assert all("maxLength" not in slot["properties"]["text"] for slot in premises)
        else:
            assert found == [] and all(slot["properties"]["text"]["maxLength"] for slot in premises)
    renders = [orjson.loads(l) for l in (tmp_path / "run" / "renders.jsonl").read_bytes().splitlines()]
    assert [r["status"] for r in renders] == ["ok"] * 4


def _flaky_first_try(server: FakeServer, corrupt) -> Counter:
    """Each skeleton's first render is corrupted, its repairs are faithful; counts calls per skeleton."""
    calls: Counter = Counter()

    def hook(render, payload):
        calls[payload["id"]] += 1
        return corrupt(copy.deepcopy(render), payload) if calls[payload["id"]] == 1 else render
    server.render_hook = hook
    return calls


def test_a_repair_round_asks_again_with_the_reasons_and_keeps_every_round(tmp_path):
    with FakeServer() as server:
        _flaky_first_try(server, duplicate_fact)
        renders, solves, out = run_grid(tmp_path, server.url, "transitive_order", 5, ", repair: 2")
        prompts = [b["prompt"] for b in _bodies(server)]
    by_key: dict[str, list[dict]] = {}
    for r in renders:
        by_key.setdefault(r["key"], []).append(r)
    assert len(by_key) == 5
    for recs in by_key.values():   # the first try unfaithful with its reasons, the repair faithful; one key
        assert [(r["round"], r["status"]) for r in recs] == [(0, "unfaithful"), (1, "ok")]
        assert any(c.startswith("duplicate_fact") for c in recs[0]["checks"])
    repairs = [p for p in prompts if "Your last answer was not faithful" in p]
    assert len(repairs) == 5 and all("is stated 2 times" in p for p in repairs)
    assert all("duplicate_fact:" not in p for p in repairs)   # plain words, not reason codes
    assert len(solves) == 5 and {s["render_key"] for s in solves} == set(by_key)
    row = next(line.split() for line in out.splitlines() if line.startswith("fake "))
    assert row[1:4] == ["5", "5", "0"]   # a unit counts once, as its last round


def test_repair_rounds_stop_at_n_and_a_resumed_run_repeats_no_finished_round(tmp_path):
    repair_prompt = "Your last answer was not faithful"
    with FakeServer() as server:   # every first try unfaithful; every repair fails at the server
        server.render_hook = lambda r, p: drop_fact(copy.deepcopy(r), p)
        server.fault_hook = lambda body: "500" if repair_prompt in str(body.get("messages")) else None
        renders, _, out = run_grid(tmp_path, server.url, "transitive_order", 4, ", repair: 2", check=False)
    assert sorted((r["round"], r["status"]) for r in renders) == [(0, "unfaithful")] * 4 + [(1, "error")] * 4
    with FakeServer() as server:   # resumed: round 1 (not round 0 again), then round 2, still unfaithful
        server.render_hook = lambda r, p: drop_fact(copy.deepcopy(r), p)
        renders, _, _ = run_grid(tmp_path, server.url, "transitive_order", 4, ", repair: 2")
        prompts = [b["prompt"] for b in _bodies(server)]
    assert len(prompts) == 8 and all(repair_prompt in p for p in prompts)
    rounds = Counter((r["round"], r["status"]) for r in renders)
    assert rounds == {(0, "unfaithful"): 4, (1, "error"): 4, (1, "unfaithful"): 4, (2, "unfaithful"): 4}
    with FakeServer() as server:   # every round spent: nothing is sent again
        run_grid(tmp_path, server.url, "transitive_order", 4, ", repair: 2")
        assert _bodies(server) == []


def test_names_and_repair_are_part_of_the_render_key(tmp_path):
    from runner.config.grid import parse_grid
    from runner.plan.units import UnitPlan
    base = {"name": "k", "skeletons": {"generate": {"count": 1}},
            "providers": {"m": {"kind": "vllm", "model": "x", "base_url": "http://127.0.0.1:9/v1"},
                          "random": {"kind": "random"}}, "solvers": ["random"]}
    keys = set()
    for extra in ({}, {"names": "assigned"}, {"repair": 1}, {"repair": 2}, {"names": "assigned", "repair": 1}):
        grid = parse_grid({**base, "renderers": [{"provider": "m", **extra}]}, tmp_path / "g.yaml")
        keys.add(next(UnitPlan(grid).units(make("transitive_order", 0, 2))).key)
    assert len(keys) == 5
