"""`bench run --ray` on a real local Ray cluster: nodes whose custom resource `fake_gpu` stands for GPUs, each
agent launching the fake server as its model server (a shim `python` in vLLM's place), real SIGKILL and SIGINT.

Skipped where Ray is not installed (pip install -e '.[ray]'), except in CI (CI=true), where it is a failure.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from tests.conftest import HANG_S, ROOT, bench
from tests.fake_server import FakeServer
from tests.shim import write_shim

try:
    import ray
except ImportError:   # pragma: no cover - the extra is missing
    ray = None
    if os.environ.get("CI") == "true":
        raise
pytestmark = pytest.mark.skipif(ray is None, reason="Ray is not installed: pip install -e '.[ray]'")

STORE = 80 * 2**20   # object store per node: batches are small, and four nodes share this machine


NAME = "lsb-cluster-test"   # the grid's name: agents keep their servers' logs in /tmp/lsb-agent-NAME-PID
GRID = """name: lsb-cluster-test
skeletons: {{generate: {{count: {count}, complexities: [short], seed: 3}}}}
max_in_flight: 4
providers:
  fake: {{kind: vllm, model: m, launch: {{model: /weights, python: "{shim}", startup_timeout_s: 60}}}}
  template: {{kind: template}}
renderers:
  - template
  - {{provider: fake, max_tokens: 512}}
solvers: [fake]
ray: {{batch: 2, resources: {{fake_gpu: 1}}}}
"""


@pytest.fixture(scope="module")
def cluster():
    """A head (the driver's node, no fake GPU) and three nodes with one fake GPU each; this process joins it
    to find and kill agents."""
    from ray.cluster_utils import Cluster
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False,
                                                      "object_store_memory": STORE})
    for _ in range(3):
        c.add_node(num_cpus=2, resources={"fake_gpu": 1}, object_store_memory=STORE)
    c.wait_for_nodes()
    ray.init(address=c.address)
    yield c
    ray.shutdown()
    c.shutdown()
    # An agent stops its servers and removes their logs; one that was killed (the fault tests) cannot.
    for folder in Path(tempfile.gettempdir()).glob(f"lsb-agent-{NAME}-*"):
        shutil.rmtree(folder, ignore_errors=True)


def write_grid(tmp_path: Path, count: int, latency: float = 0.0, name: str = "grid.yaml") -> Path:
    shim = write_shim(tmp_path, latency)
    grid = tmp_path / name
    grid.write_text(GRID.format(count=count, shim=shim))
    return grid


def records(folder: Path, name: str) -> list[dict]:
    with open(folder / name, "rb") as fh:
        return [orjson.loads(line) for line in fh]


def outcome(folder: Path) -> dict[str, list]:
    """What a run decided, whatever the order or the process that wrote it: per log, each record's key,
    status, text or answer, and correctness."""
    return {name: sorted((r["key"], r["status"], r.get("text"), r.get("answer"), r.get("correct"))
                         for r in records(folder, name)) for name in ("renders.jsonl", "solves.jsonl")}


def each_once(folder: Path, renders: int, solves: int) -> None:
    """Every unit of the grid has exactly one record, and it is terminal."""
    for name, n in (("renders.jsonl", renders), ("solves.jsonl", solves)):
        recs = records(folder, name)
        keys = Counter(r["key"] for r in recs)
        assert len(keys) == n and set(keys.values()) == {1}, (name, len(keys), Counter(keys.values()))
        assert {r["status"] for r in recs} <= {"ok", "invalid", "unfaithful"}


def ray_run(grid: Path, out: Path, cluster, **kw) -> subprocess.CompletedProcess:
    return bench("run", "--grid", str(grid), "--out", str(out), "--ray", cluster.address, "-q", **kw)


def start(grid: Path, out: Path, cluster) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid", str(grid),
                             "--out", str(out), "--ray", cluster.address, "-q"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = HANG_S) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {n} lines")


def agents_of(pid: int) -> list[str]:
    """The names of the live agents the driver with this pid placed."""
    return sorted(a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                  if f"-{pid}-agent-" in a["name"])


def server_pids(tmp_path: Path) -> list[int]:
    return [int(p.read_text()) for p in tmp_path.glob("server-*.pid")]


def gone(pids: list[int], timeout: float = HANG_S) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_records_equal_a_plain_run_and_the_two_resume_each_other(cluster, tmp_path):
    grid = write_grid(tmp_path, 24)
    half = tmp_path / "half"
    bench("run", "--grid", str(grid), "--out", str(half), "--shard", "0/2", "-q", check=True)
    done_here = len(records(half, "renders.jsonl"))
    assert 0 < done_here < 48

    res = ray_run(grid, half, cluster, check=True)   # the Ray run finishes what the plain run left
    assert "3 agent(s) ready on 3 node(s)" in res.stderr and "3 server(s) launched" in res.stderr
    agent_lines = [line for line in res.stdout.splitlines() if line.startswith("node ")]
    assert len(agent_lines) == 3 and all("errors 0" in line for line in agent_lines)
    assert sum(int(line.split("render ")[1].split(",")[0]) for line in agent_lines) == 48 - done_here
    each_once(half, 48, 48)

    whole = tmp_path / "whole"
    bench("run", "--grid", str(grid), "--out", str(whole), "-q", check=True)
    assert outcome(half) == outcome(whole)

    before = {n: (half / n).read_bytes() for n in ("renders.jsonl", "solves.jsonl")}
    again = bench("run", "--grid", str(grid), "--out", str(half), "-q", check=True)   # plain, after Ray: nothing left
    assert "solves: ok 48" in again.stdout
    assert {n: (half / n).read_bytes() for n in before} == before


def test_an_agent_killed_mid_run_loses_nothing(cluster, tmp_path):
    grid = write_grid(tmp_path, 40, latency=0.05)
    out = tmp_path / "out"
    proc = start(grid, out, cluster)
    wait_for_lines(out / "solves.jsonl", 6, proc)
    names = agents_of(proc.pid)
    assert len(names) == 3
    ray.kill(ray.get_actor(names[1], namespace="logic-skeleton-bench"))
    stdout, stderr = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 0, stderr
    assert "agent 1 on" in stderr and "was lost" in stderr and "go to the 2 agent(s) left" in stderr
    assert "lost:" in [line for line in stdout.splitlines() if "(agent 1)" in line][0]
    each_once(out, 80, 80)
    assert gone(server_pids(tmp_path))


def test_a_node_removed_mid_run_loses_nothing(cluster, tmp_path):
    extra = cluster.add_node(num_cpus=2, resources={"fake_gpu": 1}, object_store_memory=STORE)
    cluster.wait_for_nodes()
    grid = write_grid(tmp_path, 48, latency=0.05)
    out = tmp_path / "out"
    proc = start(grid, out, cluster)
    wait_for_lines(out / "solves.jsonl", 8, proc)
    cluster.remove_node(extra)
    stdout, stderr = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 0, stderr
    assert "4 agent(s) ready on 4 node(s)" in stderr and "was lost" in stderr
    assert sum("lost:" in line for line in stdout.splitlines() if line.startswith("node ")) == 1
    each_once(out, 96, 96)


def test_the_driver_killed_then_the_same_command_resumes(cluster, tmp_path):
    grid = write_grid(tmp_path, 40, latency=0.05)
    out = tmp_path / "out"
    proc = start(grid, out, cluster)
    wait_for_lines(out / "solves.jsonl", 10, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    first = server_pids(tmp_path)
    assert len(first) == 3
    assert gone(first), "an agent's server outlived its killed driver"   # Ray ends the agents, they their servers
    partial = len(records(out, "solves.jsonl"))
    assert 10 <= partial < 80
    res = ray_run(grid, out, cluster, check=True)
    assert "solves: ok" in res.stdout
    each_once(out, 80, 80)


def test_a_remote_providers_rate_is_the_whole_clusters_ceiling(cluster, tmp_path):
    """rate_per_s shared by every agent, held in every one-second window at the server (at most rate + 10%),
    while each agent prepares batches of skeletons on its own loop: a slot missed while the loop was busy
    is asked again, never used late in a burst."""
    starts: list[float] = []

    def record(body):
        starts.append(time.monotonic())
        return None
    with FakeServer(record_bodies=False) as server:
        server.fault_hook = record
        grid = tmp_path / "grid.yaml"
        grid.write_text(f"""name: rate
skeletons: {{generate: {{count: 400, complexities: [medium]}}}}
providers:
  api: {{kind: openai, model: fake-model, base_url: "{server.url}", rate_per_s: 40, max_concurrency: 16}}
  template: {{kind: template}}
renderers: [template]
solvers: [api]
ray: {{batch: 25, resources: {{fake_gpu: 1}}}}
""")
        res = ray_run(grid, tmp_path / "out", cluster, check=True)
    agent_lines = [line for line in res.stdout.splitlines() if line.startswith("node ")]
    assert len(agent_lines) == 3 and all("solve 0," not in line for line in agent_lines)   # all three sent
    for banner in ("(_RayAgent", "\x1b[", "Ray deduplicates logs"):   # agents speak as bench, through the driver
        assert banner not in res.stdout + res.stderr, banner
    assert len(starts) == 400
    starts.sort()
    most = max(sum(1 for t in starts[i:] if t < s + 1.0) for i, s in enumerate(starts))
    print(f"peak: {most} starts in one second")
    assert most <= 44, f"{most} request starts in one second at rate_per_s 40"   # 120 if each agent had its own
    assert (len(starts) - 1) / (starts[-1] - starts[0]) <= 41


def test_ctrl_c_stops_every_agent_and_server(cluster, tmp_path):
    # long enough (200 skeletons, 0.3 s an answer) that the interrupt always lands before the end: with 60
    # at 0.05 s a busy machine once saw the run finish first
    grid = write_grid(tmp_path, 200, latency=0.3)
    out = tmp_path / "out"
    proc = start(grid, out, cluster)
    wait_for_lines(out / "solves.jsonl", 6, proc)
    assert len(agents_of(proc.pid)) == 3 and len(server_pids(tmp_path)) == 3
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, stderr
    assert "rerun the same command to resume" in stderr
    assert gone(server_pids(tmp_path), timeout=5)   # stopped by their agents before the driver exited
    assert agents_of(proc.pid) == []
    each_once_or_fewer = Counter(r["key"] for r in records(out, "solves.jsonl"))
    assert set(each_once_or_fewer.values()) == {1}


def test_too_few_nodes_is_one_line_before_anything_is_written(cluster, tmp_path):
    grid = write_grid(tmp_path, 4)
    grid.write_text(grid.read_text().replace("ray: {batch: 2,", "ray: {agents: 5, batch: 2,"))
    res = ray_run(grid, tmp_path / "out", cluster)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "bench: error: ray: 5 agent(s), each on its own node with CPU 1, fake_gpu 1, but the cluster has 3 such " \
           "node(s)" in res.stderr
    assert not (tmp_path / "out").exists()


def test_agents_whose_servers_cannot_start_end_the_run_in_one_line(cluster, tmp_path):
    grid = write_grid(tmp_path, 4)
    grid.write_text(grid.read_text().replace("model: /weights", "model: /broken"))
    res = ray_run(grid, tmp_path / "out", cluster)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    error = [line for line in res.stderr.splitlines() if line.startswith("bench: error:")]
    assert error and "no agent could start; agent 0 on " in error[0] and "exited with code 3" in error[0]
    assert "left out" in res.stderr


def test_several_agents_per_node_share_the_work(cluster, tmp_path):
    """`agents_per_node: 2` on one node of two CPUs: two agents there, each with its own server, both doing
    units, every unit once; asking more than a node has is one line."""
    grid = write_grid(tmp_path, 12)
    grid.write_text(grid.read_text().replace("ray: {batch: 2, resources: {fake_gpu: 1}}",
                                             "ray: {agents: 1, agents_per_node: 2, batch: 1, resources: {fake_gpu: 0.5}}"))
    res = bench("run", "--grid", str(grid), "--out", str(tmp_path / "out"), "--ray", cluster.address)   # not -q
    assert res.returncode == 0, res.stderr
    assert "bench: 2 agent(s) ready on 1 node(s), 2 server(s) launched" in res.stderr
    each_once(tmp_path / "out", 24, 24)
    closing = [line for line in res.stdout.splitlines() if "(agent " in line and "units/s" in line]
    assert len(closing) == 2 and len({line.split(" (agent ")[0] for line in closing}) == 1, res.stdout
    grid.write_text(grid.read_text().replace("agents_per_node: 2", "agents_per_node: 3"))
    res = ray_run(grid, tmp_path / "out3", cluster)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "ray: agents on 1 node(s), 3 per node, each with CPU 1, fake_gpu 0.5 (a node needs 3 times that), but " \
           "the cluster has 0 such node(s)" in res.stderr, res.stderr


@pytest.mark.parametrize("asked, skeletons, agents, size", [
    (32, 24, 1, 6),        # the default grid on one node: four batches, so progress moves before the end
    (32, 100_000, 8, 32),  # a big grid: the grid's batch
    (32, 3, 4, 1),
    (64, 1000, 3, 64),
])
def test_a_small_grid_is_cut_into_batches_enough_for_every_agent(asked, skeletons, agents, size):
    from runner.cluster.driver import batch_size
    assert batch_size(asked, skeletons, agents) == size
