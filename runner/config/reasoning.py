"""A solver's `reasoning:` block: the thinking settings each provider kind takes, checked, and their defaults.

How each setting reaches a server is the providers' business (providers/reasoning.py); here is
only what a grid may ask of which kind: a setting a kind cannot take is a grid error, not a
request field the server would ignore.
"""
from __future__ import annotations

from typing import Any

from providers.config import ProviderConfig
from runner.config.checks import Checker, short

EFFORTS = ("minimal", "low", "medium", "high")
KEYS = ("enabled", "effort", "budget_tokens", "keep_reasoning")
_OPEN_MODELS = {"enabled", "effort", "budget_tokens", "keep_reasoning"}   # vLLM and SGLang servers
TAKES = {
    "vllm": _OPEN_MODELS,
    "openai": {"effort", "keep_reasoning"},      # OpenAI's API; a vLLM or SGLang server (server: ...) takes all
    "anthropic": {"budget_tokens", "keep_reasoning"},
}
THINKING_MAX_TOKENS = 8192        # a thinking solver's default max_tokens: the thought and the label share it
THINKING_READ_TIMEOUT_S = 1800.0  # its provider's default read timeout: a thought of thousands of tokens takes minutes
ANTHROPIC_MIN_BUDGET = 1024       # the Messages API refuses a smaller thinking budget


def takes(provider: ProviderConfig) -> set[str]:
    """The reasoning settings a provider can take."""
    if provider.kind == "openai" and provider.settings.get("server") in ("vllm", "sglang"):
        return _OPEN_MODELS
    return TAKES.get(provider.kind, set())


def parse_reasoning(c: Checker, raw: Any, path: str, provider: ProviderConfig, mode: str) -> dict[str, Any]:
    """Check a solver's `reasoning:` block against its provider's kind."""
    if mode == "loglik":
        raise c.fail(path, "a loglik solver scores the options and generates nothing: it cannot think")
    r = c.mapping(raw, path, set(KEYS))
    allowed = takes(provider)
    if not allowed:
        raise c.fail(path, f"provider {provider.name!r} of kind {provider.kind} does not think")
    for key in r:
        if key not in allowed:
            hint = (" (enabled and budget_tokens go to vLLM or SGLang: kind vllm, or server: vllm)"
                    if provider.kind == "openai" else "")
            raise c.fail(f"{path}.{key}", f"provider {provider.name!r} of kind {provider.kind} cannot take it; "
                         f"it takes {', '.join(k for k in KEYS if k in allowed)}{hint}")
    for key in ("enabled", "keep_reasoning"):
        if key in r and not isinstance(r[key], bool):
            raise c.fail(f"{path}.{key}", f"expected true or false, got {short(r[key])}")
    if "effort" in r and r["effort"] not in EFFORTS:
        raise c.fail(f"{path}.effort", f"expected one of {', '.join(EFFORTS)}, got {short(r['effort'])}")
    if "budget_tokens" in r:
        lo = ANTHROPIC_MIN_BUDGET if provider.kind == "anthropic" else 1
        c.number(r["budget_tokens"], f"{path}.budget_tokens", lo, 2**31 - 1, integer=True)
    if provider.kind == "anthropic" and "budget_tokens" not in r:
        raise c.fail(f"{path}.budget_tokens", f"missing: Anthropic's extended thinking needs a budget of at least "
                     f"{ANTHROPIC_MIN_BUDGET} tokens")
    return dict(r)


def thinking_max_tokens(reasoning: dict[str, Any]) -> int:
    """A solver's default max_tokens under `reasoning:`: room to think (and the label after), unless thinking
    is turned off."""
    if reasoning.get("enabled", True) is False:
        return 16
    budget = reasoning.get("budget_tokens")
    return max(THINKING_MAX_TOKENS, budget + 1024) if budget else THINKING_MAX_TOKENS


def check_budget(c: Checker, stage: Any, path: str) -> None:
    """The thought and the label share max_tokens: a budget must leave room for the label."""
    budget = (stage.reasoning or {}).get("budget_tokens")
    if budget is not None and stage.thinks and stage.max_tokens <= budget:
        raise c.fail(f"{path}.max_tokens", f"expected more than reasoning.budget_tokens ({budget}): the thought "
                     f"and the answer share max_tokens (got {stage.max_tokens})")
