"""The one-process floor of a resume index read with msgspec, beside the index itself and DuckDB.

    python benchmarks/index_floor.py RUN_FOLDER [--rounds 3]

`floor`: each log read in 1 MiB blocks, split into lines, and every line decoded into an empty struct (its JSON
checked and skipped, no field built): what any index that reads every line in one process with msgspec pays
before it makes a key. `bench`: runner/store/index.py's `load_index` of both logs. `duckdb`: `read_json` of the
key columns into a key -> status dict, as benchmarks/resume_bench.py times it. Each side in a fresh process,
imports not timed, rounds alternating.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.resume_bench import INDEX_SIDES, timed_side  # noqa: E402

FLOOR = """
import msgspec
import gc
gc.disable()
skip = msgspec.json.Decoder(msgspec.defstruct("Nothing", [], gc=False)).decode
n = 0
for name in ("solves.jsonl", "renders.jsonl"):
    with open(folder / name, "rb") as fh:
        carry = b""
        while data := fh.read(1 << 20):
            lines = (carry + data).split(b"\\n")
            carry = lines.pop()
            for line in lines:
                skip(line)
            n += len(lines)
"""
SIDES = {"floor": FLOOR, "bench": INDEX_SIDES["bench"], "duckdb": INDEX_SIDES["duckdb"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a run folder with solves.jsonl and renders.jsonl")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"{args.folder}; cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}", flush=True)
    for i in range(args.rounds):
        got = {name: timed_side(code, args.folder) for name, code in SIDES.items()}
        wall = got["duckdb"][0]
        print(f"round {i + 1}: " + "; ".join(f"{name} {w:.2f} s ({c:.2f} s CPU, {w / wall:.2f}x DuckDB's wall)"
                                            for name, (w, c, _) in got.items())
              + f" (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
