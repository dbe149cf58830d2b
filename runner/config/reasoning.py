"""A solver's `reasoning:` block: the thinking settings each provider kind takes, checked, and their defaults.

How each setting reaches a server is the providers' business (providers/reasoning.py); here is
only what a grid may ask of which kind: a setting a kind cannot take is a grid error, not a
request field the server would ignore.
"""
from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import urlsplit

from providers.config import ProviderConfig, short
from providers.dialects import DIALECTS, SAMPLING_KEYS, Dialect
from runner.config.checks import Checker

EFFORTS = ("minimal", "low", "medium", "high")
KEYS = ("enabled", "effort", "budget_tokens", "keep_reasoning", "opened_by_template")
THINKING_MAX_TOKENS = 8192        # a thinking solver's default max_tokens: the thought and the label share it
THINKING_READ_TIMEOUT_S = 1800.0  # its provider's default read timeout: a thought of thousands of tokens takes minutes
ANTHROPIC_MIN_BUDGET = 1024       # the Messages API refuses a smaller thinking budget
OPENAI_HOSTS = ("api.openai.com",)   # `server: auto` pointed here is OpenAI's own API


def dialect_of(provider: ProviderConfig) -> Dialect | None:
    """The dialect a provider's thinking solves will meet, as far as the grid tells: declared, or OpenAI's own
    API by its URL; None for a built-in, or `server: auto` elsewhere (found out at start)."""
    if provider.dialect is not None or provider.kind != "openai":
        return provider.dialect
    urls = provider.settings.get("base_url") or []
    return DIALECTS["openai"] if any(urlsplit(u).hostname in OPENAI_HOSTS for u in urls) else None


def takes(provider: ProviderConfig) -> frozenset[str]:
    """The reasoning settings a provider can take (`server: auto`: those of OpenAI's API)."""
    if provider.kind not in ("openai", "vllm", "anthropic"):
        return frozenset()
    return (provider.dialect or DIALECTS["openai"]).reasoning


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
            hint = (" (enabled, budget_tokens and opened_by_template go to vLLM or SGLang: kind vllm, or "
                    "server: vllm or sglang)" if provider.kind == "openai" else "")
            raise c.fail(f"{path}.{key}", f"provider {provider.name!r} of kind {provider.kind} cannot take it; "
                         f"it takes {', '.join(k for k in KEYS if k in allowed)}{hint}")
    for key in ("enabled", "keep_reasoning", "opened_by_template"):
        if key in r and not isinstance(r[key], bool):
            raise c.fail(f"{path}.{key}", f"expected true or false, got {short(r[key])}")
    if r.get("enabled", True) is False:
        for key in ("effort", "budget_tokens"):
            if key in r:
                raise c.fail(f"{path}.{key}", "a solver with enabled: false does not think, so it takes no "
                             f"{key}; remove one or the other")
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


def check_sampling(c: Checker, entry: Mapping[str, Any], path: str, provider: ProviderConfig) -> None:
    """A thinking solver on a server whose thinking models take no sampling settings (OpenAI's o-series and
    gpt-5, Claude while thinking) must set none: the API refuses every request that does."""
    dialect = dialect_of(provider)
    if dialect is None or dialect.thinking_sampling or entry.get("reasoning", {}).get("enabled", True) is False:
        return
    extra = provider.settings.get("extra_body") or {}
    for key in SAMPLING_KEYS:
        where = f"{path}.{key}" if key in entry else f"providers.{provider.name}.extra_body.{key}" if key in extra else None
        if where:
            raise c.fail(where, f"a thinking solver of {provider.name!r} ({dialect.name}) takes no {key}: the API "
                         f"refuses any but its default while the model thinks; remove it")
