"""The report's pictures (matplotlib, no display needed): the renderer x solver heatmap and accuracy by complexity."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from runner.errors import UserError
from runner.reporting.stats import SummaryRow, average, cells


def pyplot():
    """matplotlib's pyplot, drawing to files (no display); one line if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("the report's pictures need matplotlib: pip install 'logic-skeleton-bench[plot]'") from None
    return plt


def heatmap(rows: list[SummaryRow], chance: dict[str, float], target: Path,
            baselines: frozenset[tuple[str, str]] = frozenset()) -> None:
    """Pooled accuracy per renderer x solver, one panel per run: annotated cells, colour scale fixed at 0-1,
    the chance level (pooled over the run's answers) marked on the colour bar, baseline solvers marked,
    and a cell without answers saying why."""
    plt = pyplot()
    fig = heatmap_figure(rows, chance, baselines)
    save_tight(fig, target)
    plt.close(fig)


def save_tight(fig, target: Path, dpi: int = 130) -> None:
    """`fig.savefig(target, dpi=dpi, bbox_inches="tight")`, the same bytes, in one drawing instead of two: the tight
    box is measured on the figure's own renderer at `dpi` (savefig would draw the whole figure once to find it, then
    again to write it). Right for figures placed by hand, as ours are (no layout engine moves anything at a draw)."""
    import matplotlib
    fig.set_dpi(dpi)
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    fig.savefig(target, dpi=dpi, bbox_inches=box.padded(matplotlib.rcParams["savefig.pad_inches"]))


def _no_answers(rows: list[SummaryRow]) -> str:
    """Why a cell has no answer to score: its units' fates, most common first."""
    fates = {"unfaithful": sum(r.unfaithful for r in rows), "render failed": sum(r.render_failed for r in rows),
             "errors": sum(r.errors for r in rows), "invalid": sum(r.invalid for r in rows),
             "unchecked": sum(r.unchecked_n for r in rows)}
    parts = [f"{n} {what}" for what, n in sorted(fates.items(), key=lambda kv: (-kv[1], kv[0])) if n]
    head = "no faithful render" if fates["unfaithful"] or fates["render failed"] else "no answer"
    return head + (":\n" + "\n".join(parts[:2]) if parts else "")


def heatmap_figure(rows: list[SummaryRow], chance: dict[str, float], baselines: frozenset[tuple[str, str]]):
    """The heatmap as a matplotlib figure (see heatmap)."""
    plt = pyplot()
    by_cell = cells(rows)
    runs = sorted({k[0] for k in by_cell})
    fig, axes = plt.subplots(1, len(runs), squeeze=False,
                             figsize=(max(4.5, 1.6 * max(len({k[2] for k in by_cell if k[0] == r}) for r in runs) + 2.5)
                                      * len(runs), 1.0 + 0.9 * max(len({k[1] for k in by_cell if k[0] == r}) for r in runs)))
    cmap = plt.get_cmap("viridis").with_extremes(bad="#d9d9d9")   # a cell without answers: light grey, dark text
    image = None
    for ax, run in zip(axes[0], runs):
        renderers = sorted({k[1] for k in by_cell if k[0] == run})
        solvers = sorted({k[2] for k in by_cell if k[0] == run})
        grid = [[average(by_cell.get((run, r, s), [])) for s in solvers] for r in renderers]
        values = [[float("nan") if a.pooled is None else a.pooled for a in line] for line in grid]
        image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap=cmap, aspect="auto")
        for i, line in enumerate(grid):
            for j, a in enumerate(line):
                if a.pooled is None:
                    text, colour = _no_answers(by_cell.get((run, renderers[i], solvers[j]), [])), "#333333"
                else:
                    text = f"{a.pooled:.2f}\nn={a.n}\n[{a.ci95_low:.2f}, {a.ci95_high:.2f}]"
                    colour = "black" if a.pooled > 0.6 else "white"
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
        ax.set_xticks(range(len(solvers)), [f"{s}\n(baseline)" if (run, s) in baselines else s for s in solvers],
                      rotation=30, ha="right", fontsize=8)
        for label, s in zip(ax.get_xticklabels(), solvers):
            if (run, s) in baselines:
                label.set_fontstyle("italic")
                label.set_color("#555555")
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
    return fig


def _pooled_chance(rows: list[SummaryRow], chance: dict[str, float]) -> float | None:
    """The chance level of all answers together: each family's, weighted by its answers."""
    n = sum(r.n for r in rows if r.family in chance)
    return sum(r.n * chance[r.family] for r in rows if r.family in chance) / n if n else None


COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
DASHES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def line_styles(keys: list) -> dict:
    """A distinct (colour, line style, marker) for each key, the same in every panel: colours first, then
    dashes, then markers, so 20 lines never repeat a look (up to 320 are distinct)."""
    out = {}
    for i, key in enumerate(keys):
        out[key] = (COLOURS[i % len(COLOURS)], DASHES[(i // len(COLOURS)) % len(DASHES)],
                    MARKERS[(i // (len(COLOURS) * len(DASHES)) + i) % len(MARKERS)])
    return out


def by_complexity(rows: list[SummaryRow], chance: dict[str, float], target: Path) -> None:
    """Accuracy against complexity, one panel per family, one line per cell with its 95% interval as a band,
    the family's chance line, and one legend for all panels below them (never over the data)."""
    plt = pyplot()
    fig = by_complexity_figure(rows, chance)
    save_tight(fig, target)
    plt.close(fig)


def by_complexity_figure(rows: list[SummaryRow], chance: dict[str, float]):
    """The accuracy-by-complexity figure (see by_complexity)."""
    plt = pyplot()
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator
    families = sorted({r.family for r in rows})
    multi = len({r.run for r in rows}) > 1
    keys = sorted({(r.run, r.renderer, r.solver) for r in rows if r.accuracy is not None})
    styles = line_styles(keys)
    columns = 2 if len(keys) > 8 else 1
    fig, axes = plt.subplots(1, max(1, len(families)), figsize=(4.2 * max(1, len(families)), 3.6), squeeze=False,
                             sharey=True)
    for ax, fam in zip(axes[0], families):
        lines: dict[tuple, list[SummaryRow]] = defaultdict(list)
        for r in rows:
            if r.family == fam and r.accuracy is not None:
                lines[(r.run, r.renderer, r.solver)].append(r)
        bands, colours = [], []
        for key, pts in sorted(lines.items()):
            pts.sort(key=lambda r: r.complexity)
            xs = [p.complexity for p in pts]
            colour, dash, marker = styles[key]
            ax.plot(xs, [p.accuracy for p in pts], color=colour, linestyle=dash, marker=marker, markersize=3.5)
            # the band's outline: along the lower bounds, back along the upper ones (what fill_between draws)
            bands.append(list(zip(xs + xs[::-1], [p.ci95_low for p in pts] + [p.ci95_high for p in pts][::-1])))
            colours.append(colour)
        # every band of a panel in one collection: one artist, not one each (fill_between's cost: 6 ms a band)
        ax.add_collection(PolyCollection(bands, facecolors=colours, edgecolors=colours, alpha=0.10))
        if fam in chance:
            ax.axhline(chance[fam], color="grey", linestyle=(0, (1, 3)), linewidth=1)
            ax.text(ax.get_xlim()[1], chance[fam], f" chance {chance[fam]:.2f}", fontsize=6, color="grey", va="center")
        ax.set_title(fam, fontsize=9)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("complexity (proof length)")
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("accuracy (95% CI band)")
    handles = [Line2D([], [], color=c, linestyle=d, marker=m, markersize=4) for c, d, m in (styles[k] for k in keys)]
    labels = [(f"{k[0]}: " if multi else "") + f"{k[1]} / {k[2]}" for k in keys]
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=columns, fontsize=7,
               frameon=False, title="renderer / solver", title_fontsize=7)
    _panel_layout(fig, len(axes[0]))   # the legend hangs below the panels; savefig's bbox_inches="tight" keeps it whole
    return fig


# The margins and the gap between panels (inches) that `tight_layout` computes for these panels, whose texts are
# always of the same sizes (tick labels, the axis labels, a family's title, the chance level's label that sticks out
# right of each panel): set, not measured (measuring every text was 0.6 s of the picture's 1 s; BENCHMARKS.md)
_LEFT, _RIGHT, _BOTTOM, _TOP, _GAP = 0.67, 0.67, 0.59, 0.35, 0.72


def _panel_layout(fig, panels: int) -> None:
    """Place `panels` panels side by side with the fixed margins and gap."""
    width, height = fig.get_size_inches()
    panel = (width - _LEFT - _RIGHT - _GAP * (panels - 1)) / panels
    fig.subplots_adjust(left=_LEFT / width, right=1 - _RIGHT / width, bottom=_BOTTOM / height, top=1 - _TOP / height,
                        wspace=_GAP / panel)
