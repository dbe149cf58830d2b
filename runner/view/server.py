"""`bench view`: a local web server over run folders (read-only), answering only requests addressed to it."""
from __future__ import annotations

import asyncio
import html
import ipaddress
import logging
import os
import signal
import socket
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web

from runner.errors import UserError
from runner.view import pages
from runner.view.data import Runs, Snapshot
from runner.view.listing import number, outcomes_by_render
from runner.view.unit import unit_page

LOOPBACK_NAMES = ("localhost",)


def loopback(host: str) -> bool:
    """Whether an address to listen on is this machine's loopback only."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, port: int) -> Callable[[str], bool]:
    """Which Host headers a request may carry: the address the view is bound to (a page of another site that
    rebinds its name to 127.0.0.1 sends its own name, and is refused). Bound beyond loopback, any address
    literal or this machine's own names."""
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    if not loopback(host):
        names |= {socket.gethostname().lower(), socket.getfqdn().lower()}

    def ok(header: str) -> bool:
        name, _, at = header.lower().rpartition(":") if not header.endswith("]") else (header.lower(), "", "")
        if not name or (at and number(at) is None):
            name, at = header.lower(), ""
        if at and number(at) != port:
            return False
        if name in names:
            return True
        if loopback(host):
            return False
        try:
            ipaddress.ip_address(name.strip("[]"))
            return True
        except ValueError:
            return False
    return ok


def named_host(target: str, header: str) -> str:
    """The host a request is for: its target's own where the target is a whole URL (`GET http://host/`, which
    RFC 9112 3.2.2 says outranks the Host header), else its Host header."""
    if target.startswith("/"):
        return header
    try:
        return urlsplit(target).netloc.rpartition("@")[2]
    except ValueError:   # an unclosed `[`: no host this view answers for
        return target


def _page(status: int, text: str) -> web.Response:
    return web.Response(status=status, content_type="text/html",
                        text=f"<!doctype html><title>bench view</title><p>{html.escape(text)}</p><p><a href='/'>grid</a></p>")


def app(runs: Runs, host_ok: Callable[[str], bool] = lambda h: True) -> web.Application:
    """The pages as routes; each built in a worker thread from the newest snapshot, so none blocks another."""
    @web.middleware
    async def only_ours(request: web.Request, handler):
        if not host_ok(named := named_host(request.raw_path, request.headers.get("Host", ""))):
            return _page(421, f"refused: this view does not answer for host {named!r}")
        return await handler(request)

    async def serve(request: web.Request, build: Callable[[Snapshot, Mapping[str, str]], str]) -> web.Response:
        snap = runs.current()
        if snap is None or (snap.partial and build is not pages.grid_page):
            # the first (whole) reading of the logs is not done: say so, and look again soon
            said = html.escape(runs.failed) if runs.failed and snap is None else \
                f"reading the run logs ({time.monotonic() - runs.started:.0f} s so far)"
            grid = " <a href='/'>The grid's figures</a> are shown meanwhile." if snap is not None else ""
            return web.Response(content_type="text/html", text=f"<!doctype html><meta http-equiv='refresh' "
                                f"content='1'><title>bench view</title><p>bench view: {said}...{grid}</p>")
        try:
            text = await asyncio.get_running_loop().run_in_executor(None, build, snap, request.query)
        except pages.NotFound as exc:
            return _page(404, str(exc))
        except (ValueError, KeyError, TypeError, OSError, UserError) as exc:   # a log changed under us, a bad value
            return _page(500, f"cannot show this page: {type(exc).__name__}: {exc}")
        return web.Response(text=text, content_type="text/html")

    def route(build: Callable[[Snapshot, Mapping[str, str]], str]):
        async def handler(request: web.Request) -> web.Response:
            return await serve(request, build)
        return handler

    def unit(snap: Snapshot, q: Mapping[str, str]) -> str:
        if not q.get("key"):   # a link from an older view: renderer, skeleton, render sample
            key = snap.render_key(q.get("run", ""), q.get("renderer", ""), q.get("skeleton", ""),
                                  number(q.get("rs", "0")) or 0)
            q = {**q, "key": key or ""}
        return unit_page(runs, snap, q)

    application = web.Application(middlewares=[only_ours])
    application.router.add_get("/", route(pages.grid_page))
    application.router.add_get("/run", route(pages.run_page))
    application.router.add_get("/units", route(pages.list_page))
    application.router.add_get("/cell", route(pages.list_page))   # an older view's links
    application.router.add_get("/unit", route(unit))
    application.router.add_get("/compare", route(pages.compare_page))
    return application


class _OneLine(logging.Handler):
    """aiohttp's own complaints (a malformed request, a client gone): one line each, never a traceback."""

    def __init__(self, say: Callable[[str], None]):
        super().__init__(logging.WARNING)
        self.say = say

    def emit(self, record: logging.LogRecord) -> None:
        why = record.exc_info[1] if record.exc_info else None
        detail = f": {type(why).__name__}: {str(why).splitlines()[0] if str(why) else ''}" if why else ""
        self.say(f"bench view: {record.getMessage().splitlines()[0]}{detail}")


def quiet_aiohttp(say: Callable[[str], None]) -> None:
    """Route aiohttp's loggers to one line per problem."""
    for name in ("aiohttp.server", "aiohttp.web", "aiohttp.access", "asyncio"):
        log = logging.getLogger(name)
        log.handlers[:] = [_OneLine(say)]
        log.propagate = False


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, or one line saying why not (taken, not an address here, not allowed)."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UserError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        why = os.strerror(exc.errno) if exc.errno else "cannot bind"
        hint = "; give another with --port, or --port 0 for any free one" if port else ""
        raise UserError(f"--host {host} --port {port}: cannot listen there ({why}){hint}") from None
    return sock


def serve_forever(folders: list[Path], host: str, port: int, say: Callable[[str], None]) -> None:
    """Serve the pages until Ctrl-C; the URL is said once the port is bound (before the logs are read, so a
    port that is taken ends the command at once, with nothing started)."""
    host = host.strip() or "0.0.0.0"
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    if not loopback(host):
        say(f"bench view: listening on {host}, not only this machine: anyone who can reach port {bound} here "
            "can read these runs (--host 127.0.0.1 keeps them to this machine)")
    quiet_aiohttp(say)
    runs = Runs(folders, wait=False, warm=lambda snap: outcomes_by_render(snap, "", ""))
    # Ctrl-C stops the server whatever this process inherited (a shell's background job ignores SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    shown = f"[{host}]" if ":" in host else host

    async def main() -> None:
        runner = web.AppRunner(app(runs, allowed_hosts(host, bound)), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.SockSite(runner, sock, shutdown_timeout=1.0)   # Ctrl-C: open connections get 1 s, not 60
        await site.start()
        say(f"bench view: http://{shown}:{bound}/ (Ctrl-C stops)")
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    asyncio.run(main())


from runner.view.bundle import bundle  # noqa: F401  (the CLI's entry to --bundle)
