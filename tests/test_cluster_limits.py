"""Cluster-wide limits of shared providers: which providers are shared, each agent's share, the limiter's slots."""
from __future__ import annotations

from pathlib import Path

import pytest

from runner.cluster.limits import RateLimiter, agent_config, rates, shared_providers
from runner.config.grid import load_grid

GRID = """name: l
skeletons: {generate: {count: 2}}
providers:
  api: {kind: openai, model: m, base_url: "http://127.0.0.1:9/v1", rate_per_s: 20, max_concurrency: 10}
  claude: {kind: anthropic, model: c, base_url: "http://127.0.0.1:9", api_key_env: K}
  local: {kind: vllm, model: m, launch: {model: smollm2-135m}}
  t: {kind: template}
  r: {kind: random}
renderers: [t, local]
solvers: [api, claude, r]
"""


@pytest.fixture
def grid(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    return load_grid(path, env={"K": "k"})


def test_shared_providers_are_those_not_launched_on_each_node(grid):
    assert shared_providers(grid) == ["api", "claude"]
    assert rates(grid) == {"api": 20}


@pytest.mark.parametrize("agents, share", [(1, 10), (3, 3), (10, 1), (16, 1)])
def test_each_agent_gets_its_share_of_the_cap_and_no_rate_of_its_own(grid, agents, share):
    cfg = agent_config(grid.providers["api"], agents)
    assert cfg.settings["max_concurrency"] == share and "rate_per_s" not in cfg.settings
    assert cfg.identity() == grid.providers["api"].identity()   # unit keys are a plain run's
    assert agent_config(grid.providers["claude"], 3).settings["max_concurrency"] == 2   # Anthropic's default 8


def test_the_limiter_spaces_starts_one_gap_apart_whoever_asks():
    limiter = RateLimiter({"api": 20, "other": 5})
    delays = [limiter.slot("api")[0] for _ in range(10)]
    # asked at once: each start waits one more gap than the one before (to the microsecond the calls took)
    for i, d in enumerate(delays):
        assert i * 0.05 - 0.01 <= d <= i * 0.05 + 1e-9
    assert limiter.slot("other") == (0.0, 0.2)   # each provider has its own slots
