"""The figures of a report: per-group counts, Wilson intervals, pooled and macro averages, latency percentiles."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Iterable

from runner.intervals import Z95
from runner.intervals import wilson as interval
from runner.reporting.fidelity import FidelityRow
from runner.reporting.load import Loaded, Outcome
from runner.store.tally import CellStats

RENDER_KINDS = {"ok": "faithful", "unchecked": "unchecked", "unfaithful": "unfaithful"}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval of k successes in n trials, rounded as a report prints it."""
    lo, hi = interval(k, n, z)
    return (None, None) if lo is None else (round(lo, 4), round(hi, 4))


def percentile(sorted_values: list[float], q: float) -> float | None:
    """The q-quantile (0..1) by linear interpolation, of values already sorted."""
    if not sorted_values:
        return None
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclass
class Tally(CellStats):
    """A group's solve units as a run counts them (accuracy over answers on faithful renders, the rest
    apart), and the latencies and tokens of its answers."""

    latencies: list[float] = field(default_factory=list)
    # the p50 and p95 of the latencies where the engine took them (`latencies` then left empty: a million latencies
    # made Python floats, sorted and merged again per cell, were a twelfth of a report)
    quantiles: tuple[float | None, float | None] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answered: int = 0              # units with token counts (answered by a model: not errors, not baselines)
    thoughts: list[int] = field(default_factory=list)   # thinking solvers: each whole thought's tokens
    cut: int = 0                   # thoughts max_tokens cut before any answer (invalid units, counted apart)
    sources: set[str] = field(default_factory=set)   # who counted the thoughts (usage, tokenize, ...)

    def add_outcome(self, o: Outcome, pool_renders: bool = False) -> None:
        """Count one solve unit's best record (`pool_renders`: its render's status is not looked at)."""
        self.add(o.status, o.correct, "ok" if pool_renders else o.render_status)
        if o.latency_s is not None and o.status != "error":
            self.latencies.append(o.latency_s)
        # Only units with tokens: an error's record says 0 (nothing came back), a built-in baseline's too.
        if o.status != "error" and o.prompt_tokens is not None and o.completion_tokens is not None \
                and (o.prompt_tokens or o.completion_tokens):
            self.prompt_tokens += o.prompt_tokens
            self.completion_tokens += o.completion_tokens
            self.answered += 1
        if o.thinking_from is not None:
            self.sources.add(o.thinking_from)
        if o.cut:
            self.cut += 1
        elif o.thinking is not None and o.status != "error":
            self.thoughts.append(o.thinking)

    def latency_quantiles(self) -> tuple[float | None, float | None]:
        """The p50 and p95 of the answers' latencies (None where there are none)."""
        if self.quantiles is not None:
            return self.quantiles
        lat = sorted(self.latencies)
        return percentile(lat, 0.5), percentile(lat, 0.95)


@dataclass(frozen=True)
class SummaryRow:
    """One renderer x solver x family x complexity group of one run: `summary.csv` and `summary.json`."""

    run: str
    renderer: str
    solver: str
    family: str
    complexity: int
    n: int                    # answers on faithful renders: the denominator of accuracy
    correct: int
    accuracy: float | None
    ci95_low: float | None
    ci95_high: float | None
    chance: float | None
    invalid: int
    errors: int
    unfaithful: int           # solve units not sent: their render was unfaithful
    render_failed: int        # solve units not sent: their render was invalid
    unchecked_n: int          # answers on unchecked renders, counted apart
    unchecked_correct: int
    sent_unfaithful_n: int    # answers on unfaithful renders sent anyway, counted apart
    sent_unfaithful_correct: int
    latency_p50_s: float | None
    latency_p95_s: float | None
    prompt_tokens_mean: float | None
    completion_tokens_mean: float | None
    # the renderer's checked renders of this family and complexity (not per solver): how many, how many
    # faithful at the first try and at the end; accuracy here is over the faithful ones
    renders: int = 0
    faithful_renders_first_try: int = 0
    faithful_renders: int = 0
    # thinking solvers: the thoughts of its answered units (cut ones apart), in tokens
    thinking_n: int = 0
    thinking_median: float | None = None
    thinking_p90: float | None = None
    thinking_cut: int = 0
    thinking_from: str = ""   # who counted them: usage, tokenize, completion, estimate, empty (joined by +)

    def as_dict(self) -> dict:
        return asdict(self)


def tallies(loaded: Loaded, pool_renders: bool = False) -> dict[tuple, Tally]:
    """(run, renderer, solver, family, complexity) -> Tally."""
    out: dict[tuple, Tally] = defaultdict(Tally)
    for o in loaded.outcomes:
        out[(o.run, o.renderer, o.solver, o.family, o.complexity)].add_outcome(o, pool_renders)
    for b in loaded.blocked:
        out[(b.run, b.renderer, b.solver, b.family, b.complexity)].blocked(b.status)
    return out


def _round(x: float | None, nd: int = 4) -> float | None:
    return None if x is None else round(x, nd)


def summary_rows(loaded: Loaded, groups: dict[tuple, Tally], renders: list[FidelityRow]) -> list[SummaryRow]:
    """One row per group (of `tallies`), sorted by run, renderer, solver, family, complexity; each with its
    renderer's faithful renders of that family and complexity (`renders`, from fidelity_rows)."""
    rows = []
    fidelity = {(f.run, f.renderer, f.family, f.complexity): f for f in renders}
    for key, t in sorted(groups.items()):
        run, renderer, solver, family, complexity = key
        fid = fidelity.get((run, renderer, family, complexity))
        lo, hi = wilson(t.correct, t.ok)
        p50, p95 = t.latency_quantiles()
        thoughts = sorted(t.thoughts)
        rows.append(SummaryRow(
            run=run, renderer=renderer, solver=solver, family=family, complexity=complexity, n=t.ok,
            correct=t.correct, accuracy=_round(t.accuracy), ci95_low=lo, ci95_high=hi,
            chance=_round(loaded.chance.get(family)), invalid=t.invalid, errors=t.error, unfaithful=t.unfaithful,
            render_failed=t.render_failed, unchecked_n=t.unchecked, unchecked_correct=t.unchecked_correct,
            sent_unfaithful_n=t.sent_unfaithful, sent_unfaithful_correct=t.sent_unfaithful_correct,
            latency_p50_s=_round(p50), latency_p95_s=_round(p95),
            prompt_tokens_mean=_round(t.prompt_tokens / t.answered, 1) if t.answered else None,
            completion_tokens_mean=_round(t.completion_tokens / t.answered, 1) if t.answered else None,
            renders=fid.renders if fid else 0, faithful_renders_first_try=fid.faithful_first_try if fid else 0,
            faithful_renders=fid.faithful if fid else 0, thinking_n=len(thoughts),
            thinking_median=_round(percentile(thoughts, 0.5), 1), thinking_p90=_round(percentile(thoughts, 0.9), 1),
            thinking_cut=t.cut, thinking_from="+".join(sorted(t.sources))))
    return rows


@dataclass(frozen=True)
class Average:
    """Accuracy over several groups: pooled (every answer weighs the same) and macro (every complexity does)."""

    n: int
    correct: int
    pooled: float | None
    ci95_low: float | None
    ci95_high: float | None
    macro: float | None
    groups: int


def average(rows: Iterable[SummaryRow]) -> Average:
    """Pooled and macro average of rows (the macro over the rows that have answers)."""
    rows = list(rows)
    n, correct = sum(r.n for r in rows), sum(r.correct for r in rows)
    accs = [r.correct / r.n for r in rows if r.n]   # unrounded: a row's printed accuracy is rounded
    lo, hi = wilson(correct, n)
    return Average(n=n, correct=correct, pooled=_round(correct / n) if n else None, ci95_low=lo, ci95_high=hi,
                   macro=_round(sum(accs) / len(accs)) if accs else None, groups=len(accs))


def cells(rows: list[SummaryRow]) -> dict[tuple[str, str, str], list[SummaryRow]]:
    """(run, renderer, solver) -> its rows."""
    out: dict[tuple[str, str, str], list[SummaryRow]] = defaultdict(list)
    for r in rows:
        out[(r.run, r.renderer, r.solver)].append(r)
    return dict(out)


Cell = tuple[str, str, str]   # (run, renderer, solver)


def cell_latency(groups: dict[tuple, Tally],
                 quantiles: dict[Cell, tuple[float | None, float | None]] | None = None) -> dict[Cell, tuple]:
    """(run, renderer, solver) -> latency p50 and p95 (s) over answered units, mean prompt and completion tokens;
    the p50 and p95 from `quantiles` where the engine took them per cell (its groups then hold no latencies)."""
    merged: dict[tuple, list] = defaultdict(lambda: [[], 0, 0, 0])
    for (run, renderer, solver, _, _), t in groups.items():
        m = merged[(run, renderer, solver)]
        m[0].extend(t.latencies)
        m[1] += t.prompt_tokens
        m[2] += t.completion_tokens
        m[3] += t.answered
    out = {}
    for key, (lat, p, c, n) in merged.items():
        if quantiles is not None and key in quantiles:
            p50, p95 = quantiles[key]
        else:
            lat.sort()
            p50, p95 = percentile(lat, 0.5), percentile(lat, 0.95)
        out[key] = (p50, p95, p / n if n else None, c / n if n else None)
    return out
