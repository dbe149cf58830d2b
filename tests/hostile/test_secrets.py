"""An API key is refused in one line, naming its variable and never quoting it, when it holds any control
character (before any request, every provider kind, both HTTP clients); what a server echoes of a key never
reaches the terminal, the log or a record."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import orjson
import pytest

from providers.base import SolveRequest
from providers.build import build_provider
from providers.config import parse_provider
from tests.conftest import ROOT
from tests.fake_server import RawServer, solve_once
from tests.hostile.test_hostile import bench, refused

SECRET = "sk-live-SECRET-4f9a2b7c"
GRID = """name: k
skeletons: {{generate: {{count: 4, complexities: [short]}}}}
providers:
  t: {{kind: template}}
  m: {{kind: {kind}, model: {model}, base_url: "{url}", api_key_env: LSB_TEST_KEY, http_client: {client}, attempts: 1}}
renderers: [t]
solvers: [m]
"""


@pytest.mark.parametrize("key, what", [
    (SECRET + "\r\nX-Injected: 1", "a carriage return (CR) inside it"), (SECRET + "\n", "a line feed (LF) at its end"),
    (SECRET[:5] + "\t" + SECRET[5:], "a tab inside it"), (SECRET + "\x7f", "a DEL at its end"),
    (SECRET[:5] + "\x85" + SECRET[5:], "U+0085 inside it"), ("\x1b[2J" + SECRET, "U+001B at its start")])
@pytest.mark.parametrize("kind, client", [("openai", "auto"), ("openai", "aiohttp"), ("anthropic", "aiohttp"),
                                          ("vllm", "auto")])
def test_a_key_with_a_control_character_is_refused_before_any_request(tmp_path, key, what, kind, client):
    srv = RawServer()
    try:
        (tmp_path / "grid.yaml").write_text(GRID.format(kind=kind, model="fake-model", url=srv.url, client=client))
        proc = bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=tmp_path, env={"LSB_TEST_KEY": key})
    finally:
        srv.close()
    refused(proc, 2, "LSB_TEST_KEY", what)
    assert SECRET[5:] not in proc.stderr + proc.stdout and srv.requests == 0 and not srv.conns


@pytest.fixture
def echoing_server():
    """`python -m tests.fake_server --echo-key`: it quotes the Authorization header it got in its 404s."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.fake_server", "--echo-key"], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        yield proc.stdout.readline().strip()
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("client", ["auto", "aiohttp"])
@pytest.mark.parametrize("key", [SECRET, SECRET + "  ", "  " + SECRET])   # a server strips a header's spaces
def test_a_key_a_server_echoes_never_reaches_the_terminal_the_log_or_a_record(echoing_server, tmp_path, client, key):
    (tmp_path / "grid.yaml").write_text(GRID.format(kind="openai", model="wrong-model", url=echoing_server,
                                                    client=client))
    proc = bench("run", "-g", "grid.yaml", "--out", "run", cwd=tmp_path, env={"LSB_TEST_KEY": key})
    written = b"".join(p.read_bytes() for p in (tmp_path / "run").rglob("*") if p.is_file())
    records = [orjson.loads(line) for line in (tmp_path / "run" / "solves.jsonl").read_bytes().splitlines()]
    assert records and all(r["status"] == "error" and re.search(r"\(key Bearer +\*\*\*\)", r["reason"])
                                for r in records), \
        [r["reason"] for r in records]
    for text in (proc.stdout, proc.stderr, written.decode("utf-8", "replace")):
        assert "SECRET" not in text


def _answered(answer, client: str):
    """One solve, with the key SECRET, against a RawServer of `answer`: the Completion."""
    srv = RawServer(answer)
    cfg = parse_provider("p", {"kind": "openai", "model": "fake-model", "base_url": srv.url, "api_key_env": "K",
                               "http_client": client}, env={"K": SECRET})
    return solve_once(build_provider(cfg, env={"K": SECRET}), SolveRequest(prompt="p", labels=("A", "B")), srv)


@pytest.mark.parametrize("client", ["auto", "aiohttp"])
def test_a_key_echoed_where_the_message_is_cut_leaves_none_of_its_characters(client):
    # the server's message is cut to 300 characters: scrubbed before the cut, no first half of the key remains
    def answer(body):
        text = orjson.dumps({"error": {"message": "x" * 290 + f" key {SECRET} refused"}})
        return b"HTTP/1.1 401 Unauthorized\r\nContent-Length: %d\r\n\r\n%s" % (len(text), text)
    res = _answered(answer, client)
    assert res.status == "error" and res.error_kind == "auth" and "sk-live" not in res.reason


@pytest.mark.parametrize("client", ["auto", "aiohttp"])
def test_a_key_a_server_quotes_in_its_answer_never_reaches_the_answer(client):
    """A 200 answer whose text quotes the request's Authorization header (a proxy, or a model that echoes) keeps
    the key out of what the record keeps: the solver's text (its `raw`), reason and answer (found by a fuzz)."""
    def answer(body):
        text = orjson.dumps({"id": "x", "object": "chat.completion", "model": "fake-model", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": f"A, and your key: Bearer {SECRET}"},
             "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
        return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(text), text)
    res = _answered(answer, client)
    assert "Bearer ***" in res.text, res
    assert SECRET not in repr(res) and "sk-live" not in repr(res)
