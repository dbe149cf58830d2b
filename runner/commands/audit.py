"""`bench audit`: can shallow statistics answer a skeleton file? A classifier on counts, cross-validated per family
and complexity (audit/), its table printed, and a margin over chance above a bound made the exit code."""
from __future__ import annotations

import sys
from pathlib import Path

import typer
from tqdm import tqdm

from audit import table
from audit.shortcut import AuditUnavailable, audit_group
from families.ir import Skeleton
from runner.errors import UserError
from runner.source.reader import read_skeletons


def audit_file(file: Path, folds: int, seed: int, max_margin: float | None, as_json: bool) -> int:
    """Audit every (family, complexity) group of `file`; the exit code (1: a margin above `max_margin`)."""
    if not 2 <= folds <= 20:
        raise UserError(f"--folds {folds}: expected 2..20")
    if not 0 <= seed < 2**32:   # scikit-learn's random_state and numpy's generator take 0..2**32-1
        raise UserError(f"--seed {seed}: expected a whole number 0..{2**32 - 1}")
    if max_margin is not None and not (max_margin >= 0 and max_margin < float("inf")):
        raise UserError(f"--max-margin {max_margin:g}: expected a finite number of points, 0 or more")

    groups: dict[tuple[str, int], list[Skeleton]] = {}
    for _, sk in read_skeletons(file):
        groups.setdefault((sk.family, sk.complexity), []).append(sk)
    if not groups:
        raise UserError(f"{file}: no skeletons to audit")
    results = []
    try:
        for family, complexity in tqdm(sorted(groups), desc="audit", unit="group", file=sys.stderr, disable=None):
            results.append(audit_group(family, complexity, groups[(family, complexity)], folds=folds, seed=seed))
    except AuditUnavailable as exc:
        raise UserError(str(exc)) from None
    typer.echo(table.to_json(results).decode() if as_json else table.to_text(results))
    if all(r.accuracy is None for r in results):
        raise UserError(f"{file}: no group has enough items to cross-validate (see the notes above)")
    over = [r for r in results if max_margin is not None and r.margin_pp is not None and r.margin_pp > max_margin]
    if over:
        names = ", ".join(f"{r.family}/{r.complexity} ({r.margin_pp:+.1f})" for r in over)
        typer.echo(f"bench audit: margin over chance above {max_margin:g} points in {names}", err=True)
        return 1
    return 0
