"""Limits of the whole cluster for the providers every agent shares (remote APIs, a shared endpoint).

A provider without `launch:` is one service however many agents send to it, so its `rate_per_s`
and `max_concurrency` are the cluster's: one limiter actor hands out request start times for the
whole cluster (each request start asks it for the next slot, spaced 1/rate apart), and each of n
agents may have `max_concurrency // n` requests in flight (at least one). Providers with `launch:`
run on every node against that node's own servers: their limits are per node, as on one machine.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

from providers.build import BUILTIN_KINDS, max_concurrency
from providers.config import ProviderConfig
from runner.config.grid import Grid


def shared_providers(grid: Grid) -> list[str]:
    """The providers the grid uses that every agent shares: sent over HTTP, not launched on each node."""
    return [n for n in grid.used_providers()
            if grid.providers[n].kind not in BUILTIN_KINDS and not grid.providers[n].settings.get("launch")]


def rates(grid: Grid) -> dict[str, float]:
    """Shared provider -> its `rate_per_s`, for those that have one (the limiter actor's work)."""
    return {n: grid.providers[n].settings["rate_per_s"] for n in shared_providers(grid)
            if grid.providers[n].settings.get("rate_per_s")}


def agent_config(cfg: ProviderConfig, agents: int) -> ProviderConfig:
    """A shared provider's settings on one of `agents` agents: its share of the cap, and no rate of its own
    (the limiter paces it). Neither goes into unit keys, so the records are a plain run's."""
    settings = {k: v for k, v in cfg.settings.items() if k != "rate_per_s"}
    settings["max_concurrency"] = max(1, max_concurrency(cfg) // agents)
    return replace(cfg, settings=settings)


class RateLimiter:
    """The cluster's request start times, per shared provider: one actor, so one clock decides them."""

    def __init__(self, per_s: dict[str, float]):
        self.gap = {name: 1.0 / rate for name, rate in per_s.items()}
        self.next = {name: 0.0 for name in per_s}

    def slot(self, name: str) -> tuple[float, float]:
        """(seconds the caller waits before its request starts, the slot's width): the next free slot of
        `name`, taken."""
        now = time.monotonic()
        at = max(now, self.next[name])
        self.next[name] = at + self.gap[name]
        return at - now, self.gap[name]


LATE_S = 0.005   # a sleep's usual overshoot: a slot is never missed for less


class ClusterThrottle:
    """A provider's start-rate gate on an agent (`async with`), asking the cluster's limiter for each start.

    A slot is used only within half its width of its time: an agent whose loop was busy when its sleep was
    due (several due sleeps then wake together) asks for a new slot instead of starting late, so the
    cluster's starts stay one per slot and the rate is a ceiling, not an average."""

    def __init__(self, limiter: Any, name: str):
        self.limiter, self.name = limiter, name

    async def __aenter__(self) -> None:
        while True:
            delay, gap = await self.limiter.slot.remote(self.name)
            due = time.monotonic() + delay
            if delay > 0:
                await asyncio.sleep(delay)
            if time.monotonic() - due <= max(gap / 2, LATE_S):
                return

    async def __aexit__(self, *exc: object) -> bool:
        return False
