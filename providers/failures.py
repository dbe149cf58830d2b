"""What a failed request is, in one line: the server's error text (the key scrubbed from it), a connection's
failure naming its endpoint, and a non-200 answer classified (retried or not, and its kind)."""
from __future__ import annotations

from typing import Mapping

import aiohttp
import orjson

from providers.answers import WireError
from providers.base import ProviderFailure, http_kind
from providers.retry import retry_after_seconds

_CONTEXT_SIGNS = ("context length", "context_length", "maximum context", "prompt is too long",
                  "exceed_context_size", "context window", "too many tokens")



def scrub(text: str, secret: str | None) -> str:
    """`text` without the secret, as sent or as a server that strips a header's spaces echoes it."""
    if not secret:
        return text
    for form in _forms(secret):
        text = text.replace(form, "***")
    return text


def _forms(secret: str) -> set[str]:
    """The secret as sent, and as a server that strips a header's spaces echoes it."""
    return {secret, secret.strip()} - {""}


ANSWER_SCRUB = 12   # the shortest key scrubbed from a 200 answer (a provider's issued keys are 40 and more)


def scrub_bytes(raw: bytes, secret: str | None) -> bytes:
    """A server's answer without the secret (`scrub` on its bytes, before it is parsed): a model or a proxy that
    quotes the request's Authorization header in a 200 answer would otherwise write the key into the logs. A key of
    under ANSWER_SCRUB characters is left (a local server's "k" or "EMPTY" is no credential, and taking its every
    occurrence out of an answer would change the answer: "k" out of `"tokens"`)."""
    if not secret or len(secret.strip()) < ANSWER_SCRUB:
        return raw
    for form in _forms(secret):
        key = form.encode()
        if key in raw:
            raw = raw.replace(key, b"***")
    return raw


def error_message(raw: bytes, secret: str | None = None) -> str:
    """The server's error text: `error.message` (OpenAI, vLLM, Anthropic), `message`, or the body's start;
    the secret scrubbed before the text is cut (a cut would leave the key's first characters)."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return scrub(raw.decode("utf-8", "replace"), secret)[:200].strip()
    if isinstance(obj, dict):
        err = obj.get("error", obj)
        if isinstance(err, dict):
            return scrub(str(err.get("message") or err.get("type") or err), secret)[:300]
        return scrub(str(err), secret)[:300]
    return scrub(str(obj), secret)[:200]


def connection_reason(exc: BaseException, url: str) -> str:
    """What went wrong with a connection, naming the endpoint: `connection refused to URL`, and so on."""
    os_error = getattr(exc, "os_error", None)
    if isinstance(os_error, ConnectionRefusedError):
        return f"connection refused to {url}"
    if isinstance(exc, aiohttp.ClientConnectorError):
        cause = getattr(os_error, "strerror", None) or str(os_error or exc)
        return f"cannot connect to {url}: {cause}"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return f"connection to {url}: server disconnected"
    detail = str(exc).strip()
    return f"connection to {url}: {type(exc).__name__}" + (f": {detail[:200]}" if detail else "")


def wire_reason(exc: WireError, url: str) -> str:
    """What went wrong on the lean client's connection, worded as connection_reason words aiohttp's."""
    if exc.kind == "refused":
        return f"connection refused to {url}"
    if exc.kind == "connect":
        return f"cannot connect to {url}: {exc.detail}"
    if exc.kind == "disconnected":
        return f"connection to {url}: server disconnected"
    return f"connection to {url}: a broken answer" + (f": {exc.detail[:200]}" if exc.detail else "")


def classify(status: int, raw: bytes, headers: Mapping[str, str], secret: str | None = None) -> ProviderFailure:
    """Classify a non-200 answer: 408, 429, 5xx retry (after Retry-After); context length is a result.
    The message is the server's, `secret` scrubbed from it."""
    message = error_message(raw, secret)
    if status == 400 and any(s in message.lower() for s in _CONTEXT_SIGNS):
        return ProviderFailure(f"context_length: {message}", retryable=False, status=status, kind="context_length")
    if status in (408, 429) or status >= 500:
        return ProviderFailure(f"http {status}: {message}", retryable=True,
                               retry_after=retry_after_seconds(headers), status=status, kind=http_kind(status))
    return ProviderFailure(f"http {status}: {message}", retryable=False, status=status, kind=http_kind(status))
