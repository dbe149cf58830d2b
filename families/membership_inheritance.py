"""Membership inheritance: entities in sets, subset links, asking whether an entity belongs to a set.

Labels: YES (membership follows), NO (non-membership follows), UNKNOWN (neither follows).
Fact order does not matter (declarative): premises are shuffled, never listed in proof order.

Beyond the spec, whose generator always answers YES, the three labels are drawn uniformly. To make NO
derivable the family adds the predicate NOT_MEMBER_OF(E, S) and the rule that non-membership passes
down subset links (NOT_MEMBER_OF(x,B) and SUBSET_OF(A,B) imply NOT_MEMBER_OF(x,A)).
- YES: MEMBER_OF(x, S1) then `complexity - 1` links S1 ⊆ S2 ⊆ … up to the queried set.
- NO: NOT_MEMBER_OF(x, S1) then `complexity - 1` links down from S1 to the queried set.
- UNKNOWN: proving that nothing follows means collecting every set x is known to be in (upward from
  its memberships) and every set it is known not to be in (downward from its non-memberships) and
  seeing that the queried set is in neither. The proof lists the premises of both closures and
  complexity is their number (for complexity >= 2 x has a positive and a negative chain). The queried
  set is tied to the closures by one premise that decides nothing (a subset of a set x is in, or a
  superset of a set x is not in); that premise is not in the proof.
Distractors: an opposite-polarity fact about x on a fresh set (half the time, for YES and NO), fresh
sets hung on the structure by one link that extends neither closure, and fresh entities with one
membership fact each; so the premises stay consistent and the proof stays the shortest derivation.
"""
from __future__ import annotations

import random

from families.ir import Skeleton, atom
from families.registry import Family
from families.seeding import fact_order, symbol_names

NAME = "membership_inheritance"
LABELS = ("YES", "NO", "UNKNOWN")
PREDICATES = {"M": "MEMBER_OF", "N": "NOT_MEMBER_OF", "S": "SUBSET_OF"}
RULES = (
    "MEMBER_OF(x,A) and SUBSET_OF(A,B) imply MEMBER_OF(x,B)",
    "NOT_MEMBER_OF(x,B) and SUBSET_OF(A,B) imply NOT_MEMBER_OF(x,A)",
    "The answer is YES if MEMBER_OF(x,S) follows, NO if NOT_MEMBER_OF(x,S) follows, UNKNOWN otherwise",
)


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One membership skeleton whose proof has exactly `complexity` premises."""
    gold = LABELS[rng.randrange(3)]
    n_sets = 0
    facts: list[tuple[str, int, int]] = []   # ("M"|"N", entity, set) or ("S", subset, superset)
    up: set[int] = set()     # sets x is known to be in
    down: set[int] = set()   # sets x is known not to be in

    def new_set() -> int:
        nonlocal n_sets
        n_sets += 1
        return n_sets - 1

    def pos_chain(length: int) -> int:
        s = new_set()
        facts.append(("M", 0, s))
        up.add(s)
        for _ in range(length - 1):
            t = new_set()
            facts.append(("S", s, t))
            up.add(t)
            s = t
        return s

    def neg_chain(length: int) -> int:
        s = new_set()
        facts.append(("N", 0, s))
        down.add(s)
        for _ in range(length - 1):
            t = new_set()
            facts.append(("S", t, s))
            down.add(t)
            s = t
        return s

    if gold == "YES":
        query = pos_chain(complexity)
    elif gold == "NO":
        query = neg_chain(complexity)
    else:
        a = rng.randrange(2) if complexity == 1 else rng.randint(1, complexity - 1)
        b = complexity - a
        top = pos_chain(a) if a else None
        bottom = neg_chain(b) if b else None
    n_proof = len(facts)   # the proof is the facts so far, in order; distractors come after
    if gold == "UNKNOWN":
        query = new_set()
        if top is not None and (bottom is None or rng.random() < 0.5):
            facts.append(("S", query, top))      # a subset of a set x is in: decides nothing
        else:
            facts.append(("S", bottom, query))   # a superset of a set x is not in: decides nothing
    elif rng.random() < 0.5:
        facts.append(("N" if gold == "YES" else "M", 0, new_set()))
    for _ in range(rng.randint(1, 3)):
        anchor, fresh = rng.randrange(n_sets), new_set()
        # A link into a set of `down` would extend the negative closure, out of `up` the positive one.
        if anchor in down or (anchor not in up and rng.random() < 0.5):
            facts.append(("S", anchor, fresh))
        else:
            facts.append(("S", fresh, anchor))
    n_ents = 1 + rng.randint(1, 2)
    for e in range(1, n_ents):
        facts.append(("M" if rng.random() < 0.5 else "N", e, rng.randrange(n_sets)))

    ent_symbols, set_symbols = symbol_names("E", n_ents), symbol_names("S", n_sets)
    ents, sets = list(ent_symbols), list(set_symbols)
    rng.shuffle(ents)
    rng.shuffle(sets)
    atoms = [atom(PREDICATES[kind], (sets[a], sets[b]) if kind == "S" else (ents[a], sets[b]))
             for kind, a, b in facts]
    order = fact_order(len(facts), list(range(n_proof)), rng)
    # The names are permutations of E0.. and S0..: declare them in index order.
    entities = dict.fromkeys(ent_symbols, "Entity")
    entities.update(dict.fromkeys(set_symbols, "Set"))
    return Skeleton(
        id=f"member-{index:04d}", family=NAME, complexity=complexity, entities=entities,
        facts=tuple([atoms[i] for i in order]), rules=RULES, query=atom("MEMBER_OF", (ents[0], sets[query])),
        answer_options=LABELS, gold_answer=gold,
        proof=tuple([str(a) for a in atoms[:n_proof]]))


FAMILY = Family(
    name=NAME, prefix="member", types=frozenset({"Entity", "Set"}),
    predicates={"MEMBER_OF": ("Entity", "Set"), "NOT_MEMBER_OF": ("Entity", "Set"),
                "SUBSET_OF": ("Set", "Set")},
    queries={"MEMBER_OF": ("Entity", "Set")},
    rules=RULES, order_matters=False, labels=LABELS, generate=generate)
