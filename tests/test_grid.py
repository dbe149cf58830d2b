"""Grid files are checked whole: one line naming the file, line or key path; exit 2; nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import UserError
from runner.grid import Grid, load_grid
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
    (("solvers: [r]", "solvers: [{provider: r, temperature: 9}]"), "solvers[0].temperature: expected a number"),
    (("solvers: [r]", "solvers: [{provider: r, prompt: missing.txt}]"), "solvers[0].prompt: cannot read"),
    (("solvers: [r]", "solvers: [{provider: r, tempreture: 1}]"), "solvers[0].tempreture: unknown key"),
    (("name: g\n", ""), "name: missing"),
    (("  r: {kind: random}", "  r: {kind: openai, model: m}"), "providers.r.base_url"),
    (("renderers: [t]", "renderers: [{provider: t, format: prose}]"), "renderers[0].format: expected structured or text"),
    (("renderers: [t]", "renderers: [{provider: t, send_unfaithful: 1}]"), "renderers[0].send_unfaithful: expected true"),
    (("renderers: [t]", "renderers: [{provider: t, audit: {provider: r}}]"), "renderers[0].audit.provider: expected a model"),
    (("renderers: [t]", "renderers: [{provider: t, audit: {provider: t, rate: 2}}]"), "renderers[0].audit.provider"),
    (("solvers: [r]", "solvers: [{provider: r, format: text}]"), "solvers[0].format: unknown key"),
])
def test_bad_grid_names_file_and_key(tmp_path, replace, needle):
    path = grid_with(tmp_path, OK.replace(*replace))
    with pytest.raises(UserError) as err:
        load_grid(path)
    assert str(err.value).startswith(str(path)) and needle in str(err.value), str(err.value)


def test_prompt_without_placeholder(tmp_path):
    (tmp_path / "p.txt").write_text("Answer please.")
    path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [{provider: r, prompt: p.txt}]"))
    with pytest.raises(UserError, match=r"lacks the placeholder \{problem\}"):
        load_grid(path)


def test_saved_grid_round_trips(tmp_path):
    grid = load_grid(grid_with(tmp_path, OK))
    again = Grid.from_json(grid.to_json())
    assert again == grid and again.hash() == grid.hash()


@pytest.mark.parametrize("case", ["missing", "yaml", "provider", "skeleton", "shard"])
def test_bench_run_bad_input_exit_2_nothing_written(tmp_path, case):
    out = tmp_path / "out"
    args = []
    if case == "missing":
        path = tmp_path / "nope.yaml"
    elif case == "yaml":
        path = grid_with(tmp_path, "name: [g")
    elif case == "provider":
        path = grid_with(tmp_path, OK.replace("solvers: [r]", "solvers: [q]"))
    elif case == "shard":
        path, args = grid_with(tmp_path, OK), ["--shard", "2/2"]
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


def test_embedded_default_grid_is_valid():
    grid = load_grid(ROOT / "configs" / "grid.yaml", env={})
    assert load_grid(ROOT / "configs" / "grid-quick.yaml", env={}).name == "quick"
    gpu = load_grid(ROOT / "configs" / "grid-gpu.yaml", env={})
    assert gpu.providers["llama"].settings["launch"]["gpus"] == [4, 5, 6, 7]
    assert grid.name == "default" and grid.renderers and grid.solvers
