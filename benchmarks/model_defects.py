"""A corpus of renders with one wrong meaning each, judged: is every render refused, and at its defect's sentence?

    python -m benchmarks.model_defects DIR     # reads DIR/prompts.jsonl, DIR/answers.jsonl, DIR/DEFECTS.jsonl

DEFECTS.jsonl holds a line per render, {"id", "where": "premise N" | "question" | "intro" | "prose", "kind", "wrong",
"faithful"}, written by whoever wrote the render. Each render is judged by the run's own check (no auditor); it is
caught at its defect where a reason names that place: the premise of fact N (or the N-th premise, as a writer may count
them), the question, or the intro and the prose around the JSON. Prints each render's defect beside that reason, then
how many were caught there, and by which verdict.
"""
from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

import orjson

from rendering.structure import check, parse, reason_code


def _lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _at_defect(reasons: list[str], where: str, premises: tuple[tuple[int, str], ...]) -> list[str]:
    """The reasons that name the defect's place."""
    m = re.search(r"premise (\d+)", where)
    facts = set()
    if m:
        k = int(m.group(1))
        facts = {k} | ({premises[k][0]} if 0 <= k < len(premises) else set())
    return [r for r in reasons
            if any(f"fact {f} " in r for f in facts) or ("question" in where and "question" in r)
            or (("intro" in where or "prose" in where) and ("intro" in r or "text around" in r))]


def verdicts(folder: Path) -> list[tuple[dict, str, str]]:
    """Per render: its defect, the verdict at it ("ok", "elsewhere" where no reason names its place, or the code of
    the first reason there) and that reason (or all of them)."""
    asked = {r["id"]: r for r in _lines(folder / "prompts.jsonl")}
    defects = {d["id"]: d for d in _lines(folder / "DEFECTS.jsonl")}
    out = []
    for ans in _lines(folder / "answers.jsonl"):
        read, defect = parse(ans["answer"]), defects[ans["id"]]
        if isinstance(read, str):
            reasons, found = [read], [read]
        else:
            reasons = check(read, asked[ans["id"]]["payload"])
            found = _at_defect(reasons, defect["where"].lower(), read.premises)
        verdict = "ok" if not reasons else reason_code(found[0]) if found else "elsewhere"
        out.append((defect, verdict, found[0] if found else "; ".join(reasons)))
    return out


def judge_defects(folder: Path) -> None:
    """Print each render's defect beside the reason found at it, and the totals."""
    caught: Counter = Counter()
    for defect, verdict, reason in verdicts(folder):
        caught[verdict] += 1
        print(f"{defect['id']:14} {defect['kind'][:40]:40} | {defect['wrong'][:70]:70} | {reason[:110] or 'ok'}")
    at = sum(n for v, n in caught.items() if v not in ("ok", "elsewhere"))
    print(f"\nnot ok at the defect: {at} of {sum(caught.values())}; by verdict:",
          ", ".join(f"{v} {n}" for v, n in caught.most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    judge_defects(ap.parse_args().folder)


if __name__ == "__main__":
    main()
