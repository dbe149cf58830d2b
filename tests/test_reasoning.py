"""Thinking solvers against the fake server playing a reasoning model in each dialect: vLLM with and without a
reasoning parser, OpenAI (a hidden thought, its tokens in usage), Anthropic (thinking blocks, no forced tool)."""
from __future__ import annotations

import asyncio

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.base import SolveRequest
from providers.build import build_provider
from providers.config import parse_provider
from providers.dialects import DIALECTS as DIALECTS_
from providers.reasoning import ANSWER_CUT, CUT, openai_fields, split_think
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
        assert thought.tokens_from == "completion" and abs(thought.tokens - THOUGHT) <= 2
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
    # until an answer shows a parser, the label is asked as text; the thought in the content says there is none
    assert len(bodies) == 2 and not any("structured_outputs" in b for b in bodies)
    assert provider.reasoning_parser is False
    for res in (first, second):
        assert res.status == "ok" and res.constrained == "none" and res.thinking.tokens == THOUGHT
        assert res.label == FakeServer.pick(PROBLEM, list(LABELS))


def test_vllm_with_a_parser_keeps_the_label_constrained_once_an_answer_shows_the_parser():
    with FakeServer() as server:
        provider = provider_for(server, "vllm")
        first, second = solve(provider, request({"enabled": True}), request({"enabled": True}))
        bodies = [b for b in server.bodies if "messages" in b]
        assert "structured_outputs" not in bodies[0] and bodies[1]["structured_outputs"] == {"choice": list(LABELS)}
    assert (first.constrained, second.constrained) == ("none", "choice") and provider.reasoning_parser is True
    assert first.label == second.label == FakeServer.pick(PROBLEM, list(LABELS))


def test_an_empty_thought_settles_nothing_and_the_first_answer_that_thinks_does():
    with FakeServer() as server:
        provider = provider_for(server, "vllm")
        server.thought_hook = lambda prompt: "" if "7 greater than 3" in prompt else fake_thought(prompt)
        async def probe():
            try:
                return await provider.check_reasoning()
            finally:
                await provider.close()
        assert asyncio.run(probe()) is None
        assert provider.reasoning_parser is None   # the probe's model did not think: nothing is known yet
        server.thought_hook = None
        first, second = solve(provider, request({"enabled": True}), request({"enabled": True}))
    assert provider.reasoning_parser is True and (first.constrained, second.constrained) == ("none", "choice")
    assert first.status == second.status == "ok"


def test_a_template_opened_thought_is_read_after_its_close_and_a_cut_one_is_never_read_for_a_label():
    with FakeServer() as server:
        provider = provider_for(server, "vllm-no-parser")
        server.thinking = "template"   # `... </think> LABEL`; cut: the thought alone, no tag at all
        server.solve_hook = lambda prompt, labels: labels[0]
        whole, = solve(provider, request({"enabled": True}))
        assert provider.template_opens and provider.reasoning_parser is False   # `</think>` with no `<think>`
        assert whole.status == "ok" and whole.label == LABELS[0] and whole.thinking.tokens == THOUGHT
        for settings in ({"enabled": True}, {"enabled": True, "opened_by_template": True}):
            fresh = provider_for(server, "vllm-no-parser")
            server.thinking = "template"
            # the thought names every label; cut at max_tokens, it holds no tag
            server.thought_hook = lambda prompt: " ".join(["maybe", *LABELS] * 20)
            cut, = solve(fresh, request(settings, max_tokens=30))
            assert cut.status == "invalid" and cut.reason == CUT and cut.label is None and cut.thinking.cut
            server.thought_hook = None


def test_an_answer_cut_after_a_complete_thought_says_so():
    with FakeServer() as server:
        provider = provider_for(server, "vllm")
        provider.reasoning_parser = True
        server.solve_hook = lambda prompt, labels: "LEFT"   # a label begun, then max_tokens: no label
        orig = server._thought_answer

        def cut_answer(body, prompt, constrained):
            message, _, used, extra = orig(body, prompt, constrained)
            return message, "length", used, extra
        server._thought_answer = cut_answer
        res, = solve(provider, request({"enabled": True}))
    assert res.status == "invalid" and res.reason == ANSWER_CUT and not res.thinking.cut


@pytest.mark.parametrize("details", ["absent", "zero"])
def test_thought_tokens_come_from_the_completion_when_the_server_details_none(details):
    with FakeServer() as server:
        provider = provider_for(server, "openai")
        server.reasoning_tokens = details
        res, = solve(provider, request({"effort": "low"}))
    # completion tokens (the thought's and the answer's) less the answer's estimate (4 characters a token: the
    # answer `{"answer":"LEFT_OF"}` is one token to the fake, five to the estimate); never 0 beside a thought
    assert res.thinking.tokens_from == "completion" and THOUGHT - 5 <= res.thinking.tokens <= THOUGHT


def test_a_server_without_tokenize_is_asked_once():
    with FakeServer() as server:
        provider = provider_for(server, "vllm-no-parser")
        server.no_tokenize = True
        results = solve(provider, *[request({"enabled": True}) for _ in range(5)])
        chats = [b for b in server.bodies if "messages" in b]
        assert server.requests - len(chats) == 1 and provider.has_tokenize is False   # one /tokenize, one 404
    assert all(r.status == "ok" and r.thinking.tokens_from == "completion" and r.thinking.tokens > 0
               for r in results)


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
       answer=st.text(max_size=20).filter(lambda t: "</think>" not in t and "<think>" not in t))
def test_a_thought_in_the_content_splits_from_its_answer(thought, answer):
    for opened in (False, True):
        assert split_think(f"<think>\n{thought}\n</think>\n\n{answer}", opened) == (
            thought.strip(), answer.strip(), "closed")
        assert split_think(f"{thought}\n</think>\n\n{answer}", opened) == (thought.strip(), answer.strip(), "closed")
        assert split_think(f"<think>{thought}", opened) == (thought.strip(), "", "open")   # cut before it closed
    # no tag: an answer, unless the template opened the thought (then it is all thought, never an answer)
    assert split_think(answer, False) == (None, answer, "none")
    assert split_think(answer, True) == (answer.strip(), "", "open")


def test_sglang_takes_the_budget_through_the_chat_template():
    assert openai_fields(DIALECTS_["sglang"], {"budget_tokens": 512, "enabled": True}) == {
        "chat_template_kwargs": {"enable_thinking": True, "thinking_budget": 512}}


def readme_reasoning_example() -> dict:
    """The documented grid lines for thinking solvers (docs/thinking.md, "Reasoning models as solvers"), parsed."""
    import re

    import yaml

    from tests.conftest import ROOT
    text = (ROOT / "docs" / "thinking.md").read_text()
    section = text[text.index("## Reasoning models as solvers"):]
    return yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))


def test_the_documented_openai_reasoning_example_runs_against_a_server_as_strict_as_the_api(tmp_path):
    from tests.conftest import bench
    example = readme_reasoning_example()
    solver = next(s for s in example["solvers"] if s["provider"] == "o4")
    provider = example["providers"]["o4"]
    with FakeServer(model=provider["model"], owned_by="openai") as server:
        server.thinking, server.strict_reasoning = "openai", True
        grid = {"name": "o4", "skeletons": {"generate": {"count": 6}},
                "providers": {"t": {"kind": "template"}, "o4": {**provider, "base_url": server.url}},
                "renderers": ["t"], "solvers": [solver]}
        path = tmp_path / "grid.yaml"
        path.write_text(orjson.dumps(grid).decode())   # JSON is YAML
        bench("run", "--grid", str(path), "--out", str(tmp_path / "run"), check=True,
              env={provider["api_key_env"]: "sk-test"})
        chats = [b for b in server.bodies if "messages" in b]
    records = [orjson.loads(line) for line in (tmp_path / "run" / "solves.jsonl").read_bytes().splitlines()]
    assert len(records) == 6 and all(r["status"] == "ok" for r in records), [r["reason"] for r in records]
    assert all(r["thinking"]["tokens"] > 0 and r["thinking"]["tokens_from"] == "usage" for r in records)
    for body in chats:
        assert body["max_completion_tokens"] == 8192 and body["reasoning_effort"] == "medium"
        assert not {"max_tokens", "temperature", "top_p"} & set(body)


def test_the_strict_server_refuses_what_the_api_refuses():
    with FakeServer(owned_by="openai") as server:
        server.thinking, server.strict_reasoning = "openai", True
        cfg = parse_provider("p", {"kind": "openai", "model": "fake-model", "base_url": server.url}, env={})
        plain, = solve(build_provider(cfg, env={}), SolveRequest(prompt=PROBLEM, labels=LABELS))
    # a plain solve sends max_tokens and a temperature: a reasoning model's API refuses it, not retried
    assert plain.status == "error" and "max_completion_tokens" in plain.reason and plain.attempts == 1
