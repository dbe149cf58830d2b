"""A run's unit keys at 8 bytes each (a 64-bit digest), not a set of strings: which units a run did, for
its closing tables, in memory that stays small at millions of units."""
from __future__ import annotations

import array
import bisect
from hashlib import blake2b
from typing import Iterable


def code(key: str) -> int:
    """A key's 64-bit digest: two keys share one with odds of 2^-64 a pair (a render from another grid
    in the same folder would then be shown in the run's closing table; nothing else reads it)."""
    return int.from_bytes(blake2b(key.encode(), digest_size=8).digest(), "big")


class KeySet:
    """Keys added (`add`, `|=` another's), asked `key in keys`; sorted once, when first asked."""

    __slots__ = ("_codes", "_sorted")

    def __init__(self, keys: Iterable[str] = ()):
        self._codes = array.array("Q", map(code, keys))
        self._sorted = not self._codes

    def add(self, key: str) -> None:
        """Add one key (a key added twice is one key)."""
        self._codes.append(code(key))
        self._sorted = False

    def __ior__(self, other: "KeySet") -> "KeySet":
        self._codes.extend(other._codes)
        self._sorted = False
        return self

    def _sort(self) -> array.array[int]:
        if not self._sorted:   # sorted and each code once: a lookup is then a bisection in C
            self._codes = array.array("Q", sorted(set(self._codes)))
            self._sorted = True
        return self._codes

    def __contains__(self, key: object) -> bool:
        if type(key) is not str:
            return False
        codes, c = self._sort(), code(key)
        at = bisect.bisect_left(codes, c)
        return at < len(codes) and codes[at] == c

    def __len__(self) -> int:
        return len(self._sort())
