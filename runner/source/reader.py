"""Reading skeletons.jsonl as a stream: each line parsed and validated, errors named by line number."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from families.ir import Skeleton, SkeletonError
from families.logicmark import skeleton_from_logicmark
from families.validation import skeleton_from_json, validate
from runner.errors import UserError
from runner.store.guard import open_regular

BOM = b"\xef\xbb\xbf"
FORMATS = ("jsonl", "logicmark")   # our skeletons, or the LogicMark card's records (equality)


def scan(path: Path, fmt: str = "jsonl", keep: Callable[[int], bool] | None = None,
         ) -> Iterator[tuple[int, Skeleton | SkeletonError]]:
    """Yield (line number, skeleton or the error of that line); blank lines are skipped, ids must be unique.

    `keep(i)`: whether the i-th record (from 0; blank lines do not count) is parsed; the others are passed
    over unread, and ids are compared among the kept ones only (a run checks the whole file first)."""
    seen: set[str] = set()
    try:
        fh = open_regular(path, "skeletons")
    except OSError as exc:
        raise UserError(f"{path}: cannot read skeletons ({exc.strerror})") from None
    records = 0
    with fh:
        for lineno, line in enumerate(fh, 1):
            if lineno == 1 and line.startswith(BOM):   # an editor's byte-order mark: accepted, as in grids
                line = line[len(BOM):]
            if not line.strip():
                continue
            records += 1
            if keep is not None and not keep(records - 1):
                continue
            try:
                sk = skeleton_from_logicmark(line, lineno) if fmt == "logicmark" else skeleton_from_json(line)
                if fmt == "logicmark":
                    validate(sk)
            except SkeletonError as exc:
                yield lineno, _other_format(line, fmt) or exc
                continue
            if sk.id in seen:
                yield lineno, SkeletonError(f"id: {sk.id!r} appears twice in the file")
                continue
            seen.add(sk.id)
            yield lineno, sk
    if not records:   # an empty source would run, report "ok 0" and mean nothing
        what = "LogicMark record" if fmt == "logicmark" else "skeleton"
        raise UserError(f"{path}: holds no {what} (the file is empty); give a file with one JSON object per line")


_CARD_KEYS = (b'"context"', b'"answer_index"', b'"hop_depth"')   # a LogicMark card record's own keys


def _other_format(line: bytes, fmt: str) -> SkeletonError | None:
    """Where a skeleton line fails and is a LogicMark record, the error that says which flag reads it (20 lines of
    "family: missing field" said nothing of it); else None."""
    if fmt != "jsonl" or b'"family"' in line or not all(key in line for key in _CARD_KEYS):
        return None
    return SkeletonError("a LogicMark record, not a skeleton: read the file with --format logicmark (bench validate) "
                         "or skeletons: {path: ..., format: logicmark} (a grid)")


def read_skeletons(path: Path, fmt: str = "jsonl", keep: Callable[[int], bool] | None = None,
                   ) -> Iterator[tuple[int, Skeleton]]:
    """Stream (record index, skeleton) of the valid skeletons (those `keep` keeps, see `scan`); the first
    bad line raises UserError naming the file and line."""
    index = -1
    for lineno, item in scan(path, fmt, keep):
        index += 1
        while keep is not None and not keep(index):   # the records scan passed over
            index += 1
        if isinstance(item, SkeletonError):
            raise UserError(f"{path}:{lineno}: {item}")
        yield index, item
