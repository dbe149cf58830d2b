"""A run folder: where a grid's run goes, claimed and marked before anything is written, and the grid saved in it."""
from __future__ import annotations

from pathlib import Path

import orjson

from runner.config.grid import Grid
from runner.config.settings import save_again
from runner.errors import UserError, WriteFailed
from runner.store.guard import atomic_output, mark_made, owns, read_whole
from runner.store.logs import MARKER


def run_folder(grid: Grid, out: Path | None) -> Path:
    return out if out is not None else Path("outputs") / grid.name


def save_grid(grid: Grid, folder: Path, grid_file: Path) -> None:
    """The grid as run, beside the logs: its text, and the resolved grid with its hash."""
    try:
        (folder / "grids").mkdir(exist_ok=True)
    except OSError as exc:
        raise WriteFailed(folder / "grids", exc) from None
    resolved = grid.to_json()
    for target in (folder / "grid.json", folder / "grids" / f"{grid.hash()}.json"):
        with atomic_output(target) as fh:
            fh.write(resolved)
    text = read_whole(grid_file, "--grid")
    with atomic_output(folder / "grid.yaml") as fh:
        fh.write(text)




def check_run_folder(folder: Path, grid: Grid) -> None:
    """A run writes only into a new or empty folder, or a run folder of the same grid name: never over
    another grid's run, or over files that are not a run's (a user's own grid.yaml beside `--out .`)."""
    if not folder.exists():
        # a folder under a file can never be made: a bad --out (exit 2), not a write that failed
        above = next((p for p in folder.parents if p.exists()), None)
        if above is not None and not above.is_dir():
            raise UserError(f"--out {folder}: {above} is not a folder")
        return
    if not folder.is_dir():
        raise UserError(f"--out {folder}: not a folder")
    for lock in folder.glob(".lock*"):   # checked before anything is written: a link there points elsewhere
        if lock.is_symlink() or not lock.is_file():
            raise UserError(f"{lock}: is {'a symlink' if lock.is_symlink() else 'not a regular file'} where a run "
                            "keeps its lock; remove it")
    saved = folder / "grid.json"
    if saved.is_file() and not saved.is_symlink():
        try:
            name = orjson.loads(read_whole(saved, "saved grid")).get("name")
        except (orjson.JSONDecodeError, AttributeError, UserError):
            name = None
        if not isinstance(name, str):   # damaged: whose run it holds cannot be told, so nothing is written over it
            raise UserError(f"{saved}: not a grid bench saved (damaged, or written by hand): the folder's run cannot "
                            f"be told; {save_again(folder)}, or choose another --out")
        if name != grid.name:
            raise UserError(f"{folder} holds the run of grid {name!r}, not {grid.name!r}: "
                            "choose another --out, or give the grid that name")
    elif not owns(folder, MARKER):
        # A shard that started a moment earlier has made the marker before anything else; locks and
        # half-written files start with a dot. Anything else is someone's, and a run would write over it.
        theirs = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
        if theirs:
            raise UserError(f"{folder} holds files that no run wrote ({', '.join(theirs[:3])}"
                            f"{', ...' if len(theirs) > 3 else ''}): choose an empty or new --out folder")


def claim_run_folder(folder: Path, grid: Grid) -> None:
    """Check the folder (check_run_folder), make it, and mark it as a run's before writing anything else."""
    check_run_folder(folder, grid)
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteFailed(folder, exc) from None
    mark_made(folder, MARKER, made)
