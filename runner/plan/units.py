"""The units of a grid: render units per (skeleton, renderer, sample), solve units under each; their keys."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from families.ir import Skeleton
from runner.config.grid import Grid, Stage, stage_identity
from runner.source.generate import make_plan
from runner.source.reader import read_skeletons
from runner.store.records import fingerprint, unit_keys


class SolveUnit(NamedTuple):
    """One solve unit: its key, its solver stage and its sample number."""

    key: str
    stage: Stage
    sample: int


class RenderUnit(NamedTuple):
    """One render unit: its key, its renderer stage, its sample number, and the solve units of its text.
    (NamedTuples: a run makes several a skeleton, and a frozen dataclass costs twice as much to make.)"""

    key: str
    stage: Stage
    sample: int
    solves: tuple[SolveUnit, ...]


class UnitPlan:
    """Computes unit keys for a grid: each key hashes everything that changes the unit's result."""

    def __init__(self, grid: Grid):
        self.grid = grid
        self._render_parts = [(st, fingerprint(stage_identity(grid.providers, st, "render"))) for st in grid.renderers]
        self._solve_parts = [(st, fingerprint(stage_identity(grid.providers, st, "solve"))) for st in grid.solvers]
        # each stage's key function, its hasher fed the fingerprint once (unit_key's digests)
        self._render_keys = [(st, unit_keys(fp)) for st, fp in self._render_parts]
        self._solve_keys = [(st, unit_keys(fp)) for st, fp in self._solve_parts]

    @property
    def render_parts(self) -> list[tuple[Stage, str]]:
        """(renderer stage, its fingerprint) for each renderer of the grid."""
        return self._render_parts

    @property
    def solve_parts(self) -> list[tuple[Stage, str]]:
        """(solver stage, its fingerprint) for each solver of the grid."""
        return self._solve_parts

    def units(self, sk: Skeleton) -> Iterator[RenderUnit]:
        """The render units of one skeleton, each with the solve units that share its text."""
        return self.units_of(sk.identity)

    def units_of(self, identity: str) -> Iterator[RenderUnit]:
        """The render units of the skeleton of this identity (its keys hash nothing else of it)."""
        for stage, key in self._render_keys:
            for s in range(stage.samples):
                rkey = key(identity, s)
                solves = tuple([SolveUnit(skey(rkey, t), sstage, t)
                                for sstage, skey in self._solve_keys for t in range(sstage.samples)])
                yield RenderUnit(rkey, stage, s, solves)

    def relabel(self, rec: dict) -> dict:
        """A render record named as this grid names the renderer whose key it has (a record's name is the one it
        was run under: a provider renamed since keeps its units, under its name now)."""
        return _named(rec, self._render_keys, "skeleton", "renderer")

    def relabel_solve(self, rec: dict) -> dict:
        """A solve record named as this grid names the solver whose key it has (see `relabel`)."""
        return _named(rec, self._solve_keys, "render_key", "solver")

    def instant_counts(self, n_skeletons: int) -> tuple[int, int]:
        """(render units, solve units) for n skeletons that are made at once, costing no time: the template's
        renders, and the baselines' answers."""
        from providers.build import BUILTIN_KINDS
        local = lambda st: self.grid.providers[st.provider].kind in BUILTIN_KINDS  # noqa: E731
        renders = sum(st.samples for st in self.grid.renderers)
        return (n_skeletons * sum(st.samples for st in self.grid.renderers if local(st)),
                n_skeletons * renders * sum(st.samples for st in self.grid.solvers if local(st)))

    def counts(self, n_skeletons: int) -> tuple[int, int]:
        """(render units, solve units) for n skeletons."""
        renders = sum(st.samples for st in self.grid.renderers)
        per_render = sum(st.samples for st in self.grid.solvers)
        return n_skeletons * renders, n_skeletons * renders * per_render


def skeletons(grid: Grid, shard: tuple[int, int] | None = None) -> Iterator[Skeleton]:
    """Stream the grid's skeletons (from its file or its generate block), only this shard's if sharded."""
    for _, sk in striped(grid, shard, (0, 1), 1 << 62):
        if sk is not None:
            yield sk


def striped(grid: Grid, shard: tuple[int, int] | None, stripe: tuple[int, int], block: int,
            settled: bytes | None = None) -> Iterator[tuple[int, Skeleton | None]]:
    """(source index, skeleton) of stripe (w, n)'s blocks (source items in runs of `block`, every n-th run
    from the w-th); the skeleton is None where it is another shard's, or where `settled` (a bit per source
    index, see `is_set`) says every unit of it is settled. Another stripe's items, and settled ones, are not
    made (generated); another stripe's are not parsed (read): each worker of a run pays for its own items only."""
    w, n = stripe
    keep = None if n == 1 else (lambda index: (index // block) % n == w)
    done = (lambda index: False) if settled is None else (lambda index: is_set(settled, index))
    src = grid.source
    if src.path:
        stream: Iterator[tuple[int, Skeleton | None]] = iter(read_skeletons(Path(src.path), src.format, keep))
    else:
        plan = make_plan(src.seed, src.complexities, src.families, src.target_hop_dist, src.distractors)
        stream = ((i, None if done(i) else plan.item(i)) for b in range(w, -(-src.count // block), n)
                  for i in range(b * block, min((b + 1) * block, src.count)))
    for index, sk in stream:
        yield index, sk if sk is not None and not done(index) and (shard is None or in_shard(sk, shard)) else None


def is_set(bits: bytes | bytearray, index: int) -> bool:
    """Whether bit `index` of a bitmap (bit i is byte i // 8's bit i % 8) is set; beyond its end, no."""
    return index >> 3 < len(bits) and bool(bits[index >> 3] >> (index & 7) & 1)


def in_shard(sk: Skeleton, shard: tuple[int, int]) -> bool:
    """Whether shard i of n owns this skeleton (and all its units): a hash of its identity, mod n."""
    return identity_in_shard(sk.identity, shard)


def identity_in_shard(identity: str, shard: tuple[int, int]) -> bool:
    """Whether shard i of n owns the skeleton of this identity (see `in_shard`)."""
    i, n = shard
    return int.from_bytes(hashlib.blake2b(identity.encode(), digest_size=8).digest(), "big") % n == i


def cell(render: Stage, solve: Stage) -> tuple[str, str]:
    """A grid cell's name: (renderer, solver)."""
    return render.label, solve.label


def _named(rec: dict, stages: list[tuple[Stage, Callable[[str, int], str]]], parent: str, name: str) -> dict:
    """`rec` with its `name` field the label of the stage whose key hasher makes its key from its `parent` field
    and sample; `rec` itself where that is its name already, or no stage of the grid makes its key."""
    of, sample = rec.get(parent), rec.get("sample")
    if isinstance(of, str) and isinstance(sample, int):
        for stage, key in stages:
            if key(of, sample) == rec["key"]:
                return {**rec, name: stage.label} if stage.label != rec.get(name) else rec
    return rec
