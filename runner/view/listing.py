"""A list of units: a renderer's renders, or a cell's answers with the renders that never reached its solver,
filtered by render verdict, answer status, family, complexity and a search, a page at a time."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from runner.reporting.load import Outcome
from runner.store.sinks import RENDERS, SOLVES
from runner.view.data import Snapshot
from runner.view.verdicts import VERDICTS, Verdict, codes, verdict_of  # noqa: F401  (the lists' names for them)

Answer = Literal["correct", "wrong", "invalid", "error", "not sent"]
ANSWERS: tuple[Answer, ...] = get_args(Answer)
FILTERS = ("family", "complexity", "verdict", "status", "q")
PAGE = 100   # rows per list page


def answer_of(o: Outcome | None) -> Answer:
    """A solve unit's status: correct, wrong, invalid, error; `not sent` where there is none."""
    if o is None:
        return "not sent"
    if o.status == "error":
        return "error"
    if o.status != "ok":
        return "invalid"
    return "correct" if o.correct else "wrong"


@dataclass
class Row:
    """One line of a list: a render unit, and one answer on it (a cell) or every answer on it (a renderer)."""

    rec: dict
    verdict: Verdict
    answers: list[Outcome] = field(default_factory=list)
    status: Answer | Literal[""] = ""   # in a cell: its answer's status

    @property
    def key(self) -> str:
        return self.rec["key"]


def outcomes_by_render(snap: Snapshot, run: str, renderer: str) -> dict[str, list[Outcome]]:
    """Render key -> the answers on it, for every renderer at once on the first call (one pass over the
    outcomes; each render unit's key hashed once), kept on the snapshot."""
    cache = snap.__dict__.get("_by_render")
    if cache is None:
        cache = {}
        keys: dict[tuple[str, str, str, int], str | None] = {}
        for o in snap.loaded.outcomes:
            at = (o.run, o.renderer, o.skeleton, o.render_sample)
            key = keys[at] if at in keys else keys.setdefault(at, snap.render_key(*at))
            if key is not None:
                cache.setdefault((o.run, o.renderer), {}).setdefault(key, []).append(o)
        for by_key in cache.values():
            for v in by_key.values():
                v.sort(key=lambda o: (o.solver, o.sample))
        snap.__dict__["_by_render"] = cache
    return cache.get((run, renderer), {})


def rows_of(snap: Snapshot, run: str, renderer: str, solver: str) -> list[Row]:
    """Every row of a renderer's list (solver empty) or of a cell's, unfiltered, in skeleton order (kept on
    the snapshot for the lists last asked for)."""
    cache = snap.__dict__.setdefault("_rows", {})
    if (run, renderer, solver) not in cache:
        if len(cache) >= 16:
            cache.pop(next(iter(cache)))
        cache[(run, renderer, solver)] = _rows(snap, run, renderer, solver)
    return cache[(run, renderer, solver)]


def _rows(snap: Snapshot, run: str, renderer: str, solver: str) -> list[Row]:
    answers = outcomes_by_render(snap, run, renderer)
    out = []
    for rec in snap.by_renderer.get((run, renderer), []):
        verdict, got = verdict_of(rec), answers.get(rec["key"], [])
        if not solver:
            out.append(Row(rec, verdict, got))
            continue
        mine = [o for o in got if o.solver == solver]
        out.extend(Row(rec, verdict, [o], answer_of(o)) for o in mine) if mine else \
            out.append(Row(rec, verdict, [], "not sent"))
    return out


def _names(row: Row) -> str:
    """What a search by name looks in: the skeleton, family, render reasons, the check's findings."""
    rec = row.rec
    return " ".join(str(x) for x in (rec["skeleton"], rec.get("family"), rec.get("reason"),
                                     *(rec.get("checks") or []), *(o.reason for o in row.answers)) if x).lower()


def matching_keys(snap: Snapshot, needle: str) -> set[str]:
    """The render keys whose records hold `needle` anywhere in their lines (texts, raw replies, answers): one
    pass over each log, kept on the snapshot for the searches last made."""
    cache = snap.__dict__.setdefault("_found", {})
    if needle not in cache:
        if len(cache) >= 8:
            cache.pop(next(iter(cache)))
        want = needle.encode()
        found: set[str] = set()
        for log in (RENDERS, SOLVES):
            for key, line in snap.lines(log):
                if want in line.lower():
                    found.add(key)
        cache[needle] = found
    return cache[needle]


def keep(row: Row, chosen: Mapping[str, str], skip: str = "") -> bool:
    """Whether a row passes the filters but `skip` (the search is applied apart: it may read the logs)."""
    rec = row.rec
    return ((skip == "family" or not chosen.get("family") or rec.get("family") == chosen["family"])
            and (skip == "complexity" or not chosen.get("complexity") or str(rec.get("complexity")) == chosen["complexity"])
            and (skip == "verdict" or not chosen.get("verdict") or row.verdict == chosen["verdict"])
            and (skip == "status" or not chosen.get("status") or row.status == chosen["status"]
                 or (not row.status and any(answer_of(o) == chosen["status"] for o in row.answers))))


@dataclass
class Selection:
    """A list as filtered: its rows, and what each filter's choices would count with the others kept."""

    rows: list[Row]
    counts: dict[str, dict[str, int]]
    families: list[str]
    complexities: list[str]


def select(snap: Snapshot, q: Mapping[str, str]) -> Selection:
    """The rows a list's query picks, and the counts of each filter's values under the other filters."""
    run, renderer, solver = q.get("run", ""), q.get("renderer", ""), q.get("solver", "")
    chosen = {k: q.get(k, "") or "" for k in FILTERS}
    every = rows_of(snap, run, renderer, solver)
    rows = every
    needle = chosen["q"].strip().lower()
    if needle:
        found = matching_keys(snap, needle)
        rows = [r for r in rows if r.key in found or needle in _names(r)]
    counts: dict[str, dict[str, int]] = {"family": {}, "complexity": {}, "verdict": {}, "status": {}}
    for dim, tally in counts.items():
        for r in rows:
            if not keep(r, chosen, skip=dim):
                continue
            if dim == "family":
                tally[str(r.rec.get("family"))] = tally.get(str(r.rec.get("family")), 0) + 1
            elif dim == "complexity":
                tally[str(r.rec.get("complexity"))] = tally.get(str(r.rec.get("complexity")), 0) + 1
            elif dim == "verdict":
                tally[r.verdict] = tally.get(r.verdict, 0) + 1
            else:
                for s in {r.status} if r.status else {answer_of(o) for o in r.answers}:
                    tally[s] = tally.get(s, 0) + 1
    families = sorted({str(r.rec.get("family")) for r in every})
    complexities = sorted({str(r.rec.get("complexity")) for r in every}, key=lambda c: (len(c), c))
    return Selection([r for r in rows if keep(r, chosen)], counts, families, complexities)


def number(text: str, most: int = 9) -> int | None:
    """A query's whole number: ASCII digits, at most `most` of them; None for anything else (str.isdigit takes '²'
    and other digits int() refuses, and int() refuses over 4,300 digits: either was a 500)."""
    return int(text) if 0 < len(text) <= most and text.isascii() and text.isdigit() else None


def page_of(q: Mapping[str, str], total: int) -> tuple[int, int, str]:
    """(page, pages, a note when the page asked for is not there): pages count from 0, the last shown."""
    pages = max(1, (total + PAGE - 1) // PAGE)
    asked = q.get("page", "0") or "0"
    page = number(asked)
    if page is None:
        return 0, pages, f"page {asked[:40]!r} is not a number: the first page is shown"
    if page >= pages:
        return pages - 1, pages, f"page {page + 1} asked for; this list has {pages}: the last is shown"
    return page, pages, ""
