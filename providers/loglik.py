"""Log-likelihood scoring through an OpenAI-compatible completions server: the token boundary between
problem and option, the request, and the reading of the echoed prompt log-probabilities.

The boundary follows lm-evaluation-harness (`_encode_pair`): whitespace at the end of the context moves
to the continuation, the context and the whole text are tokenized (by the server's `/tokenize`), and
the option's tokens are those of the whole after the context's. Where the option's first token merges
with the context's last characters (so the whole does not start with the context's tokens), the option
starts after the longest common prefix instead: its score then covers the merged token, where lm-eval
would silently drop part of it. The first prompt token has no log-probability, so the context keeps at
least one token.

A server without `/tokenize` (vLLM's is at its root; most others have none) is asked for the context
alone as one more prompt of the same request, as text: the boundary is then the common prefix of the
context's echoed tokens and each whole text's, the same rule over the same tokenizer, and no character
offsets are needed (`text_offset` is counted over token strings, which drift from the text wherever a
token holds part of a multi-byte character).
"""
from __future__ import annotations

import math
from typing import Any, Callable

from providers.base import OptionScore, ProviderFailure


def split_pair(context: str, continuation: str) -> tuple[str, str]:
    """lm-eval's move: trailing whitespace of the context goes to the start of the continuation."""
    n = len(context) - len(context.rstrip())
    return (context[:-n], context[-n:] + continuation) if n else (context, continuation)


def boundary(context_ids: list[int] | list[str], whole_ids: list[int] | list[str]) -> int:
    """Where the continuation's tokens start in `whole_ids`: after the context's tokens (their longest
    common prefix, if the first continuation token merged with the context), and never at 0."""
    n = 0
    for a, b in zip(context_ids, whole_ids):
        if a != b:
            break
        n += 1
    return max(1, n)


def completions_body(model: str, prompts: list[list[int]] | list[str]) -> dict[str, Any]:
    """One request scoring every option of an item: the prompts as token ids (or texts), echoed with their
    log-probabilities (one generated token, dropped: some servers refuse max_tokens 0)."""
    return {"model": model, "prompt": prompts, "max_tokens": 1, "temperature": 0.0, "echo": True, "logprobs": 1}


def token_ids(data: Any) -> list[int]:
    """The token ids of a `/tokenize` answer (vLLM: `tokens`), type-checked."""
    ids = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in ids):
        raise ProviderFailure("malformed response: /tokenize gave no list of token ids", retryable=True, kind="malformed")
    if not ids:   # every text we tokenize is non-empty: no token at all would score nothing as something
        raise ProviderFailure("malformed response: /tokenize gave no token for a non-empty text", retryable=True, kind="malformed")
    return ids


def _echoed(data: Any, n: int) -> list[dict[str, Any]]:
    """The `logprobs` object of each of the n prompts' choices, in prompt order, type-checked."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or len(choices) != n:
        raise ProviderFailure(f"malformed response: expected {n} choices", retryable=True, kind="malformed")
    out: list[dict[str, Any] | None] = [None] * n
    for pos, ch in enumerate(choices):
        idx = ch.get("index", pos) if isinstance(ch, dict) else None
        lp = ch.get("logprobs") if isinstance(ch, dict) else None
        if not isinstance(idx, int) or not 0 <= idx < n or not isinstance(lp, dict) \
                or not isinstance(lp.get("token_logprobs"), list):
            raise ProviderFailure("malformed response: a choice without logprobs.token_logprobs", retryable=True, kind="malformed")
        out[idx] = lp
    covered = [v for v in out if v is not None]
    if len(covered) != n:
        raise ProviderFailure("malformed response: choices do not cover every prompt", retryable=True, kind="malformed")
    return covered


def prompt_logprobs(data: Any, n: int) -> list[list[Any]]:
    """The echoed `token_logprobs` of each of the n prompts, in prompt order, type-checked."""
    return [lp["token_logprobs"] for lp in _echoed(data, n)]


def echoed_prompts(data: Any, n: int) -> list[tuple[list[str], list[Any]]]:
    """Each of the n text prompts' echoed tokens and their log-probabilities, the generated token dropped."""
    out = []
    for lp in _echoed(data, n):
        tokens, values = lp.get("tokens"), lp["token_logprobs"]
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise ProviderFailure("malformed response: a choice without logprobs.tokens", retryable=True, kind="malformed")
        if len(values) != len(tokens) or len(tokens) < 2:
            raise ProviderFailure(f"no prompt log-probabilities: the server echoed {len(values)} log-probabilities "
                                  f"for {len(tokens)} tokens (it cannot score; llama.cpp's server returns only "
                                  "generated tokens)", retryable=False, kind="refused")
        out.append((tokens[:-1], values[:-1]))
    return out


def echo_scores(labels: tuple[str, ...], data: Any) -> tuple[OptionScore, ...]:
    """The options' scores from a request of text prompts: the context alone, then each whole text."""
    (context, _), *wholes = echoed_prompts(data, len(labels) + 1)
    return tuple(option_score(label, values, boundary(context, tokens), len(tokens))
                 for label, (tokens, values) in zip(labels, wholes))


def option_score(option: str, values: list[Any], start: int, end: int) -> OptionScore:
    """The score of the tokens start..end-1 of one echoed prompt."""
    if len(values) < end:
        raise ProviderFailure("no prompt log-probabilities: the server echoed "
                              f"{len(values)} of {end} prompt tokens (it cannot score; llama.cpp's server "
                              "returns only generated tokens)", retryable=False, kind="refused")
    part = values[start:end]
    if not part:   # the option has no token of its own: there is nothing to score
        raise ProviderFailure(f"malformed response: option {option!r} has no token after the problem's "
                              f"(tokens {start}..{end})", retryable=True, kind="malformed")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in part):
        raise ProviderFailure("malformed response: a prompt token without a finite log-probability", retryable=True, kind="malformed")
    if any(v > 0 for v in part):   # a probability above 1
        raise ProviderFailure(f"malformed response: a log-probability above 0 ({max(part)!r})", retryable=True,
                              kind="malformed")
    total, tokens, chars = float(sum(part)), len(part), len(option)
    if not math.isfinite(total):   # finite tokens can sum to -inf (-1e308 twice)
        raise ProviderFailure("malformed response: the option's log-probabilities sum to -inf", retryable=True, kind="malformed")
    return OptionScore(option=option, logprob=total, tokens=tokens, chars=chars,
                       mean_token=total / tokens if tokens else -math.inf,
                       mean_char=total / chars if chars else -math.inf)


def pick(scores: list[OptionScore], by: str) -> OptionScore | None:
    """The best option by `by` (mean_token, mean_char or sum); None when two or more tie at the top: a
    server that scores every option alike gives no answer, and the first option is not one."""
    keys: dict[str, Callable[[OptionScore], float]] = {
        "mean_token": lambda s: s.mean_token, "mean_char": lambda s: s.mean_char, "sum": lambda s: s.logprob}
    key = keys[by]
    best = max(scores, key=key)
    return best if sum(key(s) == key(best) for s in scores) == 1 else None
