"""Log records: frozen dataclasses serialized with orjson, one complete record per JSONL line."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable, Literal, NamedTuple

import orjson

from families.frozen import set_at_once
from providers.base import Completion, FailureKind, RenderStatus, SolveStatus
from rendering.render import StructuredRender

SCHEMA = 1
# The statuses a record holds, each a type (a record of another is not written, and a reader skips it)
SentRenderStatus = Literal["ok", "unchecked", "unfaithful"]   # a render whose text went to the solvers
CalibrationStatus = Literal["ok", "error"]
# What an auditor's read-back comes to: the facts it read are the skeleton's, they differ, or its answer held
# no facts to compare (the `audit` field of calibration records; runner/fidelity/parse_back.py compares)
AuditVerdict = Literal["agrees", "disagrees", "failed"]
# A render record's `audit`: the verdict, or `audit_untrusted` for a disagreement of an auditor the control did
# not earn trust in (kept, but the render keeps the check's status)
RenderAudit = Literal[AuditVerdict, "audit_untrusted"]
Audit = tuple[RenderAudit, str | None]   # an audit's verdict and what differs or why it failed, as records keep it
_NO_THINKING = b',"thinking":null}\n'   # the last field of a solve record, when its solver does not think


class Judged(NamedTuple):
    """A render's outcome: the completion as the run counts it (status, the solver's text, reason),
    what the renderer returned, the fidelity reasons, and the parsed render (names for an audit)."""

    completion: Completion
    raw: str
    checks: tuple[str, ...]
    render: StructuredRender | None


def fingerprint(parts: dict[str, Any]) -> str:
    """A hash of a stage's settings (provider identity, sampling, prompt), computed once per stage."""
    return hashlib.blake2b(orjson.dumps({"schema": SCHEMA, **parts}, option=orjson.OPT_SORT_KEYS),
                           digest_size=16).hexdigest()


def unit_key(stage_fingerprint: str, parent: str, sample: int) -> str:
    """The key of a unit: its stage's fingerprint, what it works on (a skeleton's identity or a render
    key) and its sample number; so a changed model, prompt or setting makes new keys."""
    return hashlib.blake2b(f"{stage_fingerprint}\x1f{parent}\x1f{sample}".encode(), digest_size=16).hexdigest()


def unit_keys(stage_fingerprint: str) -> Callable[[str, int], str]:
    """`unit_key` with its stage fixed, for checking a million keys: a hasher fed the fingerprint once and
    copied per key (the same digest: blake2b of the same bytes, in two updates)."""
    copy = hashlib.blake2b(f"{stage_fingerprint}\x1f".encode(), digest_size=16).copy

    def key(parent: str, sample: int) -> str:
        h = copy()
        h.update(f"{parent}\x1f{sample}".encode())
        return h.hexdigest()
    return key


def text_hash(text: str) -> str:
    """A short hash of a prompt template, so a changed prompt makes new keys."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@set_at_once
@dataclass(frozen=True)
class RenderRecord:
    """One render unit's outcome. `schema`, `key`, `status` come first: the resume index reads them."""

    schema: int
    key: str
    status: RenderStatus        # ok (faithful) | unfaithful | invalid | unchecked (format text) | error
    skeleton: str               # the skeleton's identity: id#content-hash
    family: str
    complexity: int
    renderer: str
    model: str
    sample: int
    text: str
    reason: str | None
    attempts: int
    latency_s: float
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None
    started_at: float
    finished_at: float
    format: str = "text"         # structured (checked against the skeleton) or text
    raw: str = ""                # what the renderer returned (a structured render's JSON); `text` is what solvers see
    checks: tuple[str, ...] = ()  # why a structured render is unfaithful, one reason each
    audit: RenderAudit | None = None   # when the parse-back audit ran
    audit_reason: str | None = None
    # 0: the first try; k: the k-th repair (`repair: N`), asked again with the reasons of round k-1.
    # Every round is its own record under the unit's one key; the newest (the last round) is the unit's.
    round: int = 0
    error_kind: FailureKind | None = None   # an error's kind, beside its reason

    def to_line(self) -> bytes:
        """The JSONL line, newline included."""
        return orjson.dumps(self, option=orjson.OPT_APPEND_NEWLINE)


def render_record(key: str, skeleton: str, family: str, complexity: int, renderer: str, model: str, sample: int,
                  judged: Judged, started_at: float, fmt: str,
                  audit: Audit | None = None, repair_round: int = 0) -> RenderRecord:
    """The record of one finished render unit (now is when it finished)."""
    res = judged.completion
    return RenderRecord(
        schema=SCHEMA, key=key, status=res.status, skeleton=skeleton, family=family, complexity=complexity,
        renderer=renderer, model=model, sample=sample, text=res.text, reason=res.reason, attempts=res.attempts,
        latency_s=round(res.latency_s, 6), prompt_tokens=res.usage.prompt_tokens,
        completion_tokens=res.usage.completion_tokens, finish_reason=res.finish_reason,
        started_at=started_at, finished_at=time.time(), format=fmt, raw=judged.raw if fmt == "structured" else "",
        checks=judged.checks, audit=audit[0] if audit else None, audit_reason=audit[1] if audit else None,
        round=repair_round, error_kind=res.error_kind)


@set_at_once
@dataclass(frozen=True)
class SolveRecord:
    """One solve unit's outcome; `correct` is null unless status is ok (errors are never wrong answers)."""

    schema: int
    key: str
    status: SolveStatus         # ok | invalid (answer not in the label set) | error (after retries)
    render_key: str
    skeleton: str
    family: str
    complexity: int
    renderer: str
    solver: str
    model: str
    render_sample: int
    sample: int
    answer: str | None
    raw: str
    gold: str
    correct: bool | None
    constrained: str
    reason: str | None
    attempts: int
    latency_s: float
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None
    started_at: float
    finished_at: float
    render_status: SentRenderStatus = "ok"   # the render's: ok (faithful), unchecked, or unfaithful (sent anyway)
    # loglik solvers: each option's log-probability sum, tokens, characters, mean per token and per
    # character (OptionScore), in the options' order, so a report can recompute any normalisation
    scores: tuple[Any, ...] = ()
    error_kind: FailureKind | None = None   # an error's kind, beside its reason
    # thinking solvers: {tokens, tokens_from, cut, text} (providers.base.Thinking); absent for the others
    thinking: Any = None

    def to_line(self) -> bytes:
        """The JSONL line, newline included; a solver that does not think writes no `thinking` key at all."""
        line = orjson.dumps(self, option=orjson.OPT_APPEND_NEWLINE)
        return line[:-len(_NO_THINKING)] + b"}\n" if self.thinking is None else line


@set_at_once
@dataclass(frozen=True)
class CalibrationRecord:
    """An auditor's read-back of one control (template) render: `ok` when it answered (then `audit` is
    agrees, disagrees or failed to give facts), `error` when the request failed (retried on resume)."""

    schema: int
    key: str
    status: CalibrationStatus   # ok | error
    auditor: str                # the auditor's provider name
    model: str
    skeleton: str
    family: str
    complexity: int
    audit: AuditVerdict | None  # None: the request failed (status error)
    audit_reason: str | None
    attempts: int
    latency_s: float
    prompt_tokens: int
    completion_tokens: int
    started_at: float
    finished_at: float

    def to_line(self) -> bytes:
        """The JSONL line, newline included."""
        return orjson.dumps(self, option=orjson.OPT_APPEND_NEWLINE)
