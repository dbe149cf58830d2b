"""`bench run` end to end against the fake server: resume, crashes, faults, locks, shards, keys, redaction."""
from __future__ import annotations

import hashlib
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from runner.store.logs import TERMINAL
from tests.conftest import ROOT, bench
from tests.fake_server import FakeServer

GRID = """
name: t
skeletons:
  generate: {{count: {count}, complexities: [short, 5], seed: 3}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", max_concurrency: 8, attempts: {retries}}}
  template: {{kind: template}}
  random: {{kind: random}}
renderers:
  - {{provider: fake, max_tokens: 64{render_prompt}{render_extra}}}
  - template
solvers:
  - {{provider: fake{solve_prompt}}}
  - random
"""


def write_grid(tmp: Path, url: str, count: int = 12, retries: int = 4, render_prompt: str | None = None,
               solve_prompt: str | None = None, render_extra: str = "") -> Path:
    """The test grid; `render_extra` adds settings to the fake renderer (e.g. `, format: text`)."""
    extra_r = f", prompt: {render_prompt}" if render_prompt else ""
    extra_s = f", prompt: {solve_prompt}" if solve_prompt else ""
    path = tmp / "grid.yaml"
    path.write_text(GRID.format(count=count, url=url, retries=retries, render_prompt=extra_r, solve_prompt=extra_s,
                                render_extra=render_extra))
    return path


def records(folder: Path, name: str) -> list[dict]:
    """Every line of a log, each of which must parse."""
    lines = (folder / name).read_bytes().splitlines()
    return [orjson.loads(line) for line in lines if line]


def terminal_counts(recs: list[dict]) -> Counter:
    return Counter(r["key"] for r in recs if r["status"] in TERMINAL)


def run_bench(grid: Path, out: Path, *extra: str, check: bool = True):
    return bench("run", "--grid", str(grid), "--out", str(out), "-q", *extra, check=check)


@pytest.fixture(params=["here", "aside"])
def prepare(request, monkeypatch):
    """Both ways a run prepares skeletons: in its own process, or in a helper (big runs)."""
    monkeypatch.setenv("LSB_PREPARE_ASIDE_MIN", "0" if request.param == "aside" else "1000000000")
    return request.param


@pytest.fixture
def server():
    with FakeServer() as srv:
        yield srv


def test_full_run_one_terminal_record_per_unit(server, tmp_path, prepare):
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url), out)
    renders, solves = records(out, "renders.jsonl"), records(out, "solves.jsonl")
    # 12 skeletons x 2 renderers; each ok render x 2 solvers.
    assert len(renders) == 24 and all(r["status"] == "ok" for r in renders)
    assert len(solves) == 48 and set(terminal_counts(solves).values()) == {1}
    for r in solves:
        assert {"schema", "key", "status", "attempts", "latency_s", "prompt_tokens", "completion_tokens",
                "started_at", "finished_at", "family", "complexity", "renderer", "solver", "answer", "raw",
                "gold", "correct"} <= set(r)
        assert r["correct"] == (r["answer"] == r["gold"])
    assert (out / "grid.yaml").is_file() and (out / "grid.json").is_file()
    before = server.requests
    run_bench(write_grid(tmp_path, server.url), out)         # resume: nothing left to do
    assert server.requests == before and len(records(out, "solves.jsonl")) == 48


def test_renderer_never_sees_gold_or_proof_and_solvers_share_text(server, tmp_path):
    from runner.source.generate import make_plan
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url), out)
    plan = make_plan(3, ["short", "5"])
    golds = {sk.id: sk for sk in plan.items(12)}
    render_bodies = [b for b in server.bodies if "json" in b.get("structured_outputs", {})]
    assert len(render_bodies) == 12
    assert all(b["structured_outputs"]["disable_any_whitespace"] is True for b in render_bodies)
    for body in render_bodies:
        text = orjson.dumps(body).decode() + body["messages"][0]["content"]
        assert "gold_answer" not in text and '"proof"' not in text
        sk_id = next(i for i in golds if f'"{i}"' in text)
        assert " ".join(golds[sk_id].proof) not in text
    # Every solver of a render got the same problem text.
    texts = {}
    for r in records(out, "renders.jsonl"):
        texts[r["key"]] = r["text"]
    fake_solve_prompts = [b["messages"][0]["content"] for b in server.bodies if "choice" in b.get("structured_outputs", {})]
    for prompt in fake_solve_prompts:
        assert any(prompt.startswith(t) for t in texts.values())


def test_render_missing_labels_is_invalid_and_not_solved(server, tmp_path):
    out = tmp_path / "run"
    server.answer_override = "A short story with no answer labels."
    run_bench(write_grid(tmp_path, server.url, count=4, render_extra=", format: text"), out)
    renders = records(out, "renders.jsonl")
    fake = [r for r in renders if r["renderer"] == "fake:text"]
    assert fake and all(r["status"] == "invalid" and "labels missing" in r["reason"] for r in fake)
    solves = records(out, "solves.jsonl")
    fake_keys = {r["key"] for r in fake}
    assert not [s for s in solves if s["render_key"] in fake_keys]
    status = bench("status", str(out), check=True).stdout
    assert "render_failed" in status


def _faults_by_request():
    """A fault hook that decides by what a request asks, never by when it comes (a pool's order is the
    machine's): the first three requests seen fail every attempt (their units end `error`), and about a third
    of the others fail their first attempt with one of the fake's faults (their units are retried)."""
    kinds = ("429", "500", "503", "drop", "malformed")
    seen: Counter = Counter()
    doomed: set[bytes] = set()

    def fault(body: dict) -> str | None:
        key = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
        seen[key] += 1
        if len(doomed) < 3 and seen[key] == 1:
            doomed.add(key)
        if key in doomed:
            return "500"
        digest = hashlib.sha256(key).digest()
        return kinds[digest[1] % len(kinds)] if seen[key] == 1 and digest[0] % 3 == 0 else None
    return fault


def test_injected_faults_lose_no_unit(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=20, retries=2)
    server.retry_after = "0"
    server.fault_hook = _faults_by_request()
    run_bench(grid, out)
    first = records(out, "solves.jsonl") + records(out, "renders.jsonl")
    assert any(r["status"] == "error" for r in first) and any(r["attempts"] > 1 for r in first)
    server.fault_hook = None
    run_bench(grid, out)                       # errors are tried again
    renders, solves = records(out, "renders.jsonl"), records(out, "solves.jsonl")
    assert len(terminal_counts(renders)) == 40 and set(terminal_counts(renders).values()) == {1}
    assert len(terminal_counts(solves)) == 80 and set(terminal_counts(solves).values()) == {1}
    assert "left" in bench("status", str(out), check=True).stdout


def _spawn(grid: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                             str(grid), "--out", str(out), "-q", *extra], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _helpers_of(out: Path, wait_s: float = 5.0) -> list:
    """Helper processes still preparing skeletons for this run folder (after up to `wait_s` to exit)."""
    import psutil
    deadline = time.time() + wait_s
    while True:
        left = []
        for p in psutil.process_iter(["cmdline"]):
            cmd = p.info["cmdline"] or []
            if "runner.engine.feed" in cmd and str(out / "grid.json") in cmd:
                left.append(p)
        if not left or time.time() > deadline:
            return left
        time.sleep(0.05)


def _lines_of(log: Path) -> int:
    """Whole lines a log holds now (0 before it exists)."""
    try:
        return log.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _wait_for_records(out: Path, lines: int = 1, proc: subprocess.Popen | None = None) -> int:
    """Wait until the run has written `lines` whole solve records (how long that takes is the machine's
    business, not the test's: a busy machine is slow, never wrong); fails if `proc` ended first."""
    log = out / "solves.jsonl"
    while (n := _lines_of(log)) < lines:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the run ended (exit {proc.returncode}) after {n} of the {lines} records waited "
                                 f"for: {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.01)
    return n


def test_sigkill_at_random_moments_then_finish(server, tmp_path, prepare):
    out = tmp_path / "run"
    server.latency_s = 0.3        # 240 fake requests, 8 at a time: about 9 s of work
    grid = write_grid(tmp_path, server.url, count=80)
    rng = random.Random(7)
    seen = []
    for _ in range(3):
        proc = _spawn(grid, out)
        # killed at a random moment of its work, measured in what it wrote, not in seconds: a busy machine
        # once spent the first 2.5 s starting up, and the kill found no solves.jsonl
        _wait_for_records(out, _lines_of(out / "solves.jsonl") + rng.randint(5, 60), proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        seen.append(len(records(out, "solves.jsonl")))
        assert not _helpers_of(out)   # a helper dies with the run, even a SIGKILLed one
    assert 0 < seen[0] < seen[-1] < 320
    run_bench(grid, out)
    renders, solves = records(out, "renders.jsonl"), records(out, "solves.jsonl")
    assert set(terminal_counts(renders).values()) == {1} and len(terminal_counts(renders)) == 160
    assert set(terminal_counts(solves).values()) == {1} and len(terminal_counts(solves)) == 320


def test_torn_last_line_is_skipped_and_never_glued(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=6)
    run_bench(grid, out)
    log = out / "solves.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:-1]) + lines[-1][:40])   # the last record torn mid-line
    run_bench(grid, out)
    raw = log.read_bytes().splitlines()
    bad = [l for l in raw if not l.startswith(b"{") or not l.endswith(b"}")]
    assert bad == [lines[-1][:40] + b" <torn by a crash>"]
    good = [orjson.loads(l) for l in raw if l not in bad]
    assert set(terminal_counts(good).values()) == {1} and len(terminal_counts(good)) == 24


def test_second_process_refused_naming_the_holder(server, tmp_path):
    out = tmp_path / "run"
    server.latency_s = 0.3
    grid = write_grid(tmp_path, server.url, count=80)
    first = _spawn(grid, out)
    try:
        _wait_for_records(out, proc=first)
        second = run_bench(grid, out, check=False)
        assert second.returncode == 2
        assert f"process {first.pid}" in second.stderr and "--shard" in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1
    finally:
        first.send_signal(signal.SIGINT)
        assert first.wait(30) == 130
    run_bench(grid, out)
    assert set(terminal_counts(records(out, "solves.jsonl")).values()) == {1}


def test_two_shards_in_parallel_never_duplicate(server, tmp_path, prepare):
    out = tmp_path / "run"
    server.latency_s = 0.01
    grid = write_grid(tmp_path, server.url, count=40)
    procs = [_spawn(grid, out, "--shard", f"{i}/2") for i in range(2)]
    for p in procs:
        assert p.wait(120) == 0, p.stderr.read()
    solves = records(out, "solves.jsonl")
    counts = terminal_counts(solves)
    assert len(counts) == 160 and set(counts.values()) == {1}
    assert len(solves) == 160
    whole = run_bench(grid, out, check=False)   # both shards done: a whole run finds nothing left
    assert whole.returncode == 0 and len(records(out, "solves.jsonl")) == 160


def test_changed_prompt_makes_new_keys_without_mixing(server, tmp_path):
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url, count=5), out)
    old = {r["key"] for r in records(out, "solves.jsonl")}
    (tmp_path / "solve.txt").write_text("Think, then answer.\n{problem}\nLabels: {labels}\n")
    run_bench(write_grid(tmp_path, server.url, count=5, solve_prompt="solve.txt"), out)
    new = {r["key"] for r in records(out, "solves.jsonl")} - old
    assert len(new) == 10        # the fake solver's 10 units are new; the random solver's prompt is the same
    report = bench("report", str(out), "--by", "solver", check=True).stdout
    table = report.split("\n\n", 1)[1].splitlines()   # after the renders table
    assert table[0].startswith("solver") and " 10 " in table[1]   # 5 skeletons x 2 renderers per solver: not 20


@pytest.mark.parametrize("signum, said, code", [(signal.SIGINT, "bench: interrupted; ", 130),
                                               (signal.SIGTERM, "bench: stopped by SIGTERM; ", 143),
                                               (signal.SIGHUP, "bench: stopped by SIGHUP; ", 129)])
def test_a_signal_stops_cleanly_and_resume_completes(server, tmp_path, prepare, signum, said, code):
    out = tmp_path / "run"
    server.latency_s = 0.3
    grid = write_grid(tmp_path, server.url, count=80)
    proc = _spawn(grid, out)
    _wait_for_records(out, proc=proc)
    proc.send_signal(signum)
    assert proc.wait(30) == code   # as the signal says (docs/running.md), not Ctrl-C's 130 for all three
    stderr = proc.stderr.read()
    assert said + f"finished units are in {out}; rerun the same command to resume" in stderr, stderr
    assert not _helpers_of(out)
    run_bench(grid, out)
    assert set(terminal_counts(records(out, "solves.jsonl")).values()) == {1}


def test_dry_run_prints_plan_and_writes_nothing(server, tmp_path):
    out = tmp_path / "run"
    proc = run_bench(write_grid(tmp_path, server.url, count=7), out, "--dry-run")
    assert "render units: 14" in proc.stdout and "solve units: 28" in proc.stdout
    assert "renderer fake: vllm fake-model x1 sample(s), structured, checked; names its own" in proc.stdout
    assert "renderer template: template x1 sample(s), the template (faithful by construction)" in proc.stdout
    assert "solver   fake: vllm fake-model x1 sample(s), constraint auto" in proc.stdout
    assert not out.exists() and server.requests == 0


def test_bad_prepare_aside_min_is_one_line_and_writes_nothing(server, tmp_path):
    out = tmp_path / "run"
    proc = bench("run", "--grid", str(write_grid(tmp_path, server.url, count=3)), "--out", str(out), "-q",
                 env={"LSB_PREPARE_ASIDE_MIN": "lots"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == ("bench: error: environment variable LSB_PREPARE_ASIDE_MIN='lots': expected an "
                                   "integer 0..9223372036854775807 (skeletons from which a run prepares them in a "
                                   "helper process)")
    assert not out.exists() and server.requests == 0


def test_out_folder_of_another_grid_or_of_other_files_is_refused(server, tmp_path):
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url, count=2), out)
    saved = (out / "grid.yaml").read_bytes()
    other = tmp_path / "other.yaml"
    other.write_text((tmp_path / "grid.yaml").read_text().replace("name: t", "name: u"))
    proc = run_bench(other, out, check=False)
    assert proc.returncode == 2 and "holds the run of grid 't', not 'u'" in proc.stderr
    assert "Traceback" not in proc.stderr and (out / "grid.yaml").read_bytes() == saved
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my own file")
    proc = run_bench(other, mine, check=False)
    assert proc.returncode == 2 and "holds files that no run wrote (notes.txt)" in proc.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("name", ["grid.yaml", "grid.json", "renders.jsonl", "solves.jsonl", "calibration.jsonl",
                                  "report.csv", "report", "grids", "servers"])
def test_no_run_writes_over_a_file_it_did_not_create(tmp_path, name):
    # `bench run --grid ../g.yaml --out .` in a folder holding the user's own grid.yaml replaced it.
    server = FakeServer().start()
    try:
        mine = tmp_path / "mine"
        mine.mkdir()
        target = mine / name
        if "." in name:
            target.write_bytes(b"the user's own file\n")
        else:
            target.mkdir()
            (target / "keep.txt").write_bytes(b"the user's own file\n")
        before = {p: p.read_bytes() for p in mine.rglob("*") if p.is_file()}
        grid = write_grid(tmp_path, server.url, count=2)
        for out in (mine, Path(".")):
            proc = bench("run", "--grid", str(grid), "--out", str(out), "-q", cwd=mine)
            assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
            assert "no run wrote" in proc.stderr or "grid.json: not a grid bench saved" in proc.stderr, proc.stderr
        assert {p: p.read_bytes() for p in mine.rglob("*") if p.is_file()} == before
        assert sorted(p.name for p in mine.iterdir()) == [name]
    finally:
        server.stop()
