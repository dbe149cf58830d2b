"""The columnar report (DuckDB over the logs) against the loader it replaces, on random run folders: every figure
of the report equal (tallies, summary rows, the --by counts, thought bins, outcomes, skipped lines), with torn
tails, duplicate records of a unit with different finished_at, every status, foreign keys, mistyped fields and
several run folders with different grids."""
from __future__ import annotations

import os
import re
import subprocess
import time
from collections import Counter
from pathlib import Path

import duckdb
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.commands.folder import save_grid
from runner.config.grid import Grid, load_grid
from runner.errors import UserError
from runner.plan.units import UnitPlan, skeletons
from runner.reporting import files, thinking
from runner.reporting.columnar import SOLVE_SCAN, keep_marks, read_figures
from runner.reporting.columnar_sql import CELL_QUANTILES, FIRST_MOST, grains_sql
from runner.reporting.fidelity import fidelity_rows
from runner.reporting.load import load_runs
from runner.reporting.log_scan import MARGIN, temporary
from runner.reporting.stats import cell_latency, percentile, summary_rows, tallies
from runner.store.logs import TORN
from runner.store.tally import render_stats

GRID = """name: {name}
skeletons:
  generate: {{count: {count}, complexities: [2, 4], seed: 0}}
providers:
  t0: {{kind: template, model: template-0}}
  t1: {{kind: template, model: template-1}}
  r0: {{kind: random, seed: {seed}}}
  r1: {{kind: random, seed: 1}}
renderers: [t0, {{provider: t1, samples: 2}}]
solvers: [{{provider: r0, samples: 2}}, r1]
"""
# three grids: one, a smaller one under another name, one whose first solver's settings (its keys) changed
GRIDS = [("t", 4, 0), ("u", 2, 0), ("t", 4, 7)]
STATUSES = ["ok", "invalid", "error", "unfaithful", "unchecked", "weird"]


def planned(spec: tuple[str, int, int], tmp: Path) -> tuple[Grid, UnitPlan]:
    """One of GRIDS, written to `tmp` and loaded, and its plan."""
    path = tmp / f"{spec[0]}{spec[1]}{spec[2]}.yaml"
    path.write_text(GRID.format(name=spec[0], count=spec[1], seed=spec[2]))
    grid = load_grid(path)
    return grid, UnitPlan(grid)


def _units(spec: tuple[str, int, int], tmp: Path) -> list[tuple]:
    """(render unit, solve unit, skeleton) of every planned solve of a grid."""
    grid, plan = planned(spec, tmp)
    return [(ru, su, sk) for sk in skeletons(grid) for ru in plan.units(sk) for su in ru.solves]


# Lines a reader must skip, by kind
JUNK = {"blank": b"\n", "garbage": b"not json\n", "array": b"[1, 2]\n", "empty": b"{}\n"}


def logged(draw, line: bytes, junk: dict[str, bytes] = JUNK) -> bytes:
    """A record's line as a log may hold it: whole (mostly), torn, or a line a reader must skip."""
    kind = draw(st.sampled_from(["record"] * 8 + ["torn", *junk]))
    if kind == "torn":
        return line[:draw(st.integers(1, len(line) - 2))] + TORN
    return junk.get(kind, line)


def tail_torn(draw, out: list[bytes]) -> list[bytes]:
    """The lines, the last of them (sometimes) cut short with no newline: a writer killed mid-line."""
    if draw(st.booleans()) and out:
        out[-1] = out[-1][:draw(st.integers(1, max(1, len(out[-1]) - 1)))].rstrip(b"\n")
    return out


FIELD_VALUES = {
    "finished_at": st.sampled_from([0.0, 1.0, 2.0, 1, 2, None, "x", True]),
    "render_status": st.sampled_from(["ok", "unchecked", "unfaithful", None, 5]),
    "latency_s": st.sampled_from([0.25, 1.5, 3.0, 2, None, "x"]),
    "prompt_tokens": st.sampled_from([0, 10, 250, None, 1.0]),
    "completion_tokens": st.sampled_from([0, 3, 7, None]),
    "thinking": st.sampled_from([None, {"tokens": 300, "tokens_from": "usage", "cut": False},
                                 {"tokens": 5000, "tokens_from": "estimate"}, {"tokens": 10, "cut": True},
                                 {"tokens": -1}, {}, [1], {"tokens": 3, "tokens_from": 4, "cut": "yes"}]),
    "reason": st.sampled_from([None, "http 500: x", 3]),
}


INTS = {"schema", "complexity", "render_sample", "sample", "prompt_tokens", "completion_tokens"}


def well_typed(name: str, value: object) -> bool:
    """Whether a field's value is of the field's own JSON type (absent or null is; `thinking` is read as JSON)."""
    if value is None or name == "thinking":
        return True
    if name in INTS:
        return type(value) is int
    if name in ("latency_s", "finished_at"):
        return type(value) in (int, float)
    return type(value) is (bool if name == "correct" else str)


@st.composite
def records(draw, units: list[tuple], labels: dict, typed: bool = False) -> list[bytes]:
    """The lines of one solve log: records of planned units (some another grid's), with duplicates and
    every status, and lines a reader must skip or pass over; `typed`: no field of another type than its own."""
    out = []
    for _ in range(draw(st.integers(0, 40))):
        ru, su, sk = draw(st.sampled_from(units))
        rec = {"schema": 1, "key": su.key, "status": draw(st.sampled_from(STATUSES)), "render_key": ru.key,
               "skeleton": sk.identity, "family": sk.family, "complexity": sk.complexity,
               "renderer": draw(st.sampled_from([ru.stage.label, *labels["render"], "zz"])),
               "solver": draw(st.sampled_from([su.stage.label, *labels["solve"], "zz"])),
               "render_sample": ru.sample, "sample": su.sample,
               # always written: a record without the field is skipped by the loader, read as null by the engine
               "correct": draw(st.sampled_from([True, False, None, 1]))}
        for name, values in FIELD_VALUES.items():
            if draw(st.booleans()):
                rec[name] = draw(values.filter(lambda v, n=name: not typed or well_typed(n, v)))
        for name in draw(st.lists(st.sampled_from(["key", "complexity", "skeleton", "sample", "render_sample",
                                                   "schema", "solver", "render_key"]), max_size=1)):
            rec[name] = draw(st.sampled_from([v for v in (None, "2", 2.0, True, 9, "f" * 32)   # mistyped or foreign
                                              if not typed or well_typed(name, v)]))
        if typed and not well_typed("correct", rec["correct"]):
            rec["correct"] = None
        line = orjson.dumps(rec) + b"\n"
        if not typed and draw(st.integers(0, 9)) == 0:   # NaN or Infinity for a field's value: orjson refuses the line
            name = draw(st.sampled_from(sorted(set(rec) - {"thinking"})))
            line = re.sub(rb'("%s":)("[^"]*"|[^,}]*)' % name.encode(),
                          lambda m: m.group(1) + draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"nan"])),
                          line, count=1)
        out.append(logged(draw, line))
    return tail_torn(draw, out)


@pytest.fixture(scope="module")
def plans(tmp_path_factory) -> list[list[tuple]]:
    tmp = tmp_path_factory.mktemp("grids")
    return [_units(spec, tmp) for spec in GRIDS]


def _write(folder: Path, spec: tuple[str, int, int], lines: list[bytes]) -> None:
    folder.mkdir(parents=True)
    grid_file = folder / "grid.yaml"
    grid_file.write_text(GRID.format(name=spec[0], count=spec[1], seed=spec[2]))
    save_grid(load_grid(grid_file), folder, grid_file)
    (folder / "solves.jsonl").write_bytes(b"".join(lines))


def _figures_of_old(folders: list[Path], pool: bool, by: tuple[str, ...]) -> dict:
    """Every figure the report shows, from the loader (the reference)."""
    loaded = load_runs(folders)
    groups = tallies(loaded, pool)   # with the solves each unit's render kept from being sent (loaded.blocked)
    return _figures(loaded, groups, files.grouped(loaded.outcomes, by, pool), loaded.outcomes,
                    fidelity_rows(loaded.renders), render_stats(loaded.renders))


def _figures(loaded, groups, grouped, outcomes, fidelity, render_counts, cell_quantiles=None) -> dict:
    # a group's latencies by their p50 and p95 (the engine takes them, the loader keeps the latencies) and its
    # thoughts in order (the report takes their percentiles: the order they came in is none of its figures)
    latency = cell_latency(groups, cell_quantiles)
    for t in groups.values():
        t.quantiles, t.latencies = t.latency_quantiles(), []
        t.thoughts.sort()
    return {"groups": dict(groups), "rows": summary_rows(loaded, groups, fidelity), "grouped": grouped,
            "latency": latency, "bins": thinking.thought_bins(outcomes),
            "depth": thinking.by_depth(outcomes), "chance": loaded.chance,
            "skipped": {p: n for p, n in loaded.skipped.items() if n}, "fidelity": fidelity,
            "render_counts": render_counts}


def _read_figures(got) -> dict:
    """_figures of what read_figures gave (its groups, rows, fidelity and renders table; no outcomes)."""
    return _figures(got.loaded, got.groups, [], [], got.fidelity, got.render_counts, got.cell_quantiles)


def _random_folders(tmp_path_factory, plans, data, typed: bool = False) -> list[Path]:
    """One to three run folders of random solve logs (`typed`: with no mistyped field)."""
    every = [u for plan in plans for u in plan]
    labels = {"render": ["t0", "t1"], "solve": ["r0", "r1"]}
    tmp = tmp_path_factory.mktemp("runs")
    folders = []
    for n in range(data.draw(st.integers(1, 3))):
        spec = data.draw(st.sampled_from(range(len(GRIDS))))
        lines = data.draw(records(plans[spec] * 3 + every, labels, typed))
        _write(tmp / str(n), GRIDS[spec], lines)
        folders.append(tmp / str(n))
    return folders


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.floats(min_value=0, max_value=1e6, allow_subnormal=True) | st.integers(0, 10**6),
                         min_size=1, max_size=40), min_size=1, max_size=4))
def test_the_engines_latency_quantiles_are_the_reports_percentiles_to_the_bit(groups):
    """The engine's p50 and p95 of a group's latencies (CELL_QUANTILES, as the tallies take them: the lists of the
    grains it spans merged) are the floats `stats.percentile` gives of the sorted values: any float, any count, ties
    and integers (a log's 2 for 2.0), spread over grains (families, complexities, statuses)."""
    con = duckdb.connect()
    con.execute("CREATE TABLE o (run VARCHAR, renderer VARCHAR, solver VARCHAR, family VARCHAR, complexity BIGINT, "
                "render_status VARCHAR, status VARCHAR, correct BOOLEAN, latency_s DOUBLE, prompt_tokens BIGINT, "
                "completion_tokens BIGINT, thinking BIGINT, cut BOOLEAN, thinking_from VARCHAR)")
    rows = [(str(g), "r", "s", f"family{i % 3}", i % 2, "ok", ("ok", "invalid")[i % 5 == 4], i % 2 == 0, float(v),
             None, None, None, False, None) for g, values in enumerate(groups) for i, v in enumerate(values)]
    error = ("0", "r", "s", "family0", 0, "ok", "error", None, 9e9, None, None, None, False, None)
    con.executemany("INSERT INTO o VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [*rows, error])
    con.execute(grains_sql("SELECT * FROM o"))
    got = {run: q for run, _, _, q in con.execute(CELL_QUANTILES).fetchall()}
    for g, values in enumerate(groups):
        lat = sorted(map(float, values))
        assert got[str(g)] == [percentile(lat, 0.5), percentile(lat, 0.95)]   # ==: the same bits, not close


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_the_columnar_figures_equal_the_loaders_on_random_run_folders(tmp_path_factory, plans, data):
    folders = _random_folders(tmp_path_factory, plans, data)
    pool = data.draw(st.booleans())
    by = tuple(data.draw(st.lists(st.sampled_from(files.DIMENSIONS), min_size=1, max_size=4, unique=True)))
    _equal_to_the_loaders(folders, pool, by)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_log_found_well_typed_is_read_typed_next_time_with_the_loaders_figures(tmp_path_factory, plans, data):
    """A log with no mistyped field (torn lines, junk, duplicates, every status) is marked by the exact scan; the
    next report reads it with the engine's typed read, and its figures are still the loader's."""
    folders = _random_folders(tmp_path_factory, plans, data, typed=True)
    by = tuple(data.draw(st.lists(st.sampled_from(files.DIMENSIONS), min_size=1, max_size=4, unique=True)))
    time.sleep(MARGIN)   # a log changed just now is not marked (its next change could keep its times)
    if _equal_to_the_loaders(folders, False, by) is None:
        return   # another schema: the report stops at the first such log, before the others are scanned
    for folder in folders:   # marked with the log's identity: the next read is the typed one
        assert orjson.loads(next(folder.glob(".report-typed-*")).read_bytes())[2] == (folder / "solves.jsonl").stat().st_size
    forget_kept(folders)   # else the next read is of the kept columns
    _equal_to_the_loaders(folders, True, by)


def forget_kept(folders: list[Path]) -> None:
    """Remove the logs' kept columns (the report reads them before any scan of an unchanged log)."""
    for folder in folders:
        for kept in (*folder.glob(".report-rows-*"), *folder.glob(".report-renders-rows-*")):
            kept.unlink()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_settled_logs_kept_columns_are_read_next_time_with_the_loaders_figures(tmp_path_factory, plans, data):
    """A solve log not written to within MARGIN (any field of any type, torn lines, junk, duplicates, every status)
    has its scanned rows kept beside it once the report has written everything; the next report reads those, and
    its figures are still the loader's, every unit's newest record the same."""
    folders = _random_folders(tmp_path_factory, plans, data)
    by = tuple(data.draw(st.lists(st.sampled_from(files.DIMENSIONS), min_size=1, max_size=4, unique=True)))
    time.sleep(MARGIN)   # a log changed just now is not kept (its next change could keep its times)
    if _equal_to_the_loaders(folders, False, by) is None:
        return   # another schema: the report stops at the first such log, before the others are scanned
    for folder in folders:   # kept with the log's identity (an empty log has nothing to keep); no temporary left
        if not (folder / "solves.jsonl").stat().st_size:
            assert not list(folder.glob(".report-rows-*"))
            continue
        [kept] = folder.glob(".report-rows-*")
        said = duckdb.sql(f"SELECT value::VARCHAR FROM parquet_kv_metadata('{kept}')").fetchall()
        assert orjson.loads(said[0][0])[2] == (folder / "solves.jsonl").stat().st_size
        assert not list(folder.glob("*.tmp"))
    _equal_to_the_loaders(folders, True, by)


def test_kept_columns_are_what_the_next_report_reads_until_the_log_is_written_to(tmp_path, plans):
    """The kept columns, not the log, are read while the log is as it was: kept columns made to say every answer
    wrong (their log's identity left in them) give a report of wrong answers; a line added to the log is read from
    the log again, and new columns kept."""
    folder = tmp_path / "run"
    lines = [_line(*u) for u in plans[0]]
    _write(folder, GRIDS[0], lines)
    time.sleep(MARGIN)
    first = read_figures([folder])
    assert sum(t.correct for t in first.groups.values()) == len(lines)
    keep_marks(first)
    [kept] = folder.glob(".report-rows-*")
    said = duckdb.sql(f"SELECT value::VARCHAR FROM parquet_kv_metadata('{kept}')").fetchall()[0][0]
    wrong = tmp_path / "wrong.parquet"
    duckdb.sql(f"COPY (SELECT * REPLACE (false AS correct) FROM read_parquet('{kept}')) TO '{wrong}' "
               f"(FORMAT parquet, KV_METADATA {{seen: '{said}'}})")
    os.replace(wrong, kept)
    got = read_figures([folder])
    assert [sum(t.ok for t in got.groups.values()), sum(t.correct for t in got.groups.values())] == [len(lines), 0]
    with open(folder / "solves.jsonl", "ab") as fh:   # the log written to: read from the log, every answer right
        fh.write(lines[0])
    _equal_to_the_loaders([folder], False, files.DIMENSIONS)
    time.sleep(MARGIN)
    keep_marks(read_figures([folder]))
    [again] = folder.glob(".report-rows-*")
    said = duckdb.sql(f"SELECT value::VARCHAR FROM parquet_kv_metadata('{again}')").fetchall()[0][0]
    assert orjson.loads(said)[2] == (folder / "solves.jsonl").stat().st_size


def test_damaged_kept_columns_are_not_read_and_are_kept_again(tmp_path, plans):
    """Kept columns cut short (a disk's fault) are not read: the log is scanned, the figures are the loader's, and
    the columns are written again."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    time.sleep(MARGIN)
    keep_marks(read_figures([folder]))
    [kept] = folder.glob(".report-rows-*")
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    _equal_to_the_loaders([folder], False, files.DIMENSIONS)
    assert kept.read_bytes() == whole or kept.stat().st_size > len(whole) // 2


def test_a_report_that_fails_keeps_no_columns_and_a_dead_reports_temporary_is_removed(tmp_path, plans):
    """A report stopped by a later folder's record of another schema leaves the first folder's log as it was (no
    kept columns, no mark, no temporary); the next report there removes a temporary a killed report left, not a running one's."""
    good, bad = tmp_path / "good", tmp_path / "bad"
    _write(good, GRIDS[0], [_line(*u) for u in plans[0]])
    _write(bad, GRIDS[0], [_line(*plans[0][0]).replace(b'"schema":1', b'"schema":2')])
    time.sleep(MARGIN)
    with pytest.raises(UserError):
        read_figures([good, bad])
    assert not [p.name for p in good.iterdir() if p.name.startswith((".report-rows-", ".report-typed-"))]
    assert not list(good.glob("*.tmp"))
    with subprocess.Popen(["sleep", "60"]) as alive, subprocess.Popen(["true"]) as dead:
        dead.wait()
        stamp = SOLVE_SCAN.rows_of(good / "solves.jsonl").name
        left = [good / f"{stamp}.{dead.pid}.tmp", good / f"{stamp}.{alive.pid}.tmp"]
        for tmp in left:
            tmp.write_bytes(b"partial")
        keep_marks(read_figures([good]))
        alive.kill()
    assert not left[0].exists() and left[1].exists() and SOLVE_SCAN.rows_of(good / "solves.jsonl").is_file()


# every kind of mistyped field a typed read would cast (or read as text) where the loader skips or ignores it (an
# integer of 2**63 is no integer to the exact scan either, where the loader takes it: columnar_sql's known difference)
MISTYPED = [("key", 5), ("status", True), ("solver", {"a": 1}), ("family", [1]), ("skeleton", 3),
            ("render_key", 1.5), ("renderer", False), ("complexity", "2"), ("complexity", 2.0), ("complexity", True),
            ("sample", "0"), ("render_sample", False), ("schema", "1"), ("correct", 1),
            ("correct", "true"), ("latency_s", "x"), ("latency_s", True), ("finished_at", "1"),
            ("prompt_tokens", 1.0), ("completion_tokens", "3"), ("render_status", 5), ("reason", 3)]


def test_a_marked_log_that_gains_a_mistyped_field_of_any_kind_is_scanned_exactly_again(tmp_path, plans):
    """A log marked well-typed, then written to (a line's field of another type, of every kind), is scanned
    exactly again: its figures are the loader's, not the typed read's casts."""
    lines = [_line(*u) for u in plans[0]]
    folders = [tmp_path / str(n) for n in range(len(MISTYPED))]
    for folder in folders:
        _write(folder, GRIDS[0], lines)
    time.sleep(MARGIN)   # a log changed just now is not marked (its next change could keep its times)
    for folder, (name, value) in zip(folders, MISTYPED):
        keep_marks(read_figures([folder]))   # as the report does once it has written everything
        assert next(folder.glob(".report-typed-*")).is_file()
        rec = orjson.loads(lines[3])
        rec[name] = value
        (folder / "solves.jsonl").write_bytes(b"".join([*lines[:3], orjson.dumps(rec) + b"\n", *lines[4:]]))
        _equal_to_the_loaders([folder], False, files.DIMENSIONS)


def test_a_same_size_edit_of_a_marked_log_is_scanned_exactly_again(tmp_path, plans):
    """An edit that keeps the log's size (a number made a string of one digit) still unmarks it."""
    folder = tmp_path / "run"
    lines = b"".join(_line(*u) for u in plans[0])
    _write(folder, GRIDS[0], [lines])
    time.sleep(MARGIN)
    keep_marks(read_figures([folder]))
    assert next(folder.glob(".report-typed-*")).is_file()
    edited = lines.replace(b'"latency_s":0.5', b'"latency_s":"5"', 1)
    assert len(edited) == len(lines) and edited != lines
    (folder / "solves.jsonl").write_bytes(edited)
    _equal_to_the_loaders([folder], False, files.DIMENSIONS)


def test_a_log_changed_just_before_the_report_is_not_marked(tmp_path, plans):
    """A log changed within the margin of the report's scan is not marked: a change in the same clock tick
    would keep its size and times, and the typed read would cast what the exact scan skips."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    keep_marks(read_figures([folder]))
    assert not list(folder.glob(".report-typed-*"))


def _equal_to_the_loaders(folders: list[Path], pool: bool, by: tuple[str, ...]):
    """The columnar report's figures on the folders, checked equal to the loader's (or the same error)."""
    try:
        old = _figures_of_old(folders, pool, by)
    except UserError as exc:
        with pytest.raises(UserError) as got:
            read_figures(folders, pool, by, all_outcomes=True)
        assert str(got.value) == str(exc)
        return None
    new = read_figures(folders, pool, by, all_outcomes=True)
    keep_marks(new)   # as the report does once it has written everything: a well-typed log is read typed next
    assert new.loaded.outcomes == load_runs(folders).outcomes   # every unit's newest record, in the same order
    grouped = files.grouped_counts(Counter(dict(new.by_counts)), by, pool)
    assert _figures(new.loaded, new.groups, grouped, new.loaded.outcomes, new.fidelity, new.render_counts,
                    new.cell_quantiles) == old
    thought = read_figures(folders, pool, by)   # the default: outcomes of thinking solvers only
    assert thought.loaded.outcomes == [o for o in new.loaded.outcomes if o.thinking is not None]
    return new


def _line(ru, su, sk) -> bytes:
    return orjson.dumps({"schema": 1, "key": su.key, "status": "ok", "render_key": ru.key, "skeleton": sk.identity,
                         "family": sk.family, "complexity": sk.complexity, "renderer": ru.stage.label,
                         "solver": su.stage.label, "render_sample": ru.sample, "sample": su.sample,
                         "correct": True, "latency_s": 0.5, "finished_at": 1.0}) + b"\n"


@pytest.mark.parametrize("typed", [False, True])
def test_a_record_longer_than_the_first_scans_buffer_is_read_as_the_loader_reads_it(tmp_path, plans, typed):
    """A solve record and a render record of over twice FIRST_MOST bytes (a long answer, a long text) stop the
    engine's first scan; the log is read again whole, exactly or typed (marked), and counted as the loader counts
    it, every other record with it."""
    folder = tmp_path / "run"
    lines = [_line(*u) for u in plans[0]]
    rec = orjson.loads(lines[5])
    rec["raw"] = "x" * (2 * FIRST_MOST)   # the engine reads a line of up to about twice its limit in one buffer
    lines[5] = orjson.dumps(rec) + b"\n"
    _write(folder, GRIDS[0], lines)
    renders = {ru.key: (ru, sk) for ru, _, sk in plans[0]}
    (folder / "renders.jsonl").write_bytes(b"".join(orjson.dumps(
        {"schema": 1, "key": key, "status": "ok", "skeleton": sk.identity, "family": sk.family,
         "complexity": sk.complexity, "renderer": ru.stage.label, "sample": ru.sample, "finished_at": 1.0,
         "text": "y" * (2 * FIRST_MOST if n == 2 else 10), "checks": []}) + b"\n" for n, (key, (ru, sk)) in enumerate(renders.items())))
    if typed:
        time.sleep(MARGIN)   # a log changed just now is not marked
        keep_marks(read_figures([folder]))
        assert next(folder.glob(".report-typed-*")).is_file()
        forget_kept([folder])   # else the next read is of the kept columns
    new = _equal_to_the_loaders([folder], False, files.DIMENSIONS)
    assert sum(t.ok for t in new.groups.values()) == len(plans[0])   # the long record counted with the others
    assert sum(sum(c.statuses.values()) for c in new.render_counts.values()) == len(renders)   # the long one too


def test_a_report_after_the_grid_changed_counts_by_its_new_plan_not_the_cached_one(tmp_path, plans):
    """The planned keys a report caches in the run folder are the grid's of that moment: once the grid's solver
    settings change (other keys), the next report counts by the new grid, as the loader does."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    by = files.DIMENSIONS
    first = read_figures([folder], by=by)
    assert sum(t.ok for t in first.groups.values()) == len(plans[0])
    cached = sorted(p.name for p in folder.glob(".report-plan-*"))
    assert len(cached) == 1
    again = read_figures([folder], by=by)   # from the cache: the same figures
    assert _read_figures(again) == _read_figures(first)

    grid_file = folder / "grid.yaml"   # the first solver's seed changed: its units have new keys
    grid_file.write_text(GRID.format(name=GRIDS[2][0], count=GRIDS[2][1], seed=GRIDS[2][2]))
    save_grid(load_grid(grid_file), folder, grid_file)
    new = read_figures([folder], by=by)
    old = _figures_of_old([folder], False, by)
    grouped = files.grouped_counts(Counter(dict(new.by_counts)), by, False)
    assert _figures(new.loaded, new.groups, grouped, new.loaded.outcomes, new.fidelity, new.render_counts,
                    new.cell_quantiles) == old
    assert sum(t.ok for t in new.groups.values()) < len(plans[0])   # r0's records no longer count
    assert [p.name for p in folder.glob(".report-plan-*")] != cached   # the stale plan replaced


def test_a_damaged_cached_plan_is_made_again_not_read(tmp_path, plans):
    """A cached plan with a file missing or cut short (a damaged or half-copied run folder) is not read: the
    report makes the plan again and its figures are the loader's."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    by = files.DIMENSIONS
    whole = read_figures([folder], by=by)
    [cached] = folder.glob(".report-plan-*")
    solves = cached / "solves.parquet"
    solves.write_bytes(solves.read_bytes()[:100])   # cut short
    again = read_figures([folder], by=by)
    assert _read_figures(again) == _read_figures(whole)
    assert sum(t.ok for t in again.groups.values()) == len(plans[0])
    [remade] = folder.glob(".report-plan-*")
    (remade / "renders.parquet").unlink()   # missing
    third = read_figures([folder], by=by)
    assert sum(t.ok for t in third.groups.values()) == len(plans[0])


def _children() -> list[int]:
    """The live processes whose parent is this one (from /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def test_a_report_that_fails_while_its_helper_still_plans_says_why_and_leaves_no_process(tmp_path):
    """A solve log of another schema stops the report at its scan, while the helper is still making a big grid's
    plan: the one line comes at once, and the helper is gone (none waits, none is left)."""
    folder = tmp_path / "run"
    folder.mkdir()
    grid_file = folder / "grid.yaml"
    grid_file.write_text(GRID.format(name="big", count=200_000, seed=0))
    save_grid(load_grid(grid_file), folder, grid_file)
    (folder / "solves.jsonl").write_bytes(orjson.dumps(
        {"schema": 9, "key": "k", "status": "ok", "render_key": "r", "skeleton": "s", "family": "equality",
         "complexity": 2, "renderer": "t0", "solver": "r0", "render_sample": 0, "sample": 0, "correct": True}) + b"\n")
    before = set(_children())
    with pytest.raises(UserError, match="records of schema 9"):
        read_figures([folder])   # the plan of 200,000 skeletons takes seconds: it was stopped, not waited for
    assert set(_children()) <= before


def test_kept_columns_are_never_written_through_a_symlink_at_their_temporary(tmp_path, plans):
    """A symlink where the kept columns' temporary goes (planted, or a reused process number's) is replaced, not
    followed (the engine's COPY does not write through it; this holds it to that): the file it points to is left
    as it was, and the columns are kept."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    victim = tmp_path / "victim"
    victim.write_bytes(b"not yours")
    rows = SOLVE_SCAN.rows_of(folder / "solves.jsonl")
    temporary(rows).symlink_to(victim)
    time.sleep(MARGIN)
    keep_marks(read_figures([folder]))
    assert victim.read_bytes() == b"not yours" and rows.is_file() and not rows.is_symlink()
    assert not temporary(rows).exists()


def test_a_log_removed_before_the_report_keeps_its_rows_keeps_nothing_and_says_nothing(tmp_path, plans):
    """The log removed (or moved away) after the report read it and before it kept its rows: nothing is kept, no
    temporary is left, and no error comes of it (the report had already written everything)."""
    folder = tmp_path / "run"
    _write(folder, GRIDS[0], [_line(*u) for u in plans[0]])
    time.sleep(MARGIN)
    figures = read_figures([folder])
    (folder / "solves.jsonl").rename(tmp_path / "moved.jsonl")
    keep_marks(figures)
    assert not [p.name for p in folder.iterdir() if p.name.startswith((".report-rows-", ".report-typed-"))]
    assert not list(folder.glob("*.tmp"))
