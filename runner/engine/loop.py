"""The run's event loop: uvloop where it is installed (automatic; LSB_UVLOOP=0 keeps asyncio's own)."""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from runner.config import environment


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's new_event_loop when installed and not turned off, else None (asyncio's default loop)."""
    if not environment.value("LSB_UVLOOP"):
        return None
    try:
        import uvloop
    except ImportError:   # an optional speed-up: Linux and macOS wheels only
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run(main) on the loop of `loop_factory` (Python 3.11's Runner; 3.10 runs asyncio's own)."""
    factory = loop_factory()
    if factory is None or sys.version_info < (3, 11):
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
