"""What transitive_order's docstring says it equalizes across labels, measured."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import by_label, independence_p, make

FAMILY = "transitive_order"


def degrees(sk) -> tuple[Counter, Counter]:
    left = Counter(f.arguments[0] for f in sk.facts)
    right = Counter(f.arguments[1] for f in sk.facts)
    return left, right


def shape(sk) -> tuple:
    """Counts a heuristic could take without following a chain: premises, entities, degree profile."""
    left, right = degrees(sk)
    profile = Counter((left[e], right[e]) for e in sk.entities)
    return len(sk.facts), len(sk.entities), tuple(sorted(profile.items()))


@pytest.mark.parametrize("complexity", [2, 3, 7, 20])
def test_queried_entities_look_alike_in_every_label(complexity):
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        left, right = degrees(sk)
        x, y = sk.query.arguments
        for e in (x, y):   # the chain goes on past both: once on each side, never the junction
            assert (left[e], right[e]) == (1, 1), (sk.id, sk.gold_answer, e)
        assert not any({x, y} <= set(f.arguments) for f in sk.facts), sk.id


@pytest.mark.parametrize("complexity", [2, 5, 12])
def test_shape_is_independent_of_the_label(complexity):
    # The shape is drawn before the label: counts and degree profiles differ only by sampling noise.
    assert independence_p(by_label(FAMILY, complexity, shape)) > 0.01


def test_premise_positions_are_independent_of_the_label():
    def first_mentions(sk):
        text = [f.arguments for f in sk.facts]
        return tuple(min(i for i, a in enumerate(text) if q in a) * 4 // len(text) for q in sk.query.arguments)
    assert independence_p(by_label(FAMILY, 4, first_mentions)) > 0.01


@pytest.mark.parametrize("complexity", [4, 9, 20])
def test_neighbours_of_queried_entities_look_alike_from_4(complexity):
    # One step along a chain from either queried entity meets an ordinary inner entity in every label.
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        left, right = degrees(sk)
        for q in sk.query.arguments:
            for f in sk.facts:
                if q in f.arguments:
                    other = f.arguments[1 - f.arguments.index(q)]
                    assert (left[other], right[other]) == (1, 1), (sk.id, sk.gold_answer)


@pytest.mark.parametrize("complexity", [2, 5, 13])
def test_queried_entities_are_complexity_premises_apart_in_every_label(complexity):
    for i in range(300):
        sk = make(FAMILY, i, complexity)
        assert undirected_distance(sk, *sk.query.arguments) == complexity, (sk.id, sk.gold_answer)


def undirected_distance(sk, a, b) -> int:
    """Premises between two symbols, ignoring direction (breadth-first)."""
    adj: dict[str, set] = {}
    for f in sk.facts:
        u, v = f.arguments[0], f.arguments[-1]
        adj.setdefault(u, set()).add(v)
        adj.setdefault(v, set()).add(u)
    seen, frontier, d = {a}, {a}, 0
    while b not in frontier:
        frontier = {w for u in frontier for w in adj.get(u, ()) if w not in seen}
        seen |= frontier
        d += 1
    return d


# The reader on the row's free-English forms (issue 42): each class is composed, so Hypothesis draws its parts; a faithful
# sentence reads, and the same sentence reversed, hedged, negated or made adjacent never reads as the fact.
NAMES = {"E0": "Nico", "E1": "Ben"}
TYPES = {"E0": "Entity", "E1": "Entity"}
FACT = ("LEFT_OF", ("E0", "E1"))


def _verdict(text: str):
    from families.reading import Marked, reader
    return reader(FAMILY).read_fact(text, FACT, Marked(NAMES, TYPES), TYPES)


SCANS = ["Reading the line", "Going", "Counting", "Looking along the row", "Scanning the lineup", "Walking down the row", ""]
FROM = {"lr": ["from left to right", "from the left", "from the left end", "rightward", "starting from the left"],
        "rl": ["from right to left", "from the right", "from the right end", "leftward", "starting from the right"]}
ORDERS = ["{a} comes before {b}", "{a} appears earlier than {b}", "{a} precedes {b}", "{b} comes after {a}",
          "{b} appears after {a}", "{b} follows {a}", "you reach {a} before {b}", "one meets {b} after {a}"]


def _sequence(scan: str, way: str, order: str, lead: bool, first: str = "Nico", second: str = "Ben") -> str:
    a, b = (first, second) if way == "lr" else (second, first)
    clause = order.format(a=a, b=b)
    frame = " ".join(w for w in (scan, FROM[way][0 if not scan else 1 if scan == "Going" else 0]) if w)
    if not scan and not lead:   # a passive scan after the clause: "... when the row is read from left to right"
        frame = f"when the row is read {frame}"
    return f"{frame[:1].upper()}{frame[1:]}, {clause}." if lead else f"{clause[:1].upper()}{clause[1:]} {frame.lower()}."


@settings(max_examples=120, deadline=None)
@given(scan=st.sampled_from(SCANS), way=st.sampled_from(["lr", "rl"]), order=st.sampled_from(ORDERS),
       lead=st.booleans())
def test_a_row_read_in_either_direction_reads_and_reversed_is_misread(scan, way, order, lead):
    text = _sequence(scan, way, order, lead)
    assert _verdict(text).kind == "read", text
    reversed_ = _sequence(scan, way, order, lead, first="Ben", second="Nico")
    assert _verdict(reversed_).kind == "misread", reversed_


@settings(max_examples=120, deadline=None)
@given(scan=st.sampled_from(SCANS), way=st.sampled_from(["lr", "rl"]), order=st.sampled_from(ORDERS),
       lead=st.booleans(), word=st.sampled_from(["immediately", "directly", "just", "probably", "maybe", "not",
                                                   "never", "roughly"]), where=st.floats(0, 1))
def test_a_word_of_adjacency_hedge_or_negation_in_a_row_form_is_never_read(scan, way, order, lead, word, where):
    words = _sequence(scan, way, order, lead).split(" ")
    at = min(int(where * len(words)), len(words) - 1) + 1
    text = " ".join(words[:at] + [word] + words[at:])
    assert _verdict(text).kind != "read", text


TAILS = ["though not necessarily right next to it", "but not necessarily beside Ben", "(there may be others between "
         "them)", "and there might be people in between", "with possibly others in between",
         "though perhaps not adjacent"]
BASES = ["Nico is placed left of Ben", "Ben is somewhere to the right of Nico", "In the row, Nico lies to the left of Ben",
         "Ben sits further along to the right than Nico", "Further to the left than Ben stands Nico",
         "Nico's spot in the row is further left than Ben's", "Of Nico and Ben, it is Nico who is further to the left"]


@settings(max_examples=80, deadline=None)
@given(base=st.sampled_from(BASES), tail=st.sampled_from(TAILS))
def test_a_gap_allowed_after_a_left_of_is_faithful_and_never_a_misread(base, tail):
    text = f"{base}, {tail}." if not tail.startswith("(") else f"{base} {tail}."
    assert _verdict(text).kind == "read", text


@settings(max_examples=80, deadline=None)
@given(base=st.sampled_from(BASES), tail=st.sampled_from(TAILS), word=st.sampled_from(["probably", "immediately",
                                                                                      "not", "maybe"]))
def test_the_gap_tail_does_not_excuse_a_hedge_or_negation_in_the_claim(base, tail, word):
    words = base.split(" ")
    at = words.index(next(w for w in words if w in ("is", "lies", "sits", "stands"))) + 1
    text = " ".join(words[:at] + [word] + words[at:]) + (f", {tail}." if not tail.startswith("(") else f" {tail}.")
    assert _verdict(text).kind != "read", text


def test_appears_hedges_only_as_seeming():
    assert _verdict("Going rightward, Ben appears after Nico.").kind == "read"
    assert _verdict("Nico appears to the left of Ben.").kind == "read"
    for text in ("Nico appears to be left of Ben.", "It appears that Nico is left of Ben.",
                 "Nico is left of Ben, as it appears."):
        assert _verdict(text).kind == "misread", text


def test_a_position_inequality_reads_only_with_its_numbering_said():
    assert _verdict("pos(Nico) < pos(Ben), where positions are numbered from the left.").kind == "read"
    assert _verdict("pos(Ben) < pos(Nico), where positions are numbered from the left.").kind == "misread"
    for text in ("pos(Nico) < pos(Ben).", "pos(Nico) <= pos(Ben), where positions are numbered from the left.",
                 "pos(Nico) < pos(Ben), where positions are numbered from the right."):
        assert _verdict(text).kind != "read", text


# Things placed, not people (blind model renders: lanterns that hang, boats moored, books shelved), and where the row
# stands ("on the shelf"): every verb in each of its forms, composed; reversed is misread, a hedge never reads.
def _placed(verb: str, side: str = "left", a: str = "Nico", b: str = "Ben", extra: str = "", where: str = "") -> str:
    from families.order_reads import _PLACING
    done = _PLACING[verb]
    ing = (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"
    said = {"s": verb + ("es" if verb.endswith(("sh", "ch", "s", "x")) else "s"), "ing": f"is {ing}",
            "done": f"is {done}" if done else f"is {ing}"}
    return f"{a} {extra + ' ' if extra else ''}{{form}} to the {side} of {b}{' ' + where if where else ''}.", said


PLACING = ["hang", "moor", "dock", "park", "shelve", "perch", "rest", "station", "stay", "stack", "anchor", "line"]
SETTINGS = ["on the shelf", "at the dock", "along the wall", "in the gallery", "on the mantelpiece", ""]


@settings(max_examples=120, deadline=None)
@given(verb=st.sampled_from(PLACING), form=st.sampled_from(["s", "ing", "done"]), where=st.sampled_from(SETTINGS))
def test_a_thing_placed_left_of_another_reads_and_placed_right_is_misread(verb, form, where):
    text, said = _placed(verb, where=where)
    assert _verdict(text.format(form=said[form])).kind == "read", text.format(form=said[form])
    text, said = _placed(verb, side="right", where=where)
    assert _verdict(text.format(form=said[form])).kind == "misread", text.format(form=said[form])


@settings(max_examples=80, deadline=None)
@given(verb=st.sampled_from(PLACING), word=st.sampled_from(["probably", "immediately", "directly", "not", "never",
                                                           "maybe", "just"]))
def test_a_placed_thing_with_a_hedge_adjacency_or_negation_never_reads(verb, word):
    text, said = _placed(verb, extra=word)
    assert _verdict(text.format(form=said["s"])).kind != "read", text


def test_a_verb_of_looking_or_pointing_is_no_place():
    for text in ("Nico looks to the left of Ben.", "Nico points to the left of Ben.", "Nico faces left of Ben."):
        assert _verdict(text).kind != "read", text


def _question(text: str):
    from families.reading import Marked, reader
    return reader(FAMILY).read_question(text, ("RELATION", ("E0", "E1")), Marked(NAMES, TYPES), TYPES,
                                        ("LEFT_OF", "RIGHT_OF", "UNKNOWN"))


MEANS = [": ", " - ", " — ", " = "]
UNKNOWNS = ["it cannot be determined", "the information is insufficient to decide", "it is impossible to tell "
            "from the information given", "the facts do not settle it"]


@settings(max_examples=80, deadline=None)
@given(mark=st.sampled_from(MEANS), sep=st.sampled_from([". ", "; "]), unknown=st.sampled_from(UNKNOWNS),
       verb=st.sampled_from(["stand", "hang", "sit"]))
def test_labels_explained_after_a_colon_or_dash_must_mean_their_labels(mark, sep, unknown, verb):
    head = f"Relative to Ben, where does Nico {verb}? "
    right = f"LEFT_OF{mark}Nico is to the left of Ben{sep}RIGHT_OF{mark}Nico is to the right of Ben{sep}UNKNOWN{mark}{unknown}."
    assert _question(head + right).kind == "read", head + right
    swapped = f"LEFT_OF{mark}Nico is to the right of Ben{sep}RIGHT_OF{mark}Nico is to the left of Ben{sep}UNKNOWN{mark}{unknown}."
    assert _question(head + swapped).kind == "misread", head + swapped


# What one in the row owns where it stands ("Wren's desk is to the left of Mirela's desk", blind24) is its place:
# read as the name, in either possessive, either side, the second owner's noun said or not; the twins stay unread.
@settings(max_examples=80, deadline=None)
@given(noun=st.sampled_from(["desk", "seat", "bench", "chair", "table", "counter", "place"]),
       side=st.sampled_from(["left", "right"]), be=st.sampled_from(["is to the", "is", "sits to the", "is somewhere to the"]),
       form=st.sampled_from(["{a}'s {n}", "the {n} of {a}"]), second=st.booleans())
def test_an_owned_place_is_its_owner_and_its_twins_never_read(noun, side, be, form, second):
    first, other = ("Nico", "Ben") if side == "left" else ("Ben", "Nico")
    owned = form.format(a=first, n=noun)
    owned = owned[0].upper() + owned[1:]
    tail = form.format(a=other, n=noun) if second else f"{other}'s"
    text = f"{owned} {be} {side} of {tail}."
    assert _verdict(text)[0] == "read", text
    flipped = text.replace(side, "right" if side == "left" else "left")
    assert _verdict(flipped)[0] == "misread", flipped
    for word in ("directly", "not", "probably", "immediately"):
        twin = text.replace(f" {side} of", f" {word} {side} of") if "to the" not in be else \
            text.replace(" to the", f" {word} to the")
        assert _verdict(twin)[0] != "read", twin
