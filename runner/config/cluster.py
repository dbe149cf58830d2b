"""The grid's `ray:` block: how many node agents a Ray run places, what each needs, and its batches."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from providers.config import ProviderConfig, short
from runner.config.checks import NAME, Checker

KEYS = {"agents", "agents_per_node", "gpus_per_agent", "cpus_per_agent", "resources", "batch"}
MAX_AGENTS_PER_NODE = 256


@dataclass(frozen=True)
class RaySettings:
    """Node agents on `agents` nodes (None: on every node that has what its agents need), `agents_per_node`
    on each (an 8-GPU node may run 8 agents, each with its own GPU, server and event loop), each with
    `gpus_per_agent` GPUs (None: as many as the grid's `launch:` blocks use), `cpus_per_agent` CPUs and any
    custom `resources`; the driver sends them `batch` skeletons at a time."""

    agents: int | None = None
    agents_per_node: int = 1
    gpus_per_agent: float | None = None
    cpus_per_agent: float = 1.0
    resources: Mapping[str, float] = field(default_factory=dict)
    batch: int = 32

    def to_obj(self) -> dict[str, Any]:
        obj = {**asdict(self), "resources": dict(self.resources)}
        if self.agents_per_node == 1:   # saved (and hashed) as before the key, unless set
            del obj["agents_per_node"]
        return obj


def parse_ray(c: Checker, raw: Any) -> RaySettings:
    """Check a `ray:` block (absent: the defaults)."""
    if raw is None:
        return RaySettings()
    top = c.mapping(raw, "ray", KEYS)
    resources = top.get("resources", {})
    if not isinstance(resources, dict):
        raise c.fail("ray.resources", "expected a mapping of custom resource names to amounts, e.g. {fake_gpu: 1}")
    for name, amount in resources.items():
        if not isinstance(name, str) or not NAME.fullmatch(name) or name in ("CPU", "GPU"):
            raise c.fail(f"ray.resources.{name if isinstance(name, str) else short(name)}", "expected a custom resource name of letters, digits and "
                         "_ . + = - (CPUs and GPUs have their own keys: cpus_per_agent, gpus_per_agent)")
        c.number(amount, f"ray.resources.{name}", 0.0001, 1e6)
    return RaySettings(
        agents=c.number(top["agents"], "ray.agents", 1, 100_000, integer=True) if "agents" in top else None,
        agents_per_node=c.number(top.get("agents_per_node", 1), "ray.agents_per_node", 1, MAX_AGENTS_PER_NODE,
                                 integer=True),
        gpus_per_agent=c.number(top["gpus_per_agent"], "ray.gpus_per_agent", 0, 1024) if "gpus_per_agent" in top else None,
        cpus_per_agent=c.number(top.get("cpus_per_agent", 1.0), "ray.cpus_per_agent", 0, 1024),
        resources={str(k): float(v) for k, v in resources.items()},
        batch=c.number(top.get("batch", 32), "ray.batch", 1, 100_000, integer=True))


def launch_gpus(providers: Mapping[str, ProviderConfig]) -> int:
    """How many GPUs the grid's `launch:` blocks use on one machine: the listed indices (shared lists count
    once), and `replicas x gpus_per_replica` where no list is given."""
    listed: set[int] = set()
    unlisted = 0
    for cfg in providers.values():
        launch = cfg.settings.get("launch")
        if not launch:
            continue
        if launch.get("gpus"):
            listed.update(launch["gpus"])
        elif launch.get("gpus_per_replica"):
            unlisted += launch.get("replicas", 1) * launch["gpus_per_replica"]
    return len(listed) + unlisted
