"""Per-cell statistics and the text table shown at the end of a run and by `bench status`."""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass
class CellStats:
    """One cell's units: accuracy counts only `ok` answers; invalid and error are shown apart."""

    ok: int = 0
    correct: int = 0
    invalid: int = 0
    error: int = 0
    render_failed: int = 0   # solve units that cannot run: their render was invalid or errored
    left: int = 0            # not yet done (or errored, to be retried)

    def add(self, status: str | None, correct: bool | None) -> None:
        """Count one solve unit by its status (None: not done yet)."""
        if status == "ok":
            self.ok += 1
            self.correct += bool(correct)
        elif status == "invalid":
            self.invalid += 1
        elif status == "error":
            self.error += 1
        else:
            self.left += 1

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.ok if self.ok else None


def table(cells: dict[tuple[str, str], CellStats]) -> str:
    """A fixed-width table, one row per (renderer, solver) cell."""
    head = ["renderer", "solver", "accuracy", "correct", "ok", "invalid", "error", "render_failed", "left"]
    rows = []
    for (r, s), st in sorted(cells.items()):
        acc = f"{st.accuracy:.3f}" if st.accuracy is not None else "-"
        rows.append([r, s, acc, st.correct, st.ok, st.invalid, st.error, st.render_failed, st.left])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda row: "  ".join(str(x).ljust(w) if i < 2 else str(x).rjust(w)
                                for i, (x, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(head)] + [fmt(r) for r in rows])


def total(cells: dict[tuple[str, str], CellStats]) -> CellStats:
    """All cells added up."""
    out = CellStats()
    for st in cells.values():
        for f in fields(CellStats):
            setattr(out, f.name, getattr(out, f.name) + getattr(st, f.name))
    return out
