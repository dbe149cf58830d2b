"""Renders written as a remote model writes them, read by the check: the prompts out, the answers back in.

    python -m benchmarks.model_renders prompts --skeletons S.jsonl --out DIR   # DIR/prompts.jsonl
    python -m benchmarks.model_renders check DIR [--list] [--ok]               # reads DIR/answers.jsonl

`prompts` writes, per skeleton, exactly what a remote renderer gets from `bench run` with the defaults
(`format: structured`, `names: model`): the structured render prompt with the redacted payload. Someone who
never saw the reader (a person, or a helper session that read nothing of the code) answers each prompt as a
strong model would, one JSON object per line of `answers.jsonl`: `{"id": ..., "answer": "<the model's text>"}`.
`check` judges every answer with the run's own judge (rendering/structure.py), no auditor, and prints, per
family, how many renders are `ok`, and per premise how each was read; `--list` prints every premise that did
not read beside its fact, for reading them one by one (an answer may itself be wrong: read before counting).
"""
from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import orjson

from families.ir import parse_skeleton_json
from rendering.structure import StructuredRender, check, parse, reason_code
from runner.config.prompts import RENDER_STRUCTURED_DEFAULT, fill_render


def prompts(skeletons: Path, out: Path) -> None:
    """One line per skeleton: its id, family, redacted payload and the render prompt bench would send."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "prompts.jsonl").open("wb") as f:
        for line in skeletons.read_bytes().splitlines():
            if not line.strip():
                continue
            sk = parse_skeleton_json(line)
            payload = sk.redact()
            f.write(orjson.dumps({"id": sk.id, "family": sk.family, "payload": payload,
                                  "prompt": fill_render(RENDER_STRUCTURED_DEFAULT, payload, compact=True)}) + b"\n")


def _premise_lines(render: StructuredRender, payload: dict, reasons: list[str]) -> list[str]:
    """Each premise that a reason names, beside its fact: what to read one by one."""
    lines = []
    for r in reasons:
        lines.append(f"    - {r}")
    for index, text in render.premises:
        fact = payload["facts"][index] if 0 <= index < len(payload["facts"]) else None
        if fact is not None:
            args = ", ".join(str(render.names.get(a, a)) if isinstance(a, str) else str(a) for a in fact["arguments"])
            lines.append(f"      {fact['predicate']}({args}): {text}")
    lines.append(f"      Q {payload['query']['predicate']}: {render.question}")
    if render.intro:
        lines.append(f"      intro: {render.intro}")
    return lines


def check_answers(folder: Path, listing: bool, oks: bool = False) -> None:
    """Judge every answer against its prompt's payload and print the counts (and, with --list, the misses; with
    --ok, the renders judged faithful, each premise beside its fact: what to read one by one before a figure)."""
    asked = {r["id"]: r for r in map(orjson.loads, (folder / "prompts.jsonl").read_bytes().splitlines()) if r}
    renders: dict[str, Counter] = defaultdict(Counter)
    codes: Counter = Counter()
    sentences: Counter = Counter()
    for line in (folder / "answers.jsonl").read_bytes().splitlines():
        if not line.strip():
            continue
        ans = orjson.loads(line)
        row = asked[ans["id"]]
        read = parse(ans["answer"])
        fam = row["family"]
        if isinstance(read, str):
            renders[fam]["not parsed"] += 1
            if listing:
                print(f"{ans['id']}: not parsed: {read}")
            continue
        reasons = check(read, row["payload"])
        renders[fam]["ok" if not reasons else "not ok"] += 1
        sentences["premises"] += len(read.premises)
        sentences["questions"] += 1
        for r in reasons:
            what = "premises" if r.startswith(("unread: the premise", "misread: the premise")) else \
                "questions" if r.startswith(("unread: the question", "misread: the question")) else None
            if what:
                sentences[f"{what} {reason_code(r)}"] += 1
        codes.update(reason_code(r) for r in reasons)
        if (reasons and listing) or (not reasons and oks):
            print(f"{ans['id']} ({fam}):")
            print("\n".join(_premise_lines(read, row["payload"], reasons)))
    print("| family | renders ok | not ok | not parsed |\n|---|---:|---:|---:|")
    for fam in sorted(renders):
        c = renders[fam]
        print(f"| {fam} | {c['ok']}/{sum(c.values())} | {c['not ok']} | {c['not parsed']} |")
    total = Counter()
    for c in renders.values():
        total.update(c)
    print(f"| all | {total['ok']}/{sum(total.values())} | {total['not ok']} | {total['not parsed']} |")
    print("reasons:", ", ".join(f"{k} {v}" for k, v in codes.most_common()))
    for what in ("premises", "questions"):
        n, un, mis = sentences[what], sentences[f"{what} unread"], sentences[f"{what} misread"]
        print(f"{what}: read {n - un - mis}/{n} ({(n - un - mis) / max(n, 1):.0%}), unread {un}, misread {mis}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prompts")
    p.add_argument("--skeletons", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("check")
    c.add_argument("folder", type=Path)
    c.add_argument("--list", action="store_true", help="every render not judged faithful, beside its facts")
    c.add_argument("--ok", action="store_true", help="every render judged faithful, beside its facts")
    args = ap.parse_args()
    if args.cmd == "prompts":
        prompts(args.skeletons, args.out)
    else:
        check_answers(args.folder, args.list, args.ok)


if __name__ == "__main__":
    main()
