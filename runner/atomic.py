"""Files that appear whole or not at all: write beside the target, rename at the end."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO, Iterator


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """Open a temporary file beside `path`; rename it over `path` only if the block succeeds."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
