"""Faithful share of a model renderer, lever by lever, on a running vLLM server (issue 20's table).

    python -m benchmarks.render_levers --url http://127.0.0.1:8011/v1 --model smollm2-135m \
        --extra 120 --levers today,slots,names,patterns,repair1,repair2 --out lever-renders.jsonl

The skeletons: the default grid's (configs/grid.yaml) and `--extra` more (seed 1, short and medium).
Each lever adds one thing to the one before it:
- today:    the request before this change (premises a free list of {fact, text}, the model's names);
- slots:    premises a tuple, slot i's `fact` a const (rendering/schema.py);
- names:    + assigned names (const in the schema, listed in the prompt with the facts);
- patterns: + each sentence's bounded pattern (vLLM honours them);
- repairN:  + up to N repair rounds, the reasons said after the prompt (what `repair: N` does).
Every render is judged by the same check as `bench run` (rendering/structure.py). Prints one row per
lever: faithful share (first try and final), the top reasons left, and the mean seconds per render.
"""
from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import orjson

from providers.base import RenderRequest
from providers.build import build_provider
from providers.config import parse_provider
from rendering.names import given_names
from rendering.schema import TEXT_CHARS, for_server, render_schema
from rendering.structure import reason_code
from runner.config.grid import load_grid
from runner.config.prompts import RENDER_ASSIGNED_DEFAULT, RENDER_STRUCTURED_DEFAULT, fill_render, fill_repair
from runner.fidelity.judge import judge
from runner.plan.units import skeletons
from runner.source.generate import make_plan

ROOT = Path(__file__).resolve().parent.parent
LEVERS = ("today", "slots", "names", "patterns", "repair1", "repair2")


def today_schema(payload: dict) -> dict:
    """The render schema before fact slots and assigned names (schema version 1), for the baseline row."""
    new = render_schema(payload)
    n = len(payload["facts"])
    new["properties"]["premises"] = {"type": "array", "minItems": n, "maxItems": n, "items": {
        "type": "object", "properties": {"fact": {"type": "integer", "minimum": 0, "maximum": n - 1},
                                         "text": {"type": "string", "maxLength": TEXT_CHARS}},
        "required": ["fact", "text"], "additionalProperties": False}}
    return new


def request_for(lever: str, payload: dict, key: str, max_tokens: int) -> tuple[RenderRequest, dict | None]:
    """The render request of one lever for one skeleton, and the names it assigns (None: the model's)."""
    if lever in ("today", "slots"):
        schema = today_schema(payload) if lever == "today" else render_schema(payload)
        return RenderRequest(prompt=fill_render(RENDER_STRUCTURED_DEFAULT, payload, True), payload=payload,
                             schema=schema, max_tokens=max_tokens), None
    names = given_names(payload, key)
    schema = render_schema(payload, names)
    if lever == "names":
        schema = for_server(schema, patterns=False)   # the length bounds alone
    return RenderRequest(prompt=fill_render(RENDER_ASSIGNED_DEFAULT, payload, True, names), payload=payload,
                         schema=schema, max_tokens=max_tokens), names


async def render_one(provider, lever: str, sk, max_tokens: int, before: dict | None) -> dict:
    """One skeleton through one lever, repair rounds included: what each round was judged. A repair
    lever goes on from `before` (the patterns lever's rounds of this skeleton: greedy, so the same)."""
    payload = sk.redact()
    request, names = request_for(lever, payload, sk.identity, max_tokens)
    rounds = int(lever[len("repair"):]) if lever.startswith("repair") else 0
    out, reasons, started = [], (), time.perf_counter()
    if before is not None:
        out = list(before["rounds"])
        reasons = tuple(out[-1]["checks"])
        if out[-1]["status"] != "unfaithful":
            return {**before, "lever": lever}
    for r in range(len(out), rounds + 1):
        asked = request if r == 0 else replace(request, prompt=fill_repair(request.prompt, reasons, names))
        judged = judge(await provider.render(asked), "structured", sk.answer_options, payload, names)
        out.append({"status": judged.completion.status, "checks": list(judged.checks),
                    "tokens": judged.completion.usage.completion_tokens, "raw": judged.raw})
        if judged.completion.status != "unfaithful":
            break
        reasons = judged.checks
    return {"lever": lever, "skeleton": sk.identity, "family": sk.family, "complexity": sk.complexity,
            "rounds": out, "seconds": time.perf_counter() - started}


async def main_async(args) -> None:
    grid = load_grid(ROOT / "configs" / "grid.yaml", require_keys=False)
    sks = list(skeletons(grid)) + list(make_plan(1, ["short", "medium"]).items(args.extra))
    if args.family:
        sks = [sk for sk in sks if sk.family in args.family]
    provider = build_provider(parse_provider("r", {"kind": "vllm", "model": args.model, "base_url": args.url,
                                                   "max_concurrency": args.concurrency, "read_timeout_s": 900},
                                             env={}), env={})
    await provider.start()
    out = open(args.out, "ab") if args.out else None
    print(f"{len(sks)} skeletons; {args.url}")
    print(f"{'lever':<9} {'n':>4} {'first':>6} {'final':>6} {'s/render':>8}  top reasons left")
    done: dict[str, dict[str, dict]] = {}
    try:
        for lever in args.levers.split(","):
            started = time.perf_counter()
            before = done.get("repair1" if lever == "repair2" else "patterns") if lever.startswith("repair") else None
            rows = await asyncio.gather(*(render_one(provider, lever, sk, args.max_tokens,
                                                     before[sk.identity] if before else None) for sk in sks))
            done[lever] = {r["skeleton"]: r for r in rows}
            wall = time.perf_counter() - started
            first = sum(r["rounds"][0]["status"] == "ok" for r in rows)
            final = sum(r["rounds"][-1]["status"] == "ok" for r in rows)
            left = Counter(code for r in rows if r["rounds"][-1]["status"] != "ok"   # renders per reason
                           for code in {reason_code(c) for c in r["rounds"][-1]["checks"]} or {r["rounds"][-1]["status"]})
            top = ", ".join(f"{k} {v}" for k, v in sorted(left.items(), key=lambda kv: (-kv[1], kv[0]))[:4]) or "-"
            print(f"{lever:<9} {len(rows):>4} {first / len(rows):>6.3f} {final / len(rows):>6.3f} "
                  f"{wall / len(rows):>8.2f}  {top}", flush=True)   # s/render: wall time over renders
            if out:
                out.writelines(orjson.dumps(r, option=orjson.OPT_APPEND_NEWLINE) for r in rows)
                out.flush()
    finally:
        await provider.close()
        if out:
            out.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--extra", type=int, default=120, help="skeletons beyond the default grid's")
    ap.add_argument("--levers", default=",".join(LEVERS))
    ap.add_argument("--max-tokens", type=int, default=1536)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--out", help="append every render (JSONL) here")
    ap.add_argument("--family", action="append", help="only this family's skeletons (repeatable)")
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
