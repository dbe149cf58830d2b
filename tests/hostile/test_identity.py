"""A provider's name is a label, not its identity: a resume after a rename, a swap of two names or a moved
`variant:` finds its records, and the run, `bench status` and `bench report` agree on what is done."""
from __future__ import annotations

from pathlib import Path

import orjson

from tests.fake_server import FakeServer
from tests.hostile.test_hostile import bench

GRID = """name: ident
skeletons: {{generate: {{count: 6, complexities: [short]}}}}
providers: {{{t}: {{kind: template}}, {r}: {{kind: random}}, {p}: {{kind: prior}}}}
renderers: [{t}]
solvers: [{r}, {p}]
"""


def _grid(tmp: Path, name: str, **names: str) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(GRID.format(**{"t": "t", "r": "r", "p": "p", **names}))
    return path


def _cells(out: Path) -> dict[tuple[str, str], tuple[int, int]]:
    """(renderer, solver) -> (answers, correct), summed over the report's rows."""
    rows = orjson.loads((out / "report" / "summary.json").read_bytes())["rows"]
    cells: dict[tuple[str, str], tuple[int, int]] = {}
    for row in rows:
        n, c = cells.get((row["renderer"], row["solver"]), (0, 0))
        cells[(row["renderer"], row["solver"])] = (n + row["n"], c + row["correct"])
    return cells


def test_renamed_providers_keep_their_records_in_run_status_and_report(tmp_path):
    out = tmp_path / "run"
    assert bench("run", "--grid", str(_grid(tmp_path, "a")), "--out", str(out), cwd=tmp_path).returncode == 0
    before = (out / "solves.jsonl").read_bytes()
    renamed = _grid(tmp_path, "b", t="tmpl", r="coin", p="base")
    again = bench("run", "--grid", str(renamed), "--out", str(out), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (out / "solves.jsonl").read_bytes() == before   # nothing redone: the keys are the same units
    assert "tmpl" in again.stdout and "\nt " not in again.stdout   # the run's own tables use the names of now
    status = bench("status", str(out), cwd=tmp_path)
    assert status.returncode == 0 and "left 0" in status.stdout, status.stdout
    assert "tmpl" in status.stdout and "coin" in status.stdout and " t " not in status.stdout
    report = bench("report", str(out), cwd=tmp_path)
    assert report.returncode == 0 and "no solve records" not in report.stdout, report.stdout
    cells = _cells(out)
    assert set(cells) == {("tmpl", "coin"), ("tmpl", "base")}
    assert all(n == 6 for n, _ in cells.values())


def test_two_swapped_names_follow_their_units_not_their_names(tmp_path):
    """random and prior swap names: each name's cell holds the records of the provider it names now."""
    first, second = tmp_path / "one", tmp_path / "two"
    bench("run", "--grid", str(_grid(tmp_path, "a")), "--out", str(first), cwd=tmp_path)
    bench("report", str(first), cwd=tmp_path)
    swapped = _grid(tmp_path, "b", r="p", p="r")   # `p` is now the random solver, `r` the prior
    for path in first.iterdir():   # the same run, resumed under the swapped grid in a folder of its own
        if path.is_file():
            second.mkdir(exist_ok=True)
            (second / path.name).write_bytes(path.read_bytes())
    assert bench("run", "--grid", str(swapped), "--out", str(second), cwd=tmp_path).returncode == 0
    assert (second / "solves.jsonl").read_bytes() == (first / "solves.jsonl").read_bytes()
    assert bench("report", str(second), cwd=tmp_path).returncode == 0
    was, now = _cells(first), _cells(second)
    assert now[("t", "p")] == was[("t", "r")] and now[("t", "r")] == was[("t", "p")]


VARIANT = """name: var
skeletons: {{generate: {{count: 3, complexities: [short]}}}}
providers:
  t: {{kind: template}}
  a: {{kind: openai, base_url: "{url}", model: fake-model, max_concurrency: 4{va}}}
  b: {{kind: openai, base_url: "{url}", model: fake-model, max_concurrency: 4{vb}}}
renderers: [t]
solvers: [a, b]
"""


def test_a_moved_variant_moves_its_records_with_it(tmp_path):
    """`variant:` moved from provider a to b: the units of the variant are b's now, found, not redone."""
    out = tmp_path / "run"
    with FakeServer() as srv:
        grid_a = tmp_path / "a.yaml"
        grid_a.write_text(VARIANT.format(url=srv.url, va=", variant: awq", vb=""))
        assert bench("run", "--grid", str(grid_a), "--out", str(out), cwd=tmp_path).returncode == 0
        before = (out / "solves.jsonl").read_bytes()
        grid_b = tmp_path / "b.yaml"
        grid_b.write_text(VARIANT.format(url=srv.url, va="", vb=", variant: awq"))
        again = bench("run", "--grid", str(grid_b), "--out", str(out), cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert (out / "solves.jsonl").read_bytes() == before
    status = bench("status", str(out), cwd=tmp_path)
    assert "left 0" in status.stdout
    assert bench("report", str(out), cwd=tmp_path).returncode == 0
    cells = _cells(out)
    assert set(cells) == {("t", "a"), ("t", "b")} and all(n == 3 for n, _ in cells.values())


def test_the_view_shows_a_renamed_providers_cells_and_renders(tmp_path):
    """bench view reads the runs as the report does: after a rename its grid, lists and unit pages hold every
    answer under the names of now (a bundle written offline is read here as files)."""
    out = tmp_path / "run"
    assert bench("run", "--grid", str(_grid(tmp_path, "a")), "--out", str(out), cwd=tmp_path).returncode == 0
    renamed = _grid(tmp_path, "b", t="tmpl", r="coin", p="base")
    assert bench("run", "--grid", str(renamed), "--out", str(out), cwd=tmp_path).returncode == 0
    from runner.view.data import build
    snap = build([out])
    assert {(row.renderer, row.solver) for row in snap.rows} == {("tmpl", "coin"), ("tmpl", "base")}
    assert sum(row.n for row in snap.rows if row.solver == "coin") == 6
    assert len(snap.by_renderer[("ident", "tmpl")]) == 6 and ("ident", "t") not in snap.by_renderer
    bundle = tmp_path / "bundle"
    proc = bench("view", str(out), "--bundle", str(bundle), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    pages = {p.name: p.read_text() for p in bundle.rglob("*.html")}
    assert any("coin" in text and "tmpl" in text for text in pages.values())
    assert not any(">t<" in text or ">r<" in text for text in pages.values())   # the old names show nowhere
