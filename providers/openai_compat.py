"""OpenAI-compatible chat completions (vLLM, SGLang, llama.cpp, TGI, OpenAI), in each server's dialect (found
out from /models with `server: auto`); thinking answers are read by providers/openai_thinking.py, options
scored by log-likelihood by providers/openai_loglik.py."""
from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from providers.base import Completion, ProviderFailure, RenderRequest, SolveRequest, Usage, answered, usage_of
from providers.dialects import DIALECTS, Dialect, by_owner, reasoning_model
from providers.labels import check_label, gbnf, json_schema, parse_free_text, parse_json_answer
from providers.openai_thinking import ThinkingAnswers
from providers.reasoning import openai_fields, thinks
from rendering.schema import for_server

SETTLE_TRIES = 8   # thinking answers sent one at a time while they say nothing of a reasoning parser


def model_owner(listing: Any, model: str) -> str:
    """The server dialect a `/models` answer names for `model` (its `owned_by`); `openai` when it names none."""
    data = listing.get("data") if isinstance(listing, dict) else None
    for m in data if isinstance(data, list) else ():
        if isinstance(m, dict) and m.get("id") == model and isinstance(m.get("owned_by"), str):
            return by_owner(m["owned_by"]).name
    return "openai"


class OpenAICompatible(ThinkingAnswers):
    """Chat completions against one URL or a list of replicas (thinking answers and loglik scoring: its bases)."""

    path = "/chat/completions"

    def __init__(self, name: str, model: str, urls: list[str], *, server: str = "auto",
                 constraint: str = "auto", extra_body: dict[str, Any] | None = None, api_key: str | None = None,
                 **http: Any):
        super().__init__(name, model, urls, secret=api_key, **http)
        self.server, self.constraint = server, constraint
        self.extra_body = dict(extra_body or {})
        # Learned from the answers (or settings): whether the server runs a reasoning parser (None: not yet
        # known), whether the chat template opens the thought in the prompt, whether it has /tokenize.
        self.reasoning_parser = None
        self.template_opens = False
        self.has_tokenize = None
        # While the parser is unknown, thinking solves go one at a time, so the first answer that settles it
        # shapes the rest (all sent at once, every one would go unconstrained); after SETTLE_TRIES answers that
        # settle nothing (a model that never thinks), they go as they come.
        self._settling = asyncio.Lock()
        self._unsettled = 0
        self.found_out = server != "auto"   # whether the dialect is known (declared, or from /models)

    @property
    def dialect(self) -> Dialect:
        """This server's dialect (OpenAI's until `server: auto` is found out at start)."""
        return DIALECTS.get(self.server, DIALECTS["openai"])

    def echoes_ids(self) -> bool:
        """vLLM (declared, or found by `server: auto`) answers with our X-Request-Id in its body's `id`."""
        return self.dialect.name == "vllm"

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
        self.found_out = listing is not None
        return model_owner(listing, self.model)

    async def _ready(self) -> None:
        """Start once before a request whose fields depend on the dialect (found out from /models)."""
        if not self._started:
            await self.start()
            self._started = True

    def resolve_constraint(self, asked: str) -> str:
        """The constraint to send: the request's, else the provider's, `auto` chosen by the dialect; one the
        server (as found out by `server: auto`) does not honour becomes what it honours for `auto` (the run
        refuses such a grid before any request: runner/commands/probes.py; this is the last guard)."""
        mode = asked if asked != "auto" else self.constraint
        return self.dialect.auto_constraint if mode == "auto" or not self.dialect.honours(mode) else mode

    @property
    def reasoning_model(self) -> bool:
        """Whether this is one of OpenAI's reasoning models on OpenAI's API (its rules whatever the role)."""
        return reasoning_model(self.dialect, self.model)

    async def find_server(self) -> Dialect | None:
        """This server's dialect as its /models answer tells (`server: auto`); None where it did not answer."""
        await self._ready()
        return self.dialect if self.found_out else None

    def _body(self, prompt: str, temperature: float, max_tokens: int, seed: int | None,
              thinking: bool = False) -> dict[str, Any]:
        """The chat body; a thinking solve on a dialect whose thinking models refuse sampling settings (OpenAI's
        o-series and gpt-5), or any request to one of OpenAI's reasoning models (render, audit, plain solve),
        sends none, and its token limit under the dialect's name for it."""
        d = self.dialect
        strict = self.reasoning_model
        body: dict[str, Any] = {"model": self.model, "messages": [{"role": "user", "content": prompt}]}
        if not strict and (not thinking or d.thinking_sampling):
            body["temperature"] = temperature
        body[d.thinking_limit if thinking or strict else "max_tokens"] = max_tokens
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
        if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
            raise ProviderFailure("malformed response: no choices[0].message object", retryable=True, kind="malformed")
        message = choice["message"]
        if not isinstance(message.get("content"), (str, type(None))):
            raise ProviderFailure("malformed response: choices[0].message.content is not a string", retryable=True, kind="malformed")
        finish = choice.get("finish_reason")
        return message, finish if isinstance(finish, str) else None, usage_of(
            data.get("usage"), "prompt_tokens", "completion_tokens")

    def structured(self, schema: Any) -> tuple[str, dict[str, Any]]:
        """The body fields that ask this server for JSON of `schema`, and what the constraint is called.

        The schema's sentence patterns go only to grammar backends that honour them (the dialect's `patterns`);
        the others get the length bounds instead, and the checker judges what comes back either way."""
        schema = for_server(schema, self.dialect.patterns)
        if self.dialect.json_field == "structured_outputs":
            # vLLM's JSON grammar can loop on whitespace until max_tokens. Versions that read this per
            # request stop it here; 0.32 reads only the server's setting, which launched servers get.
            return "json", {"structured_outputs": {"json": schema, "disable_any_whitespace": True}}
        # Not strict: OpenAI's strict mode refuses maxLength; whatever comes back is checked anyway.
        return "json_schema", {"response_format": {"type": "json_schema", "json_schema": {
            "name": "render", "strict": False, "schema": schema}}}

    async def render(self, request: RenderRequest) -> Completion:
        await self._ready()   # the dialect (from /models) decides the fields
        body = self._body(request.prompt, request.temperature, request.max_tokens,
                          request.sample if request.temperature > 0 else None)
        mode = "none"
        if request.schema is not None:
            mode, fields = self.structured(request.schema)
            body.update(fields)

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            message, finish, usage = self._message(data)
            return Completion(status="ok", text=message.get("content") or "", finish_reason=finish,
                              usage=usage, latency_s=latency, constrained=mode)
        return await self.run(attempt, mode)

    async def solve(self, request: SolveRequest) -> Completion:
        await self._ready()   # the dialect decides the constraint's field and the token limit's name
        thinking = thinks(request.reasoning)
        if thinking and self.dialect.reasoning_field and self.reasoning_parser is None \
                and self._unsettled < SETTLE_TRIES:
            async with self._settling:
                if self.reasoning_parser is None:   # still unknown: this answer may settle it
                    try:
                        return await self._solve(request, thinking)
                    finally:
                        self._unsettled += self.reasoning_parser is None
        return await self._solve(request, thinking)

    async def _solve(self, request: SolveRequest, thinking: bool) -> Completion:
        """One solve, its constraint as far as the server is known now."""
        mode = self.resolve_constraint(request.constraint)
        if thinking and self.dialect.reasoning_field and self.reasoning_parser is not True:
            # Until an answer shows a reasoning parser, ask for the label as text: without one a constraint
            # binds from the first token and silences the thought.
            mode = "none"
        labels = request.labels
        body = self._body(request.prompt, request.temperature, request.max_tokens,
                          request.sample if request.temperature > 0 else None, thinking)
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
            body.update(openai_fields(self.dialect, request.reasoning))

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            message, finish, usage = self._message(data)
            if thinking:
                return await self._after_thought(request, mode, message, finish, usage, data.get("usage"), latency)
            text, label = self._label(mode, message, labels)
            return answered(text, label, finish_reason=finish, usage=usage, latency_s=latency, constrained=mode)
        return await self.run(attempt, mode)

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
            function: dict[str, Any] = call["function"] if isinstance(call.get("function"), dict) else {}
            arguments = function.get("arguments")
            text = arguments if isinstance(arguments, str) else text
            return text, parse_json_answer(text, labels)
        return text, parse_free_text(text, labels)
