"""How much of a blind corpus of natural paraphrases the reader reads, and how much of its wrong ones it lets by.

    python -m benchmarks.corpus_coverage [--corpus benchmarks/corpus] [--part dev|held-out|all] [--list KIND]
    python benchmarks/corpus_coverage.py --template-speed   # with PYTHONPATH set to the tree to time
    python benchmarks/corpus_coverage.py --cold-speed --corpus DIR   # likewise, a corpus's renders read cold

The corpus (benchmarks/corpus/README.md) was written blind, by another hand, from the specs alone: premises,
questions and whole renders, each faithful or wrong, and pairs of names that look alike or not. Every row is
read by the check itself (families/reading.py, rendering/structure.py), with no auditor. A third of each
file is held out: the rows whose text's blake2b digest is 0 mod 3 were never looked at while the grammar
was extended (`--part held-out` reports them alone). `--list premises|questions|renders|names` prints every
row of the part with its verdict, for reading them one by one.
"""
from __future__ import annotations

import argparse
import hashlib
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson

from families.reading import Marked, reader
from families.registry import FAMILIES
from rendering.lookalike import looks
from rendering.render import StructuredRender
from rendering.structure import check

TYPES = {"transitive_order": "Entity", "sequential_state_update": "Counter", "equality": "Variable"}


def held_out(text: str) -> bool:
    """The held-out third: rows whose text's digest is 0 mod 3 (stable, blind to content)."""
    return hashlib.blake2b(text.encode(), digest_size=8).digest()[0] % 3 == 0


def _rows(path: Path, part: str, key) -> list[dict]:
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]   # own parser: a corpus
    if part == "all":
        return rows
    return [r for r in rows if held_out(key(r)) == (part == "held-out")]


def _typed(family: str, facts: list, query: dict | None) -> dict[str, str]:
    """Each symbol (a name of the corpus, used as its own symbol) and its type, from the predicates' signatures."""
    fam, types = FAMILIES[family], {}
    for pred, args in facts + ([(query["predicate"], query["args"])] if query else []):
        sig = fam.predicates.get(pred) or fam.queries.get(pred) or ()
        for a, t in zip(args, sig):
            if isinstance(a, str):
                types[a] = t
    return types


def _labels(r: dict) -> tuple[str, ...]:
    """The answer labels of a row's skeleton: the family's own (a row's `options` may be a wrong render's own
    list), or the row's options where a family has none of its own (numbers, equality's statements)."""
    return tuple(FAMILIES[r["family"]].labels or map(str, r["options"]))


def _count(out: dict[str, list[int]], group: str, r: dict, v: Any, what: str, listing: bool) -> None:
    """One row's verdict `v` into its group's [faithful, faithful read, faithful misread, wrong, wrong read];
    with `listing`, its line (`what`: how the row is named)."""
    c = out[group]
    if r["faithful"]:
        c[0] += 1
        c[1] += v.kind == "read"
        c[2] += v.kind == "misread"
    else:
        c[3] += 1
        c[4] += v.kind == "read"
    if listing:
        print(f"{'ok ' if (v.kind == 'read') == r['faithful'] else 'BAD'} {r['faithful']!s:<5} {v.kind:<7} "
              f"{what}: {r['text']}  [{v.detail}{'; ' + r['why'] if r['why'] else ''}]")


def premises(rows: list[dict], listing: bool) -> dict[str, list[int]]:
    """Per predicate: [faithful, faithful read, faithful misread, wrong, wrong read]."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        types = _typed(r["family"], [(r["predicate"], r["args"])], None)
        names = {s: s for s in types}
        v = reader(r["family"]).read_fact(r["text"], (r["predicate"], tuple(r["args"])), Marked(names, types), types)
        _count(out, r["predicate"], r, v, f"{r['predicate']}{tuple(r['args'])}", listing)
    return out


def questions(rows: list[dict], listing: bool) -> dict[str, list[int]]:
    """Per family: [faithful, faithful read, faithful misread, wrong, wrong read]."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        q = r["query"]
        types = _typed(r["family"], [], q)
        names = {s: s for s in types}
        v = reader(r["family"]).read_question(r["text"], (q["predicate"], tuple(q["args"])), Marked(names, types),
                                              types, _labels(r))
        _count(out, r["family"], r, v, r["family"], listing)
    return out


def payload_of(r: dict) -> dict[str, Any]:
    """A corpus render's skeleton as the check takes it (the redacted payload)."""
    # a fact as [predicate, args] or as {"predicate", "args"} (the two blind writers' shapes)
    facts = [(f["predicate"], f["args"]) if isinstance(f, dict) else (f[0], f[1]) for f in r["facts"]]
    types = _typed(r["family"], facts, r["query"])
    return {"id": "corpus", "family": r["family"], "entities": types,
            "facts": [{"predicate": p, "arguments": a} for p, a in facts],
            "query": {"predicate": r["query"]["predicate"], "arguments": r["query"]["args"]},
            "answer_options": list(_labels(r))}


def renders(rows: list[dict], listing: bool) -> tuple[dict[str, list[int]], float]:
    """Per family: [faithful, faithful ok, defective, defective ok]; and the check's µs per render."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    spent = 0.0
    looks("warm")   # the confusables table loads once a process (0.3 s): no render's cost
    for r in rows:
        payload = payload_of(r)
        render = StructuredRender({s: s for s in payload["entities"]}, tuple(enumerate(r["premises"])),
                                  r["question"], r["intro"])
        t = time.perf_counter()
        reasons = check(render, payload)
        spent += time.perf_counter() - t
        c = out[r["family"]]
        c[0 if r["faithful"] else 2] += 1
        c[1 if r["faithful"] else 3] += not reasons
        if listing:
            print(f"{'ok ' if (not reasons) == r['faithful'] else 'BAD'} {r['faithful']!s:<5} {r['family']} "
                  f"{r.get('defect_field', '')}: {'; '.join(reasons) or 'ok'}  [{r['why']}]")
    return out, spent / max(1, len(rows)) * 1e6


def names(rows: list[dict], listing: bool) -> list[int]:
    """[look-alike pairs, refused; distinct pairs, refused]: a two-name render of each pair, checked."""
    out = [0, 0, 0, 0]
    for r in rows:
        a, b = r["a"], r["b"]
        payload = {"id": "names", "family": "transitive_order", "entities": {"X": "Entity", "Y": "Entity"},
                   "facts": [{"predicate": "LEFT_OF", "arguments": ["X", "Y"]}],
                   "query": {"predicate": "RELATION", "arguments": ["X", "Y"]},
                   "answer_options": ["LEFT_OF", "RIGHT_OF", "UNKNOWN"]}
        render = StructuredRender({"X": a, "Y": b}, ((0, f"{a} is to the left of {b}."),),
                                  f"Where does {a} stand relative to {b}?")
        refused = [c for c in check(render, payload) if c.split(":")[0] in
                   ("lookalike_names", "duplicate_name", "hidden_character")]
        k = 0 if r["same_looking"] else 2
        out[k] += 1
        out[k + 1] += bool(refused)
        if listing:
            print(f"{'ok ' if bool(refused) == r['same_looking'] else 'BAD'} {a!r} {b!r} same={r['same_looking']}: "
                  f"{'; '.join(refused) or 'accepted'}  [{r['why']}]")
    return out


def template_speed(per_family: int = 300, rounds: int = 7) -> float:
    """µs per check of a template render (warm, as in a run: its sentences repeat), best of `rounds`. Imports only
    what older trees have too: `PYTHONPATH=OLD python benchmarks/corpus_coverage.py --template-speed` times them."""
    from providers.builtin import template_structure
    from rendering.structure import from_object
    from tests.conftest import make
    items = []
    for fam in sorted(FAMILIES):
        for i in range(per_family):
            p = make(fam, i, 1 + i % 10).redact()
            items.append((from_object(template_structure(p)), p))
    for r in items:
        assert check(*r) == [], r
    best = float("inf")
    for _ in range(rounds):   # CPU time: the machine is shared, and wall time counts the others' work
        t = time.process_time()
        for r in items:
            check(*r)
        best = min(best, time.process_time() - t)
    return best / len(items) * 1e6


def cold_speed(corpus: Path) -> float:
    """CPU µs per check of a corpus's renders read the first time (cold memos), after the readers are built by its
    premises and the confusables table is loaded, as in `renders`. Uses only what older trees have too:
    `PYTHONPATH=OLD python benchmarks/corpus_coverage.py --cold-speed DIR` times them."""
    premises(_rows(corpus / "premises.jsonl", "all", None), False)
    rows = _rows(corpus / "renders.jsonl", "all", None)
    looks("warm")
    t = time.process_time()
    renders(rows, False)
    return (time.process_time() - t) / max(1, len(rows)) * 1e6


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path(__file__).parent / "corpus")
    ap.add_argument("--part", choices=("dev", "held-out", "all"), default="all")
    ap.add_argument("--list", choices=("premises", "questions", "renders", "names"))
    ap.add_argument("--template-speed", action="store_true", help="time the check of template renders only")
    ap.add_argument("--cold-speed", action="store_true", help="time the first check of the corpus's renders only")
    args = ap.parse_args()
    if args.template_speed:
        print(f"template render check: {template_speed():.1f} µs a render (CPU, best of 7, 1,200 renders)")
        return
    if args.cold_speed:
        print(f"corpus render check, first reading: {cold_speed(args.corpus):.0f} µs a render (CPU)")
        return
    c = args.corpus
    prem = premises(_rows(c / "premises.jsonl", args.part, lambda r: r["text"]), args.list == "premises")
    ques = questions(_rows(c / "questions.jsonl", args.part, lambda r: r["text"]), args.list == "questions")
    rend, us = renders(_rows(c / "renders.jsonl", args.part, lambda r: r["question"] + "".join(r["premises"])),
                       args.list == "renders")
    # a corpus may have no look-alike name pairs (the held-out one has none)
    pairs = _rows(c / "names.jsonl", args.part, lambda r: r["a"] + r["b"]) if (c / "names.jsonl").exists() else []
    nm = names(pairs, args.list == "names")
    print(f"\npart: {args.part}\n\n| premises of | faithful read | faithful misread | wrong not read |\n|---|---:|---:|---:|")
    tot = [0] * 5
    for pred, v in sorted(prem.items()):
        tot = [a + b for a, b in zip(tot, v)]
        print(f"| {pred} | {_pct(v[1], v[0])} | {_pct(v[2], v[0])} | {_pct(v[3] - v[4], v[3])} |")
    print(f"| all | {_pct(tot[1], tot[0])} | {_pct(tot[2], tot[0])} | {_pct(tot[3] - tot[4], tot[3])} |")
    print("\n| questions of | faithful read | faithful misread | wrong not read |\n|---|---:|---:|---:|")
    for fam, v in sorted(ques.items()):
        print(f"| {fam} | {_pct(v[1], v[0])} | {_pct(v[2], v[0])} | {_pct(v[3] - v[4], v[3])} |")
    print("\n| renders of | faithful ok | defective not ok |\n|---|---:|---:|")
    tot = [0] * 4
    for fam, v in sorted(rend.items()):
        tot = [a + b for a, b in zip(tot, v)]
        print(f"| {fam} | {_pct(v[1], v[0])} | {_pct(v[2] - v[3], v[2])} |")
    print(f"| all | {_pct(tot[1], tot[0])} | {_pct(tot[2] - tot[3], tot[2])} |")
    print(f"\nnames: look-alike pairs refused {_pct(nm[1], nm[0])}; distinct pairs accepted {_pct(nm[2] - nm[3], nm[2])}")
    print(f"check of a corpus render (first reading, cold memos): {us:.0f} µs")


if __name__ == "__main__":
    main()
