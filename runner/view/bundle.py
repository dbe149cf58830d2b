"""`bench view --bundle`: the view's pages as static files that work offline: every filter a page offers is
a link to a page written ahead, every comparison a page, no form, no refresh; never inside a run folder."""
from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from runner.errors import UserError
from runner.store.guard import BUNDLE_MARKER, Outputs, atomic_output, mark_made, owns, remove_output
from runner.view import pages
from runner.view.data import Runs, Snapshot
from runner.view.listing import ANSWERS, PAGE, VERDICTS, answer_of, rows_of, select
from runner.view.unit import unit_page

_ANCHOR = re.compile(r'<a ([^>]*?)href="([^"#]+)"([^>]*)>(.*?)</a>', re.DOTALL)
_PAGE = re.compile(r"index\.html|[a-z]+-[0-9a-f]{12}\.html")   # the names pages.link gives a bundle's pages


def _check_out(folders: list[Path], out: Path) -> None:
    """One line and nothing written when `out` cannot take a bundle."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise UserError(f"--bundle {out}: is not a folder")
    where = out.resolve()
    for folder in folders:
        run = folder.resolve()
        if where == run or run in where.parents:
            raise UserError(f"--bundle {out}: is inside the run folder {folder}; a bundle is never written into a "
                            "run: give a folder outside it")
    if out.is_dir() and any(not p.name.startswith(".") for p in out.iterdir()) and not owns(out, BUNDLE_MARKER):
        raise UserError(f"--bundle {out}: holds files that no bundle wrote; give an empty or new folder")


def _lists(snap: Snapshot, add: Callable[[str, dict], None]) -> None:
    """Every list page: each renderer's and each cell's, unfiltered and under each one filter, every page."""
    for (run, renderer) in sorted(set(snap.render_fp) | set(snap.by_renderer)):
        solvers = sorted({o.solver for o in snap.loaded.outcomes if o.run == run and o.renderer == renderer}
                         | set(pages._labels(snap, run)[1]))
        for solver in ["", *solvers]:
            base = {"run": run, "renderer": renderer, "solver": solver}
            sel = select(snap, base)
            options = [("", "")] + [("verdict", v) for v in VERDICTS] + [("status", s) for s in ANSWERS] + \
                [("family", f) for f in sel.families] + [("complexity", c) for c in sel.complexities]
            for dim, value in options:
                if dim and not sel.counts[dim].get(value):
                    continue
                q = dict(base, **({dim: value} if dim else {}))
                n = len(select(snap, q).rows) if dim else len(sel.rows)
                for page in range(max(1, (n + PAGE - 1) // PAGE)):
                    add("units", dict(q, page=str(page)) if page else q)


def _fidelity(snap: Snapshot, add: Callable[[str, dict], None]) -> None:
    """The pages the fidelity table links: a renderer's renders of one family and complexity."""
    for f in snap.fidelity:
        add("units", {"run": f.run, "renderer": f.renderer, "family": f.family, "complexity": str(f.complexity)})


def _units(runs: Runs, snap: Snapshot, max_units: int, seed: int) -> dict[str, str]:
    """The unit pages: every render unit with a failure anywhere, and up to `max_units` all-correct ones per
    renderer (a seeded sample)."""
    rng = random.Random(seed)
    out: dict[str, str] = {}
    for (run, renderer) in sorted(snap.by_renderer):
        rows = rows_of(snap, run, renderer, "")
        fine = [r for r in rows if r.verdict in ("faithful", "unchecked") and r.answers
                and all(answer_of(o) == "correct" for o in r.answers)]
        keep = [r for r in rows if r not in fine] + rng.sample(fine, min(max_units, len(fine)))
        for r in keep:
            q = {"run": run, "key": r.key}
            out.setdefault(pages.link("unit", **q), unit_page(runs, snap, q))
    return out


def bundle(folders: list[Path], out: Path, max_units: int, seed: int = 0) -> int:
    """Write the pages a reviewer needs as static HTML into `out`; links to pages left out become plain text.
    The number of pages written."""
    _check_out(folders, out)
    runs = Runs(folders)
    snap = runs.snapshot
    assert snap is not None
    written: dict[str, str] = {}
    pages.Links.static = True
    try:
        written["index.html"] = pages.grid_page(snap)

        def add(path: str, q: dict) -> None:
            build = {"units": pages.list_page, "compare": pages.compare_page, "run": pages.run_page,
                     "/": pages.grid_page}[path]
            written.setdefault(pages.link(path, **q), build(snap, {k: str(v) for k, v in q.items() if v}))
        for run in sorted(snap.loaded.grids):
            if len(snap.loaded.grids) > 1:   # the run picker's pages
                add("/", {"run": run})
            add("run", {"run": run})
            renderers, solvers = pages._labels(snap, run)
            for kind, names in (("solver", solvers), ("renderer", renderers)):
                for i, a in enumerate(names):
                    for b in names[i + 1:]:
                        add("compare", {"kind": kind, "run": run, "a": a, "b": b})
        _lists(snap, add)
        _fidelity(snap, add)
        written.update(_units(runs, snap, max_units, seed))
    finally:
        pages.Links.static = False
    outputs, made = Outputs(), not out.exists()
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise UserError(f"--bundle {out}: cannot make this folder ({exc.strerror})") from None
    mark_made(out, BUNDLE_MARKER, made)

    def keep_or_drop(m: re.Match) -> str:
        if m.group(2) in written:
            return m.group(0)
        return f'<span class="muted" title="not in this bundle">{m.group(4)}</span>'
    for name, text in written.items():
        with atomic_output(outputs.claim(out / name, "a bundle page")) as fh:
            fh.write(_ANCHOR.sub(keep_or_drop, text).encode())
    _drop_earlier(out, written)
    return len(written)


def _drop_earlier(out: Path, written: dict[str, str]) -> None:
    """Remove an earlier bundle's pages that this one did not write (another run's units, read beside this run's
    pages, would mix the two); a file not named as a page is left."""
    for page in out.iterdir():
        if _PAGE.fullmatch(page.name) and page.name not in written:
            remove_output(page)
