"""The report's pictures on a run folder's figures: this tree's drawing against another tree's, rounds alternated.

    python benchmarks/pictures_bench.py --folder /tmp/report-bench --old /tmp/base --rounds 4

reads the folder's figures once (the report's reader), then draws the heatmap and accuracy by complexity from this
tree's `runner/reporting/figures.py` and from the old tree's, in turn, into a scratch folder; prints each drawing's
wall time and where the two trees' pictures differ (their sizes, and pixels apart by more than 8 of 255).
"""
from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path


def _module(path: Path):
    """figures.py of a tree, loaded as a module of its own (the rest of the package is this tree's)."""
    spec = importlib.util.spec_from_file_location(f"figures_{abs(hash(path))}", path)
    assert spec is not None and spec.loader is not None   # a file path given: always a spec
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _differ(a: Path, b: Path) -> str:
    """How two pictures differ: their sizes, or the pixels apart by more than 8 of 255."""
    import numpy as np
    from PIL import Image
    x, y = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
    if x.size != y.size:
        return f"sizes {x.size} and {y.size}"
    apart = np.abs(np.asarray(x, dtype=int) - np.asarray(y, dtype=int)).max(axis=2)
    return f"{int((apart > 8).sum())} pixels apart by more than 8, at most {int(apart.max())}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--old", type=Path, required=True, help="a checkout of the code before")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    from runner.reporting import terminal
    from runner.reporting.columnar import drop_unkept, read_figures
    from runner.reporting.stats import summary_rows
    figures = read_figures([args.folder])
    drop_unkept(figures)   # no report: nothing of the folder's is kept
    rows = summary_rows(figures.loaded, figures.groups, figures.fidelity)
    chance, baselines = figures.loaded.chance, terminal.baselines(figures.loaded.grids)
    sides = {"old": _module(args.old / "runner/reporting/figures.py"),
             "new": _module(Path(__file__).resolve().parents[1] / "runner/reporting/figures.py")}
    sides["new"].pyplot()   # matplotlib imported before the clock (the report's child imports it early)
    out = Path(tempfile.mkdtemp(prefix="pictures-bench-"))
    for i in range(args.rounds):
        for name, figs in sides.items():
            t = time.perf_counter()
            figs.heatmap(rows, chance, out / f"heatmap-{name}.png", baselines)
            heat = time.perf_counter() - t
            t = time.perf_counter()
            figs.by_complexity(rows, chance, out / f"by_complexity-{name}.png")
            print(f"round {i + 1} {name}: heatmap {heat:.2f} s, by complexity {time.perf_counter() - t:.2f} s",
                  flush=True)
    for picture in ("heatmap", "by_complexity"):
        print(f"{picture}: {_differ(out / f'{picture}-old.png', out / f'{picture}-new.png')} ({out})")


if __name__ == "__main__":
    main()
