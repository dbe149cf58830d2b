"""A gloss of a count question's options (families/option_gloss.py), composed from its parts: who is glossed (the
options, each label, "the label being"), what each stands for (a possible final number, that number left in the
counter, that many the counter ends up with) and an instruction to pick that may close it. The faithful gloss reads;
another counter, another time, a hedge, a negated or another pick never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"C0": "green bag", "C1": "striped bag"}
TYPES = {"C0": "Counter", "C1": "Counter"}
ASK = "How many marbles are in the green bag at the end?"
# (who, verb) heads of a gloss: the options by any noun of them, the labels included
HEADS = ["each label is", "each label means", "the label being", "each option stands for", "the labels each stand for",
         "each being", "the answers each give", "each of them is"]
# what each option is: {x} the counter
BODIES = ["a possible final number of marbles in {x}", "that number of marbles left in {x}",
          "the number of marbles left in {x}", "a possible final count of marbles in {x}",
          "that number of marbles remaining in {x}"]
MEANS = ["{x} ends up with exactly that many marbles", "{x} holds that many marbles at the end"]
# an instruction that closes the gloss and says nothing of what the options are
CLOSERS = ["", ", so pick the label equal to that number", "; choose the one that matches",
           ", so choose the one that is correct", ". Pick the matching label"]
LISTS = ["Choose {a}, {b} or {c}; ", "Reply {a}, {b} or {c}, ", "The answers {a}, {b} and {c}: "]


def _kind(text: str, labels: tuple[str, ...]) -> str:
    return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", ("C0",)), Marked(NAMES, TYPES),
                                                           TYPES, labels).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LISTS), st.sampled_from(HEADS), st.sampled_from(BODIES + ["@" + m for m in MEANS]),
       st.sampled_from(CLOSERS), st.integers(10, 200))
def test_a_gloss_of_the_options_with_a_closing_pick_reads_and_its_poisons_do_not(
        listed: str, head: str, body: str, closer: str, low: int) -> None:
    labels = (str(low), str(low + 2), str(low + 4))
    if body.startswith("@"):   # a statement of "that many": only with a verb of meaning
        if not head.endswith("means"):
            head = "each label means"
        body = body[1:]
    said = listed.format(a=labels[0], b=labels[1], c=labels[2]) + head + " " + body
    text = f"{ASK} {said.format(x='the green bag')}{closer}."
    assert _kind(text, labels) == "read", text
    poisons = [f"{ASK} {said.format(x='the striped bag')}{closer}.",                        # another counter
               f"{ASK} {said.format(x='the green bag').replace('final', 'starting')}{closer}.".replace(
                   "left in the green bag", "in the green bag at the start").replace(
                   "remaining in the green bag", "remaining in the green bag at the start").replace(
                   "at the end", "at the start"),                                               # another time
               f"{ASK} {said.format(x='the green bag').replace(head, head + ' roughly')}{closer}.",  # a hedge
               f"{ASK} {said.format(x='the green bag')}, so pick the label not equal to that number.",
               f"{ASK} {said.format(x='the green bag')}, so pick the label that is largest."]
    for bad in poisons:
        assert _kind(bad, labels) != "read", bad


def test_a_pick_alone_after_the_ask_reads_and_says_nothing_without_it() -> None:
    labels = ("69", "71", "73")
    assert _kind(f"{ASK} Choose 69, 71 or 73. Pick the label equal to that number.", labels) == "read"
    assert _kind("Choose 69, 71 or 73. Pick the label equal to that number.", labels) != "read"
    assert _kind(f"{ASK} Choose 69, 71 or 73. Pick the label below that number.", labels) != "read"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["The candidates are {a}, {b} and {c}", "Choose {a}, {b} or {c}", "The options are {a}, {b} "
                                                                                          "and {c}"]),
       st.sampled_from([": the correct one is the final number of marbles in {x}", ", and the right one equals {x}'s "
                        "final count", ". The correct answer matches the final number of marbles in {x}", ""]),
       st.integers(10, 200))
def test_the_right_one_glossed_as_what_is_asked_and_a_candidates_list_read_and_their_poisons_do_not(
        listed: str, right: str, low: int) -> None:
    """"The candidates are 69, 71 and 73: the correct one is the final number of marbles in the green bag": a list
    led by "candidates", and the right option said equal to what is asked; another counter, another time, a hedge or
    the wrong one never reads, nor a list of other numbers."""
    labels = (str(low), str(low + 2), str(low + 4))
    said = listed.format(a=labels[0], b=labels[1], c=labels[2]) + right
    text = f"{ASK} {said.format(x='the green bag')}."
    assert _kind(text, labels) == "read", text
    assert _kind(f"{ASK} {listed.format(a=labels[0], b=labels[1], c=low + 5)}.", labels) != "read"
    if right:
        for bad in (said.format(x="the striped bag"), said.format(x="the green bag").replace("final", "starting"),
                    said.format(x="the green bag").replace("correct", "wrong").replace("right", "wrong"),
                    said.format(x="the green bag").replace(" is the", " is roughly the").replace(
                        " equals", " roughly equals").replace(" matches", " roughly matches")):
            assert _kind(f"{ASK} {bad}.", labels) != "read", bad


# A gloss after the list by its link ("..., according to", "..., whichever equals", "..., choosing the option that
# gives", "..., the number that equals", "each of which stands for", or a bare noun phrase), each with its thing said
# of the counter by name, by a possessive with words after the count, by a pronoun or by "that" (the counter asked)
LINKS = ["according to", "based on", "matching", "whichever equals", "whichever is", "choosing the option that gives",
         "pick the one that equals", "the option equal to", "the option that matches", "the number that equals",
         "each of which stands for", ""]
THINGS = ["the final count of marbles in {x}", "{x}'s final marble count", "{x}'s marble total after all the steps",
          "the number of marbles left in {x}", "its final number of marbles", "that final count", "that count",
          "the final total"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(LINKS), st.sampled_from(THINGS), st.sampled_from(["Answer {a}, {b} or {c}, ",
                                                                        "Choose {a}, {b}, or {c} "]),
       st.integers(10, 200))
def test_a_gloss_after_the_list_by_any_link_reads_of_the_asked_counter_and_its_poisons_do_not(
        link: str, thing: str, listed: str, low: int) -> None:
    """"Answer 69, 71 or 73, whichever is its final number of marbles": read as the question's own ask; a gloss of
    another counter, another time, a hedge or a gloss with no question before it never reads."""
    if link == "" and not thing.startswith(("the final count of", "the number of")):
        thing = "the final count of marbles in {x}"   # a bare noun phrase is only a count of something
    labels = (str(low), str(low + 2), str(low + 4))
    said = listed.format(a=labels[0], b=labels[1], c=labels[2]) + (link + " " + thing).strip()
    text = f"{ASK} {said.format(x='the green bag')}."
    assert _kind(text, labels) == "read", text
    poisons = [f"{ASK} {said.format(x='the green bag')}.".replace("final", "starting").replace(
                   "that count", "that starting count").replace("left in", "in").replace(" after all the steps", "")
               .replace("total.", "total at the start.").replace("bag.", "bag at the start."),   # another time
               f"{ASK} {(said[:len(said) - len(thing)] + 'roughly ' + thing).format(x='the green bag')}.",  # hedge
               ] + [f"{said.format(x='the green bag')}."] * bool(link)   # no ask (a bare noun phrase is an ask)
    if "{x}" in thing:
        poisons.append(f"{ASK} {said.format(x='the striped bag')}.")                             # another counter
    for bad in poisons:
        assert _kind(bad, labels) != "read", bad


def test_a_pronoun_or_that_in_a_gloss_is_of_the_one_counter_the_question_names_and_never_of_two() -> None:
    labels = ("69", "71", "73")
    assert _kind(f"{ASK} Answer 69, 71 or 73, whichever is its final count.", labels) == "read"
    two = "How many marbles are in the green bag, and how many in the striped bag, at the end?"
    assert _kind(f"{two} Answer 69, 71 or 73, whichever is its final count.", labels) != "read"
    assert _kind(f"{ASK} Answer 69, 71 or 73, whichever is its starting count.", labels) != "read"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["", "which are ", "that are "]), st.sampled_from(["the ", "the possible ", "the candidate "]),
       st.sampled_from(["final counts for {x}", "final counts of marbles in {x}", "final number of marbles in {x}"]),
       st.integers(10, 200))
def test_the_options_apposed_as_what_they_are_read_of_the_asked_counter_and_their_poisons_do_not(
        link: str, head: str, body: str, low: int) -> None:
    """ "Answer 190, 192 or 194, the candidate final counts for the coin purse", "Pick 73, 75 or 77 as the final number
    of apples in the basket" (blind23, 26, 28): the options said as the counter's final count, with no verb."""
    labels = (str(low), str(low + 2), str(low + 4))
    a, b, c = labels
    text = f"{ASK} Answer {a}, {b} or {c}, {link}{head}{body.format(x='the green bag')}."
    assert _kind(text, labels) == "read", text
    picked = f"{ASK} Pick {a}, {b} or {c} as the final number of marbles in the green bag."
    assert _kind(picked, labels) == "read", picked
    for bad in (body.replace("final", "starting"), body.replace("final", "first")):   # another time: never read
        said = f"{ASK} Answer {a}, {b} or {c}, {link}{head}{bad.format(x='the green bag')}."
        assert _kind(said, labels) != "read", said
    other = f"{ASK} Answer {a}, {b} or {c}, {link}{head}{body.format(x='the striped bag')}."   # another counter
    assert _kind(other, labels) != "read", other


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["where each number stands for the score {x} has at the end",
                        "each being the total {x} holds at the end",
                        "where each option is a possible final number of marbles that {x} holds at the end",
                        "the options are each a possible final number of marbles in that bag",
                        "each being a possible final count of marbles in that bag"]),
       st.sampled_from(["{a} if {x} ends at {na}, {b} if it ends at {nb}, or {c} if it ends at {nc}",
                        "{a} if {x} finishes on {na}, {b} if {x} finishes on {nb}, or {c} if {x} finishes on {nc}",
                        "{a} if {x} ends up holding {na} marbles, {b} if it ends up holding {nb} marbles, or {c} if it "
                        "ends up holding {nc} marbles"]),
       st.integers(10, 200))
def test_the_count_the_counter_has_and_its_end_at_a_number_read_and_their_poisons_do_not(
        gloss: str, cases: str, low: int) -> None:
    """ "Answer 73, 75, or 77, where each number stands for the score Aldric has at the end", "Answer 141 if the red
    ledger ends at 141, ..." (blind31): the options said as the counter's count at the end, or each case as its end."""
    labels = (str(low), str(low + 2), str(low + 4))
    a, b, c = labels
    glossed_ = f"{ASK} Answer {a}, {b} or {c}, {gloss.format(x='the green bag')}."
    assert _kind(glossed_, labels) == "read", glossed_
    at_start = glossed_.replace("at the end", "at the start")
    assert _kind(at_start, labels) != "read", at_start
    if "{x}" in gloss:
        other = f"{ASK} Answer {a}, {b} or {c}, {gloss.format(x='the striped bag')}."
        assert _kind(other, labels) != "read", other
    said = f"{ASK} Answer {cases.format(a=a, b=b, c=c, na=a, nb=b, nc=c, x='the green bag')}."
    assert _kind(said, labels) == "read", said
    swapped = f"{ASK} Answer {cases.format(a=a, b=b, c=c, na=c, nb=b, nc=a, x='the green bag')}."   # another's end
    assert _kind(swapped, labels) != "read", swapped
    started = said.replace("ends at", "starts at").replace("finishes on", "starts on").replace("ends up", "starts")
    assert _kind(started, labels) != "read", started


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["parked", "waiting", "sitting", "stored", "kept"]), st.sampled_from(["in", "inside", "aboard",
       "on"]), st.sampled_from(["where each option is the number of marbles {p} {w} {x} at the end",
                                "each being the final number of marbles {p} {w} {x}"]), st.integers(10, 200))
def test_where_the_things_wait_in_a_gloss_says_nothing_of_the_count(posed: str, where: str, body: str, n: int) -> None:
    """"where each option is the number of cars parked in the West Garage at the end": where the things wait is read
    away; the other counter, or things missing there, never read as the query."""
    labels = (str(n), str(n + 2), str(n + 4))
    text = f"{ASK} Answer {n}, {n + 2} or {n + 4}, " + body.format(p=posed, w=where, x="the green bag") + "."
    assert _kind(text, labels) == "read", text
    other = f"{ASK} Answer {n}, {n + 2} or {n + 4}, " + body.format(p=posed, w=where, x="the striped bag") + "."
    assert _kind(other, labels) == "misread", other
    missing = text.replace(f" {posed} ", " missing ")
    assert _kind(missing, labels) != "read", missing


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Which of {a}, {b}, or {c} is", "Which of {a}, {b} and {c} is", "Which one of {a}, {b} or {c} is"]),
       st.sampled_from(["the final number of marbles in {x}", "the number of marbles in {x} at the end",
                        "the final count of {x}"]), st.sampled_from(["", "Once every change has been made, "]),
       st.integers(10, 200))
def test_which_option_is_the_final_count_asks_the_count(which: str, what: str, opener: str, n: int) -> None:
    """"Which of 149, 151, or 153 is the final number of beads in the Glass Bowl?" asks the count; of the other
    counter it is misread; a list of some options only, a start, or a negation never reads."""
    labels = (str(n), str(n + 2), str(n + 4))
    head = which.format(a=n, b=n + 2, c=n + 4)
    text = f"{opener}{head[:1].lower() if opener else head[:1]}{head[1:]} {what.format(x='the green bag')}?"
    assert _kind(text, labels) == "read", text
    assert _kind(text.replace("the green bag", "the striped bag"), labels) == "misread"
    assert _kind(text.replace(f", {n + 4}", "").replace(f" {n + 4}", ""), labels) != "read"
    assert _kind(text.replace(" is the ", " is not the "), labels) != "read"
    assert _kind(text.replace("final", "starting").replace("at the end", "at the start"), labels) != "read"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["ends up holding", "ends up having", "ends up with", "finishes up holding"]),
       st.integers(10, 200))
def test_a_respective_gloss_of_where_the_counter_ends_up_reads(ends: str, n: int) -> None:
    """"Answer 33, 35, or 37, meaning the silver box ends up holding 33, 35, or 37 coins respectively" (blind39): each
    option is the counter's end; of the other counter it is misread, of its start never read."""
    labels = (str(n), str(n + 2), str(n + 4))
    text = f"{ASK} Answer {n}, {n + 2}, or {n + 4}, meaning the green bag {ends} {n}, {n + 2}, or {n + 4} marbles " \
           f"respectively."
    assert _kind(text, labels) == "read", text
    assert _kind(text.replace("meaning the green bag", "meaning the striped bag"), labels) == "misread"
    assert _kind(text.replace(ends, ends.replace("ends", "starts").replace("finishes", "starts")), labels) != "read"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["in", "being in", "inside"]), st.sampled_from(["at the end", "after every change has taken place"]),
       st.integers(10, 200))
def test_that_number_of_things_in_the_counter_glosses_each_option(where: str, when: str, n: int) -> None:
    """"The possible answers are 102, 104 and 106, and each one stands for that number of sheep being in the north pen
    after every change has taken place" (blind43): the option is the count asked; of the other counter misread, at the
    start never read."""
    labels = (str(n), str(n + 2), str(n + 4))
    text = f"{ASK} The possible answers are {n}, {n + 2} and {n + 4}, and each one stands for that number of marbles " \
           f"{where} the green bag {when}."
    assert _kind(text, labels) == "read", text
    assert _kind(text.replace("that number of marbles " + where + " the green bag",
                              "that number of marbles " + where + " the striped bag"), labels) == "misread"
    assert _kind(text.replace(when, "at the start"), labels) != "read"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["the number of marbles the green bag could end up with",
                        "the number of marbles that could be left in the green bag after all the updates"]),
       st.integers(10, 200))
def test_could_of_each_options_end_glosses_the_end(body: str, n: int) -> None:
    """"where each option is the number of coins Mia could end up with", "the number of coins that could be left in
    the Tin Box" (blind44, blind45): every option a possible end; of the other counter misread; "could lose" never."""
    labels = (str(n), str(n + 2), str(n + 4))
    text = f"{ASK} Answer {n}, {n + 2}, or {n + 4}, where each option is {body}."
    assert _kind(text, labels) == "read", text
    assert _kind(text.replace("the green bag", "the striped bag"), labels) == "misread"
    lost = text.replace("could end up with", "could lose").replace("could be left in", "could be lost from")
    assert _kind(lost, labels) != "read", lost
