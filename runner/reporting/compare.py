"""Paired comparisons on identical units: two solvers on the same rendered text, or two renderers under one solver."""
from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass

from runner.errors import UserError
from runner.reporting.load import Outcome


@dataclass(frozen=True)
class Paired:
    """A on B over the units both answered (on faithful renders): the difference in accuracy, its 95%
    interval (a seeded bootstrap over skeletons), McNemar's exact p, and who got what right alone."""

    kind: str                  # solver | renderer
    a: str
    b: str
    run: str
    within: str                # the renderer (solvers compared) or solver (renderers compared) held fixed
    pairs: int
    both_right: int
    a_only: int                # A right, B wrong
    b_only: int
    both_wrong: int
    unpaired: int              # units of A or B without an answer of the other (errors, invalid, not run)
    accuracy_a: float | None
    accuracy_b: float | None
    difference: float | None   # accuracy of A minus accuracy of B, on the pairs
    ci95_low: float | None
    ci95_high: float | None
    mcnemar_p: float | None


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value: the binomial test of b against b + c at one half."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    # P(X <= k) for X ~ Binomial(n, 1/2), summed in log space (n may be large)
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)


def bootstrap_interval(by_skeleton: list[tuple[int, int]], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of the mean difference, resampling skeletons (a skeleton's units stay together).

    `by_skeleton` holds (sum of differences, number of pairs) per skeleton.
    """
    try:
        import numpy as np
    except ImportError:   # the same resampling, slower
        rng = random.Random(seed)
        n = len(by_skeleton)
        stats = []
        for _ in range(rounds):
            pick = [by_skeleton[rng.randrange(n)] for _ in range(n)]
            stats.append(sum(d for d, _ in pick) / max(1, sum(c for _, c in pick)))
        stats.sort()
        return stats[int(0.025 * (rounds - 1))], stats[int(round(0.975 * (rounds - 1)))]
    diffs = np.array([d for d, _ in by_skeleton], dtype=np.float64)
    counts = np.array([c for _, c in by_skeleton], dtype=np.float64)
    rng = np.random.default_rng(seed)
    n = len(by_skeleton)
    stats = np.empty(rounds)
    for i in range(rounds):
        w = np.bincount(rng.integers(0, n, n), minlength=n)
        stats[i] = (w @ diffs) / max(1.0, w @ counts)
    lo, hi = np.quantile(stats, [0.025, 0.975])
    return float(lo), float(hi)


def paired_answers(outcomes: list[Outcome], kind: str, a: str, b: str) -> dict[tuple[str, str], list[tuple[tuple, dict]]]:
    """(run, what is held fixed) -> [(unit, {name: right or not, None if no answer on a faithful render})].

    A unit is identified, across A and B, by what stays the same: the run, the other stage, the skeleton and
    both samples. Only answers on faithful renders count (as accuracy does)."""
    other = "renderer" if kind == "solver" else "solver"
    answers: dict[tuple, dict[str, bool | None]] = defaultdict(dict)
    for o in outcomes:
        name = getattr(o, kind)
        if name in (a, b):
            unit = (o.run, getattr(o, other), o.skeleton, o.render_sample, o.sample)
            answers[unit][name] = o.correct if o.status == "ok" and o.render_status == "ok" else None
    groups: dict[tuple[str, str], list[tuple[tuple, dict]]] = defaultdict(list)
    for unit, got in answers.items():
        groups[(unit[0], unit[1])].append((unit, got))
    return groups


def compare(outcomes: list[Outcome], kind: str, a: str, b: str, seed: int = 0) -> list[Paired]:
    """Compare A and B (both solvers or both renderers) on identical units, per run and per what is held fixed."""
    names = {getattr(o, kind) for o in outcomes}
    for name in (a, b):
        if name not in names:
            raise UserError(f"--compare{'' if kind == 'solver' else '-renderers'}: no {kind} {name!r} in these runs "
                            f"(there are: {', '.join(sorted(names)) or 'none'})")
    groups = paired_answers(outcomes, kind, a, b)
    out = []
    for (run, within), items in sorted(groups.items()):
        counts = {"both": 0, "a": 0, "b": 0, "none": 0}
        unpaired = 0
        per_skeleton: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for unit, got in items:
            ra, rb = got.get(a), got.get(b)
            if ra is None or rb is None:
                unpaired += 1
                continue
            counts["both" if ra and rb else "a" if ra else "b" if rb else "none"] += 1
            acc = per_skeleton[unit[2]]
            acc[0] += int(ra) - int(rb)
            acc[1] += 1
        pairs = sum(counts.values())
        diff = lo = hi = acc_a = acc_b = None
        if pairs:
            acc_a = (counts["both"] + counts["a"]) / pairs
            acc_b = (counts["both"] + counts["b"]) / pairs
            diff = acc_a - acc_b
            lo, hi = bootstrap_interval([tuple(v) for v in per_skeleton.values()], seed=seed)
        out.append(Paired(kind=kind, a=a, b=b, run=run, within=within, pairs=pairs, both_right=counts["both"],
                          a_only=counts["a"], b_only=counts["b"], both_wrong=counts["none"], unpaired=unpaired,
                          accuracy_a=_r(acc_a), accuracy_b=_r(acc_b), difference=_r(diff), ci95_low=_r(lo),
                          ci95_high=_r(hi), mcnemar_p=_r(mcnemar_exact(counts["a"], counts["b"]), 6) if pairs else None))
    return out


def _r(x: float | None, nd: int = 4) -> float | None:
    return None if x is None else round(x, nd)
