"""OpenAI-compatible chat completions (vLLM, SGLang, llama.cpp, TGI, OpenAI), in each server's dialect;
and log-likelihood scoring through their completions endpoint (providers/loglik.py)."""
from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from providers.base import Completion, ProviderFailure, RenderRequest, SolveRequest, Usage, answered, usage_of
from providers.dialects import DIALECTS, Dialect, by_owner, reasoning_model
from providers.http import HTTPProvider
from providers.labels import check_label, gbnf, json_schema, parse_free_text, parse_json_answer
from providers.loglik import (
    boundary,
    completions_body,
    echo_scores,
    option_score,
    pick,
    prompt_logprobs,
    split_pair,
    token_ids,
)
from providers.reasoning import (
    KNOWN,
    THINK_OPEN,
    answered_after_thought,
    openai_fields,
    reasoning_of,
    split_think,
    thinks,
    tokens_of_thought,
    usage_reasoning_tokens,
)
from rendering.schema import for_server

SETTLE_TRIES = 8   # thinking answers sent one at a time while they say nothing of a reasoning parser


def model_owner(listing: Any, model: str) -> str:
    """The server dialect a `/models` answer names for `model` (its `owned_by`); `openai` when it names none."""
    data = listing.get("data") if isinstance(listing, dict) else None
    for m in data if isinstance(data, list) else ():
        if isinstance(m, dict) and m.get("id") == model and isinstance(m.get("owned_by"), str):
            return by_owner(m["owned_by"]).name
    return "openai"


class OpenAICompatible(HTTPProvider):
    """Chat completions against one URL or a list of replicas."""

    path = "/chat/completions"

    def __init__(self, name: str, model: str, urls: list[str], *, server: str = "auto",
                 constraint: str = "auto", extra_body: dict[str, Any] | None = None, api_key: str | None = None,
                 **http: Any):
        super().__init__(name, model, urls, secret=api_key, **http)
        self.server, self.constraint = server, constraint
        self.extra_body = dict(extra_body or {})
        # Learned from the answers (or settings): whether the server runs a reasoning parser (None: not yet
        # known), whether the chat template opens the thought in the prompt, whether it has /tokenize.
        self.reasoning_parser: bool | None = None
        self.template_opens = False
        self.has_tokenize: bool | None = None
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

    async def _after_thought(self, request: SolveRequest, mode: str, message: dict[str, Any], finish: str | None,
                             usage: Usage, raw_usage: Any, latency: float) -> Completion:
        """A thinking solver's answer: the label after the thought (never from inside it), the thought's
        tokens, and what max_tokens cut (the thought, or the answer after it: then `invalid`, never wrong)."""
        has_field, thought = reasoning_of(message)
        raw = content = message.get("content") or ""
        ended = "closed" if has_field else "none"   # how the thought ended: none came back as text, so far
        if has_field:
            self.reasoning_parser = True
        elif mode == "none":
            opened = self.template_opens or bool(request.reasoning and request.reasoning.get("opened_by_template"))
            thought, content, ended = split_think(content, opened)
            if ended == "closed":   # the thought came in the content: no parser moved it out
                self.reasoning_parser = False
                if THINK_OPEN not in raw:
                    self.template_opens = True   # `</think>` with no `<think>`: the template opened it
            elif ended == "none" and finish in ("length", "max_tokens") and self.dialect.reasoning_field:
                thought, content, ended = content.strip(), "", "open"   # no tag, cut: a thought, never an answer
        text, label = self._label(mode, {**message, "content": content}, request.labels) if ended != "open" \
            else (content, None)
        tokens, source = None, None
        if thought and self.dialect.tokenize and self.has_tokenize is not False and self.boundary_from != "echo":
            tokens, source = await self._count(thought)
        if tokens is None:
            visible = self.dialect.reasoning_field or ended != "none"
            tokens, source = tokens_of_thought(thought, visible, usage_reasoning_tokens(raw_usage),
                                               usage.completion_tokens, text)
        return answered_after_thought(request, text, label, thought=thought, tokens=tokens, tokens_from=source,
                                      finish_reason=finish, ended=ended, usage=usage, latency_s=latency,
                                      constrained=mode)

    async def _count(self, thought: str) -> tuple[int | None, str | None]:
        """A thought's tokens by the server's own tokenizer; (None, None) where it has no /tokenize."""
        try:
            return len(await self._tokenize(thought)), "tokenize"
        except ProviderFailure:
            return None, None

    async def check_reasoning(self) -> str | None:
        """Before a run with a thinking solver: whether the server runs a reasoning parser (a small thinking solve
        asked as text: a thought in `reasoning` says it does, one in the content that it does not, no thought
        settles nothing); a note when it does not."""
        await self._ready()
        if not self.dialect.reasoning_field or self.reasoning_parser is not None:
            return None
        probe = SolveRequest(prompt="Is 7 greater than 3? Answer with exactly one of: yes, no", labels=("yes", "no"),
                             max_tokens=64, reasoning={"enabled": True})
        await self.solve(probe)
        if self.reasoning_parser is not False:
            return None
        known = "" if not KNOWN.search(self.model) else (
            f"; {self.model} is a reasoning model: start its server with --reasoning-parser (e.g. qwen3, "
            "deepseek_r1) so the label stays constrained after the thought")
        return (f"{self.name}: the server at {self.urls[0]} answers with its thought in the content (no "
                f"--reasoning-parser): its thinking solves ask for the label as text and read it after the "
                f"thought{known}")

    # Where an option's tokens start: "auto" asks /tokenize; the first answer fixes "tokenize", and a server
    # without one (404, 405) is scored by "echo" from then on (providers/loglik.py).
    boundary_from = "auto"

    async def _tokenize(self, text: str) -> list[int]:
        """A text's token ids from the server's /tokenize; a server without one (404, 405) is asked only once."""
        try:
            data, _ = await self.post({"model": self.model, "prompt": text, "add_special_tokens": False},
                                      path="/tokenize", at_root=True)
        except ProviderFailure as exc:
            if exc.status in (404, 405):
                self.has_tokenize = False
            raise
        self.has_tokenize = True
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
            usage = usage_of(data.get("usage"), "prompt_tokens", "completion_tokens")
            if best is None:
                return Completion(status="invalid", text="", finish_reason="loglik", usage=usage, latency_s=latency,
                                  constrained="loglik", scores=scores,
                                  reason=f"options tie at the top by {request.score}: no answer")
            return Completion(status="ok", text=best.option, label=best.option, finish_reason="loglik",
                              usage=usage, latency_s=latency, constrained="loglik", scores=scores)
        return await self.run(attempt, "loglik")

    async def check_scoring(self) -> str | None:
        """Score a probe; a server that echoes no prompt log-probabilities fails here, before the run."""
        res = await self.score(SolveRequest(prompt="The sky is", labels=("blue", "green"), mode="loglik"))
        if res.status != "ok":
            raise ProviderFailure(f"{self.name}: cannot score log-likelihoods at {self.urls[0]}: {res.reason}",
                                  retryable=False, kind="refused")
        if self.boundary_from == "echo":
            return (f"{self.name}: the server at {self.urls[0]} has no /tokenize; each item's context goes as "
                    "one more prompt, and its echoed tokens mark where the options start")
        return None
