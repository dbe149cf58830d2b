"""The resume index's key-column decoder: a log line's typed fields (key, status, correct, ...) decoded by msgspec
into a struct, every other field skipped without building it (what makes a record's Python objects, most of
orjson's time, is left undone: 3 to 4 times faster a line).

It only ever says yes to a line the rule (orjson, then `Typed`'s exact types) also takes, with the same values,
or refuses it, and the index asks the rule (runner/store/index.py). Measured against orjson, line by line:
- what msgspec refuses and the rule takes (a duplicate field, an integer past 64 bits, nesting deeper than
  msgspec's limit, ...): asked of the rule;
- bytes that are not UTF-8 inside a skipped string, which msgspec does not check: the index reads such a block
  by the rule alone (it checks each block is ASCII, or UTF-8, first);
- nesting: msgspec counts it against Python's recursion limit (1000 unless a program raises it; bench does not),
  below orjson's 1024, so a line nested that deep is the rule's to read; a program that raises the limit past
  ~1024 (Hypothesis does, while a test runs) would see the decoder take a line nested between the two limits;
- a number beyond a double's range (1e400) inside a field the index does not read, which msgspec skips without
  orjson's range check: msgspec takes the line where orjson refuses it. No writer of bench's makes one (orjson
  writes no infinity); a line edited by hand to hold one is indexed as its fields say, where `status` and
  `report` skip it. It is said here and pinned by a test (tests/test_index_decode.py), not checked a line: finding
  a number's exponent in every line would cost what the decoder saves.
"""
from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

import msgspec
from msgspec import DecodeError, ValidationError
from msgspec.json import Decoder

from runner.store.logs import Typed

BLOCK_BYTES = 1 << 20   # a block read at once, its lines decoded one by one
# msgspec's int is any size; orjson reads an integer past 64 bits as a float, which `Typed` refuses: refused here too
_INT = Annotated[int, msgspec.Meta(ge=-(2 ** 63), le=2 ** 63 - 1)]
_TYPES: dict[Any, Any] = {str: str, int: _INT, (bool, type(None)): bool | None}
# A status is decoded as one of these (msgspec then gives the one string object, not a new one a line: 50 bytes an
# entry of the index); any other status string is the rule's to read
_STATUSES = Literal["ok", "unfaithful", "invalid", "unchecked", "error"]

__all__ = ["BLOCK_BYTES", "DecodeError", "Decoder", "ValidationError", "fast_decoder"]


def fast_decoder(typed: Typed) -> Decoder[Any] | None:
    """A decoder of `typed`'s fields (and `correct`, kept as given where it is not one of them); None where a
    field has a type it does not map (the rule reads such a log alone)."""
    return _decoder(tuple(zip(typed.names, typed.types)))


@functools.lru_cache(maxsize=None)
def _decoder(fields: tuple[tuple[str, Any], ...]) -> Decoder[Any] | None:
    spec: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for name, kind in fields:
        if kind not in _TYPES:
            return None
        spec.append((name, _STATUSES if name == "status" and kind is str else _TYPES[kind]))
    if "correct" not in dict(fields):   # the index keeps it where it is a bool; another value: the rule's line
        spec.append(("correct", bool | None, None))
    # gc=False: a struct made and dropped a line is never tracked by the cyclic collector
    return Decoder(msgspec.defstruct("Fields", spec, gc=False))
