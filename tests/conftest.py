"""Shared fixtures: the registered families, a generator of items, and the `bench` command."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from families.registry import FAMILIES
from families.seeding import item_rng

ROOT = Path(__file__).resolve().parent.parent
FAMILY_NAMES = sorted(FAMILIES)


def make(family: str, index: int, complexity: int, seed: int = 0):
    """Item `index` of `family` at `complexity`, as `bench generate` would make it."""
    return FAMILIES[family].generate(index, complexity, item_rng(seed, family, index, complexity))


def bench(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 300,
          check: bool = False) -> subprocess.CompletedProcess:
    """Run the real `bench` console entry point in a subprocess."""
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", *args],
                          cwd=cwd or ROOT, env=full_env, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"bench {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


@pytest.fixture(params=FAMILY_NAMES)
def family(request) -> str:
    """Every registered family, one at a time."""
    return request.param
