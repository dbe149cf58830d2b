"""The grid page's figures before the whole snapshot is read: one DuckDB pass over the columns the grid needs
(newest record of each key wins, as `bench report` rules), each renderer's and each renderer x solver group's
keys checked against the grid on a sample. DuckDB, not polars: 2 to 3x faster on these logs (a million records,
two cores), and the grouping, counts and joins stay in SQL. Preliminary: the whole snapshot (the report's own loader, which
also checks each skeleton against the grid's source and knows each family's chance level) replaces it.

Why a sample of the solve keys: a key that its grid does not make comes from a changed stage setting (a model,
prompt or sampling), and then every record of that stage has one; 64 records of a group find it, and a group
whose sample is not all of one stage is checked record by record."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import duckdb

from runner.config.grid import Grid
from runner.intervals import wilson
from runner.plan.units import UnitPlan
from runner.reporting.columnar_sql import SQL_TYPE, longest_lines
from runner.reporting.fidelity import FidelityRow
from runner.reporting.load import key_parts, stage_part
from runner.reporting.stats import SummaryRow
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, TERMINAL, check_log_files
from runner.store.sinks import RENDERS, SOLVES

SAMPLE = 64   # solve records checked per renderer x solver group (all of a group that is not of one stage)
PROBE = 64    # one solve key in this many keeps what its key is made of, for the checks
_TERM = "(" + ", ".join(f"'{s}'" for s in TERMINAL) + ")"


def _columns(fields: dict[str, type | tuple[type, ...]]) -> dict[str, str]:
    """The fields every reader requires of a record (store/logs.py: the record types' own) of one JSON type, as the
    typed read's columns; `correct` (true, false or null) is read loose."""
    return {k: SQL_TYPE[t] for k, t in fields.items() if isinstance(t, type)}


_STRICT_R, _STRICT_S = _columns(RENDER_FIELDS), _columns(SOLVE_FIELDS)
# loose fields: the report reads a value of another type as absent, so they are read as JSON and judged here
_LOOSE_R = {"finished_at": "JSON", "round": "JSON", "checks": "JSON"}
_LOOSE_S = {"finished_at": "JSON", "correct": "JSON", "render_status": "JSON"}
_AT = "CASE WHEN json_type(finished_at) IN ('DOUBLE', 'BIGINT', 'UBIGINT') THEN finished_at::DOUBLE ELSE 0 END"
_CELL = """count(*) FILTER (status = 'ok' AND rs NOT IN ('unchecked', 'unfaithful')) AS ok,
  count(*) FILTER (status = 'ok' AND rs NOT IN ('unchecked', 'unfaithful') AND won) AS correct,
  count(*) FILTER (status = 'invalid') AS invalid, count(*) FILTER (status = 'error') AS error,
  count(*) FILTER (status = 'ok' AND rs = 'unchecked') AS unchecked,
  count(*) FILTER (status = 'ok' AND rs = 'unchecked' AND won) AS unchecked_correct,
  count(*) FILTER (status = 'ok' AND rs = 'unfaithful') AS sent_unfaithful,
  count(*) FILTER (status = 'ok' AND rs = 'unfaithful' AND won) AS sent_unfaithful_correct"""
COUNTS = ("ok", "correct", "invalid", "error", "unchecked", "unchecked_correct", "sent_unfaithful",
          "sent_unfaithful_correct", "unfaithful", "render_failed")


@dataclass
class Quick:
    """What the grid page shows, read fast: the summary rows (counts only), the fidelity rows, each renderer's
    renders by verdict, the grids."""

    grids: dict[str, Grid]
    rows: list[SummaryRow]
    fidelity: list[FidelityRow]
    verdicts: dict[tuple[str, str], Counter] = field(default_factory=dict)   # (run, renderer) -> renders by verdict
    families: dict[str, set[str]] = field(default_factory=dict)              # run -> the families of its renders


class _Folder:
    """One folder's grid as the keys check needs it: label -> (key function, stage)."""

    def __init__(self, folder: Path):
        self.path = folder
        self.grid = Grid.saved(folder)
        plan = UnitPlan(self.grid)
        self.render_fp, self.solve_fp = key_parts(plan.render_parts), key_parts(plan.solve_parts)


def _match(parts: dict, label: str, of: str, sample: int, key: str) -> str | None:
    """The label of the stage whose key function makes `key` (the report's rule: `stage_part`)."""
    part = stage_part(parts, label, of, sample, key)
    return None if part is None else part[2]


def _scan(files: list[str], strict: dict, loose: dict, most: int) -> str:
    """The SQL of a log's usable records (strict fields present and of their type, torn lines left out), each with
    its folder, its `finished_at` as the report reads it, and its place in the reading order; `most`: the longest
    line the engine reads (see columnar_sql.longest_lines)."""
    columns = {**strict, **loose}
    spec = "{" + ", ".join(f"'{k}': '{v}'" for k, v in columns.items()) + "}"
    listed = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"
    present = " AND ".join(f'"{k}" IS NOT NULL' for k in strict)
    return (f"SELECT *, {_AT} AS done, row_number() OVER () AS n FROM read_json({listed}, "
            f"format = 'newline_delimited', columns = {spec}, ignore_errors = true, filename = 'file', "
            f"maximum_object_size = {int(most)}) "
            f"WHERE {present}")


def _render_winners(con: duckdb.DuckDBPyConnection, folders: list[_Folder], most: int) -> None:
    """Table `rw`: each render key's newest record (as `_winners`), its check's reason codes, and `first`: the
    status of its newest terminal round-0 record (a record before repair has no round)."""
    scan = _scan([str(f.path / RENDERS) for f in folders], _STRICT_R, _LOOSE_R, most)
    con.execute(f"""CREATE TEMP TABLE rw AS SELECT key, r.*, first FROM (SELECT key, max_by(struct_pack(file,
        status, renderer, skeleton, family, complexity, sample, codes), struct_pack(t := status IN {_TERM}, done, n)) AS r,
        max_by(status, struct_pack(done, n)) FILTER (status IN {_TERM} AND r0) AS first FROM (SELECT *,
        "round" IS NULL OR "round"::VARCHAR IN ('0', '0.0', 'null', 'false', '""', '[]', '{{}}') AS r0,
        CASE WHEN json_type(checks) = 'ARRAY' THEN list_transform(checks->>'$[*]', lambda x: split_part(x, ':', 1))
        ELSE []::VARCHAR[] END AS codes FROM ({scan})) GROUP BY key)""")


def _render_labels(con: duckdb.DuckDBPyConnection, folders: list[_Folder]) -> None:
    """Table `rm`: each render group's (file, renderer) -> the grid's label, checked on a sample of its keys; `rk`:
    key -> label for groups not of one stage, record by record (NULL: not this grid's)."""
    by_file = {str(f.path / RENDERS): f for f in folders}
    sample = con.sql(f"""SELECT file, renderer, skeleton, sample, key FROM (SELECT *, row_number() OVER
        (PARTITION BY file, renderer ORDER BY hash(key)) AS i FROM rw) WHERE i <= {SAMPLE}""").fetchall()
    groups: dict[tuple, set] = defaultdict(set)
    for file, renderer, skeleton, n, key in sample:
        groups[(file, renderer)].add(_match(by_file[file].render_fp, renderer, skeleton, n, key))
    keyed = []
    for file, renderer in (g for g, got in groups.items() if len(got) > 1):
        rows = con.execute("SELECT skeleton, sample, key FROM rw WHERE file = ? AND renderer = ?", [file, renderer])
        keyed += [(key, _match(by_file[file].render_fp, renderer, sk, n, key)) for sk, n, key in rows.fetchall()]
    _table(con, "rm (file VARCHAR, renderer VARCHAR, r VARCHAR)",
           [(*g, next(iter(got))) for g, got in groups.items() if len(got) == 1])
    _table(con, "rk (key VARCHAR, r VARCHAR)", keyed)


def _table(con: duckdb.DuckDBPyConnection, spec: str, rows: list[tuple]) -> None:
    con.execute(f"CREATE TEMP TABLE {spec}")
    if rows:
        con.executemany(f"INSERT INTO {spec.split()[0]} VALUES ({', '.join('?' * len(rows[0]))})", rows)


_VERDICT = """CASE WHEN status = 'ok' THEN 'faithful' WHEN status = 'unfaithful' THEN CASE WHEN
    list_contains(codes, 'misread') THEN 'misread' WHEN list_contains(codes, 'unread') THEN 'unread' ELSE 'unfaithful'
    END WHEN status IN ('unchecked', 'invalid') THEN status ELSE 'error' END"""
_FIDELITY = """count(*) FILTER (status IN ('ok', 'unfaithful')), count(*) FILTER (status IN ('ok', 'unfaithful')
    AND coalesce(first, status) = 'ok'), count(*) FILTER (status = 'ok'),
    count(*) FILTER (status = 'unfaithful' AND list_contains(codes, 'misread')),
    count(*) FILTER (status = 'unfaithful' AND list_contains(codes, 'unread') AND NOT list_contains(codes, 'misread')),
    count(*) FILTER (status = 'ok' AND list_contains(codes, 'unread'))"""


def _render_figures(con: duckdb.DuckDBPyConnection, runs: dict[str, _Folder], quick: "Quick") -> list[tuple]:
    """Fill the fidelity rows, verdicts and families of `quick`; the (folder, label, family, complexity, status,
    n) of the renders that kept their solves from being sent."""
    labelled = "(SELECT *, coalesce(rk.r, rm.r) AS label FROM rw LEFT JOIN rm USING (file, renderer) LEFT JOIN rk " \
               "USING (key) WHERE coalesce(rk.r, rm.r) IS NOT NULL)"
    fid = con.sql(f"SELECT file, label, family, complexity, {_FIDELITY} FROM {labelled} WHERE status IN "
                  "('ok', 'unfaithful') GROUP BY ALL").fetchall()
    summed: dict[tuple, list[int]] = {}   # several folders of one run: one row
    for file, label, family, complexity, *counts in fid:
        acc = summed.setdefault((runs[file].grid.name, label, family, complexity), [0] * len(counts))
        acc[:] = [a + b for a, b in zip(acc, counts)]
    quick.fidelity = [FidelityRow(*key, *counts) for key, counts in sorted(summed.items())]
    for file, label, verdict, n in con.sql(f"SELECT file, label, {_VERDICT}, count(*) FROM {labelled} GROUP BY ALL").fetchall():
        quick.verdicts.setdefault((runs[file].grid.name, label), Counter())[verdict] += n
    for file, family in con.sql(f"SELECT DISTINCT file, family FROM {labelled}").fetchall():
        quick.families.setdefault(runs[file].grid.name, set()).add(family)
    return con.sql(f"SELECT file, label, family, complexity, status, count(*) FROM {labelled} WHERE status IN "
                   "('unfaithful', 'invalid') GROUP BY ALL").fetchall()


def _winners(con: duckdb.DuckDBPyConnection, folders: list[_Folder], most: int) -> str:
    """Table `w`: each solve key's newest record (terminal before error, then the later `finished_at`, then the
    later line), as the report picks it, with its folder's place (`fi`) and, for one key in PROBE, what its keys
    are made of (`probe`); the SQL of the scan, for the groups whose probes do not settle them."""
    files = [str(f.path / SOLVES) for f in folders]
    scan = _scan(files, _STRICT_S, _LOOSE_S, most)
    place = "CASE file " + " ".join(f"WHEN '{f.replace(chr(39), chr(39) * 2)}' THEN {i}" for i, f in enumerate(files)) + " END"
    # grouped by the key's 64-bit hash, the long strings kept for the probes only: on a million records, half
    # the time and memory of the keys themselves (two keys of one hash: one chance in 10^7 at a million keys)
    con.execute(f"""CREATE TEMP TABLE w AS SELECT h, r.* FROM (SELECT hash(key) AS h, arg_max(struct_pack(fi := {place},
        status, renderer, solver, family, complexity, won := correct::VARCHAR = 'true',
        rs := CASE WHEN json_type(render_status) = 'VARCHAR' THEN render_status->>'$' ELSE 'ok' END,
        probe := CASE WHEN hash(key) % {PROBE} = 0 THEN struct_pack(key, skeleton, render_key, render_sample, sample) END),
        struct_pack(t := status IN {_TERM}, done, n)) AS r
        FROM ({scan}) WHERE correct IS NULL OR json_type(correct) IN ('BOOLEAN', 'NULL') GROUP BY h)""")
    return scan


def _labels(con: duckdb.DuckDBPyConnection, folders: list[_Folder], scan: str) -> None:
    """Table `m`: each winner group's (folder, renderer, solver) -> the grid's labels, checked on its probes;
    table `k`: key -> labels, record by record, for the groups with no probe or probes of several stages
    (NULL: not this grid's)."""
    probes = con.sql("SELECT fi, renderer, solver, probe.skeleton, probe.render_sample, probe.render_key, "
                     "probe.sample, probe.key FROM w WHERE probe IS NOT NULL").fetchall()
    groups: dict[tuple, set] = {g: set() for g in con.sql("SELECT DISTINCT fi, renderer, solver FROM w").fetchall()}
    seen: dict[tuple, int] = defaultdict(int)
    for fi, renderer, solver, skeleton, rs, rkey, n, key in probes:
        if seen[(fi, renderer, solver)] < SAMPLE:
            seen[(fi, renderer, solver)] += 1
            groups[(fi, renderer, solver)].add(_check(folders[fi], renderer, solver, skeleton, rs, rkey, n, key))
    unsettled = [g for g, got in groups.items() if len(got) != 1]
    keyed: dict[str, tuple] = {}
    if unsettled:   # record by record: one more reading of the logs, of these groups' records
        files = [str(f.path / SOLVES) for f in folders]
        which = " OR ".join(f"(file = '{files[fi].replace(chr(39), chr(39) * 2)}' AND renderer = ? AND solver = ?)"
                            for fi, _, _ in unsettled)
        rows = con.execute(f"SELECT file, renderer, solver, skeleton, render_sample, render_key, sample, key FROM "
                           f"({scan}) WHERE {which}", [x for _, r, s in unsettled for x in (r, s)]).fetchall()
        for file, renderer, solver, sk, rs, rkey, n, key in rows:
            keyed[key] = (key, *_check(folders[files.index(file)], renderer, solver, sk, rs, rkey, n, key))
    _table(con, "m (fi INTEGER, renderer VARCHAR, solver VARCHAR, r VARCHAR, s VARCHAR)",
           [(*g, *next(iter(got))) for g, got in groups.items() if len(got) == 1])
    _table(con, "k0 (key VARCHAR, r VARCHAR, s VARCHAR)", list(keyed.values()))
    con.execute("CREATE TEMP TABLE k AS SELECT hash(key) AS h, r, s FROM k0")


def _check(folder: _Folder, renderer: str, solver: str, skeleton: str, rs: int, rkey: str, sample: int,
           key: str) -> tuple[str | None, str | None]:
    """(renderer label, solver label) of the grid stages that make this record's render key and key."""
    r = _match(folder.render_fp, renderer, skeleton, rs, rkey)
    s = _match(folder.solve_fp, solver, rkey, sample, key)
    return (r, s) if r is not None and s is not None else (None, None)


def _cells(con: duckdb.DuckDBPyConnection, run_of: Callable[[int], str]) -> dict[tuple, dict[str, int]]:
    """(run, renderer, solver, family, complexity) -> the counts of its winners, by the grid's labels."""
    out: dict[tuple, dict[str, int]] = {}
    got = con.sql(f"""SELECT w.fi, coalesce(k.r, m.r) AS rl, coalesce(k.s, m.s) AS sl, family, complexity, {_CELL}
        FROM w LEFT JOIN m USING (fi, renderer, solver) LEFT JOIN k USING (h)
        WHERE coalesce(k.r, m.r) IS NOT NULL GROUP BY ALL""").fetchall()
    for fi, rl, sl, family, complexity, *counts in got:
        cell = out.setdefault((run_of(fi), rl, sl, family, complexity), dict.fromkeys(COUNTS, 0))
        for name, n in zip(COUNTS, counts):
            cell[name] += n
    return out


def _blocked(blocked: list[tuple], runs: dict[str, _Folder], cells: dict[tuple, dict[str, int]]) -> None:
    """The solve units a render kept from being sent (unfaithful, invalid), per solver and solve sample."""
    for file, label, family, complexity, status, n in blocked:
        folder = runs[file]
        if status == "unfaithful" and folder.render_fp[label][1].send_unfaithful:
            continue
        for solver, (_, sst, _) in folder.solve_fp.items():
            cell = cells.setdefault((folder.grid.name, label, solver, family, complexity), dict.fromkeys(COUNTS, 0))
            cell["unfaithful" if status == "unfaithful" else "render_failed"] += n * sst.samples


def quick(paths: list[Path]) -> Quick:
    """The grid page's figures of these run folders, preliminary (see the module's note)."""
    folders = [_Folder(p) for p in paths]
    for f in folders:
        check_log_files(f.path)
    return longest_lines(partial(_quick, folders))


def _quick(folders: list[_Folder], most: int) -> Quick:
    """The body of quick: the figures read with lines of up to `most` bytes."""
    got = Quick({f.grid.name: f.grid for f in reversed(folders)}, [], [])
    con = duckdb.connect(config={"threads": 2, "preserve_insertion_order": True})
    con.execute("SET enable_progress_bar = false")   # a server's terminal is no place for it
    try:
        _render_winners(con, folders, most)
        _render_labels(con, folders)
        blocked = _render_figures(con, {str(f.path / RENDERS): f for f in folders}, got)
        _labels(con, folders, _winners(con, folders, most))
        cells = _cells(con, lambda fi: folders[fi].grid.name)
    finally:
        con.close()
    _blocked(blocked, {str(f.path / RENDERS): f for f in folders}, cells)
    got.rows = _rows(cells, got.fidelity)
    return got


def _rows(cells: dict[tuple, dict[str, int]], fidelity: list[FidelityRow]) -> list[SummaryRow]:
    """Summary rows of the counts (latencies, tokens, thoughts and chance are the whole snapshot's)."""
    fid = {(f.run, f.renderer, f.family, f.complexity): f for f in fidelity}
    rows = []
    for (run, renderer, solver, family, complexity), c in sorted(cells.items()):
        f = fid.get((run, renderer, family, complexity))
        lo, hi = wilson(c["correct"], c["ok"])
        rows.append(SummaryRow(
            run=run, renderer=renderer, solver=solver, family=family, complexity=complexity, n=c["ok"], correct=c["correct"], accuracy=round(c["correct"] / c["ok"], 4) if c["ok"] else None,
            ci95_low=None if lo is None else round(lo, 4), ci95_high=None if hi is None else round(hi, 4),
            chance=None, invalid=c["invalid"], errors=c["error"], unfaithful=c["unfaithful"],
            render_failed=c["render_failed"], unchecked_n=c["unchecked"], unchecked_correct=c["unchecked_correct"],
            sent_unfaithful_n=c["sent_unfaithful"], sent_unfaithful_correct=c["sent_unfaithful_correct"],
            latency_p50_s=None, latency_p95_s=None, prompt_tokens_mean=None, completion_tokens_mean=None,
            renders=f.renders if f else 0, faithful_renders_first_try=f.faithful_first_try if f else 0,
            faithful_renders=f.faithful if f else 0))
    return rows
