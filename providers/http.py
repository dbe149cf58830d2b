"""HTTP plumbing shared by the HTTP providers: one session, caps, timing, retries (the replicas they route to:
endpoints.py; a failed request in one line: failures.py)."""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from fractions import Fraction
from typing import Any, Awaitable, Callable, Mapping
from urllib.parse import urlsplit

import aiohttp
import orjson
from aiohttp.http_exceptions import HttpProcessingError
from asyncio_throttle import Throttler

from providers.answers import MAX_BODY, Response, WireError
from providers.base import Completion, Provider, ProviderFailure
from providers.config import key_fault
from providers.endpoints import Endpoint, EndpointPool
from providers.failures import classify, connection_reason, scrub, scrub_bytes, wire_reason
from providers.identity import Asking, Echo, RequestIds, Whose, learned
from providers.pooled import REUSED, CheckedConnector, sessions
from providers.retry import RetryPolicy, with_retries
from providers.wire import Wire


def throttle_window(rate_per_s: float) -> tuple[int, float]:
    """(starts, seconds) for a Throttler that admits `rate_per_s` starts a second on average. Throttler admits a
    start while fewer than `starts` began in the last `seconds`, and takes an integer: a fractional rate given as
    its ceiling a second would send 0.5 a second at 1 (and 2.5 at 3), so it is spread over a longer window
    (0.5: one start in 2 s; 2.5: five in 2 s), and a rate below one is one start a 1/rate-second window."""
    if rate_per_s < 1:
        return 1, 1.0 / rate_per_s
    window = Fraction(rate_per_s).limit_denominator(100)
    return window.numerator, float(window.denominator)


class HTTPProvider(Provider):
    """A provider that POSTs JSON to one or several replicas through one pooled session."""

    path = ""

    def __init__(self, name: str, model: str, urls: list[str], *, max_concurrency: int,
                 rate_per_s: float | None, connect_timeout_s: float, read_timeout_s: float,
                 policy: RetryPolicy, secret: str | None = None, http_client: str = "auto"):
        self.name, self.model, self.urls = name, model, urls
        # `auto`: the lean client (providers/wire.py) for plain http, aiohttp for https; `aiohttp`: aiohttp for all
        self.http_client = http_client
        self.connect_timeout_s, self.read_timeout_s = connect_timeout_s, read_timeout_s
        # request line and headers per target URL, and whether the request goes alone (`Connection: close`)
        self._heads: dict[tuple[str, bool], bytes] = {}
        self.max_concurrency = max_concurrency
        self.pool = EndpointPool(urls, max_concurrency)
        # the gate each attempt's start passes: this process's own, or (a Ray agent) the cluster's limiter
        self.throttle: contextlib.AbstractAsyncContextManager[object] | None = \
            Throttler(*throttle_window(rate_per_s)) if rate_per_s else None
        # read_timeout_s bounds a whole attempt, not each socket read: these servers send nothing until
        # the answer is made, so both end the same wait, and aiohttp re-arms a read timer on every
        # chunk received (a few percent of a fast server's throughput).
        self.timeout = aiohttp.ClientTimeout(total=read_timeout_s, sock_connect=connect_timeout_s)
        self.policy = policy
        fault = key_fault(secret) if secret else None
        if fault:   # the grid check refuses it first, naming its variable; this guards a provider made in code
            raise ValueError(f"{name}: the API key {fault}")
        self._secret = secret
        self._session: aiohttp.ClientSession | None = None   # its pool kept for answers told by their id
        self._alone: aiohttp.ClientSession | None = None     # a connection per request (providers/pooled.py)
        self._started = False
        self.ids = RequestIds()   # every request's X-Request-Id: an answer is its request's by it where echoed
        self.not_ours = 0         # answers aiohttp got that carried another request's id (sent again)

    def echoes_ids(self) -> bool:
        """Whether this server is known to echo X-Request-Id before any answer shows it (vLLM always does)."""
        return False

    def headers(self) -> dict[str, str]:
        """Request headers (the API key goes here and nowhere else)."""
        return {"content-type": "application/json"}

    def scrub(self, text: str) -> str:
        """Remove the secret from any text that may reach a log or an error message."""
        return scrub(text, self._secret)

    def _scrubbed(self, exc: ProviderFailure) -> ProviderFailure:
        """The failure with the secret scrubbed from its reason (a server's words or an exception's may hold it)."""
        exc.reason = self.scrub(exc.reason)
        exc.args = (exc.reason,)
        return exc

    async def start(self) -> None:
        if self._session is None:
            self._session, self._alone = sessions(self.max_concurrency * len(self.urls), self.max_concurrency,
                                                  self.timeout, self.headers())
            for ep in self.pool.endpoints:
                parts = urlsplit(ep.url)
                if self.http_client == "auto" and parts.scheme == "http" and parts.hostname:
                    ep.wire = Wire(parts.hostname, parts.port or 80, self.connect_timeout_s)

    async def close(self) -> None:
        if self._session is not None:
            for ep in self.pool.endpoints:
                if ep.wire is not None:
                    ep.wire.close()
                    ep.wire = None
            await self._session.close()
            if self._alone is not None:
                await self._alone.close()
            self._session = self._alone = None
            self._started = False

    async def get_json(self, url: str) -> Any:
        """A plain GET (health and model checks), outside the caps and the retry policy; on a connection of
        its own, as every request whose answer no id tells."""
        await HTTPProvider.start(self)
        assert self._alone is not None   # start() made it
        async with self._alone.get(url) as resp:
            raw = await resp.read()
            if resp.status != 200:
                raise classify(resp.status, raw, resp.headers, self._secret)
            return orjson.loads(raw)

    async def post(self, body: dict[str, Any], path: str | None = None,
                   at_root: bool = False) -> tuple[dict[str, Any], float]:
        """One attempt: take a replica's semaphore, respect the start rate, then time the request.

        `path` replaces the provider's (e.g. `/completions`); `at_root` posts beside the `/v1` prefix
        (vLLM's `/tokenize` lives at the server's root)."""
        if not self._started:   # start() once (a subclass's may await a check): not a coroutine per request
            await self.start()
            self._started = True
        ep = self.pool.choose()
        try:
            raw, latency = await self._send(ep, body, path, at_root)
        except ProviderFailure as exc:
            raise self._scrubbed(exc) from None
        finally:
            ep.load -= 1
        self.pool.mark_up(ep)
        try:
            data = orjson.loads(scrub_bytes(raw, self._secret))
        except orjson.JSONDecodeError:
            raise ProviderFailure("malformed response: not JSON", retryable=True, kind="malformed") from None
        if not isinstance(data, dict):
            raise ProviderFailure("malformed response: not a JSON object", retryable=True, kind="malformed")
        return data, latency

    async def _send(self, ep: Endpoint, body: dict[str, Any], path: str | None, at_root: bool) -> tuple[bytes, float]:
        """One request to replica `ep` under its cap: the 200 answer's body and latency, or a classified
        ProviderFailure (every exception either client can raise is one)."""
        async with ep.semaphore:
            if self.throttle is not None:
                async with self.throttle:
                    pass
            started = time.perf_counter()
            try:
                base = ep.url[:-3] if at_root and ep.url.endswith("/v1") else ep.url
                target, data = base + (self.path if path is None else path), orjson.dumps(body)
                # an answer with an id (chat, completions; not /tokenize's) must carry ours where ids are echoed;
                # one no id can tell goes alone on a new connection, where the first answer is its by position
                told = not at_root and (ep.echo is Echo.ECHOES or (ep.echo is Echo.UNKNOWN and self.echoes_ids()))
                ask = self.ids.ask(told)
                if ep.wire is not None:
                    head = self._heads.get((target, told)) or self._head(target, told)
                    tail = b"\r\nContent-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data
                    status, headers, raw = await ep.wire.post(head + ask.rid.encode() + tail, self.read_timeout_s,
                                                              ask.belongs, lambda: head + ask.renew() + tail,
                                                              alone=not told)
                else:
                    status, headers, raw = await self._aiohttp_post(target, data, ask)
                latency = time.perf_counter() - started
                if ask.others:   # a stray (it carried another request's id): keep no connection to this server
                    self._stray_seen(ep)
                self._own(ep, ask, status, headers, raw, at_root)
                if status != 200:
                    if status >= 500:
                        self.pool.mark_down(ep)
                    raise classify(status, raw, headers, self._secret)
            except asyncio.TimeoutError:   # aiohttp's ServerTimeoutError too (a ClientError as well)
                raise ProviderFailure(f"timeout after {time.perf_counter() - started:.1f}s",
                                      retryable=True, kind="timeout") from None
            except WireError as exc:
                self.pool.mark_down(ep)
                raise ProviderFailure(wire_reason(exc, ep.url), retryable=True, kind="connection") from None
            except (aiohttp.ClientError, HttpProcessingError, OSError, ValueError) as exc:
                # aiohttp's every failure: a refused or broken connection, an answer that is not HTTP
                # (ClientResponseError, HttpProcessingError), a header or body it cannot decode (ValueError)
                self.pool.mark_down(ep)
                raise ProviderFailure(connection_reason(exc, ep.url), retryable=True, kind="connection") from None
        return raw, latency

    def _stray_seen(self, ep: Endpoint) -> None:
        """A server seen sending a stray answer keeps no connection from then on, through either client."""
        if ep.wire is not None:
            ep.wire.stray_seen()
        elif self._session is not None and isinstance(self._session.connector, CheckedConnector):
            self._session.connector.stray_seen()

    @staticmethod
    def _own(ep: Endpoint, ask: Asking, status: int, headers: Mapping[str, str], raw: bytes, at_root: bool) -> None:
        """Check the answer taken as the request's: one carrying another request's id of ours (which only a
        server's fault on a new connection lets through) fails the attempt; else what it shows of the
        server's echo is learned (an answer at the root, /tokenize's, has no id to show)."""
        whose = ask.whose(headers, raw)
        if whose is Whose.OTHER:
            raise ProviderFailure(f"an answer to another request (not {ask.rid}) from {ep.url}",
                                  retryable=True, kind="connection")
        if not at_root:
            ep.echo = learned(ep.echo, status, whose)

    async def _aiohttp_post(self, target: str, data: bytes, ask: Asking) -> tuple[int, Any, bytes]:
        """POST through aiohttp; a reused connection the server closed or reset (its close crossed our request), or
        one whose answer `ask` refuses (another request's: a stray its id tells; that connection is closed), is
        tried again at once, with a new id, on a new connection of its own, as the lean client does: no failed
        attempt. A new connection's first answer is the request's by framing, so one retry settles it."""
        assert self._session is not None and self._alone is not None
        session = self._session if ask.echo else self._alone   # an answer no id tells: a connection of its own
        for again in (False, True):
            REUSED.set(False)
            proto = None
            try:
                async with session.post(target, data=data, headers={"X-Request-Id": ask.rid}) as resp:
                    proto = resp.connection.protocol if resp.connection is not None else None
                    answer = Response(resp.status, resp.headers, await capped(resp))  # type: ignore[arg-type]
            except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):   # closed, or reset by the server
                if again or not REUSED.get():
                    raise
                ask.renew()   # a reset may come after the server took the request: the copy goes with a new id
                session = self._alone
                continue
            if not REUSED.get() or ask.belongs(answer):
                return answer
            self.not_ours += 1
            ask.renew()
            if proto is not None:   # back in the pool by now: closed there, never handed a request again
                proto.close()
            # Not another pooled connection: while no answer has come back to tell the pool that this server
            # strays, the others' connections go back to it, each as likely to hold a stray (seen in CI: six
            # refused in a row under load, the unit failed)
            session = self._alone
        raise aiohttp.ClientConnectionError("a new connection answered with another request's answer")

    def _head(self, target: str, kept: bool) -> bytes:
        """A POST's request line and headers to `target`, up to the X-Request-Id value (the lean client's: the
        id and Content-Length follow, per request); `Connection: close` unless the connection may be `kept`."""
        parts = urlsplit(target)
        host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
        headers = {"Host": f"{host}:{parts.port}" if parts.port else host, "User-Agent": "logic-skeleton-bench",
                   **self.headers(), **({} if kept else {"Connection": "close"})}
        for name, value in headers.items():   # a line break would end the header early (and let a value in)
            fault = key_fault(value or "")
            if fault:
                raise ProviderFailure(f"the {name} header {fault}: check its value", retryable=False, kind="refused")
        lines = [f"POST {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1",
                 *(f"{k}: {v}" for k, v in headers.items()), "X-Request-Id: "]
        self._heads[target, kept] = head = "\r\n".join(lines).encode()
        return head

    async def run(self, attempt: Callable[[], Awaitable[Completion]], constrained: str) -> Completion:
        """Run one unit's attempts under the retry policy; failures come back as error records."""
        try:
            result, attempts = await with_retries(attempt, self.policy)
        except ProviderFailure as exc:
            reason = self.scrub(exc.reason)
            if reason.startswith("malformed response"):   # say whose answer it was
                reason += f" (from {self.urls[0]}{' and its replicas' if len(self.urls) > 1 else ''})"
            return Completion(status="error", reason=reason, attempts=getattr(exc, "attempts", 1),
                              constrained=constrained, error_kind=exc.kind)
        return result if attempts == result.attempts else dataclasses.replace(result, attempts=attempts)


async def capped(resp: aiohttp.ClientResponse, most: int = MAX_BODY) -> bytes:
    """An aiohttp answer's body, decompressed, refused (WireError, as the lean client refuses it) past `most` bytes:
    `resp.read()` took any size, and inflated a gzip bomb whole (200 KB to 200 MiB: a unit's 900 MB)."""
    if resp.content_length is not None and resp.content_length > most and "Content-Encoding" not in resp.headers:
        raise WireError("payload", f"a body of {resp.content_length} bytes, over the cap of {most}")
    chunks, size = [], 0
    async for chunk in resp.content.iter_chunked(1 << 20):
        size += len(chunk)
        if size > most:
            raise WireError("payload", f"a body over the cap of {most} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
