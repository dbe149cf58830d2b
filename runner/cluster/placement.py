"""Joining a Ray cluster and placing node agents (`ray.agents_per_node` each) on the nodes that have what they need."""
from __future__ import annotations

import logging
import os
import socket
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
    if address not in ("auto", "local"):
        _reachable(address)
    try:
        # log_to_driver=False: the agents' own stdout and stderr ("(_RayAgent pid=...)" in colour, Ray's
        # "deduplicates logs" banner) stay in Ray's log files; what an agent has to say reaches the user as
        # bench's own lines, through the driver (Counts.note, the driver's per-agent lines).
        if address == "local":
            ray.init(namespace=NAMESPACE, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
        else:
            ray.init(address=address, namespace=NAMESPACE, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"--ray {address}: cannot join a Ray cluster ({first}); start one with `ray start --head` "
                        "(and `ray start --address HEAD:6379` on the other nodes), or use --ray local") from None


def _reachable(address: str) -> None:
    """A HEAD:PORT that nothing answers at is one line at once (Ray itself would retry for minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise UserError(f"--ray {address}: expected auto, local or HEAD:PORT (e.g. 10.0.0.1:6379)")
    hosts = [host]
    if host in ("localhost", "127.0.0.1"):   # Ray looks for a cluster on this machine at its outward address
        hosts.append(_outward_ip())
    for h in hosts:
        try:
            socket.create_connection((h, int(port)), timeout=5).close()
            return
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
    raise UserError(f"--ray {address}: no Ray cluster answers there ({why}); is `ray start --head` running, and is "
                    "this its address (`ray status` on the head prints it)?")


def _outward_ip() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))   # no packet is sent: this picks the interface a route would use
            ip: str = s.getsockname()[0]   # (host, port) for AF_INET
            return ip
        except OSError:
            return "127.0.0.1"


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


def _alive_nodes() -> list[dict[str, Any]]:
    """The cluster's live nodes, each as `ray.nodes()` describes it (NodeID, NodeManagerAddress, Resources...)."""
    import ray
    found: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]  # ray leaves nodes() unannotated
    return [n for n in found if n.get("Alive")]


def nodes_for(grid: Grid) -> list[dict[str, Any]]:
    """The nodes that get agents: each that has what `ray.agents_per_node` agents need (the first `ray.agents`
    of them, if set); one line if the cluster has too few."""
    need, per_node = needs(grid), grid.ray.agents_per_node
    alive = _alive_nodes()
    nodes = [n for n in alive if all(n["Resources"].get(k, 0) >= per_node * v for k, v in need.items())]
    wanted = grid.ray.agents
    what = ", ".join(f"{k} {v:g}" for k, v in need.items()) or "nothing"
    if not nodes or (wanted is not None and len(nodes) < wanted):
        asked = f"{wanted or 1} agent(s), each on its own node with {what}" if per_node == 1 else \
            f"agents on {wanted or 1} node(s), {per_node} per node, each with {what} (a node needs {per_node} times that)"
        raise UserError(f"ray: {asked}, but the cluster has "
                        f"{len(nodes)} such node(s) of {len(alive)}; add nodes, "
                        "or lower ray.agents / ray.agents_per_node / ray.gpus_per_agent / ray.resources in the grid")
    return sorted(nodes, key=lambda n: n["NodeManagerAddress"])[:wanted] if wanted else nodes


def place(grid: Grid, nodes: list[dict[str, Any]], grid_json: bytes) -> tuple[list[Placed], Any]:
    """An agent pinned to each of `nodes`, and the cluster's rate limiter (None if no shared provider has
    a rate)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    need = needs(grid)
    here = ray.get_runtime_context().get_node_id()
    per_s = rates(grid)
    limiter = None
    if per_s:
        limiter = ray.remote(RateLimiter).options(
            num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=False)).remote(per_s)
    remote = ray.remote(_RayAgent)
    placed: list[Placed] = []
    total = len(nodes) * grid.ray.agents_per_node
    for node in nodes:
        for _ in range(grid.ray.agents_per_node):   # each its own share of the node: GPUs, servers, event loop
            handle = remote.options(
                name=f"{grid.name}-{os.getpid()}-agent-{len(placed)}", num_cpus=need.get("CPU", 0),
                num_gpus=need.get("GPU", 0), resources={k: v for k, v in need.items() if k not in ("CPU", "GPU")},
                max_concurrency=AGENT_CALLS, max_restarts=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
            ).remote(grid_json, total, limiter)
            placed.append(Placed(handle, node["NodeManagerAddress"], node["NodeID"]))
    return placed, limiter


class _RayAgent(NodeAgent):
    """The agent as Ray runs it: told which GPUs Ray gave it."""

    def __init__(self, grid_json: bytes, agents: int, limiter: Any):
        import ray
        super().__init__(grid_json, agents, limiter, [str(g) for g in ray.get_gpu_ids()])
