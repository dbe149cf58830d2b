"""Faithful renders per renderer x family x complexity, first try and after repair, and the warning a
heatmap cell needs when its renderer's faithful share moves with complexity (its accuracy is then over
an easier or harder subset of the skeletons)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Iterable

from rendering.structure import reason_code

SPREAD = 0.20   # a renderer whose faithful share differs across complexities by more gets a warning
CHECKED = ("ok", "unfaithful")   # structured renders, judged; text renders (unchecked, invalid) have no share


@dataclass(frozen=True)
class FidelityRow:
    """One run x renderer x family x complexity: checked renders, faithful ones at the first try and at the end."""

    run: str
    renderer: str
    family: str
    complexity: int
    renders: int              # checked renders (faithful or unfaithful, the last round of each unit)
    faithful_first_try: int   # of them, faithful at round 0
    faithful: int             # of them, faithful at their last round (after any repair)
    misread: int = 0          # unfaithful renders with a premise or question that says something else
    unread: int = 0           # unfaithful renders with a premise that reads as no fact (and none misread)
    read_by_auditor: int = 0  # faithful renders whose unread premises a trusted auditor read as their facts

    @property
    def share(self) -> float | None:
        return self.faithful / self.renders if self.renders else None

    @property
    def share_first_try(self) -> float | None:
        return self.faithful_first_try / self.renders if self.renders else None

    def as_dict(self) -> dict:
        return {**asdict(self), "faithful_share": _round(self.share), "faithful_share_first_try": _round(self.share_first_try)}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def fidelity_rows(renders: Iterable[dict]) -> list[FidelityRow]:
    """From the best render record of each unit (with `run` and `first`, its round-0 status, set by the
    loader), one row per run x renderer x family x complexity that has checked renders."""
    return counted_fidelity_rows((rec, 1) for rec in renders)


def counted_fidelity_rows(renders: Iterable[tuple[dict, int]]) -> list[FidelityRow]:
    """fidelity_rows of (record, how many units have a record like it): what the columnar report counts."""
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for rec, n in renders:
        fam, comp = rec.get("family"), rec.get("complexity")
        if rec["status"] not in CHECKED or not isinstance(fam, str) or type(comp) is not int:
            continue
        c = counts[(rec.get("run", ""), rec["renderer"], fam, comp)]
        c[0] += n
        c[1] += n * (rec.get("first", rec["status"]) == "ok")
        c[2] += n * (rec["status"] == "ok")
        codes = {reason_code(x) for x in rec.get("checks") or () if isinstance(rec.get("checks"), list)}
        if rec["status"] == "unfaithful":
            c[3] += n * ("misread" in codes)
            c[4] += n * ("unread" in codes and "misread" not in codes)
        else:
            c[5] += n * ("unread" in codes)   # faithful with unread premises: the auditor read them
    return [FidelityRow(*key, *c) for key, c in sorted(counts.items())]


def spread_warnings(rows: list[FidelityRow], limit: float = SPREAD) -> list[str]:
    """One line per run x renderer whose faithful share, within a family, differs across complexities by
    more than `limit`: accuracy in its cells is over the renders it got right."""
    shares: dict[tuple[str, str], dict[str, list[tuple[int, float]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.share is not None:
            shares[(r.run, r.renderer)][r.family].append((r.complexity, r.share))
    out = []
    several = len({run for run, _ in shares}) > 1
    for (run, renderer), fams in sorted(shares.items()):
        worst = max(((max(s for _, s in v) - min(s for _, s in v), fam, v) for fam, v in fams.items()),
                    key=lambda x: (x[0], x[1]))
        spread, fam, v = worst
        if spread > limit + 1e-12:
            lo, hi = min(v, key=lambda x: x[1]), max(v, key=lambda x: x[1])
            out.append(f"warning: {run + ': ' if several else ''}{renderer}'s faithful share in {fam} is "
                       f"{lo[1]:.0%} at complexity {lo[0]} and {hi[1]:.0%} at {hi[0]}; accuracy in its cells is "
                       "over the renders it got right")
    return out
