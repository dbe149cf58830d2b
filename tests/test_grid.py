"""Grid files are checked whole: one line naming the file, line or key path; exit 2; nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.config.grid import Grid, load_grid
from runner.errors import UserError
from tests.conftest import ROOT, bench

OK = """name: g
skeletons:
  generate: {count: 5}
providers:
  t: {kind: template}
  r: {kind: random}
renderers: [t]
solvers: [r]
"""


def grid_with(tmp: Path, text: str) -> Path:
    p = tmp / "grid.yaml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("replace, needle", [
    (("name: g", "name: [g"), ":2: not valid YAML"),
    (("  t: {kind: template}", "  t: {kind: tmpl}"), "providers.t.kind: expected one of"),
    (("renderers: [t]", "renderers: [x]"), "renderers[0].provider: unknown provider 'x'"),
    (("renderers: [t]", "renderers: [r]"), "renderers[0].provider: provider 'r' of kind random cannot render"),
    (("solvers: [r]", "solvers: [t]"), "solvers[0].provider: provider 't' of kind template cannot solve"),
    (("generate: {count: 5}", "generate: {count: 5, families: [sudoku]}"), "skeletons.generate.families"),
    (("generate: {count: 5}", "generate: {count: 0}"), "skeletons.generate.count: expected an integer >= 1"),
    (("generate: {count: 5}", "generate: {count: 5, complexities: [99]}"), "skeletons.generate.complexities"),
    (("generate: {count: 5}", "path: nowhere.jsonl"), "skeletons.path: file"),
    (("solvers: [r]", "solvers: [{provider: r, temperature: 9}]"), "solvers[0].temperature: expected a finite number"),
    (("solvers: [r]", "solvers: [{provider: r, prompt: missing.txt}]"), "solvers[0].prompt: cannot read"),
    (("solvers: [r]", "solvers: [{provider: r, tempreture: 1}]"), "solvers[0].tempreture: unknown key"),
    (("name: g\n", ""), "name: missing"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m}"), "providers.r.base_url"),
    (("renderers: [t]", "renderers: [{provider: t, format: prose}]"), "renderers[0].format: expected structured or text"),
    (("renderers: [t]", "renderers: [{provider: t, send_unfaithful: 1}]"), "renderers[0].send_unfaithful: expected true"),
    (("renderers: [t]", "renderers: [{provider: t, audit: {provider: r}}]"), "renderers[0].audit.provider: expected a model"),
    (("renderers: [t]", "renderers: [{provider: t, audit: {provider: t, rate: 2}}]"), "renderers[0].audit.provider"),
    (("solvers: [r]", "solvers: [{provider: r, format: text}]"), "solvers[0].format: unknown key"),
    (("solvers: [r]", "solvers: [r]\nray: {agents: 0}"), "ray.agents: expected an integer >= 1"),
    (("solvers: [r]", "solvers: [r]\nray: {gpus: 8}"), "ray.gpus: unknown key (expected one of agents, agents_per_node, batch"),
    (("solvers: [r]", "solvers: [r]\nray: {resources: {GPU: 8}}"), "ray.resources.GPU: expected a custom resource"),
    (("solvers: [r]", "solvers: [r]\nray: {resources: [fake_gpu]}"), "ray.resources: expected a mapping"),
    (("solvers: [r]", "solvers: [r]\nray: {batch: 1.5}"), "ray.batch: expected an integer"),
    (("solvers: [r]", "solvers: [r]\nray: {agents_per_node: 0}"), "ray.agents_per_node: expected an integer >= 1 and <= 256"),
])
def test_bad_grid_names_file_and_key(tmp_path, replace, needle):
    path = grid_with(tmp_path, OK.replace(*replace))
    with pytest.raises(UserError) as err:
        load_grid(path)
    assert str(err.value).startswith(str(path)) and needle in str(err.value), str(err.value)


THINKER = """name: g
skeletons: {{generate: {{count: 5}}}}
providers:
  t: {{kind: template}}
  r: {provider}
renderers: [t]
solvers: [{solver}]
"""


@pytest.mark.parametrize("provider, solver, needle", [
    ("{kind: random}", "{provider: r, reasoning: {enabled: true}}", "solvers[0].reasoning: provider 'r' of kind random does not think"),
    ("{kind: anthropic, model: m, base_url: 'http://h', api_key_env: K}", "{provider: r, reasoning: {effort: high}}",
     "solvers[0].reasoning.effort: provider 'r' of kind anthropic cannot take it; it takes budget_tokens, keep_reasoning"),
    ("{kind: anthropic, model: m, base_url: 'http://h', api_key_env: K}", "{provider: r, reasoning: {budget_tokens: 500}}",
     "solvers[0].reasoning.budget_tokens: expected an integer >= 1024"),
    ("{kind: anthropic, model: m, base_url: 'http://h', api_key_env: K}", "{provider: r, reasoning: {keep_reasoning: true}}",
     "solvers[0].reasoning.budget_tokens: missing"),
    ("{kind: anthropic, model: m, base_url: 'http://h', api_key_env: K}",
     "{provider: r, reasoning: {budget_tokens: 2000}, max_tokens: 2000}",
     "solvers[0].max_tokens: expected more than reasoning.budget_tokens (2000)"),
    ("{kind: openai, model: m, base_url: 'http://h/v1', server: openai}", "{provider: r, reasoning: {enabled: true}}",
     "solvers[0].reasoning.enabled: provider 'r' of kind openai cannot take it; it takes effort, keep_reasoning "
     "(enabled, budget_tokens and opened_by_template go to vLLM or SGLang"),
    ("{kind: vllm, model: m, base_url: 'http://h/v1'}", "{provider: r, reasoning: {effort: extreme}}",
     "solvers[0].reasoning.effort: expected one of minimal, low, medium, high"),
    ("{kind: vllm, model: m, base_url: 'http://h/v1'}", "{provider: r, reasoning: {enabled: 1}}",
     "solvers[0].reasoning.enabled: expected true or false"),
    ("{kind: vllm, model: m, base_url: 'http://h/v1'}", "{provider: r, mode: loglik, reasoning: {enabled: true}}",
     "solvers[0].reasoning: a loglik solver scores the options and generates nothing"),
    # OpenAI's reasoning models refuse any temperature or top_p but the default; so does Claude while it thinks
    ("{kind: openai, model: o4-mini, base_url: 'https://api.openai.com/v1'}",
     "{provider: r, reasoning: {effort: medium}, temperature: 0.5}",
     "solvers[0].temperature: a thinking solver of 'r' (openai) takes no temperature"),
    ("{kind: openai, model: o4-mini, base_url: 'http://h/v1', server: openai, extra_body: {top_p: 0.9}}",
     "{provider: r, reasoning: {effort: low}}", "providers.r.extra_body.top_p: a thinking solver of 'r' (openai)"),
    ("{kind: anthropic, model: c, api_key_env: K}", "{provider: r, reasoning: {budget_tokens: 2048}, temperature: 1}",
     "solvers[0].temperature: a thinking solver of 'r' (anthropic) takes no temperature"),
    ("{kind: openai, model: m, base_url: 'http://h/v1'}", "{provider: r, reasoning: {opened_by_template: true}}",
     "solvers[0].reasoning.opened_by_template: provider 'r' of kind openai cannot take it"),
    ("{kind: vllm, model: m, base_url: 'http://h/v1'}", "{provider: r, reasoning: {opened_by_template: yes please}}",
     "solvers[0].reasoning.opened_by_template: expected true or false"),
])
def test_a_reasoning_setting_the_kind_cannot_take_is_a_grid_error(tmp_path, provider, solver, needle):
    path = grid_with(tmp_path, THINKER.format(provider=provider, solver=solver))
    with pytest.raises(UserError) as err:
        load_grid(path, env={"K": "k"})
    assert str(err.value).startswith(f"{path}: {needle}"), str(err.value)


def test_a_thinking_solver_gets_room_to_think_its_own_keys_and_label(tmp_path):
    path = grid_with(tmp_path, THINKER.format(provider="{kind: vllm, model: m, base_url: 'http://h/v1'}",
                                              solver="{provider: r, reasoning: {enabled: true, effort: low}}"))
    grid = load_grid(path)
    st = grid.solvers[0]
    assert st.thinks and st.label == "r:think" and st.max_tokens == 8192
    assert grid.providers["r"].settings["read_timeout_s"] == 1800
    assert Grid.from_json(grid.to_json()) == grid
    from runner.plan.units import UnitPlan
    kept = load_grid(grid_with(tmp_path, THINKER.format(
        provider="{kind: vllm, model: m, base_url: 'http://h/v1'}",
        solver="{provider: r, reasoning: {enabled: true, effort: low, keep_reasoning: true}}")))
    other = load_grid(grid_with(tmp_path, THINKER.format(
        provider="{kind: vllm, model: m, base_url: 'http://h/v1'}",
        solver="{provider: r, reasoning: {enabled: true, effort: high}}")))
    fp = lambda g: UnitPlan(g).solve_parts[0][1]   # noqa: E731
    assert fp(grid) == fp(kept) and fp(grid) != fp(other)   # how it thinks is in the keys; keeping the thought not
    off = load_grid(grid_with(tmp_path, THINKER.format(provider="{kind: vllm, model: m, base_url: 'http://h/v1'}",
                                                       solver="{provider: r, reasoning: {enabled: false}}")))
    assert off.solvers[0].label == "r:nothink" and off.solvers[0].max_tokens == 16 and not off.solvers[0].thinks


def test_prompt_without_placeholder(tmp_path):
    (tmp_path / "p.txt").write_text("Answer please.")
    path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [{provider: r, prompt: p.txt}]"))
    with pytest.raises(UserError, match=r"lacks the placeholder \{problem\}"):
        load_grid(path)


def test_saved_grid_round_trips(tmp_path):
    grid = load_grid(grid_with(tmp_path, OK))
    again = Grid.from_json(grid.to_json())
    assert again == grid and again.hash() == grid.hash()
    assert b'"ray"' not in grid.to_json()   # a grid without a ray: block saves and hashes as it always did


def test_a_ray_block_round_trips_and_leaves_the_unit_keys_alone(tmp_path):
    from runner.plan.units import UnitPlan, skeletons
    plain = load_grid(grid_with(tmp_path, OK))
    on_ray = load_grid(grid_with(tmp_path, OK + "prepare_workers: 3\nray: {agents: 2, agents_per_node: 4, gpus_per_agent: 8, "
                                               "resources: {fake_gpu: 1}, batch: 8}\n"))
    assert on_ray.ray.agents == 2 and on_ray.ray.gpus_per_agent == 8 and on_ray.ray.resources == {"fake_gpu": 1.0}
    assert on_ray.ray.agents_per_node == 4 and on_ray.prepare_workers == 3
    assert Grid.from_json(on_ray.to_json()) == on_ray
    keys = [[u.key for u in UnitPlan(g).units(sk)] for g in (plain, on_ray) for sk in list(skeletons(g))[:1]]
    assert keys[0] == keys[1]


@pytest.mark.parametrize("case", ["missing", "yaml", "provider", "skeleton", "shard", "shard-huge", "shard-digits",
                                  "ray-shard", "ray-address", "ray-nowhere", "deep-list", "deep-map"])
def test_bench_run_bad_input_exit_2_nothing_written(tmp_path, case):
    out = tmp_path / "out"
    args = []
    if case == "missing":
        path = tmp_path / "nope.yaml"
    elif case == "yaml":
        path = grid_with(tmp_path, "name: [g")
    elif case == "deep-list":   # nested past what the YAML reader recurses into: one line, not a RecursionError
        path = grid_with(tmp_path, "name: " + "[" * 2000 + "]" * 2000)
    elif case == "deep-map":
        path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [r]\nx: " + "{a: " * 1000 + "1" + "}" * 1000))
    elif case == "provider":
        path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [q]"))
    elif case == "shard":
        path, args = grid_with(tmp_path, OK), ["--shard", "2/2"]
    elif case == "shard-huge":   # past 64 bits: was a TypeError traceback, with the folder and a lock made
        path, args = grid_with(tmp_path, OK), ["--shard", "0/99999999999999999999999"]
    elif case == "shard-digits":   # digits int() reads that are not ASCII
        path, args = grid_with(tmp_path, OK), ["--shard", "\u0661/\u0662"]
    elif case == "ray-shard":
        path, args = grid_with(tmp_path, OK), ["--ray", "--shard", "0/2"]
    elif case == "ray-address":
        path, args = grid_with(tmp_path, OK), ["--ray", "head-without-port"]
    elif case == "ray-nowhere":   # nothing listens there: one line at once (Ray itself retries for minutes)
        from runner.serving.servers import free_port
        path, args = grid_with(tmp_path, OK), ["--ray", f"127.0.0.1:{free_port()}"]
    else:
        good = tmp_path / "s.jsonl"
        bench("generate", "-n", "5", "-o", str(good), "-q", check=True)
        lines = good.read_text().splitlines()
        lines[3] = lines[3].replace('"complexity":4', '"complexity":40')
        good.write_text("\n".join(lines) + "\n")
        path = grid_with(tmp_path, OK.replace("generate: {count: 5}", f"path: {good}"))
    proc = bench("run", "--grid", str(path), "--out", str(out), *args)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not out.exists()
    if case == "skeleton":
        assert "s.jsonl:4: complexity" in proc.stderr
    if case.startswith("deep"):
        assert f"{path}: nested too deeply" in proc.stderr, proc.stderr


def test_embedded_default_grid_is_valid():
    grid = load_grid(ROOT / "configs" / "grid.yaml", env={})
    assert load_grid(ROOT / "configs" / "grid-quick.yaml", env={}).name == "quick"
    gpu = load_grid(ROOT / "configs" / "grid-gpu.yaml", env={})
    assert gpu.providers["llama"].settings["launch"]["gpus"] == [3, 4, 5] and gpu.solvers[2].thinks
    on_ray = load_grid(ROOT / "configs" / "grid-ray.yaml", env={"OPENAI_API_KEY": "k"})
    assert on_ray.ray.gpus_per_agent == 8 and on_ray.providers["qwen"].settings["launch"]["gpus"] == [0, 1, 2, 3]
    assert grid.name == "default" and grid.renderers and grid.solvers


# Values, not only types (issue 15): each message shows the key and the offending value.
@pytest.mark.parametrize("replace, needle", [
    (("  r: {kind: random}", "  r: {kind: openai, model: m, base_url: 'http://'}"), "providers.r.base_url: expected an http(s) URL with a host"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m, base_url: 'http://h:99999/v1'}"), "providers.r.base_url"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m, base_url: 'http://h/v1', read_timeout_s: .inf}"),
     "providers.r.read_timeout_s: expected a finite number > 0, got inf"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m, base_url: 'http://h/v1', rate_per_s: .nan}"),
     "providers.r.rate_per_s: expected a finite number > 0, got nan"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m, base_url: 'http://h/v1', max_concurrency: 3000000}"),
     "providers.r.max_concurrency: expected an integer 1..100000, got 3000000"),
    (("generate: {count: 5}", "generate: {count: 18446744073709551617}"), "skeletons.generate.count: expected an integer"),
    (("generate: {count: 5}", "generate: {count: 5, seed: 18446744073709551617}"), "18446744073709551617"),
    (("  r: {kind: random}", "  r: {kind: random, seed: -18446744073709551617}"), "providers.r.seed: expected a 64-bit integer"),
    (("solvers: [r]", "solvers: [{provider: r, temperature: .nan}]"), "solvers[0].temperature: expected a finite number"),
    (("solvers: [r]", "solvers: [{provider: r, samples: 99999999999}]"), "solvers[0].samples"),
    (("name: g", "name: \"g\\0x\""), "name: expected a name of 1..100 letters"),
    (("name: g", "name: " + "g" * 300), "name: expected a name of 1..100"),
    (("name: g", "name: ../g"), "name: expected a name"),
    (("  r: {kind: random}", "  r/x: {kind: random}"), "providers.'r/x': expected a name"),
    (("name: g", "name: g\nmax_in_flight: 3000000"), "max_in_flight: expected an integer >= 1 and <= 100000, got 3000000"),
    (("name: g", "name: g\nprepare_workers: 65"), "prepare_workers: expected an integer >= 0 and <= 64, got 65"),
    (("name: g", "name: g\nprepare_workers: -1"), "prepare_workers: expected an integer >= 0"),
    (("name: g", "name: g\nprepare_workers: 2.5"), "prepare_workers: expected an integer"),
    (("name: g", "name: g\nprepare_workers: many"), "prepare_workers: expected auto or a number of processes 0..64, got 'many'"),
    (("name: g", "name: g\nprepare_workers: true"), "prepare_workers: expected an integer"),
    (("name: g", "name: g\nname: h"), ":2: not valid YAML (duplicate key 'name')"),
    (("  t: {kind: template}", "  t: {kind: template, kind: random}"), "not valid YAML (duplicate key 'kind')"),
])
def test_grid_values_are_checked(tmp_path, replace, needle):
    assert replace[0] in OK
    path = grid_with(tmp_path, OK.replace(*replace))
    with pytest.raises(UserError) as err:
        load_grid(path)
    assert str(err.value).startswith(str(path)) and needle in str(err.value), str(err.value)


@pytest.mark.parametrize("url", ["http://user:PASSW0RD@127.0.0.1:9/v1", "https://PASSW0RD@api.example.com/v1",
                                 "[http://127.0.0.1:9/v1, 'http://u:PASSW0RD@h:1/v1']", "http://:PASSW0RD@h/v1",
                                 "'http://h/v1?key=PASSW0RD'", "'https://api.example.com/v1?x=1&api-key=PASSW0RD'",
                                 "'http://h/v1#PASSW0RD'"])
def test_a_password_in_a_base_url_is_refused_without_being_shown(tmp_path, url):
    """Found by a fuzz: `user:password@` in base_url was printed in the run's closing line and kept in its logs and
    grid.json (and so was `?key=...`, found by a later one). Keys come from the environment only: such a URL is refused,
    and the message does not repeat it."""
    text = OK.replace("  r: {kind: random}", f"  r: {{kind: random}}\n  q: {{kind: openai, model: m, base_url: {url}}}")
    path = grid_with(tmp_path, text)
    with pytest.raises(UserError) as err:
        load_grid(path, env={})
    assert "providers.q.base_url: holds a user name or password" in str(err.value)
    assert "PASSW0RD" not in str(err.value)
    proc = bench("validate", str(path))
    assert proc.returncode == 2 and "PASSW0RD" not in proc.stdout + proc.stderr


def test_keys_with_control_characters_give_one_line(tmp_path):
    """Found by the property test below: an unknown key holding a newline made a two-line message."""
    for text in (OK.replace("generate: {count: 5}", 'generate: {count: 5}\n  "a\\nb": 1'),
                 OK.replace("  r: {kind: random}", '  r: {kind: random, "x\\ny": 1}')):
        path = grid_with(tmp_path, text)
        with pytest.raises(UserError) as err:
            load_grid(path)
        message = str(err.value)
        assert "\n" not in message and ("a\\nb" in message or "x\\ny" in message), message


def test_non_utf8_grid_and_prompt_files(tmp_path):
    path = tmp_path / "grid.yaml"
    path.write_bytes(OK.encode().replace(b"name: g", b"name: g\xff"))
    with pytest.raises(UserError, match=r"grid.yaml: not UTF-8 text \(byte"):
        load_grid(path)
    (tmp_path / "p.txt").write_bytes(b"{problem} \xe9t\xe9")
    path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [{provider: r, prompt: p.txt}]"))
    with pytest.raises(UserError, match=r"solvers\[0\].prompt: .*p.txt is not UTF-8 text"):
        load_grid(path)


@pytest.mark.parametrize("text", ["name: g\nname: g", "max_in_flight: 3000000", "  r: {kind: random, seed: 1e400}"])
def test_bench_run_bad_values_exit_2_nothing_written(tmp_path, text):
    grid = OK + text + "\n" if not text.startswith(" ") else OK.replace("  r: {kind: random}", text)
    path = grid_with(tmp_path, grid)
    out = tmp_path / "out"
    proc = bench("run", "--grid", str(path), "--out", str(out))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()


_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
def _nested(inner):
    """Lists and mappings of `inner` (a def: Hypothesis could not read the lambda's source, and warned)."""
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)


_values = st.recursive(_scalars, _nested, max_leaves=12)
_KEYS = ["name", "skeletons", "providers", "renderers", "solvers", "max_in_flight", "prepare_workers", "ray"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(_KEYS + ["skeletons.generate", "providers.t", "providers.r", "renderers[0]", "solvers[0]"]),
       value=_values)
def test_any_value_anywhere_gives_a_grid_or_one_line_error(tmp_path, key, value):
    """Whatever YAML value sits at a key, the loader answers a Grid or a UserError: never another exception."""
    raw = yaml.safe_load(OK)
    target, _, last = key.rpartition(".")
    node = raw
    for part in filter(None, target.split(".")):
        node = node[part]
    if last.endswith("[0]"):
        node[last[:-3]][0] = value
    else:
        node[last] = value
    path = tmp_path / "grid.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True))
    try:
        grid = load_grid(path, env={})
    except UserError as exc:
        assert "\n" not in str(exc).strip() and str(exc).startswith(str(path))
    else:
        assert Grid.from_json(grid.to_json()) == grid


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_any_bytes_give_a_grid_or_one_line_error(tmp_path, data):
    path = tmp_path / "grid.yaml"
    path.write_bytes(data)
    try:
        load_grid(path, env={})
    except UserError as exc:
        assert str(exc).startswith(str(path))


FULL = """name: full
max_in_flight: 8
prepare_workers: 2
skeletons:
  generate: {count: 5, seed: 1, families: [equality, transitive_order], target_hop_dist: {1: 0.5, 2: 0.5},
             distractors: card}
providers:
  v:
    kind: vllm
    model: m
    base_url: [http://127.0.0.1:9/v1]
    max_concurrency: 4
    rate_per_s: 5
    connect_timeout_s: 3
    read_timeout_s: 30
    attempts: 2
    extra_body: {top_k: 5}
    constraint: choice
    launch: {model: smollm2-135m, args: {dtype: float32}, env: {A: "1"}, port: 8011, gpus: [0], gpus_per_replica: 1,
             startup_timeout_s: 60, replicas: 1, python: python3}
  o: {kind: openai, model: m, base_url: http://127.0.0.1:9/v1, server: vllm, api_key_env: KEY}
  a: {kind: anthropic, model: m, base_url: http://127.0.0.1:9, api_key_env: KEY}
  t: {kind: template, model: template-v1}
  r: {kind: random, seed: 3}
  p: {kind: prior}
renderers:
  - t
  - {provider: v, temperature: 0.5, max_tokens: 64, samples: 2, format: structured, send_unfaithful: true,
     names: assigned, repair: 1, audit: {provider: o, rate: 0.5, calibrate: 2, max_false_alarm: 0.1}}
solvers:
  - r
  - {provider: v, temperature: 0.0, max_tokens: 8, samples: 1, constraint: json_schema}
  - {provider: o, mode: loglik, delimiter: " ", score: mean_char}
  - {provider: v, temperature: 0.6, max_tokens: 2000, reasoning: {enabled: true, effort: low, budget_tokens: 1000,
     keep_reasoning: true}}
ray: {agents: 2, agents_per_node: 2, gpus_per_agent: 1, cpus_per_agent: 2, resources: {fake_gpu: 1}, batch: 8}
"""


def _paths(node, prefix=""):
    """Every key path of a parsed grid (mappings by key, lists by index), leaves and branches alike."""
    if isinstance(node, dict):
        for k, v in node.items():
            p = f"{prefix}.{k}" if prefix else str(k)
            yield p, (k,)
            for sub, keys in _paths(v, p):
                yield sub, (k,) + keys
    elif isinstance(node, list):
        for i, v in enumerate(node):
            p = f"{prefix}[{i}]"
            yield p, (i,)
            for sub, keys in _paths(v, p):
                yield sub, (i,) + keys


# the complexities are chosen by a list or by weights, never both: the full grid's twin has the list
FULL_COMPLEXITIES = FULL.replace("target_hop_dist: {1: 0.5, 2: 0.5}", "complexities: [2, short]")
_FULL_PATHS = list({dotted: (dotted, keys, text) for text in (FULL, FULL_COMPLEXITIES)
                     for dotted, keys in _paths(yaml.safe_load(text))}.values())
_wrong = st.one_of(st.lists(_scalars, max_size=3), st.dictionaries(st.text(max_size=6), _scalars, max_size=3),
                   _scalars)


@pytest.mark.parametrize("text", [FULL, FULL_COMPLEXITIES])
def test_the_full_grid_is_valid(tmp_path, text):
    load_grid(grid_with(tmp_path, text), env={"KEY": "k"})
    assert len(_FULL_PATHS) > 80 and {"skeletons.generate.complexities", "skeletons.generate.target_hop_dist"} \
        <= {dotted for dotted, _, _ in _FULL_PATHS}


def test_complexities_and_their_weights_are_not_both_given(tmp_path):
    """Either chooses the skeletons' complexities: given both, the weights were taken and the list not even checked."""
    path = grid_with(tmp_path, FULL.replace("distractors: card", "distractors: card, complexities: [2]"))
    with pytest.raises(UserError) as err:
        load_grid(path, env={"KEY": "k"})
    assert str(err.value) == f"{path}: skeletons.generate.target_hop_dist: give complexities or target_hop_dist, " \
                             "not both"


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(_FULL_PATHS), value=_wrong)
def test_a_value_of_any_type_at_any_key_path_is_a_grid_or_a_one_line_error_naming_the_key(tmp_path, where, value):
    """A list or a mapping where a name is expected (or any value anywhere): a Grid, or `grid.yaml: PATH: ...`."""
    dotted, keys, text = where
    raw = yaml.safe_load(text)
    node = raw
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = value
    path = grid_with(tmp_path, yaml.safe_dump(raw, allow_unicode=True))
    try:
        load_grid(path, env={"KEY": "k"})
    except UserError as exc:
        text = str(exc)
        assert "\n" not in text.strip() and text.startswith(f"{path}: "), text
        # the message names the key path it is about (or one of its parents: a list of names, a block)
        named = text[len(f"{path}: "):].split(": ", 1)[0]
        # a budget is checked against its solver's max_tokens: that error names max_tokens and the budget
        paired = dotted.endswith(".reasoning.budget_tokens") and "budget_tokens" in text and \
            named == dotted[:-len(".reasoning.budget_tokens")] + ".max_tokens"
        # a launch's GPUs and its replicas are checked against each other: either may be named
        paired = paired or {dotted.rsplit(".", 1)[-1], named.rsplit(".", 1)[-1]} <= {"gpus", "replicas",
                                                                                      "gpus_per_replica"}
        # a thought turned off (enabled: false) takes no effort or budget: that error names the other key
        paired = paired or (dotted.endswith(".reasoning.enabled") and value is False
                            and named.rsplit(".", 1)[0] == dotted.rsplit(".", 1)[0])
        assert paired or dotted == named or dotted.startswith((named + ".", named + "[")) or named.startswith(dotted), \
            (dotted, text)


def test_a_constraint_the_solver_s_server_cannot_honour_is_a_grid_error(tmp_path):
    path = grid_with(tmp_path, THINKER.format(provider="{kind: anthropic, model: c, api_key_env: K}",
                                              solver="{provider: r, constraint: choice}"))
    with pytest.raises(UserError) as err:
        load_grid(path, env={"K": "k"})
    assert str(err.value) == (f"{path}: solvers[0].constraint: anthropic server cannot honour choice "
                              "(it takes auto, tool, none)")


SAME = """name: g
skeletons:
  generate: {{count: 5}}
providers:
{providers}
renderers: [{renderers}]
solvers: [{solvers}]
"""


@pytest.mark.parametrize("providers, renderers, solvers, needle", [
    # the same model behind two servers, neither saying which: their units would share keys
    ("  a: {kind: vllm, model: m, base_url: 'http://h1/v1'}\n  b: {kind: openai, model: m, base_url: 'http://h2/v1'}\n"
     "  t: {kind: template}", "t", "a, b", "solvers[1]: provider 'b' would share unit keys with solvers[0] (provider 'a')"),
    ("  a: {kind: openai, model: m, base_url: 'http://h1/v1', server: sglang}\n"
     "  b: {kind: openai, model: m, base_url: 'http://h2/v1', server: sglang}\n  t: {kind: template}", "t", "a, b",
     "`server:` (vllm, sglang, ...) or `variant:`"),
    ("  t1: {kind: template}\n  t2: {kind: template}\n  r: {kind: random}", "t1, t2", "r",
     "renderers[1]: provider 't2' would share unit keys with renderers[0] (provider 't1')"),
    ("  t: {kind: template}\n  r1: {kind: random, seed: 3}\n  r2: {kind: random, seed: 3}", "t", "r1, r2",
     "a random provider with the same settings gives the same results: list it once"),
])
def test_two_entries_whose_units_would_share_keys_are_refused_in_one_line(tmp_path, providers, renderers, solvers,
                                                                          needle):
    path = grid_with(tmp_path, SAME.format(providers=providers, renderers=renderers, solvers=solvers))
    with pytest.raises(UserError) as err:
        load_grid(path)
    assert needle in str(err.value) and "\n" not in str(err.value), str(err.value)


@pytest.mark.parametrize("a, b", [
    ("{kind: vllm, model: m, base_url: 'http://h1/v1'}", "{kind: openai, model: m, base_url: 'http://h2/v1', server: sglang}"),
    ("{kind: openai, model: m, base_url: 'http://h1/v1', server: vllm}",
     "{kind: openai, model: m, base_url: 'http://h2/v1', server: vllm, variant: awq-int4}"),
    ("{kind: vllm, model: m, launch: {model: m}}", "{kind: vllm, model: m, launch: {model: m, args: {reasoning_parser: qwen3}}}"),
    ("{kind: vllm, model: m, launch: {model: m}}", "{kind: vllm, model: m, launch: {model: m, args: {quantization: awq}}}"),
])
def test_the_same_model_served_two_ways_makes_two_solvers_with_their_own_keys(tmp_path, a, b):
    from runner.plan.units import UnitPlan
    path = grid_with(tmp_path, SAME.format(providers=f"  a: {a}\n  b: {b}\n  t: {{kind: template}}", renderers="t",
                                           solvers="a, b"))
    (_, fa), (_, fb) = UnitPlan(load_grid(path)).solve_parts
    assert fa != fb


@pytest.mark.parametrize("value", [-9223372036854775809, 2**64, float("nan"), float("inf")])
def test_a_launch_argument_out_of_range_is_one_line(tmp_path, value):
    """Found by the property test above: a launch argument past 64 bits reached the unit keys' JSON and
    raised there (a traceback); a NaN would have made keys no JSON reader takes."""
    raw = yaml.safe_load(FULL)
    raw["providers"]["v"]["launch"]["args"] = {"x": value}
    path = grid_with(tmp_path, yaml.safe_dump(raw, allow_unicode=True))
    with pytest.raises(UserError) as err:
        load_grid(path, env={"KEY": "k"})
    assert str(err.value) == f"{path}: providers.v.launch.args: expected a mapping of names to plain values (text, " \
                              "true/false, 64-bit integers, finite numbers)"


@pytest.mark.parametrize("value, where", [({"a": 2**64}, "extra_body.a"), ({"a": [1, float("nan")]}, "extra_body.a[1]"),
                                          ({"a": {"b": -2**63 - 1}}, "extra_body.a.b"), ({1: "x"}, "extra_body")])
def test_extra_body_holds_json_values_only(tmp_path, value, where):
    """A value the saved grid and the unit keys could not hold as it is (found by the property test above)."""
    raw = yaml.safe_load(FULL)
    raw["providers"]["v"]["extra_body"] = value
    path = grid_with(tmp_path, yaml.safe_dump(raw, allow_unicode=True))
    with pytest.raises(UserError) as err:
        load_grid(path, env={"KEY": "k"})
    assert str(err.value).startswith(f"{path}: providers.v.{where}: expected JSON values"), str(err.value)


@pytest.mark.parametrize("text, says", [("", "expected a mapping"), ("- 1\n", "expected a mapping"),
                                        ("just words\n", "expected a mapping")])
def test_a_grid_that_is_not_a_mapping_says_so_with_no_empty_key(tmp_path, text, says):
    # the whole file is the value at fault: "grid.yaml: : expected a mapping" named an empty key
    path = tmp_path / "grid.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as err:
        load_grid(path, env={})
    assert str(err.value) == f"{path}: {says}"


@pytest.mark.parametrize("url, shown", [("localhost:8000/v1", "'localhost:8000/v1'"), ("[ftp://h/v1]", "['ftp://h/v1']"),
                                        ("8000", "8000")])
def test_a_bad_base_url_is_echoed_as_it_was_given(tmp_path, url, shown):
    # a plain string was echoed as a list (`got ['localhost:8000/v1']`), as if the grid had given one
    text = OK.replace("  r: {kind: random}", f"  r: {{kind: random}}\n  q: {{kind: openai, model: m, base_url: {url}}}")
    with pytest.raises(UserError) as err:
        load_grid(grid_with(tmp_path, text), env={})
    assert "providers.q.base_url: expected an http(s) URL" in str(err.value)
    assert str(err.value).endswith(f", got {shown}"), str(err.value)
