"""What the logs already hold of a grid's units: which are done, and their counts, without sending anything."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TypeGuard

from runner.config.grid import Grid, Stage
from runner.engine.result import RunResult
from runner.fidelity.judge import PROCEED
from runner.plan.units import RenderUnit, UnitPlan, cell, skeletons
from runner.store.index import Entry, Index, load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, TERMINAL, Terminal, best_records
from runner.store.records import SentRenderStatus
from runner.store.sinks import RENDERS, SOLVES
from runner.store.tally import CellStats, RenderStats


def goes_to_solvers(render_status: str, stage: Stage) -> TypeGuard[SentRenderStatus]:
    """Whether a render's text is sent to the solvers: faithful or unchecked, or unfaithful if the grid asks."""
    return render_status in PROCEED or (render_status == "unfaithful" and stage.send_unfaithful)


def unit_done(unit: RenderUnit, renders: Index, solves: Index) -> bool:
    """Whether a render unit and all its solve units are settled in the logs, so a run would send nothing
    for it. An unfaithful render of a repairing renderer is not (its record says if rounds are left)."""
    r = renders.get(unit.key)
    if r is None or r.status not in TERMINAL or (r.status == "unfaithful" and unit.stage.repair):
        return False
    if not goes_to_solvers(r.status, unit.stage):
        return True
    return all((s := solves.get(su.key)) is not None and s.status in TERMINAL for su in unit.solves)


def count_unit(cells: dict[tuple[str, str], CellStats], unit: RenderUnit, renders: Index, solves: Index) -> Terminal | None:
    """Count a render unit's solve units into `cells` as the logs hold them, as a run counts them; the
    render's terminal status, None if it has none."""
    r: Entry | None = renders.get(unit.key)
    rstatus = r.status if r is not None and r.status in TERMINAL else None
    for su in unit.solves:
        st = cells[cell(unit.stage, su.stage)]
        s = solves.get(su.key)
        if s is not None and s.status in TERMINAL:
            st.add(s.status, s.correct, rstatus or "ok")
        elif rstatus is not None and not goes_to_solvers(rstatus, unit.stage):
            st.blocked(rstatus)
        else:
            st.add(s.status if s else None, None)
    return rstatus


def unit_status(grid: Grid, folder: Path) -> tuple[dict[tuple[str, str], CellStats], dict[Path, int]]:
    """Per cell: done, invalid, errored and left, from the logs alone (no request is sent); counted as a run
    counts. Also the count of unreadable lines per log."""
    plan = UnitPlan(grid)
    renders, solves = load_index(folder / RENDERS, RENDER_FIELDS), load_index(folder / SOLVES, SOLVE_FIELDS)
    skipped = {folder / RENDERS: renders.skipped, folder / SOLVES: solves.skipped}
    cells: dict[tuple[str, str], CellStats] = defaultdict(CellStats)
    for sk in skeletons(grid):
        for unit in plan.units(sk):
            count_unit(cells, unit, renders, solves)
    return cells, skipped


def render_rows(folder: Path, plan: UnitPlan, result: RunResult) -> dict[str, RenderStats]:
    """The closing renders table's rows: those a resume counted from the index (`result.render_stats`), and the
    newest record of each render unit the run went through (`result.render_keys`), read from the render log
    only where there is one (a resume that found everything settled reads no log line here)."""
    rows: dict[str, RenderStats] = {}
    for label, st in result.render_stats.items():
        rows[label] = RenderStats(st.statuses.copy(), st.reasons.copy(), st.audits.copy())
    if len(result.render_keys):
        for rec in map(plan.relabel, best_records(folder / RENDERS, result.render_keys, RENDER_FIELDS)):
            rows.setdefault(rec["renderer"], RenderStats()).add(rec)
    return rows
