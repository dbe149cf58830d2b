"""The driver's agents: one record each (where it was placed, whether it started with the driver's code, what
it did, why it was lost), their start and stop, and the closing line each gets."""
from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from runner.cluster.agent import Started, code_hash
from runner.cluster.placement import Placed
from runner.engine.progress import Progress
from runner.errors import UserError
from runner.serving.servers import GRACE_S


@dataclass
class Agent:
    """One placed agent, and what it did."""

    index: int
    placed: Placed
    ready: Started | None = None
    lost: str | None = None
    inflight: int = 0                                           # its batches sent and not yet back
    units: Counter[str] = field(default_factory=Counter)           # render / solve units finished
    errors: int = 0
    batches: int = 0
    first: float = 0.0
    last: float = 0.0

    @property
    def live(self) -> bool:
        """Started, and not lost since."""
        return self.ready is not None and not self.lost

    @property
    def name(self) -> str:
        return f"agent {self.index} on {self.node}"

    @property
    def node(self) -> str:
        """The node's address and the start of its Ray id (several nodes may share a machine)."""
        return f"{self.placed.node}/{self.placed.node_id[:6]}"

    def rate(self) -> float:
        """Units per second since its first batch went out."""
        span = self.last - self.first
        return sum(self.units.values()) / span if span > 0 else 0.0


def start(agents: list[Agent]) -> list[Agent]:
    """Start every agent (each launches its node's servers); those that cannot start are dropped, saying why."""
    import ray
    refs = {a.placed.handle.start.remote(): a for a in agents}
    mine = code_hash()
    waiting = set(refs)
    shown = time.monotonic()
    while waiting:
        ready, _ = ray.wait(list(waiting), num_returns=len(waiting), timeout=30.0)
        for ref in ready:
            waiting.discard(ref)
            agent = refs[ref]
            try:
                started: Started = ray.get(ref)
            except ray.exceptions.RayError as exc:
                agent.lost = f"could not start ({reason(exc)})"
                continue
            if started.error:
                agent.lost = started.error
            elif started.code != mine:
                agent.lost = (f"its logic-skeleton-bench differs from the driver's (code {started.code}, here {mine}): "
                              "install the same version on every node")
            else:
                agent.ready = started
        if waiting and time.monotonic() - shown >= 30:
            shown = time.monotonic()
            _say(f"waiting for {len(waiting)} agent(s) to start their servers: "
                 + ", ".join(refs[r].node for r in waiting))
    live = [a for a in agents if a.ready]
    for a in agents:
        if a.lost:
            _say(f"{a.name} left out: {a.lost}")
    if not live:
        raise UserError(f"no agent could start; {agents[0].name}: {agents[0].lost}")
    servers = sum(len(u) for a in live if a.ready is not None for u in a.ready.servers.values())
    _say(f"{len(live)} agent(s) ready on {len({a.placed.node_id for a in live})} node(s)"
         + (f", {servers} server(s) launched" if servers else ""))
    return live


def lose(agent: Agent, exc: BaseException, agents: list[Agent], progress: Progress) -> None:
    """Mark an agent lost (once) and say so: its unfinished batches go to the others."""
    if agent.lost:
        return
    agent.lost = reason(exc)
    left = sum(1 for a in agents if a.live)
    progress.note(f"bench: {agent.name} was lost ({agent.lost}); its unfinished batches go to the "
                  f"{left} agent(s) left")


def reason(exc: BaseException) -> str:
    """One line of a Ray error: its cause's message where it has one."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, BaseException):
        exc = cause
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


def stop(agents: list[Agent], limiter: Any) -> None:
    """Stop every agent's servers (a grace period each), then end the agents and the limiter."""
    import ray
    refs = [a.placed.handle.stop.remote() for a in agents if not a.lost]
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=GRACE_S + 10)
    for handle in [a.placed.handle for a in agents] + ([limiter] if limiter is not None else []):
        try:
            ray.kill(handle, no_restart=True)
        except Exception:   # already gone
            pass


def closing(agents: list[Agent]) -> list[str]:
    """One line per agent: its node, units, errors and pace, or why it was lost or left out."""
    out = []
    for a in agents:
        units = f"render {a.units['render']}, solve {a.units['solve']}, errors {a.errors}, {a.batches} batch(es)"
        if a.ready is None:
            out.append(f"node {a.node} (agent {a.index}): left out: {a.lost}")
        elif a.lost:
            out.append(f"node {a.node} (agent {a.index}): {units}; lost: {a.lost}")
        else:
            out.append(f"node {a.node} (agent {a.index}): {units}, {a.rate():.1f} units/s")
    return out


def _say(message: str) -> None:
    """A line of the driver's to the user, at once."""
    print(f"bench: {message}", file=sys.stderr, flush=True)
