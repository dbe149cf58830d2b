"""The lean HTTP client: answers framed every way a server may frame them, fed in any pieces, parse to the
same status, headers and body; broken ones are a WireError, never another exception; against real sockets
on 127.0.0.1 connections are kept, closed when the server says so, and failures are named."""
from __future__ import annotations

import asyncio
import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.answers import ResponseParser, WireError
from providers.wire import Wire

_TOKEN = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz-"), min_size=1, max_size=12).filter(
    lambda n: n.strip("-") and n not in ("content-length", "transfer-encoding", "connection"))
_VALUE = st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=20)


@st.composite
def answers(draw):
    """A server's answer as bytes, and what it must parse to: (status, headers, body, reusable, framing)."""
    status = draw(st.sampled_from([200, 201, 400, 404, 429, 500, 503]))
    body = draw(st.binary(max_size=3000))
    extra = draw(st.dictionaries(_TOKEN, _VALUE, max_size=4))
    framing = draw(st.sampled_from(["length", "chunked", "close"]))
    keep = framing != "close" and draw(st.booleans())
    lines = [f"HTTP/1.1 {status} {draw(st.sampled_from(['OK', 'Whatever', '']))}".rstrip()]
    lines += [f"{k.title() if draw(st.booleans()) else k}: {v}" for k, v in extra.items()]
    if not keep:
        lines.append("Connection: close")
    if framing == "length":
        lines.append(f"Content-Length: {len(body)}")
        payload = body
    elif framing == "chunked":
        lines.append("Transfer-Encoding: chunked")
        cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=6)))
        pieces = [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)]) if b > a]
        payload = b"".join(f"{len(p):x}{';ext=1' if draw(st.booleans()) else ''}\r\n".encode() + p + b"\r\n"
                           for p in pieces)
        payload += b"0\r\n" + (b"X-Trailer: 1\r\n" if draw(st.booleans()) else b"") + b"\r\n"
    else:
        payload = body
    interim = b"HTTP/1.1 100 Continue\r\n\r\n" if draw(st.booleans()) else b""
    raw = interim + ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
    headers = {k: v.strip() for k, v in extra.items()}
    return raw, (status, headers, body, keep, framing)


def _pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    cuts = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]


@settings(max_examples=300, deadline=None)
@given(answer=answers(), cuts=st.lists(st.integers(0, 10_000), max_size=12), after=st.binary(max_size=3))
def test_an_answer_fed_in_any_pieces_parses_to_what_was_sent(answer, cuts, after):
    raw, (status, headers, body, keep, framing) = answer
    end = len(raw)
    if framing != "close":   # bytes past the answer, in its last piece: a connection out of step, not reused
        raw += after
    parser, got, at = ResponseParser(), [], 0
    for piece in _pieces(raw, cuts):
        at += len(piece)
        result = parser.feed(piece)
        if result is not None:
            got.append(result)
            # CR and LF between answers are skipped (RFC 9112 2.2), anything else is a stray
            assert parser.reusable == (keep and (at == end or not after.strip(b"\r\n")))
            break   # what comes after is the connection's to refuse: nobody asked for it
    if framing == "close":   # only the server's close ends it
        assert not got
        got.append(parser.eof())
        assert not parser.reusable
    (response,) = got
    assert response.status == status and response.body == body
    assert {k: v for k, v in response.headers.items() if k in headers} == headers


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400), cuts=st.lists(st.integers(0, 500), max_size=5))
def test_bytes_that_are_not_an_answer_raise_only_wire_errors(data, cuts):
    parser = ResponseParser()
    with contextlib.suppress(WireError):
        for piece in _pieces(b"HTTP/1.1 200 OK\r\n" + data, cuts):
            parser.feed(piece)
        parser.eof()


@pytest.mark.parametrize("raw, why", [
    (b"SSH-2.0-OpenSSH\r\n\r\n", "Expected HTTP/"),
    (b"HTTP/1.1 2x0 OK\r\n\r\n", "Invalid status code"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 1_0\r\n\r\n", "Content-Length"),
    ("HTTP/1.1 200 OK\r\nContent-Length: \u0661\r\n\r\n".encode(), "Content-Length"),   # an Arabic-Indic one
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\n", "chunk size"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\u0661\r\nx\r\n0\r\n\r\n".encode(), "chunk size"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "LF after chunk data"),
    (b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "header token"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
     "Content-Length can't be present with Transfer-Encoding"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "Duplicate Content-Length"),
    (b"HTTP/1.1 101 Switching\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n", "switched protocols"),
])
def test_a_broken_answer_says_what_is_broken(raw, why):
    with pytest.raises(WireError, match=why) as info:
        ResponseParser().feed(raw)
    assert info.value.kind == "payload"


class Scripted:
    """A raw HTTP server on 127.0.0.1: each request gets the next scripted action; connections counted."""

    def __init__(self, script: list):
        self.script, self.connections, self.requests = list(script), 0, []

    async def __aenter__(self) -> "Scripted":
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length")))
                self.requests.append(head + await reader.readexactly(length))
                action = self.script.pop(0)
                if action == "hang":
                    await asyncio.sleep(30)
                if action == "drop":
                    break
                writer.write(action)
                await writer.drain()
                if b"Connection: close" in action or action.endswith(b"half"):
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        writer.close()


OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
REQUEST = b"POST /v1/x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"


def test_connections_are_kept_and_closed_as_the_server_says():
    async def go():
        async with Scripted([OK, OK, b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", OK]) as srv:
            wire = Wire("127.0.0.1", srv.port, 5)
            for _ in range(4):
                assert (await wire.post(REQUEST, 5)).body == b"{}"
            wire.close()
            return srv.connections, len(srv.requests)
    assert asyncio.run(go()) == (2, 4)   # the third answer closed the first connection


def test_a_connection_that_sends_more_than_its_answer_is_not_reused():
    async def go():
        async with Scripted([OK + b"HTTP/1.1 200 OK\r\n", OK]) as srv:
            wire = Wire("127.0.0.1", srv.port, 5)
            first = await wire.post(REQUEST, 5)
            second = await wire.post(REQUEST, 5)
            wire.close()
            return first.body, second.body, srv.connections
    assert asyncio.run(go()) == (b"{}", b"{}", 2)


@pytest.mark.parametrize("action, kind", [("drop", "disconnected"),
                                          (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", "payload")])
def test_a_connection_that_ends_without_a_whole_answer_is_named(action, kind):
    async def go():
        async with Scripted([action, OK]) as srv:
            wire = Wire("127.0.0.1", srv.port, 5)
            with pytest.raises(WireError) as info:
                await wire.post(REQUEST, 5)
            assert (await wire.post(REQUEST, 5)).body == b"{}"   # the next request gets a new connection
            wire.close()
            return info.value.kind, srv.connections
    assert asyncio.run(go()) == (kind, 2)


def test_an_answer_too_slow_times_out_and_its_connection_is_not_reused():
    async def go():
        async with Scripted(["hang", OK]) as srv:
            wire = Wire("127.0.0.1", srv.port, 5)
            with pytest.raises(asyncio.TimeoutError):
                await wire.post(REQUEST, 0.2)
            assert (await wire.post(REQUEST, 5)).body == b"{}"
            wire.close()
            return srv.connections
    assert asyncio.run(go()) == 2


def test_a_closed_port_is_refused():
    async def go():
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(WireError) as info:
            await Wire("127.0.0.1", port, 5).post(REQUEST, 5)
        return info.value.kind
    assert asyncio.run(go()) == "refused"


# ---- faults injected into a well-formed answer, cut in any pieces: one WireError naming the fault --------
_ARABIC_TWO = "\u0662".encode()


def _faulty(fault: str, body: bytes) -> tuple[bytes, str]:
    """A well-formed answer with `fault` injected, and the words its WireError must hold."""
    length = f"Content-Length: {len(body)}\r\n".encode()
    if fault == "non-ASCII length":
        return b"HTTP/1.1 200 OK\r\nContent-Length: " + _ARABIC_TWO + b"\r\n\r\n" + body, "Content-Length"
    if fault == "non-ASCII chunk size":
        return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + _ARABIC_TWO + b"\r\nab\r\n0\r\n\r\n",
                "chunk size")
    if fault == "both framings":
        return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n" + length + b"\r\n"
                + f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n", "Transfer-Encoding")
    if fault == "long header line":
        return b"HTTP/1.1 200 OK\r\nX-A: " + b"a" * 40_000 + b"\r\n" + length + b"\r\n" + body, "over"
    if fault == "header block":
        many = b"".join(b"X-%d: %s\r\n" % (i, b"v" * 1000) for i in range(80))
        return b"HTTP/1.1 200 OK\r\n" + many + length + b"\r\n" + body, "head over"
    if fault == "long chunk-size line":
        return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"0" * 40_000 + b"2\r\nab\r\n0\r\n\r\n",
                "chunk-size line over")
    if fault == "long chunk extension":
        return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=" + b"e" * 40_000 + b"\r\nab\r\n0\r\n\r\n",
                "over")
    if fault == "declared body over the cap":
        return b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + b"x" * 5000, "over the cap"
    if fault == "chunked body over the cap":
        return (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + b"".join(b"400\r\n" + b"y" * 1024 + b"\r\n" for _ in range(5)) + b"0\r\n\r\n", "over the cap")
    if fault == "body to the close over the cap":
        return b"HTTP/1.1 200 OK\r\n\r\n" + b"z" * 5000, "over the cap"
    return b"\x16\x03\x01garbage " + body, "Expected HTTP/"   # a TLS hello, not HTTP


FAULTS = ("non-ASCII length", "non-ASCII chunk size", "both framings", "long header line", "header block",
          "long chunk-size line", "long chunk extension", "declared body over the cap", "chunked body over the cap",
          "body to the close over the cap", "garbage")


@settings(max_examples=400, deadline=None)
@given(fault=st.sampled_from(FAULTS), body=st.binary(min_size=1, max_size=200),
       cuts=st.lists(st.integers(0, 60_000), max_size=8))
def test_a_fault_in_an_answer_cut_in_any_pieces_is_one_wire_error_naming_it(fault, body, cuts):
    raw, words = _faulty(fault, body)
    parser = ResponseParser(max_body=4096)
    with pytest.raises(WireError, match=words) as info:
        for piece in _pieces(raw, cuts):
            assert parser.feed(piece) is None
        parser.eof()
    assert info.value.kind == "payload"


@settings(max_examples=200, deadline=None)
@given(answer=answers(), cuts=st.lists(st.integers(0, 10_000), max_size=8),
       stray=st.sampled_from([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", b"H", b"x", b"\x00"]))
def test_bytes_after_an_answer_in_its_own_pieces_leave_it_whole_and_the_connection_unused(answer, cuts, stray):
    raw, (status, _, body, keep, framing) = answer
    if framing == "close":
        return
    parser, got, at = ResponseParser(), None, 0
    for piece in _pieces(raw + stray, cuts):
        at += len(piece)
        got = parser.feed(piece)
        if got is not None:
            break
    assert got is not None and got.status == status and got.body == body
    # stray bytes in the answer's last piece: not reused; none there (the piece ended with the answer): the
    # connection refuses them when they come (Wire's tests)
    assert parser.reusable == (keep and at == len(raw))


def test_an_attempt_that_cannot_connect_ends_at_its_own_deadline_not_after_the_connect_timeout():
    # a listener whose backlog is full: the kernel drops further SYNs, so connecting hangs
    import socket
    import time
    listener = socket.create_server(("127.0.0.1", 0), backlog=0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(8):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        fillers.append(s)

    async def go():
        started = time.monotonic()
        with pytest.raises(asyncio.TimeoutError):
            await Wire("127.0.0.1", port, connect_timeout_s=30).post(REQUEST, 0.5)
        return time.monotonic() - started
    try:
        took = asyncio.run(go())
    finally:
        for s in fillers:
            s.close()
        listener.close()
    assert took < 10   # the connect timeout (30 s) would end it only after the attempt's 0.5 s deadline


def test_an_answer_over_a_cap_is_named_and_its_connection_not_reused():
    async def go():
        big = b"HTTP/1.1 200 OK\r\nContent-Length: 9000\r\n\r\n" + b"x" * 9000
        async with Scripted([big, OK]) as srv:
            wire = Wire("127.0.0.1", srv.port, 5, max_body=8000)
            with pytest.raises(WireError, match="over the cap") as info:
                await wire.post(REQUEST, 5)
            assert (await wire.post(REQUEST, 5)).body == b"{}"
            wire.close()
            return info.value.kind, srv.connections
    assert asyncio.run(go()) == ("payload", 2)
