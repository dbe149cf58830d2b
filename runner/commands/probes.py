"""Before a run: what its servers can do that the grid relies on (prompt log-probabilities, a reasoning parser)."""
from __future__ import annotations

import asyncio

import typer

from runner.config.grid import Grid
from runner.errors import UserError


def check_scoring(grid: Grid, providers: dict) -> None:
    """Before a run with loglik solvers: each of their servers must echo prompt log-probabilities."""
    from providers.base import ProviderFailure

    async def probe() -> None:
        for name in sorted({st.provider for st in grid.solvers if st.mode == "loglik"}):
            provider = providers[name]
            try:
                note = await provider.check_scoring()
            except ProviderFailure as exc:
                raise UserError(exc.reason) from None
            finally:
                await provider.close()
            if note:
                typer.echo(f"bench: {note}", err=True)
    if any(st.mode == "loglik" for st in grid.solvers):
        asyncio.run(probe())


def check_reasoning(grid: Grid, providers: dict) -> None:
    """Before a run with thinking solvers on vLLM or SGLang: does each server run a reasoning parser? One
    line when it does not (its thinking solves then ask for the label as text)."""
    async def probe() -> None:
        for name in sorted({st.provider for st in grid.solvers if st.thinks}):
            provider = providers[name]
            if not hasattr(provider, "check_reasoning"):
                continue
            try:
                note = await provider.check_reasoning()
            finally:
                await provider.close()
            if note:
                typer.echo(f"bench: {note}", err=True)
    if any(st.thinks for st in grid.solvers):
        asyncio.run(probe())
