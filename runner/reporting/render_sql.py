"""The render logs read by the engine for the columnar report: each line's fields and their JSON types checked in
DuckDB (as load.py checks a parsed record), then the newest record of each unit kept in Python on the narrow rows,
by load.py's rules, so that `read_render_logs` gives what `load._render_logs` gives."""
from __future__ import annotations

from collections import defaultdict
from functools import partial
from pathlib import Path

import duckdb
import orjson

from runner.config.grid import Grid
from runner.errors import UserError
from runner.plan.units import UnitPlan
from runner.reporting.columnar_sql import _int, _int_ok, _num_ok, _str, _text, longest_lines
from runner.reporting.load import RENDER_KEEP, key_parts, refuse_schema, renderer_key, stage_part
from runner.store.logs import TERMINAL, newer
from runner.store.records import SCHEMA
from runner.store.sinks import RENDERS

_FIELDS = ("schema", "key", "status", "skeleton", "family", "complexity", "renderer", "sample", "finished_at",
           "round", *(k for k in RENDER_KEEP if k not in ("key", "status", "skeleton", "family", "complexity",
                                                          "renderer", "round")))
# `whole`: RENDER_FIELDS of their types (else the line is skipped); a torn or foreign line is a row of nulls.
SCAN = f"""SELECT
  coalesce({_text('key')} AND {_text('status')} AND {_text('skeleton')} AND {_text('family')}
    AND {_int_ok('complexity')} AND {_text('renderer')} AND {_int_ok('sample')}, false),
  CASE WHEN {_int_ok('schema')} THEN TRY_CAST(schema AS HUGEINT)::VARCHAR END,
  {_str('key')}, {_str('status')}, {_str('renderer')}, {_str('skeleton')}, {_int('sample')},
  CASE WHEN {_num_ok('finished_at')} THEN finished_at END, round, {_str('family')}, {_int('complexity')}, checks, reason,
  audit
FROM (SELECT {', '.join(f"{c}::VARCHAR AS {c}" for c in _FIELDS)}
      FROM read_ndjson($path, columns = {{{', '.join(f"'{c}': 'JSON'" for c in _FIELDS)}}}, ignore_errors = true,
                       maximum_object_size = $most))"""


_BATCH = 20_000


def read_render_logs(con: duckdb.DuckDBPyConnection, folders: list[Path], grids: list[Grid]) -> tuple[dict, dict, dict]:
    """Every folder's render records as `load._render_logs` gives them: (key -> (folder's index, its best record),
    key -> its first try's (status, finished_at), unreadable lines per log)."""
    best: dict[str, tuple[int, dict]] = {}
    first: dict[str, tuple[str, float]] = {}
    skipped: dict[Path, int] = defaultdict(int)
    for i, (folder, grid) in enumerate(zip(folders, grids)):
        path = folder / RENDERS
        try:
            open(path, "rb").close()
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:   # unreadable (permissions, I/O): one line, as run and status say it
            raise UserError(f"log {path}: cannot read it ({exc.strerror})") from None
        if path.stat().st_size:
            n, best, first = longest_lines(partial(_read, con, i, key_parts(UnitPlan(grid).render_parts), path,
                                                   best, first))
            if n:
                skipped[path] += n
    return best, first, dict(skipped)


def _read(con: duckdb.DuckDBPyConnection, i: int, parts: dict, path: Path, best: dict, first: dict,
          most: int) -> tuple[int, dict, dict]:
    """One render log folded into copies of `best` and `first` (a reading stopped at a long line leaves them as
    they were), with lines of up to `most` bytes: the number of lines skipped, and the copies."""
    best, first = dict(best), dict(first)
    result, skipped = con.execute(SCAN, {"path": str(path), "most": most}), 0
    # in batches, in the order of the lines: the rows (each with its kept fields' text) are not all held
    while rows := result.fetchmany(_BATCH):
        skipped += _fold(i, parts, rows, path, best, first)
    return skipped, best, first


def _fold(i: int, render_fp: dict, rows: list[tuple], path: Path, best: dict, first: dict) -> int:
    """One log's rows into `best` and `first`, in the order of its lines, as `_Reader.renders` folds them; the
    number of lines skipped."""
    skipped, get_best, loads, fresh = 0, best.get, orjson.loads, {}
    falsy = {None: True}   # a round's JSON text -> whether it is round 0 (`not round`): a few distinct texts
    for whole, schema, key, status, renderer, skeleton, sample, done, rnd, family, complexity, checks, why, audit in rows:
        if not whole:
            skipped += 1
            continue
        if schema is not None and schema != str(SCHEMA):
            refuse_schema(int(schema), path)
        part = stage_part(render_fp, renderer, skeleton, sample, key)
        if part is None:
            continue
        kept, old = renderer_key(get_best, key, part[2])   # the key it is kept under (two renderers apart)
        done_at = fresh.get(done) if done in fresh else fresh.setdefault(done, _number(done))
        if old is None or newer(old[1]["status"], old[1]["finished_at"], status, done_at):
            # RENDER_KEEP's fields (the JSON ones as JSON text: a missing field is null), in its order
            best[kept] = (i, {"key": key, "status": status, "renderer": part[2], "family": family,
                             "complexity": complexity, "skeleton": skeleton, "checks": _value(checks),
                             "reason": _value(why), "audit": _value(audit), "round": _value(rnd),
                             "finished_at": done_at})
        if status in TERMINAL and (falsy[rnd] if rnd in falsy else falsy.setdefault(rnd, not loads(rnd))) and (kept not in first or done_at >= first[kept][1]):
            first[kept] = (status, done_at)   # round 0 (records before repair have none)
    return skipped


def _value(text: str | None) -> object:
    """A kept field's value from its JSON text (None: the field is missing)."""
    return None if text is None or text == "null" else orjson.loads(text)


def _number(text: str | None) -> int | float:
    """A record's `finished_at` as the loader takes it: its number (an integer stays one), else 0.0."""
    value = orjson.loads(text) if text is not None else 0.0
    return value if type(value) in (int, float) else 0.0
