"""The walk's settled check and counts (runner/engine/skip.py) are the unit rule's (`resume.unit_done`) and the
pipeline's counting, on random logs' indexes: every unit of a skeleton settled or not, any status, renderers that
repair or send unfaithful renders on, several samples; the renders table's rows are those of the newest records."""
from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.config.grid import load_grid
from runner.engine.resume import goes_to_solvers, unit_done
from runner.engine.skip import _remade, _Tally
from runner.plan.manifest import read
from runner.plan.units import UnitPlan, cell, skeletons
from runner.store.index import Entry, Index
from runner.store.logs import TERMINAL
from runner.store.tally import CellStats

GRID = """name: s
skeletons: {generate: {count: 4, seed: 1}}
providers:
  v: {kind: vllm, model: m, base_url: "http://127.0.0.1:9/v1"}
  w: {kind: vllm, model: m2, base_url: "http://127.0.0.1:9/v1"}
  t: {kind: template}
  r: {kind: random}
renderers:
  - {provider: v, format: structured, send_unfaithful: true, samples: 2}
  - {provider: w, format: structured, repair: 1}
  - t
solvers: [{provider: r, samples: 2}, v]
"""
RENDER = st.sampled_from([None, "ok", "unfaithful", "invalid", "unchecked", "error"])
SOLVE = st.sampled_from([None, "ok", "invalid", "error", "ok", "ok"])


def old_count(cells, renders_by_status, unit, renders, solves) -> None:
    """The walk's counting before it was made per key (ced18ae's skip._count), for a settled unit."""
    status = renders[unit.key].status
    renders_by_status[status] += 1
    for su in unit.solves:
        done = solves.get(su.key)
        stats = cells[cell(unit.stage, su.stage)]
        if done is not None and done.status in TERMINAL:
            stats.add(done.status, done.correct, status)
        elif not goes_to_solvers(status, unit.stage):
            stats.blocked(status)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_walk_settles_and_counts_as_the_unit_rule_and_the_pipeline(tmp_path, data):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    grid = load_grid(path)
    plan = UnitPlan(grid)
    identities = [f"order-{i:04d}#abc{i}" for i in range(4)]
    renders, solves = Index(), Index()
    offset = 0
    settled_everywhere = data.draw(st.booleans())   # most skeletons settled, or statuses at random
    for identity in identities:
        for unit in plan.units_of(identity):
            status = data.draw(st.sampled_from(["ok", "unchecked", "invalid", "unfaithful"]) if settled_everywhere
                               else RENDER)
            if status is not None:
                renders[unit.key] = Entry(status, offset := offset + 1)
            for su in unit.solves:
                s = data.draw(st.sampled_from(["ok", "invalid"]) if settled_everywhere else SOLVE)
                if s is not None:
                    solves[su.key] = Entry(s, offset := offset + 1, data.draw(st.booleans()) if s == "ok" else None)
    tally = _Tally(grid, renders, solves)
    cells: dict = defaultdict(CellStats)
    by_status: dict = defaultdict(int)
    rows: dict = defaultdict(lambda: defaultdict(int))
    for identity in identities:
        units = list(plan.units_of(identity))
        done = all(unit_done(u, renders, solves) for u in units)
        assert tally.skeleton(identity) == done
        if done:
            for unit in units:
                old_count(cells, by_status, unit, renders, solves)
                rows[unit.stage.label][renders[unit.key].status] += 1
    assert not tally.read_back or all(status == "unfaithful" for _, _, status in tally.read_back)
    (tmp_path / "renders.jsonl").write_bytes(b"")   # no record there: those to read back are counted by status
    result = tally.finish(tmp_path)
    assert {k: v for k, v in result.cells.items() if v != CellStats()} == {k: v for k, v in cells.items()}
    assert dict(result.renders) == dict(by_status)
    assert {label: dict(+row.statuses) for label, row in result.render_stats.items()} == \
        {label: dict(row) for label, row in rows.items()}


def test_a_remade_manifest_is_there_whole_or_not_at_all(tmp_path):
    """The skeletons made again for want of a manifest (`_remade`) are noted in it only once all are: a walk cut short
    (an error, an interrupt) leaves none and no part of one, so the next resume makes them all again, not a part."""
    path = tmp_path / "grid.yaml"
    path.write_text(GRID)
    grid = load_grid(path)
    target = tmp_path / ".skeletons-x"
    notes = _remade(grid, target)
    first = next(notes)
    notes.close()   # as the walk's loop does when it stops early
    assert not target.exists() and list(tmp_path.glob(".skeletons-*")) == []
    whole = list(_remade(grid, target))
    assert [n.source_index for n in whole] == [0, 1, 2, 3] and whole[0] == first
    assert list(read(target)) == whole and [p.name for p in tmp_path.glob(".skeletons-*")] == [".skeletons-x"]
    assert [n.identity for n in whole] == [sk.identity for sk in skeletons(grid)]
