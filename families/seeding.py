"""Per-item random generators derived from a hash, so items are independent and seeds never overlap."""
from __future__ import annotations

import hashlib
import random


def item_rng(seed: int, family: str, index: int, complexity: int) -> random.Random:
    """The RNG of one item: a hash of (seed, family, index, complexity), never `seed + index`."""
    key = f"{seed}\x1f{family}\x1f{index}\x1f{complexity}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=16).digest(), "big"))


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
