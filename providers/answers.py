"""The lean client's answers (providers/wire.py): one connection's bytes parsed by llhttp into whole answers,
each within its caps, and how a request that got none failed."""
from __future__ import annotations

from typing import Literal, NamedTuple

import httptools

MAX_HEAD = 1 << 16        # status line, headers and trailers of one answer: a model server's are a few hundred bytes
MAX_LINE = 1 << 13        # bytes with no step of the answer (one status, header or chunk-size line) are refused past
                          # this, at most one more such slice later (the parser is fed in slices of this size)
MAX_BODY = 1 << 26        # one answer's body (64 MiB): model answers are kilobytes


# How a request got no whole answer (WireError's kind; failures.py words each as aiohttp's are worded)
WireFailure = Literal["refused", "connect", "disconnected", "payload"]


class WireError(Exception):
    """A request that got no whole answer: `refused`, `connect` (with the OS's words), `disconnected` (the
    connection ended before any byte of an answer) or `payload` (it ended, or broke HTTP, inside one)."""

    def __init__(self, kind: WireFailure, detail: str = ""):
        super().__init__(detail or kind)
        self.kind, self.detail = kind, detail


class Response(NamedTuple):
    """An answer: its status, its headers (names lower-cased; repeated ones joined by commas), its body."""

    status: int
    headers: dict[str, str]
    body: bytes


class _Stray(Exception):
    """Raised inside llhttp's callback when a second answer begins: it stops the parser there."""


class ResponseParser:
    """One connection's answers, fed as bytes arrive: `feed` returns the answer once it is whole.

    `reusable` says whether the last whole answer left the connection usable: the server kept it alive and
    sent nothing after the answer (CR and LF between answers, which llhttp skips, are no answer)."""

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self._parser = httptools.HttpResponseParser(self)
        self.max_body = max_body
        self.reusable = False
        self.started = False    # a byte of an answer to the request now sent arrived (the connection resets it)
        self._answer: Response | None = None
        self.stray = False      # bytes (not CR or LF) came after the answer: nobody asked for them
        self._stall = 0
        self._new_message()

    def _new_message(self) -> None:
        self._status, self._head = 0, 0
        self._headers: dict[str, str] = {}
        self._body: list[bytes] = []
        self._size, self._keep, self._until_close, self._in_body = 0, False, False, False

    # ---- llhttp's callbacks (any exception raised here stops the parser and comes out of feed_data) ----
    def on_message_begin(self) -> None:
        if self._answer is not None:   # a second answer on the heels of the first: nobody asked for it
            self.stray = True
            raise _Stray
        self.started, self._progress = True, True
        self._new_message()

    def on_status(self, reason: bytes) -> None:
        self._head += len(reason) + 16   # called per slice for a long reason phrase: not a step
        self._check_head()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._progress = True
        self._head += len(name) + len(value) + 4
        self._check_head()
        if self._in_body:   # a trailer: counted, not an answer header
            return
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        self._headers[key] = f"{self._headers[key]}, {text}" if key in self._headers else text

    def on_headers_complete(self) -> None:
        self._progress, self._in_body = True, True
        self._status = self._parser.get_status_code()
        declared = self._headers.get("content-length")
        if declared is not None and int(declared) > self.max_body:   # llhttp checked it is digits
            raise WireError("payload", f"a body of {declared} bytes, over the cap of {self.max_body}")
        coding = self._headers.get("transfer-encoding", "").rsplit(",", 1)[-1].strip().lower()
        self._until_close = declared is None and coding != "chunked" and self._status not in (204, 304)

    def on_body(self, data: bytes) -> None:
        self._progress = True
        self._size += len(data)
        if self._size > self.max_body:
            raise WireError("payload", f"a body over the cap of {self.max_body} bytes")
        self._body.append(data)

    def on_chunk_header(self) -> None:
        self._progress = True

    def on_chunk_complete(self) -> None:
        self._progress = True

    def on_message_complete(self) -> None:
        self._progress = True
        if self._status < 200:   # an interim answer (100 Continue, 103 Early Hints): the real one follows
            return
        self._keep = self._parser.should_keep_alive()
        self._answer = Response(self._status, self._headers, b"".join(self._body))

    def _check_head(self) -> None:
        if self._head > MAX_HEAD:
            raise WireError("payload", f"a response head over {MAX_HEAD} bytes")

    # ---- feeding --------------------------------------------------------------------------------------
    def feed(self, data: bytes) -> Response | None:
        """Take more bytes; the answer when it is complete (WireError `payload`: not HTTP, or over a cap)."""
        view = memoryview(data)
        for at in range(0, len(data), MAX_LINE):
            piece = view[at:at + MAX_LINE]
            self._progress = False
            try:
                self._parser.feed_data(piece)
            except httptools.HttpParserCallbackError as exc:
                if isinstance(exc.__context__, WireError):
                    raise exc.__context__ from None
                if not self.stray:
                    raise WireError("payload", str(exc)) from None
                break
            except httptools.HttpParserUpgrade:
                raise WireError("payload", "the server switched protocols (101): not an answer") from None
            except httptools.HttpParserError as exc:
                if self._answer is None:
                    raise WireError("payload", str(exc) or type(exc).__name__) from None
                self.stray = True   # bytes after the answer that are no HTTP: out of step all the same
                break
            self._stall = 0 if self._progress else self._stall + len(piece)
            if self._stall > MAX_LINE:
                raise WireError("payload", f"a status, header or chunk-size line over {MAX_LINE} bytes")
        answer = self._answer
        if answer is not None:
            self.reusable = self._keep and not self.stray
            self._answer = None
        return answer

    def eof(self) -> Response:
        """The server closed the connection: the answer it ends (WireError when it ends none whole)."""
        self.reusable = False
        if self._until_close and self._answer is None:
            self._until_close = False
            return Response(self._status, self._headers, b"".join(self._body))
        if not self.started:
            raise WireError("disconnected")
        raise WireError("payload", "the connection closed inside an answer")
