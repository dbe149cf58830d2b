"""`bench generate` and `bench validate`: skeleton files written deterministically, and checked line by line."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Callable, Iterable, Sequence

import typer
from tqdm import tqdm

from families.ir import Skeleton, SkeletonError
from families.logicmark import logicmark_record
from runner.children import write_all
from runner.errors import UserError
from runner.source.generate import make_plan
from runner.source.reader import FORMATS, scan
from runner.store.guard import Outputs, atomic_output

LOGICMARK_HOP_DIST = "1:0.10,2:0.40,3:0.25,4:0.15,5:0.10"   # the card's target distribution
_BATCH = 2048   # skeletons per write


def generate_file(count: int, complexity: Sequence[str], seed: int, output: Path, family: Sequence[str], fmt: str,
                  target_hop_dist: str | None, distractors: str, quiet: bool) -> None:
    """`bench generate`: skeletons with gold answers and proofs, deterministically, streamed to `output`."""
    if fmt not in ("jsonl", "logicmark"):
        raise UserError(f"--format {fmt!r}: expected jsonl or logicmark")
    if not 1 <= count < 2**63:
        raise UserError(f"--count {count}: expected a number of skeletons, 1 or more")
    if not -2**63 <= seed < 2**63:
        raise UserError(f"--seed {seed}: expected a whole number that fits in 64 bits")
    if complexity and target_hop_dist is not None:
        raise UserError("--complexity and --target-hop-dist: give one or the other")
    if fmt == "logicmark":
        family = family or ["equality"]
        if not complexity and target_hop_dist is None:
            target_hop_dist = LOGICMARK_HOP_DIST
    plan = make_plan(seed, complexity or ["medium"], family, target_hop_dist, distractors)
    if fmt == "logicmark" and plan.families != ("equality",):
        raise UserError("--format logicmark writes only the equality family: use --family equality")
    bar = tqdm(total=count, unit="sk", disable=True if quiet else None, file=sys.stderr, desc="generate")
    if str(output) == "-":   # the usual name of standard output: `bench generate -o - | head`
        _to_stdout(plan.items(count), fmt, bar)
        return
    Outputs().claim(output, "--output")
    with atomic_output(output) as fh:
        _write(fh.write, plan.items(count), fmt, bar)
    bar.close()
    if not quiet:
        typer.echo(f"wrote {count} skeletons to {output}", err=True)


def _write(write: Callable[[bytes], object], items: Iterable[Skeleton], fmt: str, bar: tqdm) -> None:
    """The skeletons' lines given to `write` in batches, the bar moved on each."""
    batch: list[bytes] = []
    for index, sk in enumerate(items):
        batch.append(logicmark_record(sk, index) if fmt == "logicmark" else sk.to_json())
        if len(batch) >= _BATCH:
            write(b"\n".join(batch) + b"\n")
            bar.update(len(batch))
            batch.clear()
    if batch:
        write(b"\n".join(batch) + b"\n")
        bar.update(len(batch))


def _to_stdout(items: Iterable[Skeleton], fmt: str, bar: tqdm) -> None:
    """The skeletons to standard output; a reader that stops early (`| head`) ends the command as SIGPIPE would end
    it (exit 141), without a traceback."""
    try:
        # each batch written whole to the descriptor: through sys.stdout's buffer, a pipe whose reader went
        # mid-batch took part of it and the rest was dropped without an error (exit 0, not 141)
        _write(lambda data: write_all(sys.stdout.fileno(), data), items, fmt, bar)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # Python would flush stdout again at exit and say so: point it at /dev/null first
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        bar.close()
        raise typer.Exit(128 + signal.SIGPIPE) from None
    bar.close()


def validate_file(file: Path, fmt: str) -> int:
    """`bench validate`: every line of a skeleton file checked (each bad line's number and reason), or a grid file
    as `bench run` reads it; the exit code (2: bad lines)."""
    if file.suffix.lower() in (".yaml", ".yml"):   # a grid: YAML read whole, never JSON lines
        from runner.config.grid import load_grid  # the grid's checks (YAML, providers) only for a grid
        grid = load_grid(file, require_keys=False, given_as="grid")   # a bad key: one line naming it, exit 2
        typer.echo(f"{file}: a valid grid ({len(grid.renderers)} renderer(s) x {len(grid.solvers)} solver(s))")
        return 0
    if fmt not in FORMATS:
        raise UserError(f"--format {fmt!r}: expected {' or '.join(FORMATS)}")
    good = bad = 0
    for lineno, item in scan(file, fmt):
        if isinstance(item, SkeletonError):
            bad += 1
            typer.echo(f"{file}:{lineno}: {item}", err=True)
        else:
            good += 1
    if bad:
        typer.echo(f"{file}: {bad} bad line(s), {good} valid", err=True)
        return 2
    typer.echo(f"{file}: {good} skeletons valid")
    return 0

