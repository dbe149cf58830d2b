"""Order questions of the seventh session's classes (families/label_brackets.py, families/order_reads.py,
families/phrases.py): labels each explained in brackets after it, one side asked of a pair, the pair named by a
frame before "which is true", "with" before each label, and the third way said as the facts not letting you tell. Each
reads; its poisons (the other direction, the labels' meanings swapped, adjacency, another name, a bracket left out) never
do."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_brackets import bracketed
from families.reading import Marked, reader

NAMES = {"E0": "Ironwood", "E1": "Atlas", "E2": "Kestrel"}
TYPES = {s: "Entity" for s in NAMES}
LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
THIRD = ["the information does not determine their relative position", "the information does not let you tell",
         "the premises do not determine this", "it is impossible to tell from these clues", "the facts do not settle it"]
LEADS = ["The possible answers are ", "The options are ", "Answer ", "Choose from "]
HEADS = ["Is Ironwood to the left or to the right of Atlas?", "Is Ironwood to the left of Atlas?",
         "Is Ironwood to the right of Atlas?", "Looking at Ironwood and Atlas, which is true?",
         "Considering Ironwood and Atlas, which holds?", "Here's the puzzle: is Ironwood to the left or right of Atlas?"]


def _kind(text: str) -> str:
    return reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(NAMES, TYPES), TYPES,
                                                    LABELS).kind


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(HEADS), st.sampled_from(LEADS), st.sampled_from(THIRD), st.booleans())
def test_labels_explained_in_brackets_or_with_with_read_under_any_head_and_their_poisons_do_not(
        head: str, lead: str, third: str, with_with: bool) -> None:
    """"The possible answers are LEFT_OF (Ironwood is to the left of Atlas), RIGHT_OF (...), and UNKNOWN (...)" and
    "Answer with LEFT_OF if ..., with RIGHT_OF if ..., or with UNKNOWN if ..." read; swapped meanings never do."""
    left, right = "Ironwood is to the left of Atlas", "Ironwood is to the right of Atlas"
    said = f"{head} {lead}LEFT_OF ({left}), RIGHT_OF ({right}), and UNKNOWN ({third})."
    assert _kind(said) == "read", said
    if_said = f"{head} Answer with LEFT_OF if {left}, with RIGHT_OF if {right}, or with UNKNOWN if {third}." \
        if with_with else f"{head} Answer LEFT_OF if {left}, RIGHT_OF if {right}, or UNKNOWN if {third}."
    assert _kind(if_said) == "read", if_said
    for bad in (f"{head} {lead}LEFT_OF ({right}), RIGHT_OF ({left}), and UNKNOWN ({third}).",
                f"{head} Answer LEFT_OF if {right}, RIGHT_OF if {left}, or UNKNOWN if {third}.",
                f"{head} {lead}LEFT_OF ({left}), RIGHT_OF ({right.replace('Atlas', 'Kestrel')}), and UNKNOWN ({third}).",
                f"{head} {lead}LEFT_OF ({left.replace('to the', 'directly to the')}), RIGHT_OF ({right}), and "
                f"UNKNOWN ({third})."):
        assert _kind(bad) != "read", bad


def test_the_ask_itself_poisoned_never_reads() -> None:
    """The other direction, adjacency, another name or a negation in a polar or framed ask never reads."""
    tail = " Answer LEFT_OF if Ironwood is to the left of Atlas, RIGHT_OF if Ironwood is to the right of Atlas, or " \
           "UNKNOWN if the facts do not settle it."
    for bad in ("Is Ironwood directly to the left of Atlas?", "Is Ironwood to the left of Kestrel?",
                "Is Ironwood not to the left of Atlas?", "Looking at Ironwood and Kestrel, which is true?",
                "Is Ironwood immediately to the right of Atlas?", "Is Kestrel to the left of Atlas?"):
        assert _kind(bad + tail) != "read", bad


def test_a_yes_or_no_of_one_side_asks_of_the_pair_in_either_order_and_its_labels_clauses_decide() -> None:
    """"Is Atlas to the right of Ironwood?" asks of the same pair as "Is Ironwood to the left of Atlas?" (never a false
    misread of the other direction); the labels' clauses are what must say the query's meaning."""
    right = " Answer LEFT_OF if Ironwood is to the left of Atlas, RIGHT_OF if Ironwood is to the right of Atlas, or " \
            "UNKNOWN if the facts do not settle it."
    swapped = right.replace("left of Atlas, RIGHT", "@").replace("right of Atlas", "left of Atlas").replace(
        "@", "right of Atlas, RIGHT")
    for ask in ("Is Atlas to the right of Ironwood?", "Is Atlas to the left of Ironwood?",
                "Looking at Atlas and Ironwood, which is true?", "Is Ironwood to the right of Atlas?"):
        assert _kind(ask + right) == "read", ask
        assert _kind(ask + swapped) == "misread", ask + swapped


def test_a_bracket_of_some_labels_or_holding_a_label_is_no_explanation() -> None:
    assert bracketed("Answer LEFT_OF (x), RIGHT_OF (y) or UNKNOWN.", LABELS) is None
    assert bracketed("Answer LEFT_OF (not RIGHT_OF), RIGHT_OF (y) and UNKNOWN (z).", LABELS) is None
    assert bracketed("The options are LEFT_OF (if a), RIGHT_OF (b) and UNKNOWN (c).", LABELS) == \
        "Answer LEFT_OF if a, RIGHT_OF if b and UNKNOWN if c."
