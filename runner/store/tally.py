"""The run's counters: solve units per cell and render units per renderer, read by the engine and the report."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, Iterable

from rendering.structure import reason_code


@dataclass
class CellStats:
    """One cell's solve units. Accuracy counts only `ok` answers on faithful renders; answers on
    unchecked (free-text) renders and on unfaithful renders sent anyway are counted apart, and
    invalid answers, errors and blocked units are never wrong answers."""

    ok: int = 0
    correct: int = 0
    invalid: int = 0
    error: int = 0
    unchecked: int = 0            # ok answers on unchecked renders (format: text)
    unchecked_correct: int = 0
    sent_unfaithful: int = 0      # ok answers on unfaithful renders (send_unfaithful: true)
    sent_unfaithful_correct: int = 0
    unfaithful: int = 0           # solve units not sent: their render was unfaithful
    render_failed: int = 0        # solve units not sent: their render was invalid
    left: int = 0                 # not yet done (or errored, to be retried; or their render errored)

    def add(self, status: str | None, correct: bool | None, render_status: str = "ok") -> None:
        """Count one solve unit by its status (None: not done yet) and its render's status."""
        if status == "ok":
            if render_status == "unchecked":
                self.unchecked += 1
                self.unchecked_correct += bool(correct)
            elif render_status == "unfaithful":
                self.sent_unfaithful += 1
                self.sent_unfaithful_correct += bool(correct)
            else:
                self.ok += 1
                self.correct += bool(correct)
        elif status == "invalid":
            self.invalid += 1
        elif status == "error":
            self.error += 1
        else:
            self.left += 1

    def blocked(self, render_status: str, n: int = 1) -> None:
        """Count `n` solve units not sent because of their render (an errored render is retried: left)."""
        if render_status == "unfaithful":
            self.unfaithful += n
        elif render_status == "invalid":
            self.render_failed += n
        else:
            self.left += n

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.ok if self.ok else None

    def merge(self, other: "CellStats") -> None:
        """Add another count of this cell's units (a node agent's batch) to this one."""
        for f in fields(CellStats):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def total(cells: dict[tuple[str, str], CellStats]) -> CellStats:
    """All cells added up."""
    out = CellStats()
    for st in cells.values():
        out.merge(st)
    return out


@dataclass
class RenderStats:
    """One renderer's render units: by status, unfaithful ones by reason, and the parse-back audits."""

    statuses: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)   # reason codes of unfaithful renders (a render may have several)
    audits: Counter[str] = field(default_factory=Counter)

    def add(self, record: dict[str, Any], n: int = 1) -> None:
        """Count one render record (the newest terminal one of its unit; `key`, `status`, `renderer` checked), or
        `n` units with records like it."""
        self.statuses[record["status"]] += n
        if record["status"] == "unfaithful":
            checks = record.get("checks")
            checks = checks if isinstance(checks, list) and checks else [record.get("reason") or "?"]
            for code in {reason_code(c) for c in checks}:
                self.reasons[code] += n
        if isinstance(record.get("audit"), str):
            self.audits[record["audit"]] += n


def render_stats(records: Iterable[dict[str, Any]]) -> dict[str, RenderStats]:
    """Per renderer label, from render records (one per unit)."""
    return counted_render_stats((rec, 1) for rec in records)


def counted_render_stats(records: Iterable[tuple[dict[str, Any], int]]) -> dict[str, RenderStats]:
    """render_stats of (record, how many units have a record like it): what the columnar report counts."""
    out: dict[str, RenderStats] = {}
    for rec, n in records:
        stats = out.get(rec["renderer"])
        if stats is None:   # made once per renderer, not once per record (three Counters each)
            stats = out[rec["renderer"]] = RenderStats()
        stats.add(rec, n)
    return out
