"""Progress on long runs: a tqdm bar per stage (counts by status, retries) on a terminal, else a line at a steady
pace (the model's units apart from those made at once, and the time left)."""
from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter, deque
from typing import cast

from tqdm import tqdm

from runner.config import environment

RECENT = 12   # a stage's units that say what one more takes now and the pace they end at: its last RECENT


class Counts:
    """A run's units per stage, by status, with retries and skipped ones; without bars or lines, they are
    what a node agent's batch did, sent back to the driver."""

    lines = False
    repairing = 0   # renders in a repair round now (shown by Progress)
    phase: str | None = None   # what the run waits on, when it is not sending units (shown by Progress)

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {"render": Counter(), "solve": Counter()}

    def done(self, stage: str, status: str, attempts: int, latency: float | None = None, unit: int = 0) -> None:
        """A unit finished now; `latency` is its model's seconds (None: made at once, by the template renderer
        or a baseline solver); `unit`, what its `begin` gave."""
        c = self.counts[stage]
        c[status] += 1
        if attempts > 1:
            c["retries"] += attempts - 1

    def skipped(self, stage: str, n: int = 1, instant: bool = False) -> None:
        """Units already terminal in the logs (resume) or blocked by a failed render (`instant`: of a stage that
        costs no time, the template or a baseline)."""
        if n:
            self.counts[stage]["skipped"] += n

    def begin(self, stage: str) -> int:
        """A unit that costs time (a model's) is sent now; its `done` comes with its latency and this token."""
        return 0

    def note(self, line: str) -> None:
        """An agent has no terminal: its notes reach the user through the driver."""


def finished(c: Counter[str]) -> int:
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
        self.instant_seen: Counter[str] = Counter()
        self.elsewhere_done = 0   # units whose counts came from elsewhere (a Ray run's agents), not their seconds
        # Per stage: model units finished and their seconds, and those in flight (when each was sent)
        self.stage_done: Counter[str] = Counter()
        self.stage_seconds: dict[str, float] = {"render": 0.0, "solve": 0.0}
        # Per stage, its last RECENT model units: their seconds with how many units were in flight when each was
        # sent (its wait for a server slot grows with them), and when they ended
        self.recent: dict[str, deque[tuple[float, int]]] = {stage: deque(maxlen=RECENT) for stage in ("render", "solve")}
        self.ends: dict[str, deque[float]] = {"render": deque(maxlen=RECENT), "solve": deque(maxlen=RECENT)}
        self.flying: dict[str, dict[int, float]] = {"render": {}, "solve": {}}   # token -> when it was sent
        self._tokens = 0
        self.sent_with: dict[int, int] = {}   # token -> units in flight when it was sent
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

    def done(self, stage: str, status: str, attempts: int, latency: float | None = None, unit: int = 0) -> None:
        """A unit finished now."""
        Counts.done(self, stage, status, attempts)
        if latency is None:
            self.instant_seen[stage] += 1
        else:
            self.stage_done[stage] += 1
            self.stage_seconds[stage] += latency
            self.recent[stage].append((latency, self.sent_with.pop(unit, 0)))
            self.ends[stage].append(time.monotonic())
            self.flying[stage].pop(unit, None)
        bar = self.bars[stage]
        if not bar.disable:   # per unit, on the loop: nothing more to do when no bar is shown
            bar.update(1)
            self._postfix()

    def begin(self, stage: str) -> int:
        """A model unit is sent now: in flight until its `done` (given the token this returns)."""
        self._tokens += 1
        self.sent_with[self._tokens] = sum(len(f) for f in self.flying.values())
        self.flying[stage][self._tokens] = time.monotonic()
        return self._tokens

    def skipped(self, stage: str, n: int = 1, instant: bool = False) -> None:
        """Units already terminal in the logs (resume) or blocked by a failed render."""
        if n:
            Counts.skipped(self, stage, n)
            if instant:
                self.instant_seen[stage] += n
            self.bars[stage].update(n)
            self._postfix()

    def absorb(self, counts: dict[str, Counter[str]]) -> None:
        """Units another process finished (a node agent's batch): counted and shown as if done here."""
        for stage, c in counts.items():
            self.counts[stage].update(c)
            n = sum(v for k, v in c.items() if k != "retries")
            if n:
                self.bars[stage].update(n)
            self.elsewhere_done += finished(c)   # an agent's units: their seconds are the agent's, not known here
        self._postfix()

    def start_clock(self) -> None:
        """Units begin to be sent now: the pace is reckoned from here (not from server start or calibration)."""
        self.clock = time.monotonic()
        self.phase = None

    def time_left(self) -> str:
        """What is left, in time, or that it cannot be known yet.

        From the work left: per stage, the model units not yet sent times the stage's mean seconds per
        unit, and what its units in flight have left of that mean; over how many units the servers carry
        at once (their busy unit-seconds, finished and in flight, per second of sending: Little's law).
        A stage's mean counts its units in flight at least at their seconds so far (else the quick units,
        which finish first, would make it short). Instant units (the template's, the baselines') cost
        nothing. Never less than what one more unit of a stage takes while one of it waits to be sent: the
        mean seconds of its last RECENT units that were sent with no more units in flight than now (a unit's
        seconds include its wait for a server slot: the all-time mean of the default grid's solves, minutes
        of waiting, said 1m29s with 7 s left). Once every unit of a stage in flight has run past its finished
        units' mean (a server shares itself among them: their ages no longer say when they end), weighed
        with its units left at the pace its last RECENT ended. Unknown when a unit in flight has run past its
        stage's mean for longer than all that. Replayed on three real runs of the default grid, every number
        said was within twice the time left (tests/test_progress.py)."""
        left = 0
        costly: dict[str, int] = {}
        for stage, c in self.counts.items():
            total = self.totals[stage] or 0
            seen = finished(c) + c["skipped"]
            left += max(0, total - seen)
            costly[stage] = max(0, (total - self.instant_total[stage]) - (seen - self.instant_seen[stage]))
        if not left:
            return "done"
        if not any(costly.values()):
            return "a moment left"
        if self.clock is None:
            return "time left unknown (no model answers yet)"
        if not self.stage_done and self.elsewhere_done:   # counted elsewhere (a Ray run's agents): their pace
            return self._time_left_by_pace(sum(costly.values()), self.clock)
        now = time.monotonic()
        work = floor = busy = paced = 0.0
        in_flight = sum(len(f) for f in self.flying.values())
        overdue: tuple[float, str, float] | None = None   # (seconds past the mean, stage, mean)
        for stage, n in costly.items():
            ages = [now - t for t in self.flying[stage].values()]
            busy += self.stage_seconds[stage] + sum(ages)
            if not n:
                continue
            if not self.stage_done[stage]:
                return f"time left unknown (no {stage} answered yet)"
            done_mean = self.stage_seconds[stage] / self.stage_done[stage]
            mean = (self.stage_seconds[stage] + sum(max(a, done_mean) for a in ages)) / (self.stage_done[stage] + len(ages))
            # what one more unit takes now: the stage's recent units sent with no more in flight than now
            like = [seconds for seconds, among in self.recent[stage] if among <= in_flight]
            waiting = max(0, n - len(ages))
            work += waiting * mean + sum(max(0.0, mean - a) for a in ages)
            if waiting and like:
                floor = max(floor, min(mean, sum(like) / len(like)))
            ends = self.ends[stage]
            if ages and min(ages) >= done_mean and len(ends) >= 2:   # ages no longer say when they end
                paced = max(paced, n * (now - ends[0]) / len(ends))
            oldest = max(ages, default=0.0)
            if oldest > mean and (overdue is None or oldest - mean > overdue[0]):
                overdue = (oldest - mean, stage, mean)
        carried = busy / max(now - self.clock, 1e-9)   # units in flight on average
        seconds = max(work / max(carried, 1e-9), floor)
        # The ages' view says too little once a shared server speeds up with fewer units; the pace too much when
        # its window held other work: weighed (geometric, toward the pace; from three real runs, BENCHMARKS.md)
        seconds = max(seconds, seconds ** 0.4 * paced ** 0.6)
        if overdue is not None and seconds < overdue[0]:
            past, stage, mean = overdue
            return f"time left unknown (a {stage} has run {_clock(mean + past)}, its stage's mean is {_clock(mean)})"
        return f"about {_clock(seconds)} left"

    def _time_left_by_pace(self, costly: int, clock: float) -> str:
        """Where only counts come (a Ray run's agents, whose seconds are theirs): the units left at the pace
        of those done since the clock started."""
        if self.elsewhere_done < 2:
            return "time left unknown (too few model answers yet)"
        pace = self.elsewhere_done / max(time.monotonic() - clock, 1e-9)
        return f"about {_clock(costly / pace)} left"

    def line(self) -> str:
        """Where the run is, in one line: units done per stage with their statuses (and, beside units made at
        once, how many of the model's are done), the rate, time left, and what it waits on (an auditor's
        calibration, renders in a repair round)."""
        done = sum(finished(c) for c in self.counts.values())
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        waits = ([self.phase] if self.phase else []) + (
            [f"{self.repairing} render(s) in a repair round"] if self.repairing else [])
        parts = "; ".join(self._stage_part(stage) for stage in self.counts)
        return f"bench: {parts}; {rate:.2f} units/s; {self.time_left()}" + "".join(f"; {w}" for w in waits)

    def _stage_part(self, stage: str) -> str:
        """`render 30/48 (ok 30; model 6/24)`: seen of the total, by status; where the template or a baseline
        made some at once, the model units apart (else 24 instant renders read as half the work done)."""
        c, total = self.counts[stage], self.totals[stage]
        seen = finished(c) + c["skipped"]
        statuses = [f"{k} {v}" for k, v in sorted(c.items()) if k not in ("retries", "skipped") and v]
        details = [", ".join(statuses + ([f"skipped {c['skipped']}"] if c["skipped"] else []))]
        instant = self.instant_total[stage]
        if instant and total is not None and total > instant:
            details.append(f"model {seen - self.instant_seen[stage]}/{total - instant}")
        inside = "; ".join(d for d in details if d)
        return f"{stage} {seen}/{total if total is not None else '?'}" + (f" ({inside})" if inside else "")

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
    return cast(float, environment.value("LSB_PROGRESS_EVERY"))   # the table's kind for it is float


def _clock(seconds: float) -> str:
    """1h02m, 3m05s, 42s."""
    s = max(1, int(seconds + 0.5))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"
