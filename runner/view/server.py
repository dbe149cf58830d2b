"""`bench view`: a local web server over run folders (read-only), or a static bundle of its pages."""
from __future__ import annotations

import asyncio
import html
import random
import re
import signal
import time
from pathlib import Path
from typing import Callable

from aiohttp import web

from runner.errors import UserError
from runner.store.guard import Outputs, atomic_output, mark, owns
from runner.view import pages
from runner.view.data import Runs

MARKER = ".bench-view"   # a bundle folder bench made: a later bundle may write there again


def app(runs: Runs) -> web.Application:
    """The pages as routes; each built in a worker thread from the newest snapshot, so none blocks another."""
    async def serve(request: web.Request, build: Callable[[], str]) -> web.Response:
        if runs.current() is None:   # the first reading of the logs is not done: say so, and look again soon
            said = html.escape(runs.failed) if runs.failed else \
                f"reading the run logs ({time.monotonic() - runs.started:.0f} s so far)"
            return web.Response(content_type="text/html", text=f"<!doctype html><meta http-equiv='refresh' "
                                f"content='1'><title>bench view</title><p>bench view: {said}...</p>")
        try:
            text = await asyncio.get_running_loop().run_in_executor(None, build)
        except pages.NotFound as exc:
            return web.Response(status=404, content_type="text/html",
                                text=f"<!doctype html><p>{html.escape(str(exc))}</p><p><a href='/'>grid</a></p>")
        except (ValueError, KeyError, OSError, UserError) as exc:   # a log changed under us, a bad query value
            return web.Response(status=500, content_type="text/html",
                                text=f"<!doctype html><p>cannot show this page: {html.escape(type(exc).__name__)}: "
                                     f"{html.escape(str(exc))}</p><p><a href='/'>grid</a></p>")
        return web.Response(text=text, content_type="text/html")

    async def grid(request: web.Request) -> web.Response:
        return await serve(request, lambda: pages.grid_page(runs.current()))

    async def cell(request: web.Request) -> web.Response:
        return await serve(request, lambda: pages.cell_page(runs.current(), request.query))

    async def unit(request: web.Request) -> web.Response:
        return await serve(request, lambda: pages.unit_page(runs, runs.current(), request.query))

    async def compare(request: web.Request) -> web.Response:
        return await serve(request, lambda: pages.compare_page(runs.current(), request.query))

    application = web.Application()
    application.router.add_get("/", grid)
    application.router.add_get("/cell", cell)
    application.router.add_get("/unit", unit)
    application.router.add_get("/compare", compare)
    return application


def serve_forever(folders: list[Path], host: str, port: int, say: Callable[[str], None]) -> None:
    """Serve the pages until Ctrl-C; the URL is said once the port is bound."""
    runs = Runs(folders, wait=False)
    # Ctrl-C stops the server whatever this process inherited (a shell's background job ignores SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)

    async def main() -> None:
        runner = web.AppRunner(app(runs), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port, shutdown_timeout=1.0)   # Ctrl-C: open connections get 1 s, not 60
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise UserError(f"--host {host} --port {port}: cannot listen there ({exc.strerror})") from None
        bound = runner.addresses[0][1] if runner.addresses else port
        say(f"bench view: http://{host}:{bound}/ (Ctrl-C stops)")
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    asyncio.run(main())


_HREF = re.compile(r'href="([^"#]+)"')


def bundle(folders: list[Path], out: Path, max_units: int, seed: int = 0) -> int:
    """Write the pages a reviewer needs as static HTML into `out`: the grid, every cell (with its status
    filters), every unit that is not correct and up to `max_units` correct ones per cell (a seeded sample);
    links to pages left out go nowhere. The number of pages written."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise UserError(f"--bundle {out}: is not a folder")
    if out.is_dir() and any(not p.name.startswith(".") for p in out.iterdir()) and not owns(out, MARKER):
        raise UserError(f"--bundle {out}: holds files that no bundle wrote; give an empty or new folder")
    runs = Runs(folders)
    snap = runs.snapshot
    rng = random.Random(seed)
    written: dict[str, str] = {}
    pages.Links.static = True
    try:
        written[pages.link("/")] = pages.grid_page(snap)
        cells = sorted({(o.run, o.renderer, o.solver) for o in snap.loaded.outcomes})
        for run, renderer, solver in cells:
            base = dict(run=run, renderer=renderer, solver=solver)
            units = snap.cell(run, renderer, solver)
            for status in ("", *pages.STATUSES):
                rows = [o for o in units if not status or pages.status_of(o) == status]
                for page in range((len(rows) + pages.PAGE - 1) // pages.PAGE or 1):
                    q = dict(base, status=status, page=page or None)
                    written[pages.link("cell", **q)] = pages.cell_page(snap, {k: str(v) for k, v in q.items() if v})
            correct = [o for o in units if pages.status_of(o) == "correct"]
            chosen = [o for o in units if pages.status_of(o) != "correct"] + rng.sample(correct, min(max_units, len(correct)))
            for o in chosen:
                q = dict(run=run, renderer=renderer, skeleton=o.skeleton, rs=str(o.render_sample))
                name = pages.link("unit", **q)
                if name not in written:
                    written[name] = pages.unit_page(runs, snap, q)
    finally:
        pages.Links.static = False
    outputs = Outputs()
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise UserError(f"--bundle {out}: cannot make this folder ({exc.strerror})") from None
    if not owns(out, MARKER):
        mark(out, MARKER)
    for name, text in written.items():
        text = _HREF.sub(lambda m: f'href="{m.group(1)}"' if m.group(1) in written else 'href="#not-in-bundle"', text)
        with atomic_output(outputs.claim(out / name, "a bundle page")) as fh:
            fh.write(text.encode())
    return len(written)
