"""A gloss of equality's label signs in a question (issue 42), composed from its parts (who is glossed, a verb of
meaning, the meaning in words of equality or difference, where it opens): the faithful gloss reads; the signs'
meanings swapped are misread; a hedge, a number, another word or a gloss of one sign only for both never read."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

LETTERS = "abcdefghijklmnopqrstuvwxyz"
TYPES = {s: "Variable" for s in LETTERS}
MARKED = Marked({s: s for s in LETTERS}, TYPES)
QUERY = ("ENTAILED", ())
LABELS = ("u != l", "t = b", "t != b", "u = l")
ASK = "Which one of the following must be true: u != l, t = b, t != b, or u = l?"

# The parts of a gloss: how the sentence opens, who each sign's clause is about, a verb of meaning and the meaning
OPENS = ["", "Here ", "In each option, ", "Select the statement that necessarily follows, where ",
         "Choose the one option that holds, with "]
SIGNS = [('"{s}"', ""), ("{s}", ""), ('the "{s}" sign', ""), ('the symbol "{s}"', ""), ('an option with "{s}"', ""),
         ('one written with "{s}"', "")]
VERBS = ["means", "indicates", "says", "claims", "denotes", "stands for"]
EQUAL = ["equal", "the two variables are equal", "the two variables have the same value", "their values are equal",
         "they are the same", "the values match", "they must be equal",
         # the scene's own noun for the variables or what they hold
         "the two registers hold the same value", "the two letters hide the same number", "the same setting"]
UNEQUAL = ["not equal", "the two variables are not equal", "they have different values", "their values differ",
           "the values are different", "they are unequal", "they must be different", "they hold different values",
           "different settings", "the two dials show different readings"]
READ_AS = ['Read "=" as "{e}" and "!=" as "{u}".', 'Read "=" as "{e}", and "!=" as "{u}".']


def _read(gloss: str) -> str:
    return reader("equality").read_question(f"{ASK} {gloss}", QUERY, MARKED, TYPES, LABELS).kind


@st.composite
def gloss(draw: st.DrawFn, equal: str | None = None, unequal: str | None = None) -> str:
    """A gloss of both signs, each clause composed; `equal`/`unequal` replace the clauses' meanings."""
    e = equal if equal is not None else draw(st.sampled_from(EQUAL))
    u = unequal if unequal is not None else draw(st.sampled_from(UNEQUAL))
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from(READ_AS)).format(e="is " + e if e in ("equal", "not equal") else e,
                                                      u="is " + u if u in ("equal", "not equal") else u)
    who = draw(st.sampled_from(SIGNS))[0]
    opener = draw(st.sampled_from(OPENS))
    verb = draw(st.sampled_from(VERBS))
    first, second = ("=", e), ("!=", u)
    if draw(st.booleans()):
        first, second = second, first
    lead = opener + who.format(s=first[0])
    lead = lead[0].upper() + lead[1:]
    return f"{lead} {verb} {first[1]}, and {who.format(s=second[0])} {verb} {second[1]}."


@settings(max_examples=120, deadline=None)
@given(gloss())
def test_a_faithful_gloss_of_the_signs_reads(text):
    assert _read(text) == "read", text


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(EQUAL), st.sampled_from(UNEQUAL))
def test_the_signs_meanings_swapped_are_misread(data, e, u):
    text = data.draw(gloss(equal=u, unequal=e))
    assert _read(text) == "misread", text


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from(["roughly ", "about ", "probably ", "always 5 and ", "greater than or ",
                                   "less than or ", "sometimes ", "nearly ", "at least "]),
       st.booleans())
def test_a_hedge_number_or_other_word_in_a_sign_clause_never_reads(data, extra, which):
    e, u = data.draw(st.sampled_from(EQUAL)), data.draw(st.sampled_from(UNEQUAL))
    if which:
        e = extra + e
    else:
        u = extra + u
    text = data.draw(gloss(equal=e, unequal=u))
    assert _read(text) != "read", text


def test_a_gloss_of_used_labels_or_of_one_meaning_for_both_signs_never_reads():
    for text in ['Here "=" means equal and "!=" means equal.', 'Here "=" means not equal and "!=" means not equal.',
                 "Here u = l means equal and != means not equal.", '"=" means equal and "!=" means it is unknown.',
                 'Here "=" means "greater than" and "!=" means "less than".']:
        assert _read(text) != "read", text


def test_a_sentence_without_a_mentioned_sign_is_not_a_gloss():
    assert _read("Choose the one option that necessarily follows.") == "read"


def test_a_scene_noun_never_hides_a_comparison_a_negation_or_a_hedge():
    for e in ["the two registers hold greater values", "the two registers never hold the same value",
              "the two registers hold the same value twice", "their larger values are equal", "the same most values"]:
        text = f'Here "=" means {e} and "!=" means they hold different values.'
        assert _read(text) != "read", text


# A gloss through an example with placeholder letters ('An option of the form "x = y" says x equals y'): the letters
# are no names of the render (here the names are a..s), and the clause may name them again.
NAMED = Marked({s: s for s in "abcdefghijklmnopqrs"}, {s: "Variable" for s in "abcdefghijklmnopqrs"})
PLACE_LABELS = ("q != j", "b = e", "b != e", "q = j")
PLACE_ASK = "Which of the following must be true: q != j, b = e, b != e, or q = j?"
PAIRS = [("x", "y"), ("u", "v"), ("x", "w"), ("w", "t")]   # never z: the clause that names z names another
PLACE_WHO = ['"{p}"', "{p}", 'an option of the form "{p}"', 'an answer written "{p}"', 'a statement written as {p}',
             'one written with "{p}"']
PLACE_EQUAL = ["{a} and {b} are equal", "{a} equals {b}", "{a} is equal to {b}", "{a} and {b} have the same value",
               "that {a} and {b} are equal", "they are equal", "{a} and {b} hold the same value"]
PLACE_UNEQUAL = ["{a} and {b} are not equal", "{a} does not equal {b}", "{a} is not equal to {b}", "{a} differs from {b}",
                 "that {a} and {b} are not equal", "they are not equal", "{a} and {b} have different values"]


def _read_placed(gloss: str) -> str:
    return reader("equality").read_question(f"{PLACE_ASK} {gloss}", QUERY, NAMED, NAMED.types or {}, PLACE_LABELS).kind


@st.composite
def placed(draw: st.DrawFn, equal: str | None = None, unequal: str | None = None) -> str:
    """A gloss of both signs through placeholder examples, each part composed; one sentence or two (";" or ".")."""
    a, b = draw(st.sampled_from(PAIRS))
    e = (equal if equal is not None else draw(st.sampled_from(PLACE_EQUAL))).format(a=a, b=b)
    u = (unequal if unequal is not None else draw(st.sampled_from(PLACE_UNEQUAL))).format(a=a, b=b)
    who = draw(st.sampled_from(PLACE_WHO))
    verb = draw(st.sampled_from(["means", "says", "indicates", "states"]))
    first, second = (f"{a} = {b}", e), (f"{a} != {b}", u)
    if draw(st.booleans()):
        first, second = second, first
    lead = draw(st.sampled_from(["", "Here ", "In each option, "])) + who.format(p=first[0])
    join = draw(st.sampled_from([", and ", ", while ", "; ", ". "]))
    other = who.format(p=second[0])
    other = other[:1].upper() + other[1:] if join == ". " else other
    text = f"{lead} {verb} {first[1]}{join}{other} {verb} {second[1]}."
    return text[:1].upper() + text[1:]


@settings(max_examples=120, deadline=None)
@given(placed())
def test_a_gloss_through_placeholder_examples_reads(text):
    assert _read_placed(text) == "read", text


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(PLACE_EQUAL[:5]), st.sampled_from(PLACE_UNEQUAL[:5]))
def test_a_placeholder_gloss_with_the_meanings_swapped_is_misread(data, e, u):
    text = data.draw(placed(equal=u, unequal=e))
    assert _read_placed(text) == "misread", text


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(["{a} and k are equal", "{a} equals k", "{a} is greater than {b}",
                                   "{a} and {b} are roughly equal", "{a} and {b} are probably equal",
                                   "{a} is at least {b}", "{a} equals {b} plus 1", "{a} and z are equal"]))
def test_a_placeholder_clause_naming_another_letter_or_saying_more_never_reads(data, wrong):
    text = data.draw(placed(equal=wrong))
    assert _read_placed(text) != "read", text


def test_a_sign_between_names_or_one_letter_twice_is_no_placeholder_gloss():
    """A sign between two of the puzzle's names is no placeholder: where it is a label ("q = j"), the sentence glosses
    those labels and is held to their meanings (read as said, misread swapped); one letter twice glosses nothing."""
    labels = 'Here "q = j" means q and j are equal, and "q != j" means they are not equal.'
    assert _read_placed(labels) == "read", labels
    swapped = 'Here "q = j" means q and j are not equal, and "q != j" means they are equal.'
    assert _read_placed(swapped) == "misread", swapped
    twice = 'Here "x = x" means x and x are equal, and "x != x" means they are not equal.'
    assert _read_placed(twice) != "read", twice


def test_a_labels_own_bare_letters_are_never_placeholders():
    """Where the render named its symbols otherwise ("Halite" for h), a label "h != a" keeps its bare letters: it is
    used, not an example of the sign, and no gloss."""
    from families.sign_gloss import sign_gloss
    words = ["which", "must", "hold", "h", "!=", "a", "or", "q", "=", "t"]
    assert sign_gloss(words, True, frozenset({"h", "!=", "a", "q", "=", "t"})) is None
    example = ["here", "x", "=", "y", "means", "x", "equals", "y"]
    assert sign_gloss(example, True, frozenset({"h", "!=", "a"})) == ("read", 0)
    assert sign_gloss(example, True, frozenset({"x", "="})) is None


ALL_NAMED = Marked({s: s for s in LETTERS}, TYPES)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PAIRS), st.sampled_from(PLACE_WHO[:4]), st.sampled_from(PLACE_EQUAL[:5]),
       st.sampled_from(PLACE_UNEQUAL), st.booleans())
def test_placeholders_that_are_also_names_read_where_their_clause_names_them_again(pair, who, e, u, swap):
    """x and y variables of a large puzzle, not of the labels: the example's clause names both again, so the sentence
    glosses the signs (read, or misread swapped); it never reads as a negated ask."""
    a, b = pair
    first, second = (f"{a} = {b}", e.format(a=a, b=b)), (f"{a} != {b}", u.format(a=a, b=b))
    if swap:
        first, second = (first[0], PLACE_UNEQUAL[0].format(a=a, b=b)), (second[0], PLACE_EQUAL[0].format(a=a, b=b))
    text = f"{PLACE_ASK} Here {who.format(p=first[0])} means {first[1]}, and {who.format(p=second[0])} means {second[1]}."
    got = reader("equality").read_question(text, QUERY, ALL_NAMED, TYPES, PLACE_LABELS).kind
    assert got == ("misread" if swap else "read"), text
