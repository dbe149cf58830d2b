"""The report's planned units (runner/reporting/planned.py) from the run folder's skeleton manifest: what a real
`bench run` noted (identity, family, answer options of each skeleton) gives the very files, identities and chance
levels that making every skeleton again gives; a manifest that misses a skeleton, or a source the run did not
finish, is not trusted, and the skeletons are made as before."""
from __future__ import annotations

from pathlib import Path

import pytest

from runner.config.grid import Grid
from runner.plan import manifest
from runner.plan.units import skeletons
from runner.reporting.planned import noted, plan_files
from tests.conftest import bench
from tests.test_report_columnar import _equal_to_the_loaders

# every family (their answer options differ in number, so the chance levels are means, not constants)
GRID = """name: g
skeletons: {generate: {count: 40, complexities: [2, 3], seed: 5}}
providers: {t: {kind: template}, r: {kind: random}, r2: {kind: random, seed: 9}}
renderers: [t]
solvers: [r, {provider: r2, samples: 2}]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 40 skeletons (template renderer, two random solvers); its folder."""
    tmp = tmp_path_factory.mktemp("planned")
    (tmp / "grid.yaml").write_text(GRID)
    bench("run", "--grid", str(tmp / "grid.yaml"), "--out", str(tmp / "run"), "-q", check=True)
    return tmp / "run"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_runs_manifest_gives_the_plan_that_making_every_skeleton_gives(run, tmp_path):
    grid = Grid.saved(run)
    known = noted(run, grid)
    assert known == [(sk.identity, sk.family, len(sk.answer_options)) for sk in skeletons(grid)]
    assert len({family for _, family, _ in known}) == 4 and len({n for _, _, n in known}) > 1
    made, read = tmp_path / "made", tmp_path / "read"
    made.mkdir()
    read.mkdir()
    assert plan_files(grid, read, known) == plan_files(grid, made)   # identities, and chance to the last bit
    assert _files(read) == _files(made)
    _equal_to_the_loaders([run], False, ("renderer", "solver", "family"))   # the report's figures, from this plan


def test_a_manifest_missing_a_skeleton_is_not_trusted_and_the_skeletons_are_made(run, tmp_path):
    grid = Grid.saved(run)
    path = manifest.path_for(run, grid)
    whole = path.read_bytes()
    try:
        path.write_bytes(b"".join(whole.splitlines(keepends=True)[1:]))   # one skeleton's line lost
        assert noted(run, grid) is None
        path.write_bytes(whole[:-7])   # the last line torn by a crash
        assert noted(run, grid) is None
        path.write_bytes(whole + b'[3,"x",5]\n[999,"far","equality",3]\n')   # foreign lines and indices past the end
        assert noted(run, grid) == [(sk.identity, sk.family, len(sk.answer_options)) for sk in skeletons(grid)]
        path.unlink()
        assert noted(run, grid) is None
    finally:
        path.write_bytes(whole)
