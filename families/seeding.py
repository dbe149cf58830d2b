"""Per-item random generators derived from a hash, so items are independent and seeds never overlap."""
from __future__ import annotations

import hashlib
import random


class ItemRandom(random.Random):
    """Mersenne Twister with integer helpers built on `random()` alone.

    CPython's randrange/shuffle/choice spend most of a skeleton's time in `_randbelow`; deriving them
    from one double each is several times faster and just as reproducible on every machine (IEEE
    doubles). The bias of `int(random() * n)` is below 2**-40 for the small n used here.
    """

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step != 1 or stop <= start:
            raise ValueError("ItemRandom.randrange takes start < stop and step 1")
        return start + int(self.random() * (stop - start))

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b - a + 1))

    def choice(self, seq):
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[int(self.random() * len(seq))]

    def shuffle(self, x: list) -> None:
        rnd = self.random
        for i in range(len(x) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k: int, *, counts=None) -> list:
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n or counts is not None:
            raise ValueError("ItemRandom.sample takes 0 <= k <= len(population) and no counts")
        rnd = self.random
        for i in range(k):
            j = i + int(rnd() * (n - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def item_rng(seed: int, family: str, index: int, complexity: int) -> ItemRandom:
    """The RNG of one item: a hash of (seed, family, index, complexity), never `seed + index`."""
    key = f"{seed}\x1f{family}\x1f{index}\x1f{complexity}".encode()
    return ItemRandom(int.from_bytes(hashlib.blake2b(key, digest_size=16).digest(), "big"))


def place_not_in_proof_order(facts: list, proof_facts: list, rng: random.Random) -> list:
    """Shuffle declarative facts so the proof's premises never appear in proof order (when it has two or more)."""
    rng.shuffle(facts)
    if len(proof_facts) >= 2:
        pos = {id(f): i for i, f in enumerate(facts)}
        where = [pos[id(f)] for f in proof_facts]
        if where == sorted(where):
            # Swap the first two proof premises: the order is then no longer the proof order.
            i, j = where[0], where[1]
            facts[i], facts[j] = facts[j], facts[i]
    return facts
