"""The one-process floor of a resume index read with msgspec, beside the index itself, an index the engine builds, and
DuckDB.

    python benchmarks/index_floor.py RUN_FOLDER [--rounds 3]

`floor`: each log read in 1 MiB blocks, split into lines, and every line decoded into an empty struct (its JSON
checked and skipped, no field built): what any index that reads every line in one process with msgspec pays
before it makes a key. `bench`: runner/store/index.py's `load_index` of both logs. `engine`: the index as DuckDB
could build it, at best: the solve log's index fields by its typed read (its lenient casts, not the exact-type
rule; no line offsets: the row's place stands in for them), the newest record of a key (terminal first) folded in
the engine, fetched into the index's key -> Entry dict, while `load_index` reads the render log in a thread (the
run reads a render back at its offset, which the engine does not give). `duckdb`: `read_json` of the
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
ENGINE = """
import duckdb
import gc
import threading
from runner.store.index import Entry, load_index
from runner.store.logs import RENDER_FIELDS, SOLVE_FIELDS, TERMINAL
gc.disable()
renders = []
thread = threading.Thread(target=lambda: renders.append(load_index(folder / "renders.jsonl", RENDER_FIELDS)))
thread.start()
con = duckdb.connect(config={"preserve_insertion_order": True})
con.execute("SET enable_progress_bar = false")
types = {str: "VARCHAR", int: "BIGINT", (bool, type(None)): "BOOLEAN"}
columns = ", ".join(f"'{name}': '{types[kind]}'" for name, kind in SOLVE_FIELDS.items())
whole = " AND ".join(f"{name} IS NOT NULL" for name in SOLVE_FIELDS if name != "correct")
con.execute(f"CREATE TEMP TABLE s AS SELECT key, status, correct FROM read_json('{folder / 'solves.jsonl'}', "
            f"format = 'newline_delimited', columns = {{{columns}}}, ignore_errors = true) WHERE {whole}")
best = f"(status IN ({', '.join(repr(s) for s in TERMINAL)}), rowid)"
t = con.execute(f"SELECT key, arg_max(status, {best}) AS s, arg_max(rowid, {best}) AS o, "
                f"arg_max(correct, {best}) AS c FROM s GROUP BY key").fetchnumpy()
index = dict(zip(t["key"].tolist(), map(Entry._make, zip(t["s"].tolist(), t["o"].tolist(), t["c"].tolist()))))
thread.join()
n = len(index) + len(renders[0])
"""
SIDES = {"floor": FLOOR, "bench": INDEX_SIDES["bench"], "engine": ENGINE, "duckdb": INDEX_SIDES["duckdb"]}


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
