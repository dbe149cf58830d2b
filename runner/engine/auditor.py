"""The parse-back audit of a model render as a run asks it: what a calibrated, trusted auditor reads where the
check could not, and what a sampled audit of a faithful render says (runner/fidelity/parse_back.py compares)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from providers.base import Provider
from rendering.render import StructuredRender
from runner.config.grid import Stage
from runner.fidelity.calibration import Trust
from runner.fidelity.judge import only_unread
from runner.fidelity.parse_back import audit_request, compare, sampled
from runner.store.records import Audit, Judged

Trusts = dict[tuple[str, str], Trust]   # (auditor, family) -> its calibration on the control


def trusted(stage: Stage, family: str, trust: Trusts) -> bool:
    """Whether the stage's auditor may reject renders of this family (its calibration on the control)."""
    if not stage.audit_calibrate:
        return True
    t = trust.get((stage.audit_provider or "", family))
    return t is not None and t.trusted


def calibrated(stage: Stage, family: str, trust: Trusts) -> bool:
    """Whether the stage's auditor was calibrated on the control and earned trust in this family."""
    return bool(stage.audit_calibrate) and trusted(stage, family, trust)


async def audited(stage: Stage, auditor: Provider | None, key: str, family: str, payload: Mapping[str, Any] | None,
                  judged: Judged, trust: Trusts) -> tuple[Judged, Audit | None]:
    """A judged render as the stage's auditor (None: the stage has none) leaves it, and what the audit said
    (None: not audited). Only a structured render, whose parse and payload the check had, is audited."""
    render = judged.render
    if auditor is None or render is None or payload is None:
        return judged, None
    if only_unread(judged) and calibrated(stage, family, trust):
        # What the grammar could not read, a calibrated, trusted auditor reads: agreeing with the whole
        # skeleton, it reads each unread premise as its fact. A misread is never overruled.
        audit = await _audit(stage, auditor, payload, render, judged)
        if audit[0] == "agrees":
            audit = ("agrees", "read the premises the check could not read as their facts")
            judged = judged._replace(completion=replace(judged.completion, status="ok", reason=None))
        return judged, audit
    if judged.completion.status == "ok" and sampled(key, stage.audit_rate):
        audit = await _audit(stage, auditor, payload, render, judged)
        if audit[0] == "disagrees" and not trusted(stage, family, trust):
            return judged, ("audit_untrusted", audit[1])   # kept, but the render keeps the check's status
        if audit[0] == "disagrees":
            reason = f"audit: {audit[1]}"
            judged = judged._replace(completion=replace(judged.completion, status="unfaithful", reason=reason),
                                     checks=judged.checks + (reason,))
        return judged, audit
    return judged, None


async def _audit(stage: Stage, auditor: Provider, payload: Mapping[str, Any], render: StructuredRender,
                 judged: Judged) -> Audit:
    """The parse-back audit of a render: agrees, disagrees (what) or failed (why)."""
    res = await auditor.render(audit_request(payload, render.names, judged.completion.text, stage.max_tokens))
    if res.status != "ok":
        return "failed", res.reason
    return compare(res.text, payload, render.names)
