"""Shared fixtures: the registered families, a generator of items, and the `bench` command."""
from __future__ import annotations

import errno
import fcntl
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import settings

# Under CI, property tests draw the same examples every run (derandomized, no example database): a test
# either passes every time or fails every time, never by a lucky draw.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from families.registry import FAMILIES
from families.seeding import item_rng

ROOT = Path(__file__).resolve().parent.parent
FAMILY_NAMES = sorted(FAMILIES)
# How long a test waits for a process before calling it hung: a guard against hangs, never a time limit on work (a
# loaded two-core machine runs a command ten times slower than a quiet one, and a test must still pass there).
HANG_S = 1800.0


def make(family: str, index: int, complexity: int, seed: int = 0):
    """Item `index` of `family` at `complexity`, as `bench generate` would make it."""
    return FAMILIES[family].generate(index, complexity, item_rng(seed, family, index, complexity))


def total_variation(samples: dict[str, list]) -> float:
    """The largest total-variation distance between the empirical distributions of any two groups."""
    dists = []
    for values in samples.values():
        counts = Counter(values)
        dists.append({k: c / len(values) for k, c in counts.items()})
    worst = 0.0
    for a in dists:
        for b in dists:
            worst = max(worst, 0.5 * sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b)))
    return worst


def independence_p(samples: dict[str, list], rounds: int = 200, seed: int = 0) -> float:
    """Permutation test of "the statistic's distribution is the same in every group": its p-value.

    The groups' largest total-variation distance, against the same distance after shuffling the
    values among the groups (same group sizes). A statistic drawn before the label gives a uniform
    p-value; one that depends on the label gives a tiny one.
    """
    observed = total_variation(samples)
    pooled = [v for values in samples.values() for v in values]
    sizes = [len(values) for values in samples.values()]
    rng = random.Random(seed)
    at_least = 0
    for _ in range(rounds):
        rng.shuffle(pooled)
        groups, start = {}, 0
        for g, size in enumerate(sizes):
            groups[str(g)] = pooled[start:start + size]
            start += size
        at_least += total_variation(groups) >= observed
    return (at_least + 1) / (rounds + 1)


def by_label(family: str, complexity: int, stat, n: int = 3000, seed: int = 13) -> dict[str, list]:
    """`stat(skeleton)` for n items, grouped by gold label."""
    out: dict[str, list] = {}
    for i in range(n):
        sk = make(family, i, complexity, seed=seed)
        out.setdefault(sk.gold_answer, []).append(stat(sk))
    return out


def bench(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = HANG_S,
          check: bool = False) -> subprocess.CompletedProcess:
    """Run the real `bench` console entry point in a subprocess."""
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", *args],
                          cwd=cwd or ROOT, env=full_env, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"bench {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


@pytest.fixture
def no_locks(monkeypatch) -> None:
    """A file system that gives no locks (some network mounts): every flock fails with ENOLCK. The system call is
    replaced, not our code."""
    def no_lock(fd, op):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
    monkeypatch.setattr(fcntl, "flock", no_lock)


@pytest.fixture(params=FAMILY_NAMES)
def family(request) -> str:
    """Every registered family, one at a time."""
    return request.param


def put_into(text: str, word: str, where: float, bullets: tuple[str, ...] = ()) -> str:
    """`text` with `word` put before the word at fraction `where` of its words (at the end for 1.0); a word of
    `bullets` never opens it ("- " opening a sentence is a list's bullet, read away)."""
    words = text.split(" ")
    at = min(int(where * (len(words) + 1)), len(words))
    if at == 0 and word in bullets:
        at = 1
    return " ".join(words[:at] + [word] + words[at:])
