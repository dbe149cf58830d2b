"""Transitive order: LEFT_OF premises over entities, asking the relation between two of them.

Labels: LEFT_OF (a chain of premises leads from the first queried entity to the second), RIGHT_OF (a
chain leads from the second to the first), UNKNOWN (the premises order neither before the other).
Fact order does not matter (declarative): premises are shuffled uniformly, so no order of them,
the proof's own included, says anything about the label.

Beyond the spec, which only asks LEFT_OF questions, the three labels are drawn uniformly, and every
item has one shape whatever its label, drawn before the label: two chains A and B that merge into a
junction m, which a tail continues (a0 -> .. -> m <- .. <- b0, m -> t1 -> .. -> tr). Only where the
queried entities sit on that shape depends on the label:
- LEFT_OF and RIGHT_OF: both on one path through the shape (A then the tail, or B then the tail),
  `complexity` premises apart; the proof is that path, the only derivation.
- UNKNOWN: one entity on A and one on B, both before m. Proving that nothing follows means following
  every chain that leads right from either of them and seeing that none reaches the other; the proof
  lists exactly those premises (their forward closures: each entity's way to m, then the tail), and
  complexity is their number. Since both closures meet in m, the two entities are connected, yet
  unordered.
What this equalizes, from complexity 2 on (tests measure each): the shape, hence the number of
premises, of entities and of entities with each in- and out-degree, is independent of the label;
every queried entity stands exactly once on the left and once on the right of a premise (the chains
go on past both of them), is never the junction, and shares no premise with the other; premise
positions are a uniform shuffle. At complexity 1 the answer of LEFT_OF and RIGHT_OF is a stated
premise, and an UNKNOWN entity ends a chain, so complexity 1 is not equalized.
"""
from __future__ import annotations

import random

from families.ir import Skeleton, atom
from families.registry import Family
from families.seeding import symbol_names

NAME = "transitive_order"
LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
RULES = ("LEFT_OF is transitive", "RIGHT_OF(x,y) iff LEFT_OF(y,x)")


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One transitive-order skeleton whose proof has exactly `complexity` premises."""
    k = complexity
    randint = rng.randint
    # The shape, label-blind: branch lengths p, q (edges up to m) and tail length r. UNKNOWN needs
    # i + j + r = k with i, j >= 1; LEFT_OF needs k + 2 nodes on a branch (both entities inner).
    r = randint(0, k - 2) if k >= 2 else 0
    p, q = k + 2 + randint(0, 2), k + 2 + randint(0, 2)
    # Nodes: A branch 0..p-1, m = p, tail p+1..p+r, B branch p+r+1..p+r+q.
    m = p
    a_path = list(range(p)) + [m] + list(range(p + 1, p + r + 1))
    b_nodes = list(range(p + r + 1, p + r + 1 + q))
    edges = [(a_path[i], a_path[i + 1]) for i in range(len(a_path) - 1)]
    edges += [(b_nodes[i], b_nodes[i + 1]) for i in range(q - 1)] + [(b_nodes[-1], m)]
    n_nodes = p + r + 1 + q
    gold = LABELS[rng.randrange(3)]
    if gold == "UNKNOWN":
        if k == 1:   # x -> m, m ends the shape; y ends a branch of its own (the exception of complexity 1)
            x, y = p - 1, n_nodes
            edges.append((b_nodes[0], y))
            n_nodes += 1
            proof = [(x, m)]
        else:
            i = randint(1, k - r - 1)   # x is i premises before m on A, y is j before m on B
            j = k - r - i
            x, y = p - i, b_nodes[q - j]
            proof = [(a_path[s], a_path[s + 1]) for s in range(p - i, p + r)]
            proof += [(b_nodes[s], b_nodes[s + 1]) for s in range(q - j, q - 1)] + [(b_nodes[-1], m)]
        query = (x, y) if rng.random() < 0.5 else (y, x)
    else:
        path = a_path if rng.random() < 0.5 else b_nodes + a_path[p:]
        m_at = path.index(m)
        # Both entities inner (an edge in and out) and neither is m; x = path[s], y = path[s + k].
        starts = [s for s in range(1, len(path) - 1 - k) if s != m_at and s + k != m_at] if k >= 2 \
            else [s for s in range(1, len(path) - 1 - k)]
        s = rng.choice(starts)
        proof = [(path[t], path[t + 1]) for t in range(s, s + k)]
        query = (path[s], path[s + k]) if gold == "LEFT_OF" else (path[s + k], path[s])
    symbols = symbol_names("E", n_nodes)
    names = list(symbols)
    rng.shuffle(names)
    facts = [atom("LEFT_OF", (names[a], names[b])) for a, b in edges]
    rng.shuffle(facts)
    return Skeleton(
        id=f"order-{index:04d}", family=NAME, complexity=complexity,
        entities=dict.fromkeys(symbols, "Entity"),   # names are a permutation of these
        facts=tuple(facts), rules=RULES,
        query=atom("RELATION", (names[query[0]], names[query[1]])),
        answer_options=LABELS, gold_answer=gold,
        proof=tuple([f"LEFT_OF({names[a]},{names[b]})" for a, b in proof]))


FAMILY = Family(
    name=NAME, prefix="order", types=frozenset({"Entity"}),
    predicates={"LEFT_OF": ("Entity", "Entity")}, queries={"RELATION": ("Entity", "Entity")},
    rules=RULES, order_matters=False, labels=LABELS, generate=generate)
