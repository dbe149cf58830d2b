"""The code passes its own tools, through the README's test command: ruff (lint and import order) and mypy
(strict where pyproject.toml's [tool.mypy] says), each as configured in pyproject.toml, on the whole tree."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    """The tool beside this Python (the venv's), else on PATH; both are in the test extra."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


@pytest.mark.parametrize("command", [["ruff", "check", "."], ["mypy"]], ids=["ruff", "mypy"])
def test_the_tree_passes(command: list[str]):
    proc = subprocess.run([tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
