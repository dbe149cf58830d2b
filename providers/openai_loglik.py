"""Log-likelihood scoring on an OpenAI-compatible server: each option scored as the continuation of the
prompt through /v1/completions, its tokens found by the server's /tokenize where it has one (else from the
echoed prompt); the boundary and the reading are providers/loglik.py's."""
from __future__ import annotations

import asyncio
from typing import Literal

from providers.base import Completion, ProviderFailure, SolveRequest, usage_of
from providers.http import HTTPProvider
from providers.loglik import (
    boundary,
    completions_body,
    echo_scores,
    option_score,
    pick,
    prompt_logprobs,
    split_pair,
    token_ids,
)

BoundaryFrom = Literal["auto", "tokenize", "echo"]   # how an option's first token is found (see below)


class LoglikScoring(HTTPProvider):
    """An HTTP provider that scores options by their log-likelihood (`score`) and tokenizes on the server."""

    # Where an option's tokens start: "auto" asks /tokenize; the first answer fixes "tokenize", and a server
    # without one (404, 405) is scored by "echo" from then on (providers/loglik.py).
    boundary_from: BoundaryFrom = "auto"
    has_tokenize: bool | None = None   # whether the server has /tokenize (None: not asked yet)

    async def _tokenize(self, text: str) -> list[int]:
        """A text's token ids from the server's /tokenize; a server without one (404, 405) is asked only once."""
        try:
            data, _ = await self.post({"model": self.model, "prompt": text, "add_special_tokens": False},
                                      path="/tokenize", at_root=True)
        except ProviderFailure as exc:
            if exc.status in (404, 405):
                self.has_tokenize = False
            raise
        self.has_tokenize = True
        return token_ids(data)

    async def _token_ids(self, texts: list[str]) -> list[list[int]] | None:
        """Each text's token ids from the server's /tokenize, asked at once; None where it has none."""
        got = await asyncio.gather(*(self._tokenize(t) for t in texts),
                                   return_exceptions=True)   # every call ends before the attempt does
        ids = [g for g in got if not isinstance(g, BaseException)]
        failed = next((g for g in got if isinstance(g, BaseException)), None)
        if failed is None:
            self.boundary_from = "tokenize"
            return ids
        if isinstance(failed, ProviderFailure) and failed.status in (404, 405) and self.boundary_from == "auto":
            self.boundary_from = "echo"
            return None
        raise failed

    async def score(self, request: SolveRequest) -> Completion:
        """Loglik mode: each label as the continuation of the prompt (raw text, no chat template), all in
        one /v1/completions request; the answer is the best by `request.score`."""
        labels = request.labels
        pairs = [split_pair(request.prompt, request.delimiter + label) for label in labels]
        texts = [pairs[0][0]] + [ctx + cont for ctx, cont in pairs]   # the context (the same for all), each whole

        async def attempt() -> Completion:
            ids = await self._token_ids(texts) if self.boundary_from != "echo" else None
            if ids is not None:
                context_ids, *wholes = ids
                data, latency = await self.post(completions_body(self.model, wholes), path="/completions")
                values = prompt_logprobs(data, len(wholes))
                scores = tuple(option_score(label, v, boundary(context_ids, whole), len(whole))
                               for label, v, whole in zip(labels, values, wholes))
            else:
                data, latency = await self.post(completions_body(self.model, texts), path="/completions")
                scores = echo_scores(labels, data)
            best = pick(list(scores), request.score)
            usage = usage_of(data.get("usage"), "prompt_tokens", "completion_tokens")
            if best is None:
                return Completion(status="invalid", text="", finish_reason="loglik", usage=usage, latency_s=latency,
                                  constrained="loglik", scores=scores,
                                  reason=f"options tie at the top by {request.score}: no answer")
            return Completion(status="ok", text=best.option, label=best.option, finish_reason="loglik",
                              usage=usage, latency_s=latency, constrained="loglik", scores=scores)
        return await self.run(attempt, "loglik")

    async def check_scoring(self) -> str | None:
        """Score a probe; a server that echoes no prompt log-probabilities fails here, before the run."""
        res = await self.score(SolveRequest(prompt="The sky is", labels=("blue", "green"), mode="loglik"))
        if res.status != "ok":
            raise ProviderFailure(f"{self.name}: cannot score log-likelihoods at {self.urls[0]}: {res.reason}",
                                  retryable=False, kind="refused")
        if self.boundary_from == "echo":
            return (f"{self.name}: the server at {self.urls[0]} has no /tokenize; each item's context goes as "
                    "one more prompt, and its echoed tokens mark where the options start")
        return None
