"""`bench serve`: start a grid's `launch:` servers and keep them up for several `bench run` processes."""
from __future__ import annotations

import signal
import time
from pathlib import Path
from types import FrameType

import typer

from runner.commands.folder import claim_run_folder, run_folder
from runner.config.grid import load_grid
from runner.errors import UserError
from runner.serving.servers import ServerSet, start_servers, tail, write_endpoints


def serve(grid_file: Path, out: Path | None) -> int:
    """`bench serve`: start a grid's `launch:` servers and keep them up until Ctrl-C or SIGTERM."""
    grid = load_grid(grid_file, require_keys=False)
    folder = run_folder(grid, out)
    launches = {n: grid.providers[n].settings["launch"] for n in grid.providers
                if grid.providers[n].settings.get("launch")}
    if not launches:
        raise UserError(f"{grid_file}: no provider has a `launch:` block; nothing to serve")
    claim_run_folder(folder, grid)
    stop = {"now": False}

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop["now"] = True
    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    servers = ServerSet()
    try:
        servers = start_servers(launches, folder)
        path = write_endpoints(folder, servers)
        for name, urls in servers.urls().items():
            typer.echo(f"{name}: {', '.join(urls)}")
        typer.echo(f"serving; `bench run --grid {grid_file}` uses these servers (see {path}); Ctrl-C stops them",
                   err=True)
        while not stop["now"] and all(s.proc is None or s.proc.poll() is None for s in servers.servers):
            time.sleep(0.5)
        dead = [s for s in servers.servers if s.proc is not None and s.proc.poll() is not None]
        if dead:
            typer.echo(f"bench serve: the {dead[0].provider} server exited; the end of {dead[0].log}:\n"
                       f"{tail(dead[0].log)}", err=True)
            return 1
        return 0
    finally:
        servers.stop()
        (folder / "servers" / "endpoints.json").unlink(missing_ok=True)
        for sig, handler in old.items():
            signal.signal(sig, handler)
