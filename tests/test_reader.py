"""Skeleton files as `bench run`, `bench validate` and `bench audit` read them: empty files refused, a
byte-order mark accepted as in grids, every bad line named."""
from __future__ import annotations

import pytest

from families.logicmark import logicmark_record
from tests.conftest import bench, make

GRID = """name: r
skeletons: {{path: {path}, format: {fmt}}}
providers: {{template: {{kind: template}}, random: {{kind: random}}}}
renderers: [template]
solvers: [random]
"""


def _lines(fmt: str) -> bytes:
    items = [make("equality", i, 2) for i in range(3)]
    if fmt == "logicmark":
        return b"".join(logicmark_record(sk, i) + b"\n" for i, sk in enumerate(items))
    return b"".join(sk.to_json() + b"\n" for sk in items)


@pytest.mark.parametrize("fmt", ["jsonl", "logicmark"])
@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_an_empty_file_is_refused_with_one_line(tmp_path, fmt, content):
    path = tmp_path / "s.jsonl"
    path.write_bytes(content)
    grid = tmp_path / "grid.yaml"
    grid.write_text(GRID.format(path=path, fmt=fmt))
    for args in (["run", "--grid", str(grid), "--out", str(tmp_path / "out")], ["validate", str(path), "--format", fmt]):
        proc = bench(*args)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert f"{path}: holds no" in proc.stderr and "the file is empty" in proc.stderr
    assert not (tmp_path / "out").exists()   # nothing written


@pytest.mark.parametrize("fmt", ["jsonl", "logicmark"])
def test_a_byte_order_mark_is_accepted_as_in_grids(tmp_path, fmt):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + _lines(fmt))
    grid = tmp_path / "grid.yaml"
    grid.write_bytes(b"\xef\xbb\xbf" + GRID.format(path=path, fmt=fmt).encode())
    assert bench("validate", str(path), "--format", fmt).returncode == 0
    proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "out"), "-q", check=True)
    assert "solves: ok 3," in proc.stdout
