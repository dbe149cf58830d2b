"""Provider settings are checked before any request, with errors naming `providers.<name>.<key>`."""
from __future__ import annotations

import pytest

from providers.build import build_provider
from providers.config import ConfigError, parse_provider


@pytest.mark.parametrize("raw, path", [
    ({"kind": "openai", "base_url": "http://x/v1"}, "providers.p.model"),
    ({"kind": "openai", "model": "m"}, "providers.p.base_url"),
    ({"kind": "openai", "model": "m", "base_url": "ftp://x"}, "providers.p.base_url"),
    ({"kind": "gpt"}, "providers.p.kind"),
    ({"model": "m"}, "providers.p.kind"),
    ({"kind": "anthropic", "model": "claude"}, "providers.p.api_key_env"),
    ({"kind": "openai", "model": "m", "base_url": "http://x/v1", "api_key_env": "NOPE_UNSET"}, "providers.p.api_key_env"),
    ({"kind": "openai", "model": "m", "base_url": "http://x/v1", "max_concurrency": 0}, "providers.p.max_concurrency"),
    ({"kind": "openai", "model": "m", "base_url": "http://x/v1", "constraint": "regex"}, "providers.p.constraint"),
    ({"kind": "anthropic", "model": "m", "constraint": "choice"}, "providers.p.constraint"),
    ({"kind": "openai", "model": "m", "base_url": "http://x/v1", "temprature": 0}, "providers.p.temprature"),
    ({"kind": "random", "seed": "x"}, "providers.p.seed"),
    ("openai", "providers.p"),
])
def test_bad_settings_name_provider_and_key(raw, path):
    with pytest.raises(ConfigError) as err:
        parse_provider("p", raw, env={})
    assert str(err.value).startswith(path + ":"), str(err.value)
    assert "\n" not in str(err.value)


def test_unset_key_message_names_the_variable_not_a_value():
    with pytest.raises(ConfigError, match="environment variable ANTHROPIC_API_KEY is not set"):
        parse_provider("claude", {"kind": "anthropic", "model": "claude-x"}, env={})


@pytest.mark.parametrize("name", ["A=B", "", "K\0EY", 3, ["KEY"], "sk-proj-PASSW0RD", "PASSW0RD+/x==", "1PASSW0RD"])
def test_a_key_variable_that_no_shell_can_set_is_refused_and_not_shown(name):
    """`api_key_env: 'A=B'` passed `bench validate`, then no shell could ever set it; a key pasted there in place of
    its variable's name was printed in the error (both found by a fuzz)."""
    for require_keys in (False, True):
        with pytest.raises(ConfigError) as err:
            parse_provider("o", {"kind": "openai", "model": "m", "base_url": "http://x/v1", "api_key_env": name},
                           env={}, require_keys=require_keys)
        assert str(err.value) == "providers.o.api_key_env: expected the name of an environment variable (letters, " \
                                 "digits and _, e.g. OPENAI_API_KEY), not the key itself: keys come from the " \
                                 "environment only", str(err.value)


@pytest.mark.parametrize("name, said", [("OPENAI_API_KEY", "environment variable OPENAI_API_KEY"),
                                        ("hf_PASSW0RDxyz", "the environment variable named there")])
def test_an_unset_key_variable_is_named_only_where_its_name_reads_as_one(name, said):
    """A key of letters, digits and _ (a Hugging Face token) pasted as the variable's name is not printed either."""
    with pytest.raises(ConfigError) as err:
        parse_provider("o", {"kind": "openai", "model": "m", "base_url": "http://x/v1", "api_key_env": name}, env={})
    assert str(err.value) == f"providers.o.api_key_env: {said} is not set"


def test_an_empty_key_is_said_to_be_empty_not_unset():
    with pytest.raises(ConfigError, match="environment variable ANTHROPIC_API_KEY is empty$"):
        parse_provider("claude", {"kind": "anthropic", "model": "claude-x"}, env={"ANTHROPIC_API_KEY": ""})


def test_identity_ignores_urls_and_caps_but_not_model():
    a = parse_provider("p", {"kind": "vllm", "model": "m", "base_url": "http://a/v1", "max_concurrency": 8}, env={})
    b = parse_provider("p", {"kind": "openai", "model": "m", "base_url": ["http://b/v1", "http://c/v1"]}, env={})
    c = parse_provider("p", {"kind": "openai", "model": "m2", "base_url": "http://b/v1"}, env={})
    assert a.identity() == b.identity() != c.identity()


@pytest.mark.parametrize("other", [
    {"server": "sglang"}, {"variant": "awq-int4"},
    {"launch": {"model": "m", "args": {"quantization": "awq"}}},
    {"launch": {"model": "m", "args": {"reasoning-parser": "qwen3"}}},
    {"launch": {"model": "m", "args": {"dtype": "bfloat16"}}},
    {"launch": {"model": "m2"}}])
def test_identity_holds_the_engine_the_launch_and_the_variant(other):
    kind = "vllm" if "launch" in other else "openai"
    plain = parse_provider("p", {"kind": kind, "model": "m", **({"launch": {"model": "m"}} if "launch" in other else
                                                                {"base_url": "http://a/v1"})}, env={})
    varied = parse_provider("p", {"kind": kind, "model": "m", **({} if "launch" in other else
                                                                 {"base_url": "http://a/v1"}), **other}, env={})
    assert plain.identity() != varied.identity()


def test_identity_leaves_out_where_a_launched_server_runs_and_what_it_holds():
    a = parse_provider("p", {"kind": "vllm", "model": "m", "launch": {"model": "m", "args": {"dtype": "float32"}}}, env={})
    b = parse_provider("p", {"kind": "vllm", "model": "m", "launch": {
        "model": "m", "replicas": 4, "port": 9000, "args": {"dtype": "float32", "max-num-seqs": 512,
                                                            "gpu_memory_utilization": 0.8, "enforce_eager": True}}},
        env={})
    assert a.identity() == b.identity() == {"kind": "openai", "model": "m", "weights": "m", "dtype": "float32"}


@pytest.mark.parametrize("kind", ["template", "random", "prior"])
def test_builtins_need_no_settings(kind):
    provider = build_provider(parse_provider("b", {"kind": kind}, env={}), env={})
    assert provider.name == "b"


def test_retries_is_the_old_name_of_attempts_read_with_a_note(capsys, monkeypatch):
    import providers.config
    monkeypatch.setattr(providers.config, "_NOTED", set())   # a note is said once per process: as if first here
    cfg = parse_provider("p", {"kind": "openai", "model": "m", "base_url": "http://a/v1", "retries": 3}, env={})
    assert cfg.settings["attempts"] == 3 and "retries" not in cfg.settings
    assert "providers.p.retries is read as attempts: 3 tries in all" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"^providers\.p\.retries: give attempts alone"):
        parse_provider("p", {"kind": "openai", "model": "m", "base_url": "http://a/v1", "retries": 3, "attempts": 2},
                       env={})
