"""Request ids: every request carries a fresh `X-Request-Id`, and an answer that carries another id of ours is
not its request's answer.

HTTP/1.1 framing cannot tell a stray answer (an extra one a server wrote after its answer, read after the
next request on that keep-alive connection went out) from the next request's own; its id can. vLLM takes a
client's `X-Request-Id` as the request's id and answers with it in the body's `id` (`chatcmpl-<id>`,
`cmpl-<id>`; `_base_request_id` in vllm/entrypoints/serve/engine/serving.py of 0.32, since vLLM PR 10968 of
December 2024, so every version pyproject allows), and with `--enable-request-id-headers` in an
`X-Request-Id` response header too (tests/test_real_model.py checks the body's on vLLM 0.32 CPU). A server
that echoes neither is known only to send its answers in order: there an answer is its request's by position
alone, so each request goes on a new connection that carries it alone (providers/pooled.py); the first 200
answer of a replica tells which kind it is (`Echo`).
"""
from __future__ import annotations

import itertools
import secrets
from enum import Enum
from typing import Mapping

from providers.answers import Response


class Echo(Enum):
    """What a server does with our request ids, as its answers showed (per replica)."""

    UNKNOWN = "unknown"   # no 200 answer seen yet: a vLLM server is taken to echo (it always does)
    ECHOES = "echoes"     # an answer carried its request's id: an answer without it is not ours
    NONE = "none"         # an answer on a new connection (ours by position) carried none: order is all there is


class Whose(Enum):
    """Whose an answer is by the ids it carries."""

    OURS = "ours"         # it carries the request's id
    OTHER = "other"       # it carries another id of ours: another request's answer
    UNTOLD = "untold"     # it carries no id of ours


class RequestIds:
    """Fresh request ids for one provider: a random prefix (6 bytes of the OS's randomness) and a counter, so
    that an answer carrying another request's id of ours is seen for what it is."""

    def __init__(self) -> None:
        self.prefix = f"lsb-{secrets.token_hex(6)}-"
        self._counter = itertools.count(1)
        self._marker = self.prefix.encode()

    def fresh(self) -> str:
        """A new id, never sent before by this provider (a retry of a unit gets a new one too)."""
        return f"{self.prefix}{next(self._counter)}"

    def ask(self, echo: bool) -> Asking:
        """A request about to be sent: its id, and whether the server is known to `echo` ids."""
        return Asking(self, echo)

    def whose(self, rid: str, headers: Mapping[str, str], body: bytes) -> Whose:
        """An answer's owner by its ids: OURS when its `X-Request-Id` header is `rid` or a JSON string in its
        body ends with it (vLLM's `"id": "chatcmpl-<rid>"`; the closing quote keeps `...-1` from matching
        `...-12`), OTHER when it carries another id of ours, else UNTOLD."""
        header = headers.get("x-request-id")
        if header == rid or f'{rid}"'.encode() in body:
            return Whose.OURS
        if (header is not None and header.startswith(self.prefix)) or self._marker in body:
            return Whose.OTHER
        return Whose.UNTOLD


def learned(before: Echo, status: int, whose: Whose) -> Echo:
    """A replica's echo after an answer its client took as its request's: a 200 answer tells (it carried our
    id, or it came where only ours could: on a new connection, or one we did not check); others tell nothing."""
    if status != 200:
        return before
    return Echo.ECHOES if whose is Whose.OURS else Echo.NONE


class Asking:
    """One request's id while it is sent: renewed when the request goes again (a vLLM without the random
    suffix it now adds inside refuses an id still running, "Request id ... already running", and the first copy
    may be), and the test of whether an answer can be its own."""

    def __init__(self, ids: RequestIds, echo: bool):
        self.ids, self.echo = ids, echo
        self.rid = ids.fresh()
        self._last: tuple[bytes, Whose] | None = None   # the last answer looked at and whose it was
        self.others = 0   # answers refused as another request's (a stray, for certain: it carried our id)

    def renew(self) -> bytes:
        """A new id for the request sent again (as bytes, for the request head)."""
        self.rid = self.ids.fresh()
        return self.rid.encode()

    def whose(self, headers: Mapping[str, str], body: bytes) -> Whose:
        """Whose an answer is (RequestIds.whose with the id now; the last answer's verdict kept)."""
        if self._last is not None and self._last[0] is body:
            return self._last[1]
        verdict = self.ids.whose(self.rid, headers, body)
        self._last = (body, verdict)
        return verdict

    def belongs(self, answer: Response) -> bool:
        """Whether `answer`, met on a kept connection, can be this request's: never when it carries another id
        of ours; where the server is known to echo ids, a 200 answer only when it carries ours (error answers
        carry no id on vLLM). A 200 answer with no id of ours there is no answer to a request told by its id
        (a stray /tokenize answer, say): the request goes again on a new connection, where the first answer
        is its own by position (a malformed one a failed attempt as such)."""
        verdict = self.whose(answer.headers, answer.body)
        self.others += verdict is Whose.OTHER
        if verdict is not Whose.UNTOLD:
            return verdict is Whose.OURS
        return not (self.echo and answer.status == 200)
