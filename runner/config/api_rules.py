"""What each API accepts of a renderer or solver entry, checked with the grid: a request it would refuse is a
grid error in one line, never a run of failed units (OpenAI's reasoning models, per-kind temperature ranges,
Anthropic's forced tool)."""
from __future__ import annotations

from typing import Any, Mapping

from providers.config import ProviderConfig
from providers.dialects import DEFAULT_TEMPERATURE_RANGE, TEMPERATURE_RANGE, reasoning_model
from runner.config.checks import Checker
from runner.config.reasoning import THINKING_MAX_TOKENS, dialect_of

# A forced tool's answer comes as a tool_use block (its id, name and JSON input): 16 tokens, a plain solver's
# default, may cut it. An Anthropic solver that answers through the tool gets this many unless told.
ANTHROPIC_TOOL_MAX_TOKENS = 128
ANTHROPIC_TOOL_MIN_TOKENS = 64


def temperature_range(provider: ProviderConfig) -> tuple[float, float]:
    """The temperatures a provider's API takes: Anthropic's 0..1, OpenAI's (and the servers') 0..2."""
    return TEMPERATURE_RANGE.get(provider.kind, DEFAULT_TEMPERATURE_RANGE)


def check_temperature(c: Checker, entry: Mapping[str, Any], path: str, provider: ProviderConfig) -> float:
    """An entry's temperature, within its API's range (the key path names where it was given)."""
    lo, hi = temperature_range(provider)
    where = f"{path}.temperature"
    value = float(c.number(entry.get("temperature", 0.0), where, lo, hi))
    extra = (provider.settings.get("extra_body") or {}).get("temperature")
    if extra is not None:
        c.number(extra, f"providers.{provider.name}.extra_body.temperature", lo, hi)
    return value


def openai_reasoning(provider: ProviderConfig) -> bool:
    """Whether a provider serves one of OpenAI's reasoning models (o1, o3, o4-mini, gpt-5...) on OpenAI's API (or
    on a `server: auto` that may be it)."""
    model = provider.settings.get("model")
    return provider.kind == "openai" and isinstance(model, str) and reasoning_model(dialect_of(provider), model)


def default_max_tokens(provider: ProviderConfig, default: int) -> int:
    """An entry's default max_tokens: an OpenAI reasoning model thinks within its max_completion_tokens in every
    role, so 16 (a plain solver's) would hold no answer after the thought."""
    return max(default, THINKING_MAX_TOKENS) if openai_reasoning(provider) else default


def check_reasoning_model(c: Checker, entry: Mapping[str, Any], path: str, provider: ProviderConfig) -> None:
    """One of OpenAI's reasoning models, in any role: its API refuses any temperature or top_p but the default
    (and max_tokens, which bench sends as max_completion_tokens); one set is refused."""
    if not openai_reasoning(provider):
        return
    model = provider.settings["model"]
    extra = provider.settings.get("extra_body") or {}
    for key in ("temperature", "top_p"):
        where = f"{path}.{key}" if key in entry else f"providers.{provider.name}.extra_body.{key}" if key in extra \
            else None
        if where:
            raise c.fail(where, f"{model} is one of OpenAI's reasoning models: its API refuses any {key} but the "
                         "default; remove it (or declare another server with `server:`)")


def uses_tool(provider: ProviderConfig, constraint: str, thinking: bool) -> bool:
    """Whether an Anthropic solver answers through the forced tool (not while thinking, not constraint none)."""
    asked = constraint if constraint != "auto" else provider.settings.get("constraint", "auto")
    return provider.kind == "anthropic" and not thinking and asked in ("auto", "tool")


def check_tool_tokens(c: Checker, entry: Mapping[str, Any], path: str, max_tokens: Any) -> None:
    """A forced tool_use block needs room: an explicit max_tokens below the minimum would cut every answer."""
    if "max_tokens" in entry and isinstance(max_tokens, int) and max_tokens < ANTHROPIC_TOOL_MIN_TOKENS:
        raise c.fail(f"{path}.max_tokens", f"expected at least {ANTHROPIC_TOOL_MIN_TOKENS}: the answer comes as a "
                     f"tool_use block (its name and JSON input), which {max_tokens} tokens would cut; or set "
                     "constraint: none to read the label from text")
