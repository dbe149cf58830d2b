"""A counter set by a verb and its particle ("the violet lamp is turned up by 8"), made more of by a verb of making
("Bakery B bakes another 44 loaves"), holding things where they wait ("Gull Island begins with 85 passengers
waiting"), asked by its own gauge ("What does the violet lamp's dial read ...?") and glossed by options named by their
labels ("The options 177, 179 and 181 each mean the tally ends at that number"): each class composed from its parts
reads as its fact; the way swapped, a value set ("turned up to 8"), a start or an end said as a step, a hedge, a sign,
a percent, another number or counter, a negation never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

STATE = reader("sequential_state_update")
TYPES = {"C0": "Counter", "C1": "Counter"}
NAMES = [("the violet lamp", "the amber lamp"), ("Gull Island", "Crab Island"), ("Bakery B", "Bakery A"),
         ("the west gate tally", "the east gate tally"), ("Register Sigma", "Register Tau")]
OPENERS = ["", "Then ", "Next, ", "After that, ", "Finally, "]
TURNED = ["turned", "dialled", "cranked", "pushed", "bumped", "nudged", "ratcheted", "stepped", "notched"]
PASSIVE = ["{c} is {v} {w} by {n}", "{c} gets {v} {w} by {n}", "{c} is then {v} {w} by {n}",
           "{c} is {v} {w} by a further {n}", "{c} is {v} {w} by another {n}", "{c} is {v} {w} by {n} more"]
ACTIVE = ["Someone turned {c} {w} by {n}", "Turn {c} {w} by {n}", "The keeper dialled {w} {c} by {n}",
          "{c} edges {w} by {n}", "{c} ticked {w} by {n}", "They crank {c} {w} by {n}"]
MAKES = ["bakes", "produces", "makes", "knits", "assembles", "whips up"]
MADE = ["{c} {v} another {n} loaves", "{c} {v} {n} more", "{c} {v} {n} more loaves", "{c} then {v} {n} loaves"]


def _verdict(text: str, pred: str, number: int, names: tuple[str, str]) -> str:
    marked = Marked(dict(zip(("C0", "C1"), names)), TYPES)
    return STATE.read_fact(text, (pred, ("C0", number)), marked, TYPES).kind


def _said(opener: str, form: str, **parts: str) -> str:
    text = opener + form.format(**parts)
    return text[:1].upper() + text[1:] + "."


def _turned(draw: st.DrawFn) -> tuple[str, str]:
    form = draw(st.sampled_from(PASSIVE + ACTIVE))
    verb = draw(st.sampled_from(TURNED)) if "{v}" in form else ""
    return form, verb


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(OPENERS), st.sampled_from(NAMES), st.integers(2, 97), st.booleans())
def test_a_dial_turned_up_or_down_by_n_reads_and_its_poisons_do_not(data, opener, names, number, up):
    form, verb = _turned(data.draw)
    pred, other = ("INCREMENT", "DECREMENT") if up else ("DECREMENT", "INCREMENT")
    way, back = ("up", "down") if up else ("down", "up")

    def said(w: str = way, n: str = str(number), c: str = names[0]) -> str:
        return _said(opener, form, c=c, v=verb, w=w, n=n)
    assert _verdict(said(), pred, number, names) == "read", said()
    assert _verdict(said(), other, number, names) != "read", said()   # up read as a decrease, or down as an increase
    assert _verdict(said(), "INITIAL_VALUE", number, names) != "read", said()   # a start said as a step
    for bad in [said(w=back), said(w=way.replace(way, way), n=f"about {number}"), said(n=f"roughly {number}"),
                said(n=f"{number}%"), said(n=f"{number} percent"), said(n=f"-{number}"), said(n=f"at least {number}"),
                said(n=str(number + 2)), said(c=names[1]), said(n=f"maybe {number}"), said(n=f"twice {number}")]:
        assert _verdict(bad, pred, number, names) != "read", bad


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TURNED), st.sampled_from(NAMES), st.integers(2, 97), st.sampled_from(["up", "down"]))
def test_turned_to_a_value_sets_it_and_is_never_a_step(verb, names, number, way):
    for text in [f"{names[0]} is {verb} {way} to {number}.", f"Someone turns {names[0]} {way} to {number}.",
                 f"{names[0]} is {verb} {way} by {number} and ends at {number}."]:
        for pred in ("INCREMENT", "DECREMENT"):
            assert _verdict(text, pred, number, names) != "read", text


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(MADE), st.sampled_from(MAKES), st.sampled_from(OPENERS), st.sampled_from(NAMES),
       st.integers(2, 97))
def test_a_verb_of_making_is_an_increase_and_its_poisons_are_not(form, verb, opener, names, number):
    def said(n: str = str(number), c: str = names[0], v: str = verb) -> str:
        return _said(opener, form, c=c, v=v, n=n)
    assert _verdict(said(), "INCREMENT", number, names) == "read", said()
    assert _verdict(said(), "DECREMENT", number, names) != "read", said()
    assert _verdict(said(), "INITIAL_VALUE", number, names) != "read", said()
    for bad in [said(n=f"about {number}"), said(n=f"{number}%"), said(n=str(number + 1)), said(c=names[1]),
                said(v="burns"), said(v="sells"), said(n=f"up to {number}"), said(n=f"{number} dozen"),
                said(v=f"probably {verb}"), said(v=f"never {verb}"), said() + " in total"]:
        assert _verdict(bad, "INCREMENT", number, names) != "read", bad


POSED = ["waiting", "queuing", "sitting", "standing", "parked", "stacked", "resting"]
HELD = ["{c} begins with {n} passengers {p}", "{c} starts with {n} passengers {p}", "{c} opens with {n} loaves {p}",
        "At the start, {c} has {n} passengers {p}", "{c} begins with {n} passengers {p} on it",
        "{c} has {n} passengers {p} at the start"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(HELD), st.sampled_from(POSED), st.sampled_from(NAMES), st.integers(2, 97))
def test_things_held_where_they_wait_are_a_start_and_other_states_are_not(form, posed, names, number):
    def said(n: str = str(number), c: str = names[0], p: str = posed) -> str:
        return _said("", form, c=c, n=n, p=p)
    assert _verdict(said(), "INITIAL_VALUE", number, names) == "read", said()
    assert _verdict(said(), "INCREMENT", number, names) != "read", said()
    for bad in [said(p="left"), said(p="missing"), said(p="expected"), said(p="sold"), said(p=f"{posed} to leave"),
                said(p=f"not {posed}"), said(n=f"about {number}"), said(n=str(number + 1)), said(c=names[1]),
                said(p=f"{posed} on {names[1]}"), said(p=f"{posed} elsewhere"),
                said().replace("begins with", "ends with").replace("starts with", "ends with")]:
        if bad != said():
            assert _verdict(bad, "INITIAL_VALUE", number, names) != "read", bad
    # a holding with no word of the start is no start ("Gull Island has 85 passengers waiting" may be any time)
    bare = f"{names[0]} has {number} passengers {posed}."
    assert _verdict(bare, "INITIAL_VALUE", number, names) != "read", bare


def _final(text: str, names: tuple[str, str], labels: tuple[str, ...]) -> str:
    return STATE.read_question(text, ("FINAL_VALUE", ("C0",)), Marked(dict(zip(("C0", "C1"), names)), TYPES), TYPES,
                               labels).kind


ASKS = ["What is the final value of {c} once every update has been applied?", "What is the level of {c} after all "
        "entries?", "How many passengers are on {c} at the end of the log?", "What does {c} read after all the "
        "instructions?", "What does {c}'s dial read after all the instructions?", "How many passengers are waiting on "
        "{c} at the end?"]
GLOSSES = ["The options {a}, {b} and {d} each mean {c} ends at that number.",
           "The choices {a}, {b} and {d} each mean {c} ends at that many units.",
           "Each of {a}, {b} and {d} stands for that final dial reading of {c}.",
           "The numbers {a}, {b} or {d} each mean {c} finishes at that value.",
           "The options {a}, {b} and {d} each give a possible final count for {c}."]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ASKS), st.sampled_from(GLOSSES), st.sampled_from(NAMES), st.integers(10, 200))
def test_a_gloss_naming_every_option_and_a_gauge_s_ask_read_and_their_poisons_do_not(ask, gloss, names, low):
    labels = (str(low), str(low + 2), str(low + 4))
    a, b, d = labels

    def said(q: str = ask, g: str = gloss, c: str = names[0], x: str = names[0], one: str = a) -> str:
        text = q.format(c=c) + " " + g.format(a=one, b=b, d=d, c=x)
        return text[:1].upper() + text[1:]
    assert _final(said(), names, labels) == "read", said()
    for bad in [said(x=names[1]), said(c=names[1]), said(g=gloss.replace("ends at", "starts at")
                                                          .replace("finishes at", "starts at")
                                                          .replace("final", "starting")),
                said(g=gloss.replace("that", "about that").replace("a possible", "roughly a")),
                said(g=gloss.replace("that", "twice that").replace("a possible", "half a")),
                said(g=gloss.replace("{a}, {b}", "{b}").replace("Each of", "Each of the")),
                said(q=ask.replace("after all", "after the first of").replace("at the end", "at the start")
                     .replace("once every", "before any").replace("{c}'s dial", "{c}'s neighbour's dial"))]:
        assert _final(bad, names, labels) != "read", bad


def test_a_gauge_of_another_owner_or_another_time_is_never_the_counter_s_final_reading():
    names, labels = ("the violet lamp", "the amber lamp"), ("20", "22", "24")
    for bad in ["What does the violet lamp's dial read at the start?",
                "What does the violet lamp's old dial read after all the instructions?",
                "What does the violet lamp's owner read after all the instructions?",
                "What does the violet lamp's dial read after the first instruction?",
                "What does the violet lamp's dial read after half the instructions?",
                "What does the violet lamp's dial read before all the instructions?",
                "What does the amber lamp's dial read after all the instructions?"]:
        assert _final(bad, names, labels) != "read", bad


HOLDER_NOUNS = ["card", "purse", "wallet", "jar", "album", "pouch"]
INTO = [("loads", "onto"), ("puts", "into"), ("tucks", "into"), ("slips", "into"), ("pours", "into")]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(HOLDER_NOUNS), st.sampled_from(INTO), st.sampled_from(["his", "their"]), st.integers(2, 97))
def test_what_a_counter_keeps_its_things_in_is_the_counter_and_another_s_is_not(noun, move, own, number):
    names = ("Milo", "Lena")
    verb, way = move
    start, step = f"Milo's {noun} starts with {number} tokens.", f"Milo {verb} {number} tokens {way} {own} {noun}."
    assert _verdict(start, "INITIAL_VALUE", number, names) == "read", start
    assert _verdict(step, "INCREMENT", number, names) == "read", step
    assert _verdict(step, "DECREMENT", number, names) != "read", step
    out = f"Milo takes {number} tokens out of {own} {noun}."
    assert _verdict(out, "DECREMENT", number, names) == "read", out
    assert _verdict(out, "INCREMENT", number, names) != "read", out
    for bad in [start.replace("Milo's", "Milo's sister's"), start.replace(f"Milo's {noun}", "Milo's sister"),
                start.replace(f"Milo's {noun}", f"Milo's old {noun}"), start.replace("starts", "ends"),
                start.replace(f"with {number}", f"with about {number}"), start.replace("Milo", "Lena")]:
        assert _verdict(bad, "INITIAL_VALUE", number, names) != "read", bad
    for bad in [step.replace(f"{own} {noun}", f"Lena's {noun}"), step.replace(f"{own} {noun}", f"{own} sister's {noun}"),
                step.replace(f"{own} {noun}", f"{own} old {noun}"), step.replace(f"{own} {noun}", "the floor"),
                step.replace(f" {number} ", f" about {number} "), step.replace(f" {number} ", f" {number + 1} "),
                step.replace("Milo ", "Milo never "), step.replace(".", " at the start.")]:
        assert _verdict(bad, "INCREMENT", number, names) != "read", bad
