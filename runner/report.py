"""`bench report`: accuracy tables (with Wilson intervals), a CSV pandas reads, and an optional plot."""
from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from pathlib import Path

from runner.errors import UserError
from runner.grid import Grid
from runner.logs import best_records
from runner.pipeline import SOLVES
from runner.summary import CellStats
from runner.units import UnitPlan, skeletons

DIMENSIONS = ("renderer", "solver", "family", "complexity")


def row(st: CellStats) -> dict:
    """One group's figures: accuracy over `ok` answers with its Wilson interval; invalid and error apart."""
    lo, hi = wilson(st.correct, st.ok)
    return {"n": st.ok + st.invalid + st.error, "ok": st.ok, "correct": st.correct,
            "accuracy": round(st.accuracy, 4) if st.accuracy is not None else None,
            "ci95_low": lo, "ci95_high": hi, "invalid": st.invalid, "error": st.error}


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float | None, float | None]:
    """The Wilson score interval of k successes in n trials."""
    if n == 0:
        return None, None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(centre - half, 4), round(centre + half, 4)


def current_records(grid: Grid, folder: Path) -> list[dict]:
    """The best record of every solve unit of this grid (terminal over error); other grids' are left out."""
    plan = UnitPlan(grid)
    return best_records(folder / SOLVES, {su.key for sk in skeletons(grid) for unit in plan.units(sk) for su in unit.solves})


RENDER_KINDS = {"ok": "faithful", "unchecked": "unchecked", "unfaithful": "unfaithful"}


def renders_text(grid: Grid, folder: Path) -> str:
    """The renders table of this grid's render units: faithful, unfaithful by reason, invalid, unchecked, audits."""
    from runner.pipeline import RENDERS
    from runner.summary import render_stats, render_table
    plan = UnitPlan(grid)
    keys = {unit.key for sk in skeletons(grid) for unit in plan.units(sk)}
    return render_table(render_stats(best_records(folder / RENDERS, keys)))


def aggregate(records: list[dict], by: tuple[str, ...], pool_renders: bool = False) -> list[dict]:
    """One row per group of `by`, sorted; answers on faithful, unchecked and unfaithful renders (sent
    anyway) are rows apart, under `renders`, unless `pool_renders` counts them together."""
    groups: dict[tuple, CellStats] = defaultdict(CellStats)
    for rec in records:
        kind = "all" if pool_renders else RENDER_KINDS.get(rec.get("render_status", "ok"), "faithful")
        groups[tuple(rec[d] for d in by) + (kind,)].add(rec["status"], rec["correct"])
    return [{**dict(zip(by, key)), "renders": key[-1], **row(st)} for key, st in sorted(groups.items())]


def to_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buf.getvalue()


def to_text(rows: list[dict]) -> str:
    if not rows:
        return "(no solve records for this grid yet)"
    head = list(rows[0])
    cells = [[("-" if r[h] is None else f"{r[h]:.3f}" if isinstance(r[h], float) else str(r[h])) for h in head]
             for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *cells)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths)) for line in [head] + cells)


def plot(records: list[dict], target: Path) -> None:
    """Accuracy by complexity, one panel per family, one line per (renderer, solver) cell."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("--plot needs matplotlib: pip install 'logic-skeleton-bench[plot]'") from None
    rows = aggregate(records, DIMENSIONS)
    families = sorted({r["family"] for r in rows})
    fig, axes = plt.subplots(1, len(families), figsize=(4.5 * len(families), 3.6), squeeze=False, sharey=True)
    for ax, fam in zip(axes[0], families):
        for cell in sorted({(r["renderer"], r["solver"], r["renders"]) for r in rows}):
            pts = [r for r in rows if r["family"] == fam and (r["renderer"], r["solver"], r["renders"]) == cell and r["ok"]]
            if pts:
                xs = [p["complexity"] for p in pts]
                ax.errorbar(xs, [p["accuracy"] for p in pts], marker="o", capsize=3, label=" / ".join(cell),
                            yerr=[[p["accuracy"] - p["ci95_low"] for p in pts], [p["ci95_high"] - p["accuracy"] for p in pts]])
        ax.set_title(fam)
        ax.set_xlabel("complexity (proof length)")
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("accuracy (ok answers, 95% CI)")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(target, dpi=120)
