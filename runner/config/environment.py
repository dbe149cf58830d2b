"""The environment variables bench reads, in one table: each checked (a type, a range) before any command
runs, so a bad value is one line naming it, not a flood of progress lines or a silent default."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from runner.errors import UserError, printable


@dataclass(frozen=True)
class Variable:
    """One variable: what it sets, its type and bounds, its default."""

    what: str
    kind: Callable[[str], float | int | str | Path]
    default: float | int | str | None
    lo: float = 0
    hi: float = math.inf


VARIABLES: dict[str, Variable] = {
    "LSB_PROGRESS_EVERY": Variable("seconds between progress lines off a terminal", float, 15.0, 0.5, 86_400),
    "LSB_PREPARE_ASIDE_MIN": Variable("skeletons from which a run prepares them in a helper process", int, 2000),
    "LSB_CACHE_DIR": Variable("where prepared local models are kept", Path, None),
    "LSB_AHEAD_MIN": Variable("log bytes from which a run that wrote to its logs keeps their index and columns for "
                              "the next resume and report", int, 64 << 20),
    "LSB_KEEP_EVERY": Variable("seconds between a run's checkpoints of its logs' index (logs of LSB_AHEAD_MIN bytes "
                               "or more)", float, 300.0, 0.1, 86_400),
    "LSB_UVLOOP": Variable("1: a run's event loop is uvloop's where installed; 0: asyncio's own", int, 1, 0, 1),
}


def value(name: str, env: Mapping[str, str] | None = None) -> float | int | str | None:
    """A variable's value, checked; its default when unset or empty. UserError names it and what is expected."""
    var = VARIABLES[name]
    text = (os.environ if env is None else env).get(name, "")
    if not text:
        return var.default
    if var.kind is Path:   # a folder bench makes things in: where something else is, said before any work
        if (other := _not_a_folder(Path(text))) is not None:
            raise UserError(f"environment variable {name}={printable(text)!r}: {other} is not a folder ({var.what})")
        return text
    got: float | int | None = None
    try:   # ASCII only: int() and float() take other scripts' digits ('١٥'), which no other number of bench's does
        made = var.kind(text) if text.isascii() else None
        got = made if isinstance(made, (int, float)) else None
    except ValueError:
        pass
    # an integer within 64 bits: a longer one overflows where it is used as a float
    hi = min(var.hi, 2**63 - 1) if var.kind is int else var.hi
    if got is None or not (var.lo <= got <= hi) or (isinstance(got, float) and not math.isfinite(got)):
        span = f"{var.lo:g} or more" if hi == math.inf else f"{var.lo:g}..{hi}" if var.kind is int else \
            f"{var.lo:g}..{hi:g}"
        raise UserError(f"environment variable {name}={printable(text)!r}: expected "
                        f"{'an integer' if var.kind is int else 'a number'} {span} ({var.what})")
    return got


def _not_a_folder(path: Path) -> Path | None:
    """The path or its nearest parent that exists, where that is not a folder (a file, a device); None if fine."""
    for place in (path, *path.parents):
        if os.path.lexists(place):
            return None if place.is_dir() else place
    return None


def number(name: str, env: Mapping[str, str] | None = None) -> float:
    """A numeric variable's value (its table entry is int or float, with a number for default)."""
    got = value(name, env)
    if not isinstance(got, (int, float)):
        raise TypeError(f"{name} is not a numeric variable")
    return float(got)


def check(env: Mapping[str, str] | None = None) -> None:
    """Every variable of the table that is set, checked (UserError for the first bad one)."""
    for name in VARIABLES:
        value(name, env)
