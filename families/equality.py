"""Equality (the LogicMark card): `=` and `!=` premises over variables; which of four options follows?

Labels: the four option statements themselves (e.g. "c = h", "c != h"); exactly one is entailed.
Fact order does not matter (declarative): premises are shuffled uniformly.

Complexity is the card's hop depth: the number of premises in the shortest derivation of the correct
option (1: stated as a premise; 2: one transitive step; ...). The proof is that derivation, in order.
As the card asks: the correct option is `=` or `!=` with probability 1/2 each, its flipped statement is
always a distractor, and premises follow one of six graph styles (chain, star, clusters, tree,
bipartite, mixed) over the variables off the derivation. Beyond the card, the two other distractors
are an undetermined statement and its flip, so every item shows two complementary pairs and the
correct option cannot be found as "the one whose negation is also listed".
What this equalizes, from complexity 2 on (tests measure each): the undetermined pair is built like
the correct one (a spine of premises between its two variables, with a gap inside), both pairs'
variables stand in the same numbers of `=` and `!=` premises (drawn alike, padded with fresh
variables), neither pair shares a premise, and the number of `!=` premises is the same whichever
operator the answer has. From complexity 5 on, so do the ends' neighbours: no `!=` and no gap lies
within two premises of an end. At complexity 1 the answer is a stated premise, so it is not equalized.
The tests re-derive every hop with a solver of their own.

`card_style` rewrites an item's options in the card's own style instead (`bench generate --distractors
card`, or `distractors: card` in a grid): the correct statement, its flip, and two false statements over
other pairs of the item's variables (each the negation of what the premises entail about that pair).
Exactly one complementary pair is then listed, so "pick from the pair" is a shortcut there; ours stays
the default.
"""
from __future__ import annotations

import dataclasses
import random
import string

from families.equality_forms import rewrite as equality_rewrite
from families.family import Family
from families.free_forms import only_where_unread
from families.ir import Argument, Skeleton, atom
from families.phrases import expand
from families.wording import Wording

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


def _build(k: int, equal: bool, style: str, rng: random.Random
           ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int], int, tuple[int, int]]:
    """Premises whose correct option has hop depth exactly k, and an undetermined pair that looks alike.

    Two spines of premises: P from u to v (k premises; for `!=`, one of them is the inequality) and
    Q from dx to dy (max(k, 2) premises with a gap inside, so nothing relates dx and dy). Exactly one
    of the two spines holds one `!=` (P's when the answer is `!=`, else Q's, at a uniform position),
    so the count of `!=` premises says nothing about the answer's operator. Each of u, v, dx, dy then
    gets fresh leaves until it stands in E `=` and N `!=` premises, (E, N) drawn alike for all four,
    so no end shows what its spine premise is. Style components hang on inner spine variables by one
    premise each (never shortening a derivation, never bridging Q's gap); extra `!=` premises join a
    component that hangs on nothing to some other variable, so they relate neither pair.
    """
    rnd = rng.random
    eq: list[tuple[int, int]] = []
    neq: list[tuple[int, int]] = []
    kq = max(k, 2)
    # From complexity 5 on the `!=` sits two premises or more from either end of its spine, and from
    # 4 on the gap too, so an end's neighbours look alike in both pairs.
    cut = -1 if equal else (rng.randint(2, k - 3) if k >= 5 else rng.randrange(k))
    q_cut = (rng.randint(2, kq - 3) if kq >= 5 else rng.randrange(kq)) if equal else -1
    u, v = 0, k
    derivation = []
    for i in range(k):
        table = neq if i == cut else eq
        derivation.append((table is neq, len(table)))
        table.append((i, i + 1))
    left = rng.randint(2, kq - 2) if kq >= 4 else rng.randint(1, kq - 1)   # Q's premises before the gap
    dx = k + 1
    q_vars = list(range(dx, dx + kq + 2))
    dy = q_vars[-1]
    q_edges = [(q_vars[i], q_vars[i + 1]) for i in range(left)]
    q_edges += [(q_vars[i], q_vars[i + 1]) for i in range(left + 1, kq + 1)]
    for i, e in enumerate(q_edges):
        (neq if i == q_cut else eq).append(e)
    n = dy + 1
    # The ends: (E, N) alike for all four; the spine premise at an end counts towards its own kind.
    ends = ((u, cut == 0), (v, cut == k - 1), (dx, q_cut == 0), (dy, q_cut == kq - 1))
    for end, spine_neq in ends:
        want_eq = 1 + (rnd() < 0.3) - (not spine_neq)
        want_neq = 1 + (rnd() < 0.3) - spine_neq
        for table, count in ((eq, want_eq), (neq, want_neq)):
            for _ in range(count):
                table.append((end, n))
                n += 1
    inner = list(range(1, k)) + q_vars[1:-1]
    m = rng.randint(3, 6)
    fresh = list(range(n, n + m))
    n += m
    eq_fresh, groups = _style(style, fresh, rng)
    eq += eq_fresh
    kept = rng.randrange(len(groups))      # this component hangs on nothing
    others = list(inner)
    for gi, g in enumerate(groups):
        if gi != kept:
            others += g
            if rnd() < 0.5:
                eq.append((rng.choice(inner), rng.choice(g)))
    for _ in range(rng.randint(1, 2)):
        neq.append((rng.choice(groups[kept]), rng.choice(others)))
    proof_idx = [len(eq) + j if is_neq else j for is_neq, j in derivation]
    return eq, neq, proof_idx, n, (dx, dy)


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One equality skeleton whose correct option has hop depth exactly `complexity`."""
    equal = rng.random() < 0.5
    style = rng.choice(STYLES)
    eq, neq, proof_idx, n, unknown = _build(complexity, equal, style, rng)
    names = _NAMES[:n]
    rng.shuffle(names)
    rnd = rng.random
    atoms = [atom("EQUAL", (names[x], names[y]) if rnd() < 0.5 else (names[y], names[x])) for x, y in eq]
    atoms += [atom("NOT_EQUAL", (names[x], names[y]) if rnd() < 0.5 else (names[y], names[x])) for x, y in neq]
    proof = [atoms[i] for i in proof_idx]
    u, v = 0, complexity
    if complexity == 1:   # stated as a premise: show it the way the premise says it
        su, sv = map(str, proof[0].arguments)   # names, str already: typed as any argument
    else:
        su, sv = (names[u], names[v]) if rnd() < 0.5 else (names[v], names[u])
    ux, uy = unknown
    dx, dy = (names[ux], names[uy]) if rnd() < 0.5 else (names[uy], names[ux])
    correct = statement(su, sv, equal)
    options = [correct, statement(su, sv, not equal), statement(dx, dy, True), statement(dx, dy, False)]
    rng.shuffle(options)
    order = list(range(len(atoms)))
    rng.shuffle(order)
    return Skeleton(
        id=f"equality-{index:04d}", family=NAME, complexity=complexity,
        entities=dict.fromkeys(sorted(names), "Variable"),
        facts=tuple([atoms[i] for i in order]), rules=RULES, query=atom("ENTAILED", ()),
        answer_options=tuple(options), gold_answer=correct,
        proof=tuple([str(a) for a in proof]))


def entailed(sk: Skeleton) -> dict[frozenset[str], bool]:
    """Every pair of variables whose relation the premises entail: True for `=`, False for `!=`."""
    parent: dict[Argument, Argument] = {v: v for v in sk.entities}

    def root(x: Argument) -> Argument:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for f in sk.facts:
        if f.predicate == "EQUAL":
            parent[root(f.arguments[0])] = root(f.arguments[1])
    apart = {frozenset((root(f.arguments[0]), root(f.arguments[1]))) for f in sk.facts if f.predicate == "NOT_EQUAL"}
    names = sorted(sk.entities)
    out = {}
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            rx, ry = root(x), root(y)
            if rx == ry:
                out[frozenset((x, y))] = True
            elif frozenset((rx, ry)) in apart:
                out[frozenset((x, y))] = False
    return out


def card_style(sk: Skeleton) -> Skeleton:
    """The same item with the card's options: gold, its flip, and two false statements about two other
    entailed pairs (drawn from the item's own content, so the same item always gets the same options)."""
    gold = sk.gold_answer
    op = " != " if " != " in gold else " = "
    u, v = gold.split(op)
    rng = random.Random(f"card:{sk.identity}")
    pairs = sorted((sorted(p), eq) for p, eq in entailed(sk).items() if p != frozenset((u, v)))
    picked = rng.sample(pairs, min(2, len(pairs)))
    false = [statement(x, y, not eq) if rng.random() < 0.5 else statement(y, x, not eq) for (x, y), eq in picked]
    # an item with too few entailed pairs (only its query's): the undetermined statements stand in
    false += [o for o in sk.answer_options if o not in (gold, statement(u, v, op == " != "))][:2 - len(false)]
    options = [gold, statement(u, v, op == " != ")] + false
    rng.shuffle(options)
    return dataclasses.replace(sk, answer_options=tuple(options))


_FROM = "[from the premises|from the statements|from these statements|from the facts|from the above|from this]"
_FOLLOWS = "(follows|must be true|is true|holds|is entailed|necessarily follows|follows necessarily)"
# Read, never written: a question of entailment in the words a strong model uses, built from its parts.
_NOUN_Q = "[statement|statements|option|options|conclusion|conclusions|one|answer|answers|relation|relations|" \
          "relationship|relationships|comparison|comparisons|" \
          "choice|choices|equation|equations|claim|claims|of them]"
_VERB_Q = "(follows|follow|must be true|must hold|must follow|holds|hold|is true|is entailed|is logically entailed|" \
          "necessarily follows|follows necessarily|necessarily holds|is necessarily true|is certainly true|" \
          "is certain to be true|is guaranteed to hold|is guaranteed to be true|is guaranteed|can be concluded|" \
          "can be derived|can be logically derived|can be deduced|can be inferred|is implied|is logically implied|" \
          "is forced|is a valid consequence|is a logical consequence|is a necessary consequence|must be correct|" \
          "is correct|follows logically|logically follows|must necessarily be true|is necessarily the case|" \
          "is true in every situation consistent with|is true in every case consistent with|is always true|" \
          "must be the case|is the case|is necessarily the case|is certain|must follow|has to be true|has to hold|" \
          "is forced to be true|is forced|is implied by the premises|is valid|is a valid conclusion|is a valid inference|" \
          "is logically valid|is a correct conclusion|" + "|".join(expand("the", "premises|statements|facts|relations|clues|equations|constraints",
                              "force to be true|force|guarantee|imply|entail|make true|establish|prove|require")) + "|" \
          "follows for certain|holds for certain|is true for certain|follows for sure|holds for sure|can be drawn|" \
          "can be drawn with certainty|can be concluded with certainty|is certainly entailed|" + \
          "|".join(expand("is", "necessarily|definitely|strictly|thus|therefore", "entailed|implied|guaranteed")) + ")"
# where the answer is to come from, in parts ("from the relations above", "given all of the premises")
_CTX_Q = "[from|by|given|of|according to|based on|in view of|with|in] [the|these|those|all|all of the|all the|what is|" \
         "them|every] [premises|statements|facts|relations|equations|constraints|information|clues|above|conditions|" \
         "equalities|equalities and inequalities|certainty|case|given|given relations|given premises|given facts|" \
         "given equalities|given equalities and inequalities|given statements|given information|given conditions|" \
         "given constraints|given equations] " \
         "[above|given|provided|alone|listed|stated|here] " \
         "[if all the premises hold|if the premises hold|if all the premises are true|if the premises are true|" \
         "if all premises hold|assuming the premises|assuming all the premises hold]"
# an answer named by what it is ("the entailed conclusion"), and a question asked in two ("Exactly one of these
# conclusions can be derived. Which is it?")
_WHICH_Q = "[which is it|which one is it|which one|which|which of them|which of these|identify it|name it]"
_KIND_Q = "(entailed|correct|valid|necessary|necessarily true|true|right|implied|guaranteed|only valid|one valid)"
# A variable's own words before its name, on either side ("the quantity a", "the value of b"), and the verbs
# of (in)equality between them.
_REF = "[the quantity|quantity|the value of|the variable|variable|the unknown|the number|the value]"
_IS_EQ = "(=|==|equals|is equal to|is the same as|is identical to|is equivalent to|matches|has the same value as)"
_IS_NEQ = "(!=|≠|<>|does not equal|is not equal to|differs from|is different from|is not the same as|is distinct " \
          "from|is unequal to|does not match|is not identical to)"
# A story's measure for the hidden value ("Orin weighs the same as Quill", "Ixion and Lumos have different ratings",
# "Greyholt and Thornbury are at the same elevation"): the nouns and verbs a model measures by, composed with every
# form of (in)equality below. A noun not here ("the same sign", "the same parity") says no equality and stays unread.
_M1 = "(weight|number|value|code|rating|height|price|pitch|elevation|time|score|age|length|size|level|reading|amount|" \
      "count|grade|rank|depth|width|cost|temperature|speed|volume|mass|total|figure|tally)"
_MN = "(weights|numbers|values|codes|ratings|heights|prices|pitches|elevations|times|scores|ages|lengths|sizes|levels|" \
      "readings|amounts|counts|grades|ranks|depths|widths|costs|temperatures|speeds|volumes|masses|totals|figures|" \
      "tallies)"
_M = _M1[:-1] + "|" + _MN[1:]
_VPL = "(weigh|cost|measure|read|ring|score|rate|sound|count|rank|total|tally)"
_VSG = "(weighs|costs|measures|reads|rings|scores|rates|sounds|counts|ranks|totals|tallies)"
_AT = "[at|of|in|on]"
# what one thing does with its measure ("has the same code as", "lies at the same elevation as", "is set to ...")
_HAS = "(has|had|carries|shares|holds|shows|records|recorded|wrote|writes|finished in|finished with|lies at|sits at|" \
       "stands at|rings at|is at|is set to|was set to|was given|got|received|scored|bears|takes|is of|is tagged with)"
_RATED = "(rated|priced|set|tuned|valued|scored|marked|ranked|graded|numbered|coded|weighted)"
_ADJ = "(tall|heavy|high|old|long|large|big|loud|fast|expensive|costly|deep|wide|warm|cold|bright|valuable)"
_SAME_IS = "(equals|is equal to|is the same as|matches|is identical to|was the same as|matched|was equal to)"
_DIFF_IS = "(differs from|is different from|does not equal|is not equal to|is not the same as|does not match|" \
           "was different from|was not equal to|was not the same as|differed from)"
_MEASURED_EQUAL = (
    f"{{0}} and {{1}} (have|share|carry|hold|show|record|take) (the same|a common|an equal|equal|identical|one and the "
    f"same|the very same|exactly the same) {_M}",
    f"{{0}} and {{1}} share (a|one|a single) {_M1}",
    f"{{0}} and {{1}} (are|sit|stand|lie|ring|run) {_AT} (the same|an equal|equal|identical|exactly the same) {_M}",
    f"{{0}} and {{1}} {_VPL} (the same|equally|alike|the same amount|identically|exactly the same)",
    f"{{0}} {_VSG} (the same as|exactly the same as|as much as|exactly as much as|the same amount as|identically to) {{1}}",
    f"{{0}} is {_AT} (the same|an equal|equal|exactly the same) {_M1} (as|to) {{1}}",
    f"the {_M1} of {{0}} (equals|is equal to|is the same as|matches|is identical to) [that of] {{1}}",
    f"the {_M1} of {{0}} (equals|is equal to|is the same as|matches|is identical to) the {_M1} of {{1}}",
    f"{{0}} ['s] and {{1}} 's {_M} (are equal|are the same|match|coincide|are identical)",
    f"{{0}} and {{1}} are equal in {_M1}",
    f"{{0}} 's {_M1} {_SAME_IS} [that of] {{1}} ['s]",
    f"{{0}} {_HAS} (the same|an equal|exactly the same|the very same|an identical|one and the same) {_M1} as {{1}}",
    f"{{0}} shares (its|her|his|their|a|one) {_M1} with {{1}}",
    f"{{0}} and {{1}} {_HAS} (the same|equal|identical|exactly the same|an equal|one and the same) {_M}",
    f"{{0}} and {{1}} share (a|one|an) {_M1}",
    f"{{0}} (is|was) {_RATED} (the same as|identically to|equally to|equal to) {{1}}",
    f"{{0}} and {{1}} (are|were) {_RATED} (equally|the same|identically|alike)",
    f"{{0}} is [exactly|just] as {_ADJ} as {{1}}",
    f"{{0}} and {{1}} are (equally|just as|exactly as) {_ADJ}")
_MEASURED_NOT_EQUAL = (
    f"{{0}} and {{1}} (have|carry|hold|show|record|take) (different|distinct|unequal) {_MN}",
    f"{{0}} and {{1}} (do not|never) (have|share|carry|hold) (the same|a common|an equal|equal|one) {_M}",
    f"{{0}} and {{1}} (differ|are different|are unequal|vary) in {_M1}",
    f"{{0}} and {{1}} {_VPL} (different amounts|differently)",
    f"{{0}} and {{1}} (are|sit|stand|lie|ring|run) {_AT} (different|distinct|unequal) {_MN}",
    f"{{0}} and {{1}} are not {_AT} (the same|an equal|equal) {_M1}",
    f"{{0}} and {{1}} (do not|never) {_VPL} (the same|equally|alike|the same amount)",
    f"{{0}} (does not|do not) {_VPL} (the same as|as much as|the same amount as) {{1}}",
    f"{{0}} {_VSG} (differently from|differently than|a different amount from|a different amount than) {{1}}",
    f"the {_M1} of {{0}} (differs from|is different from|does not equal|is not equal to|is not the same as|does not "
    f"match) [that of] {{1}}",
    f"the {_M1} of {{0}} (differs from|is different from|does not equal|is not equal to|is not the same as|does not "
    f"match) the {_M1} of {{1}}",
    f"{{0}} ['s] and {{1}} 's {_M} (differ|are different|are not equal|are unequal|are not the same)",
    f"{{0}} is not {_AT} the same {_M1} as {{1}}",
    "{0} and {1} (must|have to) (differ|be different|be unequal)",
    f"{{0}} 's {_M1} {_DIFF_IS} [that of] {{1}} ['s]",
    f"{{0}} (does not|did not) (share|have|carry|hold) (a|the same|an equal|one) {_M1} (with|as) {{1}}",
    f"{{0}} and {{1}} (do not|did not) (share|have|carry|hold) (a|the same|an equal|one) {_M1}",
    f"{{0}} and {{1}} {_HAS} (different|distinct|unequal) {_MN}",
    f"{{0}} (is|was) not {_RATED} (the same as|identically to|equally to|equal to) {{1}}",
    f"{{0}} and {{1}} (are|were) {_RATED} differently",
    f"{{0}} (is|was) {_RATED} differently (from|than|to) {{1}}",
    f"{{0}} and {{1}} are not equal in {_M1}")
# A kind noun's measure (families/kind_before.py reads "register n" as n and a render's own measure noun, "the same
# colour", "different codes", "as many beads as", as "value"): what one thing holds of it, what it is painted or
# tuned to, what it belongs to, the value in or of a thing, composed with each form of (in)equality.
_HOLD = "(holds|hold|contains|contain|has|have|shows|show|displays|display|carries|carry|stores|store|reads|read|" \
        "gives|give|bears|bear|keeps|keep|records|record|takes|take|gets|get|shares|share|" \
        "produces|produce|yields|yield|emits|emit)"
_DONE = "[painted|coloured|colored|tuned|set|filled|marked|dyed|loaded|priced|rated|valued|fixed|assigned|given|" \
        "labelled|labeled|coded|stocked|weighted|pitched|keyed] [to|at|in|with|on]"
_BELONG = "(belongs to|belong to|plays on|play on|plays for|play for|plays in|play in|rings at|ring at|sits at|sit at|" \
          "sits in|sit in|stands at|stand at|lies at|lie at|lies in|lie in|falls in|fall in|falls into|fall into|" \
          "works in|work in|works for|work for|lives in|live in|is in|are in|is on|are on|is from|are from|" \
          "comes from|come from|runs at|run at|is of|are of)"
_OF_ONE = "the value [stored|held|kept|shown|recorded|written|found|sealed|contained|displayed] " \
          "(in|of|on|inside|within|at|for|behind|under)"
_OF_ANY = "(the value|that) [stored|held|kept|shown|recorded|written|found|sealed|contained|displayed] " \
          "(in|of|on|inside|within|at|for|behind|under)"
_OF_TWO = "the values [stored|held|kept|shown|recorded|written|found|sealed|contained|displayed] " \
          "(in|of|on|inside|within|at|for|behind|under)"
_THE_SAME = "(the same|exactly the same|just the same|precisely the same|the very same|one and the same|an identical|" \
            "identical|equal|an equal|matching|a matching|a common|the one)"
_OTHER = "(different|distinct|unequal|differing|mismatched|separate|two different|two distinct|non-matching)"
_KIND_MEASURE_EQUAL = (
    f"{{0}} {_HOLD} {_THE_SAME} value as {{1}}",
    f"{{0}} is {_DONE} {_THE_SAME} value as {{1}}",
    f"{{0}} and {{1}} {_HOLD} {_THE_SAME} (value|values)",
    f"{{0}} and {{1}} are {_DONE} {_THE_SAME} (value|values)",
    f"{{0}} {_BELONG} {_THE_SAME} value as {{1}}",
    f"{{0}} and {{1}} {_BELONG} {_THE_SAME} value",
    f"{_OF_ONE} {{0}} {_SAME_IS} {_OF_ANY} {{1}}",
    f"{_OF_ONE} {{0}} {_SAME_IS} {{1}}",
    f"{_OF_TWO} {{0}} and {{1}} (are equal|are the same|match|are identical|coincide|agree|are alike)",
    f"{{0}} {_HOLD} (exactly|precisely|just) what {{1}} (holds|contains|has|shows|displays|carries|stores|reads|does)",
    f"{{0}} is {_DONE} (exactly|precisely|just) the value of {{1}}",
    "{0} (shares|has) (its|his|her|their) value with {1}",
    "{0} is (exactly|precisely|just) (equal|identical) in value to {1}",
    f"{{0}} and {{1}} are {_DONE} (identically|alike|the same|equally|exactly alike|exactly the same)")
_KIND_MEASURE_NOT_EQUAL = (
    f"{{0}} (does not|doesn't|did not) {_HOLD} {_THE_SAME} value as {{1}}",
    f"{{0}} is not {_DONE} {_THE_SAME} value as {{1}}",
    f"{{0}} and {{1}} {_HOLD} {_OTHER} values",
    f"{{0}} and {{1}} (do not|don't|did not) {_HOLD} {_THE_SAME} (value|values)",
    f"{{0}} and {{1}} are {_DONE} {_OTHER} values",
    f"{{0}} and {{1}} are not {_DONE} {_THE_SAME} (value|values)",
    f"{{0}} (does not|doesn't) {_BELONG} {_THE_SAME} value as {{1}}",
    f"{{0}} and {{1}} {_BELONG} {_OTHER} values",
    f"{{0}} and {{1}} (do not|don't) {_BELONG} {_THE_SAME} value",
    f"{_OF_ONE} {{0}} {_DIFF_IS} {_OF_ANY} {{1}}",
    f"{_OF_ONE} {{0}} {_DIFF_IS} {{1}}",
    f"{_OF_ONE} {{0}} (is not|is unequal to|is not identical to) {_OF_ANY} {{1}}",
    f"{_OF_TWO} {{0}} and {{1}} (are different|differ|are unequal|are not equal|are not the same|do not match|"
    f"are distinct|are not identical)",
    "{0} (does not|doesn't|did not) (share|have) (its|his|her|their) value with {1}",
    "{0} is not (equal|identical|the same) in value (to|as) {1}",
    f"{{0}} and {{1}} are {_DONE} differently",
    f"{{0}} and {{1}} are not {_DONE} (identically|alike|the same|equally)")
# Labels of a premise a strong model writes before it ("Premise: c = g", "Given: v != b", "We know b equals d").
_LABELS = ("premise", "given", "fact", "we know", "we also know", "known", "it is known", "constraint", "condition",
           "statement", "clue", "note")
WORDING = Wording(
    facts={
        "EQUAL": (
            "{0} equals {1}",
            "{0} (=|==|equals|is equal to|is the same as|has the same value as|is identical to|is equivalent to) {1}",
            "{0} and {1} are (equal|the same|identical|equivalent|equal to each other|the same value)",
            "the (value of|variable) {0} (equals|is equal to|is the same as) [the value of|the variable] {1}"),
        "NOT_EQUAL": (
            "{0} does not equal {1}",
            "{0} (!=|≠|<>|does not equal|doesn't equal|is not equal to|isn't equal to|differs from|is different from|"
            "is not the same as|isn't the same as|is distinct from|is unequal to|does not have the same value as) {1}",
            "{0} and {1} are (not equal|different|unequal|distinct|not the same|not equal to each other|"
            "different from each other)",
            "the (value of|variable) {0} (does not equal|is not equal to|differs from|is different from) "
            "[the value of|the variable] {1}")},
    questions={"ENTAILED": (
        "which of the options follows from the premises",
        f"which (option|statement|one) {_FOLLOWS} {_FROM}",
        f"which of the (options|statements|following|following statements|following options) {_FOLLOWS} {_FROM}",
        "then")},
    negative=frozenset({"NOT_EQUAL"}), symmetric=frozenset({"EQUAL", "NOT_EQUAL"}),
    opposites={"EQUAL": "NOT_EQUAL", "NOT_EQUAL": "EQUAL"},
    reads={
        "EQUAL": (
            "{0} (=|==|equals|is equal to|is the same as|has the same value as|is identical to|is equivalent to|"
            "is equal in value to|has a value equal to|holds the same value as|takes the same value as|matches|"
            "has exactly the same value as|is the same value as) {1}",
            "{0} and {1} (are|are both|have|hold|share|take) (equal|the same|identical|equivalent|equal to each other|"
            "the same value|equal values|identical values|the same values|of equal value|of the same value|equal in "
            "value|identical in value|the same in value|equivalent in value|one and the same value|the same value as "
            "each other)",
            "(the value of|the variable|variable) {0} (equals|is equal to|is the same as|is identical to|matches) "
            "[the value of|the variable|variable|that of] {1}",
            "{0} 's value (equals|is equal to|is the same as|matches) {1} 's [value]",
            "{0} (matches|equals|is equal to|is the same as|is identical to|agrees with) {1} in value",
            "{0} is (identical|equal|the same|equivalent) in value (to|as) {1}",
            "(the values of|the variables) {0} and {1} (coincide|agree|match)",
            "{0} and {1} (coincide|agree|match) [in value]",
            "(the values of|the variables) {0} and {1} are (equal|the same|identical)",
            "there is no (difference|gap) between [the values of|the variables|variables] {0} and {1}",
            "(the difference between|the gap between) {0} and {1} is (0|nothing|nil)",
            "{0} (must|has to) (be|equal) [equal to|the same as] {1}",
            # a quantity's own words on both sides ("The quantity a equals the quantity h"), a tail that says
            # nothing more ("g matches f exactly", "pq = v holds"), sharing one value, the skeleton's own notation
            f"{_REF} {{0}} {_IS_EQ} {_REF} {{1}} [exactly|precisely|in value]",
            "{0} (=|==|equals|is equal to|is the same as|matches) {1} (holds|is true|is the case)",
            "{0} and {1} (share|carry|hold|have|take|take on) (a value|one value|a common value|a single value|"
            "the same value|one and the same value|an equal value|equal values|identical values|the very same value)",
            "{0} has (the same value|exactly the value|exactly the same value|the very value|the value) [that] {1} "
            "(has|does|holds)",
            "{0} (coincides with|is no different from|is no different than|is in no way different from) {1}",
            "(whatever|any) [value] {0} (has|takes|is|holds|contains|carries|stores|shows|keeps) {1} (has|takes|is|holds|contains|carries|stores|shows|keeps) (too|as well|the same one|the same value|"
            "the same|that value too|it too)",
            "{0} [and] {1} (equal|are equal|same|the same)",
            "(equal|eq|equals) {0} [and] {1}",
            "{0} is (exactly|precisely|entirely|completely) (equal to|the same as|identical to|equivalent to) {1}",
            "{0} and {1} are (one and the same|1 and the same|the very same|exactly the same|exactly equal)",
            "{0} and {1} (must|have to|need to) be (equal|the same|identical|equal to each other)",
            *_MEASURED_EQUAL, *_KIND_MEASURE_EQUAL),
        "NOT_EQUAL": (
            "{0} (!=|≠|<>|does not equal|is not equal to|differs from|is different from|is not the same as|"
            "is distinct from|is unequal to|does not have the same value as|has a different value from|has a different "
            "value than|is not identical to|does not match|is not equivalent to|differs in value from|has a value "
            "different from|has a different value to) {1}",
            "{0} and {1} are not (equal|the same|identical|equivalent|equal to each other|the same value|of equal value|"
            "of the same value|equal in value|identical in value|the same in value|equivalent in value)",
            "{0} and {1} (are|have|hold|take) (different|unequal|distinct|different from each other|different values|"
            "distinct values|unequal values|of different value|different in value|not the same value)",
            "{0} and {1} (differ|do not have the same value|do not share the same value|do not share a value|"
            "are not identical|differ in value|are not equivalent)",
            "(the value of|the variable|variable) {0} (does not equal|is not equal to|differs from|is different from|"
            "is not the same as|is distinct from) [the value of|the variable|variable|that of] {1}",
            "(the values of|the variables) {0} and {1} (are not equal|are different|differ|are distinct|are unequal|"
            "are not the same|do not match|do not coincide|are not identical)",
            "(the value of|the variable|variable) {0} (is unequal to|is not identical to|does not match|is not the value "
            "of|is not) (the value of|the variable|variable|that of) {1}",
            "(the value of|the variable|variable) {0} is unequal to {1}",
            "{0} (cannot|can not|can never|must not|could never|could not) (be|equal) [equal to|the same as|"
            "identical to] {1}",
            "{0} and {1} (cannot|can not|can never|could not|must not) (be|have) (equal|the same|identical|the same value|"
            "equal values)",
            "there is (a|some) (difference|gap) between [the values of|the variables|variables] {0} and {1}",
            f"{_REF} {{0}} {_IS_NEQ} {_REF} {{1}}",
            "{0} (=/=|/=|!==|=!=) {1}",
            "{0} (is never|is at no point|is in no case) (equal to|the same as|identical to) {1}",
            "{0} and {1} (never|do not|can not|cannot|can never) (share|carry|hold|have|take|take on) (a value|one value|"
            "a common value|the same value|equal values)",
            "{0} and {1} are never (equal|the same|identical|equal to each other)",
            "{0} (has|takes|holds|carries) (a different value|a value different|another value|a distinct value) "
            "(from|than|to) {1}",
            "{0} and {1} (are|have|hold|take) (2|two) (different|distinct|unequal) values",
            "{0} and {1} are (distinct|different|unequal) in value",
            "(whatever|any) [value] {0} (has|takes|is|holds|contains|carries|stores|shows|keeps) {1} (has|takes|is|holds|contains|carries|stores|shows|keeps) (something else|a different one|a different "
            "value|another value|another one|something different|not that value|never that value)",
            "{0} [and] {1} (not equal|unequal|differ|different|are not equal|are different)",
            "(not_equal|neq|ne|not equal|notequal|not_eq) {0} [and] {1}",
            "the value of {0} (is not|does not equal|differs from|is different from|is not equal to|does not match) "
            "[the value of|that of] {1}",
            "{0} (does not equal|is not equal to|differs from|is different from|does not match|is not the same as) {1} "
            "in value", *_MEASURED_NOT_EQUAL, *_KIND_MEASURE_NOT_EQUAL)},
    question_reads={"ENTAILED": (
        f"(which|what) [one] [of] [the|these|those] [four|4|single|only] [following|listed|given|above|below|candidate] {_NOUN_Q} "
        f"[below|above|listed|given|between the variables|among the options] [that|which] {_VERB_Q} {_CTX_Q}",
        f"(which|what) (one|one of the following|one of these|of the following|of these|of the options|of the "
        f"statements|of the listed statements|of the given options) [that|which] {_VERB_Q} {_CTX_Q}",
        f"(select|pick|identify|determine|choose|find|name|give|state|answer with|reply with|respond with) "
        f"[which|the one|the] [one] [of the] [four|4] {_NOUN_Q} [that|which] {_VERB_Q} {_CTX_Q}",
        f"(select|pick|identify|determine|choose|find|name) (which|the one|the one that|what) {_VERB_Q} {_CTX_Q}",
        f"what (follows|can be concluded|must be true|can be derived|can be deduced|can be inferred|is entailed|"
        f"must hold|necessarily follows) {_CTX_Q}",
        "(then|so|therefore) which (option|statement|one) (follows|holds|is true|must be true)",
        f"(select|pick|identify|determine|choose|find|name|give|state|which is|what is) the {_KIND_Q} {_NOUN_Q} "
        f"[among the options|of the options|among these|among them] {_CTX_Q}",
        f"[exactly|precisely] (one|1) of (these|the|those|the following|the listed|the given|the|them) {_NOUN_Q} "
        f"{_VERB_Q} {_CTX_Q} "
        f"{_WHICH_Q}",
        f"it (necessarily follows|follows|follows necessarily|must be the case|must be true|can be concluded|can be "
        f"deduced|can be derived|is entailed|is certain|logically follows) that {_WHICH_Q}",
        f"[the|which] ({_KIND_Q[1:-1]}) (conclusion|statement|option|answer)",
        "[the|which] (conclusion|conclusions)")},
    question_cues=(("another question", frozenset({"false", "incorrect", "wrong", "untrue", "cannot", "impossible"})),),
    read_openers={"EQUAL": _LABELS, "NOT_EQUAL": _LABELS},
    # any measure and any verb of having one ("run the same firmware version"): rewritten where nothing reads
    rewrite=only_where_unread(NAME, equality_rewrite),
    # the instrument the measure is read on closes a fact and says nothing more ("Crate h matches crate u on the
    # scale"); never a dial or a meter, which a render may name its things by ("Dial n equals dial r")
    fact_tails=expand("on|upon", "the|a|its|their", "scale|scales|balance|weighing scale|kitchen scale|thermometer")
    + ("when weighed", "when measured"),
    intro="If:", template={"EQUAL": "{0} = {1}", "NOT_EQUAL": "{0} != {1}"}, template_question="Then",
    template_end="", lettered=True)
FAMILY = Family(
    name=NAME, prefix="equality", types=frozenset({"Variable"}),
    predicates={"EQUAL": ("Variable", "Variable"), "NOT_EQUAL": ("Variable", "Variable")},
    queries={"ENTAILED": ()}, rules=RULES, order_matters=False, labels=None, generate=generate, wording=WORDING)
