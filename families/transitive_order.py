"""Transitive order: LEFT_OF premises over entities, asking the relation between two of them.

Labels: LEFT_OF (a chain of premises leads from the first queried entity to the second), RIGHT_OF (a
chain leads from the second to the first), UNKNOWN (the premises order neither before the other).
Fact order does not matter (declarative): premises are shuffled, never listed in proof order.

Beyond the spec, which only asks LEFT_OF questions, the three labels are drawn uniformly:
- LEFT_OF and RIGHT_OF: a chain of `complexity` edges between the queried entities; the proof is that
  chain, the shortest derivation (distractors can never shorten it).
- UNKNOWN: proving that nothing follows means following every chain that leads right from either
  queried entity and seeing that none reaches the other. The proof lists exactly those premises (the
  forward closures of both entities) and complexity is their number. For complexity >= 2 both chains
  meet in a common entity (x < m and y < m: connected, yet unordered); for complexity 1 only the first
  has a chain and the second is tied to the rest by premises pointing into it.
Distractors: fresh entities hung on the structure by one premise each (or on each other), so they never
create a new path between the queried entities; for UNKNOWN they only point into the closures, so the
proof stays exactly the closure. Every queried entity is mentioned by at least one premise whatever
the label, and entity names are a random permutation, so neither names nor mention counts give the
label away.
"""
from __future__ import annotations

import random

from families.ir import Skeleton, atom
from families.registry import Family
from families.seeding import fact_order, symbol_names

NAME = "transitive_order"
LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
RULES = ("LEFT_OF is transitive", "RIGHT_OF(x,y) iff LEFT_OF(y,x)")


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One transitive-order skeleton whose proof has exactly `complexity` premises."""
    gold = LABELS[rng.randrange(3)]
    n_distract = rng.randint(1, 3)
    nodes = 0
    edges: list[tuple[int, int]] = []   # (left, right)

    def new() -> int:
        nonlocal nodes
        nodes += 1
        return nodes - 1

    if gold == "UNKNOWN":
        x, y = new(), new()
        a = complexity if complexity == 1 else rng.randint(1, complexity - 1)
        b = complexity - a
        prev = x
        for step in range(a):
            cur = new()
            edges.append((prev, cur))
            prev = cur
        join = prev
        prev = y
        for step in range(b):
            cur = join if step == b - 1 else new()
            edges.append((prev, cur))
            prev = cur
        closure = set(range(nodes))
        query = (x, y) if rng.random() < 0.5 else (y, x)
    else:
        start = new()
        prev = start
        for _ in range(complexity):
            cur = new()
            edges.append((prev, cur))
            prev = cur
        closure = set()
        query = (start, prev) if gold == "LEFT_OF" else (prev, start)
    n_proof = len(edges)   # the proof is the edges so far, in order; distractors come after
    # Distractors: each fresh node gets one premise to an existing node, so no new path between old nodes.
    for i in range(n_distract):
        # At complexity 1 an UNKNOWN's second entity has no chain: a distractor must mention it.
        anchor = y if (i == 0 and gold == "UNKNOWN" and b == 0) else rng.randrange(nodes)
        fresh = new()
        if anchor in closure or rng.random() < 0.5:
            edges.append((fresh, anchor))
        else:
            edges.append((anchor, fresh))
    symbols = symbol_names("E", nodes)
    names = list(symbols)
    rng.shuffle(names)
    atoms = [atom("LEFT_OF", (names[a], names[b])) for a, b in edges]
    order = fact_order(len(edges), list(range(n_proof)), rng)
    return Skeleton(
        id=f"order-{index:04d}", family=NAME, complexity=complexity,
        entities=dict.fromkeys(symbols, "Entity"),   # names are a permutation of these
        facts=tuple([atoms[i] for i in order]), rules=RULES,
        query=atom("RELATION", (names[query[0]], names[query[1]])),
        answer_options=LABELS, gold_answer=gold,
        proof=tuple([str(a) for a in atoms[:n_proof]]))


FAMILY = Family(
    name=NAME, prefix="order", types=frozenset({"Entity"}),
    predicates={"LEFT_OF": ("Entity", "Entity")}, queries={"RELATION": ("Entity", "Entity")},
    rules=RULES, order_matters=False, labels=LABELS, generate=generate)
