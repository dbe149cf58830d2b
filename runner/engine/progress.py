"""Progress on long runs: one tqdm bar per stage with ok / invalid / error / skipped counts and retries."""
from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter

from tqdm import tqdm

from runner.config import environment


class Counts:
    """A run's units per stage, by status, with retries and skipped ones; without bars or lines, they are
    what a node agent's batch did, sent back to the driver."""

    lines = False
    repairing = 0   # renders in a repair round now (shown by Progress)
    phase: str | None = None   # what the run waits on, when it is not sending units (shown by Progress)

    def __init__(self) -> None:
        self.counts: dict[str, Counter] = {"render": Counter(), "solve": Counter()}

    def done(self, stage: str, status: str, attempts: int, latency: float | None = None) -> None:
        """A unit finished now; `latency` is its model's seconds (None: made at once, by the template renderer
        or a baseline solver)."""
        c = self.counts[stage]
        c[status] += 1
        if attempts > 1:
            c["retries"] += attempts - 1

    def skipped(self, stage: str, n: int = 1, instant: bool = False) -> None:
        """Units already terminal in the logs (resume) or blocked by a failed render (`instant`: of a stage that
        costs no time, the template or a baseline)."""
        if n:
            self.counts[stage]["skipped"] += n

    def note(self, line: str) -> None:
        """An agent has no terminal: its notes reach the user through the driver."""


def finished(c: Counter) -> int:
    """Units a stage's counter says were done here (sent and ended), not skipped; retries are no units."""
    return sum(v for k, v in c.items() if k not in ("retries", "skipped"))


class Progress(Counts):
    """Bars for the render and solve stages on a terminal; off a terminal (a file, a pipe, CI, nohup) one
    line every `LSB_PROGRESS_EVERY` seconds (default 15) instead; counts kept either way."""

    def __init__(self, render_total: int | None, solve_total: int | None, quiet: bool,
                 instant: tuple[int, int] = (0, 0)):
        off = True if quiet else None   # None: tqdm shows bars only on a terminal
        self.totals = {"render": render_total, "solve": solve_total}
        # Time left is reckoned from the units that cost time: `instant` are how many of the totals the
        # template and the baselines make at once; the others' count, seconds and pace are kept here.
        self.instant_total = {"render": instant[0], "solve": instant[1]}
        self.instant_seen: Counter = Counter()
        self.costly_done = 0
        self.costly_seconds = 0.0
        self.clock: float | None = None   # when units began to be sent (after servers and calibration)
        self.phase: str | None = None     # what the run waits on now, when it is not sending units
        self.repairing = 0                # renders in a repair round now
        self.lines = not quiet and not sys.stderr.isatty()
        self.every = _every()
        self.started = time.monotonic()
        self.bars = {
            "render": tqdm(total=render_total, desc="render", unit="unit", disable=off, file=sys.stderr,
                           dynamic_ncols=True, mininterval=0.5, position=0),
            "solve": tqdm(total=solve_total, desc="solve ", unit="unit", disable=off, file=sys.stderr,
                          dynamic_ncols=True, mininterval=0.5, position=1),
        }
        super().__init__()
        self._shown = 0.0

    def done(self, stage: str, status: str, attempts: int, latency: float | None = None) -> None:
        """A unit finished now."""
        Counts.done(self, stage, status, attempts)
        if latency is None:
            self.instant_seen[stage] += 1
        else:
            self.costly_done += 1
            self.costly_seconds += latency
        bar = self.bars[stage]
        if not bar.disable:   # per unit, on the loop: nothing more to do when no bar is shown
            bar.update(1)
            self._postfix()

    def skipped(self, stage: str, n: int = 1, instant: bool = False) -> None:
        """Units already terminal in the logs (resume) or blocked by a failed render."""
        if n:
            Counts.skipped(self, stage, n)
            if instant:
                self.instant_seen[stage] += n
            self.bars[stage].update(n)
            self._postfix()

    def absorb(self, counts: dict[str, Counter]) -> None:
        """Units another process finished (a node agent's batch): counted and shown as if done here."""
        for stage, c in counts.items():
            self.counts[stage].update(c)
            n = sum(v for k, v in c.items() if k != "retries")
            if n:
                self.bars[stage].update(n)
            self.costly_done += finished(c)   # an agent's units: their seconds are the agent's, not known here
        self._postfix()

    def start_clock(self) -> None:
        """Units begin to be sent now: the pace is reckoned from here (not from server start or calibration)."""
        self.clock = time.monotonic()
        self.phase = None

    def time_left(self) -> str:
        """What is left, in time: reckoned from the units that cost time (their pace, and never less than one
        unit's mean seconds while any is left), or said to be unknown."""
        left = costly = 0
        for stage, c in self.counts.items():
            total = self.totals[stage] or 0
            seen = finished(c) + c["skipped"]
            left += max(0, total - seen)
            costly += max(0, (total - self.instant_total[stage]) - (seen - self.instant_seen[stage]))
        if not left:
            return "done"
        if not costly:
            return "a moment left"
        if self.costly_done < 2 or self.clock is None:
            return "time left unknown (too few model answers yet)"
        pace = self.costly_done / max(time.monotonic() - self.clock, 1e-9)
        mean = self.costly_seconds / self.costly_done
        return f"about {_clock(max(costly / pace, mean))} left"

    def line(self) -> str:
        """Where the run is, in one line: units done per stage with their statuses, the rate, time left, and what
        it waits on (an auditor's calibration, renders in a repair round)."""
        parts, done = [], 0
        for stage, c in self.counts.items():
            total = self.totals[stage]
            ended = finished(c)
            seen = ended + c["skipped"]
            statuses = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("retries", "skipped") and v)
            parts.append(f"{stage} {seen}/{total if total is not None else '?'}"
                         + (f" ({statuses}{', ' if statuses and c['skipped'] else ''}"
                            f"{'skipped ' + str(c['skipped']) if c['skipped'] else ''})" if statuses or c["skipped"]
                            else ""))
            done += ended
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        waits = ([self.phase] if self.phase else []) + (
            [f"{self.repairing} render(s) in a repair round"] if self.repairing else [])
        return f"bench: {'; '.join(parts)}; {rate:.2f} units/s; {self.time_left()}" + \
            "".join(f"; {w}" for w in waits)

    async def lines_every(self) -> None:
        """Off a terminal: print `line()` at a steady pace until cancelled (the run's end)."""
        while True:
            await asyncio.sleep(self.every)
            print(self.line(), file=sys.stderr, flush=True)

    def note(self, line: str) -> None:
        """One line for the user (stderr), above the bars where they are shown."""
        tqdm.write(line, file=sys.stderr)

    def _postfix(self) -> None:
        now = time.monotonic()
        if now - self._shown < 0.5:
            return
        self._shown = now
        for stage, bar in self.bars.items():
            c = self.counts[stage]
            bar.set_postfix_str(f"ok={c['ok']} invalid={c['invalid']} error={c['error']} "
                                f"skipped={c['skipped']} retries={c['retries']}", refresh=False)

    def close(self) -> None:
        self._shown = 0.0
        self._postfix()
        for bar in self.bars.values():
            bar.close()


def _every() -> float:
    """Seconds between progress lines off a terminal (LSB_PROGRESS_EVERY; 15 by default; checked at start)."""
    return float(environment.value("LSB_PROGRESS_EVERY"))


def _clock(seconds: float) -> str:
    """1h02m, 3m05s, 42s."""
    s = max(1, int(seconds + 0.5))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"
