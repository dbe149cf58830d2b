"""The report's files: summary.csv and .json (pandas reads both), report.md, and the grouped table (report.csv)."""
from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from dataclasses import asdict, fields
from operator import attrgetter

import orjson

from runner.fidelity.calibration import Trust
from runner.reporting.compare import Paired
from runner.reporting.fidelity import FidelityRow
from runner.reporting.load import Outcome
from runner.reporting.stats import RENDER_KINDS, SummaryRow, Tally, average, cells, wilson

DIMENSIONS = ("renderer", "solver", "family", "complexity")


def summary_csv(rows: list[SummaryRow]) -> bytes:
    """One line per renderer x solver x family x complexity (and run); empty cells for missing values."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([f.name for f in fields(SummaryRow)])
    for r in rows:
        writer.writerow(["" if v is None else v for v in asdict(r).values()])
    return buf.getvalue().encode()


def summary_json(rows: list[SummaryRow], averages: dict, compared: list[Paired], fidelity: list[FidelityRow],
                 warnings: list[str], auditors: list[tuple[str, Trust]], thought_bins: list[dict] = ()) -> bytes:
    """`rows` (as in summary.csv), the per-cell averages, any paired comparisons, faithful renders per
    renderer x family x complexity with the warnings they give, each auditor's calibration, and the
    thinking solvers' accuracy by thought length."""
    return orjson.dumps({"rows": [r.as_dict() for r in rows], "cells": averages,
                         "paired": [asdict(p) for p in compared], "renders": [f.as_dict() for f in fidelity],
                         "warnings": warnings, "auditors": [{"run": run, **a.as_dict()} for run, a in auditors],
                         "thinking_bins": list(thought_bins)},
                        option=orjson.OPT_INDENT_2)


def cell_averages(rows: list[SummaryRow]) -> list[dict]:
    """Per (run, renderer, solver): pooled and macro accuracy over everything, and per family."""
    out = []
    for (run, renderer, solver), rs in sorted(cells(rows).items()):
        whole = average(rs)
        fams = {}
        for fam in sorted({r.family for r in rs}):
            a = average(r for r in rs if r.family == fam)
            fams[fam] = {"n": a.n, "pooled": a.pooled, "macro_over_complexities": a.macro}
        out.append({"run": run, "renderer": renderer, "solver": solver, "n": whole.n, "correct": whole.correct,
                    "pooled": whole.pooled, "ci95_low": whole.ci95_low, "ci95_high": whole.ci95_high,
                    "macro_over_groups": whole.macro, "families": fams})
    return out


def md_table(head: list[str], lines: list[list[str]]) -> str:
    """A markdown table (pipes inside cells escaped)."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(x.replace("|", "\\|") for x in line) + " |" for line in lines]
    return "\n".join(out)


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def markdown(rows: list[SummaryRow], chance: dict[str, float], compared: list[Paired], pictures: bool,
             runs: list[str], renders: str, fidelity: list[FidelityRow], warnings: list[str],
             auditors: list[tuple[str, Trust]]) -> str:
    """report.md: the pictures, the heatmap as a table, accuracy by complexity per family, per-cell problems."""
    parts = [f"# Report: {', '.join(runs)}", "",
             "Accuracy counts answers on faithful renders only; invalid answers, errors and units whose render "
             "was unfaithful or invalid are shown apart and never counted as wrong. Intervals are 95% Wilson "
             "score intervals. *Pooled*: every answer weighs the same; *macro*: every complexity (or group) does.", ""]
    if pictures:
        parts += ["![renderer x solver accuracy](heatmap.png)", "", "![accuracy by complexity](accuracy_by_complexity.png)", ""]
    parts += ["## Renderer x solver", ""]
    parts.append(md_table(["run", "renderer", "solver", "n", "pooled", "95% CI", "macro"],
                           [[run, r, s, str(a.n), _f(a.pooled), "" if a.ci95_low is None else f"{a.ci95_low:.3f}-{a.ci95_high:.3f}",
                             _f(a.macro)] for (run, r, s), rs in sorted(cells(rows).items()) for a in [average(rs)]]))
    if warnings:
        parts += [""] + [f"> {w}" for w in warnings]
    for fam in sorted({r.family for r in rows}):
        fam_rows = [r for r in rows if r.family == fam]
        comps = sorted({r.complexity for r in fam_rows})
        by: dict[tuple, dict[int, SummaryRow]] = defaultdict(dict)
        for r in fam_rows:
            by[(r.run, r.renderer, r.solver)][r.complexity] = r
        parts += ["", f"## {fam} (chance {_f(chance.get(fam))})", ""]
        lines = []
        for key in sorted(by):
            got = by[key]
            a = average(got.values())
            lines.append([" / ".join(key)] + [f"{_f(got[c].accuracy)} ({got[c].n})" if c in got else "" for c in comps]
                         + [_f(a.pooled), _f(a.macro)])
        parts.append(md_table(["run / renderer / solver"] + [str(c) for c in comps] + ["pooled", "macro"], lines))
    parts += ["", "## Not in accuracy", ""]
    lines = []
    for key, rs in sorted(cells(rows).items()):
        s = lambda f, rs=rs: str(sum(getattr(r, f) for r in rs))  # noqa: E731   # this cell's rows, bound now
        lines.append([" / ".join(key), s("invalid"), s("errors"), s("unfaithful"), s("render_failed"),
                      s("unchecked_n"), s("sent_unfaithful_n")])
    parts.append(md_table(["run / renderer / solver", "invalid", "errors", "unfaithful (not sent)", "render failed",
                            "answers on unchecked renders", "answers on unfaithful renders"], lines))
    if compared:
        parts += ["", "## Paired comparisons", ""]
        parts.append(md_table(["kind", "A", "B", "run", "with", "pairs", "A - B", "95% CI", "McNemar p", "A only", "B only"],
                               [[p.kind, p.a, p.b, p.run, p.within, str(p.pairs),
                                 "-" if p.difference is None else f"{p.difference:+.3f}",
                                 "" if p.ci95_low is None else f"{p.ci95_low:+.3f} to {p.ci95_high:+.3f}",
                                 "-" if p.mcnemar_p is None else f"{p.mcnemar_p:.3g}", str(p.a_only), str(p.b_only)]
                                for p in compared]))
    parts += ["", "## Renders", "", "```", renders, "```", ""]
    if fidelity:
        parts += ["Faithful share of checked renders (n), first try and after repair:", ""]
        parts.append(md_table(["run", "renderer", "family", "complexity", "renders", "first try", "after repair",
                                "misread", "unread", "read by auditor"],
                               [[f.run, f.renderer, f.family, str(f.complexity), str(f.renders),
                                 _f(f.share_first_try), _f(f.share), str(f.misread), str(f.unread),
                                 str(f.read_by_auditor)] for f in fidelity]))
        parts.append("")
    if auditors:
        parts += ["Parse-back auditors on the control (the template's renders, faithful by construction); an "
                  "untrusted auditor's disagreements reject no render:", ""]
        parts.append(md_table(["run", "auditor", "family", "read", "agreed", "disagreed", "failed", "false alarm",
                                "at most (95%)", "threshold", "trusted"],
                               [[run, a.auditor, a.family, str(a.read), str(a.agreed), str(a.disagreed), str(a.failed),
                                 _f(a.false_alarm), _f(a.false_alarm_upper), f"{a.max_false_alarm:.3f}",
                                 "yes" if a.trusted else "no"]
                                for run, a in auditors]))
        parts.append("")
    return "\n".join(parts)


def grouped(outcomes: list[Outcome], by: tuple[str, ...], pool_renders: bool = False) -> list[dict]:
    """The table `--by` asks for (report.csv): one row per group, answers on faithful, unchecked and
    unfaithful renders in rows apart (column `renders`) unless `pool_renders`."""
    # count (group, render status, status, correct) first: a Counter update is cheap per record
    return grouped_counts(Counter(map(attrgetter(*by, "render_status", "status", "correct"), outcomes)), by,
                          pool_renders)


def grouped_counts(counts: Counter, by: tuple[str, ...], pool_renders: bool = False) -> list[dict]:
    """The `--by` table from its counts: units per (the `by` values..., render status, status, correct)."""
    groups: dict[tuple, Tally] = defaultdict(Tally)
    for (*key, render_status, status, correct), n in counts.items():
        kind = "all" if pool_renders else RENDER_KINDS.get(render_status, "faithful")
        t = groups[tuple(key) + (kind,)]
        if status == "ok":
            t.ok += n
            t.correct += n if correct else 0
        elif status == "invalid":
            t.invalid += n
        else:
            t.error += n
    out = []
    for key, t in sorted(groups.items()):
        lo, hi = wilson(t.correct, t.ok)
        out.append(dict(zip(grouped_fields(by), (*key, t.ok + t.invalid + t.error, t.ok, t.correct,
                                                 round(t.accuracy, 4) if t.accuracy is not None else None, lo, hi,
                                                 t.invalid, t.error))))
    return out


def grouped_fields(by: tuple[str, ...]) -> list[str]:
    """The columns of the `--by` table (report.csv): the `by` dimensions, then the counts."""
    return [*by, "renders", "n", "ok", "correct", "accuracy", "ci95_low", "ci95_high", "invalid", "error"]


def to_csv(rows: list[dict], fields: list[str]) -> bytes:
    """Rows as CSV under the header `fields`: a header alone where there is no row (pandas reads it as empty)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue().encode()


def to_text(rows: list[dict]) -> str:
    if not rows:
        return "(no solve records for this grid yet)"
    head = list(rows[0])
    body = [[("-" if r[h] is None else f"{r[h]:.3f}" if isinstance(r[h], float) else str(r[h])) for h in head]
            for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths)) for line in [head] + body)
