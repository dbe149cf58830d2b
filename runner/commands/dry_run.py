"""What `bench run` says before it sends anything: `--dry-run`'s plan in words with its unit counts (and how many
the logs already hold), the notes on a grid's audits, and the count of a run's skeletons (every line checked)."""
from __future__ import annotations

from pathlib import Path

import typer

from families.ir import SkeletonError
from runner.config.grid import Grid, Stage
from runner.engine.feed import helpers
from runner.errors import UserError, printable
from runner.plan.units import UnitPlan, in_shard, skeletons
from runner.source.reader import scan
from runner.store.index import load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, TERMINAL, check_log_files
from runner.store.sinks import RENDERS, SOLVES


def count_skeletons(grid: Grid, shard: tuple[int, int] | None) -> int:
    """Check every line of the skeleton file before anything is written, and count this shard's."""
    if not grid.source.path:
        if shard is None:
            return grid.source.count
        return sum(1 for _ in skeletons(grid, shard))
    n = 0
    for lineno, item in scan(Path(grid.source.path), grid.source.format):
        if isinstance(item, SkeletonError):
            raise UserError(f"{grid.source.path}:{lineno}: {item}")
        n += shard is None or in_shard(item, shard)
    return n


def dry_run(grid: Grid, folder: Path, shard: tuple[int, int] | None, ray_address: str | None = None) -> None:
    """Print the plan and unit counts (and how many are already done); send nothing, write nothing. Names
    and values from the grid are printed with their control characters escaped."""
    def echo(text: str) -> None:
        typer.echo(printable(text))
    n = count_skeletons(grid, shard)
    renders, solves = UnitPlan(grid).counts(n)
    check_log_files(folder)
    done_r = sum(e.status in TERMINAL for e in load_index(folder / RENDERS, RENDER_FIELDS).values())
    done_s = sum(e.status in TERMINAL for e in load_index(folder / SOLVES, SOLVE_FIELDS).values())
    echo(f"grid {grid.name} ({grid.hash()}) -> {folder}" + (f", shard {shard[0]}/{shard[1]}" if shard else ""))
    workers = helpers(grid, n)
    echo(f"skeletons: {n}  ({grid.source.path or 'generated: ' + str(grid.source.count)}), prepared "
         + (f"by {workers} helper process(es)" if workers else "in the run's own process")
         + (" (prepare_workers: auto)" if grid.prepare_workers is None else ""))
    for st in grid.renderers:
        p = grid.providers[st.provider]
        echo(f"renderer {st.label}: {' '.join(filter(None, (p.kind, p.settings.get('model'))))} "
                   f"x{st.samples} sample(s), {describe_renderer(grid, st)}")
    for st in grid.solvers:
        p = grid.providers[st.provider]
        echo(f"solver   {st.label}: {' '.join(filter(None, (p.kind, p.settings.get('model'))))} "
                   f"x{st.samples} sample(s), {describe_solver(st)}")
    echo(f"cells: {len(grid.renderers) * len(grid.solvers)}  render units: {renders}  solve units: {solves}")
    echo(f"already terminal in the logs (any grid version): renders {done_r}, solves {done_s}")
    if ray_address is not None:
        from runner.cluster.placement import needs  # Ray itself is not imported: nothing is placed
        what = ", ".join(f"{k} {v:g}" for k, v in needs(grid).items()) or "nothing"
        nodes = f"{grid.ray.agents} node(s)" if grid.ray.agents else "every node"
        echo(f"on Ray ({ray_address}): {grid.ray.agents_per_node} agent(s) on {nodes}, each with {what}, "
             f"{grid.ray.batch} skeletons per batch; the driver writes the logs")


def describe_renderer(grid: Grid, st: Stage) -> str:
    """How a renderer will run, in words: its format, who names the symbols, repair rounds, its audit."""
    if grid.providers[st.provider].kind in ("template",):
        return "the template (faithful by construction)"
    if st.format == "text":
        return "free text (unchecked)"
    out = "structured, checked; " + ("names assigned by us" if st.names == "assigned" else "names its own")
    if st.repair:
        out += f"; up to {st.repair} repair round(s)"
    if st.audit_provider:
        out += f"; {st.audit_rate:.0%} audited by {st.audit_provider}"
        out += f" (calibrated on {st.audit_calibrate} control renders per family)" if st.audit_calibrate else ""
    return out


def audit_notes(grid: Grid) -> list[str]:
    """A line for each renderer whose audit samples no render (`rate: 0`) yet calibrates its auditor: those
    requests are sent all the same, and a user who set rate 0 to turn the audit off would not expect them."""
    return [f"bench: renderer {st.label}: audit rate 0 samples no render, but auditor {st.audit_provider} still reads "
            f"{st.audit_calibrate} control renders per family to calibrate, then the premises the check could not "
            "read; remove the audit block to turn it off, or set calibrate: 0"
            for st in grid.renderers if st.audit_provider and st.audit_rate == 0 and st.audit_calibrate]


def describe_solver(st: Stage) -> str:
    """How a solver will run, in words: a loglik solver generates nothing and takes no constraint."""
    if st.mode == "loglik":
        return f"loglik: scores each option's log-likelihood (by {st.score}), generates nothing, no constraint"
    if st.thinks:
        how = ", ".join(f"{k} {v}" for k, v in (st.reasoning or {}).items() if k != "enabled") or "on"
        return (f"thinks ({how}) within max_tokens {st.max_tokens}, then one label: constraint {st.constraint} "
                "after the thought where the server has a reasoning parser, else the label read from text")
    return f"constraint {st.constraint}"
