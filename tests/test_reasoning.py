"""Thinking solvers against the fake server playing a reasoning model in each dialect: vLLM with and without a
reasoning parser, OpenAI (a hidden thought, its tokens in usage), Anthropic (thinking blocks, no forced tool)."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.base import SolveRequest
from providers.config import build_provider, parse_provider
from providers.reasoning import CUT, openai_fields, split_think
from tests.fake_server import FakeServer, fake_thought

LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
# A problem of ten sentences: the fake model thinks 5 words (tokens) per sentence, 50 in all
PROBLEM = " ".join(f"Fact {i} holds." for i in range(10)) + "\n\nAnswer with exactly one of: " + ", ".join(LABELS)
THOUGHT = len(fake_thought(PROBLEM).split(" "))

# (dialect, the fake server's thinking mode, provider kind and settings, the model's name)
DIALECTS = {
    "vllm": ("parser", "vllm", {}),
    "vllm-no-parser": ("no_parser", "vllm", {}),
    "openai": ("openai", "openai", {"server": "openai"}),
    "anthropic": (None, "anthropic", {"api_key_env": "K"}),
}
SETTINGS = {   # every setting each dialect takes, and the body fields it becomes
    "vllm": ({"enabled": True, "effort": "high", "budget_tokens": 4000},
             {"chat_template_kwargs": {"enable_thinking": True}, "reasoning_effort": "high",
              "thinking_token_budget": 4000}),
    "vllm-no-parser": ({"enabled": True, "effort": "low"},
                       {"chat_template_kwargs": {"enable_thinking": True}, "reasoning_effort": "low"}),
    "openai": ({"effort": "medium"}, {"reasoning_effort": "medium"}),
    "anthropic": ({"budget_tokens": 2048}, {"thinking": {"type": "enabled", "budget_tokens": 2048}}),
}


def provider_for(server: FakeServer, dialect: str):
    mode, kind, settings = DIALECTS[dialect]
    server.thinking = mode
    url = server.url[: -len("/v1")] if kind == "anthropic" else server.url
    cfg = parse_provider("p", {"kind": kind, "model": "fake-model", "base_url": url, **settings}, env={"K": "k"})
    return build_provider(cfg, env={"K": "k"})


def solve(provider, *requests):
    async def go():
        await provider.start()
        try:
            return [await provider.solve(r) for r in requests]
        finally:
            await provider.close()
    return asyncio.run(go())


def request(reasoning, max_tokens=8192):
    return SolveRequest(prompt=PROBLEM, labels=LABELS, max_tokens=max_tokens, reasoning=reasoning)


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_every_setting_reaches_the_request_and_the_label_comes_after_the_thought(dialect):
    settings, fields = SETTINGS[dialect]
    with FakeServer() as server:
        (res,) = solve(provider_for(server, dialect), request({**settings, "keep_reasoning": True}))
        body = next(b for b in server.bodies if "messages" in b)   # not the /tokenize of the thought after it
    for key, value in fields.items():
        assert body[key] == value, (key, body.get(key))
    assert res.status == "ok" and res.label == FakeServer.pick(PROBLEM, list(LABELS))
    thought = res.thinking
    assert thought is not None and not thought.cut
    if dialect == "openai":   # hidden thought: its tokens from usage, no text
        assert (thought.tokens, thought.tokens_from, thought.text) == (THOUGHT, "usage", None)
    elif dialect == "anthropic":   # output tokens less the answer's estimate
        assert thought.tokens_from == "estimate" and abs(thought.tokens - THOUGHT) <= 2
        assert thought.text == fake_thought(PROBLEM)
    else:   # counted by the server's own tokenizer (/tokenize)
        assert (thought.tokens, thought.tokens_from) == (THOUGHT, "tokenize")
        assert thought.text == fake_thought(PROBLEM)


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_a_thought_cut_by_max_tokens_is_invalid_never_a_wrong_answer(dialect):
    settings, _ = SETTINGS[dialect]
    with FakeServer() as server:
        provider = provider_for(server, dialect)
        if dialect == "vllm-no-parser":
            provider.reasoning_parser = False   # found out already (the next test shows how)
        (res,) = solve(provider, request(settings, max_tokens=THOUGHT - 10 if dialect != "anthropic" else 30))
    assert res.status == "invalid" and res.reason == CUT and res.label is None
    assert res.thinking.cut and res.finish_reason in ("length", "max_tokens")


def test_vllm_without_a_parser_is_found_out_and_asked_as_text_from_then_on():
    with FakeServer() as server:
        provider = provider_for(server, "vllm-no-parser")
        first, second = solve(provider, request({"enabled": True}), request({"enabled": True}))
        bodies = [b for b in server.bodies if "messages" in b]   # not the /tokenize of each thought
    # the first solve went constrained, came back with no reasoning field, and was asked again as text;
    # the second went as text at once
    assert len(bodies) == 3 and "structured_outputs" in bodies[0]
    assert not any("structured_outputs" in b for b in bodies[1:])
    assert provider.reasoning_parser is False
    for res in (first, second):
        assert res.status == "ok" and res.constrained == "none" and res.thinking.tokens == THOUGHT
        assert res.label == FakeServer.pick(PROBLEM, list(LABELS))


def test_vllm_with_a_parser_keeps_the_label_constrained():
    with FakeServer() as server:
        provider = provider_for(server, "vllm")
        (res,) = solve(provider, request({"enabled": True}))
        assert server.bodies[0]["structured_outputs"] == {"choice": list(LABELS)}
    assert res.constrained == "choice" and provider.reasoning_parser is True


def test_anthropic_with_thinking_never_gets_a_forced_tool_and_the_fake_refuses_one_as_the_api_does():
    with FakeServer() as server:
        (res,) = solve(provider_for(server, "anthropic"), request({"budget_tokens": 2048}))
        body = server.bodies[-1]
        assert "tool_choice" not in body and "tools" not in body and "temperature" not in body
        assert res.status == "ok" and res.constrained == "none"
        forced = provider_for(server, "anthropic")
        refused = solve(forced, SolveRequest(prompt=PROBLEM, labels=LABELS, max_tokens=4096))[0]   # a plain solve
        assert refused.status == "ok" and refused.constrained == "tool"   # no thinking: the forced tool as before


def test_the_probe_warns_once_for_a_known_reasoning_model_served_without_a_parser():
    with FakeServer(model="Qwen3-8B") as server:
        server.thinking = "no_parser"
        provider = build_provider(parse_provider("q", {"kind": "vllm", "model": "Qwen3-8B", "base_url": server.url}))
        note = asyncio.run(provider.check_reasoning())
        assert provider.reasoning_parser is False
        assert "no --reasoning-parser" in note and "Qwen3-8B is a reasoning model" in note
        server.thinking = "parser"
        fresh = build_provider(parse_provider("q", {"kind": "vllm", "model": "Qwen3-8B", "base_url": server.url}))
        assert asyncio.run(fresh.check_reasoning()) is None and fresh.reasoning_parser is True


def test_a_solver_without_reasoning_sends_and_records_nothing_new():
    with FakeServer() as server:
        server.thinking = "parser"   # even a thinking server: a plain solve asks for no thought
        provider = build_provider(parse_provider("p", {"kind": "vllm", "model": "fake-model", "base_url": server.url}))
        (res,) = solve(provider, SolveRequest(prompt=PROBLEM, labels=LABELS))
        body = server.bodies[-1]
    assert not {"chat_template_kwargs", "reasoning_effort", "thinking_token_budget"} & set(body)
    assert res.thinking is None


@given(thought=st.text(max_size=40).filter(lambda t: "<think>" not in t and "</think>" not in t),
       answer=st.text(max_size=20).filter(lambda t: "</think>" not in t))
def test_a_thought_in_the_content_splits_from_its_answer(thought, answer):
    got, rest, closed = split_think(f"<think>\n{thought}\n</think>\n\n{answer}")
    assert (got, rest, closed) == (thought.strip(), answer.strip(), True)
    got, rest, closed = split_think(f"<think>{thought}")   # cut before it closed
    assert (got, rest, closed) == (thought.strip(), "", False)
    assert split_think(answer) == (None, answer, True) or answer.lstrip().startswith("<think>")


def test_sglang_takes_the_budget_through_the_chat_template():
    assert openai_fields("sglang", {"budget_tokens": 512, "enabled": True}) == {
        "chat_template_kwargs": {"enable_thinking": True, "thinking_budget": 512}}
