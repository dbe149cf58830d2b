"""Equality (the LogicMark card): `=` and `!=` premises over variables; which of four options follows?

Labels: the four option statements themselves (e.g. "c = h", "c != h"); exactly one is entailed.
Fact order does not matter (declarative): premises are shuffled, never listed in proof order.

Complexity is the card's hop depth: the number of premises in the shortest derivation of the correct
option (1: stated as a premise; 2: one transitive step; ...). The proof is that derivation, in order.
As the card asks: the correct option is `=` or `!=` with probability 1/2 each, its flipped statement is
always a distractor, and premises follow one of six graph styles (chain, star, clusters, tree,
bipartite, mixed) over the variables off the derivation. Beyond the card, the two other distractors
are an undetermined statement and its flip, so every item shows two complementary pairs and the
correct option cannot be found as "the one whose negation is also listed". Distractor structure
hangs on the derivation by at most one premise per component, so it never shortens it; the hop of
the tests re-derive every hop with a solver of their own.
"""
from __future__ import annotations

import random
import string
from itertools import chain

from families.ir import Skeleton, atom
from families.registry import Family
from families.seeding import fact_order

NAME = "equality"
STYLES = ("chain", "star", "clusters", "tree", "bipartite", "mixed")
RULES = (
    "EQUAL is reflexive, symmetric and transitive",
    "NOT_EQUAL is symmetric",
    "EQUAL(x,y) and NOT_EQUAL(y,z) imply NOT_EQUAL(x,z)",
    "Exactly one option follows necessarily from the premises",
)
_NAMES = list(string.ascii_lowercase) + [f"{c}{i}" for i in range(1, 4) for c in string.ascii_lowercase]


def statement(u: str, v: str, equal: bool) -> str:
    """The card's surface form of an option: `a = b` or `a != b`."""
    return f"{u} {'=' if equal else '!='} {v}"


def _style(style: str, fresh: list[int], rng: random.Random) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """Equality edges among the fresh (off-derivation) variables, in the shape of a graph style, and
    the components they make: each ascending, in the order of their first variable."""
    m = len(fresh)
    if style == "mixed":
        cut = rng.randint(1, m - 1)
        a, b = rng.sample(STYLES[:-1], 2)
        edges_a, groups_a = _style(a, fresh[:cut], rng)
        edges_b, groups_b = _style(b, fresh[cut:], rng)
        return edges_a + edges_b, groups_a + groups_b
    if m < 2:
        return [], [fresh]
    if style == "chain":
        return [(fresh[i], fresh[i + 1]) for i in range(m - 1)], [fresh]
    if style == "star":
        return [(fresh[0], f) for f in fresh[1:]], [fresh]
    if style == "tree":
        return [(fresh[(i - 1) // 2], fresh[i]) for i in range(1, m)], [fresh]
    if style == "clusters":
        edges, groups, i = [], [], 0
        while i < m:
            group = fresh[i:i + rng.randint(2, 3)]
            edges += [(group[j], group[k]) for j in range(len(group)) for k in range(j + 1, len(group))]
            groups.append(group)
            i += len(group)
        return edges, groups
    half = m // 2   # bipartite: equalities only cross the two halves
    left, right = fresh[:half], fresh[half:]
    edges = [(l, r) for l in left for r in right if rng.random() < 0.6] or [(left[0], right[0])]
    return edges, _components(fresh, edges)


def _components(nodes: list[int], edges: list[tuple[int, int]]) -> list[list[int]]:
    """The connected components of a small graph, each ascending, in the order of their first node."""
    parent = {x: x for x in nodes}

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x
    for x, y in edges:
        parent[root(x)] = root(y)
    members: dict[int, list[int]] = {}
    for x in nodes:
        members.setdefault(root(x), []).append(x)
    return list(members.values())


def _build(k: int, equal: bool, style: str, rng: random.Random):
    """Premises whose shortest derivation of the answer has exactly k steps, by construction.

    The spine is a chain of k premises from u to v (for `!=`, one of them is the inequality).
    Off-spine components are hung on the spine by at most one premise each, so no path through
    them is shorter; the only `!=` between the classes of u and v is the spine's. The tests'
    independent solver re-derives every hop.
    """
    cut = -1 if equal else rng.randrange(k)
    eq = [(i, i + 1) for i in range(k) if i != cut]
    neq = [] if equal else [(cut, cut + 1)]
    # The derivation in spine order, as indices into eq + neq: the spine's `!=` is neq[0].
    spine = [i if i < cut or equal else i - 1 for i in range(k)]
    cls = [0] * (k + 1) if equal else [0] * (cut + 1) + [1] * (k - cut)
    m = rng.randint(3, 6)
    fresh = list(range(k + 1, k + 1 + m))
    eq_fresh, groups = _style(style, fresh, rng)
    eq += eq_fresh
    # One component of two or more stays apart from all else, so some statement is undetermined.
    kept = rng.choice([g for g in groups if len(g) >= 2])
    cls += [0] * m                  # variable id -> equality class; filled per component below
    next_class = 2
    for g in groups:
        if g is not kept and rng.random() < 0.5:
            anchor = rng.randrange(k + 1)
            eq.append((anchor, rng.choice(g)))
            c = cls[anchor]
        else:
            c, next_class = next_class, next_class + 1
        for f in g:
            cls[f] = c
    kept_class = cls[kept[0]]
    n = k + 1 + m
    for _ in range(rng.randint(1, 2)):
        x, y = rng.sample(range(n), 2)
        cx, cy = cls[x], cls[y]
        if cx != cy and kept_class not in (cx, cy) and not (not equal and {cx, cy} == {0, 1}):
            neq.append((x, y))
    mentioned = sorted(set(chain.from_iterable(eq)).union(chain.from_iterable(neq)))
    outside = [x for x in mentioned if cls[x] != kept_class]
    unknown = (rng.choice(kept), rng.choice(outside))
    derivation = [len(eq) if i == cut else spine[i] for i in range(k)]
    return eq, neq, derivation, n, mentioned, unknown


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One equality skeleton whose correct option has hop depth exactly `complexity`."""
    equal = rng.random() < 0.5
    style = rng.choice(STYLES)
    eq, neq, proof_idx, n, mentioned, unknown = _build(complexity, equal, style, rng)
    names = _NAMES[:n]
    rng.shuffle(names)
    rnd = rng.random
    atoms = [atom("EQUAL", (names[x], names[y]) if rnd() < 0.5 else (names[y], names[x])) for x, y in eq]
    atoms += [atom("NOT_EQUAL", (names[x], names[y]) if rnd() < 0.5 else (names[y], names[x])) for x, y in neq]
    proof = [atoms[i] for i in proof_idx]
    u, v = 0, complexity
    if complexity == 1:   # stated as a premise: show it the way the premise says it
        su, sv = proof[0].arguments
    else:
        su, sv = (names[u], names[v]) if rnd() < 0.5 else (names[v], names[u])
    dx, dy = unknown
    dx, dy = (names[dx], names[dy]) if rnd() < 0.5 else (names[dy], names[dx])
    correct = statement(su, sv, equal)
    options = [correct, statement(su, sv, not equal), statement(dx, dy, True), statement(dx, dy, False)]
    rng.shuffle(options)
    order = fact_order(len(atoms), proof_idx, rng)
    return Skeleton(
        id=f"equality-{index:04d}", family=NAME, complexity=complexity,
        entities=dict.fromkeys(sorted([names[i] for i in mentioned]), "Variable"),
        facts=tuple([atoms[i] for i in order]), rules=RULES, query=atom("ENTAILED", ()),
        answer_options=tuple(options), gold_answer=correct,
        proof=tuple([str(a) for a in proof]))


FAMILY = Family(
    name=NAME, prefix="equality", types=frozenset({"Variable"}),
    predicates={"EQUAL": ("Variable", "Variable"), "NOT_EQUAL": ("Variable", "Variable")},
    queries={"ENTAILED": ()}, rules=RULES, order_matters=False, labels=None, generate=generate)
