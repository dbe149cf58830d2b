"""Free forms read by construction (families/order_forms.py, membership_forms.py, equality_forms.py): each class
composed from generated parts reads as its fact, and each poisoned composition (arguments swapped, direction
reversed, adjacency, a hedge, a negation, a symbol, "some" for "every", a verb that places nothing, a measure
that is no value) is never read."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.equality_forms import HEADS
from families.free_forms import plain
from families.membership_forms import CONTAINERS
from families.order_forms import PARTICIPLES, POSTURE
from families.reading import Marked, reader

# A word of the story's own: any plain word of letters, none the grammar weighs.
_GRAMMAR = frozenset("left right is are of than to in on at the a an and or not every all any some no one sits stands "
                     "lies comes before after also too each".split())
WORD = st.from_regex(r"\A[a-z]{4,9}\Z").filter(
    lambda w: plain(w) and w not in _GRAMMAR and not w.endswith(("s", "ed", "ing", "ly")) and w not in CONTAINERS
    and w not in HEADS)
PEOPLE = ("Saltpenny", "Periwinkle", "Driftmoth", "Kelpie Blue", "Ruddy Skiff", "Brindlecap", "Umber Reach", "Quillon")
GROUPS = ("glimmerkins", "sunmoths", "Moon Menu", "Grey Annex", "Acorn", "Cobalt", "mirewaders", "reedhoppers")
VARS = ("Ivel", "Sorrel", "Tavi", "Arvos", "Fyra", "Rhune")
POISON_WORDS = ("immediately", "directly", "just", "probably", "maybe", "perhaps", "roughly", "not", "never", "<", "-",
                "~", "%", "|", "+", "<>")


def _read(family: str, text: str, fact: tuple, names: dict[str, str], types: dict[str, str]) -> str:
    return reader(family).read_fact(text, fact, Marked(names, types), types).kind


def _pair(pool: tuple[str, ...]) -> st.SearchStrategy[tuple[str, str]]:
    return st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1])


# --- transitive_order: subject, placement verb, direction, scene, object --------------------------------------------

_PLACING = st.one_of(st.sampled_from(sorted(POSTURE)), st.sampled_from(sorted(PARTICIPLES)).map(lambda p: f"is {p}"),
                     st.sampled_from(["is tied up", "has been set up", "is lined up", "was moored", "is parked"]))
_SIDE = st.sampled_from(["to the {d} of", "{d} of", "on the {d} side of", "to the {d}-hand side of", "on the {d} of"])
_SCENE = st.one_of(st.just(""), st.tuples(st.sampled_from(["along", "on", "in", "at", "across"]),
                                          st.sampled_from(["the", "this"]), WORD).map(" ".join))


def _order(a: str, b: str, verb: str, side: str, scene: str, direction: str, article: bool, some: bool) -> str:
    the = "The " if article else ""
    where = f" {scene}" if scene else ""
    return f"{the}{a} {verb}{' somewhere' if some else ''} {side.format(d=direction)} {'the ' if article else ''}{b}{where}."


@settings(max_examples=150, deadline=None)
@given(pair=_pair(PEOPLE), verb=_PLACING, side=_SIDE, scene=_SCENE, article=st.booleans(), some=st.booleans())
def test_any_placement_verb_and_scene_reads_and_its_poisons_never_do(pair, verb, side, scene, article, some):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    left = ("LEFT_OF", ("E0", "E1"))
    said = _order(a, b, verb, side, scene, "left", article, some)
    assert _read("transitive_order", said, left, names, types) == "read", said
    mirrored = _order(b, a, verb, side, scene, "right", article, some)
    assert _read("transitive_order", mirrored, left, names, types) == "read", mirrored
    swapped = _order(b, a, verb, side, scene, "left", article, some)
    assert _read("transitive_order", swapped, left, names, types) != "read", swapped
    reversed_ = _order(a, b, verb, side, scene, "right", article, some)
    assert _read("transitive_order", reversed_, left, names, types) != "read", reversed_


_MOVED = ("{S}, {a} {v} to the {d} of {b}.", "To the {d} of {b}, {a} {v}.", "{a}, {p} {S}, is {d} of {b}.",
          "{b} has {a} {p} somewhere to its {o}.")


@settings(max_examples=150, deadline=None)
@given(pair=_pair(PEOPLE), verb=_PLACING, participle=st.sampled_from(sorted(PARTICIPLES)), form=st.sampled_from(_MOVED),
       scene=_SCENE.filter(bool))
def test_a_fronted_scene_or_direction_and_a_reduced_relative_read_and_reversed_never(pair, verb, participle, form,
                                                                                      scene):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    left = ("LEFT_OF", ("E0", "E1"))
    said = form.format(S=scene[:1].upper() + scene[1:] if form.startswith("{S}") else scene, a=a, b=b, v=verb,
                       p=participle, d="left", o="left" if "{o}" not in form else "right").replace(" left.", " left.")
    said = said.replace("to its right", "to its left") if "{o}" in form else said
    assert _read("transitive_order", said, left, names, types) == "read", said
    flipped = said.replace("left", "right")
    assert _read("transitive_order", flipped, left, names, types) != "read", flipped


@settings(max_examples=150, deadline=None)
@given(pair=_pair(PEOPLE), verb=_PLACING, scene=_SCENE, poison=st.sampled_from(POISON_WORDS),
       where=st.floats(0, 1))
def test_a_placement_with_a_poison_word_never_reads(pair, verb, scene, poison, where):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    words = _order(a, b, verb, "to the {d} of", scene, "left", False, False).split(" ")
    at = 1 + min(int(where * (len(words) - 1)), len(words) - 2)
    text = " ".join(words[:at] + [poison] + words[at:])
    assert _read("transitive_order", text, ("LEFT_OF", ("E0", "E1")), names, types) != "read", text


@settings(max_examples=80, deadline=None)
@given(pair=_pair(PEOPLE), verb=st.sampled_from(["points", "looks", "faces", "moves", "wants to be", "gestures",
                                                 "glances", "heads", "drifts", "walks"]), scene=_SCENE)
def test_a_verb_that_places_nothing_stays_unread(pair, verb, scene):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    text = _order(a, b, verb, "to the {d} of", scene, "left", False, False)
    assert _read("transitive_order", text, ("LEFT_OF", ("E0", "E1")), names, types) != "read", text


@settings(max_examples=100, deadline=None)
@given(pair=_pair(PEOPLE), verb=_PLACING, scene=_SCENE,
       side=st.sampled_from(["immediately to the left of", "directly left of", "just left of", "right next to",
                             "next to", "immediately left of", "directly to the left of", "just to the left of",
                             "beside", "adjacent to"]))
def test_a_placement_said_adjacent_never_reads(pair, verb, scene, side):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    text = _order(a, b, verb, side, scene, "left", False, False)
    assert _read("transitive_order", text, ("LEFT_OF", ("E0", "E1")), names, types) != "read", text


@settings(max_examples=100, deadline=None)
@given(pair=_pair(PEOPLE), verb=_PLACING, scene=_SCENE, noun=WORD)
def test_further_left_with_a_scene_and_a_scan_of_any_scene_read(pair, verb, scene, noun):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    left = ("LEFT_OF", ("E0", "E1"))
    where = f" {scene}" if scene else ""
    text = f"{a} {verb} further left{where} than {b}."
    assert _read("transitive_order", text, left, names, types) == "read", text
    assert _read("transitive_order", f"{b} {verb} further left{where} than {a}.", left, names, types) != "read"
    scan = f"Reading the {noun} from left to right, {a} comes before {b}."
    assert _read("transitive_order", scan, left, names, types) == "read", scan
    assert _read("transitive_order", scan.replace("before", "after"), left, names, types) != "read", scan


# --- membership_inheritance: a members' subject and a predicate of being in a category ------------------------------

_SUBJECTS = (   # (subject, plural): {A} the first category, {n} a member noun of the story's own
    ("Every {n} in the {A}", False), ("Each {n} on the {A} list", False), ("Any {n} listed under {A}", False),
    ("All {n}s of the {A}", True), ("Every {A} {n}", False), ("All {A} {n}s", True),
    ("Any {n} that is one of the {A}", False), ("Everyone who subscribes to the {A}", False),
    ("Everything filed under {A}", False), ("Whoever is among the {A}", False), ("Every one of the {A}", False),
    ("{A}, every last one of them,", True), ("The {n}s on the {A} roster", True), ("If a {n} is in the {A}, it", False),
    ("If a {n} is one of the {A}, then it", False), ("Anything that is one of the {A}", False))
_PREDICATES = (   # (singular, plural)
    ("is also in the {B}", "are also in the {B}"), ("is also listed under {B}", "are also listed under {B}"),
    ("also appears on the {B} list", "also appear on the {B} list"), ("also belongs to the {B}", "also belong to the {B}"),
    ("is also one of the {B}", "are all among the {B}"), ("is part of the {B} too", "are part of the {B} too"),
    ("is also counted among the {B}", "are, without exception, {B}"))


def _subset(subject: tuple[str, bool], predicate: tuple[str, str], a: str, b: str, noun: str) -> str:
    said, plural = subject
    return f"{said} {predicate[plural]}.".format(A=a, B=b, n=noun)


@settings(max_examples=200, deadline=None)
@given(pair=_pair(GROUPS), subject=st.sampled_from(_SUBJECTS), predicate=st.sampled_from(_PREDICATES), noun=WORD)
def test_a_members_subject_and_a_predicate_of_being_in_read_as_a_subset(pair, subject, predicate, noun):
    a, b = pair
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    fact = ("SUBSET_OF", ("S0", "S1"))
    text = _subset(subject, predicate, a, b, noun)
    assert _read("membership_inheritance", text, fact, names, types) == "read", text
    swapped = _subset(subject, predicate, b, a, noun)
    assert _read("membership_inheritance", swapped, fact, names, types) != "read", swapped


_QUANTIFIED = tuple(s for s in _SUBJECTS if s[0].split()[0] in ("Every", "Each", "Any", "All", "Everyone",
                                                                  "Everything"))


@settings(max_examples=200, deadline=None)
@given(pair=_pair(GROUPS), subject=st.sampled_from(_QUANTIFIED), predicate=st.sampled_from(_PREDICATES), noun=WORD,
       poison=st.sampled_from(("some", "not every", "no", "not all", "few", "most", "many")))
def test_some_not_every_no_for_every_never_read_as_a_subset(pair, subject, predicate, noun, poison):
    a, b = pair
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    text = _subset(subject, predicate, a, b, noun)
    head, rest = text.split(" ", 1)
    said = f"{poison.capitalize()} {rest}" if head in ("Every", "Each", "Any", "All") else f"{poison.capitalize()} {text}"
    assert _read("membership_inheritance", said, ("SUBSET_OF", ("S0", "S1")), names, types) != "read", said


@settings(max_examples=100, deadline=None)
@given(pair=_pair(GROUPS), noun=WORD, predicate=st.sampled_from(_PREDICATES),
       subject=st.sampled_from(("Every {n} kept for the {A}", "Anyone coming from the {A}", "Every {n} named for the {A}",
                                "Anyone who left the {A}", "Every {n} that wants the {A} badge", "Some {n}s in the {A}",
                                "Most {n}s on the {A} list", "No {n} in the {A}", "Not every {n} in the {A}")))
def test_a_subject_that_names_no_members_never_reads_as_a_subset(pair, noun, predicate, subject):
    a, b = pair
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    plural = subject.startswith(("Some", "Most"))
    text = f"{subject} {predicate[plural]}.".format(A=a, B=b, n=noun)
    assert _read("membership_inheritance", text, ("SUBSET_OF", ("S0", "S1")), names, types) != "read", text


@settings(max_examples=200, deadline=None)
@given(pair=_pair(GROUPS), subject=st.sampled_from(_SUBJECTS), predicate=st.sampled_from(_PREDICATES), noun=WORD,
       poison=st.sampled_from(POISON_WORDS + ("usually", "once", "formerly", "sometimes")), where=st.floats(0, 1))
def test_a_subset_with_a_poison_word_never_reads(pair, subject, predicate, noun, poison, where):
    a, b = pair
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    words = _subset(subject, predicate, a, b, noun).split(" ")
    at = 1 + min(int(where * (len(words) - 1)), len(words) - 2)
    text = " ".join(words[:at] + [poison] + words[at:])
    assert _read("membership_inheritance", text, ("SUBSET_OF", ("S0", "S1")), names, types) != "read", text


_MEMBER = (("{x} is filed under {A}.", "{x} is not filed under {A}."),
           ("{x} holds the {A} badge.", "{x} does not hold the {A} badge."),
           ("{x} subscribes to the {A}.", "{x} does not subscribe to the {A}."),
           ("{x} is on the {A} list.", "{x} is not on the {A} list."),
           ("{x} is tagged {A}.", "{x} is not tagged {A}."),
           ("{x} plays in the {A}.", "{x} does not play in the {A}."),
           ("{x} is listed on the {A} roster.", "{x} is not listed on the {A} roster."),
           ("{x} carries the {A} tag.", "{x} does not carry the {A} tag."))


@settings(max_examples=150, deadline=None)
@given(x=st.sampled_from(PEOPLE), group=st.sampled_from(GROUPS), form=st.sampled_from(_MEMBER), noun=WORD)
def test_a_verb_of_being_in_a_category_reads_with_its_polarity(x, group, form, noun):
    names, types = {"E0": x, "S0": group}, {"E0": "Entity", "S0": "Set"}
    yes, no = (f.format(x=x, A=group, n=noun) for f in form)
    member, not_member = ("MEMBER_OF", ("E0", "S0")), ("NOT_MEMBER_OF", ("E0", "S0"))
    assert _read("membership_inheritance", yes, member, names, types) == "read", yes
    assert _read("membership_inheritance", no, not_member, names, types) == "read", no
    assert _read("membership_inheritance", no, member, names, types) != "read", no
    assert _read("membership_inheritance", yes, not_member, names, types) != "read", yes


@settings(max_examples=60, deadline=None)
@given(x=st.sampled_from(PEOPLE), group=st.sampled_from(GROUPS),
       form=st.sampled_from(("{x} wants the {A} badge.", "{x} is on the {A} waitlist.", "{x} is on the {A} blacklist.",
                             "{x} applied to the {A}.", "{x} left the {A}.", "{x} avoids the {A}.",
                             "{x} is named for the {A}.", "{x} works for the {A}.", "{x} comes from the {A}.",
                             "{x} is kept for the {A}.", "{x} was once in the {A}.", "{x} used to be in the {A}.")))
def test_a_verb_or_noun_that_says_no_membership_stays_unread(x, group, form):
    names, types = {"E0": x, "S0": group}, {"E0": "Entity", "S0": "Set"}
    text = form.format(x=x, A=group)
    assert _read("membership_inheritance", text, ("MEMBER_OF", ("E0", "S0")), names, types) != "read", text


# --- equality: a measure of the story's own, a verb of having it ----------------------------------------------------

_MEASURE = st.tuples(st.one_of(st.just(""), WORD), st.sampled_from(sorted(h for h in HEADS if not h.endswith("s"))))
_EQUAL = ("{a} and {b} {v} the same {m}.", "{a} {v3} the same {m} as {b}.", "{a}'s {m} matches {b}'s.",
          "{a} and {b} share a {m}.", "{a} matches {b} in {m}.", "{a} and {b} have {n}s of the same {m}.",
          "The {m} of {a} equals that of {b}.", "{a} and {b} are set to the same {m}.")
_NOT_EQUAL = ("{a} and {b} {v} different {m}s.", "{a} does not {v} the same {m} as {b}.", "{a}'s {m} differs from {b}'s.",
              "{a} and {b} differ in {m}.", "{a} and {b} do not share a {m}.", "{a} and {b} have {n}s of different {m}s.",
              "{a} is not set to the same {m} as {b}.")
_VERBS = (("have", "has"), ("use", "uses"), ("run", "runs"), ("record", "records"), ("show", "shows"),
          ("carry", "carries"), ("hold", "holds"))


def _measured(form: str, a: str, b: str, measure: tuple[str, str], verb: tuple[str, str], noun: str) -> str:
    m = " ".join(w for w in measure if w)
    said = form.format(a=a, b=b, m=m, v=verb[0], v3=verb[1], n=noun)
    return said.replace(" ss ", "s ").replace("ys ", "ies ") if "{m}s" in form and m.endswith(("y", "s")) else said


@settings(max_examples=200, deadline=None)
@given(pair=_pair(VARS), measure=_MEASURE, verb=st.sampled_from(_VERBS), noun=WORD, equal=st.sampled_from(_EQUAL),
       unequal=st.sampled_from(_NOT_EQUAL))
def test_any_measure_with_a_verb_of_having_reads_with_its_polarity(pair, measure, verb, noun, equal, unequal):
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    eq, neq = ("EQUAL", ("V0", "V1")), ("NOT_EQUAL", ("V0", "V1"))
    same = _measured(equal, a, b, measure, verb, noun)
    if not measure[1].endswith(("y", "s", "x", "ch", "sh")):   # a regular plural said by the form itself
        differ = _measured(unequal, a, b, measure, verb, noun)
        assert _read("equality", differ, neq, names, types) == "read", differ
        assert _read("equality", differ, eq, names, types) != "read", differ
    assert _read("equality", same, eq, names, types) == "read", same
    assert _read("equality", same, neq, names, types) != "read", same


@settings(max_examples=200, deadline=None)
@given(pair=_pair(VARS), measure=_MEASURE, verb=st.sampled_from(_VERBS), noun=WORD, equal=st.sampled_from(_EQUAL),
       # (not "just": "just the same age as" is "exactly the same", which equality's grammar reads as EQUAL)
       poison=st.sampled_from(tuple(w for w in POISON_WORDS if w != "just") + ("similar", "approximately", "nearly",
                                                                             "usually")), where=st.floats(0, 1))
def test_a_measured_equality_with_a_poison_word_never_reads(pair, measure, verb, noun, equal, poison, where):
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    words = _measured(equal, a, b, measure, verb, noun).split(" ")
    at = 1 + min(int(where * (len(words) - 1)), len(words) - 2)
    text = " ".join(words[:at] + [poison] + words[at:])
    assert _read("equality", text, ("EQUAL", ("V0", "V1")), names, types) != "read", text


@settings(max_examples=80, deadline=None)
@given(pair=_pair(VARS), verb=st.sampled_from(_VERBS),
       prop=st.sampled_from(("sign", "parity", "first digit", "last digit", "similar score", "approximate weight",
                             "average height", "house", "colour scheme")))
def test_a_property_of_a_value_or_no_measure_stays_unread(pair, verb, prop):
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    for text in (f"{a} and {b} {verb[0]} the same {prop}.", f"{a} {verb[1]} the same {prop} as {b}.",
                 f"{a} and {b} share a {prop}."):
        assert _read("equality", text, ("EQUAL", ("V0", "V1")), names, types) != "read", text


@settings(max_examples=120, deadline=None)
@given(pair=_pair(VARS), owned=st.one_of(WORD, st.sampled_from(("double", "square", "brother", "twin", "half", "twins",
                                                                  "neighbour", "scales", "copy", "shadow"))),
       measure=_MEASURE, form=st.sampled_from(("{a}'s {o} is the same {m} as {b}.", "{a}'s {o} equals {b}.",
                                               "{a}'s {o} matches {b}.", "{a} has {o} of the same {m} as {b}.",
                                               "{a}'s {o} has the same {m} as {b}.", "{a}'s {o} is {b}.")))
def test_a_thing_a_name_owns_compared_with_another_name_never_reads_as_the_owner(pair, owned, measure, form):
    """"k's double equals e", "k's brother is the same age as e", "k has twins of the same age as e": the owned thing is
    compared, not k's own value, so none reads as EQUAL(k, e) (an owned noun was read away as its owner, once)."""
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    text = form.format(a=a, b=b, o=owned, m=" ".join(w for w in measure if w))
    assert _read("equality", text, ("EQUAL", ("V0", "V1")), names, types) != "read", text


@settings(max_examples=60, deadline=None)
@given(pair=_pair(PEOPLE), verb=st.sampled_from(("is seen", "sits", "stands", "is moored", "appears")),
       scene=st.sampled_from(("in the mirror", "in the reflection", "in the mirrored hall", "on the reverse side",
                              "in the flipped photo", "from the opposite bank", "in the rear window")))
def test_a_scene_that_turns_the_view_never_reads(pair, verb, scene):
    """A mirror swaps left and right: "X is seen to the left of Y in the mirror" says X is right of Y in the room."""
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    for text in (f"{a} {verb} to the left of {b} {scene}.", f"{scene[0].upper()}{scene[1:]}, {a} {verb} left of {b}."):
        assert _read("transitive_order", text, ("LEFT_OF", ("E0", "E1")), names, types) != "read", text


@settings(max_examples=60, deadline=None)
@given(pair=_pair(PEOPLE), word=st.one_of(WORD, st.sampled_from(("former", "late", "fake", "retired", "future",
                                                                   "alleged", "imaginary", "honorary", "missing"))))
def test_a_word_before_one_name_alone_is_never_read_away(pair, word):
    """"the former Weavers", "the late Osei": a word set before one name may change who is meant, so a sentence that
    reads only without it stays unread (a word set alike before two names is a kind noun, and read away)."""
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    for text in (f"{a} is to the left of the {word} {b}.", f"The {word} {a} stands to the left of {b}."):
        assert _read("transitive_order", text, ("LEFT_OF", ("E0", "E1")), names, types) != "read", text
    groups, kinds = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    text = f"Every one of the {a} is among the {word} {b}."
    assert _read("membership_inheritance", text, ("SUBSET_OF", ("S0", "S1")), groups, kinds) != "read", text


@settings(max_examples=60, deadline=None)
@given(person=st.sampled_from(PEOPLE), badges=_pair(("Harbor badge", "Mesa badge", "Acorn badge", "Opal Tier")),
       verb=st.sampled_from((("has", "does not have"), ("holds", "does not hold"), ("carries", "does not carry"),
                             ("owns", "does not own"), ("wears", "does not wear"))), negative=st.booleans())
def test_a_person_holding_a_token_reads_where_the_grammar_reads_it_only_the_other_way_round(person, badges, verb,
                                                                                           negative):
    """"Rhea has the Mesa badge": the grammar's "{1} has {0}" (a category has a member) reads it only with the names
    in slots of the other type, which is no reading: the sentence is rewritten as one that reads as no fact."""
    mine, other = badges
    names, types = {"E0": person, "S0": mine, "S1": other}, {"E0": "Entity", "S0": "Set", "S1": "Set"}
    pred = "NOT_MEMBER_OF" if negative else "MEMBER_OF"
    text = f"{person} {verb[negative]} the {mine}."
    assert _read("membership_inheritance", text, (pred, ("E0", "S0")), names, types) == "read", text
    flipped = f"{person} {verb[not negative]} the {mine}."
    assert _read("membership_inheritance", flipped, (pred, ("E0", "S0")), names, types) == "misread", flipped
    another = f"{person} {verb[negative]} the {other}."
    assert _read("membership_inheritance", another, (pred, ("E0", "S0")), names, types) == "misread", another
    hedged = f"{person} probably {verb[negative]} the {mine}."
    assert _read("membership_inheritance", hedged, (pred, ("E0", "S0")), names, types) != "read", hedged
    if not negative:   # the grammar's own converse reads as before
        said = f"The {mine} has {person}."
        assert _read("membership_inheritance", said, (pred, ("E0", "S0")), names, types) == "read", said
    # asked, and a label's clause, alike
    base = {"has": "have", "holds": "hold", "carries": "carry", "owns": "own", "wears": "wear"}[verb[0]]
    asked = reader("membership_inheritance").read_question
    for badge, want in ((mine, "read"), (other, "misread")):
        q = f"Does {person} {base} the {badge}? Answer YES if {person} {verb[0]} it, NO if not, or UNKNOWN if the " \
            "rules do not settle it."
        assert asked(q, ("MEMBER_OF", ("E0", "S0")), Marked(names, types), types, ("YES", "NO", "UNKNOWN")).kind == \
            want, q


@settings(max_examples=60, deadline=None)
@given(groups=_pair(("Pewter Tier", "Gilded Tier", "Market Stewards", "Tree Planting", "Opal Tier")),
       person=st.sampled_from(PEOPLE),
       subject=st.sampled_from(("All the {a}'s {n}", "All of the {a}'s {n}", "Every one of the {a}'s {n}")),
       noun=st.sampled_from(("holders", "members", "volunteers", "bearers")),
       verb=st.sampled_from(("also hold the {b}", "volunteer for the {b}", "belong to the {b} too")))
def test_a_categorys_members_by_its_possessive_and_volunteering_for_read_and_their_poisons_do_not(
        groups, person, subject, noun, verb):
    """"All the Pewter Tier's holders also hold the Gilded Tier", "Kofi volunteers for Tree Planting": a category's
    members named by its possessive and a member noun, and "volunteer for" as being in; reversed, another category,
    another relation ("rivals", "works for") never reads."""
    a, b = groups
    names, types = {"S0": a, "S1": b, "E0": person}, {"S0": "Set", "S1": "Set", "E0": "Entity"}
    text = (subject + " " + verb).format(a=a, b=b, n=noun) + "."
    assert _read("membership_inheritance", text, ("SUBSET_OF", ("S0", "S1")), names, types) == "read", text
    swapped = (subject + " " + verb).format(a=b, b=a, n=noun) + "."
    assert _read("membership_inheritance", swapped, ("SUBSET_OF", ("S0", "S1")), names, types) == "misread", swapped
    for bad in (text.replace(noun, "rivals"), text.replace(noun, "founders"), text.replace("volunteer for", "work for"),
                text.replace(" also", " probably") if " also" in text else "Not " + text[:1].lower() + text[1:]):
        if bad != text:
            assert _read("membership_inheritance", bad, ("SUBSET_OF", ("S0", "S1")), names, types) != "read", bad
    said = f"{person} volunteers for the {a}."
    assert _read("membership_inheritance", said, ("MEMBER_OF", ("E0", "S0")), names, types) == "read", said
    said = f"{person} does not volunteer for the {a}."
    assert _read("membership_inheritance", said, ("NOT_MEMBER_OF", ("E0", "S0")), names, types) == "read", said
    assert _read("membership_inheritance", said, ("MEMBER_OF", ("E0", "S0")), names, types) == "misread", said
