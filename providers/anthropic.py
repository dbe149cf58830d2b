"""Anthropic Messages API: render as text, solve through a forced tool whose input schema has the enum."""
from __future__ import annotations

from typing import Any

import orjson

from providers.base import Completion, ProviderFailure, RenderRequest, SolveRequest, Usage, answered, usage_of
from providers.http import HTTPProvider
from providers.labels import check_label, json_schema, parse_free_text
from providers.reasoning import answered_after_thought, anthropic_fields, thinks, tokens_of_thought
from rendering.schema import for_server

API_VERSION = "2023-06-01"
DEFAULT_URL = "https://api.anthropic.com"
CONSTRAINTS = ("auto", "tool", "none")


class Anthropic(HTTPProvider):
    """POST /v1/messages with x-api-key and anthropic-version headers."""

    path = "/v1/messages"

    def __init__(self, name: str, model: str, urls: list[str], *, api_key: str, constraint: str = "auto",
                 extra_body: dict[str, Any] | None = None, **http: Any):
        super().__init__(name, model, urls, secret=api_key, **http)
        self.constraint = constraint
        self.extra_body = dict(extra_body or {})

    def headers(self) -> dict[str, str]:
        return {**super().headers(), "x-api-key": self._secret or "", "anthropic-version": API_VERSION}

    def _body(self, prompt: str, temperature: float, max_tokens: int) -> dict[str, Any]:
        body = {"model": self.model, "max_tokens": max_tokens, "temperature": temperature,
                "messages": [{"role": "user", "content": prompt}]}
        body.update(self.extra_body)
        return body

    @staticmethod
    def _parse(data: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None, Usage]:
        """The content blocks (objects only), stop reason and usage, type-checked: anything else is a
        retryable `malformed response`, never an exception."""
        content = data.get("content")
        if not isinstance(content, list):
            raise ProviderFailure("malformed response: no content list", retryable=True, kind="malformed")
        blocks = [b for b in content if isinstance(b, dict)]
        stop = data.get("stop_reason")
        return blocks, stop if isinstance(stop, str) else None, usage_of(data.get("usage"), "input_tokens", "output_tokens")

    async def render(self, request: RenderRequest) -> Completion:
        body = self._body(request.prompt, request.temperature, request.max_tokens)
        mode = "none"
        if request.schema is not None:   # a structured render: a forced tool whose input is the render
            mode = "tool"
            # A tool's input schema is not enforced as a grammar: length bounds, not sentence patterns.
            body["tools"] = [{"name": "render", "description": "Give the rendered problem.",
                              "input_schema": for_server(request.schema, patterns=False)}]
            body["tool_choice"] = {"type": "tool", "name": "render"}

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            content, stop, usage = self._parse(data)
            if mode == "tool":
                block = next((b for b in content if b.get("type") == "tool_use"), None)
                text = orjson.dumps(block.get("input")).decode() if block else ""
            else:
                text = _text(content)
            return Completion(status="ok", text=text, finish_reason=stop, usage=usage, latency_s=latency,
                              constrained=mode)
        return await self.run(attempt, mode)

    async def solve(self, request: SolveRequest) -> Completion:
        asked = request.constraint if request.constraint != "auto" else self.constraint
        thinking = thinks(request.reasoning)
        # The API refuses a forced tool while thinking: a thinking solve asks for the label as text.
        mode = "tool" if asked in ("auto", "tool") and not thinking else "none"
        labels = request.labels
        body = self._body(request.prompt, request.temperature, request.max_tokens)
        if thinking:
            body.update(anthropic_fields(request.reasoning or {}))
            body.pop("temperature", None)   # thinking takes no temperature but the default
        if mode == "tool":
            body["tools"] = [{"name": "answer", "description": "Give the answer label.",
                              "input_schema": json_schema(labels)}]
            body["tool_choice"] = {"type": "tool", "name": "answer"}

        async def attempt() -> Completion:
            data, latency = await self.post(body)
            content, stop, usage = self._parse(data)
            if mode == "tool":
                block = next((b for b in content if b.get("type") == "tool_use"), None)
                given = block.get("input") if block else None
                value = given.get("answer") if isinstance(given, dict) else None
                text = orjson.dumps(given).decode() if block else ""
                label = check_label(value if isinstance(value, str) else None, labels)
            else:
                text = _text(content)
                label = parse_free_text(text, labels)
            if thinking:
                return _after_thought(request, content, text, label, stop, usage, latency)
            return answered(text, label, finish_reason=stop, usage=usage, latency_s=latency, constrained=mode)
        return await self.run(attempt, mode)


def _after_thought(request: SolveRequest, content: list[dict[str, Any]], text: str, label: str | None, stop: str | None,
                   usage: Usage, latency: float) -> Completion:
    """A thinking solve's answer: the label from the text after the thinking blocks; the thought's tokens, the
    output tokens less the answer's estimate (the API counts them together); what max_tokens cut (the thought,
    or the answer after it) is `invalid`, never a wrong answer."""
    thought = "".join(b["thinking"] for b in content if b.get("type") == "thinking" and isinstance(b.get("thinking"), str))
    tokens, source = tokens_of_thought(thought, True, None, usage.completion_tokens, text)
    return answered_after_thought(request, text, label, thought=thought, tokens=tokens, tokens_from=source,
                                  finish_reason=stop, ended="closed" if thought else "none", usage=usage,
                                  latency_s=latency, constrained="none")


def _text(blocks: list[dict[str, Any]]) -> str:
    """The text of a message's text blocks (a block whose text is not a string counts as empty)."""
    return "".join(b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str))
