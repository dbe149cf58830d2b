"""The render logs in the engine for the columnar report: each line's fields and their JSON types checked as load.py
checks a parsed record, each record matched to its grid's render stage by the planned keys, the newest record of
each unit kept and the report's render figures counted there (by load.py's rules: `finish`, `fidelity_rows`,
`render_stats`); Python sees one row per group of like renders, not one per render."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import orjson

from runner.reporting.columnar_sql import _int, _int_ok, _loose, _num_ok, _str, _text, sql_types
from runner.reporting.fidelity import CHECKED, FidelityRow, counted_fidelity_rows
from runner.reporting.load import blocks, stage_part
from runner.reporting.log_scan import LogScan, Mark, scan_log
from runner.store.logs import TERMINAL
from runner.store.records import RenderRecord
from runner.store.sinks import RENDERS
from runner.store.tally import RenderStats, counted_render_stats

_FIELDS = ("schema", "key", "status", "skeleton", "family", "complexity", "renderer", "sample", "finished_at",
           "round", "checks", "reason", "audit")
_AS_JSON = ("round", "checks", "reason", "audit")   # kept as their JSON text (any type)
# a typed read's type of each field (else VARCHAR)
_TYPED = {**sql_types(RenderRecord, tuple(c for c in _FIELDS if c not in _AS_JSON)), **dict.fromkeys(_AS_JSON, "JSON")}
_TERMINAL = ", ".join(f"'{s}'" for s in TERMINAL)

# `round` as `not round` reads it in Python: missing, null, false, 0, 0.0, "", [] and {} are round 0.
_ROUND0 = """("round" IS NULL OR CASE json_type("round") WHEN 'NULL' THEN true
  WHEN 'BOOLEAN' THEN "round"::VARCHAR = 'false' WHEN 'VARCHAR' THEN "round"::VARCHAR = '""'
  WHEN 'ARRAY' THEN json_array_length("round") = 0 WHEN 'OBJECT' THEN len(json_keys("round")) = 0
  ELSE TRY_CAST("round"::VARCHAR AS DOUBLE) = 0 END)"""

TABLE = """CREATE TABLE rr (f INTEGER, whole BOOLEAN, schema HUGEINT, key VARCHAR, status VARCHAR, named VARCHAR,
  skeleton VARCHAR, sample BIGINT, done DOUBLE, r0 BOOLEAN, family VARCHAR, complexity BIGINT, checks VARCHAR,
  reason VARCHAR, audit VARCHAR, loose BOOLEAN)"""
# One log into `rr`, a row per line that parses (a torn or foreign one: a row of nulls, not `whole`). `whole`:
# RENDER_FIELDS of their types (else the line is skipped); the kept JSON fields as their JSON text; `loose`: a field
# a typed read would cast (columnar_sql's rule).
SCAN = f"""INSERT INTO rr SELECT $f,
  coalesce({_text('key')} AND {_text('status')} AND {_text('skeleton')} AND {_text('family')}
    AND {_int_ok('complexity')} AND {_text('renderer')} AND {_int_ok('sample')}, false),
  CASE WHEN {_int_ok('schema')} THEN TRY_CAST(schema AS HUGEINT) END,
  {_str('key')}, {_str('status')}, {_str('renderer')}, {_str('skeleton')}, {_int('sample')},
  CASE WHEN {_num_ok('finished_at')} THEN TRY_CAST(finished_at AS DOUBLE) ELSE 0.0 END, r0, {_str('family')},
  {_int('complexity')}, checks, reason, audit, {' OR '.join(_loose(c, _TYPED) for c in _FIELDS if c not in _AS_JSON)}
FROM (SELECT {', '.join(f'"{c}"::VARCHAR AS "{c}"' for c in _FIELDS if c != 'round')}, {_ROUND0} AS r0
      FROM read_ndjson($path, columns = {{{', '.join(f"'{c}': 'JSON'" for c in _FIELDS)}}}, ignore_errors = true,
                       maximum_object_size = $most))"""
# The same rows from the engine's typed read, for a log the exact scan found with no loose line and that has not
# changed since (columnar_sql.TYPED's reasoning): the kept JSON fields read as JSON in both.
TYPED = f"""INSERT INTO rr SELECT $f,
  key IS NOT NULL AND status IS NOT NULL AND skeleton IS NOT NULL AND family IS NOT NULL AND complexity IS NOT NULL
    AND renderer IS NOT NULL AND sample IS NOT NULL,
  schema, key, status, renderer, skeleton, sample, coalesce(finished_at, 0.0), r0, family, complexity,
  checks::VARCHAR, reason::VARCHAR, audit::VARCHAR, false
FROM (SELECT *, {_ROUND0} AS r0
      FROM read_ndjson($path, columns = {{{', '.join(f"'{c}': '{_TYPED.get(c, 'VARCHAR')}'" for c in _FIELDS)}}},
                       ignore_errors = true, maximum_object_size = $most))"""
RENDER_SCAN = LogScan("rr", SCAN, TYPED, ".report-renders-typed-", TABLE, ".report-renders-rows-")

# Each whole record's render stage: by the grid's planned keys (the stage the record names if its key is that
# stage's, else the first label of the stages making it: load.stage_part's rule); `rx`: those not planned (a sample
# beyond the grid's, a skeleton not in its source), matched in Python, one hash each. Even a record whose skeleton
# is not its run's: it may be the newest of a unit that another folder's run holds, and keep that one from counting.
LABELS = """CREATE TABLE rl AS SELECT r.rowid AS seq, coalesce(a.label, l.label) AS label
FROM rr r JOIN plan_r p ON p.f = r.f AND p.rkey = r.key AND p.skeleton = r.skeleton AND p.sample = r.sample
JOIN labels l ON l.f = p.f AND l.stage = 'render' AND l.part = p.part AND l.first
LEFT JOIN labels a ON a.f = p.f AND a.stage = 'render' AND a.part = p.part AND a.label = r.named
WHERE r.whole;
CREATE TABLE rx (f INTEGER, key VARCHAR, named VARCHAR, skeleton VARCHAR, sample BIGINT, label VARCHAR)"""
LEFT = """SELECT DISTINCT r.f, r.key, r.named, r.skeleton, r.sample FROM rr r ANTI JOIN rl ON rl.seq = r.rowid
WHERE r.whole"""
LEFT_IN = """INSERT INTO rl SELECT r.rowid, x.label FROM rr r JOIN rx x ON x.f = r.f AND x.key = r.key
  AND x.named = r.named AND x.skeleton = r.skeleton AND x.sample = r.sample WHERE r.whole"""
# The newest record of each unit (render key and stage: two stages naming one key are two units), a terminal one
# before an error, then the later finished_at, then the one read later; `first`: its newest terminal round-0
# status. Kept if its skeleton is its run's; counted by what the figures read of it (checks only where read).
FIGURES = f"""WITH w AS (SELECT arg_max(struct_pack(f := r.f, status := r.status, family := r.family,
    complexity := r.complexity, skeleton := r.skeleton, checks := r.checks, reason := r.reason, audit := r.audit),
    struct_pack(t := r.status IN ({_TERMINAL}), d := r.done, s := l.seq)) AS win,
  arg_max(r.status, struct_pack(d := r.done, s := l.seq)) FILTER (r.status IN ({_TERMINAL}) AND r.r0) AS first,
  l.label FROM rl l JOIN rr r ON r.rowid = l.seq GROUP BY r.key, l.label)
SELECT w.win.f, w.label, w.win.family, w.win.complexity, w.win.status, coalesce(w.first, w.win.status),
  CASE WHEN w.win.status IN ({', '.join(f"'{s}'" for s in CHECKED)}) THEN w.win.checks END,
  CASE WHEN w.win.status = 'unfaithful' THEN w.win.reason END,
  CASE WHEN starts_with(w.win.audit, '"') THEN w.win.audit END, count(*)
FROM w JOIN runs ON runs.f = w.win.f SEMI JOIN src ON src.run = runs.run AND src.skeleton = w.win.skeleton
GROUP BY ALL"""


@dataclass
class RenderFigures:
    """What the report makes of the render logs: the fidelity rows, the renders table's counts, and the solve units
    each group of renders kept from being sent: (run, renderer, solver, family, complexity, status, units)."""

    fidelity: list[FidelityRow] = field(default_factory=list)
    counts: dict[str, RenderStats] = field(default_factory=dict)
    blocked: list[tuple[str, str, str, str, int, str, int]] = field(default_factory=list)


def scan_render_logs(con: duckdb.DuckDBPyConnection, folders: list[Path]) -> tuple[dict[Path, int], list[Mark]]:
    """Every folder's render log into the engine's table `rr`, in order: the unreadable lines per log, and the marks
    to keep of those found well-typed. A record of another schema stops the report as the loader stops it (at the
    first, in the order of the logs)."""
    con.execute(TABLE)
    skipped: dict[Path, int] = {}
    marks = []
    for i, folder in enumerate(folders):
        got = scan_log(con, RENDER_SCAN, i, folder / RENDERS)
        if got is None:
            continue
        bad, mark = got
        if bad:
            skipped[folder / RENDERS] = bad
        if mark is not None:
            marks.append(mark)
    return skipped, marks


def render_figures(con: duckdb.DuckDBPyConnection, readers: list[Any]) -> RenderFigures:
    """The render figures of `rr`, once the grids' planned keys (`plan_r`, `labels`) and sources (`src`, `runs`) are
    in the engine; `readers`: each folder's `load._Reader` (its run, render and solve stages)."""
    for statement in LABELS.split(";"):
        con.execute(statement)
    left = [(f, key, named, skeleton, sample, part[2]) for f, key, named, skeleton, sample in con.execute(LEFT).fetchall()
            if (part := stage_part(readers[f].render_fp, named, skeleton, sample, key)) is not None]
    if left:
        con.executemany("INSERT INTO rx VALUES (?, ?, ?, ?, ?, ?)", left)
        con.execute(LEFT_IN)
    counted, blocked = [], []
    for f, label, family, complexity, status, first, checks, reason, audit, n in con.execute(FIGURES).fetchall():
        reader = readers[f]
        counted.append(({"run": reader.run, "renderer": label, "family": family, "complexity": complexity,
                         "status": status, "first": first, "checks": _value(checks), "reason": _value(reason),
                         "audit": _value(audit)}, n))
        if blocks(status, reader.render_fp[label][1]):
            blocked += [(reader.run, label, solver, family, complexity, status, n * stage.samples)
                        for solver, (_, stage, _) in reader.solve_fp.items()]
    return RenderFigures(counted_fidelity_rows(counted), counted_render_stats(counted), blocked)


def _value(text: str | None) -> object:
    """A kept field's value from its JSON text (None: the field is missing)."""
    return None if text is None else orjson.loads(text)
