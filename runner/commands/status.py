"""`bench status`: per cell, units done, invalid, errored and left, and the renders table, from the logs alone."""
from __future__ import annotations

from pathlib import Path

import typer

from runner.commands.folder import run_folder
from runner.config.grid import Grid, load_grid
from runner.engine.resume import unit_status
from runner.errors import UserError
from runner.plan.units import UnitPlan, skeletons
from runner.reporting.summary import render_table, table
from runner.store.logs import RENDER_FIELDS, best_records, check_log_files, skipped_note
from runner.store.sinks import RENDERS
from runner.store.tally import render_stats, total


def renders_text(grid: Grid, folder: Path) -> tuple[str, int]:
    """The renders table of this grid's render units (faithful, unfaithful by reason, invalid, unchecked,
    audits), and how many lines of the render log could not be read."""
    plan = UnitPlan(grid)
    labels = {unit.key: unit.stage.label for sk in skeletons(grid) for unit in plan.units(sk)}
    found = best_records(folder / RENDERS, labels, RENDER_FIELDS)
    # each under the name the grid gives its renderer now (its key says which), not the name it was run under
    return render_table(render_stats({**rec, "renderer": labels[rec["key"]]} for rec in found)), found.skipped


def _same_run(folder: Path, grid: Grid, grid_file: Path) -> None:
    """A --grid of another run is refused (its units are not this folder's), as `bench run` refuses it; the same
    grid changed since the folder's last run is counted, and said: its changed entries show as left."""
    if not (folder / "grid.json").is_file():
        return
    saved = Grid.saved(folder)
    if saved.name != grid.name:
        raise UserError(f"{folder} holds the run of grid {saved.name!r}, not {grid.name!r} ({grid_file}): "
                        "give that run's folder, or leave out --grid to count this folder's own grid")
    if saved.hash() != grid.hash():
        typer.echo(f"bench: {folder} was last run with grid {saved.hash()}; counting {grid_file} ({grid.hash()}) "
                   "against its logs: units it made new show as left", err=True)


def status(folder: Path | None, grid_file: Path | None) -> int:
    """`bench status`: per cell, units done, invalid, errored and left, from the logs alone."""
    if grid_file is not None:
        grid = load_grid(grid_file, require_keys=False)
        folder = folder or run_folder(grid, None)
        _same_run(folder, grid, grid_file)
    else:
        if folder is None:
            raise UserError("bench status: give a run folder (outputs/<run>) or --grid FILE")
        grid = Grid.saved(folder)
    check_log_files(folder)
    cells, skipped = unit_status(grid, folder)
    typer.echo(f"{folder}: grid {grid.name} ({grid.hash()})")
    text, unreadable = renders_text(grid, folder)   # parses each line in full: finds damage the index cannot
    typer.echo(text)
    skipped[folder / RENDERS] = max(skipped[folder / RENDERS], unreadable)
    for path, n in skipped.items():
        if note := skipped_note(path, n):
            typer.echo(note, err=True)
    typer.echo("")
    typer.echo(table(cells))
    t = total(cells)
    typer.echo(f"total: done {t.ok + t.invalid + t.unchecked + t.sent_unfaithful}, errored {t.error}, "
               f"unfaithful {t.unfaithful}, render_failed {t.render_failed}, left {t.left}")
    return 0
