"""The text tables shown at the end of a run and by `bench status`: per cell, and per renderer."""
from __future__ import annotations

import textwrap
from collections import Counter
from typing import TypeVar

from runner.store.tally import CellStats, RenderStats

WIDTH = 100   # the report reads at 100 columns
OPTIONAL = ("invalid", "unchecked", "audits ok/no/failed")   # render table columns shown only when not empty


def _ratio(correct: int, n: int) -> str:
    return f"{correct / n:.3f} ({n})" if n else "-"


def _fixed(head: list[str], rows: list[list], left_cols: int) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda row: "  ".join(str(x).ljust(w) if i < left_cols else str(x).rjust(w)
                                for i, (x, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(head)] + [fmt(r) for r in rows])


def table(cells: dict[tuple[str, str], CellStats]) -> str:
    """A fixed-width table, one row per (renderer, solver) cell; accuracy over answers on faithful renders."""
    head = ["renderer", "solver", "accuracy", "correct", "ok", "invalid", "error", "unfaithful", "render_failed", "left"]
    extra = [("unchecked acc (n)", "unchecked", "unchecked_correct"),
             ("sent-unfaithful acc (n)", "sent_unfaithful", "sent_unfaithful_correct")]
    extra = [e for e in extra if any(getattr(st, e[1]) for st in cells.values())]
    rows = []
    for (r, s), st in sorted(cells.items()):
        acc = f"{st.accuracy:.3f}" if st.accuracy is not None else "-"
        rows.append([r, s, acc, st.correct, st.ok, st.invalid, st.error, st.unfaithful, st.render_failed, st.left]
                    + [_ratio(getattr(st, c), getattr(st, n)) for _, n, c in extra])
    flat = _fixed(head + [e[0] for e in extra], rows, 2)
    if max(len(line) for line in flat.splitlines()) <= WIDTH:
        return flat
    # Too wide with both names on each row: each renderer on a line of its own, its solvers under it.
    grouped = _fixed(head[1:] + [e[0] for e in extra], [row[1:] for row in rows], 1).splitlines()
    out, last = [grouped[0]], None
    for row, line in zip(rows, grouped[1:]):
        if row[0] != last:
            out.append(f"[renderer {row[0]}]")
            last = row[0]
        out.append(line)
    return "\n".join(out)


def render_table(stats: dict[str, RenderStats]) -> str:
    """One row per renderer: faithful, unfaithful, invalid, unchecked, error, audits; under the table, per
    renderer, why its renders were unfaithful (count, then name), wrapped at 100 columns between reasons."""
    head = ["renderer", "renders", "faithful", "unfaithful", "invalid", "unchecked", "error", "audits ok/no/failed"]
    rows, why = [], []
    for name, st in sorted(stats.items()):
        n = sum(st.statuses.values())
        audits = "/".join(str(st.audits[k]) for k in ("agrees", "disagrees", "failed")) if st.audits else "-"
        if st.audits["audit_untrusted"]:   # disagreements of an untrusted auditor: kept, rejecting nothing
            audits += f" +{st.audits['audit_untrusted']} untrusted"
        rows.append([name, n, st.statuses["ok"], st.statuses["unfaithful"], st.statuses["invalid"],
                     st.statuses["unchecked"], st.statuses["error"], audits])
        if st.reasons:
            reasons = ", ".join(f"{code} {c}" for code, c in ranked(st.reasons))
            why.append(textwrap.fill(f"{name} unfaithful because (renders): {reasons}", width=WIDTH,
                                     subsequent_indent="    ", break_long_words=False, break_on_hyphens=False))
    # columns that hold nothing in any row are left out: the table reads at 100 columns with long names
    keep = [i for i, h in enumerate(head) if h not in OPTIONAL or any(row[i] not in (0, "-") for row in rows)]
    table_text = _fixed([head[i] for i in keep], [[row[i] for i in keep] for row in rows], 1)
    return table_text + ("\n" + "\n".join(why) if why else "")


Key = TypeVar("Key", str, tuple[str, str])   # a reason, or (failure kind, reason): what runs and reports count


def ranked(counts: Counter[Key]) -> list[tuple[Key, int]]:
    """Reasons by count, then by name: the same order in `bench run`, `bench status` and `bench report`."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
