"""No function of the project's code is over 80 lines (issue 46): a long one is split where its seams are.
Every module under the packages and benchmarks/ is read with `ast`; tests are exempt."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("runner", "providers", "rendering", "families", "audit", "benchmarks")
LIMIT = 80


def long_functions(paths: list[Path], root: Path = ROOT, limit: int = LIMIT) -> list[str]:
    """`path:line name (N lines)` for each function or method in `paths` longer than `limit` lines."""
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > limit:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_function_is_over_80_lines():
    paths = sorted(p for area in AREAS for p in (ROOT / area).rglob("*.py"))
    assert len(paths) > 100   # the walk found the code, not an empty folder
    assert long_functions(paths) == []


def test_the_check_finds_a_long_function(tmp_path: Path):
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\nasync def long():\n{body}\n")
    assert long_functions([tmp_path / "m.py"], tmp_path) == [f"m.py:5 long ({LIMIT + 1} lines)"]
