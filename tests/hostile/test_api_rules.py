"""Every request a grid can make is one its API accepts, and the constraint that goes out is one the server
honours: captured bodies checked against the OpenAI and Anthropic SDKs' request types and the APIs' published
ranges (OpenAI's OpenAPI spec: temperature 0..2, top_p 0..1; Anthropic's docs: temperature 0..1, no top_k or
temperature while thinking, no forced tool while thinking), and what the grid check refuses, in one line."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import orjson
import pytest

from tests.fake_server import FakeServer, fake_thought
from tests.hostile.test_hostile import bench, refused

openai_params = pytest.importorskip("openai.types.chat.completion_create_params")
anthropic_params = pytest.importorskip("anthropic.types.message_create_params")
pydantic = pytest.importorskip("pydantic")

OPENAI = openai_params.CompletionCreateParamsNonStreaming
ANTHROPIC = anthropic_params.MessageCreateParamsNonStreaming


def _whole(value: Any) -> Any:
    """A validated value with its lazy iterables (the SDK types' Iterable fields) run through, so every item
    is checked too."""
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or isinstance(value, Iterator) or type(value).__name__ == "ValidatorIterator":
        return [_whole(v) for v in value]
    return value


def openai_accepts(body: dict) -> None:
    """A chat body OpenAI's API takes: its SDK's request type, no field it lacks, and the spec's ranges; one of
    its reasoning models gets max_completion_tokens and no sampling setting."""
    _whole(pydantic.TypeAdapter(OPENAI).validate_python(body))
    assert set(body) <= set(get_type_hints(OPENAI)), set(body) - set(get_type_hints(OPENAI))
    assert 0 <= body.get("temperature", 1) <= 2 and 0 <= body.get("top_p", 1) <= 1
    if body["model"].startswith(("o1", "o3", "o4", "gpt-5")):
        assert "max_tokens" not in body and "max_completion_tokens" in body, body
        assert body.get("temperature", 1) == 1 and body.get("top_p", 1) == 1, body


def anthropic_accepts(body: dict) -> None:
    """A Messages body Anthropic's API takes: its SDK's request type and the documented rules."""
    _whole(pydantic.TypeAdapter(ANTHROPIC).validate_python(body))
    assert 0 <= body.get("temperature", 1) <= 1, body
    if body.get("thinking", {}).get("type") == "enabled":
        assert "top_k" not in body and body.get("temperature", 1) == 1, body
        assert body.get("tool_choice", {}).get("type") not in ("tool", "any"), body
        assert body["max_tokens"] > body["thinking"]["budget_tokens"] >= 1024
    if body.get("tool_choice", {}).get("type") == "tool" and body["tool_choice"]["name"] == "answer":
        assert body["max_tokens"] >= 64, body   # room for the tool_use block


def _grid(tmp: Path, providers: str, renderers: str, solvers: str, count: int = 3) -> Path:
    path = tmp / "grid.yaml"
    path.write_text(f"name: api\nskeletons: {{generate: {{count: {count}, complexities: [short]}}}}\n"
                    f"providers:\n{providers}\nrenderers: {renderers}\nsolvers: {solvers}\n")
    return path


@pytest.mark.parametrize("model", ["o4-mini", "gpt-5", "o3-2025-04-16"])
def test_an_openai_reasoning_model_gets_its_rules_as_renderer_solver_and_thinker(tmp_path, model):
    """As a structured renderer, a plain solver and a thinking solver, against a server as strict as the API
    (it refuses max_tokens and a temperature but 1): every unit ok, every body one the API takes."""
    with FakeServer(model=model, owned_by="openai") as srv:
        srv.thinking, srv.strict_reasoning = "openai", True
        grid = _grid(tmp_path, f'  o: {{kind: openai, base_url: "{srv.url}", model: {model}}}\n'
                               f'  p: {{kind: openai, base_url: "{srv.url}", model: {model}, variant: think}}',
                     "[o]", "[o, {provider: p, reasoning: {effort: low}}]")
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path)
        chats = [b for b in srv.bodies if "messages" in b]
    assert proc.returncode == 0, proc.stderr
    solves = [orjson.loads(line) for line in (tmp_path / "run" / "solves.jsonl").read_bytes().splitlines()]
    assert len(solves) == 6 and all(r["status"] == "ok" for r in solves), [r.get("reason") for r in solves]
    assert len(chats) >= 9
    for body in chats:
        openai_accepts(body)


def test_a_plain_openai_model_keeps_max_tokens_and_its_temperature(tmp_path):
    with FakeServer(model="gpt-4o-mini", owned_by="openai") as srv:
        grid = _grid(tmp_path, f'  o: {{kind: openai, base_url: "{srv.url}", model: gpt-4o-mini}}',
                     "[o]", "[{provider: o, temperature: 2.0}]")
        assert bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path).returncode == 0
        chats = [b for b in srv.bodies if "messages" in b]
    assert chats and all("max_tokens" in b and "temperature" in b for b in chats)
    assert {b["temperature"] for b in chats} == {0.0, 2.0}
    for body in chats:
        openai_accepts(body)


def test_every_anthropic_body_is_one_the_messages_api_takes(tmp_path):
    with FakeServer(model="claude-x") as srv:
        base = srv.url[: -len("/v1")]
        grid = _grid(tmp_path, f'  c: {{kind: anthropic, base_url: "{base}", model: claude-x, api_key_env: K}}\n'
                               f'  d: {{kind: anthropic, base_url: "{base}", model: claude-x, api_key_env: K, '
                               'variant: think}',
                     "[c]", "[{provider: c, temperature: 1.0}, {provider: d, reasoning: {budget_tokens: 1024}}]")
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path, env={"K": "k"})
        bodies = [b for b in srv.bodies if "messages" in b]
    assert proc.returncode == 0, proc.stderr
    assert len(bodies) == 9
    tool_solves = [b for b in bodies if b.get("tool_choice", {}).get("name") == "answer"]
    assert tool_solves and all(b["max_tokens"] == 128 for b in tool_solves)   # the forced tool's default
    for body in bodies:
        anthropic_accepts(body)


CLAUDE = '  c: {kind: anthropic, model: claude-x, api_key_env: K}'


@pytest.mark.parametrize("solvers, needles", [
    ("[{provider: c, temperature: 1.5}]", ("solvers[0].temperature", "1")),
    ("[{provider: c, max_tokens: 16}]", ("solvers[0].max_tokens", "at least 64", "tool_use")),
    ("[{provider: c, reasoning: {budget_tokens: 1024}, max_tokens: 4096, temperature: 0.5}]",
     ("solvers[0].temperature", "takes no temperature")),
])
def test_what_anthropic_refuses_is_refused_by_the_grid_check(tmp_path, solvers, needles):
    grid = _grid(tmp_path, CLAUDE, "[c]", solvers)
    refused(bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path, env={"K": "k"}),
            2, *needles)
    assert not (tmp_path / "run").exists()


def test_anthropic_thinking_with_top_k_is_refused(tmp_path):
    grid = _grid(tmp_path, '  c: {kind: anthropic, model: claude-x, api_key_env: K, extra_body: {top_k: 5}}',
                 "[{provider: c, max_tokens: 64}]", "[{provider: c, reasoning: {budget_tokens: 1024}}]")
    refused(bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path, env={"K": "k"}),
            2, "providers.c.extra_body.top_k", "takes no top_k")


@pytest.mark.parametrize("where", ["renderers", "solvers"])
def test_a_temperature_for_an_openai_reasoning_model_is_refused_in_any_role(tmp_path, where):
    entry = "[{provider: o, temperature: 0.7}]"
    grid = _grid(tmp_path, '  o: {kind: openai, base_url: "https://api.openai.com/v1", model: o4-mini, '
                           'api_key_env: K}',
                 entry if where == "renderers" else "[o]", entry if where == "solvers" else "[o]")
    refused(bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path, env={"K": "k"}),
            2, f"{where}[0].temperature", "o4-mini", "reasoning models")


def test_a_constraint_the_detected_server_ignores_is_refused_before_any_unit(tmp_path):
    """`server: auto` finds vLLM; `constraint: grammar` would go as a field vLLM ignores: one line, no unit."""
    with FakeServer(owned_by="vllm") as srv:
        grid = _grid(tmp_path, f'  f: {{kind: openai, base_url: "{srv.url}", model: fake-model}}\n'
                               '  t: {kind: template}', "[t]", "[{provider: f, constraint: grammar}]")
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path)
        sent = [b for b in srv.bodies if "messages" in b]
    refused(proc, 2, "solvers[0].constraint", "grammar", "vllm", "choice")
    assert sent == [] and not (tmp_path / "run" / "solves.jsonl").exists()


def test_a_constraint_the_detected_server_honours_goes_out_and_the_record_says_it(tmp_path):
    with FakeServer(owned_by="llamacpp") as srv:
        grid = _grid(tmp_path, f'  f: {{kind: openai, base_url: "{srv.url}", model: fake-model}}\n'
                               '  t: {kind: template}', "[t]", "[{provider: f, constraint: grammar}]")
        assert bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path).returncode == 0
        sent = [b for b in srv.bodies if "messages" in b]
    solves = [orjson.loads(line) for line in (tmp_path / "run" / "solves.jsonl").read_bytes().splitlines()]
    assert sent and all("grammar" in b for b in sent)
    assert solves and all(r["constrained"] == "grammar" for r in solves)


def test_an_empty_probe_thought_settles_nothing_and_later_answers_do(tmp_path):
    """A thinking server with a reasoning parser whose probe thought is empty: the first answer that thinks
    settles it, and the solves after it (sent one at a time until then) go constrained."""
    with FakeServer() as srv:
        srv.thinking = "parser"
        srv.thought_hook = lambda prompt: "" if "7 greater than 3" in prompt else fake_thought(prompt)
        grid = _grid(tmp_path, f'  f: {{kind: vllm, base_url: "{srv.url}", model: fake-model, max_concurrency: 64}}\n'
                               '  t: {kind: template}', "[t]", "[{provider: f, reasoning: {enabled: true}}]", count=24)
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    solves = [orjson.loads(line) for line in (tmp_path / "run" / "solves.jsonl").read_bytes().splitlines()]
    assert len(solves) == 24 and all(r["status"] == "ok" for r in solves)
    assert sum(r["constrained"] == "choice" for r in solves) == 23   # all but the one that found out
