"""What a run did, per cell and per stage: the counts its closing lines, the settled file and the cluster's
driver read (the pipeline counts into one; a node agent's comes back to the driver and is merged)."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Literal

from providers.base import FailureKind, RenderStatus
from runner.store.keyset import KeySet
from runner.store.tally import CellStats, RenderStats

StageKey = tuple[str, str]   # a sent unit's stage: ("render" | "solve", its stage's label)
ErrorKind = Literal[FailureKind, "other"]   # an error's kind; `other` where its provider said none
ErrorKey = tuple[ErrorKind, str]   # an error's count key: its kind and its reason


@dataclass
class RunResult:
    """What a run did, per cell, and where its logs are."""

    cells: dict[tuple[str, str], CellStats] = field(default_factory=lambda: defaultdict(CellStats))
    renders: dict[RenderStatus, int] = field(default_factory=lambda: defaultdict(int))
    render_keys: KeySet = field(default_factory=KeySet)   # every render unit of this run, for the renders table
    # the renders table's rows of units counted without their keys (a resume's settled skeletons, engine/skip.py)
    render_stats: dict[str, RenderStats] = field(default_factory=dict)
    unreadable: int = 0      # logged renders whose line could not be read back (damaged): rendered again
    # (stage, label) -> statuses of its sent units
    sent: dict[StageKey, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    # (stage, label) -> (failure kind, reason) of its errors
    errors: dict[StageKey, Counter[ErrorKey]] = field(default_factory=lambda: defaultdict(Counter))

    def merge(self, other: RunResult) -> None:
        """Add what another part of the run did (a node agent's batch) to this result."""
        for key, st in other.cells.items():
            self.cells[key].merge(st)
        for status, n in other.renders.items():
            self.renders[status] += n
        self.render_keys |= other.render_keys
        for label, row in other.render_stats.items():
            mine = self.render_stats.setdefault(label, RenderStats())
            for counts, more in ((mine.statuses, row.statuses), (mine.reasons, row.reasons), (mine.audits, row.audits)):
                counts.update(more)
        self.unreadable += other.unreadable
        for key, statuses in other.sent.items():
            self.sent[key].update(statuses)
        for key, errors in other.errors.items():
            self.errors[key].update(errors)
