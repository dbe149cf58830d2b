"""A lean HTTP/1.1 client for model servers on plain http: keep-alive connections over asyncio protocols.

At a local server's pace the client is the run loop's main cost: aiohttp spends about 100 µs of CPU on
a request, this client about 35 (the same bodies to the same server, BENCHMARKS.md). It speaks what
those servers answer (vLLM, SGLang, llama.cpp, TGI): bodies framed by Content-Length, chunked, or the
connection's close; 1xx answers skipped; `Connection: close` honoured. A connection carries one request
at a time and goes back to its pool only when its answer ended cleanly. https (remote APIs) stays with
aiohttp, as does a provider with `http_client: aiohttp`.
"""
from __future__ import annotations

import asyncio
from typing import NamedTuple

_MAX_HEAD = 1 << 16   # a response head longer than this is not a model server's


class WireError(Exception):
    """A request that got no whole answer: `refused`, `connect` (with the OS's words), `disconnected` (the
    connection ended before any answer) or `payload` (it ended, or broke HTTP, inside one)."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(detail or kind)
        self.kind, self.detail = kind, detail


class Response(NamedTuple):
    """An answer: its status, its headers (names lower-cased; repeated ones joined by commas), its body."""

    status: int
    headers: dict[str, str]
    body: bytes


class ResponseParser:
    """One connection's answers, fed as bytes arrive: `feed` returns the answer once it is whole."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self._head: tuple[int, dict[str, str], bool] | None = None   # status, headers, keep-alive
        self._framing: str | int = ""      # a byte count (Content-Length), "chunked", or "close"
        self._chunks: list[bytes] = []
        self.reusable = False               # whether the last whole answer left the connection usable

    def feed(self, data: bytes) -> Response | None:
        """Take more bytes; the answer when it is complete (WireError `payload`: not HTTP)."""
        self.buf += data
        return self._step()

    def eof(self) -> Response:
        """The server closed the connection: the answer it ends (WireError when it ends none whole)."""
        if self._head is not None and self._framing == "close":
            status, headers, _ = self._head
            self._head, self.reusable = None, False
            body, self.buf = bytes(self.buf), bytearray()
            return Response(status, headers, body)
        if self._head is None and not self.buf:
            raise WireError("disconnected")
        raise WireError("payload", "the connection closed inside an answer")

    def _step(self) -> Response | None:
        while self._head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > _MAX_HEAD:
                    raise WireError("payload", "no end to the response head")
                return None
            head, self.buf = bytes(self.buf[:end]), self.buf[end + 4:]
            self._start(head)
        if self._framing == "close":
            return None
        if self._framing == "chunked":
            return self._chunked()
        if len(self.buf) < self._framing:
            return None
        body, rest = bytes(self.buf[:self._framing]), self.buf[self._framing:]
        return self._done(body, rest)

    def _start(self, head: bytes) -> None:
        lines = head.decode("latin-1").split("\r\n")
        version, _, rest = lines[0].partition(" ")
        code = rest[:3]
        if not version.startswith("HTTP/1.") or not code.isdigit() or rest[3:4] not in ("", " "):
            raise WireError("payload", f"not an HTTP/1.x status line: {lines[0][:60]!r}")
        status = int(code)
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if not colon or not name or name != name.strip():
                raise WireError("payload", f"a malformed header line: {line[:60]!r}")
            name, value = name.lower(), value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        if 100 <= status < 200:   # an interim answer (100 Continue, 103 Early Hints): the real one follows
            return
        connection = headers.get("connection", "").lower()
        keep = "close" not in connection and (version != "HTTP/1.0" or "keep-alive" in connection)
        self._head = (status, headers, keep)
        if "chunked" in headers.get("transfer-encoding", "").lower():
            self._framing = "chunked"
        elif "content-length" in headers:
            length = headers["content-length"]
            if not length.isdigit():
                raise WireError("payload", f"a bad Content-Length: {length[:30]!r}")
            self._framing = int(length)
        elif status in (204, 304):
            self._framing = 0
        else:
            self._framing = "close"

    def _chunked(self) -> Response | None:
        buf, at = self.buf, 0
        while True:
            eol = buf.find(b"\r\n", at)
            if eol < 0:
                break
            size_text = bytes(buf[at:eol]).split(b";", 1)[0].strip()
            if not size_text or size_text.strip(b"0123456789abcdefABCDEF"):
                raise WireError("payload", f"a bad chunk size: {size_text[:20]!r}")
            size = int(size_text, 16)
            if size == 0:   # the last chunk: then trailer lines, if any, and an empty line
                after = eol + 2
                if buf[after:after + 2] == b"\r\n":
                    end = after + 2
                else:
                    found = buf.find(b"\r\n\r\n", after)
                    if found < 0:
                        break
                    end = found + 4
                body = b"".join(self._chunks)
                self._chunks = []
                return self._done(body, buf[end:])
            if len(buf) < eol + 2 + size + 2:
                break
            if buf[eol + 2 + size:eol + 4 + size] != b"\r\n":
                raise WireError("payload", "a chunk not followed by CRLF")
            self._chunks.append(bytes(buf[eol + 2:eol + 2 + size]))
            at = eol + 4 + size
        del buf[:at]
        return None

    def _done(self, body: bytes, rest: bytearray) -> Response:
        status, headers, keep = self._head
        self._head, self._framing, self.buf = None, "", bytearray(rest)
        self.reusable = keep and not rest   # bytes past the answer: the connection is out of step, not reused
        return Response(status, headers, body)


class _Connection(asyncio.Protocol):
    """One keep-alive connection: a request written, its answer awaited; then back to the pool, or closed."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = ResponseParser()
        self.waiter: asyncio.Future | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport   # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():   # bytes nobody asked for: the connection is out of step
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
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(WireError("payload" if self.parser.buf else "disconnected",
                                           str(exc) if exc else ""))

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class Wire:
    """Keep-alive connections to one http server (`host`, `port`); `post` sends one request on an idle one
    (or a new one) and gives its answer. Concurrency is the caller's to cap: a connection per request in
    flight, kept for the next."""

    def __init__(self, host: str, port: int, connect_timeout_s: float):
        self.host, self.port, self.connect_timeout_s = host, port, connect_timeout_s
        self._idle: list[_Connection] = []

    async def _connection(self) -> _Connection:
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed:
                return conn
        loop = asyncio.get_running_loop()
        try:
            _, conn = await asyncio.wait_for(loop.create_connection(_Connection, self.host, self.port),
                                             self.connect_timeout_s)
        except ConnectionRefusedError:
            raise WireError("refused") from None
        except asyncio.TimeoutError:
            raise WireError("connect", f"no connection within {self.connect_timeout_s:g}s") from None
        except OSError as exc:
            raise WireError("connect", exc.strerror or str(exc)) from None
        return conn

    async def post(self, request: bytes, timeout_s: float) -> Response:
        """Send a whole request (head and body); its answer, or WireError (or TimeoutError after `timeout_s`,
        connecting included)."""
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        # One timer for the whole attempt, as aiohttp's `total`: cheaper than a task under asyncio.timeout
        timer = loop.call_later(timeout_s, _time_out, waiter)
        conn = None
        try:
            conn = await self._connection()
            if waiter.done():   # the attempt's time ran out while connecting
                waiter.result()
            conn.waiter = waiter
            conn.transport.write(request)
            answer = await waiter
        except BaseException:   # an error, a timeout, a cancelled run: the connection is out of step
            if conn is not None:
                conn.close()
            if waiter.done() and not waiter.cancelled():
                waiter.exception()   # retrieved: asyncio would log it as never seen
            raise
        finally:
            timer.cancel()
        if conn.parser.reusable and not conn.closed:
            self._idle.append(conn)
        else:
            conn.close()
        return answer

    def close(self) -> None:
        """Close every idle connection (the ones in use close when their request ends)."""
        for conn in self._idle:
            conn.close()
        self._idle.clear()


def _time_out(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_exception(asyncio.TimeoutError())
