"""Before a run: what its servers can do that the grid relies on (prompt log-probabilities, a reasoning parser)."""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

import typer

from providers.base import CONSTRAINTS, Provider, ProviderFailure
from providers.dialects import Dialect
from providers.openai_compat import OpenAICompatible
from runner.config.grid import Grid
from runner.errors import UserError


def check_scoring(grid: Grid, providers: dict[str, Provider]) -> None:
    """Before a run with loglik solvers: each of their servers must echo prompt log-probabilities."""
    _probe(providers, {st.provider for st in grid.solvers if st.mode == "loglik"}, lambda p: p.check_scoring())


def check_reasoning(grid: Grid, providers: dict[str, Provider]) -> None:
    """Before a run with thinking solvers on vLLM or SGLang: does each server run a reasoning parser? One
    line when it does not (its thinking solves then ask for the label as text)."""
    names = {st.provider for st in grid.solvers if st.thinks and isinstance(providers[st.provider], OpenAICompatible)}
    _probe(providers, names, lambda p: p.check_reasoning() if isinstance(p, OpenAICompatible) else _nothing())


def check_constraints(grid: Grid, providers: dict[str, Provider]) -> None:
    """After `server: auto` is found out (from /models): each generating solver's constraint, and its provider's,
    must be one that server honours; a field it would ignore (a grammar to vLLM) is refused in one line, before
    any unit is sent."""
    found: dict[str, Dialect | None] = {}

    async def find() -> None:
        for name in sorted({st.provider for st in grid.solvers
                            if grid.providers[st.provider].settings.get("server", "auto") == "auto"
                            and grid.providers[st.provider].kind == "openai"}):
            provider = providers[name]
            if not isinstance(provider, OpenAICompatible):
                continue
            try:
                found[name] = await provider.find_server()
            finally:
                await provider.close()
    asyncio.run(find())
    for i, st in enumerate(grid.solvers):
        dialect = found.get(st.provider)
        if dialect is None or st.mode != "generate":
            continue
        own = grid.providers[st.provider].settings.get("constraint", "auto")
        for asked, where in ((st.constraint, f"solvers[{i}].constraint"), (own, f"providers.{st.provider}.constraint")):
            if not dialect.honours(asked):
                takes = ", ".join(c for c in CONSTRAINTS if dialect.honours(c))
                raise UserError(f"{grid.file}: {where}: {asked} is not honoured by the server of provider "
                                f"{st.provider!r}, found by /models to be {dialect.name} (it takes {takes}): "
                                "choose one of those, or declare the server with `server:`")


async def _nothing() -> None:
    """A probe's answer for a provider that has nothing to check."""
    return None


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
