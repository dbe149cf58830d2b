"""Before a run: what its servers can do that the grid relies on (prompt log-probabilities, a reasoning parser)."""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

import typer

from providers.base import Provider, ProviderFailure
from runner.config.grid import Grid
from runner.errors import UserError


def check_scoring(grid: Grid, providers: dict[str, Provider]) -> None:
    """Before a run with loglik solvers: each of their servers must echo prompt log-probabilities."""
    _probe(providers, {st.provider for st in grid.solvers if st.mode == "loglik"}, lambda p: p.check_scoring())


def check_reasoning(grid: Grid, providers: dict[str, Provider]) -> None:
    """Before a run with thinking solvers on vLLM or SGLang: does each server run a reasoning parser? One
    line when it does not (its thinking solves then ask for the label as text)."""
    names = {st.provider for st in grid.solvers if st.thinks and hasattr(providers[st.provider], "check_reasoning")}
    _probe(providers, names, lambda p: p.check_reasoning())


def _probe(providers: dict[str, Provider], names: set[str], ask: Callable[[Provider], Awaitable[str | None]]) -> None:
    """Ask each named provider (closed after); a failure is the run's one line, a note is printed."""
    async def probe() -> None:
        for name in sorted(names):
            provider = providers[name]
            try:
                note = await ask(provider)
            except ProviderFailure as exc:
                raise UserError(exc.reason) from None
            finally:
                await provider.close()
            if note:
                typer.echo(f"bench: {note}", err=True)
    if names:
        asyncio.run(probe())
