"""A run's first report prepared by the run: at the end of a run that wrote to a big log, what that report would
make first and keep for the next (the plan, the logs' scanned columns and marks) is made and kept by the run, which
alone writes the folder while it holds it, so its first report reads them as a second report would."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

import duckdb

from runner.config import environment
from runner.errors import UserError
from runner.reporting import columnar_sql as sql
from runner.reporting import log_scan
from runner.reporting.columnar import SOLVE_SCAN
from runner.reporting.load import opened
from runner.reporting.log_scan import MARGIN, Mark, scan_log
from runner.reporting.planned import cached_plan
from runner.reporting.render_sql import scan_render_logs
from runner.store.sinks import RENDERS, SOLVES, log_sizes

LOGS = (RENDERS, SOLVES)


def worth_it(folder: Path) -> bool:
    """Whether a run that wrote to the logs should prepare their first report: they hold LSB_AHEAD_MIN bytes
    or more (below that the report's own scan takes a fraction of a second)."""
    return sum(log_sizes(folder)) >= environment.number("LSB_AHEAD_MIN")


def prepare(folder: Path) -> str | None:
    """Make and keep the run folder's plan and its logs' columns and marks, as its first report would: None when
    done, else why not (a record the report will refuse, the engine's or the file system's error, Ctrl-C). Call it
    only while holding the folder's run lock alone, with the logs closed."""
    marks: list[Mark] = []
    try:
        _, [grid] = opened([folder])
        with tempfile.TemporaryDirectory(prefix="bench-ahead-") as tmp:
            cached_plan(folder, grid, Path(tmp))
        _settle(folder)
        con = duckdb.connect(config={"preserve_insertion_order": True})
        try:
            con.execute("SET enable_progress_bar = false")
            con.execute(sql.RAW)
            got = scan_log(con, SOLVE_SCAN, 0, folder / SOLVES)
            marks += [got[1]] if got is not None and got[1] is not None else []
            marks += scan_render_logs(con, [folder])[1]
            log_scan.write_kept(con, marks)
        finally:
            con.close()
        log_scan.keep_marks(marks)
    except UserError as exc:   # a record of another schema: the report refuses it, and says so there
        return str(exc)
    except (duckdb.Error, OSError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    except KeyboardInterrupt:   # the run is done: Ctrl-C stops only this, and the run's closing lines still come
        return "interrupted"
    finally:
        log_scan.drop_unkept(marks)   # none left where they were named; a failure's, removed
    return None


def _settle(folder: Path) -> None:
    """Wait until the logs were last changed MARGIN ago: a log changed within it is neither kept nor marked (its
    next change could keep its times), and the run has only just written it (two seconds at most)."""
    for name in LOGS:
        try:
            st = (folder / name).stat()
        except OSError:
            continue
        wait = (max(st.st_mtime_ns, st.st_ctime_ns) + int(MARGIN * 1e9) - time.time_ns()) / 1e9 + 0.01
        if wait > 0:
            time.sleep(min(wait, MARGIN + 0.01))
