"""A thinking solver's answer from an OpenAI-compatible server: the label after the thought (never inside it),
the thought's tokens, and what the server's answers show of its reasoning parser and chat template."""
from __future__ import annotations

from typing import Any

from providers.base import Completion, ProviderFailure, SolveRequest, TokensFrom, Usage
from providers.dialects import Dialect
from providers.openai_loglik import LoglikScoring
from providers.reasoning import (
    KNOWN,
    THINK_OPEN,
    ThoughtEnd,
    answered_after_thought,
    reasoning_of,
    split_think,
    tokens_of_thought,
    usage_reasoning_tokens,
)


class ThinkingAnswers(LoglikScoring):
    """Reading thinking answers; what it learns from them is kept per server, and its chat class supplies the
    dialect and how a label is read under a constraint."""

    # Learned from the answers (or settings): whether the server runs a reasoning parser (None: not yet
    # known), whether the chat template opens the thought in the prompt.
    reasoning_parser: bool | None = None
    template_opens = False

    @property
    def dialect(self) -> Dialect:
        """The server's dialect (the chat class's)."""
        raise NotImplementedError

    async def _ready(self) -> None:
        """Started, its dialect known (the chat class's)."""
        raise NotImplementedError

    def _label(self, mode: str, message: dict[str, Any], labels: tuple[str, ...]) -> tuple[str, str | None]:
        """The answer's text and its label, read as the constraint that was sent shapes it (the chat class's)."""
        raise NotImplementedError

    async def _after_thought(self, request: SolveRequest, mode: str, message: dict[str, Any], finish: str | None,
                             usage: Usage, raw_usage: Any, latency: float) -> Completion:
        """A thinking solver's answer: the label after the thought (never from inside it), the thought's
        tokens, and what max_tokens cut (the thought, or the answer after it: then `invalid`, never wrong)."""
        has_field, thought = reasoning_of(message)
        raw = content = message.get("content") or ""
        ended: ThoughtEnd = "closed" if has_field else "none"   # how the thought ended: none came back as text, so far
        if has_field:
            self.reasoning_parser = True
        elif mode == "none":
            opened = self.template_opens or bool(request.reasoning and request.reasoning.get("opened_by_template"))
            thought, content, ended = split_think(content, opened)
            if ended == "closed":   # the thought came in the content: no parser moved it out
                self.reasoning_parser = False
                if THINK_OPEN not in raw:
                    self.template_opens = True   # `</think>` with no `<think>`: the template opened it
            elif ended == "none" and finish in ("length", "max_tokens") and self.dialect.reasoning_field:
                thought, content, ended = content.strip(), "", "open"   # no tag, cut: a thought, never an answer
        text, label = self._label(mode, {**message, "content": content}, request.labels) if ended != "open" \
            else (content, None)
        tokens: int | None = None
        source: TokensFrom | None = None
        if thought and self.dialect.tokenize and self.has_tokenize is not False and self.boundary_from != "echo":
            tokens, source = await self._count(thought)
        if tokens is None:
            visible = self.dialect.reasoning_field or ended != "none"
            tokens, source = tokens_of_thought(thought, visible, usage_reasoning_tokens(raw_usage),
                                               usage.completion_tokens, text)
        return answered_after_thought(request, text, label, thought=thought, tokens=tokens, tokens_from=source,
                                      finish_reason=finish, ended=ended, usage=usage, latency_s=latency,
                                      constrained=mode)

    async def _count(self, thought: str) -> tuple[int | None, TokensFrom | None]:
        """A thought's tokens by the server's own tokenizer; (None, None) where it has no /tokenize."""
        try:
            return len(await self._tokenize(thought)), "tokenize"
        except ProviderFailure:
            return None, None

    async def check_reasoning(self) -> str | None:
        """Before a run with a thinking solver: whether the server runs a reasoning parser (a small thinking solve
        asked as text: a thought in `reasoning` says it does, one in the content that it does not, no thought
        settles nothing); a note when it does not."""
        await self._ready()
        if not self.dialect.reasoning_field or self.reasoning_parser is not None:
            return None
        probe = SolveRequest(prompt="Is 7 greater than 3? Answer with exactly one of: yes, no", labels=("yes", "no"),
                             max_tokens=64, reasoning={"enabled": True})
        await self.solve(probe)
        if self.reasoning_parser is not False:
            return None
        known = "" if not KNOWN.search(self.model) else (
            f"; {self.model} is a reasoning model: start its server with --reasoning-parser (e.g. qwen3, "
            "deepseek_r1) so the label stays constrained after the thought")
        return (f"{self.name}: the server at {self.urls[0]} answers with its thought in the content (no "
                f"--reasoning-parser): its thinking solves ask for the label as text and read it after the "
                f"thought{known}")
