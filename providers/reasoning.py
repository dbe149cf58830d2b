"""Thinking solvers: the request fields each server takes, the thought read back, and the thought's tokens.

- vLLM (and SGLang) with a `--reasoning-parser`: the thought comes back in `message.reasoning`
  (`reasoning_content` before vLLM 0.11) and the structured-output constraint applies after it, so
  the label stays constrained. Without a parser the constraint binds from the first token (the
  model is made to answer without thinking) and the thought, when asked as text, comes inside the
  content, `<think> ... </think>` then the answer.
- OpenAI: `reasoning_effort`; the thought is hidden, its tokens are in `usage`.
- Anthropic: `thinking: {type: enabled, budget_tokens}`; thinking blocks before the text; a forced
  tool is refused while thinking, so the label is asked as text.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from providers.base import Completion, SolveRequest, Thinking, Usage, answered

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
CUT = "thinking cut at max_tokens"
# Open-weight models that think by default (or on request) and ship a vLLM reasoning parser: served
# without `--reasoning-parser`, their thought lands in the content and a constraint silences it.
KNOWN = re.compile(r"qwen3|qwq|deepseek-r1|deepseek-v3\.[1-9]|glm-4\.[5-9]|gpt-oss|magistral|phi-4-(mini-)?reasoning|"
                   r"ernie-4\.5.*thinking|hunyuan-a13b|minimax-m2|seed-oss|kimi-k2-thinking", re.IGNORECASE)


def thinks(reasoning: Mapping[str, Any] | None) -> bool:
    """Whether a request with these settings asks the model to think."""
    return reasoning is not None and reasoning.get("enabled", True) is not False


def openai_fields(server: str, reasoning: Mapping[str, Any]) -> dict[str, Any]:
    """The body fields an OpenAI-compatible server takes for these settings (the grid checked which)."""
    out: dict[str, Any] = {}
    template: dict[str, Any] = {}
    if "enabled" in reasoning:
        template["enable_thinking"] = reasoning["enabled"]
    if "effort" in reasoning:
        out["reasoning_effort"] = reasoning["effort"]
    if "budget_tokens" in reasoning:
        if server == "sglang":   # read by the model's chat template (Qwen3's does)
            template["thinking_budget"] = reasoning["budget_tokens"]
        else:                    # vLLM ends the thought there (needs the server's --reasoning-config)
            out["thinking_token_budget"] = reasoning["budget_tokens"]
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


def split_think(content: str) -> tuple[str | None, str, bool]:
    """A thought inside the content (a server without a parser): (the thought, the answer after it, whether
    the thought was closed). Content with no think tags is all answer. Templates that open the thought in
    the prompt (Qwen3's) send only its close."""
    if THINK_CLOSE in content:
        thought, _, answer = content.partition(THINK_CLOSE)
        return thought.replace(THINK_OPEN, "", 1).strip(), answer.strip(), True
    if content.lstrip().startswith(THINK_OPEN):
        return content.lstrip()[len(THINK_OPEN):].strip(), "", False
    return None, content, True


def estimate(text: str) -> int:
    """Tokens of a text, estimated: four characters a token (English prose on today's tokenizers)."""
    return (len(text) + 3) // 4


def usage_reasoning_tokens(usage: Any) -> int | None:
    """OpenAI's `usage.completion_tokens_details.reasoning_tokens`, where the server gives it."""
    details = usage.get("completion_tokens_details") if isinstance(usage, dict) else None
    value = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def answered_after_thought(request: SolveRequest, text: str, label: str | None, *, thought: str | None,
                           tokens: int | None, tokens_from: str, finish_reason: str | None, cut: bool, usage: Usage,
                           latency_s: float, constrained: str) -> Completion:
    """A thinking solve's result: `answered` with its Thinking (the thought kept only with keep_reasoning);
    a thought that max_tokens cut before any answer is `invalid` with the reason CUT, never a wrong answer."""
    keep = bool(request.reasoning and request.reasoning.get("keep_reasoning"))
    info = Thinking(tokens, tokens_from if tokens is not None else None, cut, (thought or None) if keep else None)
    if cut:
        return Completion(status="invalid", text=text, finish_reason=finish_reason, usage=usage, latency_s=latency_s,
                          constrained=constrained, reason=CUT, thinking=info)
    return replace(answered(text, label, finish_reason=finish_reason, usage=usage, latency_s=latency_s,
                            constrained=constrained), thinking=info)
