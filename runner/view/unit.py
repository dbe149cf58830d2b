"""The unit page of `bench view`: one render unit found by its key alone, its verdict and every answer first,
then its render premise by premise with the verdicts its own check stored (never a new reading), earlier
repair rounds folded, the skeleton with its proof marked, and the way back and on."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from families.ir import Skeleton
from rendering.structure import parse
from runner.store.logs import newer
from runner.store.sinks import RENDERS, SOLVES
from runner.view.data import Runs, Snapshot
from runner.view.listing import FILTERS, answer_of, select, verdict_of
from runner.view.pages import Links, NotFound, link, render

_PREMISE = re.compile(r"^(misread|unread): the premise of fact (\d+) (\S+)\s*(.*)$", re.DOTALL)
_QUESTION = re.compile(r"^misread: the question (.*), where the query is (\S+)$", re.DOTALL)
_FACT = re.compile(r"^(missing_fact|duplicate_fact): fact (\d+) (\S+)\s*(.*)$", re.DOTALL)


def proof_facts(sk: Skeleton) -> set[str]:
    """The facts a skeleton's proof uses, spelled as str(fact): a step `DECREMENT(C0,11) -> 38` uses its
    update, and a counter's updates start from its INITIAL_VALUE (sequential_state_update)."""
    steps = {str(p).split(" -> ", 1)[0].replace(" ", "") for p in sk.proof}
    touched = {m.group(1) for s in steps if (m := re.match(r"\w+\(([^,()]+)", s))}
    return {str(f) for f in sk.facts if str(f).replace(" ", "") in steps
            or (f.predicate == "INITIAL_VALUE" and f.arguments and str(f.arguments[0]) in touched)}


def premise_table(rec: Mapping, sk: Skeleton | None, proof: set[str]) -> tuple[list[dict], list[str]]:
    """A render round's premises, each with the verdict its check stored (`checks`), facts it left out or
    stated twice, and the question; and the checks that name no premise (intro, names, shape)."""
    by_fact: dict[int, tuple[str, str]] = {}
    question, other = ("", ""), []
    checks = [str(c) for c in rec.get("checks") or []] if isinstance(rec.get("checks"), list) else []
    faithful = rec.get("status") == "ok"
    for c in checks:
        if m := _PREMISE.match(c):
            kind = "unread (read by the auditor)" if faithful and m.group(1) == "unread" else m.group(1)
            by_fact[int(m.group(2))] = (kind, m.group(4))
        elif m := _QUESTION.match(c):
            question = ("misread", m.group(1))
        elif m := _FACT.match(c):
            by_fact.setdefault(int(m.group(2)), ("missing" if m.group(1) == "missing_fact" else "twice", m.group(4)))
        else:
            other.append(c)
    raw = rec.get("raw")   # a renderer's text; a hand edit may hold any JSON value there (an object was a 500)
    parsed = parse(raw) if rec.get("format") == "structured" and isinstance(raw, str) and raw else None
    if parsed is None or isinstance(parsed, str):
        return [], checks if parsed is not None else other
    facts = [str(f) for f in sk.facts] if sk is not None else []
    rows, stated = [], set()
    for i, text in parsed.premises:
        stated.add(i)
        kind, detail = by_fact.get(i, ("read", ""))
        fact = facts[i] if 0 <= i < len(facts) else f"fact {i}"
        rows.append({"index": i, "fact": fact, "text": text, "kind": kind, "detail": detail, "proof": fact in proof})
    for i, (kind, detail) in sorted(by_fact.items()):
        if i not in stated:
            fact = facts[i] if 0 <= i < len(facts) else f"fact {i}"
            rows.append({"index": i, "fact": fact, "text": "", "kind": kind, "detail": detail, "proof": fact in proof})
    query = str(sk.query) if sk is not None else ""
    rows.append({"index": -1, "fact": query, "text": parsed.question, "kind": question[0] or "question",
                 "detail": question[1] or ("" if question[0] else "not misread (the check flags a question only "
                                           "when it says another query)"), "proof": False})
    return rows, other


def _best_answers(recs: list[dict]) -> list[dict]:
    """One record per (solver, sample): the newest terminal one, else the newest."""
    best: dict[tuple, dict] = {}
    for r in recs:
        at = (r.get("solver"), r.get("sample"))
        old = best.get(at)
        at_time = r.get("finished_at")
        done = float(at_time) if isinstance(at_time, (int, float)) else 0.0
        if old is None or newer(old["status"], old.get("finished_at") or 0.0, r["status"], done):
            best[at] = r
    return [best[k] for k in sorted(best, key=lambda k: (str(k[0]), k[1] if type(k[1]) is int else 0))]


def _around(snap: Snapshot, run: str, key: str, ctx: dict[str, str]) -> tuple[str, str, int, int]:
    """The previous and next unit of the list this one was opened from, its place and the list's length."""
    keys: list[str] = []
    for row in select(snap, {"run": run, **ctx}).rows:
        if not keys or keys[-1] != row.key:
            keys.append(row.key)
    if key not in keys:
        return "", "", 0, len(keys)
    i = keys.index(key)
    prev = link("unit", run=run, key=keys[i - 1], **ctx) if i > 0 else ""
    nxt = link("unit", run=run, key=keys[i + 1], **ctx) if i + 1 < len(keys) else ""
    return prev, nxt, i + 1, len(keys)


def unit_page(runs: Runs, snap: Snapshot, q: Mapping[str, str]) -> str:
    """One render unit by its key: verdict and answers, the render's rounds, the skeleton."""
    run, key = q.get("run", ""), q.get("key", "")
    rounds = sorted(snap.records(RENDERS, key), key=lambda r: (r.get("round") or 0, r.get("finished_at") or 0))
    if not rounds:
        raise NotFound(f"no render unit {key!r} in the logs of run {run!r}")
    best = next((r for r in snap.by_renderer.get((run, rounds[-1]["renderer"]), []) if r["key"] == key), rounds[-1])
    renderer, identity = best["renderer"], str(best["skeleton"])
    sk = runs.skeleton(run, identity)
    proof = proof_facts(sk) if sk is not None else set()
    shown = []
    for rec in rounds:
        table, other = premise_table(rec, sk, proof)
        shown.append({"rec": rec, "verdict": verdict_of(rec), "premises": table, "other": other})
    ctx: dict[str, Any] = {"renderer": renderer} if Links.static else \
        {k: q[k] for k in ("renderer", "solver", *FILTERS) if q.get(k)} or {"renderer": renderer}
    ctx.setdefault("renderer", renderer)
    prev, nxt, place, count = _around(snap, run, key, ctx)
    answers = _best_answers(snap.records(SOLVES, key))
    return render("unit.html", snap, [run], refresh=False, run=run, key=key, renderer=renderer, identity=identity,
                  sk=sk, proof=proof, facts=[{"i": i, "text": str(f), "proof": str(f) in proof}
                                             for i, f in enumerate(sk.facts)] if sk is not None else [],
                  verdict=verdict_of(best), best=best, rounds=shown, answers=answers, status=_status,
                  prev=prev, next=nxt, place=place, count=count, back=link("units", run=run, **ctx),
                  back_what=" / ".join(str(v) for v in ctx.values()))


def _status(rec: Mapping) -> str:
    """An answer record's status as the lists name it."""
    if rec.get("status") == "error":
        return "error"
    if rec.get("status") != "ok":
        return "invalid"
    return "correct" if rec.get("correct") else "wrong"


__all__ = ["answer_of", "premise_table", "proof_facts", "unit_page"]
