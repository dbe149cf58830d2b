"""Provider settings from a grid file: checked whole, with errors naming `providers.<name>.<key>`."""
from __future__ import annotations

import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

from providers.base import CONSTRAINTS
from providers.dialects import DIALECTS, OPENAI_COMPATIBLE, Dialect, declared

INT64 = (-2**63, 2**63 - 1)   # the range of a 64-bit integer (seeds, counts)


# auto: plain-http servers through the lean client (providers/wire.py), https through aiohttp; aiohttp: all
HTTP_CLIENTS = ("auto", "aiohttp")


class ConfigError(ValueError):
    """A provider setting is wrong; the message starts with its key path."""


KINDS = ("openai", "vllm", "anthropic", "template", "random", "prior")
_HTTP_KEYS = {"model", "base_url", "api_key_env", "max_concurrency", "rate_per_s", "connect_timeout_s",
              "read_timeout_s", "attempts", "retries", "extra_body", "constraint", "variant", "http_client"}
# vLLM launch arguments that say where a server runs and how much it holds at once, not what it answers:
# left out of unit keys, so moving a server or giving it more memory keeps a run's results. Every other
# argument (a quantization, a reasoning parser, a chat template, a revision...) is in them; dtype is kept
# under its own name, as it always was.
PLACEMENT_ARGS = frozenset({
    "port", "host", "api_key", "gpu_memory_utilization", "max_model_len", "max_num_seqs", "max_num_batched_tokens",
    "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "swap_space", "cpu_offload_gb",
    "enforce_eager", "download_dir", "disable_log_requests", "disable_log_stats", "enable_log_requests",
    "uvicorn_log_level", "served_model_name", "block_size", "max_log_len", "disable_uvicorn_access_log",
    "enable_prefix_caching", "enable_chunked_prefill", "kv_cache_memory_bytes", "dtype"})
ALLOWED = {
    "openai": _HTTP_KEYS | {"server"},
    "vllm": _HTTP_KEYS | {"launch"},   # an OpenAI-compatible server known to be vLLM
    "anthropic": _HTTP_KEYS,
    "template": {"model"},
    "random": {"seed"},
    "prior": set(),
}


@dataclass(frozen=True)
class ProviderConfig:
    """One provider as the grid declares it."""

    name: str
    kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        """What changes this provider's results (goes into unit keys): its kind, the server dialect it declares,
        model, extra body, seed, variant, and how a launched server is started (weights, dtype, every argument
        but placement); URLs, replicas, caps and keys do not."""
        s = self.settings
        keep: dict[str, Any] = {"kind": "openai" if self.kind == "vllm" else self.kind}
        for key in ("model", "extra_body", "seed", "variant"):
            if key in s:
                keep[key] = s[key]
        if self.kind == "openai" and s.get("server", "auto") != "auto":
            keep["server"] = s["server"]
        launch = s.get("launch")
        if launch:
            keep["weights"] = launch["model"]
            args = {k.replace("-", "_"): v for k, v in launch.get("args", {}).items()}
            if "dtype" in args:
                keep["dtype"] = args["dtype"]
            answering = {k: v for k, v in sorted(args.items()) if k not in PLACEMENT_ARGS}
            if answering:
                keep["launch_args"] = answering
        return keep

    @property
    def dialect(self) -> Dialect | None:
        """The server dialect this provider declares (None: built-in, or `server: auto`, found out at start)."""
        return declared(self.kind, self.settings.get("server"))


SERVERS = OPENAI_COMPATIBLE + ("auto",)   # the values of an openai provider's `server:`


def constraints_of(dialect: Dialect | None) -> tuple[str, ...]:
    """The constraints a solver may ask of a server of this dialect (None: not known before the run, any an
    OpenAI-compatible server honours)."""
    if dialect is None:
        return tuple(c for c in CONSTRAINTS if any(DIALECTS[d].honours(c) for d in OPENAI_COMPATIBLE))
    return tuple(c for c in CONSTRAINTS if dialect.honours(c))


def _positive(v: Any) -> bool:
    """A finite number > 0 (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def _url_ok(url: Any) -> bool:
    """An http(s) URL with a host and, if given, a valid port."""
    from urllib.parse import urlsplit
    if not isinstance(url, str) or any(ch.isspace() or ord(ch) < 32 for ch in url):
        return False
    try:
        parts = urlsplit(url)
        _ = parts.port   # raises ValueError on a bad port
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _credentials(url: Any) -> bool:
    """Whether a URL holds a user name or password (`user:password@host`) or a query or fragment (`?key=...`: a
    base URL has none, bench adds its paths to it)."""
    from urllib.parse import urlsplit
    try:
        parts = urlsplit(url) if isinstance(url, str) else None
    except ValueError:
        return False
    return parts is not None and ("@" in parts.netloc or "?" in url or "#" in url)


_KEY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")   # a variable a shell can set (`export NAME=...`)
_SHOWN_NAME = re.compile(r"[A-Z_][A-Z0-9_]{0,63}")   # a name as names of keys are written (OPENAI_API_KEY)


def key_variable(name: str) -> str:
    """How a message names the variable of `api_key_env`: by its name where it reads as one (OPENAI_API_KEY), else
    not at all (a key pasted there by mistake is never printed)."""
    return f"environment variable {name}" if _SHOWN_NAME.fullmatch(name) else "the environment variable named there"


def key_missing(name: str, env: Mapping[str, str]) -> str:
    """What a message says of `api_key_env`'s variable that holds no key: `... is empty` or `... is not set`."""
    return f"{key_variable(name)} is " + ("empty" if name in env else "not set")


def short(value: Any) -> str:
    """A value for an error message: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_NOTED: set[str] = set()


def _note(line: str) -> None:
    """A one-line note on stderr, once per process (a grid is read more than once by some commands)."""
    if line not in _NOTED:
        _NOTED.add(line)
        print(line, file=sys.stderr)


_CONTROL_NAMES = {"\r": "a carriage return (CR)", "\n": "a line feed (LF)", "\t": "a tab", "\x00": "a NUL",
                  "\x7f": "a DEL"}


def key_fault(key: str) -> str | None:
    """What makes `key` unfit for an HTTP header: `holds a line feed (LF) at its end` and so on (a control
    character: C0, DEL or C1; a header cannot carry it, and a server may echo it raw); None when fit.
    Never quotes the key."""
    for i, ch in enumerate(key):
        if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F:
            name = _CONTROL_NAMES.get(ch, f"the control character U+{ord(ch):04X}")
            where = "at its end" if i == len(key) - 1 else "at its start" if i == 0 else "inside it"
            return f"holds {name} {where}"
    return None


def _need(cond: object, path: str, what: str) -> None:
    """A ConfigError naming `path` and what was expected, unless `cond` holds (is truthy)."""
    if not cond:
        raise ConfigError(f"{path}: {what}")


def parse_provider(name: str, raw: Any, env: Mapping[str, str] | None = None,
                   require_keys: bool = True) -> ProviderConfig:
    """Check one provider's settings (and that its API key variable is set); ConfigError names the key."""
    env = os.environ if env is None else env
    base = f"providers.{name}"
    _need(isinstance(raw, dict), base, "expected a mapping with at least `kind`")
    kind = raw.get("kind")
    _need(kind in KINDS, f"{base}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    settings = {k: v for k, v in raw.items() if k != "kind"}
    for key in settings:
        _need(key in ALLOWED[kind], f"{base}.{key}",
              f"not a setting of kind {kind} (expected one of {', '.join(sorted(ALLOWED[kind])) or 'none'})")
    if kind in ("openai", "vllm", "anthropic"):
        _need(isinstance(settings.get("model"), str) and settings["model"], f"{base}.model", "expected a model name")
        given = urls = settings.get("base_url", "https://api.anthropic.com" if kind == "anthropic" else None)
        if "launch" in settings:
            settings["launch"] = _launch(settings["launch"], f"{base}.launch", settings["model"])
        if isinstance(urls, str):
            urls = [urls]
        # before the URL's own check, whose message shows it: a password there would be printed and logged
        _need(not (isinstance(urls, list) and any(_credentials(u) for u in urls)), f"{base}.base_url",
              "holds a user name or password (user:password@host) or a query (?key=...), which would be printed and "
              "logged: keys come from the environment only (api_key_env), and bench adds its paths to a base URL")
        if urls is not None or "launch" not in settings:   # with launch, the URL is the server's
            _need(isinstance(urls, list) and urls and all(_url_ok(u) for u in urls), f"{base}.base_url",
                  "expected an http(s) URL with a host (e.g. http://127.0.0.1:8000/v1) or a list of them"
                  + (" (or a `launch:` block)" if kind == "vllm" else "") + f", got {short(given)}")
        if "retries" in settings:   # the old name of `attempts` (it always counted tries in all)
            _need("attempts" not in settings, f"{base}.retries", "give attempts alone (retries is its old name)")
            settings["attempts"] = settings.pop("retries")
            _note(f"bench: {base}.retries is read as attempts: {short(settings['attempts'])} tries in all, the first "
                  "included; rename it attempts")
        for key, lo in (("max_concurrency", 1), ("attempts", 1)):
            if key in settings:
                v = settings[key]
                _need(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= 100_000, f"{base}.{key}",
                      f"expected an integer {lo}..100000, got {short(v)}")
        for key in ("rate_per_s", "connect_timeout_s", "read_timeout_s"):
            if key in settings:
                _need(_positive(settings[key]), f"{base}.{key}", f"expected a finite number > 0, got {short(settings[key])}")
        if "extra_body" in settings:
            _need(isinstance(settings["extra_body"], dict), f"{base}.extra_body", "expected a mapping")
            bad = _json_path(settings["extra_body"], f"{base}.extra_body")
            _need(bad is None, bad or "", "expected JSON values (text keys; text, true/false, null, 64-bit integers, "
                  "finite numbers, lists and mappings of them)")
        if kind == "openai":
            server = settings.get("server", "auto")
            _need(server in SERVERS, f"{base}.server", f"expected one of {', '.join(SERVERS)}")
        constraint = settings.get("constraint", "auto")
        allowed = constraints_of(declared(kind, settings.get("server")))
        d = declared(kind, settings.get("server"))
        _need(constraint in allowed, f"{base}.constraint", f"expected one of {', '.join(allowed)}"
              + (f" (what {d.name if d else 'OpenAI-compatible'} servers honour)" if constraint in CONSTRAINTS else ""))
        _need(settings.get("http_client", "auto") in HTTP_CLIENTS, f"{base}.http_client",
              f"expected one of {', '.join(HTTP_CLIENTS)}")
        if "variant" in settings:
            _need(isinstance(settings["variant"], str) and 0 < len(settings["variant"]) <= 100, f"{base}.variant",
                  "expected a short text saying how this server differs (e.g. awq-int4, sglang-0.5)")
        key_env = settings.get("api_key_env", "ANTHROPIC_API_KEY" if kind == "anthropic" else None)
        if key_env is not None:
            # the value is not shown: a key pasted here in place of its variable's name would be printed and logged
            _need(isinstance(key_env, str) and _KEY_NAME.fullmatch(key_env), f"{base}.api_key_env",
                  "expected the name of an environment variable (letters, digits and _, e.g. OPENAI_API_KEY), "
                  "not the key itself: keys come from the environment only")
            _need(bool(env.get(key_env)) or not require_keys, f"{base}.api_key_env",
                  key_missing(key_env, env))
            fault = key_fault(env.get(key_env) or "") if require_keys else None   # a report sends nothing
            _need(fault is None, f"{base}.api_key_env", f"{key_variable(key_env)} {fault} "
                  "(a key is letters, digits and signs: check how it was set, e.g. a newline from a file)")
        settings = {**settings, "base_url": urls}
        if key_env is not None:
            settings["api_key_env"] = key_env
    if kind == "random" and "seed" in settings:
        v = settings["seed"]
        _need(isinstance(v, int) and not isinstance(v, bool) and INT64[0] <= v <= INT64[1], f"{base}.seed",
              f"expected a 64-bit integer, got {short(v)}")
    if kind == "template" and "model" in settings:
        _need(isinstance(settings["model"], str), f"{base}.model", "expected a string")
    return ProviderConfig(name=name, kind=kind, settings=settings)


_LAUNCH_KEYS = {"model", "args", "env", "port", "replicas", "gpus", "gpus_per_replica", "python", "startup_timeout_s"}


def _env_name(name: str) -> bool:
    """Whether an environment may hold a variable of this name (what the OS refuses: empty, `=`, NUL)."""
    return bool(name) and "=" not in name and "\0" not in name


def _plain(v: Any) -> bool:
    """A value a launch argument or variable may take: what a command line and the saved grid can both hold."""
    if v is None or isinstance(v, (str, bool)):
        return True
    if isinstance(v, int):
        return INT64[0] <= v <= INT64[1]
    return isinstance(v, float) and math.isfinite(v)


def _json_path(v: Any, path: str) -> str | None:
    """Where in `v` a value is that JSON (the saved grid, the unit keys) would not give back as it is: a key
    that is not text, a 64-bit overflow, a NaN, a date; None if there is none."""
    if isinstance(v, dict):
        for k, x in v.items():
            where = (f"{path}.{k}" if k.isidentifier() else f"{path}.{short(k)}") if isinstance(k, str) else path
            if not isinstance(k, str):
                return where
            bad = _json_path(x, where)
            if bad:
                return bad
        return None
    if isinstance(v, list):
        return next((bad for i, x in enumerate(v) if (bad := _json_path(x, f"{path}[{i}]"))), None)
    return None if _plain(v) else path


def _launch(raw: Any, path: str, served: str) -> dict[str, Any]:
    """Check a vLLM `launch:` block: model (path, hub name or local alias), vLLM args, env, port, replicas."""
    _need(isinstance(raw, dict), path, "expected a mapping with at least `model`")
    for key in raw:
        _need(key in _LAUNCH_KEYS, f"{path}.{key}", f"not a launch setting (expected one of {', '.join(sorted(_LAUNCH_KEYS))})")
    _need(isinstance(raw.get("model"), str) and raw["model"], f"{path}.model",
          "expected a model path, hub name or local model (e.g. smollm2-135m)")
    for key in ("args", "env"):
        if key in raw:
            _need(isinstance(raw[key], dict) and all(isinstance(k, str) and _plain(v) for k, v in raw[key].items()),
                  f"{path}.{key}", "expected a mapping of names to plain values (text, true/false, 64-bit integers, "
                  "finite numbers)")
    for name, value in raw.get("env", {}).items():   # what the OS refuses in an environment, refused here
        _need(_env_name(name), f"{path}.env.{short(name)}",
              "expected an environment variable name (not empty, no `=`, no NUL)")
        _need("\0" not in str(value), f"{path}.env.{short(name)}", "expected a value without a NUL character")
    for key, lo, hi in (("port", 1, 65535), ("replicas", 1, 64), ("gpus_per_replica", 1, 64)):
        if key in raw:
            v = raw[key]
            _need(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi, f"{path}.{key}",
                  f"expected an integer {lo}..{hi}")
    if "gpus" in raw:
        g = raw["gpus"]
        _need(isinstance(g, list) and g and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in g),
              f"{path}.gpus", "expected a list of GPU indices, e.g. [0, 1, 2, 3]")
        _need(len(set(g)) == len(g), f"{path}.gpus", "a GPU is listed twice; give each index once")
        per = raw.get("gpus_per_replica", 1)
        _need(len(g) % per == 0, f"{path}.gpus", f"expected a multiple of gpus_per_replica ({per}) GPUs")
        _need(raw.get("replicas", len(g) // per) == len(g) // per, f"{path}.replicas",
              f"{len(g)} GPUs at {per} per replica make {len(g) // per} replicas")
    if "startup_timeout_s" in raw:
        _need(_positive(raw["startup_timeout_s"]), f"{path}.startup_timeout_s",
              f"expected a finite number > 0, got {short(raw['startup_timeout_s'])}")
    if "python" in raw:
        _need(isinstance(raw["python"], str) and raw["python"], f"{path}.python", "expected an interpreter path")
    return {**raw, "served_name": served}
