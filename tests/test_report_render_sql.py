"""The render logs counted by the engine (reporting/render_sql.py) against the loader's Python read of them, on random
run folders: the same fidelity rows, renders table and blocked solve units (each unit's best record, its first
try), the same unreadable lines counted, the same refusal of another schema; with torn tails, duplicates of a unit
with different `finished_at` and rounds, every status, checks with and without reason codes, two renderers naming
one key, foreign keys and mistyped fields."""
from __future__ import annotations

import time
from pathlib import Path

import duckdb
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.commands.folder import save_grid
from runner.config.grid import load_grid
from runner.errors import UserError
from runner.plan.units import skeletons
from runner.reporting.columnar import keep_marks, read_figures
from runner.reporting.fidelity import fidelity_rows
from runner.reporting.load import load_runs
from runner.reporting.log_scan import MARGIN, scan_log
from runner.reporting.render_sql import RENDER_SCAN, TABLE
from runner.reporting.stats import tallies
from runner.store.tally import render_stats
from tests.test_report_columnar import GRID, GRIDS, JUNK, forget_kept, logged, planned, tail_torn, well_typed

CAST = ("schema", "finished_at")   # the fields VALUES mistypes that a typed read casts (the others are kept as JSON)
STATUSES = ["ok", "invalid", "error", "unfaithful", "unchecked", "weird"]
VALUES = {
    "finished_at": [0.0, 1.0, 2.0, 1, 2, None, "x", True, 1e3, -0.0],
    "round": [0, 1, 2, None, False, True, 0.0, -0.0, "", "x", [], [0], {}, {"a": 1}],
    "checks": [[], [{"name": "a", "ok": True}], None, "x", {"k": [1, 2.5, "é\u2028"]}, ["misread: premise 2"],
               ["unread: premise 1", "missing_fact: fact 3"], ["unread: x", "misread: y"], [3, "unread"]],
    "reason": [None, "http 500: x", 3, "quote \" and \\ back"],
    "audit": [None, {"auditor": "a", "verdict": "ok"}, [1], 1.5, "agrees", "disagrees"],
    "schema": [1, 1, 1, 2, 0, "1", 1.0, True, None],
}


def _renders(spec: tuple[str, int, int], tmp: Path) -> list[tuple]:
    """(render unit, skeleton) of every planned render of a grid."""
    grid, plan = planned(spec, tmp)
    return [(ru, sk) for sk in skeletons(grid) for ru in plan.units(sk)]


@st.composite
def render_lines(draw, units: list[tuple], typed: bool = False) -> list[bytes]:
    """The lines of one render log: records of planned units (some another grid's), duplicates, every status,
    renderers named wrongly, mistyped fields (none where `typed`: no field a typed read casts), and lines a reader
    must skip."""
    out = []
    for _ in range(draw(st.integers(0, 30))):
        ru, sk = draw(st.sampled_from(units))
        rec = {"key": ru.key, "status": draw(st.sampled_from(STATUSES)), "skeleton": sk.identity,
               "family": sk.family, "complexity": sk.complexity,
               "renderer": draw(st.sampled_from([ru.stage.label, "t0", "t1", "zz"])), "sample": ru.sample}
        for name, values in VALUES.items():
            if draw(st.booleans()):
                rec[name] = draw(st.sampled_from([v for v in values if not typed or name not in CAST
                                                  or well_typed(name, v)]))
        for name in draw(st.lists(st.sampled_from(["key", "complexity", "skeleton", "sample", "family", "status",
                                                   "renderer"]), max_size=0 if typed else 1)):
            rec[name] = draw(st.sampled_from([None, "2", 2.0, True, 9, "f" * 32]))   # mistyped or foreign
        if draw(st.booleans()):
            rec.pop(draw(st.sampled_from(list(rec))))
        out.append(logged(draw, orjson.dumps(rec) + b"\n", {**JUNK, "number": b"5\n"}))
    return tail_torn(draw, out)


@pytest.fixture(scope="module")
def units(tmp_path_factory) -> list[list[tuple]]:
    tmp = tmp_path_factory.mktemp("grids")
    return [_renders(spec, tmp) for spec in GRIDS]


def _run_folder(folder: Path, grid_text: str) -> Path:
    """A run folder of this grid (its grid.yaml, the grid saved as a run saves it) with an empty solve log."""
    folder.mkdir(parents=True)
    (folder / "grid.yaml").write_text(grid_text)
    save_grid(load_grid(folder / "grid.yaml"), folder, folder / "grid.yaml")
    (folder / "solves.jsonl").write_bytes(b"")
    return folder


def _random_folders(tmp_path_factory, units, data, typed: bool = False) -> list:
    """One to three run folders of random grids, each with a random render log of its own units and others' (and
    an empty solve log)."""
    every = [u for plan in units for u in plan]
    tmp = tmp_path_factory.mktemp("runs")
    folders = []
    for n in range(data.draw(st.integers(1, 3))):
        spec = data.draw(st.sampled_from(range(len(GRIDS))))
        folder = _run_folder(tmp / str(n), GRID.format(name=GRIDS[spec][0], count=GRIDS[spec][1], seed=GRIDS[spec][2]))
        (folder / "renders.jsonl").write_bytes(b"".join(data.draw(render_lines(units[spec] * 3 + every, typed))))
        folders.append(folder)
    return folders


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_the_reports_render_figures_equal_the_loaders_on_random_run_folders(tmp_path_factory, units, data):
    """What read_figures counts of the render logs in the engine (each unit's best render, the solves it blocked,
    the fidelity rows, the renders table's counts, the unreadable lines) equals what the loader's render records
    give, on random render logs beside an empty solve log; another schema is refused with the loader's line."""
    _render_figures_equal(_random_folders(tmp_path_factory, units, data))


def _render_figures_equal(folders: list[Path]):
    """read_figures's render figures on the folders equal the loader's (or the same error: then None); the loader's
    reading of them."""
    try:
        old = load_runs(folders)
    except UserError as exc:
        with pytest.raises(UserError) as got:
            read_figures(folders)
        assert str(got.value) == str(exc)
        return None
    _same_render_figures(read_figures(folders), old)
    return old


def _same_render_figures(new, old) -> None:
    """The report's render figures (`new`, from read_figures) are those of the loader's records (`old`)."""
    assert new.fidelity == fidelity_rows(old.renders)
    assert new.render_counts == render_stats(old.renders)
    assert dict(new.groups) == dict(tallies(old))   # the solve log is empty: each group holds only blocked units
    # a log whose lines were all read may be named with 0 skipped by the loader (a blank line): no figure
    assert {p: n for p, n in new.loaded.skipped.items() if n} == {p: n for p, n in old.skipped.items() if n}


def test_a_renamed_renderer_in_another_folder_is_kept_apart_under_its_own_name(tmp_path):
    """Two folders of one run whose grids name one renderer differently (t0, then t9: the same model, so the same
    render keys): the second's records are another unit, counted under their renderer's name, as the loader
    counts them."""
    folders = []
    for name, provider in (("a", "t0"), ("b", "t9")):
        folder = _run_folder(tmp_path / name, GRID.format(name="t", count=2, seed=0).replace("t0", provider))
        lines = [orjson.dumps({"schema": 1, "key": ru.key, "status": "ok", "skeleton": sk.identity,
                               "family": sk.family, "complexity": sk.complexity, "renderer": ru.stage.label,
                               "sample": ru.sample, "finished_at": 1.0, "round": 0}) + b"\n"
                 for ru, sk in _renders(("t", 2, 0), tmp_path) if ru.stage.label == "t0"]
        (folder / "renders.jsonl").write_bytes(b"".join(lines).replace(b'"t0"', f'"{provider}"'.encode()))
        folders.append(folder)
    old = load_runs(folders)
    assert {r["renderer"] for r in old.renders} == {"t0", "t9"}   # the case is met: both kept, each under its name
    _same_render_figures(read_figures(folders), old)


FIRST_ROUNDS = [*((r, 0) for r in (0, 0.0, -0.0, False, "", [], {}, None, "missing")),   # round 0: the first try's
                *((r, 1) for r in (1, 2.5, True, "x", [0], {"a": 1}))]                   # a repair: no first try


@pytest.mark.parametrize("first_round, first_try", FIRST_ROUNDS)
def test_a_units_first_try_is_its_round_0_record_in_every_form_round_0_takes(tmp_path, first_round, first_try):
    """A unit rendered unfaithful at its first record and faithful after repair counts as faithful at the first try
    only if the first record is not of round 0; `round` is 0 as Python's `not round` reads it (0, 0.0, false, "",
    [], {}, null, missing), the loader's rule."""
    folder = _repaired_unit(tmp_path, first_round)
    new, old = read_figures([folder]), load_runs([folder])
    [row] = new.fidelity
    assert (row.renders, row.faithful_first_try, row.faithful) == (1, first_try, 1)
    _same_render_figures(new, old)


def test_a_units_first_try_is_read_so_by_the_typed_read_too(tmp_path):
    """The same, each log marked well-typed first: the typed read takes round 0 as the exact scan does."""
    folders = [_repaired_unit(tmp_path / str(n), first_round) for n, (first_round, _) in enumerate(FIRST_ROUNDS)]
    time.sleep(MARGIN)   # a log changed just now is not marked
    for folder, (first_round, first_try) in zip(folders, FIRST_ROUNDS):
        keep_marks(read_figures([folder]))
        assert RENDER_SCAN.mark_of(folder / "renders.jsonl").is_file()
        forget_kept([folder])   # else the next read is of the kept columns
        [row] = read_figures([folder]).fidelity
        assert (row.renders, row.faithful_first_try, row.faithful) == (1, first_try, 1), first_round


def _repaired_unit(tmp_path: Path, first_round: object) -> Path:
    """A run folder whose one render unit was unfaithful at its first record (of round `first_round`) and faithful
    after repair (round 1)."""
    folder = _run_folder(tmp_path / "run", GRID.format(name="t", count=2, seed=0))
    ru, sk = _renders(("t", 2, 0), tmp_path)[0]
    base = {"schema": 1, "key": ru.key, "skeleton": sk.identity, "family": sk.family, "complexity": sk.complexity,
            "renderer": ru.stage.label, "sample": ru.sample}
    tried = {**base, "status": "unfaithful", "finished_at": 1.0, "checks": ["misread: premise 1"],
             **({} if first_round == "missing" else {"round": first_round})}
    repaired = {**base, "status": "ok", "finished_at": 2.0, "checks": [], "round": 1}
    (folder / "renders.jsonl").write_bytes(orjson.dumps(tried) + b"\n" + orjson.dumps(repaired) + b"\n")
    return folder


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_render_log_found_well_typed_is_read_typed_next_time_with_the_loaders_figures(tmp_path_factory, units,
                                                                                        data):
    """A render log with no field a typed read would cast (torn lines, junk, duplicates, every status, any JSON in
    round, checks, reason and audit) is marked by the exact scan; the next report reads it with the engine's typed
    read, and its figures are still the loader's."""
    folders = _random_folders(tmp_path_factory, units, data, typed=True)
    time.sleep(MARGIN)   # a log changed just now is not marked (its next change could keep its times)
    old = _render_figures_equal(folders)
    if old is None:
        return   # another schema: the report stops at the first such log
    keep_marks(read_figures(folders))   # as the report does once it has written everything
    for folder in folders:   # marked with the log's identity: the next read is the typed one
        mark = RENDER_SCAN.mark_of(folder / "renders.jsonl")
        assert orjson.loads(mark.read_bytes())[2] == (folder / "renders.jsonl").stat().st_size
    forget_kept(folders)   # else the next read is of the kept columns
    _same_render_figures(read_figures(folders), old)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_settled_render_logs_kept_columns_are_read_next_time_with_the_loaders_figures(tmp_path_factory, units,
                                                                                         data):
    """A render log not written to within MARGIN (any field of any type, torn lines, junk, duplicates, every status)
    has its scanned rows kept beside it once the report has written everything; the next report reads those (made
    to hold no row, they show none), and until then its figures are the loader's."""
    folders = _random_folders(tmp_path_factory, units, data)
    time.sleep(MARGIN)   # a log changed just now is not kept (its next change could keep its times)
    old = _render_figures_equal(folders)
    if old is None:
        return   # another schema: the report stops at the first such log
    keep_marks(read_figures(folders))   # as the report does once it has written everything
    _same_render_figures(read_figures(folders), old)
    for folder in folders:   # kept with the log's identity
        log = folder / "renders.jsonl"
        kept = RENDER_SCAN.rows_of(log)
        assert kept.is_file() == bool(log.stat().st_size) and not list(folder.glob("*.tmp"))
        if kept.is_file():   # what the next report reads: the kept columns, not the log
            said = duckdb.sql(f"SELECT value::VARCHAR FROM parquet_kv_metadata('{kept}')").fetchall()[0][0]
            assert orjson.loads(said)[2] == log.stat().st_size
            other = kept.with_name("other.parquet")
            duckdb.sql(f"COPY (SELECT * FROM read_parquet('{kept}') LIMIT 0) TO '{other}' "
                       f"(FORMAT parquet, KV_METADATA {{seen: '{said}'}})")
            other.replace(kept)
    emptied = read_figures(folders)   # kept columns made to hold no row: a report of no render
    assert (emptied.fidelity, emptied.render_counts) == ([], {})


MISTYPED = [("key", 5), ("status", True), ("skeleton", 3), ("family", [1]), ("complexity", "2"), ("complexity", 2.0),
            ("complexity", True), ("renderer", False), ("sample", "0"), ("sample", 0.0), ("schema", "1"),
            ("finished_at", "1"), ("finished_at", True)]


@pytest.mark.parametrize("name, value", MISTYPED)
def test_a_marked_render_log_that_gains_a_mistyped_field_is_scanned_exactly_again(tmp_path, name, value):
    """A render log marked well-typed, then written to (a field of another type, of every kind a typed read would
    cast), is scanned exactly again: the loose line is found, and the figures are the loader's."""
    folder = _one_unit_run(tmp_path)
    lines = (folder / "renders.jsonl").read_bytes().splitlines(keepends=True)
    time.sleep(MARGIN)   # a log changed just now is not marked
    keep_marks(read_figures([folder]))
    assert RENDER_SCAN.mark_of(folder / "renders.jsonl").is_file()
    rec = orjson.loads(lines[0])
    rec[name] = value
    (folder / "renders.jsonl").write_bytes(orjson.dumps(rec) + b"\n" + b"".join(lines[1:]))
    _same_render_figures(read_figures([folder]), load_runs([folder]))
    con = duckdb.connect()
    try:
        con.execute(TABLE)
        _, mark = scan_log(con, RENDER_SCAN, 0, folder / "renders.jsonl")
        assert mark is None and con.execute("SELECT count(*) FILTER (loose) FROM rr").fetchone()[0] == 1
    finally:
        con.close()


def _one_unit_run(tmp_path: Path) -> Path:
    """A run folder whose render log holds every planned render of a small grid once, faithful."""
    folder = _run_folder(tmp_path / "run", GRID.format(name="t", count=2, seed=0))
    (folder / "renders.jsonl").write_bytes(b"".join(orjson.dumps(
        {"schema": 1, "key": ru.key, "status": "ok", "skeleton": sk.identity, "family": sk.family,
         "complexity": sk.complexity, "renderer": ru.stage.label, "sample": ru.sample, "finished_at": 1.0,
         "round": 0, "checks": []}) + b"\n" for ru, sk in _renders(("t", 2, 0), tmp_path)))
    return folder


def test_a_units_newest_record_in_a_run_whose_source_lacks_its_skeleton_still_wins_over_another_runs(tmp_path):
    """One render unit logged in two folders of two runs: faithful in run u, whose source stops before its skeleton,
    and errored later in run t, whose source holds it. The faithful record is the unit's newest terminal one and
    wins, and it is not counted (its run's source lacks the skeleton); nor is t's error: the loader's rule."""
    units = [(ru, sk) for ru, sk in _renders(("t", 4, 0), tmp_path) if int(sk.identity.split("#")[0][-4:]) >= 2]
    ru, sk = units[0]
    folders = []
    for name, count, status, at in (("u", 2, "ok", 1.0), ("t", 4, "error", 2.0)):
        folder = _run_folder(tmp_path / name, GRID.format(name=name, count=count, seed=0))
        (folder / "renders.jsonl").write_bytes(orjson.dumps(
            {"schema": 1, "key": ru.key, "status": status, "skeleton": sk.identity, "family": sk.family,
             "complexity": sk.complexity, "renderer": ru.stage.label, "sample": ru.sample, "finished_at": at}) + b"\n")
        folders.append(folder)
    old = _render_figures_equal(folders)
    assert old is not None and old.renders == []   # the case is met: the loader counts neither record
