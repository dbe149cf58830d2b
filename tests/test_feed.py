"""Skeleton preparation: the helper process gives exactly the in-process items, stops with the run,
reports a bad skeleton file in one line; a run prepared aside writes the same logs."""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Iterator

import orjson
import psutil
import pytest

from providers.base import RenderRequest
from runner.commands.folder import save_grid
from runner.config.grid import load_grid
from runner.engine.feed import Feed
from runner.engine.items import Item, LocalRender
from runner.engine.pipeline import Pipeline
from runner.engine.progress import Progress
from runner.errors import UserError
from runner.store.sinks import FolderLogs
from tests.conftest import bench
from tests.fake_server import FakeServer
from tests.test_pipeline import _helpers_of, _spawn, _wait_for_records, records, write_grid

TIMING = ("latency_s", "started_at", "finished_at")


def grid_and_json(tmp: Path, url: str = "http://127.0.0.1:9/v1", count: int = 12):
    path = write_grid(tmp, url, count=count)
    grid = load_grid(path)
    folder = tmp / "run"
    folder.mkdir(exist_ok=True)
    save_grid(grid, folder, path)
    return grid, folder / "grid.json"


async def collect(grid, shard, grid_json, limit: int | None = None, workers: int = 1) -> list[Item]:
    out = []
    feed = Feed(grid, shard, grid_json, workers)
    items = feed.batches()
    try:
        async for batch in items:
            out.extend(batch)
            if limit is not None and len(out) >= limit:
                del out[limit:]
                break
    finally:
        await items.aclose()
        feed.close()
    return out


def comparable(item: Item) -> Item:
    """An item without the timing fields of its local render records (they differ run to run)."""
    renders = []
    for job in item.renders:
        work = job.work
        if isinstance(work, LocalRender):
            rec = {k: v for k, v in orjson.loads(work.line).items() if k not in TIMING}
            work = work._replace(line=orjson.dumps(rec))
        renders.append(job._replace(work=work))
    return item._replace(renders=tuple(renders))


@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("shard", [None, (0, 2), (1, 2)])
def test_helper_items_equal_in_process_items(tmp_path, shard, workers):
    grid, grid_json = grid_and_json(tmp_path)
    here = asyncio.run(collect(grid, shard, None))
    aside = asyncio.run(collect(grid, shard, grid_json, workers=workers))
    assert [comparable(i) for i in here] == [comparable(i) for i in aside]
    assert here and all(len(i.renders) == 2 for i in here)
    # The template renderer's text is made while preparing; the model renderer gets a request whose
    # prompt holds the redacted payload (no gold answer, no proof), the schema of its structured render,
    # and the redacted payload itself, which the render is checked against.
    for item in here:
        model, template = item.renders
        request, local = model.work, template.work
        assert isinstance(request, RenderRequest) and request.schema["required"] == ["names", "intro", "premises",
                                                                                     "question"]
        assert "gold_answer" not in request.payload and "proof" not in request.payload
        assert item.identity.split("#")[0] in request.prompt
        assert '"gold_answer"' not in request.prompt and '"proof"' not in request.prompt
        assert isinstance(local, LocalRender) and local.status == "ok" and local.text


@pytest.mark.parametrize("source", ["generate", "file"])
@pytest.mark.parametrize("workers", [2, 5])
@pytest.mark.parametrize("shard", [None, (1, 3)])
def test_workers_give_the_items_in_source_order(tmp_path, source, workers, shard):
    """Several helpers, each preparing every n-th block, give back exactly the one-process stream, in order:
    blocks that end part-way, a stripe with no block at all (5 workers, 4 blocks), blank lines in a file,
    and blocks a shard leaves empty."""
    from runner.engine.items import BLOCK
    count = 3 * BLOCK + 7
    grid, grid_json = grid_and_json(tmp_path, count=count)
    if source == "file":   # the same count of skeletons read from a file, a blank line between each two
        from runner.source.generate import make_plan
        skeletons = tmp_path / "sk.jsonl"
        skeletons.write_bytes(b"\n\n".join(sk.to_json() for sk in make_plan(5, ["short", 5]).items(count)) + b"\n")
        path = tmp_path / "grid.yaml"
        path.write_text(re.sub(r"generate: \{.*\}", f"path: {skeletons}", path.read_text()))
        grid = load_grid(path)
        assert grid.source.path == str(skeletons)
        save_grid(grid, tmp_path / "run", path)
    here = [comparable(i) for i in asyncio.run(collect(grid, shard, None))]
    aside = [comparable(i) for i in asyncio.run(collect(grid, shard, grid_json, workers=workers))]
    assert aside == here
    assert 0 < len(here) <= count and (shard is not None or len(here) == count)


def test_shards_split_the_items(tmp_path):
    grid, grid_json = grid_and_json(tmp_path, count=20)
    ids = lambda items: [i.identity for i in items]   # noqa: E731
    whole = ids(asyncio.run(collect(grid, None, grid_json)))
    a, b = (ids(asyncio.run(collect(grid, (k, 2), grid_json))) for k in range(2))
    assert sorted(a + b) == sorted(whole) and not set(a) & set(b)


def test_helper_stops_when_the_run_stops_reading(tmp_path):
    grid, grid_json = grid_and_json(tmp_path, count=50_000)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    got = asyncio.run(collect(grid, None, grid_json, limit=10))
    assert len(got) == 10
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    assert not left, f"helper still running: {left}"


def test_bad_skeleton_file_is_one_line(tmp_path):
    from runner.source.generate import make_plan
    skeletons = tmp_path / "sk.jsonl"
    skeletons.write_bytes(b"\n".join(sk.to_json() for sk in make_plan(0, ["short"]).items(6)) + b"\n")
    grid_path = tmp_path / "g.yaml"
    grid_path.write_text(f"name: t\nskeletons: {{path: {skeletons}}}\nproviders: {{t: {{kind: template}}, r: {{kind: random}}}}\n"
                         "renderers: [t]\nsolvers: [r]\n")
    grid = load_grid(grid_path)
    (tmp_path / "run").mkdir()
    save_grid(grid, tmp_path / "run", grid_path)
    # The file changes after the run checked it: the helper stops at the bad line and says which.
    with open(skeletons, "ab") as fh:
        fh.write(b'{"id": "broken"}\n')
    with pytest.raises(UserError, match=r"sk\.jsonl:7: "):
        asyncio.run(collect(grid, None, tmp_path / "run" / "grid.json"))


def test_run_prepared_aside_writes_the_same_logs(tmp_path):
    """The whole pipeline with and without the helper: the same units, statuses, texts and answers."""
    with FakeServer() as server:
        grid, _ = grid_and_json(tmp_path, server.url, count=16)
        logs = {}
        for aside in (False, True):
            folder = tmp_path / f"run-{aside}"
            folder.mkdir()
            save_grid(grid, folder, tmp_path / "grid.yaml")
            from providers.build import build_provider
            providers = {n: build_provider(grid.providers[n]) for n in ("fake", "template", "random")}
            pipe = Pipeline(grid, FolderLogs(folder), Progress(None, None, True), providers)
            result = asyncio.run(pipe.run(Feed(grid, None, folder / "grid.json" if aside else None), folder))
            assert sum(c.ok for c in result.cells.values()) == 64
            logs[aside] = {name: sorted((r["key"], r["status"], r.get("text"), r.get("answer"), r.get("correct"))
                                        for r in records(folder, name))
                           for name in ("renders.jsonl", "solves.jsonl")}
        assert logs[False] == logs[True]
        assert len(logs[True]["solves.jsonl"]) == 64


def template_grid(tmp: Path, url: str, count: int, workers: int = 1) -> Path:
    """A grid big enough for helpers: generated skeletons, template renderer, the fake server as solver."""
    grid = tmp / "g.yaml"
    grid.write_text(f"name: t\nprepare_workers: {workers}\nskeletons: {{generate: {{count: {count}}}}}\nproviders:\n"
                    f"  fake: {{kind: vllm, model: fake-model, base_url: \"{url}\", max_concurrency: 4}}\n"
                    "  template: {kind: template}\nrenderers: [template]\nsolvers: [fake]\n")
    return grid


@contextlib.contextmanager
def running(tmp: Path, url: str, count: int, workers: int = 1) -> Iterator[tuple[subprocess.Popen, Path, Path]]:
    """`bench run` of template_grid in the background, once it has written records: (process, grid, run
    folder). The process is killed after, if it still runs."""
    grid, out = template_grid(tmp, url, count, workers), tmp / "run"
    proc = _spawn(grid, out)
    try:
        _wait_for_records(out, proc=proc)
        yield proc, grid, out
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("sig,workers", [(signal.SIGKILL, 1), (signal.SIGINT, 1), (signal.SIGKILL, 3)])
def test_helper_never_outlives_the_run(tmp_path, sig, workers):
    """Killed (even by SIGKILL) or interrupted mid-run, the run takes its helpers with it."""
    with FakeServer(latency_s=0.2) as server, running(tmp_path, server.url, 50_000, workers) as (proc, _, out):
        helpers = _helpers_of(out, wait_s=0)
        assert len(helpers) == workers, "50,000 skeletons are prepared aside, and the helpers are still busy"
        proc.send_signal(sig)
        assert proc.wait(30) == (130 if sig == signal.SIGINT else -signal.SIGKILL)
        assert not _helpers_of(out)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_killed_helper_stops_the_run_in_one_line_and_resume_finishes(tmp_path, workers):
    with FakeServer(latency_s=0.01) as server, running(tmp_path, server.url, 3000, workers) as (proc, grid, out):
        helpers = _helpers_of(out, wait_s=0)
        assert len(helpers) == workers
        helpers[-1].kill()   # as the OOM killer would
        assert proc.wait(30) == 2
        err = proc.stderr.read().strip()
        assert err.count("\n") == 0 and "Traceback" not in err
        assert "skeleton helper" in err and "killed by signal 9" in err and "rerun" in err
        done = len(records(out, "solves.jsonl"))
        assert 0 < done < 3000
        bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
        solves = records(out, "solves.jsonl")
        assert len({r["key"] for r in solves}) == 3000 == len(solves)


def test_a_helper_stopped_and_continued_while_it_writes_loses_nothing(tmp_path):
    """SIGSTOP and SIGCONT (a scheduler's suspend, a profiler attaching) while a helper waits on a full pipe
    cut its write short; every frame must still arrive whole, and the run finish with every unit."""
    import time
    with FakeServer(latency_s=0.005) as server, running(tmp_path, server.url, 3000) as (proc, _, out):
        (helper,) = _helpers_of(out, wait_s=0)   # it outruns 4 requests in flight: blocked on the pipe
        deadline = time.monotonic() + 2.0
        with contextlib.suppress(psutil.NoSuchProcess):
            while time.monotonic() < deadline and proc.poll() is None:
                helper.suspend()
                time.sleep(0.01)
                helper.resume()
                time.sleep(0.02)
        assert proc.wait(60) == 0, proc.stderr.read()
        solves = records(out, "solves.jsonl")
        assert len({r["key"] for r in solves}) == 3000 == len(solves)
        assert {r["status"] for r in solves} == {"ok"}


@pytest.mark.parametrize("setting, count, said", [
    ("", 10, "prepared in the run's own process (prepare_workers: auto)"),
    ("", 5000, "prepared by {auto} helper process(es) (prepare_workers: auto)"),   # one per core, 1 to 8
    ("prepare_workers: 3\n", 10, "prepared by 3 helper process(es)"),
    ("prepare_workers: 0\n", 5000, "prepared in the run's own process"),
])
def test_the_plan_says_where_skeletons_are_prepared(tmp_path, monkeypatch, setting, count, said):
    said = said.format(auto=max(1, min(8, len(os.sched_getaffinity(0)))))
    grid = tmp_path / "g.yaml"
    grid.write_text(f"name: t\n{setting}skeletons: {{generate: {{count: {count}}}}}\n"
                    "providers: {t: {kind: template}, r: {kind: random}}\nrenderers: [t]\nsolvers: [r]\n")
    proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), "--dry-run", check=True)
    assert f"skeletons: {count}  (generated: {count}), {said}" in proc.stdout, proc.stdout
