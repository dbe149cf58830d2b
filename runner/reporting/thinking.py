"""Thinking solvers in a report: thought tokens by family and complexity beside accuracy, accuracy by
thought length, and the picture of tokens against proof depth. Cut thoughts are counted apart."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

from rich import box
from rich.table import Table

from runner.reporting.files import md_table
from runner.reporting.load import Outcome
from runner.reporting.stats import SummaryRow, percentile, wilson

# Bins of thought length, in tokens: doubling from 256 (a thought shorter than that is one bin).
BIN_EDGES = (0, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)


THINKS = ":think"   # the end of a thinking solver's label (runner/config/grid.py Stage.label)


def thinking_solvers(rows: list[SummaryRow]) -> list[tuple[str, str, str]]:
    """(run, renderer, solver) of every cell of a thinking solver, whether or not its thoughts were counted."""
    return sorted({(r.run, r.renderer, r.solver) for r in rows
                   if r.solver.endswith(THINKS) or r.thinking_from or r.thinking_n or r.thinking_cut})


def counted_by(rows: list[SummaryRow], cell: tuple[str, str, str]) -> str:
    """Who counted a thinking solver's thought tokens, in words, from its rows' `thinking_from`."""
    sources = sorted({s for r in rows if (r.run, r.renderer, r.solver) == cell for s in r.thinking_from.split("+") if s})
    return ", ".join(SOURCES.get(s, s) for s in sources) or "no thought came back"


SOURCES = {"usage": "the server's usage (reasoning_tokens)", "tokenize": "the server's /tokenize",
           "completion": "completion tokens less the answer's", "estimate": "estimated (4 characters a token)",
           "empty": "no thought (0)", "uncounted": "not counted"}


@dataclass(frozen=True)
class ThoughtBin:
    """One solver's answers whose thought had lo <= tokens < hi: how many, how many right (faithful renders)."""

    run: str
    solver: str
    lo: int
    hi: int | None
    n: int
    correct: int
    accuracy: float | None
    ci95_low: float | None
    ci95_high: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def thought_bins(outcomes: list[Outcome]) -> list[ThoughtBin]:
    """Accuracy by thought length per (run, solver): ok answers on faithful renders with a counted thought."""
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        if o.thinking is None or o.cut or o.status != "ok" or o.render_status != "ok":
            continue
        i = next((i for i in range(len(BIN_EDGES) - 1, -1, -1) if o.thinking >= BIN_EDGES[i]))
        c = counts[(o.run, o.solver, i)]
        c[0] += 1
        c[1] += bool(o.correct)
    out = []
    for (run, solver, i), (n, k) in sorted(counts.items()):
        lo, hi = wilson(k, n)
        out.append(ThoughtBin(run, solver, BIN_EDGES[i], BIN_EDGES[i + 1] if i + 1 < len(BIN_EDGES) else None, n, k,
                              round(k / n, 4), lo, hi))
    return out


def _tokens(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


HEAD = ["family", "complexity", "thoughts", "median", "p90", "accuracy", "n", "cut"]


def _lines(rows: list[SummaryRow], cell: tuple[str, str, str]) -> list[list[str]]:
    """One thinking solver's rows (one per family and complexity), as the table and report.md show them."""
    return [[r.family, str(r.complexity), str(r.thinking_n), _tokens(r.thinking_median), _tokens(r.thinking_p90),
             "-" if r.accuracy is None else f"{r.accuracy:.3f}", str(r.n), str(r.thinking_cut)]
            for r in rows if (r.run, r.renderer, r.solver) == cell]


def tables(rows: list[SummaryRow], bins: list[ThoughtBin]) -> list[Table]:
    """Per thinking solver: thought tokens (median, p90) and accuracy by family and complexity, then accuracy
    by thought length."""
    out = []
    for run, renderer, solver in thinking_solvers(rows):
        t = Table(title=f"thinking: {renderer} / {solver}" + (f" ({run})" if len({r.run for r in rows}) > 1 else "")
                  + f"; tokens from {counted_by(rows, (run, renderer, solver))}",
                  box=box.SIMPLE_HEAD, title_justify="left")
        for head in HEAD:
            t.add_column(head, justify="left" if head == "family" else "right", no_wrap=True)
        for line in _lines(rows, (run, renderer, solver)):
            t.add_row(*line)
        out.append(t)
    if bins:
        t = Table(title="accuracy by thought length (tokens)", box=box.SIMPLE_HEAD, title_justify="left")
        for head in ("solver", "tokens", "n", "accuracy", "95% CI"):
            t.add_column(head, justify="left" if head == "solver" else "right", no_wrap=True)
        for b in bins:
            t.add_row(b.solver, f"{b.lo:,}-{b.hi:,}" if b.hi else f"{b.lo:,}+", str(b.n),
                      "-" if b.accuracy is None else f"{b.accuracy:.3f}", f"[{b.ci95_low:.2f}, {b.ci95_high:.2f}]")
        out.append(t)
    return out


def markdown(rows: list[SummaryRow], bins: list[ThoughtBin], picture: bool) -> list[str]:
    """report.md's thinking section (empty without thinking solvers)."""
    solvers = thinking_solvers(rows)
    if not solvers:
        return []
    parts = ["", "## Thinking", "", "Thought tokens of answered units (median and 90th percentile; thoughts cut by "
             "max_tokens are counted apart and are invalid units, never wrong answers) beside accuracy.", ""]
    if picture:
        parts += ["![thinking tokens by complexity](thinking_by_complexity.png)", ""]
    for run, renderer, solver in solvers:
        parts += [f"### {renderer} / {solver} ({run})", "",
                  f"Thought tokens from {counted_by(rows, (run, renderer, solver))}.", "",
                  md_table(HEAD, _lines(rows, (run, renderer, solver))), ""]
    if bins:
        parts += ["Accuracy by thought length:", "",
                  md_table(["run", "solver", "tokens", "n", "accuracy", "95% CI"],
                      [[b.run, b.solver, f"{b.lo}-{b.hi}" if b.hi else f"{b.lo}+", str(b.n), f"{b.accuracy:.3f}",
                        f"{b.ci95_low:.3f}-{b.ci95_high:.3f}"] for b in bins]), ""]
    return parts


def by_depth(outcomes: list[Outcome]) -> dict[tuple[str, str], dict[int, list[int]]]:
    """(run, solver) -> complexity -> the sorted thought tokens of its answered units (cut ones left out)."""
    out: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for o in outcomes:
        if o.thinking is not None and not o.cut and o.status != "error":
            out[(o.run, o.solver)][o.complexity].append(o.thinking)
    for per in out.values():
        for values in per.values():
            values.sort()
    return out


def figure(outcomes: list[Outcome], target: Path) -> bool:
    """thinking_by_complexity.png: median thought tokens against proof depth, one line per solver, its
    interquartile range shaded. False (nothing drawn) without thoughts."""
    data = by_depth(outcomes)
    if not data:
        return False
    from runner.reporting.figures import line_styles, pyplot
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    multi = len({run for run, _ in data}) > 1
    styles = line_styles(sorted(data))
    for key in sorted(data):
        per = data[key]
        xs = sorted(per)
        colour, dash, marker = styles[key]
        ax.plot(xs, [percentile(per[x], 0.5) for x in xs], label=f"{key[0]}: {key[1]}" if multi else key[1],
                color=colour, linestyle=dash, marker=marker)
        ax.fill_between(xs, [percentile(per[x], 0.25) for x in xs], [percentile(per[x], 0.75) for x in xs],
                        alpha=0.15, color=colour)
    ax.set_xlabel("complexity (proof depth)")
    ax.set_ylabel("thought tokens (median, interquartile range)")
    ax.set_title("How long solvers think, by depth")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=min(3, len(data)), frameon=False)
    fig.tight_layout()
    fig.savefig(target, dpi=120)
    plt.close(fig)
    return True
