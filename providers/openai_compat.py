"""OpenAI-compatible chat completions (vLLM, SGLang, llama.cpp, TGI, OpenAI), in each server's dialect;
and log-likelihood scoring through their completions endpoint (providers/loglik.py)."""
from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from providers.base import Completion, ProviderFailure, RenderRequest, SolveRequest, Usage, answered, usage_of
from providers.http import HTTPProvider
from providers.labels import check_label, gbnf, json_schema, parse_free_text, parse_json_answer
from providers.loglik import (boundary, completions_body, echo_scores, option_score, pick, prompt_logprobs, split_pair,
                              token_ids)
from providers.reasoning import (KNOWN, answered_after_thought, estimate, openai_fields, reasoning_of, split_think,
                                 thinks, usage_reasoning_tokens)
from rendering.schema import for_server

# The constraint `auto` sends to each server. vLLM >= 0.12 takes structured_outputs.choice and
# silently ignores guided_choice; llama.cpp ignores structured_outputs but takes json_schema.
AUTO_CONSTRAINT = {"vllm": "choice", "sglang": "json_schema", "llamacpp": "json_schema",
                   "tgi": "json_schema", "openai": "json_schema"}
SERVERS = tuple(AUTO_CONSTRAINT) + ("auto",)
# Servers whose JSON grammar honours `pattern` (and `prefixItems`, `const`): vLLM and SGLang (xgrammar;
# vLLM 0.32 CPU measured, see README). OpenAI gets the schema non-strict, llama.cpp and TGI unmeasured.
PATTERN_SERVERS = ("vllm", "sglang")
OWNED_BY = {"vllm": "vllm", "sglang": "sglang", "llamacpp": "llamacpp", "tgi": "tgi"}


def model_owner(listing: Any, model: str) -> str:
    """The server dialect a `/models` answer names for `model` (its `owned_by`); `openai` when it names none."""
    data = listing.get("data") if isinstance(listing, dict) else None
    for m in data if isinstance(data, list) else ():
        if isinstance(m, dict) and m.get("id") == model and isinstance(m.get("owned_by"), str):
            if m["owned_by"] in OWNED_BY:
                return OWNED_BY[m["owned_by"]]
    return "openai"


class OpenAICompatible(HTTPProvider):
    """Chat completions against one URL or a list of replicas."""

    path = "/chat/completions"

    def __init__(self, name: str, model: str, urls: list[str], *, server: str = "auto",
                 constraint: str = "auto", extra_body: dict | None = None, api_key: str | None = None,
                 **http: Any):
        super().__init__(name, model, urls, secret=api_key, **http)
        self.server, self.constraint = server, constraint
        self.extra_body = dict(extra_body or {})

    def headers(self) -> dict[str, str]:
        h = super().headers()
        if self._secret:
            h["authorization"] = f"Bearer {self._secret}"
        return h

    async def start(self) -> None:
        """Open the session; with `server: auto`, learn the dialect from /models (`owned_by`)."""
        await super().start()
        if self.server == "auto":
            self.server = await self._detect_server()

    async def _detect_server(self) -> str:
        try:
            listing = await self.get_json(self.urls[0] + "/models")
        except (ProviderFailure, OSError, ValueError, asyncio.TimeoutError, aiohttp.ClientError):
            listing = None   # unreachable or unusual server: the OpenAI dialect is the safe default
        return model_owner(listing, self.model)

    def resolve_constraint(self, asked: str) -> str:
        """The constraint to send: the request's, else the provider's, `auto` chosen by server."""
        mode = asked if asked != "auto" else self.constraint
        return AUTO_CONSTRAINT.get(self.server, "json_schema") if mode == "auto" else mode

    def _body(self, prompt: str, temperature: float, max_tokens: int, seed: int | None) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": [{"role": "user", "content": prompt}],
                                "temperature": temperature, "max_tokens": max_tokens}
        if seed is not None:
            body["seed"] = seed
        body.update(self.extra_body)
        return body

    @staticmethod
    def _message(data: dict[str, Any]) -> tuple[dict[str, Any], str | None, Usage]:
        """choices[0].message, its finish reason and the usage, type-checked: anything else is a
        retryable `malformed response` (a unit's error record after its retries), never an exception."""
        choices = data.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            raise ProviderFailure("malformed response: no choices[0].message object", retryable=True)
        if not isinstance(message.get("content"), (str, type(None))):
            raise ProviderFailure("malformed response: choices[0].message.content is not a string", retryable=True)
        finish = choice.get("finish_reason")
        return message, finish if isinstance(finish, str) else None, usage_of(
            data.get("usage"), "prompt_tokens", "completion_tokens")

    def structured(self, schema: Any) -> tuple[str, dict[str, Any]]:
        """The body fields that ask this server for JSON of `schema`, and what the constraint is called.

        The schema's sentence patterns go only to grammar backends that honour them (PATTERN_SERVERS);
        the others get the length bounds instead, and the checker judges what comes back either way."""
        schema = for_server(schema, self.server in PATTERN_SERVERS)
        if self.server == "vllm":
            # vLLM's JSON grammar can loop on whitespace until max_tokens. Versions that read this per
            # request stop it here; 0.32 reads only the server's setting, which launched servers get.
            return "json", {"structured_outputs": {"json": schema, "disable_any_whitespace": True}}
        # Not strict: OpenAI's strict mode refuses maxLength; whatever comes back is checked anyway.
        return "json_schema", {"response_format": {"type": "json_schema", "json_schema": {
            "name": "render", "strict": False, "schema": schema}}}

    async def render(self, request: RenderRequest) -> Completion:
        body = self._body(request.prompt, request.temperature, request.max_tokens,
                          request.sample if request.temperature > 0 else None)
        mode = "none"
        if request.schema is not None:
            if not self._started:   # the dialect (from /models) decides the fields
                await self.start()
                self._started = True
            mode, fields = self.structured(request.schema)
            body.update(fields)

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            message, finish, usage = self._message(data)
            return Completion(status="ok", text=message.get("content") or "", finish_reason=finish,
                              usage=usage, latency_s=latency, constrained=mode)
        return await self.run(attempt, mode)

    async def solve(self, request: SolveRequest) -> Completion:
        thinking = thinks(request.reasoning)
        mode = self.resolve_constraint(request.constraint)
        if thinking and self.reasoning_parser is False:
            mode = "none"   # no reasoning parser: a constraint would bind from the first token, silencing the thought
        labels = request.labels
        body = self._body(request.prompt, request.temperature, request.max_tokens,
                          request.sample if request.temperature > 0 else None)
        if mode == "choice":
            body["structured_outputs"] = {"choice": list(labels)}
        elif mode == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "answer", "strict": True, "schema": json_schema(labels)}}
        elif mode == "grammar":
            body["grammar"] = gbnf(labels)
        elif mode == "tool":
            body["tools"] = [{"type": "function", "function": {
                "name": "answer", "description": "Give the answer label.", "parameters": json_schema(labels)}}]
            body["tool_choice"] = {"type": "function", "function": {"name": "answer"}}
        if request.reasoning is not None:
            body.update(openai_fields(self.server, request.reasoning))

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            message, finish, usage = self._message(data)
            if thinking:
                return await self._after_thought(request, mode, message, finish, usage, data.get("usage"), latency)
            text, label = self._label(mode, message, labels)
            return answered(text, label, finish_reason=finish, usage=usage, latency_s=latency, constrained=mode)
        res = await self.run(attempt, mode)
        if thinking and mode != "none" and self.reasoning_parser is False:
            return await self.solve(request)   # found out just now: the server has no parser; ask as text
        return res

    def _label(self, mode: str, message: dict[str, Any], labels: tuple[str, ...]) -> tuple[str, str | None]:
        """The answer's text and its label, read as the constraint that was sent shapes it."""
        text = message.get("content") or ""
        if mode in ("choice", "grammar"):
            return text, check_label(text.strip(), labels)
        if mode == "json_schema":
            return text, parse_json_answer(text, labels)
        if mode == "tool":
            calls = message.get("tool_calls")
            call = calls[0] if isinstance(calls, list) and calls and isinstance(calls[0], dict) else {}
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            arguments = function.get("arguments")
            text = arguments if isinstance(arguments, str) else text
            return text, parse_json_answer(text, labels)
        return text, parse_free_text(text, labels)

    # vLLM and SGLang: whether the server runs a reasoning parser, learned from the first thinking answer
    # (or the probe before the run): a constrained answer with no thought in `reasoning` says it does not.
    reasoning_parser: bool | None = None

    async def _after_thought(self, request: SolveRequest, mode: str, message: dict[str, Any], finish: str | None,
                             usage: Usage, raw_usage: Any, latency: float) -> Completion:
        """A thinking solver's answer: the label after the thought, the thought's tokens, and whether
        max_tokens cut the thought before any answer (then `invalid`, never a wrong answer)."""
        has_field, thought = reasoning_of(message)
        if self.server in ("vllm", "sglang") and mode != "none":
            self.reasoning_parser = has_field
            if not has_field:   # the constraint bound from the first token: solve() asks again as text
                return Completion(status="error", reason="no reasoning parser", constrained=mode)
        content = message.get("content") or ""
        if not has_field and mode == "none":
            thought, content, _ = split_think(content)
        text, label = self._label(mode, {**message, "content": content}, request.labels)
        cut = finish == "length" and label is None
        tokens, source = usage_reasoning_tokens(raw_usage), "usage"
        if tokens is None and thought:
            tokens, source = await self._count(thought)
        return answered_after_thought(request, text, label, thought=thought, tokens=tokens, tokens_from=source,
                                      finish_reason=finish, cut=cut, usage=usage, latency_s=latency, constrained=mode)

    async def _count(self, thought: str) -> tuple[int, str]:
        """A thought's tokens: by the server's own tokenizer where it has /tokenize (vLLM, SGLang), else estimated."""
        if self.server in ("vllm", "sglang") and self.boundary_from != "echo":
            try:
                return len(await self._tokenize(thought)), "tokenize"
            except ProviderFailure:
                pass
        return estimate(thought), "estimate"

    async def check_reasoning(self) -> str | None:
        """Before a run with a thinking solver on vLLM or SGLang: whether the server runs a reasoning parser
        (a small constrained thinking solve answers with a `reasoning` field); a note when it does not."""
        if not self._started:
            await self.start()
            self._started = True
        if self.server not in ("vllm", "sglang") or self.reasoning_parser is not None:
            return None
        probe = SolveRequest(prompt="Is 7 greater than 3? Answer with exactly one of: yes, no", labels=("yes", "no"),
                             max_tokens=32, reasoning={"enabled": True})
        await self.solve(probe)
        if self.reasoning_parser is not False:
            return None
        known = "" if not KNOWN.search(self.model) else (
            f"; {self.model} is a reasoning model: start its server with --reasoning-parser (e.g. qwen3, "
            "deepseek_r1) so the label stays constrained after the thought")
        return (f"{self.name}: the server at {self.urls[0]} answers with no thought in its reasoning field (no "
                f"--reasoning-parser): "
                f"its thinking solves ask for the label as text and read it after the thought{known}")

    # Where an option's tokens start: "auto" asks /tokenize; the first answer fixes "tokenize", and a server
    # without one (404, 405) is scored by "echo" from then on (providers/loglik.py).
    boundary_from = "auto"

    async def _tokenize(self, text: str) -> list[int]:
        data, _ = await self.post({"model": self.model, "prompt": text, "add_special_tokens": False},
                                  path="/tokenize", at_root=True)
        return token_ids(data)

    async def _token_ids(self, texts: list[str]) -> list[list[int]] | None:
        """Each text's token ids from the server's /tokenize, asked at once; None where it has none."""
        got = await asyncio.gather(*(self._tokenize(t) for t in texts),
                                   return_exceptions=True)   # every call ends before the attempt does
        failed = next((g for g in got if isinstance(g, BaseException)), None)
        if failed is None:
            self.boundary_from = "tokenize"
            return got   # type: ignore[return-value]
        if isinstance(failed, ProviderFailure) and failed.status in (404, 405) and self.boundary_from == "auto":
            self.boundary_from = "echo"
            return None
        raise failed

    async def score(self, request: SolveRequest) -> Completion:
        """Loglik mode: each label as the continuation of the prompt (raw text, no chat template), all in
        one /v1/completions request; the answer is the best by `request.score`."""
        labels = request.labels
        pairs = [split_pair(request.prompt, request.delimiter + label) for label in labels]
        texts = [pairs[0][0]] + [ctx + cont for ctx, cont in pairs]   # the context (the same for all), each whole

        async def attempt() -> Completion:
            ids = await self._token_ids(texts) if self.boundary_from != "echo" else None
            if ids is not None:
                context_ids, *wholes = ids
                data, latency = await self.post(completions_body(self.model, wholes), path="/completions")
                values = prompt_logprobs(data, len(wholes))
                scores = tuple(option_score(label, v, boundary(context_ids, whole), len(whole))
                               for label, v, whole in zip(labels, values, wholes))
            else:
                data, latency = await self.post(completions_body(self.model, texts), path="/completions")
                scores = echo_scores(labels, data)
            best = pick(list(scores), request.score)
            return Completion(status="ok", text=best.option, label=best.option, finish_reason="loglik",
                              usage=usage_of(data.get("usage"), "prompt_tokens", "completion_tokens"),
                              latency_s=latency, constrained="loglik", scores=scores)
        return await self.run(attempt, "loglik")

    async def check_scoring(self) -> str | None:
        """Score a probe; a server that echoes no prompt log-probabilities fails here, before the run."""
        res = await self.score(SolveRequest(prompt="The sky is", labels=("blue", "green"), mode="loglik"))
        if res.status != "ok":
            raise ProviderFailure(f"{self.name}: cannot score log-likelihoods at {self.urls[0]}: {res.reason}",
                                  retryable=False)
        if self.boundary_from == "echo":
            return (f"{self.name}: the server at {self.urls[0]} has no /tokenize; each item's context goes as "
                    "one more prompt, and its echoed tokens mark where the options start")
        return None

    def describe(self) -> dict[str, Any]:
        return {"kind": "openai", "model": self.model, "extra_body": self.extra_body}

