"""Per-item random generators derived from a hash, so items are independent and seeds never overlap."""
from __future__ import annotations

import _random
import functools
import hashlib
import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


class ItemRandom(random.Random):
    """Mersenne Twister with integer helpers built on `random()` alone.

    CPython's randrange/shuffle/choice spend most of a skeleton's time in `_randbelow`; deriving them
    from one double each is several times faster and just as reproducible on every machine (IEEE
    doubles). The bias of `int(random() * n)` is below 2**-40 for the small n used here.
    """

    gauss_next: float | None   # random.Random's own attribute (typeshed leaves it out): set when seeding

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step != 1 or stop <= start:
            raise ValueError("ItemRandom.randrange takes start < stop and step 1")
        return start + int(self.random() * (stop - start))

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b - a + 1))

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[int(self.random() * len(seq))]

    # The ignored overrides: the 3.10 stubs add shuffle's `random` and sample's set population, both
    # gone in 3.11; these take neither (as 3.11+ does)
    def shuffle(self, x: MutableSequence[T]) -> None:   # type: ignore[override]
        rnd = self.random
        for i in range(len(x) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int, *,   # type: ignore[override]
               counts: Iterable[int] | None = None) -> list[T]:
        n = len(population)
        if not 0 <= k <= n or counts is not None:
            raise ValueError("ItemRandom.sample takes 0 <= k <= len(population) and no counts")
        rnd = self.random
        if k == 2:   # the common case: the loop below's very draws and result, without copying
            a, b = int(rnd() * n), 1 + int(rnd() * (n - 1))
            return [population[a], population[0] if b == a else population[b]]
        pool = list(population)
        for i in range(k):
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


_seed_state = _random.Random.seed   # the C seeding, without random.py's Python wrappers


def item_rng(seed: int, family: str, index: int, complexity: int) -> ItemRandom:
    """The RNG of one item: a hash of (seed, family, index, complexity), never `seed + index`."""
    key = f"{seed}\x1f{family}\x1f{index}\x1f{complexity}".encode()
    # Same state as ItemRandom(n): random.py's seed() hands an int straight to the C seeding, and
    # skipping its Python wrappers saves a tenth of a small skeleton's time.
    rng = ItemRandom.__new__(ItemRandom)
    _seed_state(rng, int.from_bytes(hashlib.blake2b(key, digest_size=16).digest(), "big"))
    rng.gauss_next = None
    return rng


@functools.lru_cache(maxsize=None)
def symbol_names(prefix: str, n: int) -> tuple[str, ...]:
    """`prefix0` .. `prefix{n-1}`, made once: formatting them per item cost more than the item's logic."""
    return tuple(f"{prefix}{i}" for i in range(n))
