"""The counters' free English, composed (issue 42): any counter name (with an article, a possessive, a title) said with
any verb of moving and its way, any number and count noun, reads as its fact; the same sentence with a wrong number, a
sign, a percent, an approximation, a measure, the other counter or the other way is never read. Options glossed as
candidate final values, an intro that counts the named containers, category names in either number with or without
their article, and label clauses that speak of the query itself."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.kind_nouns import KindMarked, kind_nouns
from families.reading import Marked, reader
from providers.builtin import template_structure
from rendering.intro import intro_flaws, kinds_named
from rendering.render import StructuredRender
from rendering.structure import check, from_object
from tests.conftest import make

STATE = reader("sequential_state_update")
TYPES = {"C0": "Counter", "C1": "Counter"}
NAMES = [("the north gate", "the south gate"), ("Ledger Beta", "Ledger Alpha"), ("Mira's purse", "Tobin's purse"),
         ("counter P", "counter Q"), ("the blue jar", "the red jar"), ("Orchard Tally", "Meadow Tally")]
NOUNS = ["marbles", "coins", "visitors", "books", "crates", "sacks of grain", "items"]
# (sentence, predicate): {0} the counter, {1} the number, {n} the count noun
INTO = ["{1} {n} are poured into {0}.", "Then {1} {n} are stocked onto {0}.", "Next, {1} {n} are tossed into {0}.",
        "{1} {n} get carried into {0}.", "Sixth, {1} {n} are credited to {0}.", "First, {1} {n} walk into {0}.",
        "Then {1} more {n} pass through {0}.", "A clerk tosses {1} {n} into {0}.", "{0} is then given {1} {n}.",
        "{0} then scores {1} {n}.", "After that, {1} {n} are loaded onto {0}."]
OUT = ["{1} {n} are drained from {0}.", "Then {1} {n} are fished out of {0}.", "Fifth, {1} {n} are debited from {0}.",
       "Next, {1} {n} are scooped out of {0}.", "{1} {n} walk out of {0}.", "{0} then trades in {1} {n}.",
       "A porter hauls {1} {n} out of {0}."]
START = ["{0} begins the morning with {1} {n}.", "In the morning, {0} holds {1} {n}.", "At opening, there are {1} {n} "
         "in {0}.", "The count at {0} opens at {1} {n}.", "{0} begins the game with {1} {n}."]
FORMS = [(t, "INCREMENT") for t in INTO] + [(t, "DECREMENT") for t in OUT] + [(t, "INITIAL_VALUE") for t in START]
OPPOSITE = {"INCREMENT": "DECREMENT", "DECREMENT": "INCREMENT"}


def _say(form: str, name: str, number: str, noun: str) -> str:
    text = form.replace("{0}", name).replace("{1}", number).replace("{n}", noun)
    return text[0].upper() + text[1:]


def _verdict(text: str, pred: str, number: int, names: tuple[str, str]) -> str:
    return STATE.read_fact(text, (pred, ("C0", number)), Marked(dict(zip(("C0", "C1"), names)), TYPES), TYPES).kind


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FORMS), st.sampled_from(NAMES), st.integers(2, 99), st.sampled_from(NOUNS))
def test_a_verb_of_moving_its_way_any_name_and_number_read_as_the_fact(form, names, number, noun):
    text, pred = form
    assert _verdict(_say(text, names[0], str(number), noun), pred, number, names) == "read"


CORRUPT = {"wrong number": lambda n: str(n + 2), "sign": lambda n: f"-{n}", "plus": lambda n: f"+{n}",
           "percent": lambda n: f"{n}%", "percent word": lambda n: f"{n} percent", "approximate": lambda n: f"about {n}",
           "tilde": lambda n: f"~{n}", "at least": lambda n: f"at least {n}", "roughly": lambda n: f"roughly {n}"}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FORMS), st.sampled_from(NAMES), st.integers(2, 97), st.sampled_from(NOUNS),
       st.sampled_from(sorted(CORRUPT)))
def test_a_corrupted_number_is_never_read(form, names, number, noun, corruption):
    text, pred = form
    said = _say(text, names[0], CORRUPT[corruption](number), noun)
    assert _verdict(said, pred, number, names) != "read", said


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FORMS), st.sampled_from(NAMES), st.integers(2, 99),
       st.sampled_from(["liters", "kilograms", "kg", "gallons", "dozen eggs", "tons"]))
def test_a_measure_is_never_a_count(form, names, number, unit):
    text, pred = form
    said = _say(text, names[0], str(number), unit)
    assert _verdict(said, pred, number, names) != "read", said


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FORMS), st.sampled_from(NAMES), st.integers(2, 99), st.sampled_from(NOUNS))
def test_the_other_counter_or_the_other_way_is_never_read(form, names, number, noun):
    text, pred = form
    other = _say(text, names[1], str(number), noun)
    assert _verdict(other, pred, number, names) != "read", other
    if pred in OPPOSITE:
        assert _verdict(_say(text, names[0], str(number), noun), OPPOSITE[pred], number, names) != "read"


def test_a_start_later_in_the_day_or_the_last_step_is_no_start():
    names = NAMES[4]
    for text in ("In the evening, the blue jar has 40 marbles.", "Sixth and last, the blue jar has 40 marbles.",
                 "The count at the blue jar ends at 40 marbles."):
        assert _verdict(text, "INITIAL_VALUE", 40, names) != "read", text


GLOSSES = ["Each option is a possible final number of {n} in {0}.", "Each is a possible final {s} count for {0}.",
           "Each number is a candidate for {0}'s final amount.", "Each option is a possible final score for {0}."]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GLOSSES), st.sampled_from(NAMES), st.integers(10, 90))
def test_options_glossed_as_final_values_of_the_queried_counter_read_and_of_another_misread(gloss, names, low):
    options = tuple(str(low + 2 * k) for k in range(3))
    marked = Marked(dict(zip(("C0", "C1"), names)), TYPES)
    head = f"How many coins does {names[0]} hold at the end: {options[0]}, {options[1]}, or {options[2]}? "

    def asked(name: str, end: str = "final") -> str:
        said = gloss.replace("{0}", name).replace("{n}", "coins").replace("{s}", "coin").replace("final", end)
        return STATE.read_question(head + said, ("FINAL_VALUE", ("C0",)), marked, TYPES, options).kind
    assert asked(names[0]) == "read"
    assert asked(names[1]) != "read"
    assert asked(names[0], "starting") != "read"


def test_an_intro_may_count_the_named_containers_never_their_things_or_an_option():
    kinds = kinds_named(TYPES, {"C0": "the blue jar", "C1": "the red jar"})
    assert intro_flaws("Two jars of marbles sit on a shelf, filled one step at a time.", ("65", "67", "69"), kinds) == ()
    for intro, options in (("Three jars of marbles sit on a shelf.", ("65", "67", "69")),
                           ("Two marbles sit on a shelf.", ("65", "67", "69")),
                           ("Two jars of marbles sit on a shelf.", ("2", "4", "6")),
                           ("2 jars of marbles sit on a shelf.", ("65", "67", "69")),
                           ("Two jars hold sixty marbles.", ("65", "67", "69"))):
        assert intro_flaws(intro, options, kinds), intro
    assert intro_flaws("Two jars of marbles sit on a shelf.", ("65", "67", "69")), "no kinds: the rule as it was"
    assert intro_flaws("Two shelves of books.", ("1", "3", "5"), kinds_named(TYPES, {"C0": "the west shelf",
                                                                                    "C1": "the east shelf"})) == ()


def test_the_check_lets_a_render_count_its_jars_in_the_intro_and_nothing_else():
    payload = make("sequential_state_update", 1, 3).redact()
    render = from_object(template_structure(payload))
    jars = {"C0": "the blue jar", "C1": "the red jar"}

    def renamed(text: str) -> str:
        for s, name in jars.items():
            text = text.replace(render.names[s], name)
        return text

    def reasons(intro: str) -> list[str]:
        premises = tuple((i, renamed(t)) for i, t in render.premises)
        return check(StructuredRender(jars, premises, renamed(render.question), intro), payload)
    assert reasons("Two jars of marbles sit on a shelf.") == []
    assert reasons("Three jars of marbles sit on a shelf.") == ["intro: the intro holds a number"]
    assert reasons("Two marbles sit on a shelf.") == ["intro: the intro holds a number"]


MEMBER = reader("membership_inheritance")
M_TYPES = {"E0": "Entity", "S0": "Set", "S1": "Set"}
PLURALS = [("the scouts", "scout"), ("coopers", "cooper"), ("the frostleaves", "frostleaf"),
           ("sunmosses", "sunmoss"), ("the ashblooms", "ashbloom"), ("the Gardeners", "Gardener")]


def _plural(name: str) -> str:
    return name.split()[-1]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PLURALS), st.sampled_from(PLURALS), st.sampled_from(["Every {a} is a {b}.", "All {A} are {B}.",
                                                                           "All of {TA} are {B}.", "{A} are all {B}."]))
def test_category_names_read_in_either_number_with_or_without_their_article(first, second, form):
    if first == second:
        return
    names = {"E0": "Wren", "S0": first[0], "S1": second[0]}
    marked = Marked(names, M_TYPES)
    text = form.format(a=first[1], b=second[1], A=_plural(first[0]), B=_plural(second[0]), TA=first[0])
    text = text[0].upper() + text[1:]
    assert MEMBER.read_fact(text, ("SUBSET_OF", ("S0", "S1")), marked, M_TYPES).kind == "read", text
    assert MEMBER.read_fact(text, ("SUBSET_OF", ("S1", "S0")), marked, M_TYPES).kind != "read", text
    some = "Some " + text[0].lower() + text[1:]
    assert MEMBER.read_fact(some, ("SUBSET_OF", ("S0", "S1")), marked, M_TYPES).kind != "read", some
    assert MEMBER.read_fact(f"Wren is a {first[1]}.", ("MEMBER_OF", ("E0", "S0")), marked, M_TYPES).kind == "read"


YES = ["it must be", "it necessarily does", "so necessarily", "that must be so", "it follows that Wren is one of {S}",
       "Wren is in it", "necessarily yes", "this must be true"]
NO = ["it cannot be", "it necessarily does not", "necessarily not", "it cannot be so", "it follows that Wren is not one "
      "of {S}", "Wren is not in it", "this must be false"]
UNSETTLED = ["it cannot be determined", "undetermined", "the facts are not enough to tell", "it can't be decided from "
             "the above"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(YES), st.sampled_from(NO), st.sampled_from(UNSETTLED), st.sampled_from([" if ", " = ", " means "]))
def test_label_clauses_of_the_query_read_and_swapped_misread(yes, no, unsettled, joint):
    names = {"E0": "Wren", "S0": "the scouts", "S1": "the lancers"}
    marked = Marked(names, M_TYPES)

    def asked(a: str, b: str) -> str:
        text = (f"Is Wren one of the scouts? YES{joint}{a}, NO{joint}{b}, and UNKNOWN{joint}{unsettled}."
                .replace("{S}", "the scouts"))
        return MEMBER.read_question(text, ("MEMBER_OF", ("E0", "S0")), marked, M_TYPES, ("YES", "NO", "UNKNOWN")).kind
    assert asked(yes, no) == "read"
    assert asked(no, yes) == "misread"
    hedged = yes.replace("must be", "might be").replace("necessarily", "possibly")
    if hedged != yes:
        assert asked(hedged, no) != "read"


def test_each_of_a_kind_in_a_category_is_the_category_where_the_render_shows_the_kind():
    names = {"E0": "Wren", "S0": "Elm House", "S1": "Alder House", "S2": "Oak House"}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set", "S2": "Set"}
    texts = ["Every Oak House student is in Elm House.", "Every Alder House student is an Oak House student.",
             "Each student in Elm House is in Alder House."]
    marked = Marked(names, types)
    kinds = kind_nouns(texts, marked, types, "membership_inheritance")
    assert kinds == {"student"}
    again = KindMarked(names, types, kinds)
    assert MEMBER.read_fact(texts[2], ("SUBSET_OF", ("S0", "S1")), again, types).kind == "read"
    for wrong in ("Each student in Alder House is in Elm House.", "Some student in Elm House is in Alder House.",
                  "Each student in Elm House is not in Alder House."):
        assert MEMBER.read_fact(wrong, ("SUBSET_OF", ("S0", "S1")), again, types).kind != "read", wrong
