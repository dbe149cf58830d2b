"""A counter's movement or start composed from generated parts (families/counter_moves.py): any opener, any counter
name, any count noun, a verb and the particle or preposition that says its way, things, a counter or an agent as the
subject, a place or a start's time anywhere. Faithful compositions read as their fact; the same with the way
reversed, a final value for a step, a sign or symbol, a hedge, another unit, a multiple, another number or a second
counter never does."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader
from rendering.intro import intro_flaws, kinds_named

STATE = reader("sequential_state_update")
TYPES = {"C0": "Counter", "C1": "Counter"}
NAMES = [("the yellow bus", "the blue bus"), ("Mira's purse", "Tobin's purse"), ("the Badgers", "the Otters"),
         ("Register Sigma", "Register Tau"), ("the willow cart", "the oak cart"), ("Jonas", "Mara")]
NOUNS = ["passengers", "coins", "books", "sheep", "visitors", "crates", "votes", "tokens"]
OPENERS = ["", "First, ", "Then ", "Next, ", "After that, ", "Later, ", "At the next stop, ", "On the next turn, "]
UPDATE_OPENERS = OPENERS + ["Finally, ", "On the final turn, "]
SELF = ["get", "climb", "step", "walk", "come", "hop", "file", "pile", "go", "squeeze", "pull", "drive", "park"]
IN_WAYS = ["into", "onto", "on", "aboard", "back into", "in to", "on board"]
OUT_WAYS = ["off", "out of", "off of", "away from", "back out of", "out from"]
INTO_VERBS, OUT_VERBS = ["board", "enter", "join"], ["leave", "exit", "disembark from", "vacate"]
PARTICIPLES = ["put", "taken", "moved", "carried", "loaded", "tossed", "poured", "brought", "shifted", "dropped"]
AGENTS = ["The merchant", "A clerk", "She", "The next instruction", "The first batch", "Mira", "The driver then"]
AGENT_VERBS = ["puts", "moves", "carries", "takes", "tosses", "loads", "brings", "drops", "transfers"]
PLACES = ["", " at the depot", " at the prize counter", " in the square", " on the way", " from a stranger"]
CARRY_IN, CARRY_OUT = ["on", "in", "up", "aboard"], ["off", "out", "down"]
TIMES_AFTER = [" at the start", " to begin with", " initially", " at first", " in the morning", " to start with"]
TIMES_BEFORE = ["At the start, ", "To begin with, ", "Initially, ", "At first, ", "In the morning, "]
HOLDS = ["has", "holds", "carries", "contains", "keeps"]
OWN = ["", " on board", " in it", " inside", " on it", " aboard"]


def _verdict(text: str, pred: str, number: int, names: tuple[str, str]) -> str:
    marked = Marked(dict(zip(("C0", "C1"), names)), TYPES)
    return STATE.read_fact(text, (pred, ("C0", number)), marked, TYPES).kind


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@st.composite
def moves(draw: st.DrawFn) -> tuple[str, str, str]:
    """(sentence with {n} for the number and {c} for the counter, the fact's predicate, the reversed sentence)."""
    kind = draw(st.sampled_from(["self", "object", "passive", "agent", "gives", "subject", "carrier", "by", "bare"]))
    up = draw(st.booleans())
    pred, back = ("INCREMENT", "DECREMENT") if up else ("DECREMENT", "INCREMENT")
    noun = draw(st.sampled_from(NOUNS))
    if kind == "self":
        verb, way, rev = draw(st.sampled_from(SELF)), draw(st.sampled_from(IN_WAYS)), draw(st.sampled_from(OUT_WAYS))
        way, rev = (way, rev) if up else (rev, way)
        return f"{{n}} {noun} {verb} {way} {{c}}", pred, f"{{n}} {noun} {verb} {rev} {{c}}"
    if kind == "object":
        verb, rev = draw(st.sampled_from(INTO_VERBS)), draw(st.sampled_from(OUT_VERBS))
        verb, rev = (verb, rev) if up else (rev, verb)
        return f"{{n}} {noun} {verb} {{c}}", pred, f"{{n}} {noun} {rev} {{c}}"
    if kind == "passive":
        part, be = draw(st.sampled_from(PARTICIPLES)), draw(st.sampled_from(["are", "get", "were", "are then"]))
        way, rev = draw(st.sampled_from(["into", "onto", "to"])), draw(st.sampled_from(["out of", "from", "off"]))
        way, rev = (way, rev) if up else (rev, way)
        return f"{{n}} {noun} {be} {part} {way} {{c}}", pred, f"{{n}} {noun} {be} {part} {rev} {{c}}"
    if kind == "agent":
        agent, verb = draw(st.sampled_from(AGENTS)), draw(st.sampled_from(AGENT_VERBS))
        way, rev = draw(st.sampled_from(["into", "onto", "to"])), draw(st.sampled_from(["out of", "from", "off"]))
        way, rev = (way, rev) if up else (rev, way)
        return f"{agent} {verb} {{n}} {noun} {way} {{c}}", pred, f"{agent} {verb} {{n}} {noun} {rev} {{c}}"
    if kind == "gives":
        agent, verb = draw(st.sampled_from(AGENTS)), draw(st.sampled_from(["gives", "hands", "sends", "awards"]))
        return f"{agent} {verb} {{c}} {{n}} more {noun}", "INCREMENT", f"{agent} {verb} {{n}} more {noun} from {{c}}"
    if kind == "carrier":   # a carrier's phrasal verb, the particle before or after the things
        verb, way = draw(st.sampled_from(["lets", "takes", "picks", "drops", "puts"])), draw(st.sampled_from(CARRY_IN))
        rev = draw(st.sampled_from(CARRY_OUT))
        way, rev = (way, rev) if up else (rev, way)
        if draw(st.booleans()):
            return f"{{c}} {verb} {way} {{n}} {noun}", pred, f"{{c}} {verb} {rev} {{n}} {noun}"
        return f"{{c}} {verb} {{n}} {noun} {way}", pred, f"{{c}} {verb} {{n}} {noun} {rev}"
    if kind == "by":
        verb, way = draw(st.sampled_from(["picked", "taken", "let", "dropped", "set"])), draw(st.sampled_from(CARRY_IN))
        rev = draw(st.sampled_from(CARRY_OUT))
        way, rev = (way, rev) if up else (rev, way)
        return f"{{n}} {noun} are {verb} {way} by {{c}}", pred, f"{{n}} {noun} are {verb} {rev} by {{c}}"
    if kind == "bare":   # a number alone, as a program says it
        verb, rev = ("added to", "subtracted from") if up else ("subtracted from", "added to")
        return f"{{n}} is {verb} {{c}}", pred, f"{{n}} is {rev} {{c}}"
    verb, rev = draw(st.sampled_from(["receives", "gains", "collects"])), draw(st.sampled_from(["loses", "spends"]))
    verb, rev = (verb, rev) if up else (rev, verb)
    place = draw(st.sampled_from(PLACES))
    return f"{{c}} {verb} {{n}} {noun}{place}", pred, f"{{c}} {rev} {{n}} {noun}{place}"


def _said(form: str, opener: str, name: str, number: str) -> str:
    return _cap(opener + form.replace("{c}", name).replace("{n}", number)) + "."


@settings(max_examples=400, deadline=None)
@given(moves(), st.sampled_from(UPDATE_OPENERS), st.sampled_from(NAMES), st.integers(2, 99))
def test_a_composed_movement_reads_as_its_fact(move, opener, names, number):
    form, pred, _ = move
    said = _said(form, opener, names[0], str(number))
    assert _verdict(said, pred, number, names) == "read", said


@settings(max_examples=300, deadline=None)
@given(moves(), st.sampled_from(UPDATE_OPENERS), st.sampled_from(NAMES), st.integers(2, 99))
def test_the_way_reversed_is_never_read(move, opener, names, number):
    _, pred, reversed_form = move
    said = _said(reversed_form, opener, names[0], str(number))
    assert _verdict(said, pred, number, names) != "read", said


POISONS = {"wrong number": lambda n: str(n + 2), "minus": lambda n: f"-{n}", "plus": lambda n: f"+{n}",
           "percent": lambda n: f"{n}%", "tilde": lambda n: f"~{n}", "about": lambda n: f"about {n}",
           "roughly": lambda n: f"roughly {n}", "at least": lambda n: f"at least {n}", "over": lambda n: f"over {n}",
           "maybe": lambda n: f"maybe {n}", "twice": lambda n: f"twice {n}", "or": lambda n: f"{n} or {n + 2}"}


@settings(max_examples=400, deadline=None)
@given(moves(), st.sampled_from(UPDATE_OPENERS), st.sampled_from(NAMES), st.integers(2, 97),
       st.sampled_from(sorted(POISONS)))
def test_a_poisoned_number_is_never_read(move, opener, names, number, poison):
    form, pred, _ = move
    said = _said(form, opener, names[0], POISONS[poison](number))
    assert _verdict(said, pred, number, names) != "read", said


@settings(max_examples=200, deadline=None)
@given(moves(), st.sampled_from(NAMES), st.integers(2, 99),
       st.sampled_from(["liters", "kilograms", "litres of water", "dozen eggs", "tonnes of grain", "kg"]))
def test_another_unit_is_never_read(move, names, number, unit):
    form, pred, _ = move
    assume(any(f" {noun}" in form for noun in NOUNS))   # "96 is added to @0" names no unit to change
    for noun in NOUNS:
        form = form.replace(f" {noun}", f" {unit}")
    said = _said(form, "", names[0], str(number))
    assert _verdict(said, pred, number, names) != "read", said


@settings(max_examples=200, deadline=None)
@given(moves(), st.sampled_from(NAMES), st.integers(2, 99))
def test_the_other_counter_is_never_read(move, names, number):
    form, pred, _ = move
    said = _said(form, "", names[1], str(number))
    assert _verdict(said, pred, number, names) != "read", said


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), st.integers(2, 99), st.sampled_from(NOUNS), st.sampled_from(UPDATE_OPENERS),
       st.sampled_from(["{c} ends with {n} {x}", "{c} is left with {n} {x}", "{c} now has {n} {x}",
                        "{c} has {n} {x} at the end", "{c} finishes with {n} {x} on board", "{c} doubles its {x}",
                        "{n} {x} move from {c} to {o}", "{n} {x} get {c}", "{n} {x} drop {c}",
                        "{n} {x} are left in {c}",
                        "{c} gives {n} {x} to {o}", "{c} adds {n} {x} to the box", "{c} has {n} {x} left",
                        "{n} {x} are in {c} at the end", "There are {n} {x} in {c} now"]),
       st.sampled_from(["INCREMENT", "DECREMENT", "INITIAL_VALUE"]))
def test_an_end_a_multiple_a_transfer_or_a_verb_without_its_way_is_never_a_step(names, number, noun, opener, form,
                                                                               pred):
    said = _cap(opener + form.format(c=names[0], n=number, x=noun, o=names[1])) + "."
    assert _verdict(said, pred, number, names) != "read", said


@st.composite
def starts(draw: st.DrawFn) -> str:
    """A start composed: a holding's verb with a time anywhere, a start's verb, or things there at the start."""
    noun, own = draw(st.sampled_from(NOUNS)), draw(st.sampled_from(OWN))
    kind = draw(st.sampled_from(["hold after", "hold before", "start", "there"]))
    if kind == "hold after":
        return f"{{c}} {draw(st.sampled_from(HOLDS))} {{n}} {noun}{own}{draw(st.sampled_from(TIMES_AFTER))}"
    if kind == "hold before":
        return f"{draw(st.sampled_from(TIMES_BEFORE))}{{c}} {draw(st.sampled_from(HOLDS))} {{n}} {noun}{own}"
    if kind == "start":
        verb = draw(st.sampled_from(["starts with", "begins with", "starts out with", "sets off with",
                                     "starts the count with", "starts out holding", "opens with a score of"]))
        return f"{{c}} {verb} {{n}} {noun}{own}"
    where = draw(st.sampled_from(["aboard", "in", "on", "on board", "inside"]))
    return f"There are {{n}} {noun} {where} {{c}}{draw(st.sampled_from(TIMES_AFTER))}"


@settings(max_examples=300, deadline=None)
@given(starts(), st.sampled_from(NAMES), st.integers(0, 99))
def test_a_composed_start_reads_as_its_fact(form, names, number):
    said = _said(form, "", names[0], str(number))
    assert _verdict(said, "INITIAL_VALUE", number, names) == "read", said


@settings(max_examples=300, deadline=None)
@given(starts(), st.sampled_from(NAMES), st.integers(2, 97), st.sampled_from(sorted(POISONS)))
def test_a_poisoned_start_is_never_read(form, names, number, poison):
    said = _said(form, "", names[0], POISONS[poison](number))
    assert _verdict(said, "INITIAL_VALUE", number, names) != "read", said
    assert _verdict(_said(form, "Finally, ", names[0], str(number)), "INITIAL_VALUE", number, names) != "read"


def test_none_no_items_and_empty_are_a_start_of_0():
    names = NAMES[0]
    for said in ("The yellow bus has no passengers on board at the start.", "The yellow bus starts empty.",
                 "The yellow bus holds none at first.", "At first, there are no passengers aboard the yellow bus."):
        assert _verdict(said, "INITIAL_VALUE", 0, names) == "read", said


def test_an_intro_may_count_the_counters_by_any_noun_of_theirs_but_never_more_or_an_option():
    for names, intro in ((("Jonas", "Mara"), "In a board game, two players each keep a pile of tokens."),
                         (("the Otters", "the Badgers"), "Two teams compete in a game."),
                         (("Mira's purse", "Tobin's purse"), "Two travelers keep their coins in separate purses."),
                         (("the left dial", "the right dial"), "A toy machine has two counting dials."),
                         (("the east tank", "the west tank"), "Two water tanks are filled one step after another.")):
        kinds = kinds_named(TYPES, dict(zip(("C0", "C1"), names)))
        assert intro_flaws(intro, ("65", "67", "69"), kinds) == (), intro
        assert intro_flaws(intro.replace("wo ", "hree ", 1), ("65", "67", "69"), kinds), intro
        assert intro_flaws(intro, ("2", "4", "6"), kinds), intro
    jars = kinds_named(TYPES, {"C0": "the blue jar", "C1": "the red jar"})
    for intro in ("Two marbles sit on a shelf.", "Two marbles in jars sit on a shelf.", "One jar after two more."):
        assert intro_flaws(intro, ("65", "67", "69"), jars), intro


# Sentences that say something else, each beside the fact it must never be read as: an end, a later time, a
# negation, a hedge, a bound, a multiple, a measure, a transfer, a second change, the other way, a verb without its way
NEVER = [
    ("Then 12 sheep are moved from the field into {c}.", "DECREMENT", 12),
    ("Then 12 sheep are moved out of {c} and into {o}.", "DECREMENT", 12),
    ("Then 12 sheep are moved from {o} into {c}.", "INCREMENT", 12),
    ("{c} leaves the last stop with 64 passengers on board.", "INITIAL_VALUE", 64),
    ("{c} ends the day with 64 passengers on board.", "INITIAL_VALUE", 64),
    ("Then {c} is boarded by 31 passengers.", "DECREMENT", 31),
    ("Then 15 votes are counted against {c}.", "INCREMENT", 15),
    ("Then {c}'s driver spends 15 coins.", "DECREMENT", 15),
    ("Then {c} is left with 31 passengers.", "DECREMENT", 31),
    ("The yellow bus ends the day with 40 passengers.", "INITIAL_VALUE", 40),
    ("The yellow bus has 40 passengers on board at the end.", "INITIAL_VALUE", 40),
    ("By the end, {c} has 40 passengers.", "INITIAL_VALUE", 40),
    ("At the last stop, {c} has 40 passengers on board.", "INITIAL_VALUE", 40),
    ("In the evening, {c} has 40 passengers.", "INITIAL_VALUE", 40),
    ("Nobody puts 5 coins into {c}.", "INCREMENT", 5),
    ("The merchant puts 5 coins into {c} and 3 into {o}.", "INCREMENT", 5),
    ("The merchant puts 5 coins into {c} twice.", "INCREMENT", 5),
    ("The merchant puts 5 coins into {c} every day.", "INCREMENT", 5),
    ("5 passengers get off {c} and 3 get on.", "DECREMENT", 5),
    ("Then 9 passengers get off {c}, leaving 40.", "DECREMENT", 9),
    ("Then 9 passengers get off {c}, so it now has 40.", "DECREMENT", 9),
    ("Then {c} grows to 40 passengers.", "INCREMENT", 40),
    ("Then {c} loses 9 passengers to {o}.", "DECREMENT", 9),
    ("Then 9 passengers transfer from {o} to {c}.", "INCREMENT", 9),
    ("9 passengers are expected to board {c}.", "INCREMENT", 9),
    ("9 passengers want to get off {c}.", "DECREMENT", 9),
    ("9 passengers could get off {c}.", "DECREMENT", 9),
    ("9 passengers did not get off {c}.", "DECREMENT", 9),
    ("64 passengers are on {c}.", "INITIAL_VALUE", 64),
    ("There are 64 passengers on {c} at the end.", "INITIAL_VALUE", 64),
    ("The yellow bus is left with 64 passengers.", "DECREMENT", 64),
    ("The yellow bus now carries 64 passengers.", "INCREMENT", 64),
    ("Then 9 passengers get off {c}.", "INCREMENT", 9),
    ("Then 9 passengers board {c}.", "DECREMENT", 9),
    ("Then {c} doubles its 9 passengers.", "INCREMENT", 9),
    ("Then 9 dozen passengers board {c}.", "INCREMENT", 9),
    ("Then 9 kilograms of sand are poured into {c}.", "INCREMENT", 9),
    ("Then over 9 passengers board {c}.", "INCREMENT", 9),
    ("Then 9 passengers or so board {c}.", "INCREMENT", 9),
    ("Then some 9 passengers board {c}.", "INCREMENT", 9),
    ("Then 9 passengers board {c} at least.", "INCREMENT", 9),
    ("Then 9 passengers get {c}.", "INCREMENT", 9),
    ("Then 9 passengers drop {c}.", "DECREMENT", 9),
    ("Then 9 passengers are dropped at {c}.", "INCREMENT", 9),
    ("Then {c} drops 9 passengers.", "INCREMENT", 9),
    ("The yellow bus has 64 passengers on board at the start of the last leg.", "INITIAL_VALUE", 64),
    ("Finally, {c} has 64 passengers on board.", "INITIAL_VALUE", 64),
    ("Then 9 passengers get off {c} at the end.", "DECREMENT", 9),
    ("At the end, 9 passengers get off {c}.", "INITIAL_VALUE", 9),
    ("The yellow bus holds a total of 64 passengers at the end.", "INITIAL_VALUE", 64),
    ("The yellow bus starts with 64 passengers and {o} with 3.", "INITIAL_VALUE", 64),
    ("Then 9 passengers board {c} from {o}.", "INCREMENT", 9),
]


def test_an_end_a_hedge_a_transfer_or_the_other_way_is_never_read():
    for names in NAMES:
        for text, pred, number in NEVER:
            said = _cap(text.format(c=names[0], o=names[1]))
            assert _verdict(said, pred, number, names) != "read", said


# Sentences as a strong model writes them, each beside its fact: every one reads
ALWAYS = [
    ("Then 31 passengers have boarded {c}.", "INCREMENT", 31),
    ("{c} sets out carrying 64 passengers.", "INITIAL_VALUE", 64),
    ("{c} leaves the depot with 64 passengers on board.", "INITIAL_VALUE", 64),
    ("{c} pulls out of the depot with 64 passengers.", "INITIAL_VALUE", 64),
    ("Then the shepherd drives 12 sheep into {c}.", "INCREMENT", 12),
    ("Then the shepherd leads 12 sheep out of {c}.", "DECREMENT", 12),
    ("Then 12 sheep are moved out of {c} and onto the hillside.", "DECREMENT", 12),
    ("Then 12 sheep are moved from the field into {c}.", "INCREMENT", 12),
    ("Then 12 sheep escape from {c}.", "DECREMENT", 12),
    ("{c}'s account holds 64 credits at the start.", "INITIAL_VALUE", 64),
    ("Then 15 votes are counted for {c}.", "INCREMENT", 15),
    ("Then {c} is boarded by 31 passengers.", "INCREMENT", 31),
    ("Then {c} is left by 31 passengers at the depot.", "DECREMENT", 31),
    ("At opening time, {c} holds 0 visitors.", "INITIAL_VALUE", 0),
    ("When the doors open in the morning, {c} holds 5 visitors.", "INITIAL_VALUE", 5),
    ("Early in the morning, {c} holds 64 cans.", "INITIAL_VALUE", 64),
    ("{c} holds 40 passengers when the day begins.", "INITIAL_VALUE", 40),
    ("At the start, {c} has 64 passengers on board.", "INITIAL_VALUE", 64),
    ("{c} begins the day with 64 passengers aboard.", "INITIAL_VALUE", 64),
    ("There are 64 passengers on {c} at the start.", "INITIAL_VALUE", 64),
    ("64 passengers are on {c} at the start.", "INITIAL_VALUE", 64),
    ("{c} starts out carrying 64 passengers.", "INITIAL_VALUE", 64),
    ("To begin with, {c} carries 64 passengers.", "INITIAL_VALUE", 64),
    ("{c} is empty at the start.", "INITIAL_VALUE", 0),
    ("{c} starts off empty.", "INITIAL_VALUE", 0),
    ("Initially, {c} is carrying 64 passengers.", "INITIAL_VALUE", 64),
    ("{c} has 64 passengers on board to start the day.", "INITIAL_VALUE", 64),
    ("Then 12 passengers hop on {c}.", "INCREMENT", 12),
    ("Next, {c} picks up 12 passengers.", "INCREMENT", 12),
    ("Next, {c} drops off 9 passengers.", "DECREMENT", 9),
    ("Then 9 passengers step down from {c}.", "DECREMENT", 9),
    ("Then 20 coins are spent from {c}.", "DECREMENT", 20),
    ("Then the keeper lets 12 sheep out of {c}.", "DECREMENT", 12),
    ("A customer buys 5 pumpkins from {c}.", "DECREMENT", 5),
    ("{c} sells 12 pumpkins to a family.", "DECREMENT", 12),
    ("On Monday, 5 crates arrive at {c}.", "INCREMENT", 5),
    ("Then a truck delivers 30 crates to {c}.", "INCREMENT", 30),
    ("Then 30 crates are shipped out from {c}.", "DECREMENT", 30),
    ("Then 30 crates leave {c} on a truck.", "DECREMENT", 30),
    ("96 is added to {c}.", "INCREMENT", 96),
    ("Then 49 is subtracted from {c}.", "DECREMENT", 49),
    ("Then 9 passengers get off {c} at the next stop.", "DECREMENT", 9),
    ("Then 9 of the passengers get off {c}.", "DECREMENT", 9),
    ("9 passengers got off {c}.", "DECREMENT", 9),
    ("31 passengers boarded {c}.", "INCREMENT", 31),
    ("{c} had 64 passengers on board at the start.", "INITIAL_VALUE", 64),
    ("Then {c} takes on 31 passengers.", "INCREMENT", 31),
    ("Then {c} lets off 9 passengers.", "DECREMENT", 9),
    ("Then 12 passengers pile onto {c}.", "INCREMENT", 12),
    ("Then {c} welcomes 12 more passengers aboard.", "INCREMENT", 12),
    ("Then a group of 12 passengers boards {c}.", "INCREMENT", 12),
    ("Then 12 new passengers get on {c}.", "INCREMENT", 12),
    ("{c} then takes in 12 passengers.", "INCREMENT", 12),
    ("Then 12 passengers are dropped off at {c}.", "INCREMENT", 12),
    ("Then 12 passengers are picked up by {c}.", "INCREMENT", 12),
    ("Then 9 passengers are let off {c}.", "DECREMENT", 9),
    ("Then 9 passengers are dropped off by {c}.", "DECREMENT", 9),
    ("{c} opens the morning with 64 books.", "INITIAL_VALUE", 64),
    ("At the beginning of the day, {c} has 64 books on its shelves.", "INITIAL_VALUE", 64),
    ("{c} begins with a balance of 64 credits.", "INITIAL_VALUE", 64),
    ("When the doors open, 64 visitors are already inside {c}.", "INITIAL_VALUE", 64),
    ("{c} contains 64 marbles to begin with.", "INITIAL_VALUE", 64),
    ("{c} is stocked with 64 cans at the start of the day.", "INITIAL_VALUE", 64),
    ("Early in the morning, {c} holds 64 cans.", "INITIAL_VALUE", 64),
    ("{c} starts the game on 64 points.", "INITIAL_VALUE", 64),
    ("Then 15 visitors file into {c}.", "INCREMENT", 15),
    ("Then 15 visitors head out of {c}.", "DECREMENT", 15),
    ("A clerk then withdraws 15 credits from {c}.", "DECREMENT", 15),
    ("Then 15 credits are deposited into {c}.", "INCREMENT", 15),
    ("Then {c} earns 15 more points.", "INCREMENT", 15),
    ("Then {c} is docked 15 points.", "DECREMENT", 15),
    ("Next, a customer borrows 15 books from {c}.", "DECREMENT", 15),
    ("Next, 15 books are returned to {c}.", "INCREMENT", 15),
    ("Next, 15 books are checked out of {c}.", "DECREMENT", 15),
    ("Later, 15 cows wander back into {c}.", "INCREMENT", 15),
    ("Later, 15 cows are led out of {c}.", "DECREMENT", 15),
    ("After that, the farmer moves 15 cows out of {c}.", "DECREMENT", 15),
    ("After that, {c} takes delivery of 15 crates.", "INCREMENT", 15),
    ("After that, 15 crates are unloaded into {c}.", "INCREMENT", 15),
    ("After that, 15 crates are cleared out of {c}.", "DECREMENT", 15),
    ("Then {c} scores 15 points.", "INCREMENT", 15),
    ("Then {c} concedes 15 points.", "DECREMENT", 15),
    ("Then {c} gives away 15 coins.", "DECREMENT", 15),
    ("{c} then spends 15 coins on food.", "DECREMENT", 15),
    ("{c} then pays out 15 coins.", "DECREMENT", 15),
    ("Then 15 coins are paid out of {c}.", "DECREMENT", 15),
    ("Then 15 coins go missing from {c}.", "DECREMENT", 15),
    ("Then 15 guests check in at {c}.", "INCREMENT", 15),
    ("Then 15 guests check out of {c}.", "DECREMENT", 15),
    ("Then 15 guests arrive at {c}.", "INCREMENT", 15),
    ("Then 15 guests depart from {c}.", "DECREMENT", 15),
    ("Then 15 passengers alight from {c}.", "DECREMENT", 15),
    ("Then 15 passengers disembark from {c}.", "DECREMENT", 15),
    ("Then 15 passengers step aboard {c}.", "INCREMENT", 15),
    ("Then 15 more passengers climb on board {c}.", "INCREMENT", 15),
    ("Then {c} collects 15 more passengers at the station.", "INCREMENT", 15),
    ("Then, at the station, 15 passengers get on {c}.", "INCREMENT", 15),
    ("Then {c} is given 15 tokens by the dealer.", "INCREMENT", 15),
    ("Then the dealer hands {c} 15 tokens.", "INCREMENT", 15),
    ("{c} then hands over 15 tokens to the bank.", "DECREMENT", 15),
    ("{c} then receives 15 votes from the east district.", "INCREMENT", 15),
    ("Then {c} picks up 15 votes.", "INCREMENT", 15),
    ("Then 15 votes are added to {c}'s total.", "INCREMENT", 15),
    ("Then 15 votes are taken off {c}'s total.", "DECREMENT", 15),
    ("Then {c}'s total goes up by 15.", "INCREMENT", 15),
]


def test_a_strong_models_movements_and_starts_read():
    for names in NAMES:
        for text, pred, number in ALWAYS:
            said = _cap(text.format(c=names[0]))
            assert _verdict(said, pred, number, names) == "read", said


@pytest.mark.parametrize("text", ["Then 2 extra coins are added to up to the yellow bus.",
                                  "2 coins are added into the barn into the yellow bus.",
                                  "2 coins are carried onto the yard onto the yellow bus."])
def test_two_ways_alike_are_no_movement_s_two_ends(text):
    """"from the field into X" names a movement's two ends, opposite ways; two ways alike ("added to up to X") say no
    one movement, and never read (Hypothesis found "added to up to the Silo" read as INCREMENT)."""
    assert _verdict(text, "INCREMENT", 2, NAMES[0]) != "read", text
    assert _verdict("2 coins are carried from the yard onto the yellow bus.", "INCREMENT", 2, NAMES[0]) == "read"


@pytest.mark.parametrize("place", ["on paper", "in theory", "in the plan", "in principle", "per day", "in the budget",
                                   "in his dreams", "on average"])
def test_a_place_where_nothing_moved_never_reads(place):
    """A place after a movement says where it happened; "on paper", "in theory", "per day" say it did not happen, or
    not once, so the sentence stays unread (a plain place still reads)."""
    assert _verdict(f"Then 12 coins are dropped into the yellow bus {place}.", "INCREMENT", 12, NAMES[0]) != "read"
    assert _verdict("Then 12 coins are dropped into the yellow bus at the depot.", "INCREMENT", 12, NAMES[0]) == "read"


TALLY_VERBS = ["has read", "has collected", "has earned", "has scored", "has saved", "has gathered", "has won"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TALLY_VERBS), st.sampled_from(NOUNS), st.sampled_from(TIMES_AFTER[:4]),
       st.integers(2, 99), st.sampled_from([("Marco", "Tamsin"), ("the Badgers", "the Otters")]))
def test_a_tally_so_far_at_the_start_is_a_start_and_its_twins_are_not(verb: str, noun: str, time: str, n: int,
                                                                     names: tuple[str, str]) -> None:
    """"Marco has read 49 pages at the start": what one has done so far, at the start, is the count one starts with;
    without a word of the start, with a loss, a hedge or another number, it is not."""
    said = _cap(f"{names[0]} {verb} {n} {noun}{time}.")
    if names[0].startswith("the "):
        said = said.replace(" has ", " have ", 1)
    assert _verdict(said, "INITIAL_VALUE", n, names) == "read", said
    assert _verdict(said, "INITIAL_VALUE", n + 1, names) == "misread", said
    assert _verdict(said, "INCREMENT", n, names) != "read", said
    assert _verdict(said.replace(time, ""), "INITIAL_VALUE", n, names) != "read", said
    assert _verdict(said.replace(f" {n} ", f" about {n} "), "INITIAL_VALUE", n, names) != "read"
    lost = said.replace(verb.split()[1], "lost").replace(" have ", " has ")
    assert _verdict(lost, "INITIAL_VALUE", n, names) != "read", lost


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Then ", "Next, ", "After that, ", ""]), st.sampled_from(["", "more ", "another "]),
       st.integers(2, 99), st.sampled_from(["pages", "chapters", "books", "letters"]))
def test_reading_things_is_a_gain_and_a_bare_reading_is_a_value(opener: str, more: str, n: int, noun: str) -> None:
    """"Then Marco reads 60 more pages" adds 60 to what Marco has read; "The meter then reads 30" says a value,
    never a change (blind27's defect of a change written as a final value)."""
    names = ("Marco", "Tamsin")
    said = _cap(f"{opener}Marco reads {more.replace('another ', 'another ') if more != 'another ' else 'another '}"
                f"{n} {noun}.") if more != "more " else _cap(f"{opener}Marco reads {n} more {noun}.")
    assert _verdict(said, "INCREMENT", n, names) == "read", said
    assert _verdict(said, "DECREMENT", n, names) == "misread", said
    assert _verdict(said, "INCREMENT", n + 2, names) == "misread", said
    assert _verdict(said.replace("Marco", "Tamsin"), "INCREMENT", n, names) != "read"
    bare = _cap(f"{opener}Marco reads {n}.")
    assert _verdict(bare, "INCREMENT", n, names) != "read", bare
    assert _verdict(f"The meter then reads {n}.", "INCREMENT", n, ("the meter", "the gauge")) != "read"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["hers", "his", "theirs"]), st.sampled_from([("adds", "to"), ("adds", "into")]), st.integers(2, 99))
def test_a_possessive_pronoun_for_the_counters_own_holder_reads(pronoun: str, moved: tuple[str, str], n: int) -> None:
    """"Maya adds 75 stamps to hers": her own collection, the counter; the way reversed or another number is not it."""
    names = ("Maya", "Rook")
    verb, prep = moved
    said = f"Next, Maya {verb} {n} stamps {prep} {pronoun}."
    assert _verdict(said, "INCREMENT", n, names) == "read", said
    assert _verdict(said, "DECREMENT", n, names) == "misread", said
    for other in ("friend", "sister", "neighbour"):   # given to another: never the counter's gain
        away = said.replace(f"{prep} {pronoun}", f"{prep} {pronoun.rstrip('s').replace('hi', 'his')} {other}")
        assert _verdict(away, "INCREMENT", n, names) != "read", away
    assert _verdict(said.replace(f"{prep} {pronoun}", "to her album"), "INCREMENT", n, names) == "read"


@pytest.mark.parametrize("said,fact,kind", [
    ("The Morning Star's hold contains 46 barrels at first.", ("INITIAL_VALUE", 46), "read"),
    ("The Morning Star's hold contains 46 barrels at first.", ("INITIAL_VALUE", 47), "misread"),
    ("The Morning Star's rival contains 46 barrels at first.", ("INITIAL_VALUE", 46), "unread"),
    ("The Morning Star starts its route carrying 63 passengers.", ("INITIAL_VALUE", 63), "read"),
    ("The Morning Star starts its route carrying 63 passengers.", ("INCREMENT", 63), "misread"),
    ("The Morning Star starts its route carrying about 63 passengers.", ("INITIAL_VALUE", 63), "misread"),
])
def test_a_ships_hold_and_a_routes_start(said: str, fact: tuple[str, int], kind: str) -> None:
    """"X's hold contains 46 barrels at first" is X holding them; "starts its route carrying" is a start."""
    assert _verdict(said, fact[0], fact[1], ("the Morning Star", "the Sea Lark")) == kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["catches", "hauls in", "reels in", "catches another"]), st.integers(2, 99),
       st.sampled_from(["the Gray Skiff", "the Gray Skiff's crew"]), st.sampled_from(["Then ", "Finally, ", ""]))
def test_a_catch_is_a_gain_of_the_boat_or_its_crew(verb: str, n: int, who: str, opener: str) -> None:
    """"Then the Gray Skiff's crew hauls in 65 more fish": a catch is a gain of the boat; its rival's catch, or a
    hedge, never is."""
    names = ("the Gray Skiff", "the Red Skiff")
    said = _cap(f"{opener}{who} {verb} {n} fish.")
    assert _verdict(said, "INCREMENT", n, names) == "read", said
    assert _verdict(said, "DECREMENT", n, names) == "misread", said
    assert _verdict(said.replace("Gray Skiff", "Gray Skiff's rival").replace("'s rival's crew", "'s rival"),
                    "INCREMENT", n, names) != "read"
    assert _verdict(said.replace(f" {n} ", f" nearly {n} "), "INCREMENT", n, names) != "read"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("adds", "to", "INCREMENT"), ("gains", "to", "INCREMENT"), ("loses", "from", "DECREMENT"),
                        ("spends", "from", "DECREMENT")]), st.sampled_from(["its", "their"]),
       st.sampled_from(["total", "score", "tally", "count"]), st.integers(2, 99))
def test_a_change_said_into_the_counters_own_tally_is_the_change(move: tuple[str, str, str], own: str, tally: str,
                                                                  n: int) -> None:
    """"The Red Team then adds 84 points to its total": the counter's own tally is the count; the other team's total, a
    final total, or a result after it never reads."""
    names = ("the Red Team", "the Blue Team")
    verb, prep, pred = move
    said = f"The Red Team then {verb} {n} points {prep} {own} {tally}."
    assert _verdict(said, pred, n, names) == "read", said
    assert _verdict(said, "INITIAL_VALUE", n, names) != "read", said
    assert _verdict(said.replace(f"{own} {tally}", f"the Blue Team's {tally}"), pred, n, names) != "read"
    assert _verdict(said.replace(f"{own} {tally}", f"{own} final {tally}"), pred, n, names) != "read"
    assert _verdict(said.replace(".", f", making {n + 6}."), pred, n, names) != "read"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["board", "enter", "join"]), st.sampled_from(["take seats on", "settle on", "find seats in",
       "sit down inside", "wait aboard"]), st.integers(2, 99), st.sampled_from(OPENERS))
def test_coming_in_and_settling_there_is_a_gain_of_the_place(verb: str, settle: str, n: int, opener: str) -> None:
    """"First, 49 new passengers board and take seats on the upper deck" (blind28): the verb of coming in says the way,
    the place after the verb of settling is the counter; the other place, a verb of leaving or another number is not."""
    names = ("the upper deck", "the lower deck")
    said = _cap(f"{opener}{n} new passengers {verb} and {settle} the upper deck.")
    assert _verdict(said, "INCREMENT", n, names) == "read", said
    assert _verdict(said, "DECREMENT", n, names) == "misread", said
    assert _verdict(said.replace("upper", "lower"), "INCREMENT", n, names) != "read"
    assert _verdict(said.replace(settle, "leave"), "INCREMENT", n, names) != "read"
