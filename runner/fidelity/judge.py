"""What a render unit's outcome is: structured renders checked against the skeleton, text renders unchecked."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal, Mapping, get_args

from providers.base import Completion, RenderStatus
from providers.labels import missing_labels
from rendering.render import StructuredRender
from rendering.structure import assemble, check, parse, reason_code
from runner.store.records import Judged

RenderFormat = Literal["structured", "text"]   # checked against the skeleton, or free text (unchecked)
FORMATS: tuple[RenderFormat, ...] = get_args(RenderFormat)
PROCEED: tuple[RenderStatus, ...] = ("ok", "unchecked")   # render statuses whose text goes to the solvers (unfaithful: if asked)


def judge(res: Completion, fmt: RenderFormat, labels: tuple[str, ...], payload: Mapping[str, Any] | None,
          names: Mapping[str, str] | None = None, parsed: StructuredRender | None = None) -> Judged:
    """Check one finished render unit: `ok` (faithful), `unfaithful`, `invalid`, `unchecked` or `error`.

    A structured render is checked against `payload` (the redacted skeleton), and against `names` where
    the renderer was given them; a text render only for its labels. `parsed`: the render as parse() reads
    `res.text`, where a local renderer made it as an object (`render_now_parsed`).
    """
    if res.status != "ok":
        return Judged(res, res.text, (), None)
    if fmt == "text":   # free text: only the labels are checked, as before structured renders
        missing = missing_labels(res.text, labels)
        if missing:
            return Judged(replace(res, status="invalid", reason=f"labels missing from the text: {', '.join(missing)}"),
                          res.text, (), None)
        return Judged(replace(res, status="unchecked"), res.text, (), None)
    read = parse(res.text) if parsed is None else parsed
    if isinstance(read, str):
        return Judged(replace(res, status="unfaithful", text="", reason=read), res.text, (read,), None)
    parsed = read
    reasons = check(parsed, payload or {}, names)
    text = assemble(parsed, payload or {})
    if reasons:
        return Judged(replace(res, status="unfaithful", text=text, reason="; ".join(reasons)), res.text,
                      tuple(reasons), parsed)
    return Judged(replace(res, text=text), res.text, (), parsed)


def only_unread(judged: Judged) -> bool:
    """Whether a render is unfaithful only because premises did not read (none misread, nothing else
    wrong): what a calibrated, trusted auditor may still read."""
    return (judged.completion.status == "unfaithful" and judged.render is not None and bool(judged.checks)
            and all(reason_code(c) == "unread" for c in judged.checks))
