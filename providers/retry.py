"""The one retry policy: tenacity with exponential jitter, honouring the server's Retry-After.

Providers only classify a failed attempt (ProviderFailure.retryable, .retry_after); this module
decides whether and how long to wait, in one place for every provider.
"""
from __future__ import annotations

import asyncio
import email.utils
import math
import random
import re
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Mapping, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from providers.base import ProviderFailure

T = TypeVar("T")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts a unit gets and how long to wait between them."""

    attempts: int = 5
    initial_s: float = 0.5
    max_wait_s: float = 60.0
    jitter_s: float = 0.5

    def delay(self, failed_attempt: int, exc: BaseException | None) -> float:
        """Seconds before the next attempt: the server's word when it gave one (capped), else
        exponential backoff with jitter."""
        if isinstance(exc, ProviderFailure) and exc.retry_after is not None and not math.isnan(exc.retry_after):
            return min(max(exc.retry_after, 0.0), self.max_wait_s)
        backoff: float = self.initial_s * 2 ** (failed_attempt - 1)   # int ** int is typed Any (a negative power)
        return min(backoff + random.uniform(0, self.jitter_s), self.max_wait_s)


async def with_retries(attempt: Callable[[], Awaitable[T]], policy: RetryPolicy) -> tuple[T, int]:
    """Run `attempt` until it succeeds, fails finally, or the attempts are spent: (value, attempts).

    Only retryable ProviderFailures are retried; the last failure propagates with `.attempts` set.
    Any other exception is a bug and propagates at once. The first attempt runs directly (most
    units need no retry, and tenacity's bookkeeping costs a few percent of a fast server's
    throughput); tenacity drives attempts 2..n.
    """
    try:
        return await attempt(), 1
    except ProviderFailure as exc:
        if not exc.retryable or policy.attempts <= 1:
            exc.attempts = 1
            raise
        await asyncio.sleep(policy.delay(1, exc))

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        return policy.delay(state.attempt_number + 1, exc)

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.attempts - 1), wait=wait, reraise=True,
        retry=retry_if_exception(lambda e: isinstance(e, ProviderFailure) and e.retryable))
    number = 1
    try:
        async for try_ in retrying:
            with try_:
                number = try_.retry_state.attempt_number + 1
                return await attempt(), number
    except ProviderFailure as exc:
        exc.attempts = number
        raise
    raise AssertionError("unreachable: tenacity ended without result")  # pragma: no cover


def parse_duration(text: str) -> float | None:
    """`1s`, `6m0s`, `20ms`, `1h2m3.5s` or a bare number of seconds -> seconds."""
    text = text.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:   # "nan" is no duration (a NaN wait stops the event loop's timer with a ValueError)
        return None if math.isnan(seconds) else seconds
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * scale[u] for n, u in parts)


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `Retry-After` (seconds or HTTP date), else the longest `*ratelimit*-reset*`.

    `x-ratelimit-reset-requests/-tokens` are durations (OpenAI); Anthropic's
    `anthropic-ratelimit-*-reset` are RFC 3339 times.
    """
    now = time.time() if now is None else now
    lower = {k.lower(): v for k, v in headers.items()}
    value = lower.get("retry-after")
    if value is not None:
        secs = parse_duration(value)
        if secs is not None:
            return max(secs, 0.0)
        try:
            return max(email.utils.parsedate_to_datetime(value).timestamp() - now, 0.0)
        except (TypeError, ValueError, IndexError):
            pass
    waits = []
    for key, value in lower.items():
        if "ratelimit" in key and "reset" in key:
            secs = parse_duration(value)
            if secs is None:
                secs = _rfc3339_wait(value, now)
            if secs is not None:
                waits.append(secs)
    return max(max(waits), 0.0) if waits else None


def _rfc3339_wait(value: str, now: float) -> float | None:
    from datetime import datetime
    try:
        return max(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() - now, 0.0)
    except ValueError:
        return None
