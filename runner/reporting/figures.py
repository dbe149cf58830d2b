"""The report's pictures (matplotlib, no display needed): the renderer x solver heatmap and accuracy by complexity."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from runner.errors import UserError
from runner.reporting.stats import SummaryRow, average, cells


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("the report's pictures need matplotlib: pip install 'logic-skeleton-bench[plot]'") from None
    return plt


def heatmap(rows: list[SummaryRow], chance: dict[str, float], target: Path) -> None:
    """Pooled accuracy per renderer x solver, one panel per run: annotated cells, colour scale fixed at 0-1,
    the chance level (pooled over the run's answers) marked on the colour bar."""
    plt = _pyplot()
    by_cell = cells(rows)
    runs = sorted({k[0] for k in by_cell})
    fig, axes = plt.subplots(1, len(runs), squeeze=False,
                             figsize=(max(4.5, 1.6 * max(len({k[2] for k in by_cell if k[0] == r}) for r in runs) + 2.5)
                                      * len(runs), 1.0 + 0.9 * max(len({k[1] for k in by_cell if k[0] == r}) for r in runs)))
    image = None
    for ax, run in zip(axes[0], runs):
        renderers = sorted({k[1] for k in by_cell if k[0] == run})
        solvers = sorted({k[2] for k in by_cell if k[0] == run})
        grid = [[average(by_cell.get((run, r, s), [])) for s in solvers] for r in renderers]
        values = [[float("nan") if a.pooled is None else a.pooled for a in line] for line in grid]
        image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap="viridis", aspect="auto")
        for i, line in enumerate(grid):
            for j, a in enumerate(line):
                text = "-" if a.pooled is None else f"{a.pooled:.2f}\nn={a.n}\n[{a.ci95_low:.2f}, {a.ci95_high:.2f}]"
                ax.text(j, i, text, ha="center", va="center", fontsize=7,
                        color="black" if (a.pooled or 0) > 0.6 else "white")
        ax.set_xticks(range(len(solvers)), solvers, rotation=30, ha="right", fontsize=8)
        ax.set_yticks(range(len(renderers)), renderers, fontsize=8)
        ax.set_xlabel("solver")
        ax.set_ylabel("renderer")
        ax.set_title(run, fontsize=9)
    bar = fig.colorbar(image, ax=axes[0].tolist(), fraction=0.05)
    bar.set_label("accuracy (answers on faithful renders)")
    level = _pooled_chance(rows, chance)
    if level is not None:   # the chance level of these answers, as a red line on the colour scale
        bar.ax.axhline(level, color="red", linewidth=2)
        fig.suptitle(f"accuracy (chance {level:.2f}: the red line on the scale)", fontsize=9, y=1.02)
    fig.savefig(target, dpi=130, bbox_inches="tight")
    plt.close(fig)


def _pooled_chance(rows: list[SummaryRow], chance: dict[str, float]) -> float | None:
    """The chance level of all answers together: each family's, weighted by its answers."""
    n = sum(r.n for r in rows if r.family in chance)
    return sum(r.n * chance[r.family] for r in rows if r.family in chance) / n if n else None


def by_complexity(rows: list[SummaryRow], chance: dict[str, float], target: Path) -> None:
    """Accuracy against complexity, one panel per family, one line per cell with its 95% interval as a band,
    and the family's chance line."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator
    families = sorted({r.family for r in rows})
    fig, axes = plt.subplots(1, max(1, len(families)), figsize=(4.2 * max(1, len(families)), 3.6), squeeze=False,
                             sharey=True)
    multi = len({r.run for r in rows}) > 1
    for ax, fam in zip(axes[0], families):
        lines: dict[tuple, list[SummaryRow]] = defaultdict(list)
        for r in rows:
            if r.family == fam and r.accuracy is not None:
                lines[(r.run, r.renderer, r.solver)].append(r)
        for key, pts in sorted(lines.items()):
            pts.sort(key=lambda r: r.complexity)
            xs = [p.complexity for p in pts]
            label = (f"{key[0]}: " if multi else "") + f"{key[1]} / {key[2]}"
            (line,) = ax.plot(xs, [p.accuracy for p in pts], marker="o", markersize=3, label=label)
            ax.fill_between(xs, [p.ci95_low for p in pts], [p.ci95_high for p in pts], color=line.get_color(), alpha=0.15)
        if fam in chance:
            ax.axhline(chance[fam], color="grey", linestyle="--", linewidth=1, label=f"chance {chance[fam]:.2f}")
        ax.set_title(fam, fontsize=9)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("complexity (proof length)")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=6)
    axes[0][0].set_ylabel("accuracy (95% CI band)")
    fig.tight_layout()
    fig.savefig(target, dpi=130)
    plt.close(fig)
