"""HTTP providers against the fake server on 127.0.0.1: dialects, faults, retries, caps, replicas, secrets."""
from __future__ import annotations

import asyncio
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.base import RenderRequest, SolveRequest
from providers.build import build_provider
from providers.config import ConfigError, parse_provider
from providers.http import throttle_window
from tests.fake_server import FakeServer

LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
KEY = "sk-test-SECRET-0123456789"


@pytest.fixture
def server():
    with FakeServer() as srv:
        yield srv


@pytest.fixture(params=["auto", "aiohttp"])
def client(request):
    """The HTTP client a provider sends through: the lean one (auto, on plain http) or aiohttp."""
    return request.param


def make(kind: str, url, env=None, **settings):
    settings.setdefault("model", "fake-model")
    cfg = parse_provider("p", {"kind": kind, "base_url": url, **settings}, env=env or {})
    return build_provider(cfg, env=env or {})


def run(provider, *requests):
    async def go():
        await provider.start()
        try:
            return await asyncio.gather(*(provider.solve(r) if isinstance(r, SolveRequest) else provider.render(r)
                                          for r in requests))
        finally:
            await provider.close()
    return asyncio.run(go())


def solve_req(constraint="auto", labels=LABELS):
    return SolveRequest(prompt="Who is left? " + " ".join(labels), labels=labels, constraint=constraint)


@pytest.mark.parametrize("kind, settings, expect", [
    ("vllm", {}, "choice"),
    ("openai", {}, "choice"),                      # auto: /v1/models says owned_by vllm
    ("openai", {"server": "llamacpp"}, "json_schema"),
    ("openai", {"server": "openai"}, "json_schema"),
    ("openai", {"constraint": "tool"}, "tool"),
    ("openai", {"constraint": "none"}, "none"),
])
def test_solve_dialects_send_the_server_s_constraint(server, kind, settings, expect):
    (res,) = run(make(kind, server.url, **settings), solve_req())
    body = server.bodies[-1]
    assert "guided_choice" not in body
    assert res.constrained == expect and res.status == "ok" and res.label in LABELS
    if expect == "choice":
        assert body["structured_outputs"] == {"choice": list(LABELS)}
    elif expect == "json_schema":
        schema = body["response_format"]["json_schema"]["schema"]
        assert body["response_format"]["type"] == "json_schema"
        assert schema["properties"]["answer"]["enum"] == list(LABELS) and schema["required"] == ["answer"]
    elif expect == "tool":
        assert body["tool_choice"] == {"type": "function", "function": {"name": "answer"}}
        assert body["tools"][0]["function"]["parameters"]["properties"]["answer"]["enum"] == list(LABELS)
    else:
        assert not {"structured_outputs", "response_format", "grammar", "tools"} & set(body)


def test_a_server_that_ignores_its_constraint_has_its_answer_checked(server):
    # declared llama.cpp, served by vLLM: a top-level `grammar` is ignored (HTTP 200, unconstrained echo) and
    # the label check catches it
    (res,) = run(make("openai", server.url, server="llamacpp", constraint="grammar"), solve_req())
    assert res.constrained == "grammar" and res.status == "invalid" and res.text.startswith("Who is left?")


@pytest.mark.parametrize("kind,settings,constraint", [
    ("vllm", {}, "grammar"), ("anthropic", {"api_key_env": "K"}, "choice"), ("anthropic", {"api_key_env": "K"}, "grammar"),
    ("openai", {"server": "openai"}, "choice"), ("openai", {"server": "sglang"}, "choice"),
    ("openai", {"server": "llamacpp"}, "tool")])
def test_a_constraint_the_server_cannot_honour_is_a_config_error(kind, settings, constraint):
    with pytest.raises(ConfigError, match=r"^providers\.p\.constraint: expected one of .*servers honour"):
        parse_provider("p", {"kind": kind, "model": "m", "base_url": "http://h/v1", "constraint": constraint,
                             **settings}, env={"K": "k"})


def test_llamacpp_detected_from_models_listing_and_grammar_honoured():
    with FakeServer(owned_by="llamacpp") as srv:
        (res,) = run(make("openai", srv.url), solve_req())
        assert res.constrained == "json_schema" and "response_format" in srv.bodies[-1]
        (res,) = run(make("openai", srv.url, constraint="grammar"), solve_req())
        assert srv.bodies[-1]["grammar"] == 'root ::= "LEFT_OF" | "RIGHT_OF" | "UNKNOWN"'
        assert res.constrained == "grammar" and res.status == "ok" and res.label in LABELS


def test_answer_outside_label_set_is_invalid_with_raw_kept(server):
    server.answer_override = "Probably the left one, honestly"   # a server that ignored the constraint
    (res,) = run(make("vllm", server.url), solve_req())
    assert res.status == "invalid" and res.label is None
    assert res.text == "Probably the left one, honestly" and res.reason


def test_render_returns_text_usage_and_latency(server):
    (res,) = run(make("vllm", server.url), RenderRequest(prompt="Write a story about E0 and E1", payload={}))
    assert res.status == "ok" and "E0" in res.text and res.finish_reason == "stop"
    assert res.usage.prompt_tokens > 0 and res.latency_s > 0 and res.attempts == 1
    body = server.bodies[-1]
    assert body["messages"] == [{"role": "user", "content": "Write a story about E0 and E1"}]


def test_extra_body_passed_through(server):
    run(make("vllm", server.url, extra_body={"top_k": 5, "repetition_penalty": 1.1}), solve_req())
    assert server.bodies[-1]["top_k"] == 5 and server.bodies[-1]["repetition_penalty"] == 1.1


@pytest.mark.parametrize("fault", ["429", "429-date", "500", "503", "drop", "malformed", "slow"])
def test_each_fault_is_retried_to_success(server, fault, client):
    server.retry_after, server.slow_s = "0", 3.0
    server.script.extend([fault])
    (res,) = run(make("vllm", server.url, read_timeout_s=0.5, http_client=client), solve_req())
    assert res.status == "ok" and res.attempts == 2 and server.faults_served[fault] == 1


@pytest.mark.parametrize("fault", ["500", "drop", "malformed"])
def test_persistent_fault_ends_as_error_after_configured_attempts(server, fault, client):
    server.default = fault
    (res,) = run(make("vllm", server.url, retries=3, http_client=client), solve_req())
    assert res.status == "error" and res.attempts == 3 and server.requests == 3 and res.reason


@pytest.mark.parametrize("fault, reason", [("404", "http 404"), ("context", "context_length")])
def test_non_retryable_fails_at_once(server, fault, reason, client):
    server.default = fault
    (res,) = run(make("vllm", server.url, retries=5, http_client=client), solve_req())
    assert res.status == "error" and res.attempts == 1 and server.requests == 1
    assert res.reason.startswith(reason)


def test_retry_after_is_waited(server):
    server.retry_after = "1"
    server.script.extend(["429"])
    started = time.monotonic()
    (res,) = run(make("vllm", server.url), solve_req())
    assert res.status == "ok" and res.attempts == 2 and time.monotonic() - started >= 0.95


def test_in_flight_cap_never_exceeded(server, client):
    server.latency_s = 0.05
    provider = make("vllm", server.url, max_concurrency=4, http_client=client)
    results = run(provider, *[solve_req() for _ in range(40)])
    assert all(r.status == "ok" for r in results)
    assert server.max_in_flight == 4


def test_start_rate_limited(server):
    provider = make("vllm", server.url, rate_per_s=20)
    started = time.monotonic()
    run(provider, *[solve_req() for _ in range(30)])
    assert time.monotonic() - started >= 0.45   # 30 starts at 20/s cannot finish in one window


def test_replicas_least_in_flight_and_dead_replica_taken_out(client):
    with FakeServer() as a, FakeServer() as b:
        a.latency_s = b.latency_s = 0.02
        dead = "http://127.0.0.1:9/v1"   # nothing listens on the discard port
        provider = make("vllm", [a.url, b.url, dead], max_concurrency=4, http_client=client)
        results = run(provider, *[solve_req() for _ in range(60)])
        assert all(r.status == "ok" for r in results)
        assert a.requests > 10 and b.requests > 10
        assert a.max_in_flight <= 4 and b.max_in_flight <= 4


def test_secret_sent_as_bearer_but_never_in_errors(server, client):
    env = {"MY_KEY": KEY}
    server.echo_auth_in_errors = True
    provider = make("openai", server.url, env=env, api_key_env="MY_KEY", model="wrong-model", http_client=client)
    (res,) = run(provider, solve_req())
    assert server.headers_seen[-1]["Authorization"] == f"Bearer {KEY}"
    assert res.status == "error" and KEY not in res.reason and "***" in res.reason


def test_plain_http_goes_through_the_lean_client_unless_told(server, client):
    (res,) = run(make("vllm", server.url, http_client=client), solve_req())
    agent = server.headers_seen[-1]["User-Agent"]
    assert res.status == "ok" and (agent == "logic-skeleton-bench" if client == "auto" else "aiohttp" in agent)


@pytest.mark.parametrize("key, what", [
    ("sk-abc\r\nX-Injected: 1", "carriage return (CR) inside it"), ("sk-abc\n", "line feed (LF) at its end"),
    ("sk-a\tbc", "a tab inside it"), ("sk-abc\x7f", "a DEL at its end"), ("\x00sk-abc", "a NUL at its start"),
    ("sk-ab\x85c", "U+0085 inside it"), ("sk-ab\x1bc", "U+001B inside it")])
@pytest.mark.parametrize("kind", ["openai", "vllm", "anthropic"])
def test_a_key_with_a_control_character_is_refused_naming_its_variable(server, client, kind, key, what):
    env = {"MY_KEY": key}
    with pytest.raises(ConfigError) as info:   # the grid check, before any request
        make(kind, server.url, env=env, api_key_env="MY_KEY", http_client=client)
    message = str(info.value)
    assert message.startswith("providers.p.api_key_env: environment variable MY_KEY holds") and what in message
    assert "sk-a" not in message and "\n" not in message and server.requests == 0
    cfg = parse_provider("p", {"kind": kind, "model": "fake-model", "base_url": server.url,
                               "api_key_env": "MY_KEY"}, env={"MY_KEY": "sk-fine"})
    with pytest.raises(ConfigError, match="MY_KEY holds"):   # a node whose environment differs from the check's
        build_provider(cfg, env=env)


def test_an_unknown_http_client_is_a_config_error():
    with pytest.raises(ConfigError, match=r"^providers\.p\.http_client: expected one of auto, aiohttp"):
        make("vllm", "http://127.0.0.1:9/v1", http_client="curl")


# ---- Anthropic --------------------------------------------------------------------------------

def anthropic(server, **settings):
    root = server.url[: -len("/v1")]
    return make("anthropic", root, env={"ANTHROPIC_API_KEY": KEY}, **settings)


def test_anthropic_forced_tool_with_enum(server):
    (res,) = run(anthropic(server), solve_req())
    body, headers = server.bodies[-1], server.headers_seen[-1]
    assert headers["x-api-key"] == KEY and headers["anthropic-version"] == "2023-06-01"
    assert body["tool_choice"] == {"type": "tool", "name": "answer"}
    assert body["tools"][0]["input_schema"]["properties"]["answer"]["enum"] == list(LABELS)
    assert body["max_tokens"] > 0
    assert res.status == "ok" and res.constrained == "tool" and res.label in LABELS
    assert res.finish_reason == "tool_use" and res.usage.completion_tokens == 5


def test_anthropic_render_and_overload_retry(server):
    server.retry_after = "0"
    server.script.extend(["503", "429"])   # served as 529 overloaded_error, then 429 rate_limit_error
    (res,) = run(anthropic(server), RenderRequest(prompt="Tell E0 and E1", payload={}))
    assert res.status == "ok" and res.attempts == 3 and "E0" in res.text


def test_anthropic_context_length_is_a_result(server):
    server.default = "context"
    (res,) = run(anthropic(server), solve_req())
    assert res.status == "error" and res.reason.startswith("context_length") and res.attempts == 1


# Any JSON object a server may answer: each response parser returns its parts or raises the
# retryable `malformed response` failure, never another exception (issue 15's first class).

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                         st.sampled_from(["choices", "message", "content", "usage", "prompt_tokens", "text",
                                          "type", "input", "finish_reason", "tool_calls", "stop_reason"]),
                         inner, max_size=4), max_leaves=16)


@settings(max_examples=400, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["choices", "usage", "content", "stop_reason", "id"]), _json, max_size=4))
def test_response_parsers_return_or_fail_as_malformed(data):
    from providers.anthropic import Anthropic
    from providers.base import ProviderFailure
    from providers.openai_compat import OpenAICompatible
    for parse in (OpenAICompatible._message, Anthropic._parse):
        try:
            parse(data)
        except ProviderFailure as exc:
            assert exc.reason.startswith("malformed response") and exc.retryable


@settings(max_examples=300, deadline=None)
@given(listing=_json)
def test_any_models_listing_gives_a_dialect(listing):
    from providers.config import SERVERS
    from providers.openai_compat import model_owner
    assert model_owner(listing, "fake-model") in SERVERS
    assert model_owner({"data": [{"id": "fake-model", "owned_by": "vllm"}]}, "fake-model") == "vllm"


def test_the_two_answers_that_ended_a_run_are_now_unit_results():
    from providers.base import ProviderFailure
    from providers.openai_compat import OpenAICompatible
    with pytest.raises(ProviderFailure, match="malformed response"):
        OpenAICompatible._message({"choices": [{"message": "a string, not an object"}]})
    _, _, usage = OpenAICompatible._message({"choices": [{"message": {"content": "x"}}],
                                             "usage": {"prompt_tokens": "abc", "completion_tokens": 3}})
    assert (usage.prompt_tokens, usage.completion_tokens) == (0, 3)


@given(st.floats(min_value=0.01, max_value=10_000, allow_nan=False))
def test_a_throttle_admits_the_rate_asked_not_its_ceiling(rate):
    """rate_per_s 0.5 is one start every 2 s (its ceiling a second, 1, sent twice the rate asked)."""
    starts, seconds = throttle_window(rate)
    assert isinstance(starts, int) and starts >= 1 and seconds > 0
    assert abs(starts / seconds - rate) <= 0.01 * rate
    if rate < 1:
        assert starts == 1   # never a burst above one start for a rate under one a second


def test_fractional_rates_by_example():
    assert throttle_window(0.5) == (1, 2.0)
    assert throttle_window(2.5) == (5, 2.0)
    assert throttle_window(5) == (5, 1.0)
