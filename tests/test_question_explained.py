"""A question as its core ask and a label explanation, composed from generated parts for every family (core x
explanation shape x clause wording): the faithful one reads; swapped clauses, a flipped polarity, swapped symbols, a
hedge, another counter or the start never read."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_explain import explained
from families.reading import Marked, reader

NAMES = {"E0": "Nico", "E1": "Ben", "S0": "Bakers", "S1": "Divers", "C0": "blue jar", "C1": "red jar"}
TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set", "C0": "Counter", "C1": "Counter"}
MARKED = Marked(NAMES, TYPES)
LR = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
YN = ("YES", "NO", "UNKNOWN")

# How the labels are joined to their clauses: "Answer L if C", "L means C", "L = C", "L: C", "'L' if C", "L (C)", "L — C"
SHAPES = ["Answer {0} if {1}, {2} if {3}, or {4} if {5}.", "{0} means {1}, {2} means {3}, and {4} means {5}.",
          "{0} = {1}; {2} = {3}; {4} = {5}.", "{0}: {1}. {2}: {3}. {4}: {5}.",
          "Reply '{0}' if {1}, '{2}' if {3}, or '{4}' if {5}.", "The answer is {0} if {1}, {2} if {3}, and {4} if {5}.",
          "{0} — {1}; {2} — {3}; {4} — {5}.", "Give {0} when {1}, {2} when {3}, or {4} when {5}."]
# "not settled", composed: a source, a negated verb of settling, what it leaves
SOURCES = ["the clues", "the statements", "the facts given", "the premises above", "the shelf notes", "they",
           "the catalogue entries"]
NEGATED = ["do not", "don't", "cannot", "fail to"]
SETTLE = ["settle", "determine", "decide", "fix", "tell"]
LEFT = ["", " it", " the question", " either way", " the matter"]
PASSIVE = ["it cannot be determined", "it can't be worked out from the statements above", "the statements leave it open",
           "the clues leave this undetermined", "that cannot be settled from these facts"]
OPENERS = ["", "Seen from the photographer's position, ", "Along this lane, ", "Looking at the wall, ",
           "Based on the statements, "]


@st.composite
def unsettled(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(PASSIVE))
    return f"{draw(st.sampled_from(SOURCES))} {draw(st.sampled_from(NEGATED))} {draw(st.sampled_from(SETTLE))}" \
           f"{draw(st.sampled_from(LEFT))}"


def _asked(family: str, query: tuple, labels: tuple[str, ...], text: str) -> str:
    return reader(family).read_question(text, query, MARKED, TYPES, labels).kind


def _said(shape: str, labels: tuple[str, ...], clauses: list[str]) -> str:
    return shape.format(labels[0], clauses[0], labels[1], clauses[1], labels[2], clauses[2])


ORDER_CORES = ["where is Nico relative to Ben?", "is Nico to the left or to the right of Ben?",
               "is Nico to the left or the right of Ben?", "which side of Ben is Nico on?"]
SIDE = ["Nico is to the {0} of Ben", "it is to the {0} of Ben", "Nico is {0} of Ben", "Nico must be to the {0} of Ben",
        "Nico is definitely to the {0} of Ben", "the clues show that Nico is to the {0} of Ben"]


def _core(opener: str, core: str) -> str:
    return opener + (core if opener else core[:1].upper() + core[1:])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(OPENERS), st.sampled_from(ORDER_CORES[:3]), st.sampled_from(SHAPES), st.sampled_from(SIDE),
       st.sampled_from(SIDE), unsettled())
def test_an_order_question_with_its_labels_explained_reads_and_its_poisoned_variants_do_not(
        opener: str, core: str, shape: str, left: str, right: str, third: str) -> None:
    ask = _core(opener, core) + " "
    clauses = [left.format("left"), right.format("right"), third]
    assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, ask + _said(shape, LR, clauses)) == "read", \
        ask + _said(shape, LR, clauses)
    poisoned = [[clauses[1], clauses[0], third],   # two labels' clauses swapped
                [clauses[0].replace("Nico", "@").replace("Ben", "Nico").replace("@", "Ben"), clauses[1], third],  # args
                [clauses[0].replace(" is ", " might be ", 1).replace(" must be ", " might be "), clauses[1], third],
                [clauses[0], clauses[1], clauses[0]]]   # the third label explained as the first's
    for bad in poisoned:
        if bad[0] != clauses[0] or bad[1] != clauses[1] or bad[2] != clauses[2]:
            text = ask + _said(shape, LR, bad)
            assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, text) != "read", text


MEMBER_CORES = ["Is Nico a member of the Bakers?", "Is Nico among the Bakers?"]
MEMBER_YES = ["she must be a member", "the facts show she must be a member", "Nico is definitely a member of the Bakers",
              "she certainly is", "it follows", "he necessarily is", "Nico must belong to the Bakers"]
MEMBER_NO = ["she cannot be a member", "they show she cannot be a member", "Nico is definitely not a member of the Bakers",
             "she certainly is not", "it is ruled out", "he necessarily is not", "Nico cannot belong to the Bakers"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MEMBER_CORES), st.sampled_from(SHAPES), st.sampled_from(MEMBER_YES), st.sampled_from(MEMBER_NO),
       unsettled())
def test_a_membership_question_with_its_labels_explained_reads_and_its_poisoned_variants_do_not(
        core: str, shape: str, yes: str, no: str, third: str) -> None:
    query = ("MEMBER_OF", ("E0", "S0"))
    text = core + " " + _said(shape, YN, [yes, no, third])
    assert _asked("membership_inheritance", query, YN, text) == "read", text
    hedged = yes.replace("must be", "might be").replace("certainly is", "might be").replace("is definitely", "may be") \
        .replace("necessarily is", "possibly is").replace("it follows", "it may follow").replace("must belong", "may belong")
    for bad in ([no, yes, third], [hedged, no, third], [yes, yes, third], [yes, no, no]):
        text = core + " " + _said(shape, YN, bad)
        assert _asked("membership_inheritance", query, YN, text) != "read", text
    text = core.replace("Bakers", "Divers") + " " + _said(shape, YN, [yes, no, third])
    assert _asked("membership_inheritance", query, YN, text) != "read", text   # another set asked


COUNTER_CORES = ["how many marbles are in the blue jar?", "how many marbles does the blue jar hold at the end?",
                 "how many marbles are in the blue jar after all these changes?"]
COUNTER_OPENERS = ["", "After all of these changes, ", "Once every step is done, ", "At the end, "]
COUNTER_SAID = ["Answer {a} if the blue jar ends with {a} marbles, {b} if it ends with {b} marbles, or {c} if it ends "
                "with {c} marbles.",
                "{a} means there are {a} marbles in the blue jar, {b} means there are {b}, and {c} means there are {c}.",
                "Choose {a}, {b} or {c}, where each number is a possible final count of marbles in the blue jar.",
                "The options {a}, {b} and {c} each give a possible final number of marbles in the blue jar.",
                "Pick {a}, {b} or {c}; each is a possible final number of marbles in the blue jar.",
                "The possible answers are {a}, {b} and {c}, each being a candidate final count of marbles in the blue jar.",
                "{a} means {a} marbles, {b} means {b} marbles, and {c} means {c} marbles."]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(COUNTER_OPENERS), st.sampled_from(COUNTER_CORES), st.sampled_from(COUNTER_SAID),
       st.integers(10, 300))
def test_a_final_value_question_with_its_options_explained_reads_and_its_poisoned_variants_do_not(
        opener: str, core: str, said: str, low: int) -> None:
    labels = tuple(str(low + 2 * k) for k in range(3))
    query = ("FINAL_VALUE", ("C0",))
    a, b, c = labels
    ask = _core(opener, core) + " "
    text = ask + said.format(a=a, b=b, c=c)
    assert _asked("sequential_state_update", query, labels, text) == "read", text
    faithful = said.format(a=a, b=b, c=c)
    poisoned = [faithful.replace("blue jar", "red jar"),   # another counter's final value
                faithful.replace("final", "starting").replace("ends with", "starts with"),   # the start
                faithful.replace(f"{a} marbles", f"about {a} marbles"),   # a hedge
                # two numbers' clauses swapped: each label said with another's number
                said.replace("ends with {a}", "ends with {x}").replace("ends with {b}", "ends with {a}")
                .replace("are {a}", "are {x}").replace("are {b}", "are {a}").replace("means {a} marbles", "means {x} "
                "marbles").replace("means {b} marbles", "means {a} marbles").replace("{x}", "{b}").format(a=a, b=b, c=c)]
    for bad in poisoned:
        if bad != faithful:
            assert _asked("sequential_state_update", query, labels, ask + bad) != "read", ask + bad


def test_the_labels_segment_the_explanation_and_a_list_is_no_explanation() -> None:
    ex = explained("Where is A? Answer LEFT_OF if A is left of B, RIGHT_OF if it is right of B, or UNKNOWN if the "
                   "clues do not settle it.", LR)
    assert ex is not None and [label for label, _ in ex.clauses] == list(LR)
    assert ex.clauses[1][1] == "it is right of B" and ex.clauses[2][1] == "the clues do not settle it"
    assert explained("Where is A? Answer LEFT_OF, RIGHT_OF or UNKNOWN.", LR) is None
    assert explained("Answer 147 if it ends with 147 crates, 149 if it ends with 149, or 151 otherwise.",
                     ("147", "149", "151")) is None   # no core before the labels
    assert explained("How many? 147 if it ends with 149 crates, 149 if it ends with 147, or 151 if 151.",
                     ("147", "149", "151")) is None   # a label said inside another label's clause


def test_labels_not_as_answered_and_a_label_left_unexplained_do_not_read() -> None:
    query = ("MEMBER_OF", ("E0", "S0"))
    text = "Is Nico a member of the Bakers? Answer yes if she must be, no if she cannot be, or unknown otherwise."
    assert _asked("membership_inheritance", query, YN, text) != "read"
    text = "Is Nico a member of the Bakers? Answer YES if she cannot be, NO if she might be, or UNKNOWN otherwise."
    assert _asked("membership_inheritance", query, YN, text) != "read"


TURNING = ["Seen from behind, ", "Before any changes, ", "After the second step, ", "Facing the other way, ",
           "Seen from Ben's seat, ", "At the start, ", "If nobody moved, "]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TURNING), st.sampled_from(SHAPES), unsettled())
def test_an_opener_that_may_change_the_ask_is_never_read_away(opener: str, shape: str, third: str) -> None:
    order = _core(opener, "is Nico to the left or to the right of Ben?") + " " + _said(
        shape, LR, ["Nico is to the left of Ben", "Nico is to the right of Ben", third])
    assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, order) != "read", order
    counter = _core(opener, "how many marbles are in the blue jar?")
    assert _asked("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "12", "14"), counter) != "read", counter


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["once the first step is done", "after the second change", "before the last step is done",
                        "when nothing is finished"]))
def test_a_time_clause_of_another_time_is_never_read_as_the_end(when: str) -> None:
    text = f"How many marbles are in the blue jar {when}?"
    assert _asked("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "12", "14"), text) != "read", text


def test_a_yes_no_question_asks_the_statement_it_inverts_and_no_other() -> None:
    query = ("MEMBER_OF", ("E0", "S0"))
    assert _asked("membership_inheritance", query, YN, "Does Nico belong to the Bakers?") == "read"
    for other in ("Is Nico not a member of the Bakers?", "Does Nico belong to the Divers?", "Is Ben one of the Bakers?",
                  "Is Nico outside the Bakers?", "Might Nico belong to the Bakers?"):
        assert _asked("membership_inheritance", query, YN, other) != "read", other


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["can its position relative to Ben not be determined from these facts",
                        "is its position relative to Ben undetermined", "can this not be determined"]),
       st.sampled_from(["", "moored ", "sitting "]))
def test_labels_tagged_after_their_cases_with_a_third_way_asked_as_a_question_read(third: str, placed: str) -> None:
    text = f"Is Nico {placed}to the left of Ben (LEFT_OF), to the right of Ben (RIGHT_OF), or {third} (UNKNOWN)?"
    assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, text) == "read", text
    swapped = text.replace("(LEFT_OF)", "(X)").replace("(RIGHT_OF)", "(LEFT_OF)").replace("(X)", "(RIGHT_OF)")
    assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, swapped) != "read", swapped
    hedged = text.replace("can its", "can its probably").replace("is its position", "is its position probably") \
        .replace("can this", "can this probably")
    assert _asked("transitive_order", ("RELATION", ("E0", "E1")), LR, hedged) != "read", hedged


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SOURCES), st.sampled_from(NEGATED), st.sampled_from(SETTLE), st.sampled_from(LEFT),
       st.sampled_from(["probably ", "perhaps ", "might "]))
def test_not_settled_is_composed_and_a_hedge_or_a_settling_verb_says_otherwise(
        source: str, negated: str, settle: str, left: str, hedge: str) -> None:
    from families.label_clauses import unsettled
    from families.wording import tokens
    assert unsettled(tokens(f"{source} {negated} {settle}{left}"))
    assert not unsettled(tokens(f"{source} {hedge}{negated} {settle}{left}"))
    assert not unsettled(tokens(f"{source} {settle}{left}"))


def test_a_modal_keeps_its_polarity_and_a_denied_certainty_is_no_statement() -> None:
    from families.label_clauses import affirmed, plain
    core = frozenset({"is", "@0", "a", "member", "of", "@1"})
    assert plain("she must be a member".split()) == ["she", "is", "a", "member"]
    assert plain("she cannot belong to it".split()) == ["she", "does", "not", "belong", "to", "it"]
    assert plain("it is not necessarily so".split()) is None
    assert affirmed("the facts show she must be a member".split(), "@0", core) is True
    assert affirmed("they show she cannot be a member".split(), "@0", core) is False
    for weak in ("she can be a member", "she might be", "it is not ruled out", "@1 is a member of @0",
                 "she is a member of @2", "she is not necessarily a member"):
        assert affirmed(weak.split(), "@0", core) is None, weak


EQ_NAMES = {"q": "Quill", "j": "Juno", "a": "Ash", "b": "Bram"}
EQ_TYPES = {s: "Variable" for s in EQ_NAMES}
EQ_SAME = ["{0} equals {1}", "{0} and {1} must be equal", "{0} is equal to {1}", "{0} and {1} are necessarily equal"]
EQ_DIFF = ["{0} is not equal to {1}", "{0} and {1} must differ", "{0} and {1} cannot be equal", "{0} differs from {1}"]
EQ_SHAPES = ["'{0}': {1}; '{2}': {3}; '{4}': {5}; '{6}': {7}.", '"{0}" if {1}, "{2}" if {3}, "{4}" if {5}, or "{6}" if {7}.',
             "{0} means {1}, {2} means {3}, {4} means {5}, and {6} means {7}."]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(EQ_SHAPES), st.sampled_from(EQ_SAME), st.sampled_from(EQ_DIFF),
       st.sampled_from(["Which statement must be true?", "Which one of these follows necessarily from the premises?"]))
def test_an_equality_question_with_its_statement_labels_explained_reads_and_swapped_does_not(
        shape: str, same: str, diff: str, core: str) -> None:
    labels = ("q = j", "a != b", "q != j", "a = b")
    clauses = [same.format("Quill", "Juno"), diff.format("Ash", "Bram"), diff.format("Quill", "Juno"),
               same.format("Ash", "Bram")]
    marked = Marked(EQ_NAMES, EQ_TYPES)

    def kind(said: list[str]) -> str:
        text = core + " " + shape.format(*[x for pair in zip(labels, said) for x in pair])
        return reader("equality").read_question(text, ("ENTAILED", ()), marked, EQ_TYPES, labels).kind
    assert kind(clauses) == "read"
    assert kind([clauses[2], clauses[1], clauses[0], clauses[3]]) != "read"   # two labels' clauses swapped
    assert kind([clauses[0].replace("Juno", "Bram"), *clauses[1:]]) != "read"   # another pair
    assert kind([clauses[0].replace("must be", "might be").replace("equals", "may equal")
                 .replace("is equal", "is probably equal").replace("are necessarily", "are perhaps"), *clauses[1:]]) \
        != "read"


TOKEN_NAMES = {"E0": "Glass Harbor", "E1": "Nico", "S0": "slowdisco", "S1": "Acorn"}
TOKEN_TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Is Glass Harbor tagged slowdisco?", "Does Glass Harbor carry the slowdisco tag?"]),
       st.sampled_from(["carry", "hold", "have", "bear", "wear"]), st.sampled_from(["tag", "label", "badge"]),
       st.sampled_from(["it", "that {n}"]), unsettled())
def test_a_category_said_again_as_that_tag_or_it_after_a_verb_of_holding_reads_and_its_poisons_do_not(
        core: str, verb: str, noun: str, again: str, third: str) -> None:
    """"YES if it must carry that tag, NO if it cannot carry it": the category the question named, said again by a
    demonstrative and its container noun, or by "it" after a verb of holding; swapped, weakened or another noun
    never reads."""
    def kind(text: str) -> str:
        return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(
            TOKEN_NAMES, TOKEN_TYPES), TOKEN_TYPES, YN).kind
    yes, no = f"it must {verb} that {noun}", f"it cannot {verb} {again.format(n=noun)}"
    text = f"{core} Answer YES if {yes}, NO if {no}, or UNKNOWN if {third}."
    assert kind(text) == "read", text
    assert kind(f"{core} Answer YES if {no}, NO if {yes}, or UNKNOWN if {third}.") == "misread"
    for bad in (text.replace(f"that {noun}", "that side"), text.replace("must", "might"),
                text.replace(f"if {no}", f"if it cannot {verb} that {noun} or Acorn")):
        if bad != text:
            assert kind(bad) != "read", bad
