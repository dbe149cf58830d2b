"""A fake OpenAI-compatible server shaped like vLLM, for fault injection in tests and as a benchmark target.

Runs aiohttp on 127.0.0.1 at a random port, in a thread of its own (`FakeServer().start()`) or as a
process (`python -m tests.fake_server --port 0`, which prints the URL). Faults are scripted: each
request takes the next entry of `script` (then `default`): ok, 429, 429-date, 500, 503, drop, slow,
malformed, context, 404; and faults of HTTP itself, written raw: stray (the answer, then in the same write a
stray extra answer on the kept-alive connection: another label of the set, its usage STRAY_TOKENS prompt
tokens), stray-apart (the same in two writes), stray-late (the stray written when the connection's next
request has come, before its answer: always after the client sent it), bad-status, te-and-length, bad-length (a non-ASCII digit), huge-head. `keepalive_s` closes idle
connections that soon (as servers do: the client's next request may cross the close). As vLLM, an answer's
`id` is `chatcmpl-<X-Request-Id>` (`cmpl-` for completions; a random id without the header), and a stray's
is its own request's; `echo_id_header` also echoes the header (vLLM's --enable-request-id-headers). Honours `structured_outputs.choice`; ignores unknown fields like vLLM does
(so `guided_choice` has no effect); an unconstrained chat answer echoes the prompt. Asked for a
structured render (a JSON schema with `premises`), it answers a faithful one of the skeleton in the
prompt, or what `render_hook` makes of it; asked for a parse-back (`facts`), the facts its sentences state.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import email.utils
import hashlib
import re
import threading
import time
import uuid
from typing import Any

import orjson
from aiohttp import web

STRAY_TOKENS = 424242   # the prompt tokens a stray answer reports: a record holding them took a stray answer
RAW_FAULTS = {
    "bad-status": b"HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\n{}",
    "te-and-length": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "bad-length": "HTTP/1.1 200 OK\r\nContent-Length: \u0662\r\n\r\n{}".encode(),
    "huge-head": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200_000 + b"\r\nContent-Length: 2\r\n\r\n{}",
}


class _Raw(web.StreamResponse):
    """An answer written as raw bytes (one write), which aiohttp would never send itself; aiohttp sends
    nothing more for it and keeps the connection."""

    def __init__(self, request: web.Request, raw: bytes):
        super().__init__()
        request.transport.write(raw)
        self._eof_sent = True


def raw_http(response: web.Response) -> bytes:
    """A web.Response's status, content type and body as the bytes of an HTTP/1.1 answer."""
    body = response.body or b""
    return (f"HTTP/1.1 {response.status} OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


class FakeServer:
    """The server and its counters (requests seen, in flight now, most in flight at once, bodies)."""

    def __init__(self, model: str = "fake-model", *, latency_s: float = 0.0, slow_s: float = 5.0,
                 retry_after: str = "1", record_bodies: bool = True, owned_by: str = "vllm",
                 keepalive_s: float = 75.0):
        self.keepalive_s = keepalive_s
        self.model, self.latency_s, self.slow_s = model, latency_s, slow_s
        self.retry_after, self.record_bodies, self.owned_by = retry_after, record_bodies, owned_by
        self.script: collections.deque[str] = collections.deque()
        self.answer_override: str | None = None   # a server that ignores constraints answers this
        # Structured renders: the faithful render of the payload in the prompt (the template's), passed
        # through render_hook(render, payload) -> the text answered (to script a corrupted render).
        self.render_hook = None
        # Parse-back audits: the facts of the payload rendered with those names, through audit_hook(facts, payload).
        self.audit_hook = None
        # Solves: solve_hook(prompt, labels) -> the answer (a label, or anything, as a server ignoring the
        # constraint would); fault_hook(body) -> a fault name (e.g. "404") for this request, or None.
        self.solve_hook = None
        self.fault_hook = None
        self.no_prompt_logprobs = False           # completions echo no prompt log-probabilities (llama.cpp)
        self.fault_tokenize = False               # scripted faults apply to /tokenize too
        self.no_tokenize = False                  # /tokenize is not found (most servers but vLLM's)
        self.tokenize_hook = None                 # tokenize_hook(ids) -> the ids /tokenize answers
        self.logprob_hook = None                  # logprob_hook(values) -> the echoed token_logprobs
        self.echo_auth_in_errors = False          # some APIs quote the key they refused
        self.default = "ok"
        self.fault_rate = 0.0                     # with this probability a request gets a random fault
        self.fault_kinds = ("429", "500", "503", "drop", "malformed")
        self._rng = __import__("random").Random(0)
        # Thinking solvers: None (the model does not think), "parser" (vLLM or SGLang with a reasoning parser:
        # `reasoning` beside the content, the constraint after the thought), "no_parser" (the thought in the
        # content as <think>...</think>, a constraint binding from the first token), "template" (no parser,
        # and the chat template opens <think> in the prompt, as R1's, QwQ's and Qwen3-Thinking's do: the
        # content holds only `... </think> answer`, a cut thought no tag at all), "openai" (a hidden thought,
        # its tokens in usage). Anthropic's /v1/messages thinks whenever the body asks.
        self.thinking: str | None = None
        self.thought_hook = None                  # thought_hook(prompt) -> the thought (default fake_thought)
        # usage.completion_tokens_details.reasoning_tokens of an "openai" thought: "count" (OpenAI's), "absent"
        # (servers that send no details), "zero" (0 whatever was thought)
        self.reasoning_tokens = "count"
        # OpenAI's reasoning models, strictly: a chat body with max_tokens, or a temperature or top_p but 1,
        # is refused with the API's own 400 (unsupported_parameter / unsupported_value)
        self.strict_reasoning = False
        self.echo_ids = True                      # answers carry the request's X-Request-Id in their id, as vLLM's
        self.echo_id_header = False               # and in an X-Request-Id header (--enable-request-id-headers)
        self._late: dict[Any, bytes] = {}         # stray-late: the stray a connection's next request meets
        self.healthy = True
        self.hold = False                         # while True, every request waits before it is answered
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.bodies: list[dict[str, Any]] = []
        self.headers_seen: list[dict[str, str]] = []
        self.faults_served: collections.Counter[str] = collections.Counter()
        self.url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    # ---- application -------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/completions", self._completions)
        app.router.add_post("/tokenize", self._tokenize)
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/health", self._health)
        app.router.add_get("/v1/models", self._models)
        return app

    async def _health(self, request: web.Request) -> web.Response:
        return web.Response(status=200 if self.healthy else 503)

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [
            {"id": self.model, "object": "model", "owned_by": self.owned_by}]})

    @staticmethod
    def _error(status: int, message: str, kind: str, headers: dict | None = None) -> web.Response:
        body = orjson.dumps({"error": {"message": message, "type": kind, "param": None, "code": status}})
        return web.Response(status=status, body=body, content_type="application/json", headers=headers)

    async def _fault(self, request: web.Request) -> web.StreamResponse | str | None:
        if self.script:
            fault = self.script.popleft()
        elif self.fault_rate and self._rng.random() < self.fault_rate:
            fault = self._rng.choice(self.fault_kinds)
        else:
            fault = self.default
        self.faults_served[fault] += 1
        while self.hold:   # a test holds the run still (e.g. while it loads a page), then lets it go
            await asyncio.sleep(0.02)
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        if fault == "ok":
            return None
        if fault in ("stray", "stray-apart", "stray-late"):
            return fault   # _serve writes the answer and its stray
        if fault in RAW_FAULTS:
            return _Raw(request, RAW_FAULTS[fault])
        if fault == "429":
            return self._error(429, "rate limited", "RateLimitError", {"Retry-After": self.retry_after})
        if fault == "429-date":
            when = email.utils.formatdate(time.time() + float(self.retry_after), usegmt=True)
            return self._error(429, "rate limited", "RateLimitError", {"Retry-After": when})
        if fault in ("500", "503"):
            return self._error(int(fault), "server error", "InternalServerError")
        if fault == "404":
            return self._error(404, "The model does not exist.", "NotFoundError")
        if fault == "context":
            return self._error(400, "This model's maximum context length is 2048 tokens. However, you "
                                    "requested 4096 tokens.", "BadRequestError")
        if fault == "malformed":
            return web.Response(status=200, body=b'{"choices": [', content_type="application/json")
        if fault == "drop":
            request.transport.close()
            return web.Response(status=200)
        if fault == "slow":
            await asyncio.sleep(self.slow_s)
            return None
        raise ValueError(f"unknown fault {fault!r}")

    async def _enter(self, request: web.Request) -> dict[str, Any] | web.Response:
        self.requests += 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            body = orjson.loads(await request.read())
        except orjson.JSONDecodeError:
            return self._error(400, "malformed JSON body", "BadRequestError")
        if self.record_bodies:
            self.bodies.append(body)
            self.headers_seen.append(dict(request.headers))
        late = self._late.pop(request.transport, None)
        if late is not None:   # the connection's previous answer's stray: after this request, before its answer
            request.transport.write(late)
        if body.get("model") != self.model:
            auth = f" (key {request.headers.get('Authorization', '')})" if self.echo_auth_in_errors else ""
            return self._error(404, f"The model `{body.get('model')}` does not exist{auth}.", "NotFoundError")
        if self.strict_reasoning and "messages" in body:
            refused = self._refused(body)
            if refused is not None:
                return refused
        return body

    @staticmethod
    def _refused(body: dict[str, Any]) -> web.Response | None:
        """OpenAI's answer to what its reasoning models do not take (the API's wording and codes)."""
        def error(param: str, code: str, message: str) -> web.Response:
            return web.Response(status=400, content_type="application/json", body=orjson.dumps({"error": {
                "message": message, "type": "invalid_request_error", "param": param, "code": code}}))
        if "max_tokens" in body:
            return error("max_tokens", "unsupported_parameter", "Unsupported parameter: 'max_tokens' is not "
                         "supported with this model. Use 'max_completion_tokens' instead.")
        for key in ("temperature", "top_p"):
            if key in body and body[key] != 1:
                return error(key, "unsupported_value", f"Unsupported value: '{key}' does not support {body[key]} "
                             "with this model. Only the default (1) value is supported.")
        return None

    async def _serve(self, request: web.Request, answer) -> web.StreamResponse:
        """The OpenAI-shaped routes: count, check the model, inject the next fault, else answer."""
        try:
            body = await self._enter(request)
            if isinstance(body, web.Response):
                return body
            if self.fault_hook is not None and (name := self.fault_hook(body)):
                self.script.appendleft(name)   # _fault takes it before its first await: no other request between
            fault = await self._fault(request)
            # as vLLM: the request's X-Request-Id is its id (a random one without it), echoed in the answer
            rid = request.headers.get("X-Request-Id") or uuid.uuid4().hex
            echo = rid if self.echo_ids else "fake"
            if fault == "stray":   # one write: the stray is in the client's kernel before it reads the answer
                return _Raw(request, raw_http(answer(body, echo)) + self._stray(body, echo))
            if fault == "stray-apart":   # two writes: the stray may reach the client after its next request
                raw = _Raw(request, raw_http(answer(body, echo)))
                request.transport.write(self._stray(body, echo))
                return raw
            if fault == "stray-late":   # written when this connection's next request has come (_enter)
                self._late[request.transport] = self._stray(body, echo)
            response = fault if isinstance(fault, web.StreamResponse) else answer(body, echo)
            if self.echo_id_header and not isinstance(response, _Raw):   # vLLM's --enable-request-id-headers
                response.headers["X-Request-Id"] = rid
            return response
        finally:
            self.in_flight -= 1

    def _stray(self, body: dict[str, Any], rid: str = "stray") -> bytes:
        """An extra answer nobody asked for: well formed, a label of the set (another than the prompt's own),
        and STRAY_TOKENS prompt tokens in its usage, so a record that took it shows it; its id is that of the
        request it repeats an answer to (`rid`), as a server that answers twice would write it."""
        prompt = "".join(m.get("content") or "" for m in body.get("messages", []) if isinstance(m, dict))
        labels = _solve_labels(body, prompt) or ["STRAY"]
        own = (self.solve_hook or self.pick)(prompt, labels) if labels != ["STRAY"] else None
        label = next((x for x in labels if x != own), labels[0])
        return raw_http(web.Response(body=orjson.dumps({
            "id": f"chatcmpl-{rid}", "object": "chat.completion", "created": 0, "model": self.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": label}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": STRAY_TOKENS, "completion_tokens": 1, "total_tokens": STRAY_TOKENS + 1}})))

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        return await self._serve(request, self._chat_answer)

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        return await self._serve(request, self._completion_answer)

    def _chat_answer(self, body: dict[str, Any], rid: str = "fake") -> web.Response:
        prompt = "".join(m.get("content") or "" for m in body.get("messages", []))
        message: dict[str, Any] = {"role": "assistant", "content": None}
        so = body.get("structured_outputs") or {}
        rf = body.get("response_format") or {}
        schema = so.get("json") or (rf.get("json_schema") or {}).get("schema") or {}
        if "premises" in schema.get("properties", {}):
            message["content"] = self.structured_render(prompt, schema)
        elif "facts" in schema.get("properties", {}):
            message["content"] = self.parse_back(prompt)
        elif so.get("choice"):
            hook = self.solve_hook or self.pick
            message["content"] = hook(prompt, so["choice"])
        elif rf.get("type") == "json_schema":
            enum = rf["json_schema"]["schema"]["properties"]["answer"]["enum"]
            message["content"] = orjson.dumps({"answer": self.pick(prompt, enum)}).decode()
        elif body.get("grammar") and self.owned_by == "llamacpp":   # llama.cpp's GBNF
            message["content"] = self.pick(prompt, re.findall(r'"((?:[^"\\]|\\.)*)"', body["grammar"]))
        elif body.get("tools") and body.get("tool_choice"):
            enum = body["tools"][0]["function"]["parameters"]["properties"]["answer"]["enum"]
            message["tool_calls"] = [{"id": "call-0", "type": "function", "function": {
                "name": "answer", "arguments": orjson.dumps({"answer": self.pick(prompt, enum)}).decode()}}]
        else:
            message["content"] = prompt   # unconstrained: echo (renders then carry every label)
        if self.answer_override is not None:
            message = {"role": "assistant", "content": self.answer_override}
        # a word is a token here; an echo's prompt and text are one string, counted once
        prompt_tokens = len(prompt.split())
        text = message["content"] or ""
        completion_tokens = prompt_tokens if text is prompt else len(text.split())
        finish, usage_extra = "stop", {}
        if self.thinking and _solve_labels(body, prompt) and \
                (body.get("chat_template_kwargs") or {}).get("enable_thinking") is not False:
            message, finish, completion_tokens, usage_extra = self._thought_answer(body, prompt, message)
        return web.Response(body=orjson.dumps({
            "id": f"chatcmpl-{rid}", "object": "chat.completion", "created": int(time.time()),
            "model": self.model, "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens, **usage_extra}}),
            content_type="application/json")

    def _thought_answer(self, body: dict[str, Any], prompt: str, constrained: dict[str, Any]):
        """A thinking model's solve in this server's dialect: (message, finish reason, completion tokens,
        extra usage fields). Its thought grows with the problem; max_tokens may cut it before the answer."""
        labels = _solve_labels(body, prompt)
        forced = bool((body.get("structured_outputs") or {}).get("choice") or body.get("response_format"))
        if self.thinking in ("no_parser", "template") and forced:   # the constraint binds from the first token
            return {**constrained, "reasoning": None}, "stop", 1, {}   # vLLM 0.32 sends the key, null, parser or not
        thought_text = (self.thought_hook or fake_thought)(prompt)
        words = thought_text.split(" ") if thought_text else []
        if body.get("thinking_token_budget"):   # vLLM ends the thought at the budget
            words = words[:body["thinking_token_budget"]]
        limit = body.get("max_completion_tokens", body.get("max_tokens", 16))
        label = (self.solve_hook or self.pick)(prompt, labels)
        answer = orjson.dumps({"answer": label}).decode() if body.get("response_format") else label
        cut = len(words) >= limit
        thought = " ".join(words[:limit])
        used = min(len(words), limit) + (0 if cut else 1)
        if self.thinking == "openai":
            message = {"role": "assistant", "content": "" if cut else answer}
            count = {"count": min(len(words), limit), "zero": 0}.get(self.reasoning_tokens)
            return message, "length" if cut else "stop", used, {} if count is None else {
                "completion_tokens_details": {"reasoning_tokens": count}}
        if self.thinking == "parser":
            message = {"role": "assistant", "reasoning": thought or None, "content": None if cut else answer}
        elif self.thinking == "template":   # <think> was in the prompt: only its close comes back
            message = {"role": "assistant", "reasoning": None,
                       "content": thought + ("" if cut else f"\n</think>\n\n{answer}")}
        else:
            message = {"role": "assistant", "reasoning": None,
                       "content": f"<think>\n{thought}" + ("" if cut else f"\n</think>\n\n{answer}")}
        return message, "length" if cut else "stop", used, {}

    def _completion_answer(self, body: dict[str, Any], rid: str = "fake") -> web.Response:
        """vLLM's /v1/completions: a prompt (text, token ids, or a list of either), echoed with one
        log-probability per prompt token (the first null), and one generated token."""
        prompt = body.get("prompt", "")
        many = isinstance(prompt, list) and prompt and not isinstance(prompt[0], int)
        prompts = prompt if many else [prompt]
        choices = []
        for i, p in enumerate(prompts):
            ids = list(p) if isinstance(p, list) else fake_tokenize(p)
            # a text prompt's tokens echo as their text, token ids as their number
            pieces = [str(t) for t in ids] if isinstance(p, list) else fake_pieces(p)
            ids, pieces = ids + [7], pieces + ["."]   # the generated token
            lps = [None] + [fake_logprob(a, b) for a, b in zip(ids, ids[1:])]
            if self.no_prompt_logprobs:   # like llama.cpp's server: only the generated token's
                lps = lps[-1:]
            if self.logprob_hook is not None:
                lps = self.logprob_hook(lps)
            choice: dict[str, Any] = {"index": i, "text": "", "finish_reason": "length"}
            if body.get("logprobs") is not None:
                choice["logprobs"] = {"tokens": pieces, "token_logprobs": lps if body.get("echo")
                                      else lps[-1:]}
            choices.append(choice)
        n = sum(len(p) if isinstance(p, list) else len(fake_tokenize(p)) for p in prompts)
        return web.json_response({"id": f"cmpl-{rid}", "object": "text_completion", "model": self.model,
                                  "choices": choices, "usage": {"prompt_tokens": n, "completion_tokens": len(prompts)}})

    async def _tokenize(self, request: web.Request) -> web.StreamResponse:
        """vLLM's /tokenize (at the server's root): {"tokens": [...], "count": n}."""
        if self.no_tokenize:   # as FastAPI answers a route it does not have
            self.requests += 1
            return web.json_response({"detail": "Not Found"}, status=404)
        body = await self._enter(request)
        try:
            if isinstance(body, web.Response):
                return body
            fault = await self._fault(request) if self.fault_tokenize else None
            if fault is not None and not isinstance(fault, str):
                return fault
            ids = fake_tokenize(str(body.get("prompt", "")))
            if self.tokenize_hook is not None:   # an impossible answer, to script
                ids = self.tokenize_hook(ids)
            if fault == "stray-late":   # a second /tokenize answer (no id: vLLM's carry none) when the next request comes
                self._late[request.transport] = raw_http(web.json_response(
                    {"tokens": [STRAY_TOKENS], "count": 1, "max_model_len": 4096}))
            return web.json_response({"tokens": ids, "count": len(ids), "max_model_len": 4096})
        finally:
            self.in_flight -= 1

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        """Anthropic's Messages API: x-api-key and anthropic-version required, tool_use when forced."""
        try:
            if not request.headers.get("x-api-key") or not request.headers.get("anthropic-version"):
                self.requests += 1
                return self._anthropic_error(401, "authentication_error", "invalid x-api-key")
            body = await self._enter(request)
            if isinstance(body, web.Response):
                return self._anthropic_error(body.status, "not_found_error", "model not found")
            fault = await self._fault(request)
            if isinstance(fault, _Raw):   # already written
                return fault
            if fault is not None and not isinstance(fault, str):   # a stray: the chat routes' only
                if fault.status == 429 or fault.status >= 500:
                    kind = "rate_limit_error" if fault.status == 429 else "overloaded_error"
                    return self._anthropic_error(529 if fault.status == 503 else fault.status, kind,
                                                 "busy", dict(fault.headers))
                if fault.status == 400:
                    return self._anthropic_error(400, "invalid_request_error",
                                                 "prompt is too long: 300000 tokens > 200000 maximum")
                return fault
            prompt = "".join(m["content"] if isinstance(m["content"], str) else "" for m in body["messages"])
            if body.get("thinking") and body.get("tool_choice", {}).get("type") in ("tool", "any"):
                return self._anthropic_error(400, "invalid_request_error",
                                             "Thinking may not be enabled when tool_choice forces tool use.")
            if body.get("thinking") and _solve_labels(body, prompt):
                words = fake_thought(prompt).split(" ")
                limit, label = body["max_tokens"], (self.solve_hook or self.pick)(prompt, _solve_labels(body, prompt))
                cut = len(words) >= limit
                content = [{"type": "thinking", "thinking": " ".join(words[:limit]), "signature": "c2ln"}]
                if not cut:
                    content.append({"type": "text", "text": label})
                stop, out = ("max_tokens", limit) if cut else ("end_turn", len(words) + 1)
            elif body.get("tool_choice", {}).get("name") == "render":   # a structured render through a forced tool
                schema = body["tools"][0]["input_schema"]
                content = [{"type": "tool_use", "id": "toolu_fake", "name": "render",
                            "input": orjson.loads(self.structured_render(prompt, schema))}]
                stop, out = "tool_use", 50
            elif body.get("tool_choice", {}).get("type") == "tool":
                enum = body["tools"][0]["input_schema"]["properties"]["answer"]["enum"]
                content = [{"type": "tool_use", "id": "toolu_fake", "name": "answer",
                            "input": {"answer": self.pick(prompt, enum)}}]
                stop, out = "tool_use", 5
            else:
                content, stop, out = [{"type": "text", "text": prompt}], "end_turn", len(prompt.split())
            return web.json_response({"id": "msg_fake", "type": "message", "role": "assistant",
                                      "model": self.model, "content": content, "stop_reason": stop,
                                      "usage": {"input_tokens": len(prompt.split()), "output_tokens": out}})
        finally:
            if request.headers.get("x-api-key") and request.headers.get("anthropic-version"):
                self.in_flight -= 1

    @staticmethod
    def _anthropic_error(status: int, kind: str, message: str, headers: dict | None = None) -> web.Response:
        keep = {k: v for k, v in (headers or {}).items() if k.lower() == "retry-after"}
        body = orjson.dumps({"type": "error", "error": {"type": kind, "message": message}})
        return web.Response(status=status, body=body, content_type="application/json", headers=keep)

    def structured_render(self, prompt: str, schema: dict | None = None) -> str:
        """A structured render of the payload found in a render prompt (or, for a prompt of assigned names,
        of the facts it lists), with the names the schema fixes: faithful, unless render_hook says otherwise
        (the hook gets the payload, None for a listing)."""
        from providers.builtin import template_structure
        given = {s: v["const"] for s, v in ((schema or {}).get("properties", {}).get("names", {})
                                            .get("properties", {})).items() if isinstance(v, dict) and "const" in v}
        try:
            payload = _payload_in(prompt)
        except ValueError:
            payload = None
        if payload is not None:
            render = _renamed(template_structure(payload), given)
        else:
            render = _from_listing(prompt, given)
        if self.render_hook is not None:
            out = self.render_hook(render, payload)
            return out if isinstance(out, str) else orjson.dumps(out).decode()
        return orjson.dumps(render).decode()

    def parse_back(self, prompt: str) -> str:
        """A parse-back audit: the facts the puzzle's sentences state, read from its text (the template's
        sentences and the families' readings), spelled with its names; through audit_hook(facts, None)."""
        problem = prompt.split("The puzzle:\n", 1)[-1]
        facts = [fact for line in problem.splitlines() if (fact := _read_sentence(line.strip()))]
        if self.audit_hook is not None:
            facts = self.audit_hook(facts, None)
        return orjson.dumps({"facts": facts}).decode()

    @staticmethod
    def pick(prompt: str, labels: list[str]) -> str:
        """A deterministic label for a prompt (a 'model' with no skill, stable across runs)."""
        return labels[int(hashlib.blake2b(prompt.encode(), digest_size=4).hexdigest(), 16) % len(labels)]

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "FakeServer":
        """Serve in a background thread; returns once the port is bound (self.url set)."""
        ready = threading.Event()

        def serve() -> None:
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            self._runner = web.AppRunner(self.app(), access_log=None, keepalive_timeout=self.keepalive_s)
            self._loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            self._loop.run_until_complete(site.start())
            port = site._server.sockets[0].getsockname()[1]
            self.url = f"http://127.0.0.1:{port}/v1"
            ready.set()
            self._loop.run_forever()
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()

        self._thread = threading.Thread(target=serve, daemon=True, name="fake-server")
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        """Stop serving and join the thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def __enter__(self) -> "FakeServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def fake_thought(prompt: str) -> str:
    """A thinking model's thought on a problem: five words per sentence of the problem, so deeper problems
    (more premises) think longer, deterministically."""
    problem = prompt.split("Answer with exactly one of:", 1)[0]
    sentences = max(1, problem.count(". ") + problem.count(".\n") + problem.count("?"))
    return " ".join(f"step{i} weighs premise {i} again." for i in range(sentences))


def _solve_labels(body: dict[str, Any], prompt: str) -> list[str]:
    """The labels of a solve request (its constraint's, else the prompt's `Answer with exactly one of:` list);
    [] for renders and audits."""
    so, rf = body.get("structured_outputs") or {}, body.get("response_format") or {}
    if so.get("choice"):
        return list(so["choice"])
    enum = (((rf.get("json_schema") or {}).get("schema") or {}).get("properties") or {}).get("answer", {}).get("enum")
    if enum:
        return list(enum)
    if "Answer with exactly one of: " in prompt and not so and not rf:
        return [x.strip() for x in prompt.rsplit("Answer with exactly one of: ", 1)[1].strip().split(", ")]
    return []


def fake_pieces(text: str) -> list[str]:
    """The fake tokenizer's tokens: runs of non-space characters with the spaces before them (like GPT-2's
    BPE); so `Then` + ` a` are two tokens, and `x=` + `y` merge into one."""
    return re.findall(r"\s*\S+|\s+$", text)


def fake_tokenize(text: str) -> list[int]:
    """The fake tokenizer's ids: a hash of each token's text."""
    return [int(hashlib.blake2b(t.encode(), digest_size=3).hexdigest(), 16) + 10 for t in fake_pieces(text)]


def fake_logprob(prev: int, token: int) -> float:
    """The fake model's log-probability of `token` after `prev`: fixed, and different per pair."""
    return -0.05 * (1 + int(hashlib.blake2b(f"{prev}:{token}".encode(), digest_size=2).hexdigest(), 16) % 97)


def _sentence_forms() -> list[tuple[re.Pattern, str, tuple[int, ...]]]:
    """(regex, predicate, argument order) for every sentence the fake reads back: each family's canonical
    reading of its predicates (the template's sentences, and what renders of assigned names say), the
    card's `=` and `!=`, and one phrasing no family's wording has ("In the row, A comes before B."): an
    auditor reads more than the grammar, which is what it is there for."""
    from families.registry import FAMILIES
    forms = [(r"(\w+) != (\w+)", "NOT_EQUAL", (0, 1)), (r"(\w+) = (\w+)", "EQUAL", (0, 1)),
             (r"In the row, (.+?) comes before (.+?)\.", "LEFT_OF", (0, 1))]
    for family in FAMILIES.values():
        for predicate, reading in family.readings.items():
            regex = re.escape(reading + ".").replace(re.escape("{0}"), "(.+?)").replace(re.escape("{1}"), "(.+?)")
            forms.append((regex, predicate, (0, 1)))
    # the negated readings first: "is not one of" would otherwise read as "is one of" with a name "x is not"
    forms.sort(key=lambda f: "not" not in f[0])
    # a name is words (no punctuation): a question that mentions a relation is no premise
    name = r"([\w ]+?)"
    return [(re.compile("^" + regex.replace("(.+?)", name) + "$"), predicate, order) for regex, predicate, order in forms]


_FORMS = _sentence_forms()


def _read_sentence(line: str) -> dict | None:
    """The fact one sentence states, or None."""
    for regex, predicate, order in _FORMS:
        m = regex.match(line)
        if m:
            args = [m.group(i + 1) for i in order]
            return {"predicate": predicate, "arguments": [int(a) if re.fullmatch(r"-?\d+", a) else a for a in args]}
    return None


def _renamed(render: dict, given: dict[str, str]) -> dict:
    """The render with the names a schema fixes in place of its own (whole words, in every text)."""
    old = {render["names"][s]: new for s, new in given.items() if s in render["names"]}
    if not old:
        return render
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(old, key=len, reverse=True)) + r")\b")
    sub = lambda text: pattern.sub(lambda m: old[m.group(1)], text)  # noqa: E731
    return {"names": {**render["names"], **given}, "intro": sub(render["intro"]),
            "premises": [{"fact": p["fact"], "text": sub(p["text"])} for p in render["premises"]],
            "question": sub(render["question"])}


def _from_listing(prompt: str, given: dict[str, str]) -> dict:
    """A faithful render of a prompt that lists its facts in plain words (`0. Nico is to the left of Ben.`)."""
    premises = [{"fact": int(i), "text": text} for i, text in re.findall(r"^(\d+)\. (.*)$", prompt, re.M)]
    asked = re.search(r"^The question: (.*?\?)", prompt, re.M)
    question = asked.group(1)[0].upper() + asked.group(1)[1:] if asked else "What follows?"
    return {"names": given, "intro": "", "premises": premises, "question": question}


def _payload_in(prompt: str) -> dict:
    """The first JSON object in a prompt that looks like a redacted skeleton."""
    decoder = __import__("json").JSONDecoder()
    for match in re.finditer(r"\{", prompt):
        try:
            obj, _ = decoder.raw_decode(prompt, match.start())
        except ValueError:
            continue
        if isinstance(obj, dict) and "facts" in obj and "entities" in obj:
            return obj
    raise ValueError("no skeleton payload in the render prompt")


def main() -> None:
    """Serve in the foreground: `python -m tests.fake_server --port 0 --latency 0`."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--model", default="fake-model")
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--fault", default="ok", help="every request's fault (ok, stray, 500...); default ok")
    ap.add_argument("--keepalive", type=float, default=75.0, help="close idle connections after this many seconds")
    ap.add_argument("--echo-key", action="store_true", help="quote the Authorization header in error messages")
    ap.add_argument("--thinking", choices=("parser", "no_parser", "template", "openai"), default=None,
                    help="play a thinking model in this dialect")
    ap.add_argument("--no-echo", action="store_true", help="answers carry no X-Request-Id (not as vLLM)")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate and key")
    args = ap.parse_args()
    server = FakeServer(args.model, latency_s=args.latency, record_bodies=False)
    server.thinking, server.default, server.keepalive_s = args.thinking, args.fault, args.keepalive
    server.echo_auth_in_errors = args.echo_key
    server.echo_ids = not args.no_echo
    tls = None
    if args.tls:
        import ssl
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(*args.tls)

    async def run() -> None:
        runner = web.AppRunner(server.app(), access_log=None, keepalive_timeout=server.keepalive_s)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", args.port, ssl_context=tls)
        await site.start()
        print(f"{'https' if tls else 'http'}://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/v1", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()


def solve_once(prov, request, server) -> Any:
    """`prov.solve(request)` once, the provider started and closed around it, then `server` closed: the Completion."""
    async def go():
        await prov.start()
        try:
            return await prov.solve(request)
        finally:
            await prov.close()
    try:
        return asyncio.run(go())
    finally:
        server.close()


class RawServer:
    """An OpenAI-shaped chat server written on plain sockets in a thread, for faults between answers: each
    request (read whole by its Content-Length) gets `answer(body)`'s bytes; the test then writes on, or
    closes, the server's side of a connection itself (`conns`) and waits with `delivered` until the client's
    kernel holds it. `echo_ids`: an answer's `chatcmpl-raw` id is the request's X-Request-Id, as vLLM's."""

    def __init__(self, answer=None, echo_ids: bool = False):
        self.answer = answer or (lambda body: raw_http(web.Response(body=chat_answer(body))))
        self.echo_ids = echo_ids
        self.conns: list = []
        self.requests = 0
        self._sock = __import__("socket").create_server(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        threading.Thread(target=self._accept, daemon=True, name="raw-server").start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn) -> None:
        buf = b""
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                head, _, buf = buf.partition(b"\r\n\r\n")
                if not head.startswith(b"POST"):   # /models and the like: not found, as most servers but vLLM
                    conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    continue
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
                while len(buf) < length:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                body, buf = buf[:length], buf[length:]
                self.requests += 1
                answer = self.answer(orjson.loads(body))
                if answer is None:   # a close that crosses the request: no byte of an answer
                    conn.close()
                    return
                rid = re.search(rb"(?i)x-request-id: *([^\r\n]+)", head)
                conn.sendall(echoed(answer, rid.group(1)) if self.echo_ids and rid else answer)
        except OSError:
            return

    def delivered(self, conn, timeout_s: float = 10.0) -> None:
        """Wait until what was written on `conn` (the server's side) reached the client's kernel: its send
        queue empty (Linux's SIOCOUTQ), the bytes acknowledged."""
        import fcntl
        import struct
        import termios
        deadline = time.monotonic() + timeout_s
        while struct.unpack("i", fcntl.ioctl(conn, termios.TIOCOUTQ, b"\0\0\0\0"))[0]:
            if time.monotonic() > deadline:
                raise TimeoutError("the client's kernel did not take the bytes")
            time.sleep(0.001)

    def close(self) -> None:
        self._sock.close()
        for conn in self.conns:
            conn.close()


def echoed(answer: bytes, rid: bytes) -> bytes:
    """A raw answer whose `chatcmpl-raw` id is `chatcmpl-<rid>` (Content-Length made anew)."""
    head, _, body = answer.partition(b"\r\n\r\n")
    body = body.replace(b'"chatcmpl-raw"', b'"chatcmpl-' + rid + b'"')
    head = re.sub(rb"(?i)content-length: *\d+", b"Content-Length: %d" % len(body), head)
    return head + b"\r\n\r\n" + body


def chat_answer(body: dict[str, Any], tokens: int | None = None) -> bytes:
    """A chat completion answering a solve `body` with its own label (FakeServer.pick of its prompt);
    `tokens`: the prompt tokens its usage reports (a stray's STRAY_TOKENS), else the prompt's words."""
    prompt = "".join(m.get("content") or "" for m in body.get("messages", []) if isinstance(m, dict))
    label = FakeServer.pick(prompt, _solve_labels(body, prompt)) if _solve_labels(body, prompt) else prompt
    usage = {"prompt_tokens": len(prompt.split()) if tokens is None else tokens, "completion_tokens": 1}
    return orjson.dumps({"id": "chatcmpl-raw", "object": "chat.completion", "created": 0, "model": body.get("model"),
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": label},
                                      "finish_reason": "stop"}], "usage": usage})
