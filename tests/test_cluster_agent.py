"""A node agent without Ray: its batches give a plain run's records; its GPUs; its code hash."""
from __future__ import annotations

import asyncio

import orjson
import pytest

from runner.cluster.agent import NodeAgent, code_hash, gpu_ids_for
from runner.cluster.work import make_batches
from runner.config.grid import load_grid
from runner.engine.result import RunResult
from runner.errors import UserError
from runner.store.sinks import FolderLogs
from tests.conftest import bench
from tests.fake_server import FakeServer

GRID = """name: a
skeletons: {{generate: {{count: 12, complexities: [short]}}}}
providers:
  t: {{kind: template}}
  fake: {{kind: openai, model: fake-model, base_url: "{url}"}}
renderers: [t, {{provider: fake, max_tokens: 256}}]
solvers: [fake]
"""


def test_an_agents_batches_make_the_records_a_plain_run_makes(tmp_path):
    with FakeServer() as server:
        path = tmp_path / "grid.yaml"
        path.write_text(GRID.format(url=server.url))
        grid = load_grid(path)
        bench("run", "--grid", str(path), "--out", str(tmp_path / "plain"), "-q", check=True)

        async def as_agent():
            agent = NodeAgent(grid.to_json(), 1, None)
            started = await agent.start()
            assert started.error is None and started.code == code_hash()
            try:
                return [await agent.run_batch(b) for b in make_batches(grid, FolderLogs(tmp_path / "none"), 5,
                                                                       RunResult(), lambda *a: None)]
            finally:
                await agent.stop()
        results = asyncio.run(as_agent())
    assert [r.id for r in results] == [0, 1, 2]
    for name, attr in (("renders.jsonl", "render_lines"), ("solves.jsonl", "solve_lines")):
        mine = sorted(_decided(orjson.loads(line)) for r in results for line in getattr(r, attr))
        plain = sorted(_decided(orjson.loads(line)) for line in (tmp_path / "plain" / name).read_bytes().splitlines())
        assert mine == plain and len(mine) == 24
    assert sum(r.counts["solve"]["ok"] for r in results) == 24


def _decided(rec: dict) -> tuple:
    return rec["key"], rec["status"], rec.get("text"), rec.get("answer"), rec.get("correct")


def test_an_agent_that_cannot_start_says_why_and_launches_nothing(tmp_path, monkeypatch):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID.format(url="http://127.0.0.1:9/v1").replace(
        "base_url: \"http://127.0.0.1:9/v1\"}", "base_url: \"http://127.0.0.1:9/v1\", api_key_env: LSB_TEST_KEY}"))
    grid = load_grid(path, env={"LSB_TEST_KEY": "k"})
    monkeypatch.delenv("LSB_TEST_KEY", raising=False)
    started = asyncio.run(NodeAgent(grid.to_json(), 1, None).start())
    assert started.error.startswith("providers.fake.api_key_env: environment variable LSB_TEST_KEY is not set on ")


@pytest.mark.parametrize("launch, assigned, gpus", [
    ({"gpus": [0, 1]}, ["4", "5"], [4, 5]),
    ({"replicas": 2, "gpus_per_replica": 2}, ["2", "3", "6", "7"], [2, 3, 6, 7]),
    ({"gpus": [1]}, ["0", "3"], [3]),
])
def test_launch_gpus_are_the_agents_own(launch, assigned, gpus):
    assert gpu_ids_for({"model": "m", **launch}, assigned)["gpus"] == gpus


def test_launch_gpus_without_ray_gpus_are_left_alone_and_too_many_are_one_line():
    assert gpu_ids_for({"model": "m", "gpus": [0, 1]}, []) == {"model": "m", "gpus": [0, 1]}
    with pytest.raises(UserError, match=r"launch.gpus: GPU index 3, but an agent has 2 GPU\(s\)"):
        gpu_ids_for({"model": "m", "served_name": "q", "gpus": [0, 3]}, ["0", "1"])


def test_the_code_hash_is_the_installations():
    assert code_hash() == code_hash() and len(code_hash()) == 16
