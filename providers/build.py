"""A provider object made from its checked settings (providers/config.py): the built-ins, Anthropic's client or an
OpenAI-compatible one, with their caps, timeouts and retries; no request is sent."""
from __future__ import annotations

import os
from typing import Any, Callable, Mapping

from providers.base import Provider
from providers.config import ConfigError, ProviderConfig, key_fault, key_variable
from providers.retry import RetryPolicy

DEFAULT_CONCURRENCY = {"anthropic": 8}   # requests in flight per server when a grid gives none; 64 for the others


def max_concurrency(cfg: ProviderConfig) -> int:
    """A provider's cap on requests in flight per server: its `max_concurrency`, else its kind's default."""
    return int(cfg.settings.get("max_concurrency", DEFAULT_CONCURRENCY.get(cfg.kind, 64)))


def _http_kwargs(cfg: ProviderConfig) -> dict[str, Any]:
    s = cfg.settings
    return dict(max_concurrency=max_concurrency(cfg), rate_per_s=s.get("rate_per_s"),
                connect_timeout_s=s.get("connect_timeout_s", 10.0), read_timeout_s=s.get("read_timeout_s", 600.0),
                policy=RetryPolicy(attempts=s.get("attempts", 5)), http_client=s.get("http_client", "auto"))


def build_provider(cfg: ProviderConfig, env: Mapping[str, str] | None = None,
                   urls: list[str] | None = None) -> Provider:
    """Make the provider object (no request is sent); `urls` overrides base_url (launched servers)."""
    env = os.environ if env is None else env
    s = cfg.settings
    key = env.get(s["api_key_env"]) if s.get("api_key_env") else None
    if key and key_fault(key):   # the environment here (a cluster agent's node) may differ from the grid check's
        raise ConfigError(f"providers.{cfg.name}.api_key_env: {key_variable(s['api_key_env'])} {key_fault(key)}")
    if cfg.kind in _BUILTINS:
        return _BUILTINS[cfg.kind](cfg)
    if cfg.kind == "anthropic":
        from providers.anthropic import Anthropic
        return Anthropic(cfg.name, s["model"], urls or s["base_url"], api_key=key or "",
                         constraint=s.get("constraint", "auto"), extra_body=s.get("extra_body"),
                         **_http_kwargs(cfg))
    from providers.openai_compat import OpenAICompatible
    if not (urls or s.get("base_url")):
        raise ConfigError(f"providers.{cfg.name}: its launch: servers are not running")
    return OpenAICompatible(cfg.name, s["model"], urls or s["base_url"],
                            server="vllm" if cfg.kind == "vllm" else s.get("server", "auto"),
                            constraint=s.get("constraint", "auto"), extra_body=s.get("extra_body"),
                            api_key=key, **_http_kwargs(cfg))


def _builtin(name: str) -> Any:
    from providers import builtin
    return getattr(builtin, name)


_BUILTINS: dict[str, Callable[[ProviderConfig], Provider]] = {
    "template": lambda cfg: _builtin("Template")(cfg.name, cfg.settings.get("model", "template-v2")),
    "random": lambda cfg: _builtin("RandomSolver")(cfg.name, cfg.settings.get("seed", 0)),
    "prior": lambda cfg: _builtin("PriorSolver")(cfg.name),
}
BUILTIN_KINDS = frozenset(_BUILTINS)   # made without a server, a network or a key
