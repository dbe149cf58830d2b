"""Question forms strong models write (issue 42, the blind corpora): composed from their parts (names x heads x
label explanations x words of "not settled") they read; each corruption of them (the other way round, swapped
label meanings, another name, a negation, a weaker modal) is never read."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_clauses import affirmed
from families.question_forms import Unsettled
from families.reading import Marked, reader
from families.wording import tokens

PEOPLE = ["Gideon", "Jolene", "Priya", "Osric", "Saltmarsh", "Larkspire"]
SETS = ["Bakers", "Cobalt Group", "Tide Circle"]
ORDER_LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
YES_NO = ("YES", "NO", "UNKNOWN")

# "not settled", said as the blind corpora said it (and as the rows of question_forms compose it)
UNSETTLED = ["the line-up doesn't settle it", "the facts leave it undetermined", "the facts cannot settle it",
             "the statements don't determine it", "the information does not fix it",
             "that can't be worked out from the facts", "the catalogue rules given here do not decide it",
             "it is not determined", "the premises leave it open", "it remains unclear", "the clues are not enough to tell"]
# ... and what says it is settled, or says nothing of it: never "not settled"
SETTLED = ["the facts settle it", "it is determined", "the statements determine it", "it can be worked out",
           "the facts are enough to tell", "it is known", "the line-up shows it"]


def _order(text: str, a: str, b: str, names: list[str]) -> str:
    symbols = {f"E{k}": n for k, n in enumerate(names)}
    types = {s: "Entity" for s in symbols}
    inv = {n: s for s, n in symbols.items()}
    return reader("transitive_order").read_question(text, ("RELATION", (inv[a], inv[b])), Marked(symbols, types),
                                                    types, ORDER_LABELS).kind


ORDER_HEADS = ["Is {a} to the left of {b} or to the right of {her}?", "Relative to {b}, where is {a}?",
               "Is {a} to the left or to the right of {b}?", "Where is {a} relative to {b}?"]
ORDER_EXPLAINED = ["Answer LEFT_OF if {a} is to the left of {b}, RIGHT_OF if {she} is to the right of {it}, "
                   "or UNKNOWN if {unsettled}.",
                   "Say LEFT_OF if {a} is to the left of {b}, RIGHT_OF if {a} is to the right of {b}, or UNKNOWN if "
                   "{unsettled}."]


@settings(max_examples=60, deadline=None)
@given(st.permutations(PEOPLE), st.sampled_from(ORDER_HEADS), st.sampled_from(ORDER_EXPLAINED),
       st.sampled_from(UNSETTLED), st.sampled_from(["him", "her", "them"]), st.sampled_from(["it", "him", "her"]))
def test_order_questions_composed_read_and_their_corruptions_do_not(names: list[str], head: str, explained: str,
                                                                     unsettled: str, pron: str, obj: str) -> None:
    a, b, c = names[:3]
    fill = {"her": pron, "she": "it" if obj == "it" else "she", "it": obj, "unsettled": unsettled}
    good = head.format(a=a, b=b, **fill) + " " + explained.format(a=a, b=b, **fill)
    assert _order(good, a, b, names) == "read", good
    corrupt = [
        head.format(a=b, b=a, **fill) + " " + explained.format(a=b, b=a, **fill),   # the other way round
        head.format(a=a, b=c, **fill) + " " + explained.format(a=a, b=c, **fill),   # another name
        head.format(a=a, b=b, **fill) + " " + explained.format(a=a, b=b, **fill).replace(
            "to the left of", "@@").replace("to the right of", "to the left of").replace("@@", "to the right of"),
        good.replace(unsettled, SETTLED[len(names[0]) % len(SETTLED)]),   # UNKNOWN explained as "settled"
    ]
    if good.startswith(f"Is {a} "):   # a negation
        corrupt.append(good.replace(f"Is {a} ", f"Is {a} not ", 1))
    for text in corrupt:
        assert _order(text, a, b, names) != "read", text


@settings(max_examples=30, deadline=None)
@given(st.permutations(PEOPLE), st.sampled_from(["it is impossible to tell", "is that unknown", "can we not tell"]))
def test_an_inline_order_question_reads_it_as_the_other_name_and_refuses_swapped_cases(names: list[str],
                                                                                       third: str) -> None:
    a, b = names[:2]
    good = f"Is {a} to the left of {b} (LEFT_OF), to the right of it (RIGHT_OF), or {third} (UNKNOWN)?"
    assert _order(good, a, b, names) == "read", good
    swapped = f"Is {a} to the left of {b} (RIGHT_OF), to the right of it (LEFT_OF), or {third} (UNKNOWN)?"
    assert _order(swapped, a, b, names) == "misread", swapped
    assert _order(good, b, a, names) != "read"


def _member(text: str, e: str, s: str, people: list[str]) -> str:
    symbols = {f"E{k}": n for k, n in enumerate(people)} | {f"S{k}": n for k, n in enumerate(SETS)}
    types = {k: ("Entity" if k[0] == "E" else "Set") for k in symbols}
    inv = {n: k for k, n in symbols.items()}
    return reader("membership_inheritance").read_question(text, ("MEMBER_OF", (inv[e], inv[s])),
                                                          Marked(symbols, types), types, YES_NO).kind


MEMBER_HEADS = ["Is {e} in the {s}?", "Is {e} a member of the {s}?", "Does {e} belong to the {s}?"]
YES_ECHO = ["must be", "necessarily is", "certainly does", "definitely is", "must be so", "necessarily follows",
            "must be true", "is in it"]
NO_ECHO = ["cannot be", "necessarily is not", "certainly does not", "definitely is not", "cannot be so",
           "is ruled out", "must be false", "is not in it"]
WEAK = ["can be", "may be", "might be", "could be", "is not ruled out", "is possibly"]


@settings(max_examples=80, deadline=None)
@given(st.permutations(PEOPLE), st.sampled_from(SETS), st.sampled_from(MEMBER_HEADS), st.sampled_from(YES_ECHO),
       st.sampled_from(NO_ECHO), st.sampled_from(["he", "she", "it", "that", "{e}"]), st.sampled_from(UNSETTLED),
       st.sampled_from(["Answer {L}", "{L} means", "{L}:"]))
def test_membership_label_echoes_read_and_swapped_or_weakened_ones_do_not(people: list[str], s: str, head: str,
                                                                          yes: str, no: str, subj: str,
                                                                          unsettled: str, form: str) -> None:
    e, other = people[:2]
    subject = subj.format(e=e)

    def say(y: str, n: str, u: str = unsettled, who: str = e) -> str:
        def lab(label: str, clause: str) -> str:
            opened = form.replace("Answer ", "").format(L=label)
            return f"{opened} {clause}" if not opened.endswith(label) else f"{opened} if {clause}"
        return head.format(e=who, s=s) + " " + "; ".join(
            [lab("YES", f"{subject} {y}"), lab("NO", f"{subject} {n}"), lab("UNKNOWN", u)]) + "."
    assert _member(say(yes, no), e, s, people) == "read", say(yes, no)
    assert _member(say(no, yes), e, s, people) == "misread", say(no, yes)   # YES and NO explained the other way
    for weak in WEAK:   # "YES if she can be": possible is not necessary
        assert _member(say(weak, no), e, s, people) != "read", say(weak, no)
    assert _member(say(yes, no, "the facts settle it"), e, s, people) != "read"
    if subj == "{e}":
        assert _member(say(yes, no, who=other), e, s, people) != "read"   # asks of another person
    negated = say(yes, no).replace(f"Is {e} ", f"Is {e} not ", 1).replace(f"Does {e} ", f"Does {e} not ", 1)
    assert _member(negated, e, s, people) != "read", negated


def _equality(text: str, names: dict[str, str] | None = None) -> str:
    syms = {v: v for v in "iknp"} if names is None else names
    types = {s: "Variable" for s in syms}
    return reader("equality").read_question(text, ("ENTAILED", ()), Marked(syms, types), types,
                                            ("i != n", "k != p", "i = n", "k = p")).kind


EQ_LIST = ['"i != n" ({i} and {n} differ)', '"k != p" ({k} and {p} are different)', '"i = n" ({i} and {n} are equal)',
           '"k = p" ({k} and {p} are equal)']
EQ_HEADS = ["Exactly one of the following must hold. Which is it? {list}.",
            "Exactly one of the following necessarily holds: {list}. Which one is it?",
            "Exactly one of these statements must be true given the facts above. Which one: {list}?",
            "Exactly one of the following is guaranteed by these facts. Is it {list}?",
            "Exactly one of the following must be true — which one? {list}.",
            "Which single option is forced by the facts: {list}?"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(EQ_HEADS), st.permutations(range(4)),
       st.sampled_from([None, {"i": "Ivo", "k": "Kai", "n": "Nell", "p": "Pia"}]))
def test_equality_questions_asked_in_two_read_and_their_corruptions_do_not(head: str, order: list[int],
                                                                           names: dict[str, str] | None) -> None:
    spelled = {v: (names or {}).get(v, v) for v in "iknp"}
    items = [EQ_LIST[k].format(**spelled) for k in order]
    listed = ", ".join(items[:-1]) + ", or " + items[-1]
    good = head.format(list=listed)
    assert _equality(good, names) == "read", good
    swapped = good.replace("differ)", "@@").replace("are equal)", "differ)").replace("@@", "are equal)")
    assert _equality(swapped, names) == "misread", swapped
    assert _equality(good.replace("must hold", "is false").replace("must be true", "is false")
                     .replace("necessarily holds", "is false").replace("is guaranteed", "is false")
                     .replace("is forced", "is false"), names) != "read"
    assert _equality(good.replace("must hold", "could hold").replace("must be true", "could be true")
                     .replace("necessarily holds", "may hold").replace("is guaranteed", "is possible")
                     .replace("is forced", "is possible"), names) != "read"


def test_a_follow_up_alone_asks_nothing() -> None:
    """ "Which is it?" reads only after a sentence that asked the query."""
    listed = '"i != n", "k != p", "i = n", or "k = p"'
    assert _equality(f"Which is it? {listed}.") == "unread"
    assert _equality(f"Is it {listed}?") == "unread"


@given(st.sampled_from(UNSETTLED), st.sampled_from(SETTLED))
def test_the_words_of_not_settled_and_of_settled_stay_apart(unsettled: str, settled: str) -> None:
    words = Unsettled(())
    assert tuple(tokens(unsettled)) in words
    assert tuple(tokens(settled)) not in words


def test_an_echo_is_certain_and_has_one_negation_at_most() -> None:
    def said(s: str) -> bool | None:   # "@0" is the asked symbol's mark, "@1" another's
        marks = {"@0": "@0", "@1": "@1"}
        words = [w for part in s.split() for w in ([marks[part]] if part in marks else tokens(part))]
        return affirmed(words, "@0", frozenset({"@0", "is", "a", "member", "of", "@2"}))
    assert said("she certainly does") is True and said("so necessarily") is True and said("@0 must be") is True
    assert said("it necessarily is not") is False and said("necessarily not") is False
    assert said("it is ruled out") is False and said("it can't be") is False
    for weak in ("it can be", "it may be", "it is not ruled out", "@1 must be", "it might be so", "it is not false"):
        assert said(weak) is None, weak


MEASURES = [("weight", "weights", "weigh", "weighs"), ("code", "codes", "cost", "costs"),
            ("rating", "ratings", "read", "reads"), ("elevation", "elevations", "ring", "rings")]
SAME = ["{a} and {b} have the same {m}", "{a} 's {m} equals {b} 's", "{a} {vs} the same as {b}",
        "{a} and {b} share a {m}", "{a} has the same {m} as {b}", "{a} and {b} {vp} the same",
        "{a} is set to the same {m} as {b}", "{a} and {b} are at the same {m}"]
DIFFERENT = ["{a} and {b} have different {ms}", "{a} 's {m} differs from {b} 's", "{a} and {b} differ in {m}",
             "{a} and {b} do not share a {m}", "{a} does not {vp} the same as {b}", "{a} and {b} {vp} differently",
             "{a} and {b} are at different {ms}"]
NOT_EQUALITY = ["{a} {vs} more than {b}", "{a} has about the same {m} as {b}", "{a} and {b} have the same sign",
                "{a} has a higher {m} than {b}", "{a} and {b} have nearly the same {m}", "{a} may have the same {m} as {b}",
                "{a} and {b} have similar {ms}"]


def _fact(text: str, pred: str) -> str:
    syms = {"i": "Ivo", "n": "Nell", "k": "Kai"}
    types = {s: "Variable" for s in syms}
    return reader("equality").read_fact(text.replace(" 's", "'s"), (pred, ("i", "n")), Marked(syms, types), types).kind


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(MEASURES), st.sampled_from(SAME), st.sampled_from(DIFFERENT), st.sampled_from(NOT_EQUALITY),
       st.booleans())
def test_equality_said_by_a_measure_reads_and_its_corruptions_do_not(measure: tuple[str, str, str, str], same: str,
                                                                     different: str, other: str, flip: bool) -> None:
    m, ms, vp, vs = measure
    a, b = ("Nell", "Ivo") if flip else ("Ivo", "Nell")   # symmetric: either order is the fact
    eq, neq = same.format(a=a, b=b, m=m, ms=ms, vp=vp, vs=vs), different.format(a=a, b=b, m=m, ms=ms, vp=vp, vs=vs)
    assert _fact(eq, "EQUAL") == "read", eq
    assert _fact(eq, "NOT_EQUAL") == "misread", eq
    assert _fact(neq, "NOT_EQUAL") == "read", neq
    assert _fact(neq, "EQUAL") == "misread", neq
    assert _fact(eq.replace(b, "Kai"), "EQUAL") != "read"   # about another name
    wrong = other.format(a=a, b=b, m=m, ms=ms, vp=vp, vs=vs)
    assert _fact(wrong, "EQUAL") != "read" and _fact(wrong, "NOT_EQUAL") != "read", wrong


# An instruction to answer with one option as written, or a word that the answer is one of them, after the ask: it
# says nothing of what is asked, so the question reads as its ask alone; a weaker or other ask never reads with it.
EQ_ASKS = ["Which of the following must be true: i != n, k != p, i = n, or k = p?",
           "Here's the puzzle: which one of the four statements i != n, k != p, i = n, k = p necessarily follows from "
           "the facts?",
           "Here is the question. Which of these must hold: i != n, k != p, i = n, or k = p?"]
INSTRUCTIONS = ["{verb} {one}{how}."]
VERBS_WITH = ["Answer with", "Reply with", "Respond with", "Give", "Pick", "Please answer with"]
ONES = ["one option", "exactly one of them", "the option", "one of these statements", "just one", "a single option"]
HOW = ["", " exactly as written", " exactly as it is written", " verbatim", " as it appears"]
AFTER = ["Each answer is one of these exact statements.", "Exactly one of them is guaranteed by the facts above.",
         "Answer with the one statement that necessarily follows from the premises."]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(EQ_ASKS), st.sampled_from(VERBS_WITH), st.sampled_from(ONES), st.sampled_from(HOW),
       st.sampled_from(AFTER + [""]))
def test_an_instruction_to_answer_with_an_option_as_written_says_nothing_more(ask: str, verb: str, one: str,
                                                                              how: str, after: str) -> None:
    text = f"{ask} {verb} {one}{how}. {after}".strip()
    assert _equality(text) == "read", text
    weaker = text.replace("must be true", "could be true").replace("necessarily follows from the facts?",
                                                                   "possibly follows from the facts?")
    weaker = weaker.replace("must hold", "may hold").replace("necessarily follows from the premises", "may follow")
    assert _equality(weaker) != "read", weaker


def test_an_instruction_of_another_count_or_another_answer_never_reads() -> None:
    for tail in ["Answer with exactly two of them.", "Answer with the option that is false.",
                 "Exactly two of them are guaranteed by the facts above.", "Answer with the one that possibly follows.",
                 "Answer with the one statement that is false.", "Each answer is two of these exact statements."]:
        text = f"{EQ_ASKS[0]} {tail}"
        assert _equality(text) != "read", text


def test_an_announcement_alone_asks_nothing() -> None:
    assert _equality("Here's the puzzle.") == "unread"
    assert _equality("Here's the puzzle: which one is it?") == "unread"


EQ_MEANT = ["'i != n', meaning i is not equal to n", "'k != p', meaning k is not equal to p",
            "'i = n', meaning i is equal to n", "'k = p', meaning k is equal to p"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Which of the following conclusions necessarily follows?",
                        "Which statement is necessarily entailed by the premises?",
                        "Which of the following options is necessarily true?"]),
       st.sampled_from(["; ", ", "]), st.sampled_from(["", " Pick the single correct one.", " Choose the one correct option.",
                                                       " Give the correct answer."]))
def test_labels_glossed_after_a_comma_with_a_closing_pick_read_and_swapped_glosses_are_misread(
        head: str, sep: str, closer: str) -> None:
    """ "The options are: 'k != a', meaning k is not equal to a; 'j != c', ..." and "Pick the single correct one."
    (blind23, 25): each gloss read as its label's clause; a gloss of another label's meaning is misread."""
    said = f"{head} The options are: {sep.join(EQ_MEANT[:3])}{sep}and {EQ_MEANT[3]}.{closer}"
    assert _equality(said) == "read", said
    swapped = said.replace("i is not equal to n", "i is equal to n", 1)
    assert _equality(swapped) == "misread", swapped
    hedged = said.replace("k is not equal to p", "k is probably not equal to p", 1)
    assert _equality(hedged) != "read", hedged


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["their relative position cannot be determined", "their order is unknown",
                        "the relative order cannot be determined", "their relation remains unclear",
                        "the clues do not make this certain", "the statements do not fix their relative position",
                        "the statements do not pin this down", "the statements do not make that determinable",
                        "the statements do not say enough to tell", "the premises do not allow this to be determined",
                        "the clues do not permit their order to be decided", "the facts will not let it be known",
                        "its position cannot be determined from the clues", "the seating facts do not make it clear"]))
def test_the_pair_said_unsettled_by_how_the_two_stand_reads_as_unknown_and_as_another_label_is_misread(third: str):
    """ "... or UNKNOWN if their relative position cannot be determined" (blind25)."""
    head = "Determine the relation between Gideon and Jolene."
    good = (f"{head} Answer LEFT_OF if Gideon is to the left of Jolene, RIGHT_OF if Gideon is to the right of Jolene, "
            f"or UNKNOWN if {third}.")
    assert _order(good, "Gideon", "Jolene", PEOPLE) == "read", good
    bad = (f"{head} Answer LEFT_OF if {third}, RIGHT_OF if Gideon is to the right of Jolene, "
           f"or UNKNOWN if Gideon is to the left of Jolene.")
    assert _order(bad, "Gideon", "Jolene", PEOPLE) == "misread", bad


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["Let's determine the relative position of {a} and {b}.", "We need to work out the order of {a} "
                        "and {b}.", "Where is {a} relative to {b}?"]))
def test_a_lead_sentence_that_asks_before_bracketed_cases_reads_and_the_cases_swapped_are_misread(lead: str):
    """ "Let's determine the relative position of the compass and the lamp. Is the compass to the left of the lamp
    (LEFT_OF), to the right of the lamp (RIGHT_OF), or is it impossible to tell (UNKNOWN)?" (blind23)."""
    cases = "Is Gideon to the left of Jolene ({0}), to the right of Jolene ({1}), or is it impossible to tell (UNKNOWN)?"
    said = lead.format(a="Gideon", b="Jolene") + " " + cases.format("LEFT_OF", "RIGHT_OF")
    assert _order(said, "Gideon", "Jolene", PEOPLE) == "read", said
    swapped = lead.format(a="Gideon", b="Jolene") + " " + cases.format("RIGHT_OF", "LEFT_OF")
    assert _order(swapped, "Gideon", "Jolene", PEOPLE) == "misread", swapped
    if lead.startswith("Where"):   # a lead that asks the other way round
        other = lead.format(a="Jolene", b="Gideon") + " " + cases.format("LEFT_OF", "RIGHT_OF")
        assert _order(other, "Gideon", "Jolene", PEOPLE) == "misread", other


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["it cannot be determined whether {e} is in the {s}", "it is not possible to determine whether "
                        "{e} is in the {s} or not", "the statements do not make it possible to decide",
                        "the facts do not allow you to tell"]),
       st.sampled_from(["- ", "1. ", ""]))
def test_unknown_said_as_not_settled_whether_the_fact_holds_reads_and_of_another_fact_does_not(third: str, bullet: str):
    """ "UNKNOWN: it cannot be determined whether Kiri is a mistpiper." in a bulleted list, and "UNKNOWN if the
    statements do not make it possible to decide" (blind30, 31): not settled, of the query's own fact."""
    e, s = PEOPLE[0], SETS[0]
    lines = [f"YES: {e} must be in the {s}.", f"NO: {e} cannot be in the {s}.", f"UNKNOWN: {third.format(e=e, s=s)}."]
    said = f"Is {e} in the {s}? Choose:\n" + "\n".join(bullet.replace("1", str(k + 1)) + line
                                                      for k, line in enumerate(lines))
    assert _member(said, e, s, PEOPLE) == "read", said
    other = said.replace(f"whether {e} is", f"whether {PEOPLE[1]} is")
    if other != said:   # undetermined of another member: no meaning of a label here
        assert _member(other, e, s, PEOPLE) != "read", other
    swapped = said.replace("YES:", "X:").replace("UNKNOWN:", "YES:").replace("X:", "UNKNOWN:")
    assert _member(swapped, e, s, PEOPLE) == "misread", swapped


@pytest.mark.parametrize("form", ["Which way is {a} from {b}?", "In which direction is {a} from {b}?",
                                  "What side does {a} stand from {b}?"])
def test_which_way_one_is_from_the_other_asks_its_side_and_the_other_way_round_is_misread(form: str):
    a, b = PEOPLE[0], PEOPLE[1]
    assert _order(form.format(a=a, b=b), a, b, PEOPLE) == "read"
    assert _order(form.format(a=b, b=a), a, b, PEOPLE) == "misread"


@pytest.mark.parametrize("settled", ["the premises allow this to be determined", "the premises do not allow this to be "
                                     "ignored", "the premises do not allow this to be probably determined"])
def test_a_permission_to_settle_that_is_not_denied_or_is_of_another_thing_is_no_unknown(settled: str) -> None:
    """"UNKNOWN if the premises allow this to be determined" says the opposite of not settled, and "... to be ignored"
    says another thing: neither reads as UNKNOWN's meaning."""
    head = "Determine the relation between Gideon and Jolene."
    said = (f"{head} Answer LEFT_OF if Gideon is to the left of Jolene, RIGHT_OF if Gideon is to the right of Jolene, "
            f"or UNKNOWN if {settled}.")
    assert _order(said, "Gideon", "Jolene", PEOPLE) != "read", said


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["Here {g}", "Here, {g}", "{g}"]), st.sampled_from(["Which of the following must hold: {o}?",
       "Based on the premises, which of the following statements must be true? {o}."]), st.booleans())
def test_glosses_after_here_or_in_square_brackets_read_and_swapped_are_misread(here: str, ask: str, square: bool):
    """"Here k = c means k equals c, ..." and "f != k [f is not equal to k], ..." (blind43): each label's gloss is read
    as its meaning; a gloss of another meaning is misread."""
    labels = ("i != n", "k != p", "i = n", "k = p")
    meant = ["i is not equal to n", "k is not equal to p", "i is equal to n", "k is equal to p"]
    if square:
        said = ask.format(o=", ".join(f"{lb} [{m}]" for lb, m in zip(labels, meant)))
        swapped = said.replace("[i is not equal to n]", "[i is equal to n]", 1)
    else:
        glosses = ", ".join(f"{lb} means {m}" for lb, m in zip(labels, meant))
        said = ask.format(o=", ".join(labels)) + " " + here.format(g=glosses) + "."
        swapped = said.replace("i != n means i is not equal to n", "i != n means i is equal to n")
    assert _equality(said) == "read", said
    assert _equality(swapped) == "misread", swapped
