"""The one retry policy: what is retried, how long it waits, and the rate-limit headers it reads."""
from __future__ import annotations

import asyncio
import email.utils

import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.base import ProviderFailure
from providers.retry import RetryPolicy, parse_duration, retry_after_seconds, with_retries


@pytest.mark.parametrize("text, secs", [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m3.5s", 3723.5),
                                        ("7", 7.0), ("0.5", 0.5), ("soon", None),
                                        ("nan", None), ("-NaN", None)])
def test_parse_duration(text, secs):
    assert parse_duration(text) == secs


_HEADERS = ["Retry-After", "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens", "anthropic-ratelimit-requests-reset"]


@given(st.dictionaries(st.sampled_from(_HEADERS),
                       st.sampled_from(["nan", "NaN", "-nan", " nan ", "inf", "-inf", "1e999", "-5", "3", "2s", "soon"])
                       | st.text(max_size=30), min_size=1))
def test_any_rate_limit_header_gives_a_wait_the_loop_can_sleep(headers):
    """Whatever a server writes in its rate-limit headers ("nan" included), the wait is none or a number of seconds
    from 0 to the policy's cap: asyncio's timer takes it (a NaN stopped a run with a ValueError)."""
    secs = retry_after_seconds(headers, 1_700_000_000.0)
    assert secs is None or secs >= 0.0   # False for a NaN
    policy = RetryPolicy()
    wait = policy.delay(2, ProviderFailure("429", retryable=True, retry_after=secs, kind="http"))
    assert 0.0 <= wait <= policy.max_wait_s


def test_a_nan_retry_after_from_a_provider_waits_the_backoff():
    policy = RetryPolicy(initial_s=0.5, jitter_s=0.0)
    assert policy.delay(1, ProviderFailure("429", retryable=True, retry_after=float("nan"), kind="http")) == 0.5


def test_retry_after_seconds_and_http_date():
    now = 1_700_000_000.0
    assert retry_after_seconds({"Retry-After": "3"}, now) == 3.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert retry_after_seconds({"retry-after": date}, now) == pytest.approx(30, abs=1)


def test_ratelimit_reset_headers():
    now = 1_700_000_000.0
    assert retry_after_seconds({"x-ratelimit-reset-requests": "2s", "x-ratelimit-reset-tokens": "6m0s"}, now) == 360
    assert retry_after_seconds({"anthropic-ratelimit-requests-reset": "2023-11-14T22:13:40Z"}, now) == 20
    assert retry_after_seconds({"content-type": "x"}, now) is None


def test_only_retryable_failures_are_retried():
    calls = []

    async def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise ProviderFailure("503", retryable=True, retry_after=0, kind="http")
        return "done"
    assert asyncio.run(with_retries(flaky, RetryPolicy(attempts=5))) == ("done", 3)

    async def final():
        calls.append(1)
        raise ProviderFailure("http 401", retryable=False, kind="auth")
    calls.clear()
    with pytest.raises(ProviderFailure) as err:
        asyncio.run(with_retries(final, RetryPolicy(attempts=5)))
    assert len(calls) == 1 and err.value.attempts == 1


def test_bugs_are_not_retried():
    calls = []

    async def bug():
        calls.append(1)
        raise KeyError("oops")
    with pytest.raises(KeyError):
        asyncio.run(with_retries(bug, RetryPolicy(attempts=5)))
    assert len(calls) == 1


def test_wait_is_capped_and_honours_server():
    policy = RetryPolicy(attempts=3, initial_s=0.5, max_wait_s=10, jitter_s=0.1)
    assert policy.delay(1, ProviderFailure("429", retryable=True, retry_after=3600, kind="http")) == 10
    assert policy.delay(1, ProviderFailure("429", retryable=True, retry_after=2, kind="http")) == 2
    assert 0.5 <= policy.delay(1, ProviderFailure("503", retryable=True, kind="http")) <= 0.6
    assert 2.0 <= policy.delay(3, ProviderFailure("503", retryable=True, kind="http")) <= 2.1   # doubles each time
    assert policy.delay(20, None) == 10


def test_attempts_counted_through_tenacity_after_first_failure():
    calls = []

    async def always():
        calls.append(1)
        raise ProviderFailure("500", retryable=True, retry_after=0, kind="http")
    with pytest.raises(ProviderFailure) as err:
        asyncio.run(with_retries(always, RetryPolicy(attempts=4)))
    assert len(calls) == 4 and err.value.attempts == 4
