"""The text tables shown at the end of a run and by `bench status`: per cell, and per renderer."""
from __future__ import annotations

from runner.store.tally import CellStats, RenderStats


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
    return _fixed(head + [e[0] for e in extra], rows, 2)


def render_table(stats: dict[str, RenderStats]) -> str:
    """One row per renderer: faithful, unfaithful (with its most common reasons), invalid, unchecked, error, audits."""
    head = ["renderer", "renders", "faithful", "unfaithful", "invalid", "unchecked", "error", "audits ok/no/failed",
            "unfaithful because (renders)"]
    rows = []
    for name, st in sorted(stats.items()):
        n = sum(st.statuses.values())
        audits = "/".join(str(st.audits[k]) for k in ("agrees", "disagrees", "failed")) if st.audits else "-"
        if st.audits["audit_untrusted"]:   # disagreements of an untrusted auditor: kept, rejecting nothing
            audits += f" +{st.audits['audit_untrusted']} untrusted"
        why = ", ".join(f"{code} {c}" for code, c in st.reasons.most_common(4)) or "-"
        rows.append([name, n, st.statuses["ok"], st.statuses["unfaithful"], st.statuses["invalid"],
                     st.statuses["unchecked"], st.statuses["error"], audits, why])
    return _fixed(head, rows, 1)
