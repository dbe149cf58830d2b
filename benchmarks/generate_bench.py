"""Skeletons per second and peak memory of `bench generate`, streamed to a file, pinned to one core.

    python benchmarks/generate_bench.py [--counts 100000 1000000]
    python benchmarks/generate_bench.py --counts 200000 --baseline /tmp/old --rounds 3

Each count runs `bench generate` in a fresh process pinned to CPU 0; peak RSS is that child's
maxrss. `--baseline DIR` (a checkout of other code: `git worktree add /tmp/old REV`) times that
code's generator alternately with this one's, round by round, and prints the ratio.
Memory must be flat in the count (the generator streams), so the counts are compared.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import run_child  # noqa: E402


def run_once(count: int, out: Path, root: Path = ROOT) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one generate run of the code in `root`, in a child pinned to one core."""
    code = (f"import os, sys; os.sched_setaffinity(0, {{0}}); sys.path.insert(0, {str(root)!r}); "
            "from runner.cli import main; main()")
    return run_child([sys.executable, "-c", code, "generate", "-n", str(count), "-c", "medium", "-s", "0",
                      "-o", str(out), "-q"], cwd=root)[:2]


def compare(baseline: Path, count: int, rounds: int) -> None:
    """Skeletons per second of the baseline and of this code, alternating, and their ratio per round."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "s.jsonl"
        print(f"{'round':>5}  {'baseline/s':>10}  {'this/s':>10}  ratio")
        for r in range(rounds):
            base = count / run_once(count, out, baseline.resolve())[0]
            this = count / run_once(count, out)[0]
            print(f"{r + 1:>5}  {base:>10,.0f}  {this:>10,.0f}  {this / base:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--baseline", type=Path, help="Another checkout to time alternately with this one.")
    ap.add_argument("--rounds", type=int, default=3, help="Alternating rounds, with --baseline.")
    args = ap.parse_args()
    if args.baseline:
        compare(args.baseline, max(args.counts), args.rounds)
        return
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'count':>9}  {'seconds':>8}  {'skeletons/s':>11}  {'peak RSS MB':>11}  file MB")
        for count in sorted(args.counts):
            out = Path(tmp) / f"s{count}.jsonl"
            secs, rss = run_once(count, out)
            print(f"{count:>9}  {secs:>8.2f}  {count / secs:>11,.0f}  {rss:>11.1f}  {out.stat().st_size / 1e6:.0f}")
            out.unlink()


if __name__ == "__main__":
    main()
