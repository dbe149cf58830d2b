"""Thinking solvers: the request fields each server takes, the thought read back, and the thought's tokens.

- vLLM (and SGLang) with a `--reasoning-parser`: the thought comes back in `message.reasoning`
  (`reasoning_content` before vLLM 0.11) and the structured-output constraint applies after it, so
  the label stays constrained. Without a parser the constraint binds from the first token (the
  model is made to answer without thinking) and the thought, asked as text, comes inside the
  content, `<think> ... </think>` then the answer; templates that open the thought in the prompt
  (R1, QwQ, Qwen3-Thinking) send only `... </think>`, and a cut thought with no tag at all.
- OpenAI: `reasoning_effort`, `max_completion_tokens`, no sampling settings; the thought is hidden,
  its tokens are in `usage`.
- Anthropic: `thinking: {type: enabled, budget_tokens}`; thinking blocks before the text; a forced
  tool is refused while thinking, so the label is asked as text.
What differs by server is in providers/dialects.py.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal, Mapping

from providers.base import Completion, SolveRequest, Thinking, TokensFrom, Usage, answered
from providers.dialects import Dialect

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
CUT = "thinking cut at max_tokens"
ANSWER_CUT = "answer cut at max_tokens after a complete thought"
UNCLOSED = "thinking never closed (no </think> before the answer ended)"
# Open-weight models that think by default (or on request) and ship a vLLM reasoning parser: served
# without `--reasoning-parser`, their thought lands in the content and a constraint silences it.
KNOWN = re.compile(r"qwen3|qwq|deepseek-r1|deepseek-v3\.[1-9]|glm-4\.[5-9]|gpt-oss|magistral|phi-4-(mini-)?reasoning|"
                   r"ernie-4\.5.*thinking|hunyuan-a13b|minimax-m2|seed-oss|kimi-k2-thinking", re.IGNORECASE)


def thinks(reasoning: Mapping[str, Any] | None) -> bool:
    """Whether a request with these settings asks the model to think."""
    return reasoning is not None and reasoning.get("enabled", True) is not False


def openai_fields(dialect: Dialect, reasoning: Mapping[str, Any]) -> dict[str, Any]:
    """The body fields an OpenAI-compatible server of this dialect takes for these settings (the grid checked
    which it may be given)."""
    out: dict[str, Any] = {}
    template: dict[str, Any] = {}
    if "enabled" in reasoning:
        template["enable_thinking"] = reasoning["enabled"]
    if "effort" in reasoning:
        out["reasoning_effort"] = reasoning["effort"]
    if "budget_tokens" in reasoning and dialect.budget_field:
        where, _, name = dialect.budget_field.rpartition(".")
        (template if where == "chat_template_kwargs" else out)[name] = reasoning["budget_tokens"]
    if template:
        out["chat_template_kwargs"] = template
    return out


def anthropic_fields(reasoning: Mapping[str, Any]) -> dict[str, Any]:
    """Extended thinking for the Messages API."""
    return {"thinking": {"type": "enabled", "budget_tokens": reasoning["budget_tokens"]}}


def reasoning_of(message: Mapping[str, Any]) -> tuple[bool, str | None]:
    """Whether a chat message carries a thought in a reasoning field (a server with a parser), and its text.

    vLLM 0.32 sends `"reasoning": null` in every message, parser or not (measured), so only a
    thought there, not the key, says a parser read one."""
    for key in ("reasoning", "reasoning_content"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return True, value
    return False, None


# How a thought ended: closed (the answer follows), open (no close: the answer never came), none (no thought)
ThoughtEnd = Literal["closed", "open", "none"]


def split_think(content: str, opened_by_template: bool) -> tuple[str | None, str, ThoughtEnd]:
    """A thought inside the content (a server without a reasoning parser): (the thought, the answer after it,
    how it ended: `closed`, `open` (no </think>: the answer never came) or `none` (no thought at all)).

    Templates of R1, QwQ and Qwen3-Thinking open `<think>` in the prompt, so the content holds only
    `... </think> answer`; then content without `</think>` is all thought, never an answer."""
    if THINK_CLOSE in content:
        thought, _, answer = content.partition(THINK_CLOSE)
        return thought.replace(THINK_OPEN, "", 1).strip(), answer.strip(), "closed"
    if content.lstrip().startswith(THINK_OPEN):
        return content.lstrip()[len(THINK_OPEN):].strip(), "", "open"
    if opened_by_template:
        return content.strip(), "", "open"
    return None, content, "none"


def estimate(text: str) -> int:
    """Tokens of a text, estimated: four characters a token (English prose on today's tokenizers)."""
    return (len(text) + 3) // 4


def usage_reasoning_tokens(usage: Any) -> int | None:
    """OpenAI's `usage.completion_tokens_details.reasoning_tokens`, where the server gives it."""
    details = usage.get("completion_tokens_details") if isinstance(usage, dict) else None
    value = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def tokens_of_thought(thought: str | None, visible: bool, detail: int | None, completion_tokens: int,
                      answer: str) -> tuple[int | None, TokensFrom | None]:
    """(tokens, who counted them) of a thought the server's own tokenizer did not count: its reasoning_tokens
    (`usage`) where it counts some; none (`empty`) where the thought comes back as text and none came; else its
    completion tokens less the answer's estimate (`completion`); else the thought's length (`estimate`).
    A thought that came back never counts 0 tokens, whatever the server says."""
    if detail:
        return detail, "usage"
    if not thought and visible:
        return 0, "empty"
    if completion_tokens:
        return max(completion_tokens - estimate(answer), 1 if thought else 0), "completion"
    if thought:
        return estimate(thought), "estimate"
    return (0, "usage") if detail == 0 else (None, None)


def answered_after_thought(request: SolveRequest, text: str, label: str | None, *, thought: str | None,
                           tokens: int | None, tokens_from: TokensFrom | None, finish_reason: str | None,
                           ended: ThoughtEnd,
                           usage: Usage, latency_s: float, constrained: str) -> Completion:
    """A thinking solve's result: `answered` with its Thinking (the thought kept only with keep_reasoning).

    `ended` is how the thought ended (`closed`, `open`, `none`). An open thought is never read for a label:
    cut by max_tokens (CUT) or never closed (UNCLOSED); an answer cut after a complete thought is ANSWER_CUT.
    All three are `invalid`, never a wrong answer."""
    keep = bool(request.reasoning and request.reasoning.get("keep_reasoning"))
    length = finish_reason in ("length", "max_tokens")
    cut = ended == "open" and length or (label is None and length and not text.strip())
    reason = CUT if cut else UNCLOSED if ended == "open" else ANSWER_CUT if length and label is None else None
    info = Thinking(tokens, tokens_from if tokens is not None else None, cut, (thought or None) if keep else None)
    if reason:
        return Completion(status="invalid", text=text, finish_reason=finish_reason, usage=usage, latency_s=latency_s,
                          constrained=constrained, reason=reason, thinking=info)
    return replace(answered(text, label, finish_reason=finish_reason, usage=usage, latency_s=latency_s,
                            constrained=constrained), thinking=info)
