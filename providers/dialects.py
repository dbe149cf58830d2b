"""What differs between the servers bench talks to, one record per dialect: adding a server is one entry.

The provider (providers/openai_compat.py, providers/anthropic.py) asks its dialect what to send and what
to expect; the grid checker (providers/config.py, runner/config/reasoning.py) asks it what a provider of
that dialect can be asked at all, so a setting a server cannot honour is a grid error, not a request
field it would ignore.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = frozenset({"enabled", "effort", "budget_tokens", "keep_reasoning", "opened_by_template"})


@dataclass(frozen=True)
class Dialect:
    """One kind of server: its constraints, grammar, tokenizer endpoint, reasoning fields and token limit."""

    name: str
    owned_by: str | None           # what its /models names in `owned_by` (None: nothing tells it apart)
    auto_constraint: str           # the constraint `auto` sends
    constraints: frozenset[str]    # the constraints it honours (`auto` and `none` always)
    patterns: bool                 # its JSON grammar honours `pattern`, `prefixItems` and `const`
    tokenize: bool                 # it has /tokenize at its root (the server's own tokenizer)
    reasoning_field: bool          # with a reasoning parser, the thought comes back in message.reasoning
    reasoning: frozenset[str]      # the `reasoning:` settings a solver on it may take
    budget_field: str | None       # where `budget_tokens` goes: a body field, or chat_template_kwargs.<name>
    json_field: str = "response_format"   # where a JSON schema goes: response_format, or structured_outputs
    thinking_limit: str = "max_tokens"   # the body field of a thinking solve's token limit
    thinking_sampling: bool = True  # False: its thinking models refuse temperature and top_p (any but the default)

    def honours(self, constraint: str) -> bool:
        """Whether a solver on this server may ask for `constraint`."""
        return constraint in ("auto", "none") or constraint in self.constraints


DIALECTS: dict[str, Dialect] = {d.name: d for d in (
    # vLLM >= 0.12 takes structured_outputs.choice and silently ignores guided_choice and a top-level grammar
    Dialect("vllm", "vllm", "choice", frozenset({"choice", "json_schema", "tool"}), patterns=True, tokenize=True,
            reasoning_field=True, reasoning=_OPEN, budget_field="thinking_token_budget",
            json_field="structured_outputs"),
    # SGLang: xgrammar like vLLM; a thinking budget is read by the model's chat template (Qwen3's does)
    Dialect("sglang", "sglang", "json_schema", frozenset({"json_schema", "tool"}), patterns=True, tokenize=True,
            reasoning_field=True, reasoning=_OPEN, budget_field="chat_template_kwargs.thinking_budget"),
    # llama.cpp ignores structured_outputs; it takes response_format json_schema and a GBNF `grammar`
    Dialect("llamacpp", "llamacpp", "json_schema", frozenset({"json_schema", "grammar"}), patterns=False,
            tokenize=False, reasoning_field=True, reasoning=frozenset({"effort", "keep_reasoning"}), budget_field=None),
    Dialect("tgi", "tgi", "json_schema", frozenset({"json_schema", "tool"}), patterns=False, tokenize=False,
            reasoning_field=False, reasoning=frozenset({"effort", "keep_reasoning"}), budget_field=None),
    # OpenAI's reasoning models (o-series, gpt-5) refuse max_tokens and any temperature or top_p but the default
    Dialect("openai", None, "json_schema", frozenset({"json_schema", "tool"}), patterns=False, tokenize=False,
            reasoning_field=False, reasoning=frozenset({"effort", "keep_reasoning"}), budget_field=None,
            thinking_limit="max_completion_tokens", thinking_sampling=False),
    # Anthropic's Messages API: a forced tool, refused while thinking; thinking takes no temperature either
    Dialect("anthropic", None, "tool", frozenset({"tool"}), patterns=False, tokenize=False, reasoning_field=False,
            reasoning=frozenset({"budget_tokens", "keep_reasoning"}), budget_field="thinking.budget_tokens",
            thinking_sampling=False),
)}
OPENAI_COMPATIBLE = tuple(n for n in DIALECTS if n != "anthropic")   # the values of `server:`
# what a server with thinking_sampling False refuses (top_k: Anthropic's, refused while thinking)
SAMPLING_KEYS = ("temperature", "top_p", "top_k")
# OpenAI's reasoning models by name (o1, o3, o4-mini, gpt-5 and their dated or sized variants): whatever their
# role, and thinking or not, the API refuses them max_tokens and any temperature or top_p but the default
OPENAI_REASONING = re.compile(r"(?:^|/)(?:o[1-9]|gpt-5)(?:$|[-.:])", re.IGNORECASE)
TEMPERATURE_RANGE = {"anthropic": (0.0, 1.0)}   # the Messages API's; OpenAI's (and the servers') is 0..2
DEFAULT_TEMPERATURE_RANGE = (0.0, 2.0)


def reasoning_model(dialect: Dialect | None, model: str) -> bool:
    """Whether `model` on a server of this dialect is one of OpenAI's reasoning models (None: `server: auto`,
    which may be OpenAI's own API)."""
    return (dialect is None or dialect.name == "openai") and bool(OPENAI_REASONING.search(model))


def by_owner(owned_by: str) -> Dialect:
    """The dialect a /models `owned_by` names; OpenAI's when it names none of ours."""
    return next((d for d in DIALECTS.values() if d.owned_by == owned_by), DIALECTS["openai"])


def declared(kind: str, server: str | None) -> Dialect | None:
    """The dialect a provider's kind (and `server:`) declares; None for `server: auto` (found out at start)."""
    if kind in ("vllm", "anthropic"):
        return DIALECTS[kind]
    if kind == "openai" and server and server != "auto":
        return DIALECTS[server]
    return None
