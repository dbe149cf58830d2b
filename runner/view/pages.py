"""The pages of `bench view`: the grid, a run, a list of units, a comparison; each a template filled from a
snapshot (the unit page is in unit.py).

Every value from a run (model text above all) reaches the page through Jinja2's autoescaping: it is shown as
text, never run. Links carry their query in the URL, so a page can be bookmarked or written out whole
(`--bundle`, where each link names a file)."""
from __future__ import annotations

import hashlib
import importlib.metadata
import re
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2

from runner.intervals import wilson
from runner.plan.units import UnitPlan
from runner.reporting.compare import paired_answers
from runner.store.sinks import SOLVES
from runner.view import plots
from runner.view.data import Snapshot
from runner.view.listing import (
    ANSWERS,
    FILTERS,
    PAGE,
    VERDICTS,
    Row,
    answer_of,
    page_of,
    select,
)

SHOWN_PAIRS = 500   # discordant pairs listed per comparison section (all are counted)
REFRESH_S = 5       # a page of a running run reloads itself this often (never in a bundle)

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
        if path.strip("/") in ("", "index.html") and not q:
            return "index.html"
        digest = hashlib.blake2b(urlencode(sorted(q.items())).encode(), digest_size=6).hexdigest()
        return f"{path.strip('/') or 'grid'}-{digest}.html"
    return path + ("?" + urlencode(q) if q else "")


def _ago(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s} s" if s < 120 else f"{s // 60} min" if s < 7200 else f"{s // 3600} h"


def render(template: str, snap: Snapshot, shown: list[str], refresh: bool = True, **ctx: Any) -> str:
    """A page from its template, with the run picker and each shown run's state (running or finished)."""
    now = time.time()
    live = [{"run": r, "running": snap.running(r) or snap.stale, "ago": _ago(now - snap.changed_at.get(r, now))}
            for r in shown]
    # a preliminary grid (the whole snapshot is being read) reloads itself until the whole one replaces it
    again = any(x["running"] for x in live) or snap.partial
    return ENV.get_template(template).render(
        link=link, static=Links.static, all_runs=sorted(snap.loaded.grids), live=live, partial=snap.partial,
        made=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(snap.made_at)),
        refresh=REFRESH_S if refresh and not Links.static and again else 0, **ctx)


def _labels(snap: Snapshot, run: str) -> tuple[list[str], list[str]]:
    """A run's renderers and solvers: every one its grid names (also those with no record yet), then any
    other its records hold."""
    grid = snap.loaded.grids.get(run)
    plan = UnitPlan(grid) if grid is not None else None
    renderers = [st.label for st, _ in plan.render_parts] if plan else []
    solvers = [st.label for st, _ in plan.solve_parts] if plan else []
    for r in snap.rows:
        if r.run == run:
            renderers += [r.renderer] if r.renderer not in renderers else []
            solvers += [r.solver] if r.solver not in solvers else []
    return renderers, solvers


def _cells(snap: Snapshot, run: str) -> dict[tuple[str, str], dict]:
    """(renderer, solver) -> the cell's counts, summed from the report's rows."""
    out: dict[tuple[str, str], dict] = defaultdict(Counter)
    for r in snap.rows:
        if r.run == run:
            out[(r.renderer, r.solver)].update(
                n=r.n, correct=r.correct, invalid=r.invalid, errors=r.errors, unfaithful=r.unfaithful,
                render_failed=r.render_failed, unchecked=r.unchecked_n, unchecked_correct=r.unchecked_correct,
                sent_unfaithful=r.sent_unfaithful_n)
    return out


def _run_table(snap: Snapshot, run: str) -> dict:
    """One run's heatmap: every renderer x solver cell, each renderer's renders by verdict, chance levels."""
    renderers, solvers = _labels(snap, run)
    cells = _cells(snap, run)
    table = []
    for renderer in renderers:
        row = []
        for solver in solvers:
            c = cells.get((renderer, solver), Counter())
            lo, hi = wilson(c["correct"], c["n"])
            row.append({"solver": solver, **c, "n": c["n"], "accuracy": c["correct"] / c["n"] if c["n"] else None,
                        "lo": lo, "hi": hi, "href": link("units", run=run, renderer=renderer, solver=solver)})
        verdicts = snap.verdicts.get((run, renderer), Counter())
        table.append({"renderer": renderer, "cells": row, "href": link("units", run=run, renderer=renderer),
                      "verdicts": [(v, verdicts[v], link("units", run=run, renderer=renderer, verdict=v))
                                   for v in VERDICTS if verdicts[v]], "renders": sum(verdicts.values())})
    families = sorted({r.family for r in snap.rows if r.run == run} | snap.families.get(run, set()))
    chance = [(f, snap.loaded.chance[f]) for f in families if f in snap.loaded.chance]
    return {"name": run, "renderers": renderers, "solvers": solvers, "table": table, "chance": chance}


def grid_page(snap: Snapshot, q: Mapping[str, str] | None = None) -> str:
    """Per run (or the one picked), the renderer x solver heatmap with every failure counted, each renderer's
    renders by verdict, the plots, and the renders' fidelity by family and complexity."""
    pick = (q or {}).get("run", "")
    names = [pick] if pick else sorted(snap.loaded.grids)
    if pick and pick not in snap.loaded.grids:
        raise NotFound(f"no run {pick!r} here; the runs: {', '.join(sorted(snap.loaded.grids))}")
    runs = []
    for run in names:
        r = _run_table(snap, run)
        rows = [x for x in snap.rows if x.run == run]
        fid = [f for f in snap.fidelity if f.run == run]
        r["plots"] = [(c, p) for c, p in (
            ("Accuracy by depth per solver (answers on faithful renders, renderers pooled; dashed: chance)",
             plots.accuracy_by_depth(rows)),
            ("Faithful renders by complexity per renderer (checked renders, families pooled)",
             plots.fidelity_by_complexity(fid))) if p]
        r["fidelity"] = [{"row": f, "href": link("units", run=run, renderer=f.renderer, family=f.family,
                                                 complexity=f.complexity)} for f in fid]
        r["compare"] = _compare_links(r) if Links.static else None
        runs.append(r)
    return render("grid.html", snap, names, runs=runs, picked=pick)


def _compare_links(r: dict) -> list[tuple[str, str]]:
    """In a bundle, the comparisons as links (a form cannot be sent offline): every pair of solvers, of renderers."""
    out = []
    for kind, names in (("solver", r["solvers"]), ("renderer", r["renderers"])):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                out.append((f"{kind}s {a} vs {b}", link("compare", kind=kind, run=r["name"], a=a, b=b)))
    return out


_NUMBER = re.compile(r"\d+(\.\d+)?")


def run_page(snap: Snapshot, q: Mapping[str, str]) -> str:
    """A run's card: its grid file, versions, servers, times, its errors grouped by kind, and its heatmap."""
    run = q.get("run", "")
    grid = snap.loaded.grids.get(run)
    if grid is None:
        raise NotFound(f"no run {run!r} here; the runs: {', '.join(sorted(snap.loaded.grids))}")
    folders = [snap.folders[i] for i in snap.runs.get(run, [])]
    grid_text = ""
    for folder in folders:
        try:
            grid_text = (folder / "grid.yaml").read_text(errors="replace")
            break
        except OSError:
            continue
    providers = [{"name": p.name, "kind": p.kind, "model": p.settings.get("model", ""),
                  "urls": ", ".join(map(str, p.settings.get("base_url") or []))
                  if isinstance(p.settings.get("base_url"), list) else str(p.settings.get("base_url") or "")}
                 for p in grid.providers.values()]
    outcomes = [o for o in snap.loaded.outcomes if o.run == run]
    times = [t for t in [o.finished_at for o in outcomes] +
             [r.get("finished_at") for r in snap.loaded.renders if r["run"] == run]
             if type(t) in (int, float) and t]   # a time a record holds (a hand edit may hold a word)
    errors: Counter = Counter()
    for o in outcomes:
        if o.status == "error":
            errors[("answer", o.solver, _NUMBER.sub("N", (o.reason or "no reason")[:160]))] += 1
    for rec in snap.loaded.renders:
        if rec["run"] == run and rec["status"] == "error":
            errors[("render", rec["renderer"], _NUMBER.sub("N", str(rec.get("reason") or "no reason")[:160]))] += 1
    grouped = [{"stage": s, "who": w, "kind": k, "n": n,
                "href": link("units", run=run, renderer=w, verdict="error") if s == "render"
                else link("units", run=run, renderer="", solver=w, status="error")}
               for (s, w, k), n in errors.most_common()]
    for g in grouped:   # an answer's error: its renderer is any; link the first cell that holds one
        if g["stage"] == "answer":
            o = next(o for o in outcomes if o.status == "error" and o.solver == g["who"])
            g["href"] = link("units", run=run, renderer=o.renderer, solver=o.solver, status="error")
    try:
        version = importlib.metadata.version("logic-skeleton-bench")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return render("run.html", snap, [run], run=run, table=_run_table(snap, run), folders=folders,
                  grid_text=grid_text, providers=providers, version=version, errors=grouped,
                  first=min(times) if times else None, last=max(times) if times else None,
                  answers=len(outcomes), renders=sum(1 for r in snap.loaded.renders if r["run"] == run),
                  fmt_time=_utc)


def _utc(t: float) -> str:
    """A record's time in UTC; the number as it stands where no calendar holds it (a hand edit's 1e300 was a 500
    in the view and a traceback in --bundle)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(t))
    except (OverflowError, OSError, ValueError):
        return f"{t!r} (not a time)"


def list_page(snap: Snapshot, q: Mapping[str, str]) -> str:
    """A renderer's renders, or a cell's answers (with the renders that reached no answer), filtered."""
    run, renderer, solver = q.get("run", ""), q.get("renderer", ""), q.get("solver", "")
    if (run, renderer) not in snap.render_fp and (run, renderer) not in snap.by_renderer:
        raise NotFound(f"no renderer {renderer!r} in run {run!r}")
    sel = select(snap, q)
    # in a bundle each filter's link is a page of that filter alone: its count is that page's length
    counts = select(snap, {k: v for k, v in q.items() if k in ("run", "renderer", "solver")}).counts \
        if Links.static else sel.counts
    page, pages, note = page_of(q, len(sel.rows))
    chosen = {k: q.get(k, "") or "" for k in FILTERS}
    base = {"run": run, "renderer": renderer, "solver": solver}

    def chip(dim: str, value: str) -> str:   # a filter's link: in a bundle it stands alone (pages made ahead)
        return link("units", **base, **{dim: value}) if Links.static else \
            link("units", **base, **dict(chosen, **{dim: value}))
    dims: list[tuple[str, str, list[str]]] = [("verdict", "render", list(VERDICTS)), ("status", "answer", list(ANSWERS)),
            ("family", "family", sel.families), ("complexity", "complexity", sel.complexities)]
    filters = [{"dim": dim, "title": title, "active": chosen[dim], "all": chip(dim, ""),
                "choices": [(v, counts[dim].get(v, 0), chip(dim, v)) for v in values
                            if counts[dim].get(v, 0) or chosen[dim] == v]} for dim, title, values in dims]
    shown = sel.rows[page * PAGE:(page + 1) * PAGE]
    context = {} if Links.static else {k: v for k, v in dict(base, **chosen).items() if v and k != "run"}
    texts: dict[str, list[dict]] = {}   # the shown rows' answer records: their answer and gold (a page's worth)
    for r in shown:
        if r.answers and r.key not in texts:
            texts[r.key] = snap.records(SOLVES, r.key)

    def said(r: Row) -> tuple[str, str]:
        recs = texts.get(r.key, [])
        mine = [x for x in recs if not solver or (x.get("solver") == solver and x.get("sample") == r.answers[0].sample)]
        best = max(mine, key=lambda x: (x.get("status") == "ok", x.get("finished_at") or 0), default={})
        return str(best.get("answer") or "") if solver else "", str(best.get("gold") or "")
    units = [{"row": r, "href": link("unit", run=run, key=r.key, **context), "said": said(r),
              "answers": [(o.solver, o.sample, answer_of(o)) for o in r.answers]} for r in shown]
    return render("units.html", snap, [run], run=run, renderer=renderer, solver=solver, filters=filters,
                  chosen=chosen, total=len(sel.rows), page=page, pages=pages, note=note, units=units, base=base,
                  prev=link("units", **base, **chosen, page=page - 1) if page > 0 else "",
                  next=link("units", **base, **chosen, page=page + 1) if page + 1 < pages else "")


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
                          "href": link("unit", run=urun, key=snap.render_key(urun, renderer, skeleton, rs))})
        sections.append({"run": group_run, "within": within, "pairs": pairs[:SHOWN_PAIRS], "more": len(pairs) - SHOWN_PAIRS,
                         "a_only": sum(1 for p in pairs if p["right"] == a),
                         "b_only": sum(1 for p in pairs if p["right"] == b)})
    return render("compare.html", snap, [run] if run else sorted(snap.loaded.grids), refresh=False, kind=kind,
                  a=a, b=b, run=run, names=names, sections=sections, runs=sorted(snap.loaded.grids))
