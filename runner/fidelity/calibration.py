"""An auditor's calibration on the control: how often it reads a faithful render as unfaithful.

The template renderer is faithful by construction, so it is the yardstick. Every auditor a grid names
also reads back the template's renders of the grid's first `calibrate` skeletons of each family (the
same skeletons on every rerun). Its false-alarm rate in a family is the share of those read-backs that
`disagree`; above `max_false_alarm` the auditor is untrusted there: its disagreements on model renders
are kept (`audit_untrusted`) but reject nothing. Calibration records live in their own log
(`calibration.jsonl`), never among a renderer's renders. The engine runs it; the report reads it.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Iterator, Mapping

from families.ir import Skeleton
from providers.builtin import template_structure
from rendering.structure import assemble, from_object

CALIBRATION = "calibration.jsonl"
CONTROL = "template-v1"   # the control renderer (its model name): part of a calibration unit's key


@dataclass(frozen=True)
class AuditorSettings:
    """How one auditor is calibrated: control renders per family (0: not at all) and the highest
    false-alarm rate at which it may still reject renders."""

    calibrate: int = 20
    max_false_alarm: float = 0.05
    max_tokens: int = 1024   # of its read-backs (the renderers' it audits)


@dataclass(frozen=True)
class Trust:
    """One auditor in one family: what it made of the control's renders, and whether it may reject."""

    auditor: str
    family: str
    read: int          # control renders it answered on (agreed, disagreed or failed to give facts)
    agreed: int
    disagreed: int
    failed: int
    calibrate: int
    max_false_alarm: float

    @property
    def false_alarm(self) -> float | None:
        return self.disagreed / self.read if self.read else None

    @property
    def trusted(self) -> bool:
        """Calibration off: trusted as before. Otherwise only with a read-back and a rate at most the threshold."""
        if self.calibrate == 0:
            return True
        rate = self.false_alarm
        return rate is not None and rate <= self.max_false_alarm

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "false_alarm": None if self.false_alarm is None else round(self.false_alarm, 4),
                "trusted": self.trusted}

    def line(self) -> str:
        """The run's one line about this auditor in this family."""
        rate = "no control render read" if self.read == 0 else \
            f"false alarms {self.disagreed}/{self.read} ({self.false_alarm:.0%})"
        verdict = "trusted" if self.trusted else "untrusted: its disagreements reject no render"
        return (f"bench: auditor {self.auditor} on {self.family}: {rate} on the template's renders "
                f"(threshold {self.max_false_alarm:.0%}): {verdict}")


def control_render(payload: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """The template's render of a redacted skeleton: the problem text an auditor reads, and its names."""
    structure = template_structure(payload)
    render = from_object(structure)
    return assemble(render, list(payload["answer_options"])), dict(structure["names"])


def control_sample(stream: Iterable[Skeleton], per_family: int, families: int) -> Iterator[Skeleton]:
    """The first `per_family` skeletons of each family in the grid's order (stable on every rerun); stops
    reading once `families` families are full."""
    seen: Counter = Counter()
    full = 0
    for sk in stream:
        if seen[sk.family] < per_family:
            seen[sk.family] += 1
            full += seen[sk.family] == per_family
            yield sk
            if full >= families:
                return


def trust(records: Iterable[dict], settings: Mapping[str, AuditorSettings]) -> dict[tuple[str, str], Trust]:
    """(auditor, family) -> Trust, from the best calibration record of each unit."""
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for rec in records:
        auditor, family, verdict = rec.get("auditor"), rec.get("family"), rec.get("audit")
        if rec.get("status") == "ok" and auditor in settings and isinstance(family, str) and \
                verdict in ("agrees", "disagrees", "failed"):
            counts[(auditor, family)][verdict] += 1
    return {key: Trust(key[0], key[1], sum(c.values()), c["agrees"], c["disagrees"], c["failed"],
                       settings[key[0]].calibrate, settings[key[0]].max_false_alarm)
            for key, c in sorted(counts.items())}
