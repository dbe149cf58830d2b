"""`bench report RUN [RUN ...]`: read the runs, print the tables, write report/ (CSV, JSON, pictures, markdown)."""
from __future__ import annotations

import os
import signal
import sys
from collections import Counter
from pathlib import Path

import typer

from runner.children import die_with_parent
from runner.config.grid import Grid
from runner.errors import UserError, WriteFailed
from runner.reporting import files, terminal, thinking
from runner.reporting.columnar import Figures, drop_unkept, keep_marks, reading
from runner.reporting.compare import Paired, compare
from runner.reporting.fidelity import spread_warnings
from runner.reporting.forked import Forked
from runner.reporting.stats import SummaryRow, cell_latency, summary_rows
from runner.reporting.summary import render_table
from runner.store.guard import (
    REPORT_MARKER,
    Outputs,
    atomic_output,
    mark,
    output_temporary,
    owns,
    remove_output,
    unmake,
)
from runner.store.logs import LOGS, MARKER, check_log_files, skipped_note


def report(folders: list[Path], by: tuple[str, ...] | None, csv_path: Path | None, plot_path: Path | None,
           pool_renders: bool, out: Path | None, solvers: tuple[str, str] | None,
           renderers: tuple[str, str] | None, seed: int, drawing: Forked | None) -> int:
    """The whole command; UserError for anything the user can fix. `drawing`: the pictures' child (None: no
    pictures, `--no-pictures`), started first
    (`Forked.early(figures.pyplot)`, by the CLI: importing matplotlib takes a core for half a second, which then
    overlaps this process's imports and reading); it is sent the rows once they are known."""
    report_dir = _report_dir(folders, out)
    outputs = Outputs(inputs(folders))
    grouped_csv = outputs.claim(csv_path or folders[0] / "report.csv", "--csv")
    if plot_path is not None:
        outputs.claim(plot_path, "--plot")
    for flag, pair in (("--compare", solvers), ("--compare-renderers", renderers)):
        if pair and pair[0] == pair[1]:
            raise UserError(f"{flag} {pair[0]} {pair[1]}: give two different names")
    made = not report_dir.exists()
    try:
        report_dir.mkdir(exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out {report_dir}: cannot make this folder ({exc.strerror})") from None
    try:
        return _claimed(folders, by, outputs, grouped_csv, plot_path, pool_renders, report_dir, solvers, renderers,
                        seed, drawing)
    except BaseException:
        if made:   # a report that stopped before writing leaves no folder behind (a later run could not use it)
            unmake(report_dir, REPORT_MARKER)
        raise


def _claimed(folders: list[Path], by: tuple[str, ...] | None, outputs: Outputs, grouped_csv: Path,
             plot_path: Path | None, pool_renders: bool, report_dir: Path, solvers: tuple[str, str] | None,
             renderers: tuple[str, str] | None, seed: int, drawing: Forked | None) -> int:
    """The report once its folder exists: its files claimed, the folder marked, then read and written."""
    targets = {name: outputs.claim(report_dir / name, "the report's " + name) for name in
               ("summary.csv", "summary.json", "report.md", "heatmap.png", "accuracy_by_complexity.png",
                "thinking_by_complexity.png")}
    if not owns(report_dir, REPORT_MARKER):
        mark(report_dir, REPORT_MARKER)
    try:
        return _report(folders, by, grouped_csv, plot_path, pool_renders, report_dir, solvers, renderers, seed,
                       targets, drawing)
    finally:
        child = drawing.pid if drawing is not None else 0
        if drawing is not None:
            drawing.stop()
        if child:   # killed mid-picture (a signal, a failure here): its half-written temporaries go too
            _sweep([*targets.values(), *([plot_path] if plot_path else [])], child)


def _report(folders: list[Path], by: tuple[str, ...] | None, grouped_csv: Path, plot_path: Path | None,
            pool_renders: bool, report_dir: Path, solvers: tuple[str, str] | None,
            renderers: tuple[str, str] | None, seed: int, targets: dict[str, Path], drawing: Forked | None) -> int:
    """The report once its outputs are claimed and its pictures' child started: read, print, write."""
    figures, rows, compared = _read(folders, by, pool_renders, solvers, renderers, seed, targets, plot_path, drawing)
    try:
        pictures, thought_picture = _write(figures, rows, compared, by, grouped_csv, plot_path, pool_renders, targets,
                                           drawing)
    finally:
        drop_unkept(figures)   # the columns to keep of a report that failed before it had written everything
    typer.echo(f"wrote {grouped_csv} and {report_dir}/ (summary.csv, summary.json, report.md"
               + (", heatmap.png, accuracy_by_complexity.png" if pictures else "")
               + (", thinking_by_complexity.png" if thought_picture else "") + ")"
               + (f" and {plot_path}" if pictures and plot_path is not None else ""), err=True)
    return 0


def _write(figures: Figures, rows: list[SummaryRow], compared: list[Paired], by: tuple[str, ...] | None, grouped_csv: Path,
           plot_path: Path | None, pool_renders: bool, targets: dict[str, Path],
           drawing: Forked | None) -> tuple[bool, bool]:
    """Print the report's tables and write its files: whether each picture was drawn."""
    loaded, groups, fidelity = figures.loaded, figures.groups, figures.fidelity
    renders_text = render_table(figures.render_counts)
    warnings = spread_warnings(fidelity)
    bins = thinking.thought_bins(loaded.outcomes)
    grouped = files.grouped_counts(Counter(dict(figures.by_counts)), by or files.DIMENSIONS, pool_renders)
    _print(by, grouped, loaded, rows, cell_latency(groups, figures.cell_quantiles), compared, renders_text, fidelity,
           warnings, bins)
    with atomic_output(grouped_csv) as fh:
        fh.write(files.to_csv(grouped, files.grouped_fields(by or files.DIMENSIONS)))
    pictures, problem, thought_picture = drawing.result() if rows and drawing else (False, None, False)
    if problem and plot_path is not None:
        raise UserError(problem)
    if problem:
        print(f"bench: {problem}; the report has no pictures", file=sys.stderr)
    _unlink_undrawn(targets, {"heatmap.png": pictures, "accuracy_by_complexity.png": pictures,
                              "thinking_by_complexity.png": thought_picture})
    with atomic_output(targets["summary.csv"]) as fh:
        fh.write(files.summary_csv(rows))
    with atomic_output(targets["summary.json"]) as fh:
        fh.write(files.summary_json(rows, files.cell_averages(rows), compared, fidelity, warnings, loaded.auditors,
                                    [b.as_dict() for b in bins]))
    with atomic_output(targets["report.md"]) as fh:
        fh.write((files.markdown(rows, loaded.chance, compared, pictures, sorted(loaded.grids), renders_text,
                                 fidelity, warnings, loaded.auditors)
                  + "\n".join(thinking.markdown(rows, bins, thought_picture))).encode())
    keep_marks(figures)   # the next report reads a well-typed solve log typed; only after everything was written
    return pictures, thought_picture


def _unlink_undrawn(targets: dict[str, Path], drawn: dict[str, bool]) -> None:
    """Remove an earlier report's picture that this report did not draw (no answers yet, no thinking solver, no
    matplotlib): left, it would show another run's figures beside this report's tables."""
    for name, made in drawn.items():
        if not made:
            remove_output(targets[name])


def _read(folders: list[Path], by: tuple[str, ...] | None, pool_renders: bool, solvers: tuple[str, str] | None,
          renderers: tuple[str, str] | None, seed: int, targets: dict[str, Path], plot_path: Path | None,
          drawing: Forked | None) -> tuple[Figures, list[SummaryRow], list[Paired]]:
    """The figures, the summary rows and the paired comparisons; the pictures sent to the drawing child (started
    before the reading) before the reading lets go of its engine and helpers, which is not waited for."""
    # the figures are counted in the engine; outcomes one by one only for --compare and the thinking solvers
    with reading(folders, pool_renders, by or files.DIMENSIONS, all_outcomes=bool(solvers or renderers)) as figures:
        loaded = figures.loaded
        for path, n in loaded.skipped.items():
            if note := skipped_note(path, n):
                typer.echo(note, err=True)
        rows = summary_rows(loaded, figures.groups, figures.fidelity)
        compared: list[Paired] = []
        if solvers:
            compared += compare(loaded.outcomes, "solver", *solvers, seed=seed)
        if renderers:
            compared += compare(loaded.outcomes, "renderer", *renderers, seed=seed)
        if rows and drawing:   # drawn beside the rest
            drawing.send(_all_pictures, rows, loaded.chance, terminal.baselines(loaded.grids),
                         [o for o in loaded.outcomes if o.thinking is not None], targets, plot_path)
    return figures, rows, compared


def _report_dir(folders: list[Path], out: Path | None) -> Path:
    """The folder the report writes into (`--out`, or the first run's report/), checked before anything is read:
    the runs are folders with readable logs, and the target is a real folder holding only a report's files."""
    for folder in folders:
        if not folder.is_dir():
            raise UserError(f"{folder}: not a folder; give run folders, e.g. outputs/default")
        check_log_files(folder)
    report_dir = out or folders[0] / "report"
    if report_dir.is_symlink():   # writing through it would land wherever it points
        raise UserError(f"--out {report_dir}: is a symlink; give a real folder")
    if report_dir.exists() and not report_dir.is_dir():
        raise UserError(f"--out {report_dir}: is not a folder")
    if report_dir.is_dir() and not _ours(report_dir, out is None):
        theirs = sorted(p.name for p in report_dir.iterdir() if not p.name.startswith("."))
        if theirs:   # a report writes summary.csv and report.md: never over someone else's
            raise UserError(f"--out {report_dir}: holds files that no report wrote ({', '.join(theirs[:3])}"
                            f"{', ...' if len(theirs) > 3 else ''}); give an empty or new folder")
    if not report_dir.parent.is_dir():
        raise UserError(f"--out {report_dir}: folder {report_dir.parent} does not exist")
    return report_dir


def _sweep(targets: list[Path], pid: int) -> None:
    """Remove the temporaries the drawing child `pid` had open beside `targets` (atomic_output's names): a
    SIGKILLed child cannot remove its own."""
    for target in targets:
        tmp = output_temporary(target, pid)
        if tmp.is_file() and not tmp.is_symlink():
            tmp.unlink(missing_ok=True)


class _Nothing(Exception):
    """A picture with nothing to draw: its target is left as it was."""


def _draw(target: Path, draw, owner: int | None = None) -> bool:
    """Draw a picture whole or not at all, through the one writer: whether drawn (`draw` gets the open file
    and returns False when it had nothing to draw); a failed write is WriteFailed (one line, exit 3). `owner`:
    the process whose temporaries it names its own (atomic_output)."""
    try:
        with atomic_output(target, owner) as fh:
            if draw(fh) is False:
                raise _Nothing
    except _Nothing:
        return False
    return True


def _ours(folder: Path, inside_run: bool) -> bool:
    """Whether a report folder is one a report made: its marker names this very folder; in a run's own
    `report/`, the plain marker of an older bench is taken too."""
    if owns(folder, REPORT_MARKER):
        return True
    marker = folder / REPORT_MARKER
    return inside_run and marker.is_file() and not marker.is_symlink()


def inputs(folders: list[Path]) -> list[tuple[Path, str]]:
    """What a report reads, and must never write over: each run's logs, grids, markers and locks, and the
    skeleton file its grid reads."""
    out = []
    for folder in folders:
        for name in (*LOGS, "grid.json", "grid.yaml", MARKER, ".lock"):
            out.append((folder / name, f"{folder}'s {name}"))
        out += [(p, f"a saved grid of {folder}") for p in sorted((folder / "grids").glob("*.json"))]
        try:
            source = Grid.saved(folder).source.path
        except UserError:
            source = None
        if source:
            out.append((Path(source), f"the skeleton file of {folder}'s grid"))
    return out


def _print(by, grouped, loaded, rows, latency, compared, renders, fidelity, warnings, bins) -> None:
    """The terminal report: renders, then the heatmap, depth tables and problems (or the one --by table)."""
    con = terminal.console()
    con.print(renders, markup=False, soft_wrap=True)
    for table in (terminal.fidelity_table(fidelity), terminal.reading_table(fidelity)):
        if table is not None:
            con.print(table)
    if loaded.auditors:
        con.print(terminal.auditors_table(loaded.auditors))
    if by:   # the one grouped table asked for, as before
        con.print("")
        con.print(files.to_text(grouped), markup=False, soft_wrap=True)
    elif not rows:
        con.print("\n(no solve records for these runs' grids yet)")
    else:
        for table in terminal.heatmaps(rows, loaded.grids):
            con.print(table)
        for line in warnings:   # under the heatmap: whose cells are over a subset that moves with complexity
            con.print(line, markup=False)
        for table in terminal.depth_tables(rows, loaded.chance):
            con.print(table)
        con.print(terminal.problems_table(rows, latency))
        for table in thinking.tables(rows, bins):
            con.print(table)
    for name in ("solver", "renderer"):
        got = [p for p in compared if p.kind == name]
        if got:
            con.print(terminal.paired_table(got, con.width))


def _all_pictures(rows, chance, baselines, thought_outcomes, targets: dict[str, Path],
                  plot_path: Path | None) -> tuple[bool, str | None, bool]:
    """Every picture of the report: (drawn, the problem if not, whether the thinking picture was drawn)."""
    pictures, problem = _pictures(rows, chance, targets, plot_path, baselines)
    thought = pictures and _draw(targets["thinking_by_complexity.png"],
                                 lambda tmp: thinking.figure(thought_outcomes, tmp))
    return pictures, problem, thought


def _pictures(rows, chance, targets: dict[str, Path], plot_path: Path | None,
              baselines: frozenset) -> tuple[bool, str | None]:
    """Draw the pictures (into the report folder, made before any work), each written whole or not at all:
    (drawn, the problem if not)."""
    from runner.reporting import figures
    owner = os.getpid()
    try:
        # the heatmap drawn by a fork of this child (matplotlib imported already) while this one draws the rest:
        # the pictures take the time of the longest, not of all; its temporary is named as this child's, which
        # the report removes if it stops this child mid-picture
        beside = Forked(lambda: _beside(targets["heatmap.png"], rows, chance, baselines, owner))
        try:
            jobs = [targets["accuracy_by_complexity.png"], *([plot_path] if plot_path is not None else [])]
            for target in jobs:
                _draw(target, lambda tmp: figures.by_complexity(rows, chance, tmp))
            beside.result()
        finally:
            beside.stop()
            # stopped mid-picture (this child's own picture failed: no matplotlib, a full disk), its temporary stays
            _sweep([targets["heatmap.png"]], owner)
    except WriteFailed:   # a full disk or a read-only folder is the command's failure (exit 3), not a note
        raise
    except UserError as exc:
        return False, str(exc)
    return True, None


def _beside(target: Path, rows, chance, baselines: frozenset, owner: int) -> bool:
    """In a fork of the drawing child: the heatmap; gone at once (no cleanup to run) if the drawing child dies."""
    from runner.reporting import figures
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()
    return _draw(target, lambda tmp: figures.heatmap(rows, chance, tmp, baselines), owner)
