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
the answer is recomputed by breadth-first search and an attempt that misses is redrawn.
"""
from __future__ import annotations

import random
import string
from collections import deque

from families.ir import Atom, Skeleton
from families.registry import Family
from families.seeding import place_not_in_proof_order

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


def _style_edges(style: str, fresh: list[int], rng: random.Random) -> list[tuple[int, int]]:
    """Equality edges among the fresh (off-derivation) variables, in the shape of a graph style."""
    m = len(fresh)
    if style == "mixed":
        cut = rng.randint(1, m - 1)
        a, b = rng.sample(STYLES[:-1], 2)
        return _style_edges(a, fresh[:cut], rng) + _style_edges(b, fresh[cut:], rng)
    if m < 2:
        return []
    if style == "chain":
        return [(fresh[i], fresh[i + 1]) for i in range(m - 1)]
    if style == "star":
        return [(fresh[0], f) for f in fresh[1:]]
    if style == "tree":
        return [(fresh[(i - 1) // 2], fresh[i]) for i in range(1, m)]
    if style == "clusters":
        edges, i = [], 0
        while i < m:
            group = fresh[i:i + rng.randint(2, 3)]
            edges += [(group[j], group[k]) for j in range(len(group)) for k in range(j + 1, len(group))]
            i += len(group)
        return edges
    half = m // 2   # bipartite: equalities only cross the two halves
    left, right = fresh[:half], fresh[half:]
    return [(l, r) for l in left for r in right if rng.random() < 0.6] or [(left[0], right[0])]


def _bfs(adj: dict[int, list[int]], src: int) -> dict[int, int]:
    dist, todo = {src: 0}, deque([src])
    while todo:
        u = todo.popleft()
        for w in adj[u]:
            if w not in dist:
                dist[w] = dist[u] + 1
                todo.append(w)
    return dist


def _attempt(complexity: int, equal: bool, style: str, rng: random.Random):
    k = complexity
    if equal:
        spine = list(range(k + 1))
        eq = [(i, i + 1) for i in range(k)]
        neq: list[tuple[int, int]] = []
    else:
        a = rng.randint(0, k - 1)
        spine = list(range(k + 1))
        eq = [(i, i + 1) for i in range(k) if i != a]
        neq = [(a, a + 1)]
    u, v = spine[0], spine[-1]
    fresh = list(range(k + 1, k + 1 + rng.randint(3, 6)))
    eq += _style_edges(style, fresh, rng)
    # Hang at most one premise per fresh component on the derivation: it can then never shorten it.
    parent = list(range(fresh[-1] + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for x, y in eq:
        parent[find(x)] = find(y)
    roots = sorted({find(f) for f in fresh})
    sizes = {r: sum(1 for f in fresh if find(f) == r) for r in roots}
    # One component of two or more stays apart from all else, so some statement is undetermined.
    kept = rng.choice([r for r in roots if sizes[r] >= 2])
    for root in roots:
        if root != kept and rng.random() < 0.5:
            member = rng.choice([f for f in fresh if find(f) == root])
            eq.append((rng.choice(spine), member))
    n = fresh[-1] + 1
    parent = list(range(n))
    for x, y in eq:
        parent[find(x)] = find(y)
    cls = [find(i) for i in range(n)]
    forbidden = {frozenset((cls[u], cls[v]))} if not equal else set()
    kept = cls[kept]
    for _ in range(rng.randint(1, 2)):
        x, y = rng.sample(range(n), 2)
        pair = frozenset((cls[x], cls[y]))
        if len(pair) == 2 and pair not in forbidden and kept not in pair:
            neq.append((x, y))
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for x, y in eq:
        adj[x].append(y)
        adj[y].append(x)
    if any(cls[x] == cls[y] for x, y in neq):
        return None   # inconsistent premises: redraw
    dist_u, dist_v = _bfs(adj, u), _bfs(adj, v)
    if equal:
        hop = dist_u.get(v)
    else:
        hop = min((dist_u[p] + 1 + dist_v[q] for p, q in neq + [(q, p) for p, q in neq]
                   if p in dist_u and q in dist_v), default=None)
    if hop != k:
        return None
    # The kept component has no `!=` premise: any of its variables against any mentioned variable
    # outside it is undetermined. Only mentioned variables: an unmentioned one would give itself away.
    inside = [f for f in fresh if cls[f] == kept]
    outside = sorted({x for pair in eq + neq for x in pair if cls[x] != kept})
    unknown = (rng.choice(inside), rng.choice(outside))
    mentioned = sorted(set(inside).union(outside))
    return eq, neq, u, v, unknown, n, mentioned


def _derivation(eq, neq, u, v, equal) -> list[tuple[int, int, bool]]:
    """The shortest derivation of the answer as (x, y, is_equal) premises, in order from u to v."""
    adj: dict[int, list[tuple[int, tuple[int, int, bool]]]] = {}
    for x, y in eq:
        adj.setdefault(x, []).append((y, (x, y, True)))
        adj.setdefault(y, []).append((x, (x, y, True)))
    # BFS over (node, crossed_neq) so that a `!=` derivation crosses exactly one inequality.
    if not equal:
        for x, y in neq:
            adj.setdefault(x, []).append((y, (x, y, False)))
            adj.setdefault(y, []).append((x, (x, y, False)))
    goal = (v, not equal)
    prev = {(u, False): None}
    todo = deque([(u, False)])
    while todo:
        node = todo.popleft()
        if node == goal:
            break
        for w, prem in adj.get(node[0], []):
            state = (w, node[1] or not prem[2])
            if not prem[2] and node[1]:
                continue
            if state not in prev:
                prev[state] = (node, prem)
                todo.append(state)
    steps, node = [], goal
    while prev[node] is not None:
        node, prem = prev[node]
        steps.append(prem)
    return steps[::-1]


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One equality skeleton whose correct option has hop depth exactly `complexity`."""
    equal = rng.random() < 0.5
    style = rng.choice(STYLES)
    for _ in range(1000):
        found = _attempt(complexity, equal, style, rng)
        if found:
            break
    else:  # pragma: no cover - the spine construction makes a miss vanishingly rare
        raise RuntimeError(f"equality: no instance of hop {complexity} after 1000 attempts")
    eq, neq, u, v, unknown, n, mentioned = found
    names = _NAMES[:n]
    rng.shuffle(names)
    oriented = {}
    for x, y, is_eq in [(x, y, True) for x, y in eq] + [(x, y, False) for x, y in neq]:
        if rng.random() < 0.5:
            x, y = y, x
        oriented[frozenset((x, y)), is_eq] = Atom("EQUAL" if is_eq else "NOT_EQUAL", (names[x], names[y]))
    proof = [oriented[frozenset((x, y)), is_eq] for x, y, is_eq in _derivation(eq, neq, u, v, equal)]
    if complexity == 1:   # stated as a premise: show it the way the premise says it
        su, sv = proof[0].arguments
    else:
        su, sv = (names[u], names[v]) if rng.random() < 0.5 else (names[v], names[u])
    dx, dy = unknown
    dx, dy = (names[dx], names[dy]) if rng.random() < 0.5 else (names[dy], names[dx])
    correct = statement(su, sv, equal)
    options = [correct, statement(su, sv, not equal), statement(dx, dy, True), statement(dx, dy, False)]
    rng.shuffle(options)
    facts = place_not_in_proof_order(list(oriented.values()), proof, rng)
    return Skeleton(
        id=f"equality-{index:04d}", family=NAME, complexity=complexity,
        entities={name: "Variable" for name in sorted(names[i] for i in mentioned)}, facts=tuple(facts), rules=RULES,
        query=Atom("ENTAILED", ()), answer_options=tuple(options), gold_answer=correct,
        proof=tuple(str(a) for a in proof))


FAMILY = Family(
    name=NAME, prefix="equality", types=frozenset({"Variable"}),
    predicates={"EQUAL": ("Variable", "Variable"), "NOT_EQUAL": ("Variable", "Variable")},
    queries={"ENTAILED": ()}, rules=RULES, order_matters=False, labels=None, generate=generate)
