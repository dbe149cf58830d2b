"""A lean HTTP/1.1 client for model servers on plain http: keep-alive connections over asyncio protocols,
answers parsed by llhttp (httptools, the parser uvicorn uses).

At a local server's pace the client is the run loop's main cost: aiohttp spends several times its CPU on a
request (BENCHMARKS.md). It speaks what those servers answer (vLLM, SGLang, llama.cpp, TGI): bodies framed
by Content-Length, chunked, or the connection's close; 1xx answers skipped; `Connection: close` honoured.
An answer belongs to its request: a connection carries one request at a time, goes back to its pool only
when its answer ended cleanly with nothing after it, and is dropped when anything arrives while it is idle
(checked again, in the socket, just before it is reused); an answer on a reused connection that its
caller's `belongs` refuses (another request's id: providers/identity.py) closes it, and the request goes
again on a new one. https (remote APIs) stays with aiohttp, as does a provider with `http_client: aiohttp`.
"""
from __future__ import annotations

import asyncio
import socket
from typing import Callable, cast

from providers.answers import MAX_BODY, Response, ResponseParser, WireError

CLOSE_AFTER_S = 2.0       # a request's own connection (`Connection: close`) is closed by us if the server has not by then


def waiting(transport: asyncio.BaseTransport) -> str:
    """What an idle connection's socket holds that nobody asked for, peeked without reading: `bytes` (a stray
    answer), `closed` (the server closed it while it was idle, or reset it) or "" (nothing)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return ""
    real = getattr(sock, "_sock", None)   # asyncio's TransportSocket wraps the socket: peek through it (cheap)
    raw = real if isinstance(real, socket.socket) else socket.socket(sock.family, sock.type, sock.proto, sock.fileno())
    try:
        return "bytes" if raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) else "closed"
    except BlockingIOError:
        return ""
    except OSError:
        return "closed"
    finally:
        if raw is not real:
            raw.detach()   # the same descriptor, not a dup: the transport's to close


class _Connection(asyncio.Protocol):
    """One keep-alive connection: a request written, its answer awaited; then back to the pool, or closed."""

    def __init__(self, wire: Wire) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = ResponseParser(wire.max_body)
        self.waiter: asyncio.Future[Response] | None = None
        self.closed = False
        self.wire = wire

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)   # a stream connection's: a full Transport

    def data_received(self, data: bytes) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():   # bytes nobody asked for: the connection is out of step
            self.wire.stray_seen()
            self.close()
            return
        try:
            answer = self.parser.feed(data)
        except WireError as exc:
            self.waiter = None
            waiter.set_exception(exc)
            self.close()
            return
        if answer is not None:
            self.waiter = None
            if self.parser.stray:
                self.wire.stray_seen()
            waiter.set_result(answer)

    def eof_received(self) -> bool:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            try:
                waiter.set_result(self.parser.eof())
            except WireError as exc:
                waiter.set_exception(exc)
        self.closed = True
        return False   # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.wire._closing.discard(self)
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(WireError("payload" if self.parser.started else "disconnected",
                                           str(exc) if exc else ""))

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class _Attempt:
    """One attempt's deadline: when it passes, the answer awaited now (if any) fails with TimeoutError."""

    def __init__(self) -> None:
        self.waiter: asyncio.Future[Response] | None = None
        self.expired = False

    def expire(self) -> None:
        self.expired = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(asyncio.TimeoutError())


class Wire:
    """Keep-alive connections to one http server (`host`, `port`); `post` sends one request on an idle one
    (or a new one) and gives its answer. Concurrency is the caller's to cap: a connection per request in
    flight, kept for the next."""

    def __init__(self, host: str, port: int, connect_timeout_s: float, max_body: int = MAX_BODY):
        self.host, self.port, self.connect_timeout_s, self.max_body = host, port, connect_timeout_s, max_body
        self._idle: list[_Connection] = []
        self._closing: set[_Connection] = set()   # answered alone, left for the server to close (post)
        # False once the server sent an answer nobody asked for: from then on a connection carries one request.
        # A stray that arrives after the next request was written passes for its answer by framing alone; its
        # id tells only where the server echoes ids (`belongs`), so a server seen doing it once is not trusted
        # with a kept connection again.
        self.keep_alive = True
        self.strays = 0
        self.not_ours = 0   # answers on a reused connection that carried another request's id: sent again

    def stray_seen(self) -> None:
        """The server sent bytes nobody asked for: keep no connection to it from now on."""
        self.strays += 1
        if self.keep_alive:
            self.keep_alive = False
            self.close()

    async def _connection(self, deadline: float, fresh: bool) -> tuple[_Connection, bool]:
        """An idle connection with nothing waiting in it (unless `fresh`), else a new one: (it, reused)."""
        while self._idle and not fresh:
            conn = self._idle.pop()
            if conn.closed:
                continue
            found = waiting(conn.transport) if conn.transport is not None else "closed"   # a stray answer, or the server's close, not yet read
            if found:
                if found == "bytes":
                    self.stray_seen()
                conn.close()
                continue
            return conn, True
        loop = asyncio.get_running_loop()
        left = deadline - loop.time()
        if left <= 0:
            raise asyncio.TimeoutError()
        try:   # the attempt's deadline bounds connecting too: never its timeout plus the connect timeout
            _, conn = await asyncio.wait_for(
                loop.create_connection(lambda: _Connection(self), self.host, self.port),
                min(self.connect_timeout_s, left))
        except ConnectionRefusedError:
            raise WireError("refused") from None
        except asyncio.TimeoutError:
            if left <= self.connect_timeout_s:
                raise   # the attempt's own time ran out
            raise WireError("connect", f"no connection within {self.connect_timeout_s:g}s") from None
        except OSError as exc:
            raise WireError("connect", exc.strerror or str(exc)) from None
        return conn, False

    async def post(self, request: bytes, timeout_s: float, belongs: Callable[[Response], bool] | None = None,
                   renew: Callable[[], bytes] | None = None, alone: bool = False) -> Response:
        """Send a whole request (head and body); its answer, or WireError (or TimeoutError after `timeout_s`,
        connecting included).

        A reused connection that ends before any byte of an answer was closed by the server while idle (its
        close crossed our request), and one whose answer `belongs` says is another request's (a stray that
        came after our request went out: its id tells): the request goes again at once on a new connection,
        within the same deadline, as no failed attempt (as `renew` remakes it: a new id). A new connection's
        answer is ours by position: a request `alone` (one whose answer no id can tell, sent with `Connection:
        close`) goes on a new connection, and that connection carries no other."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        attempt = _Attempt()
        # One timer for the whole attempt, as aiohttp's `total`: cheaper than a task under asyncio.timeout
        timer = loop.call_at(deadline, attempt.expire)
        try:
            fresh = alone
            while True:
                conn, reused = await self._connection(deadline, fresh)
                if attempt.expired:
                    conn.close()
                    raise asyncio.TimeoutError()
                try:
                    answer = await self._exchange(conn, request, attempt)
                except WireError as exc:
                    if reused and exc.kind == "disconnected":
                        fresh = True
                        continue
                    raise
                if reused and belongs is not None and not belongs(answer):
                    self.not_ours += 1   # what else the connection holds is out of step too: it goes
                    conn.close()
                    fresh = True
                    request = renew() if renew is not None else request
                    continue
                break
        finally:
            timer.cancel()
        if conn.parser.reusable and not conn.closed and self.keep_alive and not alone:
            self._idle.append(conn)
        elif alone and not conn.closed:
            # the server closes a `Connection: close` connection itself (eof_received then closes ours): closing
            # first would leave this side's port in TIME_WAIT, a connection a request (~470 a second would use
            # up Linux's ports to a remote server); one the server keeps open anyway is closed a moment later
            self._closing.add(conn)
            loop.call_later(CLOSE_AFTER_S, conn.close)
        else:
            conn.close()
        return answer

    @staticmethod
    async def _exchange(conn: _Connection, request: bytes, attempt: _Attempt) -> Response:
        """Write the request on `conn` and await its answer (the connection closed on any failure)."""
        waiter: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        attempt.waiter = waiter
        conn.waiter, conn.parser.started = waiter, False
        try:
            assert conn.transport is not None   # set when the connection was made
            conn.transport.write(request)
            return await waiter
        except BaseException:   # an error, a timeout, a cancelled run: the connection is out of step
            conn.close()
            if waiter.done() and not waiter.cancelled():
                waiter.exception()   # retrieved: asyncio would log it as never seen
            raise

    def close(self) -> None:
        """Close every idle connection (the ones in use close when their request ends)."""
        for conn in [*self._idle, *self._closing]:
            conn.close()
        self._idle.clear()
