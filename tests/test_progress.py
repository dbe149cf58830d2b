"""The progress line's time left: reckoned from the units that cost time, never from the template's instant
renders; unknown until model answers come; never less than one unit's seconds while any is left."""
from __future__ import annotations

import time

from runner.engine.progress import Progress


def progress(renders: int, solves: int, instant: tuple[int, int]) -> Progress:
    p = Progress(renders, solves, quiet=True, instant=instant)
    p.start_clock()
    return p


def test_instant_units_done_say_nothing_of_the_model_units_left():
    p = progress(48, 144, instant=(24, 96))   # the default grid: template renders, two baseline solvers
    for _ in range(24):
        p.done("render", "ok", 1)              # the template's, at once
    for _ in range(96):
        p.done("solve", "ok", 1)               # the baselines'
    assert p.time_left() == "time left unknown (too few model answers yet)"


def test_time_left_follows_the_pace_of_model_units_and_is_never_under_one_unit():
    p = progress(10, 10, instant=(0, 0))
    p.clock = time.monotonic() - 20.0          # 20 s of sending
    for _ in range(10):
        p.done("render", "ok", 1, latency=2.0)  # ten renders in 20 s: 0.5 units/s
    for _ in range(9):
        p.done("solve", "ok", 1, latency=2.0)
    # one unit left at 19 / 20 s = 0.95 units/s would say 1 s: but a unit takes 2 s
    assert p.time_left() == "about 2s left"
    p.done("solve", "ok", 1, latency=2.0)
    assert p.time_left() == "done"


def test_what_the_run_waits_on_is_said():
    p = progress(4, 4, instant=(0, 0))
    p.phase = "auditor(s) judge reading their control renders: 3/80"
    p.repairing = 1
    line = p.line()
    assert line.endswith("; auditor(s) judge reading their control renders: 3/80; 1 render(s) in a repair round")
