"""aiohttp's connection pool, checked: a pooled connection holding anything nobody asked for is retired, and
a request whose answer no id can tell goes on a connection of its own (issue 43).

HTTP/1.1 framing cannot tell a stray answer that arrives after a request went out on a kept connection from
that request's own answer; only the id an echoing server puts in it can (providers/identity.py). So a kept
connection carries only requests whose answer is checked by its id; the others (a server that echoes none,
every https API among them; /tokenize, whose answers carry no id) go on a new connection that carries that one
request (`Connection: close`), where the first answer is the request's by position. The lean client
(providers/wire.py) follows the same rule.
"""
from __future__ import annotations

import contextvars
import weakref
from typing import Any

import aiohttp
from aiohttp.client_proto import ResponseHandler

from providers.wire import waiting

# Whether the connection aiohttp handed this task's request was used before (CheckedConnector sets it)
REUSED: contextvars.ContextVar[bool] = contextvars.ContextVar("reused", default=False)


class CheckedConnector(aiohttp.TCPConnector):
    """aiohttp's pool, but a pooled connection holding anything nobody asked for (a stray answer aiohttp
    already parsed and queued, bytes not yet read, the server's close) is closed, never handed a request:
    aiohttp would give the queued answer to the next request sent on it. A connection given back holding a
    whole answer more than it was asked for (aiohttp would close it without a word) tells the same. A server
    seen sending a stray keeps no connection from then on (as the lean client's Wire.keep_alive)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._handed: weakref.WeakSet[ResponseHandler] = weakref.WeakSet()   # protocols handed a request before
        self.strays = 0   # connections seen holding an answer nobody asked for

    async def connect(self, req: Any, traces: Any, timeout: Any) -> Any:
        for _ in range(max(self.limit, 1) + 2):   # each turn closes a pooled connection; a new one ends it
            conn = await super().connect(req, traces, timeout)
            proto = conn.protocol
            if proto is None or proto.transport is None:
                return conn
            reused = proto in self._handed
            found = ("bytes" if proto.should_close else waiting(proto.transport)) if reused else ""
            if not found:
                self._handed.add(proto)
                REUSED.set(reused)
                return conn
            if found == "bytes":
                self.stray_seen()
            conn.close()
        raise aiohttp.ClientConnectionError("the server sends bytes on every connection before any request")

    def _release(self, key: Any, protocol: ResponseHandler, *, should_close: bool = False) -> None:
        # an answer parsed and queued behind the one just read, or bytes after it (aiohttp's `_buffer`, `_tail`):
        # the server sent what nobody asked for, and may send more where the next request would meet it
        if getattr(protocol, "_buffer", None) or getattr(protocol, "_tail", None):
            self.stray_seen()
        super()._release(key, protocol, should_close=should_close)

    def stray_seen(self) -> None:
        """The server sent an answer nobody asked for: every connection is closed after its answer from now on."""
        self.strays += 1
        self._force_close = True   # aiohttp's own switch (it also sends `Connection: close`)


def sessions(limit: int, limit_per_host: int, timeout: aiohttp.ClientTimeout,
             headers: dict[str, str]) -> tuple[aiohttp.ClientSession, aiohttp.ClientSession]:
    """(kept, alone): a session whose checked pool keeps connections for requests told by their id, and one
    whose every connection carries one request (aiohttp's `force_close`: `Connection: close` sent, the
    connection closed after its answer). Each pool is as large as the caps allow, so a request that holds a
    replica's semaphore never waits for a connection."""
    kept = aiohttp.ClientSession(connector=CheckedConnector(limit=limit, limit_per_host=limit_per_host,
                                                            ttl_dns_cache=300), timeout=timeout, headers=headers)
    alone = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=limit, limit_per_host=limit_per_host,
                                                                 ttl_dns_cache=300, force_close=True),
                                  timeout=timeout, headers=headers)
    return kept, alone
