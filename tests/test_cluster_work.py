"""The batches a Ray driver makes from the grid and the run folder's logs, and its once-per-batch writer."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson

from runner.cluster.work import BatchResult, Writer, make_batches
from runner.config.grid import load_grid
from runner.engine.result import RunResult
from runner.plan.units import in_shard, skeletons
from runner.source.generate import make_plan
from runner.store.sinks import FolderLogs
from tests.conftest import bench

GRID = """name: w
skeletons: {generate: {count: 30, complexities: [short]}}
providers:
  t: {kind: template}
  r: {kind: random}
renderers: [t]
solvers: [{provider: r, samples: 3}]
"""


def setup(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    return path, load_grid(path)


def batches_of(grid, folder: Path, size: int = 4):
    result, skipped = RunResult(), Counter()
    out = list(make_batches(grid, FolderLogs(folder), size, result, lambda stage, n: skipped.update({stage: n})))
    return out, result, skipped


def test_a_fresh_generated_run_sends_index_ranges_that_make_every_skeleton_once(tmp_path):
    _, grid = setup(tmp_path)
    batches, result, skipped = batches_of(grid, tmp_path / "nothing-yet", 4)
    assert [b.id for b in batches] == list(range(8)) and [b.span for b in batches][-2:] == [(24, 28), (28, 30)]
    src = grid.source
    plan = make_plan(src.seed, src.complexities, src.families, src.target_hop_dist, src.distractors)
    made = [sk.identity for b in batches for sk in plan.items(b.span[1] - b.span[0], b.span[0])]
    assert made == [sk.identity for sk in skeletons(grid)]
    assert all(not b.skeletons and not b.renders and not b.solves for b in batches) and not skipped and not result.cells


def test_a_fresh_run_of_a_skeleton_file_sends_the_skeletons(tmp_path):
    bench("generate", "--count", "10", "--complexity", "short", "-o", str(tmp_path / "sk.jsonl"), check=True)
    path = tmp_path / "grid.yaml"
    path.write_text(GRID.replace("generate: {count: 30, complexities: [short]}", "path: sk.jsonl"))
    grid = load_grid(path)
    batches, _, _ = batches_of(grid, tmp_path / "nothing-yet", 4)
    assert [len(b.skeletons) for b in batches] == [4, 4, 2] and all(b.span is None for b in batches)
    assert [sk.identity for b in batches for sk in b.skeletons] == [sk.identity for sk in skeletons(grid)]


def test_settled_skeletons_are_counted_not_sent_and_partial_ones_carry_their_records(tmp_path):
    path, grid = setup(tmp_path)
    out = tmp_path / "out"
    bench("run", "--grid", str(path), "--out", str(out), "--shard", "0/2", "-q", check=True)
    shard0 = [sk for sk in skeletons(grid) if in_shard(sk, (0, 2))]
    # one settled skeleton loses a solve record: it must go out again, with what the logs still hold of it
    lines = (out / "solves.jsonl").read_bytes().splitlines(keepends=True)
    dropped = orjson.loads(lines[0])
    (out / "solves.jsonl").write_bytes(b"".join(lines[1:]))

    batches, result, skipped = batches_of(grid, out)
    sent = [sk for b in batches for sk in b.skeletons]
    assert {sk.identity for sk in sent} == {sk.identity for sk in skeletons(grid)
                                            if not in_shard(sk, (0, 2))} | {dropped["skeleton"]}
    partial = next(b for b in batches if any(sk.identity == dropped["skeleton"] for sk in b.skeletons))
    assert dropped["render_key"] in partial.renders and partial.renders[dropped["render_key"]]["status"] == "ok"
    assert dropped["key"] not in partial.solves and len(partial.solves) == 2   # its other two solve units
    assert skipped == {"render": len(shard0) - 1, "solve": 3 * (len(shard0) - 1)}
    assert sum(c.ok for c in result.cells.values()) == 3 * (len(shard0) - 1)


def test_a_batch_that_comes_back_twice_is_written_once(tmp_path):
    logs = FolderLogs(tmp_path)
    logs.open(lambda error: None)
    res = BatchResult(3, [b'{"r":1}\n'], [b'{"s":1}\n', b'{"s":2}\n'], RunResult(), {}, 0.1)
    writer = Writer(logs)
    assert writer.absorb(res) is True
    assert writer.absorb(res) is False
    logs.close()
    assert (tmp_path / "renders.jsonl").read_bytes() == b'{"r":1}\n'
    assert (tmp_path / "solves.jsonl").read_bytes() == b'{"s":1}\n{"s":2}\n'
