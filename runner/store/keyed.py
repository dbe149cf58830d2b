"""Where a unit's records are in a log, found by a byte search for the render key a line carries (no line
parsed): for the view, which reads the records whole (logs.read_many) only when a page shows them."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from runner.store.guard import open_regular
from runner.store.sinks import RENDERS, SOLVES

# a record's key, wherever it stands in its line and whatever spaces a writer put around the colon; a key
# inside a model's text is escaped (\"key\"), so the look-behind leaves it out
_KEY = {RENDERS: re.compile(rb'(?<!\\)"key"\s*:\s*"([0-9a-zA-Z]{1,64})"'),
        SOLVES: re.compile(rb'(?<!\\)"render_key"\s*:\s*"([0-9a-zA-Z]{1,64})"')}


def unit_offsets(path: Path, log: str) -> dict[str, list[int]]:
    """Render key -> the offsets of the lines of a log that carry it (a byte search: the records are read
    whole, and their key checked, when a page shows them)."""
    out: dict[str, list[int]] = defaultdict(list)
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        return out
    search = _KEY[log].search
    needle = b'"key":"' if log == RENDERS else b'"render_key":"'   # as bench writes it: a plain find, 4x a regex
    size = len(needle)
    with fh:   # the loop of keyed_lines, inlined: a generator costs twice as much a line on a million lines
        offset = 0
        for line in fh:
            at = line.find(needle)
            end = line.find(b'"', at + size) if at > 0 and line[at - 1] != 92 else -1   # 92: a backslash
            if end > 0:
                out[line[at + size:end].decode("ascii", "replace")].append(offset)
            elif m := search(line):   # another writer's spacing
                out[m.group(1).decode("ascii")].append(offset)
            offset += len(line)
    return out


def keyed_lines(path: Path, log: str) -> Iterator[tuple[str, int, bytes]]:
    """(render key, offset, line) of each line of a log that carries a key."""
    try:
        fh = open_regular(path, "log")
    except (FileNotFoundError, NotADirectoryError):
        return
    search = _KEY[log].search
    needle = b'"key":"' if log == RENDERS else b'"render_key":"'   # as bench writes it: a plain find, 4x a regex
    size = len(needle)
    with fh:
        offset = 0
        for line in fh:
            at = line.find(needle)
            end = line.find(b'"', at + size) if at > 0 and line[at - 1] != 92 else -1   # 92: a backslash
            if end > 0:
                yield line[at + size:end].decode("ascii", "replace"), offset, line
            elif m := search(line):   # another writer's spacing
                yield m.group(1).decode("ascii"), offset, line
            offset += len(line)
