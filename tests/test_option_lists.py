"""A question's option list found by the options themselves (issue 42): a faithful question with its list of every
option, in any separators or markers and any order, reads as the query; a list that drops, repeats or alters an
option, or a question that says an option again outside its list, never reads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.option_lists import option_list
from families.reading import Marked, reader

TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "C0": "Counter"}
NAMES = {"E0": "Nico", "E1": "Ben", "S0": "Bakers", "C0": "Hopper"}
CASES = [   # family, query, options, a question that asks the query
    ("transitive_order", ("RELATION", ("E0", "E1")), ("LEFT_OF", "RIGHT_OF", "UNKNOWN"),
     "Where is Nico relative to Ben?"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), ("YES", "NO", "UNKNOWN"), "Is Nico a member of the Bakers?"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("9", "10", "11"), "What is the final value of Hopper?"),
    ("equality", ("ENTAILED", ()), ("q != m", "f != z", "f = z", "c != f"),
     "Which of the following conclusions necessarily follows?"),
]
LEADS = ["", "Answer ", "Options: ", "Choose from ", "Answer with exactly one of: ", "Possible answers: ",
         "Respond with one of ", "Pick one: "]


def _written(options: list[str], style: str) -> str:
    """The options as a list in one style of separators or markers."""
    if style == "comma-or":
        return ", ".join(options[:-1]) + ", or " + options[-1]
    if style == "lettered":
        return " ".join(f"({chr(65 + k)}) {o}" for k, o in enumerate(options))
    if style == "dotted":
        return " ".join(f"{chr(65 + k)}. {o}" for k, o in enumerate(options))
    if style == "numbered":
        return "\n".join(f"{k + 1}) {o}" for k, o in enumerate(options))
    if style == "bracketed":
        return "[" + ", ".join(options) + "]"
    sep = {"slash": " / ", "pipe": " | ", "semicolon": "; ", "comma": ", "}[style]
    return sep.join(options)


STYLES = ["comma-or", "lettered", "dotted", "numbered", "bracketed", "slash", "pipe", "semicolon", "comma"]


def _read(case: tuple, text: str) -> str:
    family, query, labels, _ = case
    return reader(family).read_question(text, query, Marked(NAMES, TYPES), TYPES, labels).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.data(), st.sampled_from(STYLES), st.sampled_from(LEADS))
def test_a_faithful_question_with_its_options_in_any_list_and_order_reads(case, data, style, lead):
    options = data.draw(st.permutations(case[2]))
    text = f"{case[3]} {lead}{_written(list(options), style)}"
    assert option_list(text, case[2]) is not None, text
    assert _read(case, text) == "read", text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CASES), st.data(), st.sampled_from(STYLES), st.sampled_from(LEADS),
       st.sampled_from(["drop", "repeat", "alter", "again"]))
def test_a_list_that_drops_repeats_or_alters_an_option_never_reads(case, data, style, lead, how):
    options = list(data.draw(st.permutations(case[2])))
    k = data.draw(st.integers(0, len(options) - 1))
    if how == "drop":
        del options[k]
    elif how == "repeat":
        options.insert(data.draw(st.integers(0, len(options))), options[k])
    elif how == "alter":
        options[k] = {"LEFT_OF": "LEFT", "YES": "TRUE", "9": "8", "q != m": "q = m"}.get(options[k], options[k] + "x")
    text = f"{case[3]} {lead}{_written(options, style)}"
    if how == "again":   # the answer given away after the list
        text += f" (Answer: {options[k]})"
    assert _read(case, text) != "read", text


def test_options_are_found_whole_and_a_negated_query_or_hint_stays_unread():
    assert option_list("How many jars remain? Answer 12, 1 or 2.", ("1", "2", "12")) is not None
    assert option_list("How many? Answer 12, 1.", ("1", "2", "12")) is None   # "2" is not in "12"
    negated = CASES[1][:3] + ("Is Nico not a member of the Bakers?",)
    assert _read(negated, "Is Nico not a member of the Bakers? Answer YES, NO, or UNKNOWN.") != "read"
    assert _read(CASES[3], "Hint: look at f = z. Which of the following conclusions necessarily follows? "
                           "A. q != m B. f != z C. f = z D. c != f") != "read"


# A gloss said before the list ("Answer with Lena's final score: 252, 254, or 256", blind23) reads as the gloss after
# it: of the queried counter it reads; of another counter it is misread; of its start, hedged or of another thing it
# never reads.
_COUNTERS = {"C0": "Lena", "C1": "Omar"}
_COUNTER_TYPES = {"C0": "Counter", "C1": "Counter"}


def _final(text: str) -> str:
    return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", ("C0",)), Marked(_COUNTERS, _COUNTER_TYPES),
                                                           _COUNTER_TYPES, ("252", "254", "256")).kind


@settings(max_examples=30, deadline=None)
@given(ask=st.sampled_from(["What is Lena's score once all of the changes have been applied?",
                            "What is Lena's final score?", "How many points does Lena have at the end?"]),
       verb=st.sampled_from(["Answer with", "Respond with", "Reply with"]),
       gloss=st.sampled_from(["Lena's final score", "the final score of Lena", "Lena's score at the end"]))
def test_a_gloss_before_the_list_reads_as_after_it(ask, verb, gloss):
    text = f"{ask} {verb} {gloss}: 252, 254, or 256."
    assert _final(text) == "read", text
    assert _final(text.replace(f"{verb} Lena", f"{verb} Omar").replace("of Lena:", "of Omar:")) == "misread", text
    for twin in (gloss.replace("final score", "starting score").replace("at the end", "at the start"),
                 f"roughly {gloss}", f"the option closest to {gloss}"):
        assert _final(f"{ask} {verb} {twin}: 252, 254, or 256.") != "read", twin


def test_a_list_before_each_options_explanation_is_read_away_and_the_explanations_as_they_stand():
    """ "Answer 46, 48 or 50: 46 means the green cart ends with 46 books, 48 means ..." (blind36): the list only says
    which options there are; without the explanations after it, or with one left out, it stays as it was."""
    from families.option_lists import listed_before_explained
    labels = ("46", "48", "50")
    said = "How many? Answer 46, 48 or 50: 46 means it ends with 46, 48 means it ends with 48, 50 means it ends with 50."
    assert listed_before_explained(said, labels) == \
        "How many? 46 means it ends with 46, 48 means it ends with 48, 50 means it ends with 50."
    assert listed_before_explained("How many? Answer 46, 48 or 50.", labels) is None
    assert listed_before_explained("How many? Answer 46, 48 or 50: 46 means it ends with 46.", labels) is None
