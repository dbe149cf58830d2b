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
from pathlib import Path
from typing import IO, AsyncGenerator

from runner.children import PIPE_BYTES, cores, die_with_parent, widen_pipe, write_all
from runner.config import environment
from runner.config.grid import Grid
from runner.engine.items import BLOCK, Item, Preparer, local_renderers
from runner.errors import UserError
from runner.plan.manifest import Noted, Writer
from runner.plan.units import is_set

_FRAME = struct.Struct(">I")   # a frame's length, before its pickled batch of items
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
        """Note the new items in the manifest (one write a batch)."""
        if self._notes is not None:
            known = self._known
            self._notes.add([Noted(it.source_index, it.identity, it.family, len(it.answer_options)) for it in batch
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
    sys.exit(main(sys.argv[1:]))   # its items pickle as runner.engine.items.Item: defined there, not in __main__
