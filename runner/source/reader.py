"""Reading skeletons.jsonl as a stream: each line parsed and validated, errors named by line number."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from families.ir import Skeleton, SkeletonError
from families.logicmark import skeleton_from_logicmark
from families.validation import skeleton_from_json, validate
from runner.errors import UserError


FORMATS = ("jsonl", "logicmark")   # our skeletons, or the LogicMark card's records (equality)


def scan(path: Path, fmt: str = "jsonl") -> Iterator[tuple[int, Skeleton | SkeletonError]]:
    """Yield (line number, skeleton or the error of that line); blank lines are skipped, ids must be unique."""
    seen: set[str] = set()
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UserError(f"{path}: cannot read skeletons ({exc.strerror})") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                sk = skeleton_from_logicmark(line, lineno) if fmt == "logicmark" else skeleton_from_json(line)
                if fmt == "logicmark":
                    validate(sk)
            except SkeletonError as exc:
                yield lineno, exc
                continue
            if sk.id in seen:
                yield lineno, SkeletonError(f"id: {sk.id!r} appears twice in the file")
                continue
            seen.add(sk.id)
            yield lineno, sk


def read_skeletons(path: Path, fmt: str = "jsonl") -> Iterator[Skeleton]:
    """Stream valid skeletons; the first bad line raises UserError naming the file and line."""
    for lineno, item in scan(path, fmt):
        if isinstance(item, SkeletonError):
            raise UserError(f"{path}:{lineno}: {item}")
        yield item
