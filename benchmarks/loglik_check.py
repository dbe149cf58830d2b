"""Loglik scoring on the local SmolLM2 vLLM server: agreement with lm-evaluation-harness, throughput against a
bare aiohttp loop, and the card's per-hop accuracy in both option styles.

    python benchmarks/loglik_check.py --items 1000 --seed 42 [--lm-eval-python /tmp/lmvenv/bin/python] [--boundary echo]

Starts the server with bench's launcher (the default grid's CPU settings), makes the card's items
(`bench generate --format logicmark`, context `If: ... Then`, options as endings, delimiter " "), scores
every option with our provider, and, when an interpreter with lm-eval is given, the same (context,
continuation) pairs with lm-eval's `local-completions` model on the same server. `--boundary echo` scores as
for a server without /tokenize (the context as one more text prompt, its echoed tokens marking the
boundary), so that way is checked against lm-eval too. Prints one JSON object.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LAUNCH = {"model": "smollm2-135m", "args": {"dtype": "float32", "enforce_eager": True, "max_model_len": 2048},
          "env": {"VLLM_CPU_KVCACHE_SPACE": "1"}, "served_name": "smollm2-135m", "startup_timeout_s": 600}
LM_EVAL = r"""
import json, sys
from lm_eval.api.instance import Instance
from lm_eval.models.openai_completions import LocalCompletionsAPI
url, model, tokenizer, pairs_file = sys.argv[1:5]
pairs = json.load(open(pairs_file))
lm = LocalCompletionsAPI(base_url=url + "/completions", model=model, tokenizer=tokenizer,
                         tokenizer_backend="huggingface", num_concurrent=8, max_retries=3, batch_size=1)
reqs = [Instance(request_type="loglikelihood", doc={}, arguments=(c, x), idx=i) for i, (c, x) in enumerate(pairs)]
print(json.dumps([r[0] for r in lm.loglikelihood(reqs, disable_tqdm=True)]))
"""


def items(n: int, seed: int, distractors: str) -> list[dict]:
    """The card's records for n items (as `bench generate --format logicmark` writes them)."""
    from families.logicmark import logicmark_record
    from runner.commands.skeletons import LOGICMARK_HOP_DIST
    from runner.source.generate import make_plan
    plan = make_plan(seed, families=["equality"], hop_dist=LOGICMARK_HOP_DIST, distractors=distractors)
    return [json.loads(logicmark_record(sk, i)) for i, sk in enumerate(plan.items(n))]


def from_file(path: Path, n: int, style: str) -> list[dict]:
    """The first n records of a LogicMark file: as they are (ours), or with the options rewritten in the
    card's style (card: gold, flip, two false statements, as `--distractors card` makes them)."""
    from families.equality import card_style
    from families.logicmark import logicmark_record, skeleton_from_logicmark
    lines = path.read_text().splitlines()[:n]
    if style == "ours":
        return [json.loads(line) for line in lines]
    return [json.loads(logicmark_record(card_style(skeleton_from_logicmark(line, i + 1)), i))
            for i, line in enumerate(lines)]


async def ours(url: str, records: list[dict], concurrency: int, boundary_from: str = "auto") -> tuple[list, float]:
    """Every item scored by our provider: its OptionScores, and the wall time."""
    from providers.base import SolveRequest
    from providers.build import build_provider
    from providers.config import parse_provider
    p = build_provider(parse_provider("smollm", {"kind": "vllm", "model": "smollm2-135m", "base_url": url,
                                                  "max_concurrency": concurrency}, env={}), env={})
    p.boundary_from = boundary_from
    await p.start()
    try:
        started = time.perf_counter()
        results = await asyncio.gather(*(p.score(SolveRequest(prompt=r["context"], labels=tuple(r["options"]),
                                                              mode="loglik")) for r in records))
        return results, time.perf_counter() - started
    finally:
        await p.close()


async def bare(url: str, records: list[dict], concurrency: int) -> float:
    """The same requests (tokenize the context and each whole text, at once, then one completions request per
    item) from the simplest aiohttp loop: one session, a semaphore. Its wall time."""
    import aiohttp
    root = url[:-3]
    sem = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession() as s:
        async def tok(text: str) -> list[int]:
            async with s.post(root + "/tokenize", json={"model": "smollm2-135m", "prompt": text,
                                                         "add_special_tokens": False}) as r:
                return (await r.json())["tokens"]

        async def one(r: dict) -> None:
            async with sem:
                _, *wholes = await asyncio.gather(tok(r["context"]), *(tok(r["context"] + " " + o) for o in r["options"]))
                async with s.post(url + "/completions", json={"model": "smollm2-135m", "prompt": wholes,
                                                               "max_tokens": 1, "temperature": 0.0, "echo": True,
                                                               "logprobs": 1}) as resp:
                    await resp.json()
        started = time.perf_counter()
        await asyncio.gather(*(one(r) for r in records))
        return time.perf_counter() - started


def accuracy(records: list[dict], results: list) -> dict:
    """Per hop: accuracy of the mean-per-token choice, and the share of picks in the listed complementary pair."""
    by_hop: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r, res in zip(records, results):
        gold = r["options"][r["answer_index"]]
        flip = gold.replace(" != ", " = ") if " != " in gold else gold.replace(" = ", " != ")
        h = by_hop[r["hop_depth"]]
        h[0] += 1
        h[1] += res.label == gold
        h[2] += res.label in (gold, flip)
    out = {str(h): {"n": v[0], "accuracy": round(100 * v[1] / v[0], 1), "in_pair": round(100 * v[2] / v[0], 1)}
           for h, v in sorted(by_hop.items())}
    n, right = sum(v[0] for v in by_hop.values()), sum(v[1] for v in by_hop.values())
    out["pooled"] = round(100 * right / n, 1)
    out["macro"] = round(sum(v["accuracy"] for k, v in out.items() if k != "pooled") / len(by_hop), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--lm-eval-python", default=None, help="An interpreter that can import lm_eval.")
    ap.add_argument("--url", default=None, help="A running server (else one is started).")
    ap.add_argument("--styles", default="ours,card", help="Option styles to score, of ours,card.")
    ap.add_argument("--file", type=Path, default=None,
                    help="Score this LogicMark file (context, options, answer_index, hop_depth) instead of making items; "
                         "its style card rewrites the file's options in the card's style.")
    ap.add_argument("--boundary", choices=["auto", "echo"], default="auto",
                    help="echo: score as for a server without /tokenize (no bare-loop comparison then).")
    args = ap.parse_args()
    from runner.serving.models import prepare
    from runner.serving.servers import start_servers
    servers = None
    url = args.url
    if url is None:
        servers = start_servers({"smollm": LAUNCH}, Path(tempfile.mkdtemp(prefix="loglik-")))
        url = servers.servers[0].url
    try:
        report: dict = {"items": args.items, "seed": args.seed, "boundary": args.boundary}
        for style in args.styles.split(","):
            records = items(args.items, args.seed, style) if args.file is None else \
                from_file(args.file, args.items, style)
            results, wall = asyncio.run(ours(url, records, args.concurrency, args.boundary))
            errors = [r.reason for r in results if r.status != "ok"]
            if errors:
                sys.exit(f"{len(errors)} items failed: {errors[0]}")
            report[style] = {"per_hop": accuracy(records, results), "items_per_s": round(len(records) / wall, 1)}
            if style == "ours" and args.boundary == "auto":
                bare_wall = asyncio.run(bare(url, records, args.concurrency))
                report["throughput_ratio"] = round(bare_wall / wall, 3)
                report["bare_items_per_s"] = round(len(records) / bare_wall, 1)
            if style == "ours" and args.lm_eval_python:
                report["lm_eval"] = compare(args.lm_eval_python, url, records, results, str(prepare("smollm2-135m")))
        print(json.dumps(report, indent=2))
    finally:
        if servers is not None:
            servers.stop()


def compare(python: str, url: str, records: list[dict], results: list, tokenizer: str) -> dict:
    """lm-eval's log-likelihood of every (context, " " + option) pair, against ours."""
    pairs = [(r["context"], " " + o) for r in records for o in r["options"]]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(pairs, fh)
    proc = subprocess.run([python, "-c", LM_EVAL, url, "smollm2-135m", tokenizer, fh.name], capture_output=True,
                          text=True, env={**os.environ, "TOKENIZERS_PARALLELISM": "false"})
    if proc.returncode != 0:
        return {"error": proc.stderr[-2000:]}
    theirs = json.loads(proc.stdout.strip().splitlines()[-1])
    mine = [s.logprob for res in results for s in res.scores]
    diffs = [abs(a - b) for a, b in zip(mine, theirs)]
    same_pick, k = 0, 0
    for res in results:
        n = len(res.scores)
        t = theirs[k:k + n]
        same_pick += max(range(n), key=lambda i: res.scores[i].logprob) == max(range(n), key=lambda i: t[i])
        k += n
    return {"options": len(diffs), "within_0.01": round(100 * sum(d <= 0.01 for d in diffs) / len(diffs), 2),
            "max_abs_diff": round(max(diffs), 5), "same_pick_by_sum": round(100 * same_pick / len(results), 2)}


if __name__ == "__main__":
    main()
