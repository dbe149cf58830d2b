"""The pages of `bench view`: the grid, a cell, a unit, a comparison; each a template filled from a snapshot.

Every value from a run (model text above all) reaches the page through Jinja2's autoescaping: it is shown as
text, never run. Links carry their query in the URL, so a page can be bookmarked or written out whole
(`--bundle`)."""
from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urlencode

import jinja2

from rendering.structure import parse, premise_verdicts
from runner.intervals import wilson
from runner.reporting.compare import paired_answers
from runner.reporting.load import Outcome
from runner.store.sinks import RENDERS, SOLVES
from runner.view.data import Runs, Snapshot

STATUSES = ("correct", "wrong", "invalid", "error", "unfaithful", "unchecked")
PAGE = 100   # units per cell page
SHOWN_PAIRS = 500   # discordant pairs listed per comparison section (all are counted)

ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                         autoescape=True, undefined=jinja2.ChainableUndefined, trim_blocks=True, lstrip_blocks=True)


class NotFound(Exception):
    """A page asked for something the runs do not hold: the message says what."""


class Links:
    """How pages link each other: URLs with a query (the server), or file names (a `--bundle`)."""

    static = False


def link(path: str, **query: Any) -> str:
    """A page's URL with its query (None and empty values left out), or its file name in a bundle."""
    q = {k: v for k, v in query.items() if v is not None and v != "" and not (k == "page" and str(v) == "0")}
    if Links.static:
        if path.strip("/") in ("", "index.html"):
            return "index.html"
        digest = hashlib.blake2b(urlencode(sorted(q.items())).encode(), digest_size=6).hexdigest()
        return f"{path.strip('/')}-{digest}.html"
    return path + ("?" + urlencode(q) if q else "")


def status_of(o: Outcome) -> str:
    """A solve unit's status as a reviewer sorts them: correct, wrong, invalid, error, unfaithful, unchecked."""
    if o.status == "error":
        return "error"
    if o.render_status in ("unfaithful", "unchecked"):
        return o.render_status
    if o.status != "ok":
        return "invalid"
    return "correct" if o.correct else "wrong"


def grid_page(snap: Snapshot) -> str:
    """The renderer x solver heatmap of every run (accuracy, n, 95% interval) and the renders' fidelity."""
    cells: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in snap.rows:
        c = cells[(r.run, r.renderer, r.solver)]
        c[0] += r.correct
        c[1] += r.n
    runs = []
    for run in sorted({k[0] for k in cells} | set(snap.loaded.grids)):
        renderers = sorted({k[1] for k in cells if k[0] == run})
        solvers = sorted({k[2] for k in cells if k[0] == run})
        table = []
        for renderer in renderers:
            row = []
            for solver in solvers:
                correct, n = cells.get((run, renderer, solver), (0, 0))
                lo, hi = wilson(correct, n)
                row.append({"solver": solver, "n": n, "accuracy": correct / n if n else None, "lo": lo, "hi": hi,
                            "href": link("cell", run=run, renderer=renderer, solver=solver)})
            table.append({"renderer": renderer, "cells": row})
        fidelity = [{"row": f, "href": link("cell", run=run, renderer=f.renderer, solver=solvers[0] if solvers else "",
                                            family=f.family, complexity=f.complexity)}
                    for f in snap.fidelity if f.run == run]
        runs.append({"name": run, "solvers": solvers, "renderers": renderers, "table": table, "fidelity": fidelity})
    return ENV.get_template("grid.html").render(runs=runs, made_at=snap.made_at, link=link)


def cell_page(snap: Snapshot, q: Mapping[str, str]) -> str:
    """One cell's units, filtered by family, complexity, status and reason, sorted, a page at a time."""
    run, renderer, solver = q.get("run", ""), q.get("renderer", ""), q.get("solver", "")
    units = snap.cell(run, renderer, solver)
    if not units:
        raise NotFound(f"no answers of {solver!r} on {renderer!r} renders in run {run!r}")
    families = sorted({o.family for o in units})
    complexities = sorted({o.complexity for o in units})
    reasons = sorted({o.reason for o in units if o.reason})
    chosen = {k: q.get(k, "") for k in ("family", "complexity", "status", "reason", "sort")}
    rows = [o for o in units if (not chosen["family"] or o.family == chosen["family"])
            and (not chosen["complexity"] or str(o.complexity) == chosen["complexity"])
            and (not chosen["status"] or status_of(o) == chosen["status"])
            and (not chosen["reason"] or o.reason == chosen["reason"])]
    order = {"latency": lambda o: -(o.latency_s or 0), "complexity": lambda o: (o.complexity, o.skeleton),
             "status": lambda o: (STATUSES.index(status_of(o)), o.skeleton)}.get(chosen["sort"],
                                                                                 lambda o: (o.skeleton, o.sample))
    rows.sort(key=order)
    page = max(0, int(q.get("page", "0") or 0)) if str(q.get("page", "0") or "0").isdigit() else 0
    shown = rows[page * PAGE:(page + 1) * PAGE]
    base = dict(run=run, renderer=renderer, solver=solver, **chosen)
    return ENV.get_template("cell.html").render(
        run=run, renderer=renderer, solver=solver, families=families, complexities=complexities, reasons=reasons,
        statuses=STATUSES, chosen=chosen, total=len(rows), page=page, pages=(len(rows) + PAGE - 1) // PAGE,
        units=[{"o": o, "status": status_of(o),
                "href": link("unit", run=run, renderer=renderer, skeleton=o.skeleton, rs=o.render_sample)}
               for o in shown],
        counts={s: sum(1 for o in units if status_of(o) == s) for s in STATUSES}, base=base, link=link)


def unit_page(runs: Runs, snap: Snapshot, q: Mapping[str, str]) -> str:
    """One render unit: its skeleton, its render premise by premise with the check's verdict (every round),
    and every solver's answer on it."""
    run, renderer, identity = q.get("run", ""), q.get("renderer", ""), q.get("skeleton", "")
    sample = int(q.get("rs", "0")) if q.get("rs", "0").isdigit() else 0
    key = snap.render_key(run, renderer, identity, sample)
    if key is None:
        raise NotFound(f"no renderer {renderer!r} in run {run!r}")
    sk = runs.skeleton(run, identity)
    if sk is None:
        raise NotFound(f"no skeleton {identity!r} in the source of run {run!r}")
    proof = set(sk.proof)
    facts = [{"i": i, "text": str(f), "proof": str(f) in proof} for i, f in enumerate(sk.facts)]
    payload = sk.redact()
    rounds = []
    for rec in sorted(snap.records(run, RENDERS, key), key=lambda r: (r.get("round") or 0, r.get("finished_at") or 0)):
        parsed = parse(rec.get("raw") or "") if rec.get("format") == "structured" and rec.get("raw") else None
        verdicts = premise_verdicts(parsed, payload, parsed.names) if parsed is not None and not isinstance(parsed, str) \
            else []
        rounds.append({"rec": rec, "verdicts": verdicts, "names": getattr(parsed, "names", {}) or {}})
    answers = sorted(snap.records(run, SOLVES, key), key=lambda r: (r["solver"], r["sample"], r.get("finished_at") or 0))
    return ENV.get_template("unit.html").render(run=run, renderer=renderer, sk=sk, facts=facts, rounds=rounds,
                                                answers=answers, key=key, link=link)


def compare_page(snap: Snapshot, q: Mapping[str, str]) -> str:
    """Two solvers on the same renders (or two renderers under one solver): the units where one is right and
    the other wrong, the McNemar pairs `bench report --compare` counts, each a link."""
    kind = "renderer" if q.get("kind") == "renderer" else "solver"
    a, b, run = q.get("a", ""), q.get("b", ""), q.get("run", "")
    outcomes = [o for o in snap.loaded.outcomes if not run or o.run == run]
    names = sorted({getattr(o, kind) for o in outcomes})
    groups = paired_answers(outcomes, kind, a, b) if a and b and a != b else {}
    sections = []
    for (group_run, within), items in sorted(groups.items()):
        pairs = []
        for (urun, other, skeleton, rs, sample), got in sorted(items):
            ra, rb = got.get(a), got.get(b)
            if ra is None or rb is None or ra == rb:
                continue
            renderer = other if kind == "solver" else (a if ra else b)
            pairs.append({"skeleton": skeleton, "rs": rs, "sample": sample, "right": a if ra else b,
                          "href": link("unit", run=urun, renderer=renderer, skeleton=skeleton, rs=rs)})
        sections.append({"run": group_run, "within": within, "pairs": pairs[:SHOWN_PAIRS], "more": len(pairs) - SHOWN_PAIRS,
                         "a_only": sum(1 for p in pairs if p["right"] == a),
                         "b_only": sum(1 for p in pairs if p["right"] == b)})
    return ENV.get_template("compare.html").render(kind=kind, a=a, b=b, run=run, names=names, sections=sections,
                                                   runs=sorted(snap.loaded.grids), link=link)
