"""Every premise of a run's model renders beside the fact it must state, with how the check read it.

    python -m benchmarks.read_back outputs/default --grid configs/grid.yaml --renderer smollm [--markdown]

For reading renders one by one (what BENCHMARKS.md lists): per render unit, its last round's status and
reasons, then each premise's fact, the check's reading (read, misread, unread) and the text, and the
question. A closing line counts faithful renders and their premises by reading.
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from families.reading import Marked, reader, spell
from rendering.structure import parse
from runner.config.grid import load_grid
from runner.plan.units import skeletons
from runner.store.logs import RENDER_FIELDS, Records, read_records
from runner.store.sinks import RENDERS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--grid", type=Path, required=True)
    ap.add_argument("--renderer", required=True)
    ap.add_argument("--markdown", action="store_true", help="one table row per premise")
    args = ap.parse_args()
    by_id = {sk.identity: sk for sk in skeletons(load_grid(args.grid, require_keys=False))}
    last: dict[str, dict] = {}
    for rec in read_records(args.run / RENDERS, RENDER_FIELDS, Records()):
        if rec.get("renderer") == args.renderer and rec.get("status") != "error":
            if rec["key"] not in last or rec.get("round", 0) >= last[rec["key"]].get("round", 0):
                last[rec["key"]] = rec
    readings: Counter = Counter()
    faithful = 0
    if args.markdown:
        print("| render | status | fact | reads | premise |\n|---|---|---|---|---|")
    for rec in sorted(last.values(), key=lambda r: r["skeleton"]):
        sk = by_id[rec["skeleton"]]
        payload = sk.redact()
        parsed = parse(rec.get("raw") or "")
        if isinstance(parsed, str):
            print(f"{sk.id} {rec['status']}: {parsed}")
            continue
        faithful += rec["status"] == "ok"
        read = reader(sk.family)
        marked = Marked({s: n for s, n in parsed.names.items() if s in payload["entities"]}, payload["entities"])
        if not args.markdown:
            print(f"\n{sk.id} ({sk.family}, complexity {sk.complexity}): {rec['status']}, round {rec.get('round', 0)}"
                  + (f"; {'; '.join(rec['checks'])}" if rec.get("checks") else ""))
        for i, text in parsed.premises:
            fact = (payload["facts"][i]["predicate"], tuple(payload["facts"][i]["arguments"])) \
                if 0 <= i < len(payload["facts"]) else ("?", ())
            v = read.read_fact(text, fact, marked, payload["entities"]) if fact[0] != "?" else None
            kind = v.kind if v else "unknown fact"
            if rec["status"] == "ok":
                readings[kind] += 1
            named = f"{spell(fact)} = " + spell((fact[0], tuple(parsed.names.get(a, a) if isinstance(a, str) else a
                                                                for a in fact[1])))
            if args.markdown:
                print(f"| {sk.id} | {rec['status']} | {named} | {kind} | {text} |")
            else:
                print(f"  {named:<52} {kind:<8} {text}")
        if not args.markdown:
            print(f"  question: {parsed.question}")
    print(f"\n{args.renderer}: {faithful} of {len(last)} renders faithful; premises of faithful renders: "
          + ", ".join(f"{k} {n}" for k, n in sorted(readings.items())))


if __name__ == "__main__":
    main()
