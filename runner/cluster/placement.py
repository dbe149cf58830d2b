"""Joining a Ray cluster and placing one node agent per node that has what an agent needs."""
from __future__ import annotations

import logging
import os
from typing import Any, NamedTuple

from runner.cluster.agent import NodeAgent
from runner.cluster.limits import RateLimiter, rates
from runner.config.cluster import launch_gpus
from runner.config.grid import Grid
from runner.errors import UserError

NAMESPACE = "logic-skeleton-bench"
AGENT_CALLS = 256   # calls an agent serves at once: its batches in flight, and the control calls beside them


def connect(address: str) -> None:
    """Join the cluster at `address` (`auto`: the one this machine belongs to; `local`: start one here)."""
    import ray
    try:
        if address == "local":
            ray.init(namespace=NAMESPACE, include_dashboard=False, logging_level=logging.WARNING)
        else:
            ray.init(address=address, namespace=NAMESPACE, logging_level=logging.WARNING)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"--ray {address}: cannot join a Ray cluster ({first}); start one with `ray start --head` "
                        "(and `ray start --address HEAD:6379` on the other nodes), or use --ray local") from None


def needs(grid: Grid) -> dict[str, float]:
    """What one agent asks Ray for: CPUs, GPUs (the `ray:` block's, else what the `launch:` blocks use), and
    the custom resources of the `ray:` block."""
    gpus = grid.ray.gpus_per_agent if grid.ray.gpus_per_agent is not None else launch_gpus(grid.providers)
    out = {"CPU": grid.ray.cpus_per_agent, "GPU": gpus, **grid.ray.resources}
    return {k: v for k, v in out.items() if v}


class Placed(NamedTuple):
    """An agent and the node it runs on."""

    handle: Any
    node: str      # the node's IP address
    node_id: str


def place(grid: Grid, grid_json: bytes) -> tuple[list[Placed], Any]:
    """One agent on each node that has what an agent needs (the first `ray.agents` of them, if set), pinned
    to its node; and the cluster's rate limiter (None if no shared provider has a rate)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    need = needs(grid)
    nodes = [n for n in ray.nodes() if n.get("Alive") and all(n["Resources"].get(k, 0) >= v for k, v in need.items())]
    wanted = grid.ray.agents
    what = ", ".join(f"{k} {v:g}" for k, v in need.items()) or "nothing"
    if not nodes or (wanted is not None and len(nodes) < wanted):
        raise UserError(f"ray: {wanted or 1} agent(s), each on its own node with {what}, but the cluster has "
                        f"{len(nodes)} such node(s) of {sum(1 for n in ray.nodes() if n.get('Alive'))}; add nodes, "
                        "or lower ray.agents / ray.gpus_per_agent / ray.resources in the grid")
    nodes = sorted(nodes, key=lambda n: n["NodeManagerAddress"])[:wanted] if wanted else nodes
    here = ray.get_runtime_context().get_node_id()
    per_s = rates(grid)
    limiter = None
    if per_s:
        limiter = ray.remote(RateLimiter).options(
            num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=False)).remote(per_s)
    remote = ray.remote(_RayAgent)
    placed = []
    for i, node in enumerate(nodes):
        handle = remote.options(
            name=f"{grid.name}-{os.getpid()}-agent-{i}", num_cpus=need.get("CPU", 0), num_gpus=need.get("GPU", 0),
            resources={k: v for k, v in need.items() if k not in ("CPU", "GPU")}, max_concurrency=AGENT_CALLS,
            max_restarts=0, scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
        ).remote(grid_json, len(nodes), limiter)
        placed.append(Placed(handle, node["NodeManagerAddress"], node["NodeID"]))
    return placed, limiter


class _RayAgent(NodeAgent):
    """The agent as Ray runs it: told which GPUs Ray gave it."""

    def __init__(self, grid_json: bytes, agents: int, limiter: Any):
        import ray
        super().__init__(grid_json, agents, limiter, [str(g) for g in ray.get_gpu_ids()])
