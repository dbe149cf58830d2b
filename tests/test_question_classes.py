"""The question classes of the blind corpora's unread questions, each composed from its parts (issue 42): a yes/no
question in the family's free forms, a statement label's pronouns, where the answer comes from, certainty of a truth,
a follow-up after the labels, "not settled" by an owned source, a source that compels, a query in the family's free
forms, a verbless gloss of the options. Each reads; each of its poisoned variants (another meaning, swapped labels,
a hedge, a negation, another symbol) never reads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_clauses import plain, unsettled
from families.label_pronouns import pair_named
from families.reading import Marked, reader

EQ_NAMES = {"r": "r", "h": "h", "j": "j", "l": "l"}
EQ_TYPES = {s: "Variable" for s in EQ_NAMES}
EQ_LABELS = ("r = h", "r != h", "j = l", "j != l")
EQ_CORES = ["Which statement must be true?", "Which of the following must be so?",
            "Which statement is necessarily correct?", "Which statement is certain to be true?"]
# where the answer comes from, named by any noun phrase, before or after the ask
EQ_SOURCED = ["Which statement is guaranteed by {0}?", "Which statement must be true according to {0}?",
              "Based only on {0}, which statement must be true?", "Which of these conclusions is forced by {0}?"]
SOURCE_NOUNS = ["the price tags", "these notes", "the notebook", "the survey", "the marshal's notes", "the records above"]
SAME = ["{0} hold the same value", "{0} must be equal", "{0} have equal values"]
DIFF = ["{0} hold different values", "{0} must differ", "{0} are not equal"]
PAIR = ["they", "the two", "they both", "both of them"]


def _eq(text: str) -> str:
    return reader("equality").read_question(text, ("ENTAILED", ()), Marked(EQ_NAMES, EQ_TYPES), EQ_TYPES,
                                            EQ_LABELS).kind


def _eq_text(core: str, clauses: list[str]) -> str:
    return core + " " + ", ".join(f'"{label}" means {c}' for label, c in zip(EQ_LABELS, clauses)) + "."


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(EQ_CORES), st.sampled_from(SAME), st.sampled_from(DIFF), st.sampled_from(PAIR),
       st.sampled_from(PAIR))
def test_a_statement_labels_pronoun_stands_for_its_own_pair_and_a_wrong_meaning_never_reads(
        core: str, same: str, diff: str, first: str, second: str) -> None:
    clauses = [same.format("r and h"), diff.format(first), same.format("j and l"), diff.format(second)]
    assert _eq(_eq_text(core, clauses)) == "read", _eq_text(core, clauses)
    poisoned = [[clauses[0], same.format(first), *clauses[2:]],   # the pronoun's clause says the other label's meaning
                [clauses[0], diff.format(first).replace("hold", "might hold").replace("must", "might")
                 .replace("are not", "may not be"), *clauses[2:]],   # a hedge
                [clauses[0], diff.format(first) + " from j", *clauses[2:]],   # another symbol
                [clauses[0], "their owners hold different values", *clauses[2:]],   # an owned noun
                [clauses[0], clauses[3].replace(second, "j and l"), clauses[2], clauses[1]]]   # swapped
    for bad in poisoned:
        assert _eq(_eq_text(core, bad)) != "read", _eq_text(core, bad)


def test_a_pronoun_of_a_pair_is_read_only_where_the_clause_names_no_symbol() -> None:
    assert pair_named(["they", "differ"], ("@0", "@1")) == ["@0", "and", "@1", "differ"]
    assert pair_named(["their", "values", "differ"], ("@0", "@1")) == ["@0", "and", "@1", "'s", "values", "differ"]
    assert pair_named(["they", "differ", "from", "@2"], ("@0", "@1")) is None
    assert pair_named(["@0", "and", "@1", "differ"], ("@0", "@1")) is None


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(EQ_SOURCED), st.sampled_from(SOURCE_NOUNS))
def test_the_source_of_the_answer_is_read_away_and_a_weaker_or_other_ask_is_not(sourced: str, noun: str) -> None:
    clauses = ["r and h hold the same value", "r and h hold different values", "j and l hold the same value",
               "j and l hold different values"]
    assert _eq(_eq_text(sourced.format(noun), clauses)) == "read", sourced.format(noun)
    for bad in [sourced.replace("must be", "might be").replace("is guaranteed", "is suggested")
                .replace("is forced", "is hinted"),
                sourced.replace("must be true", "is false").replace("is guaranteed", "is ruled out")
                .replace("is forced", "is ruled out"),
                sourced.replace("{0}", "no {0}").replace("no the", "no").replace("no these", "no"),
                sourced.replace("{0}", "{0}, roughly")]:
        assert _eq(_eq_text(bad.format(noun), clauses)) != "read", bad.format(noun)


def test_certainty_of_a_truth_reads_and_a_hedge_or_negation_does_not() -> None:
    clauses = ["r and h hold the same value", "r and h hold different values", "j and l hold the same value",
               "j and l hold different values"]
    for bad in ["Which statement is possibly correct?", "Which statement is not necessarily correct?",
                "Which statement is necessarily false?", "Which of the following might be so?",
                "Which of the following is not so?", "At least one option must be true. Which is it?",
                "Exactly one option might be true. Which is it?"]:
        assert _eq(_eq_text(bad, clauses)) != "read", bad
    # a follow-up after the labels: the core asked in two
    text = "Exactly one option must be true. " + " ".join(f"{label}: {c}." for label, c in zip(EQ_LABELS, clauses)) + \
        " Which is it?"
    assert _eq(text) == "read", text
    assert _eq(text.replace("must be true", "might be true")) != "read"


ORDER_NAMES = {"E0": "Cactus", "E1": "Unicorn"}
ORDER_TYPES = {"E0": "Entity", "E1": "Entity"}
LR = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
OWNED_SOURCES = ["the marshal's notes are not enough to tell", "the visitor's notes do not determine it",
                 "that cannot be determined from the postman's information", "the notes do not allow a conclusion",
                 "the spectator's notes cannot decide between these", "the trainspotter's record does not settle it",
                 "the field guide's facts do not settle it"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OWNED_SOURCES), st.sampled_from(["float", "house", "wagon"]))
def test_a_relation_asked_with_kind_nouns_and_not_settled_by_an_owned_source_reads(third: str, noun: str) -> None:
    def kind(text: str) -> str:
        return reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(ORDER_NAMES,
                                                        ORDER_TYPES), ORDER_TYPES, LR).kind
    core = f"How is the Cactus {noun} placed relative to the Unicorn {noun}?"
    side = "the Cactus {n} is to the {s} of the Unicorn {n}"
    text = f"{core} LEFT_OF means {side.format(n=noun, s='left')}, RIGHT_OF means {side.format(n=noun, s='right')}, " \
           f"and UNKNOWN means {third}."
    assert kind(text) == "read", text
    assert kind(text.replace("How is the Cactus", "How is the Unicorn").replace("the Unicorn " + noun + "?",
                                                                               "the Cactus " + noun + "?")) != "read"
    assert kind(text.replace(core, f"How far is the Cactus {noun} placed from the Unicorn {noun}?")) != "read"
    assert kind(text.replace("left", "@").replace("right", "left").replace("@", "right")) != "read"   # swapped
    assert kind(text.replace(third, third.replace("not ", "").replace("cannot", "can"))) != "read"   # settled


def test_not_settled_by_an_owned_source_and_its_settled_or_hedged_variants() -> None:
    for t in OWNED_SOURCES + ["they allow either", "they prove neither", "the facts allow both"]:
        assert unsettled(t.replace("'s", " 's").split()), t
    for t in ["the notes allow a conclusion", "the notes do not allow a guess", "the marshal 's notes are enough to tell",
              "the notes might not allow a conclusion", "the spectator 's notes decide between these",
              "@3 's notes do not settle it", "the notes do not allow a conclusion about @3", "they allow neither",
              "the field guide 's facts settle it", "the field guide 's facts probably do not settle it"]:
        assert not unsettled(t.split()), t


MEMBER_NAMES = {"E0": "Corwin", "S0": "Larch Circle", "S1": "Oak Circle", "E1": "Velka Mask", "S2": "Heirloom",
                "S3": "Pinecone"}
MEMBER_TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set", "S2": "Set", "S3": "Set"}
YN = ("YES", "NO", "UNKNOWN")
COMPELLED = [("the facts force him to be a member", "they force him not to be"),
             ("the rules require him to be a member", "they require him not to be"),
             ("this follows from the facts", "it follows that he is not"),
             ("the facts prove he is", "they prove he is not")]
THIRDS = ["they allow either", "they prove neither", "neither can be concluded", "the facts do not settle it"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COMPELLED), st.sampled_from(THIRDS))
def test_a_source_that_compels_reads_as_the_statement_and_its_swap_or_weakening_does_not(
        pair: tuple[str, str], third: str) -> None:
    def kind(yes: str, no: str, unknown: str = third) -> str:
        text = f"Is Corwin a member of the Larch Circle? Reply YES if {yes}, NO if {no}, or UNKNOWN if {unknown}."
        return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(
            MEMBER_NAMES, MEMBER_TYPES), MEMBER_TYPES, YN).kind
    yes, no = pair
    assert kind(yes, no) == "read", (yes, no)
    assert kind(no, yes) != "read"   # swapped
    assert kind(yes.replace("force", "allow").replace("require", "allow").replace("follows", "may follow")
                .replace("prove", "suggest"), no) != "read"   # weaker than entailment
    other = yes.replace("a member", "a member of the Oak Circle").replace("he is", "he is in the Oak Circle")
    if other != yes:
        assert kind(other, no) != "read"   # another category
    assert kind(yes, no, "they allow neither") != "read"


def test_must_not_is_one_negation() -> None:
    assert plain("he must not be".split()) == ["he", "is", "not"]
    assert plain("she must not belong to @3".split()) == ["she", "does", "not", "belong", "to", "@3"]
    assert plain("he must be".split()) == ["he", "is"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Is the Velka Mask filed under Heirloom?", "Is Corwin on the Larch Circle roster?"]))
def test_a_yes_no_question_reads_in_the_free_forms_and_its_negation_or_other_set_does_not(core: str) -> None:
    query = ("MEMBER_OF", ("E1", "S2")) if "Velka" in core else ("MEMBER_OF", ("E0", "S0"))

    def kind(text: str) -> str:
        return reader("membership_inheritance").read_question(text, query, Marked(MEMBER_NAMES, MEMBER_TYPES),
                                                              MEMBER_TYPES, YN).kind
    assert kind(core) == "read", core
    negated = core.replace("Is the Velka Mask", "Is the Velka Mask not").replace("Is Corwin", "Is Corwin not")
    for bad in [negated, core.replace("Heirloom", "Pinecone").replace("Larch", "Oak"),
                core.replace(" filed", " perhaps filed").replace(" on the", " perhaps on the"),
                core.replace("Is ", "Was ").replace("?", " once?")]:
        assert kind(bad) != "read", bad


COUNTER_NAMES = {"C0": "green album", "C1": "red album"}
COUNTER_TYPES = {"C0": "Counter", "C1": "Counter"}
GLOSSES = ["Pick {a}, {b} or {c}, each a possible final stamp count for {x}.",
           "The possible answers {a}, {b} and {c} are candidate stamp counts for {x} at the end.",
           "The options are {a}, {b} and {c}, each a possible final count for {x}."]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GLOSSES), st.integers(10, 200))
def test_a_verbless_gloss_of_the_options_reads_and_another_counter_or_time_does_not(gloss: str, low: int) -> None:
    labels = (str(low), str(low + 2), str(low + 4))
    a, b, c = labels

    def kind(g: str) -> str:
        text = "How many stamps does the green album hold at the end? " + g.format(a=a, b=b, c=c, x="the green album")
        return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", ("C0",)), Marked(
            COUNTER_NAMES, COUNTER_TYPES), COUNTER_TYPES, labels).kind
    assert kind(gloss) == "read", gloss
    for bad in [gloss.replace("{x}", "the red album"), gloss.replace("final", "starting").replace("at the end",
                "at the start"), gloss.replace("each a possible", "each roughly a").replace("are candidate",
                "are roughly")]:
        if bad != gloss:
            assert kind(bad) != "read", bad


JAR_NAMES = {"C0": "clay jar", "C1": "glass jar", "C2": "right dial", "C3": "Milo", "C4": "lower pen"}
JAR_TYPES = {s: "Counter" for s in JAR_NAMES}


def _final(text: str, counter: str, labels: tuple[str, ...]) -> str:
    return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", (counter,)), Marked(
        JAR_NAMES, JAR_TYPES), JAR_TYPES, labels).kind


@settings(max_examples=60, deadline=None)
@given(st.integers(10, 300), st.sampled_from(["ends with", "finishes with", "holds at the end"]))
def test_a_respectively_list_reads_in_its_own_order_only(low: int, verb: str) -> None:
    a, b, c = labels = (str(low), str(low + 2), str(low + 4))
    ask = "How many pebbles does the clay jar hold at the very end? Answer with {0}, {1} or {2}, meaning the clay jar " \
          "{v} {3}, {4} or {5} pebbles respectively."
    if verb == "holds at the end":
        ask = ask.replace("{v} {3}, {4} or {5} pebbles", "holds {3}, {4} or {5} pebbles at the end")
    assert _final(ask.format(a, b, c, a, b, c, v=verb), "C0", labels) == "read", ask
    for bad in [ask.format(a, b, c, b, a, c, v=verb),   # another order: each option glossed as another
                ask.format(a, b, c, a, b, c, v=verb).replace("clay jar " + verb.split()[0], "glass jar "
                                                            + verb.split()[0]),   # another counter
                ask.format(a, b, c, a, b, c, v=verb).replace("meaning the clay jar", "meaning the clay jar starts with "
                                                            "or"),
                ask.format(a, b, c, a, b, c, v=verb).replace(f"{a}, {b} or {c} pebbles", f"about {a}, {b} or {c} "
                                                            "pebbles")]:
        assert _final(bad, "C0", labels) != "read", bad


def test_counts_asked_by_a_gauge_a_holder_or_every_step_read_and_their_other_times_do_not() -> None:
    labels = ("99", "101", "103")
    for ask, counter in [("What does the right dial read once all steps are finished?", "C2"),
                         ("After all of these changes, in the order shown, how many tokens are on Milo's card?", "C3"),
                         ("How many sheep are in the lower pen after all of these moves, applied in order?", "C4"),
                         ("How many sheep are in the lower pen at the end? Answer 99, 101 or 103, whichever is the "
                          "number of sheep left in the lower pen.", "C4")]:
        assert _final(ask, counter, labels) == "read", ask
    for bad, counter in [("What does the right dial read at the start?", "C2"),
                         ("What does the right dial read after the first step?", "C2"),
                         ("What does the right dial say about the clay jar once all steps are finished?", "C2"),
                         ("How many tokens are on Milo's sister's card at the end?", "C3"),
                         ("How many tokens are on Milo's old card at the end?", "C3"),
                         ("Before all of these changes, in the order shown, how many tokens are on Milo's card?", "C3"),
                         ("After the first of these changes, how many tokens are on Milo's card?", "C3"),
                         ("How many sheep are in the lower pen after all but the last of these moves?", "C4"),
                         ("How many sheep are in the lower pen after almost all of these moves?", "C4"),
                         ("How many sheep are in the lower pen after half of the moves are done?", "C4"),
                         ("How many sheep are in the lower pen at the end? Answer 99, 101 or 103, whichever is roughly "
                          "the number of sheep left in the lower pen.", "C4")]:
        assert _final(bad, counter, labels) != "read", bad


def test_a_premise_free_form_never_reads_away_a_time_from_a_question() -> None:
    text = "At the start, how is the Cactus float placed relative to the Unicorn float? LEFT_OF means the Cactus float " \
           "is to the left of the Unicorn float, RIGHT_OF means the Cactus float is to the right of the Unicorn float, " \
           "and UNKNOWN means the notes do not settle it."
    assert reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(
        ORDER_NAMES, ORDER_TYPES), ORDER_TYPES, LR).kind != "read"


ANY_ONE = ["In an old walled town, craftspeople are organised into guilds, and one person may belong to several of them.",
           "In a storybook kingdom, knights are sworn into orders, and membership in one order can carry membership "
           "in another.", "In a collectible card game, each card has one or more types.",
           "A company sends newsletters through mailing lists, and staff can be subscribed to more than one.",
           "A row of cottages lines one side of a straight country lane.",
           "Every room of a rambling old manor has its own thermometer, and each thermometer shows one reading."]
COUNTING_ONE = ["Each jar holds one marble at first.", "One jar may hold one or more marbles.",
                "Each jar holds one or more marbles."]
RULE_ONE = ["One person must belong to one guild.", "Each knight belongs to one order.",
            "Every cottage has one neighbour on the left.", "Each thermometer does not show one reading.",
            "The guild has one member.", "One order has one knight.", "Exactly one knight belongs to two orders."]


def test_an_intros_one_of_any_one_passes_where_no_answer_is_a_count_and_a_count_or_rule_does_not() -> None:
    from rendering.intro import intro_flaws
    for intro in ANY_ONE:
        assert intro_flaws(intro, ("YES", "NO", "UNKNOWN")) == (), intro
    for intro in COUNTING_ONE + ANY_ONE[2:3]:   # where the answers are counts, "one" may say a start
        assert intro_flaws(intro, ("65", "67", "69")), intro
    for intro in RULE_ONE:
        assert intro_flaws(intro, ("YES", "NO", "UNKNOWN")), intro


def test_an_agent_noun_of_a_verb_of_belonging_asks_as_its_verb_and_no_other_noun_does() -> None:
    names = {"E0": "Bartholomew", "S0": "Bulletin", "S1": "Herald"}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set"}

    def kind(text: str) -> str:
        return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(names, types),
                                                              types, YN).kind
    assert kind("Is Bartholomew a subscriber to the Bulletin?") == "read"
    for bad in ["Is Bartholomew a former subscriber to the Bulletin?", "Is Bartholomew a non-subscriber to the Bulletin?",
                "Is Bartholomew a critic of the Bulletin?", "Is Bartholomew a subscriber to the Herald?",
                "Is Bartholomew not a subscriber to the Bulletin?", "Is Bartholomew a leaver of the Bulletin?",
                "Is Bartholomew a reader of the Bulletin?", "Is Bartholomew a writer for the Bulletin?"]:
        assert kind(bad) != "read", bad
