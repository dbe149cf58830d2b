"""The provider interface, its request and result records, and the failure a provider classifies."""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, get_args

from families.frozen import set_at_once

# A solve's answer: a label of the set, none of the set, or none after the retries (errors are never wrong).
SolveStatus = Literal["ok", "invalid", "error"]
# A render as the run counts it: faithful, unfaithful (the check's reasons say why), without the labels, free
# text that no check reads, or none after the retries.
RenderStatus = Literal["ok", "unfaithful", "invalid", "unchecked", "error"]
Status = RenderStatus   # a Completion's: a solve's is one of SolveStatus, a render's (once judged) any of these
SOLVE_STATUSES: tuple[SolveStatus, ...] = get_args(SolveStatus)
RENDER_STATUSES: tuple[RenderStatus, ...] = get_args(RenderStatus)
# How a solver's answer is held to a label: picked for the server (auto), or one the server honours, or none
Constraint = Literal["auto", "choice", "json_schema", "grammar", "tool", "none"]
CONSTRAINTS: tuple[Constraint, ...] = get_args(Constraint)


@set_at_once
@dataclass(frozen=True)
class Usage:
    """Token counts as the server reported them (0 where it reported none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@set_at_once
@dataclass(frozen=True)
class RenderRequest:
    """Turn a redacted skeleton into a problem: `prompt` for models, `payload` for the template renderer."""

    prompt: str
    # The redacted skeleton (never gold_answer or proof): a local renderer renders it, and the runner
    # checks a structured render against it. A model renderer sends the prompt alone (which holds it).
    payload: Mapping[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    sample: int = 0
    # A structured render's JSON schema, sent through the server's constraint (vLLM structured_outputs,
    # response_format json_schema, an Anthropic tool); None: free text.
    schema: Mapping[str, Any] | None = None


@set_at_once
@dataclass(frozen=True)
class SolveRequest:
    """Answer a rendered problem with one of `labels`."""

    prompt: str
    labels: tuple[str, ...]
    temperature: float = 0.0
    max_tokens: int = 16
    constraint: str = "auto"
    sample: int = 0
    family: str = ""                  # for built-in baselines; never the gold answer
    complexity: int = 0
    seed_key: str = ""                # a stable per-unit string for seeded baselines
    # mode loglik: no generation; each label (an option) is scored as the continuation of `prompt`
    mode: str = "generate"
    delimiter: str = " "              # between the problem and each option
    score: str = "mean_token"         # which normalisation picks the answer
    # a thinking solver's settings (the grid's `reasoning:` block: enabled, effort, budget_tokens,
    # keep_reasoning); None for a solver that does not think
    reasoning: Mapping[str, Any] | None = None


@set_at_once
@dataclass(frozen=True)
class OptionScore:
    """One option's log-likelihood given the problem: the sum over its tokens, how many tokens and
    characters it has, and the two normalisations (the card's mean per token, lm-eval's per character)."""

    option: str
    logprob: float
    tokens: int
    chars: int
    mean_token: float
    mean_char: float


Score = Literal["mean_token", "mean_char", "sum"]   # which of them picks the answer
SCORES: tuple[Score, ...] = get_args(Score)


# Who counted a thought's tokens: the server's usage, its /tokenize, its completion tokens less the answer's,
# an estimate from the text's length, or no one (empty: no thought came back)
TokensFrom = Literal["usage", "tokenize", "completion", "estimate", "empty"]


@set_at_once
@dataclass(frozen=True)
class Thinking:
    """What a thinking solver thought before its answer: how many tokens (and who counted them: the
    server's `usage`, its `tokenize` endpoint, its `completion` tokens less the answer's, an `estimate`,
    or `empty`: no thought came back), whether max_tokens cut the thought before any answer, and the
    thought itself when the grid keeps it (`keep_reasoning`)."""

    tokens: int | None = None
    tokens_from: TokensFrom | None = None
    cut: bool = False
    text: str | None = None


@set_at_once
@dataclass(frozen=True)
class Completion:
    """What a stage got back, success or not: errors are data, never exceptions that end a run."""

    status: Status
    text: str = ""
    label: str | None = None
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    attempts: int = 1
    constrained: str = "none"         # the constraint actually sent: choice, json_schema, grammar, tool, none
    reason: str | None = None         # why status is not ok
    error_kind: FailureKind | None = None   # an error's kind, beside its message
    scores: tuple[OptionScore, ...] = ()   # loglik solvers: every option's score, in the options' order
    thinking: Thinking | None = None       # thinking solvers only


def usage_of(raw: Any, prompt_key: str, completion_key: str) -> Usage:
    """Token counts from a server's usage object; a count that is missing or not a whole number is 0."""
    if not isinstance(raw, dict):
        return Usage()
    def count(v: object) -> int:
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0

    return Usage(count(raw.get(prompt_key)), count(raw.get(completion_key)))


def answered(text: str, label: str | None, *, finish_reason: str | None, usage: Usage, latency_s: float,
             constrained: str) -> Completion:
    """A solver's answer: `ok` with its label, or `invalid` (raw text kept) when it gave no label of the set.

    Whatever constraint was requested, only a label of the set counts: a server may ignore it.
    """
    return Completion(status="ok" if label else "invalid", text=text, label=label, finish_reason=finish_reason,
                      usage=usage, latency_s=latency_s, constrained=constrained,
                      reason=None if label else "answer not in the label set")


# What went wrong, as the provider that saw it says (never read back from a message's text): an HTTP answer
# (`http`, `auth` for 401/403), no answer in time, no connection, an answer that does not parse, a prompt past
# the model's context, or a request the server or this client refuses to make or cannot serve.
FailureKind = Literal["http", "auth", "timeout", "connection", "malformed", "context_length", "refused"]
FAILURE_KINDS: tuple[FailureKind, ...] = get_args(FailureKind)


def http_kind(status: int) -> FailureKind:
    """The kind of an HTTP answer that failed: `auth` for 401 and 403, else `http`."""
    return "auth" if status in (401, 403) else "http"


class ProviderFailure(Exception):
    """One failed attempt, as the provider classifies it; the retry policy decides what happens next.

    retryable: try again (after `retry_after` seconds when the server said so);
    otherwise `final` says whether it ends the unit as an `error` result (e.g. context_length).
    `status` is the server's HTTP status, where the failure is an HTTP answer; `kind` what went wrong
    (FailureKind), said where the failure arises, so errors group by kind, not by a server's text.
    """

    attempts: int   # set by `with_retries` on the failure it lets through: the attempts it took (unset before)

    def __init__(self, reason: str, *, retryable: bool, retry_after: float | None = None,
                 status: int | None = None, kind: FailureKind):
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.kind = kind


class Provider(abc.ABC):
    """What every provider offers the runner."""

    name: str
    model: str

    @abc.abstractmethod
    async def render(self, request: RenderRequest) -> Completion:
        """Render a problem text; status error after the retries are spent."""

    @abc.abstractmethod
    async def solve(self, request: SolveRequest) -> Completion:
        """Answer with one label; `invalid` (raw text kept) when the answer is not in the label set."""

    async def score(self, request: SolveRequest) -> Completion:
        """Loglik mode: every label's log-likelihood as the continuation of the prompt; the best is the answer."""
        return Completion(status="error", reason=f"{type(self).__name__} cannot score log-likelihoods")

    async def check_scoring(self) -> str | None:
        """Before a loglik run: raise ProviderFailure (not retryable) if this server gives no prompt
        log-probabilities; else a note for the user about how it scores, or None."""
        return None   # a hook: a server without a check to make says nothing

    renders_locally = False   # True: render_now() makes the text at once, from the payload alone

    def render_now(self, request: RenderRequest) -> Completion:
        """The render of a local renderer (`renders_locally`), computed at once from the payload alone.

        A local render is pure and cheap, so the runner makes it while preparing the skeleton
        (possibly in a helper process) instead of on the event loop.
        """
        raise NotImplementedError(f"{type(self).__name__} renders through render()")

    def render_now_parsed(self, request: RenderRequest) -> tuple[Completion, Any]:
        """`render_now`, with the structured render already parsed where the renderer built it as an object
        (the same as parsing its text; None: the checker parses the text, as it does a model's)."""
        return self.render_now(request), None

    async def start(self) -> None:
        """Open sessions, check health; called once before the first request."""
        return None   # a hook: nothing to open by default

    async def close(self) -> None:
        """Release sessions and connections."""
        return None   # a hook: nothing to release by default
