"""The server launcher with real processes: a shim `python` runs the fake server in vLLM's place."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from runner.errors import UserError
from runner.serving.servers import ServerSet, read_endpoints, serving, start_servers
from tests.conftest import HANG_S, ROOT, bench
from tests.shim import write_shim


@pytest.fixture
def shim(tmp_path) -> Path:
    return write_shim(tmp_path)


def spec(shim: Path, **extra):
    return {"model": "/weights", "served_name": "m", "python": str(shim), "startup_timeout_s": 30, **extra}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_replicas_get_their_own_ports_and_gpus_then_stop(shim, tmp_path):
    servers = start_servers({"p": spec(shim, gpus=[2, 3, 6, 7], gpus_per_replica=2)}, tmp_path)
    try:
        urls = servers.urls()["p"]
        assert len(urls) == 2 and len(set(urls)) == 2 and all(serving(u, "m") for u in urls)
        records = sorted(p.read_text().strip() for p in tmp_path.glob("replica-*"))
        assert records == ["gpus=2,3 model=/weights", "gpus=6,7 model=/weights"]
        pids = [s.proc.pid for s in servers.servers]
    finally:
        servers.stop()
    assert not any(alive(p) for p in pids)
    assert all((tmp_path / "servers" / f"p-{i}.log").is_file() for i in range(2))


def test_healthy_server_on_the_port_is_reused_and_left_running(shim, tmp_path):
    first = start_servers({"p": spec(shim, port=_free())}, tmp_path)
    try:
        port = int(first.servers[0].url.rsplit(":", 1)[1].split("/")[0])
        second = start_servers({"p": spec(shim, port=port)}, tmp_path)
        assert second.servers[0].proc is None and second.servers[0].url == first.servers[0].url
        second.stop()
        assert serving(first.servers[0].url, "m")        # the reused one is not ours to stop
    finally:
        first.stop()


def test_start_failure_names_the_exit_and_shows_the_log_tail(shim, tmp_path):
    with pytest.raises(UserError) as err:
        start_servers({"p": spec(shim, model="/broken")}, tmp_path)
    text = str(err.value)
    assert "exited with code 3" in text and "/broken is not a model folder" in text


def _free() -> int:
    from runner.serving.servers import free_port
    return free_port()


GRID = """name: served
skeletons: {{generate: {{count: 6, complexities: [short]}}}}
providers:
  p: {{kind: vllm, model: m, launch: {{model: /weights, python: "{shim}", port: {port}, startup_timeout_s: 30}}}}
  template: {{kind: template}}
renderers: [template]
solvers: [p]
"""


def test_bench_serve_keeps_servers_up_for_bench_run(shim, tmp_path):
    port = _free()
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID.format(shim=shim, port=port))
    out = tmp_path / "out"
    serve = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "serve", "--grid",
                              str(grid), "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.time() + HANG_S
        while not serving(url, "m") and time.time() < deadline:
            assert serve.poll() is None, serve.stderr.read()
            time.sleep(0.2)
        run = bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
        assert "solves: ok 6" in run.stdout
        assert serving(url, "m")                      # bench run used it and left it running
    finally:
        serve.send_signal(signal.SIGINT)
        assert serve.wait(30) == 0
    assert not serving(f"http://127.0.0.1:{port}/v1", "m")   # stopping bench serve stopped the server
    assert not (out / "servers" / "endpoints.json").exists()


def test_bench_run_launches_and_stops_its_own(shim, tmp_path):
    port = _free()
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID.format(shim=shim, port=port))
    run = bench("run", "--grid", str(grid), "--out", str(tmp_path / "out"), "-q", check=True)
    assert "solves: ok 6" in run.stdout
    assert not serving(f"http://127.0.0.1:{port}/v1", "m")


def test_a_resume_with_every_unit_settled_starts_no_server(shim, tmp_path):
    """A resume whose walk finds every skeleton settled (the kept counts gone, as a crash at the very end leaves
    them) has nothing to send: it starts no server (its launcher is gone here: a start would fail, exit 2) and
    prints what the run printed."""
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID.format(shim=shim, port=_free()))
    out = tmp_path / "out"
    first = bench("run", "--grid", str(grid), "--out", str(out), check=True)
    (out / ".settled").unlink()
    shim.unlink()
    again = bench("run", "--grid", str(grid), "--out", str(out), check=True)
    assert "6 skeleton(s) have every unit settled in the logs" in again.stderr
    assert again.stdout == first.stdout and "solves: ok 6" in again.stdout


def test_empty_server_set_stops_cleanly():
    ServerSet().stop()


@pytest.mark.parametrize("command", ["run", "serve"])
def test_a_launch_python_that_does_not_exist_is_one_line(tmp_path, command):
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID.format(shim=tmp_path / "no" / "python3", port=_free()))
    proc = bench(command, "--grid", str(grid), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"providers.p.launch.python: cannot start {tmp_path / 'no' / 'python3'} (No such file or directory)" \
        in proc.stderr


class _Lines(io.TextIOBase):
    """A stderr that another thread may read while bench writes to it: whole lines, under a lock."""

    def __init__(self) -> None:
        self.text, self.lock = "", threading.Lock()

    def write(self, s: str) -> int:
        with self.lock:
            self.text += s
        return len(s)

    def lines(self) -> list[str]:
        with self.lock:
            return self.text.splitlines()


def test_a_slow_start_says_how_long_it_has_taken_and_what_the_server_says(shim, tmp_path, monkeypatch):
    """A GPU server loads and compiles for minutes: every LSB_PROGRESS_EVERY seconds the wait says so, with the
    last line of the server's log, instead of silence. The server loads until the test has seen two such lines
    quote its log (no fixed sleep: a loaded machine only makes it take longer)."""
    monkeypatch.setenv("LSB_PROGRESS_EVERY", "1")
    err = _Lines()
    monkeypatch.setattr(sys, "stderr", err)
    started: dict[str, ServerSet | BaseException] = {}

    def start() -> None:
        try:
            started["servers"] = start_servers({"p": spec(shim, model="/slow")}, tmp_path)
        except BaseException as exc:   # handed to the test's thread, which raises it
            started["error"] = exc

    thread = threading.Thread(target=start)
    thread.start()
    deadline = time.monotonic() + HANG_S
    while sum(line.endswith("its log says: INFO Capturing graphs: 40%") for line in err.lines()) < 2:
        assert thread.is_alive() and time.monotonic() < deadline, err.lines()
        time.sleep(0.05)
    (tmp_path / "go").touch()
    thread.join(120)
    if "error" in started:
        raise started["error"]
    servers = started["servers"]
    assert isinstance(servers, ServerSet)
    servers.stop()
    lines = err.lines()
    waiting = [line for line in lines if line.startswith("bench: the p server is starting: ")]
    assert len(waiting) >= 2 and all(" s of at most 30 s; its log says: " in line for line in waiting), lines
    ready = [i for i, line in enumerate(lines) if line.startswith("bench: the p server is ready after ")]
    assert ready and ready[0] > lines.index(waiting[-1]), lines


@pytest.mark.parametrize("text", ['[1, 2]', '{"urls": "http://x"}', '{"urls": {"p": "http://x"}}', '{"pid": 1'])
def test_an_endpoints_file_not_as_bench_serve_wrote_it_is_no_server(tmp_path, text):
    """A hand-edited or cut endpoints file: `bench run` starts its own servers (no crash on the file)."""
    (tmp_path / "servers").mkdir()
    (tmp_path / "servers" / "endpoints.json").write_text(text)
    assert read_endpoints(tmp_path) in ({}, {"p": []})
    (tmp_path / "servers" / "endpoints.json").write_text('{"pid": 1, "urls": {"p": ["http://a/v1", 3]}}')
    assert read_endpoints(tmp_path) == {"p": ["http://a/v1"]}
