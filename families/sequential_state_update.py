"""Sequential state update: counters with an initial value and ordered updates, asking a final value.

Labels: three integers two apart (as strings), one of them the final value of the queried counter.
Fact order MATTERS (procedural): a renderer must keep the updates in order.

The proof is the queried counter's `complexity` updates, each with the value it leaves. An update that
would make a value negative is replaced with an increment (the spec's rule). Beyond the spec:
- the options are two apart, not adjacent: the plain sum of the counter's numbers, signs ignored,
  has the answer's parity, and would pick among adjacent options without reading a single update;
- the gold's position among its three options is uniform (g..g+4, g-2..g+2 or g-4..g), and a final
  value below 4 is redrawn so that no option is ever negative;
- values and amounts are drawn from 0..99 and 1..99: against amounts of one digit, the options'
  distance from the initial value (a typical drift) picked the answer well above chance;
- a second counter's updates are interleaved as distractors off the proof path, and the queried
  counter is either one, so its name and position give nothing away.
What stays readable is the arithmetic itself (with no decrement, the answer is the sum of the
numbers): that is the family's reasoning, not a shortcut. Complexity 1 is one addition.
"""
from __future__ import annotations

import random

from families.ir import INTEGER, Skeleton, atom
from families.family import Family

NAME = "sequential_state_update"
OPTIONS, STEP = 3, 2   # options g, g+2, g+4 (or shifted): alike in parity, which a plain sum of the numbers gives away
RULES = (
    "INITIAL_VALUE(c,n) sets counter c to n",
    "INCREMENT(c,n) adds n to counter c; DECREMENT(c,n) subtracts n from counter c",
    "Updates apply in the order they are listed",
    "FINAL_VALUE(c) is the value of c after every update",
)


def _updates(rng: random.Random, start: int, count: int) -> tuple[list[tuple[str, int]], list[int]]:
    """`count` updates from `start` (ops and amounts) and the value each one leaves."""
    rnd = rng.random
    ops, values, value = [], [], start
    for _ in range(count):
        amount = 1 + int(rnd() * 99)   # rng.randint(1, 99), inlined: this loop is the family's hot path
        if rnd() < 0.5 and value >= amount:
            op, value = "DECREMENT", value - amount
        else:   # an increment, or a decrement that would go negative (the spec's rule)
            op, value = "INCREMENT", value + amount
        ops.append((op, amount))
        values.append(value)
    return ops, values


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One state-update skeleton with exactly `complexity` updates of the queried counter."""
    while True:
        start = rng.randint(0, 99)
        ops, values = _updates(rng, start, complexity)
        if values[-1] >= 2 * (OPTIONS - 1):
            break
    other_start = rng.randint(0, 99)
    other_ops, _ = _updates(rng, other_start, rng.randint(1, max(2, complexity // 2)))
    names = ["C0", "C1"]
    rng.shuffle(names)
    target, other = names
    # Interleave the distractor counter's updates at random places, keeping each counter's own order.
    slots = [True] * len(ops) + [False] * len(other_ops)
    rng.shuffle(slots)
    next_target = iter([atom(op, (target, amount)) for op, amount in ops]).__next__
    next_other = iter([atom(op, (other, amount)) for op, amount in other_ops]).__next__
    inits = [atom("INITIAL_VALUE", (target, start)), atom("INITIAL_VALUE", (other, other_start))]
    rng.shuffle(inits)
    facts = inits + [next_target() if is_target else next_other() for is_target in slots]
    gold = values[-1]
    low = gold - STEP * rng.randrange(OPTIONS)
    return Skeleton(
        id=f"state-{index:04d}", family=NAME, complexity=complexity,
        entities={"C0": "Counter", "C1": "Counter"}, facts=tuple(facts), rules=RULES,
        query=atom("FINAL_VALUE", (target,)), answer_options=tuple([str(low + STEP * i) for i in range(OPTIONS)]),
        gold_answer=str(gold),
        proof=tuple([f"{op}({target},{amount}) -> {value}" for (op, amount), value in zip(ops, values)]))


FAMILY = Family(
    name=NAME, prefix="state", types=frozenset({"Counter"}),
    predicates={"INITIAL_VALUE": ("Counter", INTEGER), "INCREMENT": ("Counter", INTEGER),
                "DECREMENT": ("Counter", INTEGER)},
    queries={"FINAL_VALUE": ("Counter",)},
    rules=RULES, order_matters=True, labels=None, generate=generate,
    readings={"INITIAL_VALUE": "{0} starts with {1} items", "INCREMENT": "{0} then gains {1} items",
              "DECREMENT": "{0} then loses {1} items"}, asks="how many items does {0} hold at the end")
