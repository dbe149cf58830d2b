"""An auditor's calibration on the control: how often it reads a faithful render as unfaithful.

The template renderer is faithful by construction, so it is the yardstick. Every auditor a grid names
also reads back the template's renders of `calibrate` skeletons of each family: the grid's first ones,
and where the grid has fewer, skeletons generated for calibration (the same ones on every rerun). Its
false-alarm rate in a family is the share of those read-backs that `disagree`. It is trusted there only
when the upper end of that rate's 95% (Wilson) interval is under `max_false_alarm`: 0 false alarms in
20 read-backs does not show a rate under 5% (the upper end is 16%); 0 in 80 does. Untrusted, its
disagreements on model renders are kept (`audit_untrusted`) but reject nothing, and it reads no
premise the check could not read. Calibration records live in their own log
(`calibration.jsonl`), never among a renderer's renders. The engine runs it; the report reads it.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, Iterator, Mapping

from families.ir import Skeleton
from families.registry import FAMILIES
from families.seeding import item_rng
from providers.builtin import template_structure
from rendering.structure import assemble, from_object
from runner.fidelity.parse_back import AUDIT_VERDICTS
from runner.intervals import wilson
from runner.store.records import AuditVerdict

CALIBRATION = "calibration.jsonl"
CONTROL = "template-v2"   # the control renderer (its model name): part of a calibration unit's key


@dataclass(frozen=True)
class AuditorSettings:
    """How one auditor is calibrated: control renders per family (0: not at all) and the highest
    false-alarm rate at which it may still reject renders."""

    calibrate: int = 80   # the fewest control renders at which a perfect auditor is trusted at 5%: 74
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
    def false_alarm_upper(self) -> float | None:
        """The upper end of the false-alarm rate's 95% interval."""
        return wilson(self.disagreed, self.read)[1]

    @property
    def trusted(self) -> bool:
        """Calibration off: trusted as before. Otherwise only when the upper end of the false-alarm
        rate's 95% interval is under the threshold."""
        if self.calibrate == 0:
            return True
        upper = self.false_alarm_upper
        return upper is not None and upper < self.max_false_alarm

    def as_dict(self) -> dict[str, Any]:
        def rnd(x: float | None) -> float | None:
            return None if x is None else round(x, 4)
        return {**asdict(self), "false_alarm": rnd(self.false_alarm), "false_alarm_upper": rnd(self.false_alarm_upper),
                "trusted": self.trusted}

    def line(self) -> str:
        """The run's one line about this auditor in this family."""
        rate = "no control render read" if self.read == 0 else \
            f"false alarms {self.disagreed}/{self.read} ({self.false_alarm:.0%}, at most {self.false_alarm_upper:.0%})"
        verdict = "trusted" if self.trusted else "untrusted: its disagreements reject no render and it reads no " \
                                                 "unread premise"
        return (f"bench: auditor {self.auditor} on {self.family}: {rate} on the template's renders "
                f"(threshold {self.max_false_alarm:.0%}): {verdict}")


def control_render(payload: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """The template's render of a redacted skeleton: the problem text an auditor reads, and its names."""
    structure = template_structure(payload)
    render = from_object(structure)
    if isinstance(render, str):   # the template is faithful by construction: a malformed one is a bug of ours
        raise RuntimeError(f"the template's own render of {payload.get('family')} is malformed: {render}")
    return assemble(render, payload), dict(structure["names"])


CONTROL_SEED = -7   # the generator seed of calibration's own skeletons (never a grid's: seeds there are >= 0)


def control_sample(stream: Iterable[Skeleton], per_family: int, families: int) -> Iterator[Skeleton]:
    """`per_family` skeletons of each family the grid has: its first ones in the grid's order, then,
    where it has fewer, skeletons generated for calibration at the complexities seen (stable on every
    rerun). Stops reading the grid once `families` families are full."""
    seen: Counter[str] = Counter()
    complexities: dict[str, list[int]] = {}
    full = 0
    for sk in stream:
        cx = complexities.setdefault(sk.family, [])
        if sk.complexity not in cx:
            cx.append(sk.complexity)
        if seen[sk.family] < per_family:
            seen[sk.family] += 1
            full += seen[sk.family] == per_family
            yield sk
            if full >= families:
                return
    for family, cx in complexities.items():
        generate = FAMILIES[family].generate
        for i in range(per_family - seen[family]):
            c = sorted(cx)[i % len(cx)]
            sk = generate(i, c, item_rng(CONTROL_SEED, family, i, c))
            yield replace(sk, id=f"control-{sk.id}")


def trust(records: Iterable[Mapping[str, Any]], settings: Mapping[str, AuditorSettings]
          ) -> dict[tuple[str, str], Trust]:
    """(auditor, family) -> Trust, from the best calibration record of each unit."""
    counts: dict[tuple[str, str], Counter[AuditVerdict]] = defaultdict(Counter)
    for rec in records:
        auditor, family, verdict = rec.get("auditor"), rec.get("family"), rec.get("audit")
        if rec.get("status") == "ok" and isinstance(auditor, str) and auditor in settings \
                and isinstance(family, str) and verdict in AUDIT_VERDICTS:
            counts[(auditor, family)][verdict] += 1
    return {key: Trust(key[0], key[1], sum(c.values()), c["agrees"], c["disagrees"], c["failed"],
                       settings[key[0]].calibrate, settings[key[0]].max_false_alarm)
            for key, c in sorted(counts.items())}
