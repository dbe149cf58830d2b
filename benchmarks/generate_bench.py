"""Skeletons per second and peak memory of `bench generate`, streamed to a file, pinned to one core.

    python benchmarks/generate_bench.py [--counts 100000 1000000]

Each count runs `bench generate` in a fresh process pinned to CPU 0; peak RSS is that child's
maxrss. Memory must be flat in the count (the generator streams), so the counts are compared.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import run_child  # noqa: E402


def run_once(count: int, out: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one generate run in a child process pinned to one core."""
    code = ("import os; os.sched_setaffinity(0, {0}); "
            "from runner.cli import main; main()")
    return run_child([sys.executable, "-c", code, "generate", "-n", str(count), "-c", "medium", "-s", "0",
                      "-o", str(out), "-q"], cwd=ROOT)[:2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", type=int, nargs="+", default=[100_000, 1_000_000])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'count':>9}  {'seconds':>8}  {'skeletons/s':>11}  {'peak RSS MB':>11}  file MB")
        for count in sorted(args.counts):
            out = Path(tmp) / f"s{count}.jsonl"
            secs, rss = run_once(count, out)
            print(f"{count:>9}  {secs:>8.2f}  {count / secs:>11,.0f}  {rss:>11.1f}  {out.stat().st_size / 1e6:.0f}")
            out.unlink()


if __name__ == "__main__":
    main()
