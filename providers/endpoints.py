"""A provider's replicas: each with its own cap on requests in flight and its health, routed least-in-flight."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from providers.identity import Echo
from providers.wire import Wire


@dataclass
class Endpoint:
    """One server (a replica): its own cap on requests in flight and its health."""

    url: str
    semaphore: asyncio.Semaphore
    load: int = 0          # requests routed here and not finished: in flight plus waiting for the cap
    down_until: float = 0.0
    strikes: int = 0
    wire: Wire | None = None   # the lean client's connections (plain http), else aiohttp's session serves
    echo: Echo = Echo.UNKNOWN   # whether its answers carry our request ids (providers/identity.py)


class EndpointPool:
    """Least-in-flight routing over replicas; a replica that fails is taken out and re-checked later."""

    def __init__(self, urls: list[str], max_concurrency: int, recheck_s: float = 5.0):
        self.endpoints = [Endpoint(u.rstrip("/"), asyncio.Semaphore(max_concurrency)) for u in urls]
        self.recheck_s = recheck_s

    def choose(self) -> Endpoint:
        """The healthy replica with the least load (if none is healthy, the first back); counts it at once.

        Counting at routing time, not when the request starts, keeps a burst from all picking one replica.
        """
        if len(self.endpoints) == 1:   # the common case: nothing to choose (and never marked down)
            ep = self.endpoints[0]
            ep.load += 1
            return ep
        now = time.monotonic()
        healthy = [e for e in self.endpoints if e.down_until <= now]
        ep = min(healthy, key=lambda e: e.load) if healthy else min(self.endpoints, key=lambda e: e.down_until)
        ep.load += 1
        return ep

    def mark_down(self, ep: Endpoint) -> None:
        """Take a replica out for a while, longer after each failure in a row (at most a minute)."""
        if len(self.endpoints) > 1:
            ep.strikes += 1
            ep.down_until = time.monotonic() + min(self.recheck_s * 2 ** (ep.strikes - 1), 60.0)

    def mark_up(self, ep: Endpoint) -> None:
        ep.strikes, ep.down_until = 0, 0.0
