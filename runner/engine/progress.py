"""Progress on long runs: one tqdm bar per stage with ok / invalid / error / skipped counts and retries."""
from __future__ import annotations

import sys
import time
from collections import Counter

from tqdm import tqdm


class Progress:
    """Bars for the render and solve stages; counts kept whether or not bars are shown."""

    def __init__(self, render_total: int | None, solve_total: int | None, quiet: bool):
        off = True if quiet else None   # None: tqdm shows bars only on a terminal
        self.bars = {
            "render": tqdm(total=render_total, desc="render", unit="unit", disable=off, file=sys.stderr,
                           dynamic_ncols=True, mininterval=0.5, position=0),
            "solve": tqdm(total=solve_total, desc="solve ", unit="unit", disable=off, file=sys.stderr,
                          dynamic_ncols=True, mininterval=0.5, position=1),
        }
        self.counts = {"render": Counter(), "solve": Counter()}
        self._shown = 0.0

    def done(self, stage: str, status: str, attempts: int) -> None:
        """A unit finished now."""
        c = self.counts[stage]
        c[status] += 1
        if attempts > 1:
            c["retries"] += attempts - 1
        bar = self.bars[stage]
        if not bar.disable:   # per unit, on the loop: nothing more to do when no bar is shown
            bar.update(1)
            self._postfix()

    def skipped(self, stage: str, n: int = 1) -> None:
        """Units already terminal in the logs (resume) or blocked by a failed render."""
        if n:
            self.counts[stage]["skipped"] += n
            self.bars[stage].update(n)
            self._postfix()

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
