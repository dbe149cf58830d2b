"""Skeleton preparation off the event loop: each skeleton's keys, render prompts and local renders.

Making a skeleton (or reading and checking it), hashing its keys, filling its render prompts and
running the template renderer is CPU work that would otherwise sit on the event loop between
requests. For big runs it is done in a helper process (`python -m runner.engine.feed`) that streams
prepared items over a pipe; the loop then only sends requests and writes records. Small runs
prepare in-process: a helper's start-up costs more than it saves there. Both paths run `prepare`.
"""
from __future__ import annotations

import asyncio
import functools
import os
import pickle
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any, AsyncGenerator, Iterator, Mapping, NamedTuple

from families.ir import Skeleton
from families.logicmark import logicmark_context
from providers.base import Provider, RenderRequest, RenderStatus
from rendering.names import given_names
from rendering.schema import render_schema
from runner.children import PIPE_BYTES, cores, die_with_parent, widen_pipe, write_all
from runner.config import environment
from runner.config.grid import Grid
from runner.config.prompts import fill_render
from runner.errors import UserError
from runner.fidelity.judge import judge
from runner.plan.manifest import Writer
from runner.plan.units import UnitPlan, is_set
from runner.plan.units import striped as skeletons
from runner.store.records import render_record

BLOCK = 64                   # source items per frame on a pipe, and per stripe of a worker
_FRAME = struct.Struct(">I")

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


AUTO_MOST = 8   # `prepare_workers: auto` starts at most this many helpers


def helpers(grid: Grid, n_skeletons: int) -> int:
    """How many helper processes prepare a run's skeletons; 0: the run prepares them itself.

    The grid's `prepare_workers`, or `auto`: none below LSB_PREPARE_ASIDE_MIN skeletons (a helper's
    start-up, ~0.3 s, costs more than it saves there), else one per core, at most AUTO_MOST, and no more
    than the run has blocks of skeletons for. One per core, not one per core but the run's own: the loop
    sends requests through the lean client (providers/wire.py) and needs a core's fraction, and preparing
    is the run's main work (two cores: two helpers make 8 to 9% more units a second than one, BENCHMARKS.md)."""
    if grid.prepare_workers is not None:
        return grid.prepare_workers
    if n_skeletons < environment.number("LSB_PREPARE_ASIDE_MIN"):
        return 0
    return max(1, min(AUTO_MOST, cores(), -(-n_skeletons // BLOCK)))


def local_renderers(grid: Grid) -> dict[str, Provider]:
    """The grid's renderers that make their text locally (`renders_locally`), built here."""
    from providers.config import BUILTIN_KINDS, build_provider
    out = {}
    for st in grid.renderers:
        cfg = grid.providers[st.provider]
        if cfg.kind in BUILTIN_KINDS:   # only built-ins are made without a server or a key
            provider = build_provider(cfg)
            if provider.renders_locally:
                out[st.provider] = provider
    return out


class Feed:
    """Where a run's items come from: `workers` helper processes, started when the Feed is made (their
    imports then overlap the run's own start-up), when `grid_json` (the saved grid) is given; else this
    process. Worker w of n prepares every n-th block of skeletons; the run reads a block from each in turn.

    `settled` (a bit per source index, skip.walk's) are the skeletons a resume found settled: they are not made.
    `manifest`: where the index and identity of each item made are noted, those of `known` indices excepted."""

    def __init__(self, grid: Grid, shard: tuple[int, int] | None, grid_json: Path | None = None, workers: int = 1,
                 settled: bytes | None = None, manifest: Path | None = None, known: bytearray | None = None):
        self.grid, self.shard, self.settled = grid, shard, settled
        self.procs: list[subprocess.Popen[bytes]] = []
        self._outs: list[IO[bytes]] = []   # each helper's stdout: its items, framed
        self._errors: list[IO[bytes]] = []
        self._notes = Writer(manifest) if manifest is not None else None
        self._known = known if known is not None else bytearray()
        if grid_json is None:
            return
        bits = tempfile.TemporaryFile()   # the settled bits, read by every helper through its own descriptor
        bits.write(settled or b"")
        bits.flush()
        with bits:
            for w in range(workers):
                args = [sys.executable, "-m", "runner.engine.feed", str(grid_json), f"{w}/{workers}"] + \
                    ([f"{shard[0]}/{shard[1]}"] if shard else []) + [f"--settled-fd={bits.fileno()}"] * bool(settled)
                self._errors.append(tempfile.TemporaryFile())
                # Plain Popen, its stdout wired to the loop by hand: asyncio's own subprocess wait() never
                # returns for a killed child whose pipe we stopped reading (Python 3.11), and we must stop it.
                proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._errors[-1], start_new_session=True,
                                        preexec_fn=die_with_parent,   # Ctrl-C reaches the run, and the run stops us
                                        pass_fds=(bits.fileno(),) if settled else ())
                if proc.stdout is None:   # never: stdout=PIPE makes one; said so for the type
                    raise RuntimeError("a helper started without its pipe")
                self.procs.append(proc)
                self._outs.append(proc.stdout)
                widen_pipe(proc.stdout.fileno())

    def _note(self, batch: list[Item]) -> None:
        """Note the new items' indices and identities in the manifest (one write a batch)."""
        if self._notes is not None:
            known = self._known
            self._notes.add([(it.source_index, it.identity) for it in batch
                            if it.source_index >= 0 and not is_set(known, it.source_index)])

    async def batches(self) -> AsyncGenerator[list[Item], None]:
        """The items, in skeleton order, in batches; a helper that fails raises a one-line UserError."""
        if not self.procs:
            for batch in Preparer(self.grid, local_renderers(self.grid)).batches(self.shard, settled=self.settled):
                if batch:
                    self._note(batch)
                    yield batch
            return
        loop = asyncio.get_running_loop()
        readers: list[asyncio.StreamReader] = []
        transports: list[asyncio.ReadTransport] = []
        try:
            for out in self._outs:
                reader = asyncio.StreamReader(limit=PIPE_BYTES)   # the pipe's size: the default 64 KiB pauses and resumes per frame
                transport, _ = await loop.connect_read_pipe(functools.partial(asyncio.StreamReaderProtocol, reader), out)
                readers.append(reader)
                transports.append(transport)
            turn = 0
            while True:
                try:
                    head = await readers[turn].readexactly(_FRAME.size)
                except asyncio.IncompleteReadError:   # this worker's blocks are done: so are all the others'
                    break
                batch = pickle.loads(await readers[turn].readexactly(_FRAME.unpack(head)[0]))
                turn = (turn + 1) % len(readers)
                if batch:
                    self._note(batch)
                    yield batch
            # At EOF: this helper is done, or died (its exit code says which); if done, so are the others.
            self._check(turn, self.procs[turn].wait())
            for i, proc in enumerate(self.procs):
                if i != turn:
                    await readers[i].read()
                    self._check(i, proc.wait())
        finally:
            for transport in transports:
                transport.close()

    def _check(self, i: int, code: int) -> None:
        self._errors[i].seek(0)
        err = self._errors[i].read().decode("utf-8", "replace").strip()
        if code == 2 and err:   # a UserError (say, the skeleton file changed under us): its one line
            raise UserError(err.splitlines()[-1])
        if code != 0:   # killed (say, by the OOM killer) or crashed: stop; finished units are on disk
            why = f"killed by signal {-code}" if code < 0 else f"exit {code}: {err.splitlines()[-1] if err else ''}"
            raise UserError(f"the skeleton helper (python -m runner.engine.feed) stopped ({why}); "
                            "finished units are on disk: rerun the same command to resume")

    def close(self) -> None:
        """Stop the helpers that still run (the run ended early, failed or was interrupted)."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for out in self._outs:
            out.close()
        for fh in self._errors:
            fh.close()
        if self._notes is not None:
            self._notes.close()


def main(argv: list[str]) -> int:
    """A helper: prepare its stripe of a saved grid's items (of a shard, if given) and stream them, framed,
    to stdout. Arguments: GRID_JSON W/N [I/SHARDS] [--settled-fd=FD] (a file of the settled bits, see Feed)."""
    grid = Grid.from_json(Path(argv[0]).read_bytes())
    stripe = _pair(argv[1])
    rest = [a for a in argv[2:] if not a.startswith("--settled-fd=")]
    shard = _pair(rest[0]) if rest else None
    settled = None
    for arg in argv[2:]:
        if arg.startswith("--settled-fd="):   # read by offset: the helpers share the descriptor's position
            fd = int(arg.split("=", 1)[1])
            size, chunks = os.fstat(fd).st_size, list[bytes]()
            while (done := sum(map(len, chunks))) < size:
                chunks.append(os.pread(fd, size - done, done))
            os.close(fd)
            settled = b"".join(chunks)
    out = sys.stdout.fileno()   # each frame written whole by write_all, not through sys.stdout's buffer
    try:
        for batch in Preparer(grid, local_renderers(grid)).batches(shard, stripe, settled):
            data = pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)
            write_all(out, _FRAME.pack(len(data)) + data)
    except BrokenPipeError:   # the run stopped reading: it ended or was interrupted
        os._exit(0)
    except UserError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


def _pair(arg: str) -> tuple[int, int]:
    """An `I/N` argument (a stripe or a shard), as the Feed wrote it."""
    i, n = arg.split("/")
    return int(i), int(n)


if __name__ == "__main__":
    from runner.engine import feed  # so that items pickle as runner.engine.feed.Item, not __main__.Item
    sys.exit(feed.main(sys.argv[1:]))
