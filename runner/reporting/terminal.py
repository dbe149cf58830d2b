"""The report in the terminal: rich tables readable at 100 columns (heatmap, depth tables, per-cell problems)."""
from __future__ import annotations

import io
import sys
from collections import defaultdict

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from runner.fidelity.calibration import Trust
from runner.reporting.compare import Paired
from runner.reporting.fidelity import FidelityRow
from runner.reporting.stats import SummaryRow, average, cells

BASELINE_KINDS = {"random", "prior"}


def console() -> Console:
    """Stdout; 100 columns when it is not a terminal (a file, a pipe, a test), so tables stay whole."""
    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 100, highlight=False)


def _acc(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _ci(lo: float | None, hi: float | None, signed: bool = False) -> str:
    if lo is None:
        return ""
    return f"[{lo:+.2f},{hi:+.2f}]" if signed else f"[{lo:.2f}, {hi:.2f}]"


def baselines(grids: dict) -> frozenset[tuple[str, str]]:
    """(run, solver label) of every built-in baseline solver (random, prior) of the runs' grids."""
    return frozenset((run, st.label) for run, g in grids.items() for st in g.solvers
                     if g.providers[st.provider].kind in BASELINE_KINDS)


def solver_title(run_grid, solver: str) -> str:
    """A solver's column head, `(baseline)` under the built-in random and prior solvers."""
    kinds = {st.label: run_grid.providers[st.provider].kind for st in run_grid.solvers} if run_grid else {}
    return f"{solver}\n(baseline)" if kinds.get(solver) in BASELINE_KINDS else solver


NAME_WIDTH = 36   # a `renderer / solver` name wider than this goes on rows of its own: a name is never cut
WIDTH = 100


def name_column(t: Table, head: str) -> None:
    """The first column of a table keyed by names: never wrapped, never cut (the numbers give way)."""
    t.add_column(head, no_wrap=True, overflow="ignore")


def grouped_rows(t: Table, keys: list[tuple[str, str, str]], values_of, multi: bool) -> None:
    """Rows keyed by (run, group, member), e.g. (run, renderer, solver): `group / member` in the first column
    while that fits NAME_WIDTH, else each group on a row of its own with its members under it."""
    names = [(f"{k[0]}: " if multi else "") + f"{k[1]} / {k[2]}" for k in keys]
    if max(map(len, names), default=0) <= NAME_WIDTH:
        for name, k in zip(names, keys):
            t.add_row(name, *values_of(k))
        return
    last = None
    for k in keys:
        head = (f"{k[0]}: " if multi else "") + k[1]
        if head != last:
            t.add_row(head, *[""] * (len(t.columns) - 1), style="bold")
            last = head
        t.add_row("  " + k[2], *values_of(k))


def heatmaps(rows: list[SummaryRow], grids: dict) -> list[Table]:
    """One renderer x solver table per run: pooled accuracy over every family and complexity, n, 95% CI."""
    out = []
    by_cell = cells(rows)
    for run in sorted({r.run for r in rows}):
        renderers = sorted({k[1] for k in by_cell if k[0] == run})
        solvers = sorted({k[2] for k in by_cell if k[0] == run})
        t = Table(title=f"{run}: accuracy, renderer x solver (pooled over families and complexities; "
                        "answers on faithful renders; n and 95% CI)", box=box.SIMPLE_HEAD, title_justify="left")
        name_column(t, "renderer \\ solver")
        titles = [solver_title(grids.get(run), s) for s in solvers]
        wide = max(map(len, renderers)) + sum(max(14, *map(len, h.split("\n"))) + 3 for h in titles) > WIDTH
        if wide:   # the solvers' names would not fit as column heads: letters, and who they are below
            t.caption = "; ".join(f"{chr(65 + i)} = {h.replace(chr(10), ' ')}" for i, h in enumerate(titles))
            t.caption_justify = "left"
            titles = [chr(65 + i) for i in range(len(titles))]
        for h in titles:
            t.add_column(h, justify="right")
        for r in renderers:
            line = [r]
            for s in solvers:
                avg = average(by_cell.get((run, r, s), []))
                line.append("-" if avg.pooled is None else f"{avg.pooled:.3f} (n={avg.n})\n{_ci(avg.ci95_low, avg.ci95_high)}")
            t.add_row(*line)
        out.append(t)
    return out


def depth_tables(rows: list[SummaryRow], chance: dict[str, float]) -> list[Table]:
    """Per family: every cell's accuracy at each complexity, then its pooled and macro average."""
    out = []
    for family in sorted({r.family for r in rows}):
        fam = [r for r in rows if r.family == family]
        comps = sorted({r.complexity for r in fam})
        ch = chance.get(family)
        t = Table(title=f"{family}: accuracy by complexity (n); chance {_acc(ch)}; pooled = every answer "
                        "weighs the same, macro = every complexity does", box=box.SIMPLE_HEAD, title_justify="left")
        name_column(t, "cell (renderer / solver)")
        for c in comps:
            t.add_column(str(c), justify="right")
        t.add_column("pooled", justify="right")
        t.add_column("macro", justify="right")
        by_cell: dict[tuple, dict[int, SummaryRow]] = defaultdict(dict)
        for r in fam:
            by_cell[(r.run, r.renderer, r.solver)][r.complexity] = r
        multi = len({k[0] for k in by_cell}) > 1

        def values(key, by_cell=by_cell, comps=comps):
            got = by_cell[key]
            avg = average(got.values())
            return [*[(f"{_acc(got[c].accuracy)} ({got[c].n})" if c in got else "") for c in comps],
                    _acc(avg.pooled), _acc(avg.macro)]
        grouped_rows(t, sorted(by_cell), values, multi)
        out.append(t)
    return out


def problems_table(rows: list[SummaryRow], latency: dict) -> Table:
    """Per cell: what is not an answer (never counted as wrong), answers on unchecked renders, latency, tokens."""
    t = Table(title="per cell: units not in accuracy (never counted as wrong), latency and tokens",
              box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    t.caption = ("unchecked: accuracy (n) on free-text renders; p50/p95: latency in seconds; tokens: mean "
                 "prompt/completion tokens of the units that have them")
    name_column(t, "cell")
    by_cell = cells(rows)
    multi = len({k[0] for k in by_cell}) > 1
    unchecked = any(r.unchecked_n for r in rows)   # a column for free-text renders only where there are some
    for head in ("answers", "invalid", "errors", "unfaith-\nful", "render\nfailed") + \
            (("unchecked",) if unchecked else ()) + ("p50/p95\n(s)", "tokens\nin/out"):
        t.add_column(head, justify="right", overflow="fold")

    def values(key):
        rs = by_cell[key]
        total = lambda f: sum(getattr(r, f) for r in rs)  # noqa: E731
        un, uc = total("unchecked_n"), total("unchecked_correct")
        p50, p95, tin, tout = latency.get(key, (None, None, None, None))
        return [str(total("n")), str(total("invalid")), str(total("errors")),
                str(total("unfaithful")) + (f" (+{total('sent_unfaithful_n')} sent)" if total("sent_unfaithful_n") else ""),
                str(total("render_failed"))] + ([f"{uc / un:.3f} ({un})" if un else "-"] if unchecked else []) + \
            ["-" if p50 is None else f"{p50:.2f}/{p95:.2f}", "-" if tin is None else f"{tin:.0f}/{tout:.0f}"]
    grouped_rows(t, sorted(by_cell), values, multi)
    return t


def paired_table(results: list[Paired], width: int = WIDTH) -> Table:
    """The paired comparisons: difference in accuracy on identical units, its interval, McNemar's p (a table for a
    console `width` wide)."""
    # the name held fixed in a name column (never folded: "templat" over "e" was one); where the figures leave the
    # names too little room, each is given by a number, said in full under the table
    names = list(dict.fromkeys(r.within for r in results))
    t = _paired(results, {name: name for name in names})
    if Measurement.get(_MEASURE, _MEASURE.options, t).maximum > width:
        numbered = {name: f"[{i}]" for i, name in enumerate(names, 1)}
        t = _paired(results, numbered)
        t.caption, t.caption_justify = "   ".join(f"{n} {name}" for name, n in numbered.items()), "left"
    return t


_MEASURE = Console(width=10_000, file=io.StringIO())   # measures a table's natural width, prints nothing


def _paired(results: list[Paired], shown_as: dict[str, str]) -> Table:
    """The paired table, each name held fixed shown as `shown_as` says; each run on a row of its own above its
    pairs where there are several."""
    first = results[0]
    t = Table(title=f"paired: {first.kind} {first.a} (A) vs {first.b} (B) on identical units "
                    "(95% CI: bootstrap over skeletons, seed 0; p: McNemar exact)", box=box.SIMPLE_HEAD,
              title_justify="left", pad_edge=False)
    heads = ("pairs", "acc A", "acc B", "A - B", "95% CI", "p", "A\nonly", "B\nonly", "un-\npaired")
    multi = len({r.run for r in results}) > 1
    name_column(t, "run / with" if multi else "with")
    for head in heads:
        t.add_column(head, justify="right", no_wrap=True)
    shown = None
    for r in results:
        if multi and r.run != shown:
            t.add_row(r.run, *[""] * len(heads), style="bold")
            shown = r.run
        t.add_row(("  " if multi else "") + shown_as[r.within], str(r.pairs), _acc(r.accuracy_a),
                  _acc(r.accuracy_b), "-" if r.difference is None else f"{r.difference:+.3f}",
                  _ci(r.ci95_low, r.ci95_high, signed=True), "-" if r.mcnemar_p is None else f"{r.mcnemar_p:.3g}",
                  str(r.a_only), str(r.b_only), str(r.unpaired))
    return t


def auditors_table(rows: list[tuple[str, Trust]]) -> Table:
    """Per auditor and family: what it made of the control's renders, and whether it may reject renders."""
    t = Table(title="auditors on the control (the template's renders, faithful by construction): "
                    "an untrusted auditor's disagreements reject no render", box=box.SIMPLE_HEAD,
              title_justify="left", pad_edge=False)
    multi = len({run for run, _ in rows}) > 1
    name_column(t, "auditor / family")
    for head in ("read", "agreed", "dis-\nagreed", "failed", "false\nalarm", "at\nmost", "thres-\nhold", "trusted"):
        t.add_column(head, justify="right", overflow="fold")
    by = {(run, a.auditor, a.family): a for run, a in rows}
    grouped_rows(t, sorted(by), lambda k: [str(by[k].read), str(by[k].agreed), str(by[k].disagreed), str(by[k].failed),
                                           _acc(by[k].false_alarm), _acc(by[k].false_alarm_upper),
                                           f"{by[k].max_false_alarm:.3f}", "yes" if by[k].trusted else "no"], multi)
    return t


def _cell(r: FidelityRow, repaired: bool) -> str:
    if not r.renders:
        return "-"
    final = f"{r.share:.2f}"
    return (f"{r.share_first_try:.2f}>{final} ({r.renders})" if repaired else f"{final} ({r.renders})")


def _by_complexity(title: str, rows: list[FidelityRow], cell) -> Table:
    """Renderer x family rows, a column per complexity, `cell(row)` in each."""
    comps = sorted({r.complexity for r in rows})
    t = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    name_column(t, "renderer / family")
    for c in comps:
        t.add_column(str(c), justify="right")
    by: dict[tuple, dict[int, FidelityRow]] = defaultdict(dict)
    for r in rows:
        by[(r.run, r.renderer, r.family)][r.complexity] = r
    grouped_rows(t, sorted(by), lambda k: [cell(by[k][c]) if c in by[k] else "" for c in comps],
                 len({r.run for r in rows}) > 1)
    return t


def fidelity_table(rows: list[FidelityRow]) -> Table | None:
    """Renderer x family rows, a column per complexity: faithful share (first try > after repair) and n."""
    if not rows:
        return None
    repaired = any(r.faithful != r.faithful_first_try for r in rows)
    return _by_complexity("faithful renders by complexity: share (n)" + (", first try > after repair" if repaired
                                                                           else ""), rows, lambda r: _cell(r, repaired))


def reading_table(rows: list[FidelityRow]) -> Table | None:
    """Renderer x family rows, a column per complexity: unfaithful renders that misread / did not read a
    premise, and faithful ones an auditor read (only rows that have any)."""
    rows = [r for r in rows if r.misread or r.unread or r.read_by_auditor]
    if not rows:
        return None
    audited = any(r.read_by_auditor for r in rows)
    return _by_complexity("premises read back, by complexity: misread / unread renders" +
                          (" / read by the auditor" if audited else ""), rows,
                          lambda r: f"{r.misread}/{r.unread}" + (f"/{r.read_by_auditor}" if audited else ""))
