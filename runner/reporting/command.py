"""`bench report RUN [RUN ...]`: read the runs, print the tables, write report/ (CSV, JSON, pictures, markdown)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from runner.store.atomic import atomic_output, check_output
from runner.errors import UserError
from runner.store.logs import skipped_note
from runner.reporting import files, terminal, thinking
from runner.reporting.compare import Paired, compare
from runner.reporting.fidelity import fidelity_rows, spread_warnings
from runner.reporting.load import load_runs
from runner.reporting.stats import cell_latency, summary_rows, tallies
from runner.reporting.summary import render_table
from runner.store.tally import render_stats


REPORT_MARKER = ".bench-report"   # a folder a report wrote into: later reports may write there again


def report(folders: list[Path], by: tuple[str, ...] | None, csv_path: Path | None, plot_path: Path | None,
           pool_renders: bool, out: Path | None, solvers: tuple[str, str] | None,
           renderers: tuple[str, str] | None, seed: int) -> int:
    """The whole command; UserError for anything the user can fix."""
    for folder in folders:
        if not folder.is_dir():
            raise UserError(f"{folder}: not a folder; give run folders, e.g. outputs/default")
    report_dir = out or folders[0] / "report"
    if report_dir.is_symlink():   # writing through it would land wherever it points
        raise UserError(f"--out {report_dir}: is a symlink; give a real folder")
    if report_dir.exists() and not report_dir.is_dir():
        raise UserError(f"--out {report_dir}: is not a folder")
    if out is not None and report_dir.is_dir() and not (report_dir / REPORT_MARKER).exists():
        theirs = sorted(p.name for p in report_dir.iterdir() if not p.name.startswith("."))
        if theirs:   # a report writes summary.csv and report.md: never over someone else's
            raise UserError(f"--out {report_dir}: holds files that no report wrote ({', '.join(theirs[:3])}"
                            f"{', ...' if len(theirs) > 3 else ''}); give an empty or new folder")
    if not report_dir.parent.is_dir():
        raise UserError(f"--out {report_dir}: folder {report_dir.parent} does not exist")
    targets = {name: report_dir / name for name in
               ("summary.csv", "summary.json", "report.md", "heatmap.png", "accuracy_by_complexity.png",
                "thinking_by_complexity.png")}
    grouped_csv = check_output(csv_path or folders[0] / "report.csv", "--csv")
    if plot_path is not None:
        check_output(plot_path, "--plot")
    for path in targets.values():
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise UserError(f"{path}: is not a regular file; remove it or give --out another folder")
    for flag, pair in (("--compare", solvers), ("--compare-renderers", renderers)):
        if pair and pair[0] == pair[1]:
            raise UserError(f"{flag} {pair[0]} {pair[1]}: give two different names")
    try:
        report_dir.mkdir(exist_ok=True)
        (report_dir / REPORT_MARKER).touch()
    except OSError as exc:
        raise UserError(f"--out {report_dir}: cannot make this folder ({exc.strerror})") from None

    loaded = load_runs(folders)
    for path, n in loaded.skipped.items():
        if note := skipped_note(path, n):
            typer.echo(note, err=True)
    groups = tallies(loaded, pool_renders)
    fidelity = fidelity_rows(loaded.renders)
    rows = summary_rows(loaded, groups, fidelity)
    compared: list[Paired] = []
    if solvers:
        compared += compare(loaded.outcomes, "solver", *solvers, seed=seed)
    if renderers:
        compared += compare(loaded.outcomes, "renderer", *renderers, seed=seed)

    renders_text = render_table(render_stats(loaded.renders))
    warnings = spread_warnings(fidelity)
    bins = thinking.thought_bins(loaded.outcomes)
    _print(by, pool_renders, loaded, rows, groups, compared, renders_text, fidelity, warnings, bins)
    grouped = files.grouped(loaded.outcomes, by or files.DIMENSIONS, pool_renders)
    with atomic_output(grouped_csv) as fh:
        fh.write(files.to_csv(grouped))
    pictures, problem = _pictures(rows, loaded.chance, targets, plot_path, terminal.baselines(loaded.grids)) \
        if rows else (False, None)
    if problem and plot_path is not None:
        raise UserError(problem)
    if problem:
        print(f"bench: {problem}; the report has no pictures", file=sys.stderr)
    thought_picture = pictures and _draw(targets["thinking_by_complexity.png"],
                                         lambda tmp: thinking.figure(loaded.outcomes, tmp))
    with atomic_output(targets["summary.csv"]) as fh:
        fh.write(files.summary_csv(rows))
    with atomic_output(targets["summary.json"]) as fh:
        fh.write(files.summary_json(rows, files.cell_averages(rows), compared, fidelity, warnings, loaded.auditors,
                                    [b.as_dict() for b in bins]))
    with atomic_output(targets["report.md"]) as fh:
        fh.write((files.markdown(rows, loaded.chance, compared, pictures, sorted(loaded.grids), renders_text,
                                 fidelity, warnings, loaded.auditors)
                  + "\n".join(thinking.markdown(rows, bins, thought_picture))).encode())
    typer.echo(f"wrote {grouped_csv} and {report_dir}/ (summary.csv, summary.json, report.md"
               + (", heatmap.png, accuracy_by_complexity.png" if pictures else "")
               + (", thinking_by_complexity.png" if thought_picture else "") + ")", err=True)
    return 0


def _draw(target: Path, draw) -> bool:
    """Draw a picture whole or not at all (a temporary file renamed over the target): whether drawn (`draw`
    returns False when it had nothing to draw)."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp.png")
    try:
        drawn = draw(tmp) is not False
        if drawn:
            tmp.replace(target)
        return drawn
    finally:
        tmp.unlink(missing_ok=True)


def _print(by, pool_renders, loaded, rows, groups, compared, renders, fidelity, warnings, bins) -> None:
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
        con.print(files.to_text(files.grouped(loaded.outcomes, by, pool_renders)), markup=False, soft_wrap=True)
    elif not rows:
        con.print("\n(no solve records for these runs' grids yet)")
    else:
        for table in terminal.heatmaps(rows, loaded.grids):
            con.print(table)
        for line in warnings:   # under the heatmap: whose cells are over a subset that moves with complexity
            con.print(line, markup=False)
        for table in terminal.depth_tables(rows, loaded.chance):
            con.print(table)
        con.print(terminal.problems_table(rows, cell_latency(groups)))
        for table in thinking.tables(rows, bins):
            con.print(table)
    for name in ("solver", "renderer"):
        got = [p for p in compared if p.kind == name]
        if got:
            con.print(terminal.paired_table(got))


def _pictures(rows, chance, targets: dict[str, Path], plot_path: Path | None,
              baselines: frozenset) -> tuple[bool, str | None]:
    """Draw the pictures (into the report folder, made before any work), each written whole or not at all:
    (drawn, the problem if not)."""
    from runner.reporting import figures
    try:
        heat = lambda rows, chance, target: figures.heatmap(rows, chance, target, baselines)  # noqa: E731
        jobs = [(targets["heatmap.png"], heat), (targets["accuracy_by_complexity.png"], figures.by_complexity)]
        if plot_path is not None:
            jobs.append((plot_path, figures.by_complexity))
        for target, draw in jobs:
            _draw(target, lambda tmp, draw=draw: draw(rows, chance, tmp))
    except UserError as exc:
        return False, str(exc)
    return True, None
