"""The grid's figures read fast (runner/view/quick.py) equal the whole snapshot's (the report's loader) on random
logs: duplicates, ties, every status, torn tails, a stage whose keys another grid made, several folders; and a
server holding only them shows the grid as preliminary and asks the other pages to wait."""
from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import time
from pathlib import Path

import orjson
import pytest
from aiohttp import ClientSession, web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.reporting.columnar_sql import FIRST_MOST
from runner.view import pages
from runner.view.data import Runs, build, build_quick
from runner.view.server import app
from tests.conftest import HANG_S
from tests.view_mixed import build as build_mixed

# what the grid page shows of each row (latencies, tokens, thoughts and chance come with the whole snapshot)
SHOWN = ("run", "renderer", "solver", "family", "complexity", "n", "correct", "accuracy", "ci95_low", "ci95_high",
         "invalid", "errors", "unfaithful", "render_failed", "unchecked_n", "unchecked_correct", "sent_unfaithful_n",
         "sent_unfaithful_correct", "renders", "faithful_renders_first_try", "faithful_renders")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    return build_mixed(tmp_path_factory.mktemp("view-quick"), count=6)


def _shown(snap) -> tuple:
    rows = [tuple(getattr(r, c) for c in SHOWN) for r in snap.rows]
    verdicts = {k: dict(v) for k, v in snap.verdicts.items() if sum(v.values())}
    return rows, snap.fidelity, verdicts, {k: v for k, v in snap.families.items() if v}


def _lines(path: Path) -> list[dict]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines() if x.strip().endswith(b"}")]


def _mutated(rng: random.Random, rec: dict, solve: bool) -> dict:
    """Another record of the same unit: a later or tied try, any status."""
    rec = dict(rec)
    rec["finished_at"] = rng.choice([0.0, 1.0, 2.0, (rec.get("finished_at") or 0.0), "late", None])
    if solve:
        rec["status"] = rng.choice(["ok", "ok", "invalid", "error"])
        rec["correct"] = rng.choice([True, False]) if rec["status"] == "ok" else None
        rec["render_status"] = rng.choice(["ok", "ok", "unchecked", "unfaithful", 7])
    else:
        rec["status"] = rng.choice(["ok", "unfaithful", "unchecked", "invalid", "error"])
        rec["checks"] = rng.choice([[], ["misread: fact 1"], ["unread: fact 2"], ["unread: a", "misread: b"], None])
        rec["round"] = rng.choice([None, 0, 1, 2])
    return rec


def _write(folder: Path, seed: int, extra: int, foreign: bool, torn: bool) -> None:
    """Append `extra` other tries of random units to a copy's logs; `foreign`: one solver's keys of another grid."""
    rng = random.Random(seed)
    for name, solve in (("renders.jsonl", False), ("solves.jsonl", True)):
        recs = _lines(folder / name)
        added = [_mutated(rng, rng.choice(recs), solve) for _ in range(extra)]
        if foreign and solve:
            who = recs[0]["solver"]
            added += [{**r, "key": f"{r['key'][:-4]}beef"} for r in recs if r["solver"] == who][:3]
        with open(folder / name, "ab") as fh:
            for rec in added:
                fh.write(orjson.dumps(rec) + b"\n")
            if torn:
                fh.write(orjson.dumps(added[-1] if added else recs[-1])[:40])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), extra=st.integers(0, 40), foreign=st.booleans(), torn=st.booleans(),
       two=st.booleans())
def test_the_fast_figures_equal_the_whole_snapshots_on_random_logs(mixed, seed, extra, foreign, torn, two):
    with tempfile.TemporaryDirectory() as tmp:
        folders = [Path(tmp) / "a"]
        shutil.copytree(mixed, folders[0])
        _write(folders[0], seed, extra, foreign, torn)
        if two:   # a second folder of the same run (a shard, a resume elsewhere): newest record across both wins
            folders.append(Path(tmp) / "b")
            shutil.copytree(mixed, folders[1])
            _write(folders[1], seed + 1, extra, False, torn)
        quick, whole = build_quick(folders), build(folders)
        assert quick.partial and not whole.partial
        assert _shown(quick) == _shown(whole)


def test_the_fast_figures_read_a_record_too_long_for_the_engines_first_buffer(mixed, tmp_path):
    """A solve record and a render record of over twice FIRST_MOST bytes (a long answer, a long text) stop the
    engine's first reading; the fast figures are read again with the longer limit, equal to the whole snapshot's."""
    folder = tmp_path / "a"
    shutil.copytree(mixed, folder)
    for name, field in (("renders.jsonl", "text"), ("solves.jsonl", "raw")):
        recs = _lines(folder / name)
        long = {**recs[1], field: "x" * (2 * FIRST_MOST)}
        (folder / name).write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in [recs[0], long, *recs[2:]]))
    quick, whole = build_quick([folder]), build([folder])
    assert quick.partial and quick.rows
    assert _shown(quick) == _shown(whole)


async def _pages(runs: Runs, paths: list[str]) -> list[tuple[int, str]]:
    """The pages at these paths, from the view's server listening on 127.0.0.1."""
    runner = web.AppRunner(app(runs))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]   # type: ignore[union-attr]
    try:
        async with ClientSession() as session:
            out = []
            for path in paths:
                async with session.get(f"http://127.0.0.1:{port}{path}") as resp:
                    out.append((resp.status, await resp.text()))
            return out
    finally:
        await runner.cleanup()


def test_a_preliminary_grid_says_so_and_the_other_pages_wait_for_the_whole_reading(mixed):
    runs = Runs([mixed])                      # the whole snapshot, as a small run gets it at once
    whole = runs.snapshot
    runs.snapshot = build_quick([mixed])      # as a big run's server holds it while the whole one is read
    key = whole.by_renderer[next(iter(whole.by_renderer))][0]["key"]
    (grid_status, grid), (list_status, listing), (_, unit) = asyncio.run(_pages(runs, [
        "/", "/units?run=mixed&renderer=template", f"/unit?run=mixed&key={key}"]))
    assert grid_status == 200 and "Preliminary figures" in grid and 'http-equiv="refresh"' in grid
    for cell in ("heatmap", "inv", "err"):
        assert cell in grid
    assert list_status == 200 and "reading the run logs" in listing and "table class=\"units\"" not in listing
    assert "reading the run logs" in unit
    runs.snapshot = whole
    (_, grid), (_, listing) = asyncio.run(_pages(runs, ["/", "/units?run=mixed&renderer=template"]))
    assert "Preliminary" not in grid and "table class=\"units\"" in listing
    assert grid.count("<td class=\"num cell") == pages.grid_page(whole).count("<td class=\"num cell") > 0


def test_a_server_over_big_logs_makes_the_fast_figures_first_then_the_whole_snapshot(mixed):
    runs = Runs([mixed], wait=False, quick_bytes=0)   # every log counts as big
    deadline = time.monotonic() + HANG_S
    while (runs.snapshot is None or runs.snapshot.partial or runs._building) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert runs.quick_failed is None and runs.quick_s is not None
    assert runs.snapshot is not None and not runs.snapshot.partial and runs.snapshot.loaded.outcomes
    small = Runs([mixed], wait=False)   # small logs: the whole snapshot at once, never a preliminary one
    while small.snapshot is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert small.snapshot is not None and not small.snapshot.partial and small.quick_s is None
