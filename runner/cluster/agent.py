"""A node agent: launches the grid's servers on its node, renders, checks and solves the batches it is given.

The agent runs the same pipeline as a run on one machine (providers, limits, retries, fidelity
checks), against its own node's servers; it never touches the run folder: what the logs hold of a
batch comes with the batch, and its records go back to the driver. It is a Ray actor (made so by
the driver); this module does not import Ray.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import socket
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, AsyncGenerator, NamedTuple

from providers.base import Provider
from providers.build import build_provider
from providers.config import key_missing
from providers.http import HTTPProvider
from runner.cluster.limits import ClusterThrottle, agent_config, shared_providers
from runner.cluster.work import Batch, BatchResult
from runner.config.grid import Grid
from runner.engine.calibration import Job, read_backs
from runner.engine.items import Item, Preparer, local_renderers
from runner.engine.pipeline import Pipeline
from runner.engine.progress import Counts
from runner.errors import UserError
from runner.fidelity.calibration import Trust
from runner.serving.servers import ServerSet, start_servers
from runner.source.generate import GenerationPlan, make_plan
from runner.store.sinks import MemoryLogs

PACKAGES = ("runner", "families", "rendering", "providers")


def code_hash() -> str:
    """A hash of this installation's source: agents whose code differs from the driver's would key units
    differently, so the driver refuses them."""
    h = hashlib.blake2b(digest_size=8)
    root = Path(__file__).resolve().parents[2]
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


class Started(NamedTuple):
    """What an agent says when it is ready (or why it is not: `error`)."""

    code: str          # code_hash() of the agent's installation
    servers: dict[str, list[str]]
    error: str | None = None


def gpu_ids_for(launch: dict[str, Any], assigned: list[str]) -> dict[str, Any]:
    """A `launch:` block with its GPU indices read as indices into the GPUs Ray gave the agent (`assigned`,
    physical ids): a grid's `gpus: [0, 1]` means the agent's first two GPUs, wherever they are."""
    if not assigned:
        return launch
    per = launch.get("gpus_per_replica")
    wanted = launch.get("gpus") or (list(range(launch.get("replicas", 1) * per)) if per else None)
    if not wanted:
        return launch
    if max(wanted) >= len(assigned):
        raise UserError(f"providers.{launch.get('served_name', '?')}.launch.gpus: GPU index {max(wanted)}, but an agent "
                        f"has {len(assigned)} GPU(s) (ray.gpus_per_agent)")
    return {**launch, "gpus": [int(assigned[i]) for i in wanted], "gpus_per_replica": per or 1}


class NodeAgent:
    """One node's share of a Ray run: its servers, its providers and the batches it works on."""

    def __init__(self, grid_json: bytes, agents: int, limiter: Any, gpu_ids: list[str] | None = None):
        self.grid = Grid.from_json(grid_json)
        self.agents, self.limiter = agents, limiter
        self.gpu_ids = gpu_ids
        self.servers = ServerSet()
        self.providers: dict[str, Provider] = {}
        self.trust: dict[tuple[str, str], Trust] = {}
        self.preparer: Preparer | None = None
        self._preparing = ThreadPoolExecutor(1, thread_name_prefix="prepare")   # one: batches prepared in turn
        self.plan: GenerationPlan | None = None
        self.folder = Path(tempfile.gettempdir()) / f"lsb-agent-{self.grid.name}-{os.getpid()}"

    async def start(self) -> Started:
        """Launch this node's servers and build the providers; an error is returned, not raised."""
        try:
            self._check_keys()
            self.servers = self._launch()
            urls = self.servers.urls()
            shared = set(shared_providers(self.grid))
            for name in self.grid.used_providers():
                cfg = self.grid.providers[name]
                provider = build_provider(agent_config(cfg, self.agents) if name in shared else cfg, urls=urls.get(name))
                if name in shared and cfg.settings.get("rate_per_s") and self.limiter is not None \
                        and isinstance(provider, HTTPProvider):   # rate_per_s is an HTTP provider's key
                    provider.throttle = ClusterThrottle(self.limiter, name)
                await provider.start()
                self.providers[name] = provider
            self.preparer = Preparer(self.grid, local_renderers(self.grid))
            return Started(code_hash(), urls)
        except Exception as exc:   # a server that would not start, a missing key: the driver says it
            await self.stop()
            return Started(code_hash(), {}, _one_line(exc))

    def _check_keys(self) -> None:
        for name in self.grid.used_providers():
            env = self.grid.providers[name].settings.get("api_key_env")
            if env and not os.environ.get(env):
                raise UserError(f"providers.{name}.api_key_env: {key_missing(env, os.environ)} on {socket.gethostname()} "
                                "(agents read keys from their node's environment: set it where `ray start` runs)")

    def _launch(self) -> ServerSet:
        to_start = {}
        for name in self.grid.used_providers():
            launch = self.grid.providers[name].settings.get("launch")
            if launch:
                to_start[name] = gpu_ids_for(dict(launch), self.gpu_ids or [])
        return start_servers(to_start, self.folder) if to_start else ServerSet()

    def set_trust(self, trust: dict[tuple[str, str], Trust]) -> None:
        """The auditors' calibration, decided once for the run (by the driver, from one agent's read-backs)."""
        self.trust = trust

    async def calibrate(self, jobs: list[Job]) -> list[bytes]:
        """Run calibration units; their records' lines, for the driver to write."""
        lines: list[bytes] = []
        await read_backs(jobs, self.providers, lines.append)
        return lines

    async def run_batch(self, batch: Batch) -> BatchResult:
        """Render, check and solve a batch's skeletons; the records and counts go back to the driver."""
        started = time.monotonic()
        logs = MemoryLogs(batch.renders, batch.solves)
        counts = Counts()
        pipeline = Pipeline(self.grid, logs, counts, self.providers, self.trust)
        items = await asyncio.get_running_loop().run_in_executor(self._preparing, self._prepare, batch)

        async def one_batch() -> AsyncGenerator[list[Item], None]:
            yield items
        result = await pipeline.process(one_batch(), workers=min(len(items), self.grid.max_in_flight))
        return BatchResult(batch.id, logs.render_lines, logs.solve_lines, result, counts.counts,
                           time.monotonic() - started)

    def _prepare(self, batch: Batch) -> list[Item]:
        """A batch's skeletons made and prepared (keys, prompts, local renders): CPU work, run in this agent's
        one preparing thread, so the event loop (and the rate limiter's sleeps on it) never waits the whole
        batch out; Python hands the loop the interpreter every few milliseconds meanwhile."""
        made = batch.skeletons if batch.span is None else self._plan().items(batch.span[1] - batch.span[0], batch.span[0])
        preparer = self.preparer
        if preparer is None:
            raise RuntimeError("a batch before the agent started")
        return [preparer.prepare(sk) for sk in made]

    def _plan(self) -> GenerationPlan:
        """The grid's generation plan (its skeletons by index), made once."""
        if self.plan is None:
            src = self.grid.source
            self.plan = make_plan(src.seed, src.complexities, src.families, src.target_hop_dist, src.distractors)
        return self.plan

    async def stop(self) -> None:
        """Close the providers and stop every server this agent launched."""
        for provider in self.providers.values():
            try:
                await provider.close()
            except Exception:   # closing a session must not keep the servers up
                pass
        self.providers = {}
        await asyncio.get_running_loop().run_in_executor(None, self.servers.stop)
        self._preparing.shutdown(wait=False)
        shutil.rmtree(self.folder, ignore_errors=True)   # the servers' logs (a failed start quoted its own)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if isinstance(exc, UserError) else f"{type(exc).__name__}: {text}"
