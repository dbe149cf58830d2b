"""What a run's pipeline works on: each skeleton prepared into an item (its keys, its render prompts or a local
renderer's result, its solve units), in blocks of BLOCK source items; runner/engine/feed.py runs this here or
in helper processes."""
from __future__ import annotations

import time
from typing import Any, Iterator, Mapping, NamedTuple

from families.ir import Skeleton
from families.logicmark import logicmark_context
from providers.base import Provider, RenderRequest, RenderStatus
from rendering.names import given_names
from rendering.schema import render_schema
from runner.config.grid import Grid
from runner.config.prompts import fill_render
from runner.fidelity.judge import judge
from runner.plan.units import UnitPlan
from runner.plan.units import striped as skeletons
from runner.store.records import render_record

BLOCK = 64                   # source items per frame on a pipe, and per stripe of a worker

# The records below are typed NamedTuples, not dataclasses: they cross the pipe by the thousand per
# second, and a NamedTuple pickles as its values alone, where a dataclass carries a dict of its fields.


class SolveJob(NamedTuple):
    """One solve unit of a render: its key, its solver (an index into grid.solvers) and its sample."""

    key: str
    stage: int
    sample: int


class LocalRender(NamedTuple):
    """A local renderer's result, made while preparing: its status, its text and its whole log line."""

    status: RenderStatus
    text: str
    line: bytes   # the render record, written as is unless the unit is already in the log


class RenderJob(NamedTuple):
    """One render unit, ready to run: the request for a model renderer, or a local renderer's result."""

    key: str
    stage: int                          # index into grid.renderers
    sample: int
    work: RenderRequest | LocalRender   # what a model renderer is sent, or what a local renderer made
    solves: tuple[SolveJob, ...]
    names: dict[str, str] | None = None   # the names the renderer was given (`names: assigned`)


class Item(NamedTuple):
    """One skeleton as the pipeline needs it: what records carry, and its render units."""

    identity: str
    family: str
    complexity: int
    answer_options: tuple[str, ...]
    gold_answer: str
    renders: tuple[RenderJob, ...]
    card: str = ""    # the LogicMark card's context (`If: ... Then`) of an equality item, when a solver asks for {card}
    source_index: int = -1   # its index in the source (-1: not from the run's source, e.g. a cluster agent's batch)
    # (not `index`: a NamedTuple field of that name hides tuple.index)


class Preparer:
    """Turns skeletons into items for one grid; `local` are the renderers that run right here."""

    def __init__(self, grid: Grid, local: dict[str, Provider]):
        self.grid, self.plan, self.local = grid, UnitPlan(grid), local
        self._render_index = {id(st): i for i, st in enumerate(grid.renderers)}
        self._solve_index = {id(st): i for i, st in enumerate(grid.solvers)}
        self._schema_for: Mapping[str, Any] | None = None
        self._schema_cache: dict[str, Any] = {}
        self._card = any("{card}" in st.prompt for st in grid.solvers)

    def prepare(self, sk: Skeleton, index: int = -1) -> Item:
        """The item of one skeleton (at `index` of the source); the renderer sees only the redacted payload."""
        payload = sk.redact()
        renders = []
        for unit in self.plan.units(sk):
            stage = unit.stage
            provider = self.local.get(stage.provider)
            # A local renderer reads the payload; a model reads the prompt alone. The payload goes along
            # only when it is needed: to render here, or to check a structured render against it (a
            # text render's would cross the pipe for nothing: unpickling one cost the loop 17 µs).
            structured = stage.format == "structured"
            names = given_names(payload, unit.key) if stage.names == "assigned" and not provider else None
            request = RenderRequest(prompt="" if provider else fill_render(stage.prompt, payload, structured, names),
                                    payload=payload if provider or structured else None,
                                    temperature=stage.temperature, max_tokens=stage.max_tokens, sample=unit.sample,
                                    # a local renderer only asks whether to render structured: no schema to make
                                    schema=None if not structured else {} if provider else
                                    render_schema(payload, names) if names else self._schema(payload))
            work: RenderRequest | LocalRender = request
            if provider is not None:
                started = time.time()
                done, parsed = provider.render_now_parsed(request)
                judged = judge(done, stage.format, sk.answer_options, payload, parsed=parsed)
                res = judged.completion
                work = LocalRender(res.status, res.text, render_record(
                    unit.key, sk.identity, sk.family, sk.complexity, stage.label, provider.model, unit.sample,
                    judged, started, stage.format).to_line())
            renders.append(RenderJob(
                unit.key, self._render_index[id(stage)], unit.sample, work,
                tuple(SolveJob(su.key, self._solve_index[id(su.stage)], su.sample) for su in unit.solves), names))
        card = logicmark_context(sk) if self._card and sk.family == "equality" else ""
        return Item(sk.identity, sk.family, sk.complexity, sk.answer_options, sk.gold_answer, tuple(renders), card,
                    index)

    def _schema(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """One schema per skeleton, shared by its structured render units."""
        if self._schema_for is not payload:
            self._schema_for, self._schema_cache = payload, render_schema(payload)
        return self._schema_cache

    def batches(self, shard: tuple[int, int] | None, stripe: tuple[int, int] = (0, 1),
                settled: bytes | None = None) -> Iterator[list[Item]]:
        """The items of this stripe's blocks, in skeleton order, one list per block of `BLOCK` source items.

        Stripe (w, n) owns blocks w, w + n, w + 2n, ...: n workers each prepare every n-th block, and
        reading one list from each in turn gives back the source's order. A block whose skeletons are all
        another shard's, or settled (`settled`: a bit per source index, see skip.walk), is an empty list: every
        worker yields one list per block it owns."""
        block: int | None = None
        batch: list[Item] = []
        for index, sk in skeletons(self.grid, shard, stripe, BLOCK, settled):
            if index // BLOCK != block:
                if block is not None:
                    yield batch
                block, batch = index // BLOCK, []
            if sk is not None:
                batch.append(self.prepare(sk, index))
        if block is not None:
            yield batch


def local_renderers(grid: Grid) -> dict[str, Provider]:
    """The grid's renderers that make their text locally (`renders_locally`), built here."""
    from providers.build import BUILTIN_KINDS, build_provider
    out = {}
    for st in grid.renderers:
        cfg = grid.providers[st.provider]
        if cfg.kind in BUILTIN_KINDS:   # only built-ins are made without a server or a key
            provider = build_provider(cfg)
            if provider.renders_locally:
                out[st.provider] = provider
    return out
