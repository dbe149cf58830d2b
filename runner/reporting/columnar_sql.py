"""The SQL of the columnar report: the solve logs scanned with the loader's type checks, their keys joined to the
grid's planned keys, the newest record of each unit kept, and the report's groups counted (DuckDB)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, get_type_hints

import duckdb

from runner.store.logs import TERMINAL, as_kinds, exact_types
from runner.store.records import SolveRecord

T = TypeVar("T")

# Where the engine reads a line otherwise than load.py (none of them a line bench writes; the property test keeps
# to the rest): a record without a `correct` field is read as `correct: null` (the loader skips it), an integer
# of 2**63 or more is not an integer here, an object with one field twice keeps the first (orjson the last), and
# a number beyond a double's range (1e400), or NaN or Infinity in a field the report does not read (or inside
# `thinking`), is read here and rejected by orjson (NaN or Infinity in a field it reads: the line is not whole).
# Every field the report reads, as raw JSON: its type is checked here exactly as the loader checks a parsed
# record (an integer is not a float, true is not an integer, a missing field and null are both absent).
FIELDS = ("schema", "key", "status", "render_key", "skeleton", "family", "complexity", "renderer", "solver",
          "render_sample", "sample", "correct", "latency_s", "prompt_tokens", "completion_tokens", "finished_at",
          "render_status", "thinking", "reason")

RAW = """CREATE TEMP TABLE raw (f INTEGER, whole BOOLEAN, placed BOOLEAN, schema HUGEINT, key VARCHAR, status VARCHAR,
  render_key VARCHAR, skeleton VARCHAR, renderer_named VARCHAR, solver_named VARCHAR, family VARCHAR,
  complexity BIGINT, render_sample BIGINT, sample BIGINT, correct BOOLEAN, latency_s DOUBLE, prompt_tokens BIGINT,
  completion_tokens BIGINT, finished_at DOUBLE, render_status VARCHAR, thinking BIGINT, cut BOOLEAN,
  thinking_from VARCHAR, reason VARCHAR, loose BOOLEAN)"""


# A field's JSON type, read off its JSON text as the engine writes it back (a string is quoted, a float always has
# a point or an exponent, true and false are words): string tests, not a parse of each value again.
def _text(c: str) -> str:
    return f"coalesce(starts_with({c}, '\"'), false)"


def _int_ok(c: str) -> str:
    return (f"coalesce(NOT contains({c}, '.') AND NOT contains({c}, 'e') AND NOT contains({c}, 'E') "
            f"AND TRY_CAST({c} AS BIGINT) IS NOT NULL, false)")


def _num_ok(c: str) -> str:
    return f"coalesce(NOT starts_with({c}, '\"') AND TRY_CAST({c} AS DOUBLE) IS NOT NULL, false)"


def _str(c: str) -> str:
    """The string a JSON string field holds (decoded by the engine only when it has an escape)."""
    return f"CASE WHEN contains({c}, '\\') THEN ({c}::JSON)->>'$' ELSE {c}[2:-2] END"


def _int(c: str) -> str:
    return f"CASE WHEN {_int_ok(c)} THEN TRY_CAST({c} AS BIGINT) END"


def sql_types(record: type, names: tuple[str, ...]) -> dict[str, str]:
    """The type a typed read gives each of `names` that is not a string (the others: VARCHAR), from the record
    type that writes them: its annotation's JSON type (a field of any JSON value, as `thinking`, is JSON)."""
    hints, out = get_type_hints(record), {}
    for name in names:
        if hints[name] is Any:
            out[name] = "JSON"
            continue
        exact = exact_types(hints[name])
        kinds = [SQL_TYPE[k] for k in as_kinds(exact) if k is not type(None)]
        if len(kinds) != 1:
            raise TypeError(f"{record.__name__}.{name}: one JSON type, not {hints[name]}")
        if kinds[0] != "VARCHAR":
            out[name] = kinds[0]
    return out


SQL_TYPE = {str: "VARCHAR", int: "BIGINT", float: "DOUBLE", bool: "BOOLEAN"}   # a JSON value's type, as the engine types it
_TYPES = sql_types(SolveRecord, FIELDS)


def _loose(c: str, types: dict[str, str] = _TYPES) -> str:
    """A field present (not null) that a typed read would cast (to its type in `types`): of another JSON type, or
    a number out of range."""
    if types.get(c) == "BIGINT":
        ok = _int_ok(c)
    elif types.get(c) == "BOOLEAN":
        ok = f"{c} IN ('true', 'false')"
    elif c in types:
        ok = f"coalesce({_num_ok(c)} AND isfinite(TRY_CAST({c} AS DOUBLE)), false)"
    else:
        ok = _text(c)
    return f"({c} IS NOT NULL AND {c} <> 'null' AND NOT {ok})"


def _nonfinite(c: str) -> str:
    """A field holding NaN or Infinity, which the engine's JSON reads (as written: 'NaN', 'nan', '-Infinity') and
    orjson refuses, skipping the line: the line is not whole here either."""
    return f"coalesce(lower({c}) IN ('nan', '-nan', 'infinity', '-infinity', 'inf', '-inf'), false)"


# A line with a field a typed read would cast (any field of the report's, as `_loose` says): only such a line can
# hold a NaN or Infinity the engine took (each is of no field's type), so only its fields are looked at for one
_LOOSE = f"({' OR '.join(_loose(c) for c in FIELDS if c != 'thinking')})"
_THOUGHT = "CASE WHEN starts_with(thinking, '{') THEN json_extract(thinking, ['$.tokens', '$.cut', '$.tokens_from']) END"
_TOKENS = "(th IS NOT NULL AND json_type(th[1]) IN ('BIGINT', 'UBIGINT') AND TRY_CAST(th[1] AS HUGEINT) >= 0)"

# One scan of one log: a row per line that parses (a blank line makes none; a torn or foreign one makes a row
# of nulls, which is not `whole`). `whole`: the fields every record must have, of their types (else the line is
# counted as skipped); `placed`: the fields that place it in a grid (else it is passed over, not counted).
SCAN = f"""INSERT INTO raw SELECT $f,
  {_text('key')} AND {_text('status')} AND {_text('renderer')} AND {_text('solver')} AND {_text('family')}
    AND {_int_ok('complexity')} AND (correct IS NULL OR correct IN ('true', 'false'))
    AND CASE WHEN {_LOOSE} THEN NOT ({' OR '.join(_nonfinite(c) for c in FIELDS if c != 'thinking')}) ELSE true END,
  {_text('skeleton')} AND {_text('render_key')} AND {_int_ok('render_sample')} AND {_int_ok('sample')},
  CASE WHEN {_int_ok('schema')} THEN TRY_CAST(schema AS HUGEINT) END,
  {_str('key')}, {_str('status')}, {_str('render_key')}, {_str('skeleton')}, {_str('renderer')}, {_str('solver')},
  {_str('family')}, {_int('complexity')}, {_int('render_sample')}, {_int('sample')}, correct = 'true',
  CASE WHEN {_num_ok('latency_s')} THEN TRY_CAST(latency_s AS DOUBLE) END,
  {_int('prompt_tokens')}, {_int('completion_tokens')},
  CASE WHEN {_num_ok('finished_at')} THEN TRY_CAST(finished_at AS DOUBLE) ELSE 0.0 END,
  CASE WHEN {_text('render_status')} THEN {_str('render_status')} ELSE 'ok' END,
  CASE WHEN {_TOKENS} THEN TRY_CAST(th[1] AS BIGINT) END,
  coalesce(th IS NOT NULL AND json_type(th[2]) = 'BOOLEAN' AND TRY_CAST(th[2] AS BOOLEAN), false),
  CASE WHEN th IS NULL THEN NULL
       WHEN {_TOKENS} AND json_type(th[3]) = 'VARCHAR' THEN th[3]->>'$' ELSE 'uncounted' END,
  CASE WHEN {_text('reason')} THEN {_str('reason')} END,
  {_LOOSE}
FROM (SELECT {', '.join(f"{c}::VARCHAR AS {c}" for c in FIELDS)}, {_THOUGHT} AS th
      FROM read_ndjson($path, columns = {{{', '.join(f"'{c}': 'JSON'" for c in FIELDS)}}}, ignore_errors = true,
                       maximum_object_size = $most))"""

# The same rows from the engine's typed read, for a log the exact scan found with no loose line (no field of
# another JSON type than its own, no integer beyond BIGINT, no number beyond a double) and that has not changed
# since: there the typed read's lenient casts ("5" as 5, 1.5 as 2, 5 as "5") have nothing to act on, and each
# value is the one the exact scan makes. `thinking` is read as JSON text in both.
TYPED = f"""INSERT INTO raw SELECT $f,
  key IS NOT NULL AND status IS NOT NULL AND renderer IS NOT NULL AND solver IS NOT NULL AND family IS NOT NULL
    AND complexity IS NOT NULL,
  skeleton IS NOT NULL AND render_key IS NOT NULL AND render_sample IS NOT NULL AND sample IS NOT NULL,
  schema, key, status, render_key, skeleton, renderer, solver, family, complexity, render_sample, sample, correct,
  latency_s, prompt_tokens, completion_tokens, coalesce(finished_at, 0.0), coalesce(render_status, 'ok'),
  CASE WHEN {_TOKENS} THEN TRY_CAST(th[1] AS BIGINT) END,
  coalesce(th IS NOT NULL AND json_type(th[2]) = 'BOOLEAN' AND TRY_CAST(th[2] AS BOOLEAN), false),
  CASE WHEN th IS NULL THEN NULL
       WHEN {_TOKENS} AND json_type(th[3]) = 'VARCHAR' THEN th[3]->>'$' ELSE 'uncounted' END,
  reason, false
FROM (SELECT * EXCLUDE (thinking), thinking::VARCHAR AS thinking, {_THOUGHT} AS th
      FROM read_ndjson($path, columns = {{{', '.join(f"'{c}': '{_TYPES.get(c, 'VARCHAR')}'" for c in FIELDS)}}},
                       ignore_errors = true, maximum_object_size = $most))"""

# The longest line a scan reads: FIRST_MOST, and where a log holds a longer one, LAST_MOST (the engine stops at a
# longer line with an error, it never skips one). The engine reads a log in buffers of this size, a buffer a
# thread: at 1 GiB a log under a GiB is read on one core (a million solve records: 1.44 s, against 0.73 s on two).
FIRST_MOST, LAST_MOST = 16 * 2**20, 2**30


def longest_lines(attempt: Callable[[int], T]) -> T:
    """`attempt(most)`, a reading of logs with lines of up to `most` bytes: with FIRST_MOST, and again with LAST_MOST
    where the engine stopped at a longer line. The attempt must leave nothing behind when it stops (an INSERT that
    stops inserts nothing; a fold starts from its own copy); a streamed scan meets the error as it fetches."""
    try:
        return attempt(FIRST_MOST)
    except duckdb.InvalidInputException as exc:
        if "maximum_object_size" not in str(exc):
            raise
        return attempt(LAST_MOST)


def run_scan(con: duckdb.DuckDBPyConnection, scan: str, params: dict) -> duckdb.DuckDBPyConnection:
    """Execute a scan inserting a log's rows (SCAN, TYPED), through longest_lines."""
    return longest_lines(lambda most: con.execute(scan, {**params, "most": most}))


# plan_r, labels, src and runs are tables of the database, not of a connection: the render logs' figures read them
# on a connection of their own (render_sql.py).
PLAN = """CREATE TABLE plan_r (f INTEGER, rkey VARCHAR, skeleton VARCHAR, sample BIGINT, part INTEGER);
CREATE TEMP TABLE plan_s (f INTEGER, key VARCHAR, rkey VARCHAR, sample BIGINT, part INTEGER);
CREATE TABLE labels (f INTEGER, stage VARCHAR, part INTEGER, label VARCHAR, first BOOLEAN);
CREATE TEMP TABLE rmatch (f INTEGER, render_key VARCHAR, renderer VARCHAR);
CREATE TEMP TABLE sextra (f INTEGER, key VARCHAR, render_key VARCHAR, sample BIGINT, solver_named VARCHAR,
                          solver VARCHAR);
CREATE TABLE src (run VARCHAR, skeleton VARCHAR);
CREATE TABLE runs (f INTEGER, run VARCHAR)"""

LOAD_PLAN_R = "INSERT INTO plan_r SELECT $f, rkey, skeleton, sample, part FROM read_parquet($path)"
LOAD_PLAN_S = "INSERT INTO plan_s SELECT $f, key, rkey, sample, part FROM read_parquet($path)"

# The loader checks a render key once per folder, with the first record that names it (its renderer, skeleton
# and sample): the renderer part whose key it is, the one the record names first (labels sharing one key).
RFIRST = """CREATE TEMP TABLE rfirst AS SELECT f, render_key, arg_min(renderer_named, rowid) AS named,
  arg_min(skeleton, rowid) AS skeleton, arg_min(render_sample, rowid) AS sample
FROM raw WHERE whole AND placed GROUP BY f, render_key"""
RMATCH = """INSERT INTO rmatch SELECT q.f, q.render_key, coalesce(a.label, l.label)
FROM rfirst q JOIN plan_r p ON p.f = q.f AND p.rkey = q.render_key AND p.skeleton = q.skeleton AND p.sample = q.sample
JOIN labels l ON l.f = p.f AND l.stage = 'render' AND l.part = p.part AND l.first
LEFT JOIN labels a ON a.f = p.f AND a.stage = 'render' AND a.part = p.part AND a.label = q.named"""
RLEFT = """SELECT q.f, q.render_key, q.named, q.skeleton, q.sample FROM rfirst q ANTI JOIN rmatch m
  ON m.f = q.f AND m.render_key = q.render_key"""
# The records of the grid's render keys, each with its planned solve part, joined once (NULL: its own key is
# not planned: checked in Python, one hash each); only the columns the fold and the key checks read.
JOINED = """CREATE TEMP TABLE j AS SELECT r.rowid AS seq, r.f, r.key, r.render_key, r.sample, r.solver_named, r.status,
  r.finished_at, rm.renderer, p.part
FROM raw r JOIN rmatch rm ON rm.f = r.f AND rm.render_key = r.render_key
LEFT JOIN plan_s p ON p.f = r.f AND p.key = r.key AND p.rkey = r.render_key AND p.sample = r.sample
WHERE r.whole AND r.placed"""
SLEFT = "SELECT DISTINCT f, key, render_key, sample, solver_named FROM j WHERE part IS NULL"

# The newest record of each unit (a terminal one beats an error; then the later finished_at; then the one
# read later), units apart by their cell's names as the loader keeps them; kept if its skeleton is its run's.
_TERMINAL = ", ".join(f"'{s}'" for s in TERMINAL)
# The keys with more than one record: only their units are folded; a unit of one record is its own newest (a run
# never resumed has none to fold: the fold was a fifth of the report at 1M records, the count of keys a tenth of it).
REDONE = "CREATE TEMP TABLE redone AS SELECT key FROM j GROUP BY key HAVING count(*) > 1"
_M = """WITH m AS (
  SELECT j.seq, j.f, j.key, j.status, j.finished_at, j.renderer, coalesce(a.label, l.label) AS solver FROM j
  JOIN labels l ON l.f = j.f AND l.stage = 'solve' AND l.part = j.part AND l.first
  LEFT JOIN labels a ON a.f = j.f AND a.stage = 'solve' AND a.part = j.part AND a.label = j.solver_named
  UNION ALL
  SELECT j.seq, j.f, j.key, j.status, j.finished_at, j.renderer, x.solver FROM j
  JOIN sextra x ON x.f = j.f AND x.key = j.key AND x.render_key = j.render_key AND x.sample = j.sample
    AND x.solver_named = j.solver_named
  WHERE j.part IS NULL)"""
_ONCE = "SELECT struct_pack(seq := seq, f := f) AS win, renderer, solver, seq AS first FROM m"
_FOLD = f"""SELECT arg_max(struct_pack(seq := seq, f := f), struct_pack(t := status IN ({_TERMINAL}), d := finished_at,
    s := seq)) AS win, renderer, solver, min(seq) AS first FROM m SEMI JOIN redone ON redone.key = m.key
  GROUP BY key, renderer, solver
  UNION ALL {_ONCE} ANTI JOIN redone ON redone.key = m.key"""
# The fold runs on the narrow columns of `j` that decide it; the winners' other fields are taken from `raw` by row.
_OUTCOMES = """{m}, w AS ({w})
SELECT runs.run, w.renderer, w.solver, r.family, r.complexity, r.skeleton, r.render_sample, r.sample, r.status,
  r.correct, r.render_status, r.latency_s, r.prompt_tokens, r.completion_tokens, r.finished_at, r.thinking,
  r.cut, r.thinking_from, r.reason, w.first
FROM w JOIN raw r ON r.rowid = w.win.seq JOIN runs ON runs.f = w.win.f SEMI JOIN src ON src.run = runs.run
  AND src.skeleton = r.skeleton"""


def outcomes_sql(redone: bool) -> str:
    """A query of each unit's newest record, an outcome's fields and `first` (the unit's first record, the
    outcomes' order): the units of the `redone` keys folded (where there are any)."""
    return _OUTCOMES.format(m=_M, w=_FOLD if redone else _ONCE)


def _at(values: str, q: float) -> str:
    """SQL: the q-quantile of a sorted list as `stats.percentile` takes it, in its very float arithmetic (the engine's
    quantile_cont interpolates otherwise: its last bit can differ): v[lo] + (v[hi] - v[lo]) * (pos - lo) at
    pos = q * (n - 1), lo = floor(pos), hi = min(lo + 1, n - 1); NULL for an empty list."""
    n, pos = f"len({values})", f"{q!r}::DOUBLE * (len({values}) - 1)"   # a double, as Python's (a literal is a DECIMAL)
    lo = f"floor({pos})::BIGINT + 1"   # lists count from 1
    return (f"CASE WHEN {n} > 0 THEN {values}[{lo}] + ({values}[least({lo} + 1, {n})] - {values}[{lo}]) "
            f"* ({pos} - floor({pos})) END")


# The outcomes counted once, at the finest grain any figure is taken at: per cell, family, complexity, render status,
# status and correctness, each grain's count, its answers' latencies, tokens, thoughts and their sources. The tallies,
# the cells' quantiles and the `--by` counts are sums of grains (a few thousand rows), not three passes over a million
# outcomes kept in a table (making that table was most of its cost). Every filter is a row's own, so a grain's
# filtered sums add up to the group's.
_ANSWERED = ("status <> 'error' AND prompt_tokens IS NOT NULL AND completion_tokens IS NOT NULL "
             "AND (prompt_tokens <> 0 OR completion_tokens <> 0)")
_GRAINS = f"""CREATE TEMP TABLE g AS WITH o AS ({{outcomes}})
SELECT run, renderer, solver, family, complexity, render_status, status, correct, count(*) AS n,
  list(latency_s) FILTER (latency_s IS NOT NULL AND status <> 'error') AS latency,
  sum(prompt_tokens) FILTER ({_ANSWERED}) AS pt, sum(completion_tokens) FILTER ({_ANSWERED}) AS ct,
  count(*) FILTER ({_ANSWERED}) AS answered,
  list(thinking) FILTER (NOT cut AND thinking IS NOT NULL AND status <> 'error') AS thoughts,
  count(*) FILTER (cut) AS cut, list(DISTINCT thinking_from) FILTER (thinking_from IS NOT NULL) AS sources,
  count(*) FILTER (thinking IS NOT NULL) AS thought
FROM o GROUP BY ALL"""


def grains_sql(outcomes: str) -> str:
    """The table `g` of the outcomes that query `outcomes` gives (outcomes_sql), counted at the finest grain."""
    return _GRAINS.format(outcomes=outcomes)


def _merged(values: str) -> str:
    """SQL: the grains' lists of `values` in one sorted list (an empty one where no grain has any)."""
    return f"coalesce(list_sort(flatten(list({values}) FILTER ({values} IS NOT NULL))), [])"


# The answers' latencies sorted, and their p50 and p95 once the list is made (no list leaves the engine)
_QUANTILES = f"[{_at('latency', 0.5)}, {_at('latency', 0.95)}]"
# Per cell (run, renderer, solver), over all its families and complexities: the problems table's p50 and p95
CELL_QUANTILES = (f"SELECT run, renderer, solver, {_QUANTILES} FROM (SELECT run, renderer, solver, "
                  f"{_merged('latency')} AS latency FROM g GROUP BY ALL)")


def _count(where: str) -> str:
    """SQL: the outcomes of the grains where `where` holds (0 where none)."""
    return f"coalesce(sum(n) FILTER ({where}), 0)"


def tallies_sql(pool_renders: bool) -> str:
    """Per (run, renderer, solver, family, complexity), from the grains: what Tally.add_outcome counts, the p50 and
    p95 of the latencies, and the thoughts whose percentiles the report takes (as lists: Python takes them)."""
    rs = "'ok'" if pool_renders else "render_status"
    sent = f"status = 'ok' AND {rs} NOT IN ('unchecked', 'unfaithful')"
    return f"""SELECT * REPLACE ({_QUANTILES} AS latency) FROM (SELECT run, renderer, solver, family, complexity,
  {_count(sent)}, {_count(f"{sent} AND correct")}, {_count("status = 'invalid'")}, {_count("status = 'error'")},
  {_count(f"status = 'ok' AND {rs} = 'unchecked'")}, {_count(f"status = 'ok' AND {rs} = 'unchecked' AND correct")},
  {_count(f"status = 'ok' AND {rs} = 'unfaithful'")}, {_count(f"status = 'ok' AND {rs} = 'unfaithful' AND correct")},
  {_count("status NOT IN ('ok', 'invalid', 'error')")},
  {_merged('latency')} AS latency, coalesce(sum(pt), 0), coalesce(sum(ct), 0), sum(answered), {_merged('thoughts')},
  sum(cut), coalesce(list_distinct(flatten(list(sources) FILTER (sources IS NOT NULL))), [])
FROM g GROUP BY ALL)"""


def grouped_sql(by: tuple[str, ...]) -> str:
    """The counts `files.grouped` makes the `--by` table (report.csv) of: per group, render status, status, correct."""
    return f"SELECT {', '.join(by)}, render_status, status, correct, sum(n) FROM g GROUP BY ALL"


# Whether any outcome holds a thought (then a thinking solver's outcomes are fetched one by one)
THOUGHTS = "SELECT coalesce(sum(thought), 0) FROM g"


def outcome_rows(outcomes: str, where: str) -> str:
    """The outcomes of query `outcomes` where `where` holds (all where it is empty), in the order of their units'
    first records, as Outcome's fields."""
    return f"WITH o AS ({outcomes}) SELECT * EXCLUDE (first) FROM o {where} ORDER BY first"
