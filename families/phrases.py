"""Read-only phrases shared by every family's questions: openers before a question, the words that say "the
statements do not settle it", and the third ways after a question. Built from their parts (`expand`), read
by families/question_words.py by a set lookup of their words, never written and never in a pattern; each list is
built when first asked for."""
from __future__ import annotations

from functools import cache


def expand(*choices: str) -> tuple[str, ...]:
    """Every sentence of a row of choices (`a|b` each, `~` for none): how the read-only lists below are built."""
    out = [""]
    for c in choices:
        out = [f"{o} {w}".strip() for o in out for w in c.split("|")]
    return tuple(" ".join(o.replace("~", "").split()) for o in out)


_STATEMENTS = "statements|premises|facts|information|clues|sentences|information given|facts given|statements above|" \
              "premises above|facts above|information above|given information|given facts|above|equalities and " \
              "inequalities|relations|equations|constraints|conditions|relations above|clues above|information provided|" \
              "facts provided|statements provided|premises provided|given statements|given premises|above statements|" \
              "above premises|everything above|all of the above|everything given|everything stated|everything we know|" \
              "story|description|details|details given|descriptions|arrangement|setup|rules|relations given|" \
              "equations above|constraints above|conditions above|all that is given|what is given|what we know|" \
              "statements given|premises given|equalities and inequalities listed|statements listed|premises listed|" \
              "facts listed|relations listed|equations listed"
@cache
def announcements() -> tuple[str, ...]:
    """What announces the question and says nothing of it ("Here's the puzzle: which ...", "Here is the question.")."""
    return expand("here is|here 's|now for|now comes|and now", "the|our|your", "question|puzzle|task|problem|challenge|"
                  "query")


# Before any question (read, never written): where the answer is to come from.
@cache
def question_openers() -> tuple[str, ...]:
    """The openers before a question. Built when first asked: importing costs nothing."""
    return (expand("based on|given|according to|from|using|considering|based only on|based solely on|using only|"
                            "considering only|judging from|judging by|going by|relying only on|relying on|if we go by|based strictly on|" \
                            "based purely on|based entirely on|strictly based on|using just|from just|working from|" \
                            "reasoning from|reasoning only from|taking into account|in light of|in view of|on the basis of|given only", "~|the|these|all the|all these",
                            _STATEMENTS)
                    + ("so", "then", "now", "question", "therefore", "thus", "in that case", "with this",
                       "after all these events", "after all of this", "after all the updates", "after every update",
                       "in the end", "at the end", "finally", "in this arrangement", "in this row", "in the row",
                       "in the line", "in the lineup", "in this line", "in the queue", "if all the premises hold",
                       "if the premises hold", "if all the premises are true", "if the premises are true",
                       "assuming the premises", "assuming all the premises hold", "assuming the premises hold",
                       "given all this", "given all of this", "given this", "with these facts", "counting everything",
                       "looking at the row", "looking at the line", "considering the row", "considering the whole row",
                       "considering the line", "considering the whole line", "in the whole row", "taking everything "
                       "into account", "all things considered", "putting it all together", "putting everything together",
                       "when everything is done", "when all is done", "after everything", "with all that in mind",
                       "logically", "strictly speaking", "to sum up", "the question is",
                       "your task", "task", "puzzle", "quiz", "ultimately", "by the end", "at the end of the day", "query",
                       "from left to right", "left to right", "reading from left to right", "going from left to right",
                       "counting from the left", "reading left to right")
                    + expand("from|based on|using|given", "the|these", "premises|statements|facts", "alone|only")
                    + announcements()
                    + expand("of|among", "the|these|those", "options|statements|choices|conclusions", "~|below|above|given|"
                             "listed|that follow"))
# Where a third way says it cannot be told from ("... determined from the information given")
_SOURCE = ("~|from the statements|from the premises|from the facts|from the information|from the information given|" \
           "from these statements|from these premises|from these facts|from these clues|from this information|" \
           "from the given information|from the information provided|from the clues|from what we know|from what is known|" \
           "from this|for sure|for certain|with certainty|with the information given|given the information|" \
           "based on the information|based on the statements|based on the facts|based on the clues|from the above|" \
           "from the facts above|from the statements above|from the premises above|from the above facts|from what is given|" \
           "from the given facts")
# What says "the statements do not settle it": the third label of a three-way question, said in its words.
@cache
def undetermined() -> tuple[str, ...]:
    """The words that say "the statements do not settle it". Built when first asked: importing costs nothing."""
    return (
    expand("the|these", _STATEMENTS, "do not|does not|cannot|can not|fail to", "settle|determine|decide|say|tell|show",
            "~|it|this|that|the answer|the question|which|either way|you|us|their relative position|their order|"
            "their positions|which is which")
    + expand("the|these", _STATEMENTS, "do not|does not|cannot|can not", "let you|let us|let one|allow you to|"
             "allow us to|enable you to", "tell|say|decide|determine|know|be sure", "~|it|this|that|which|either way")
    + expand("it|this|that|the answer|the relation|the relationship|the position|the order|which|which one",
              "cannot|can not|could not", "be", "determined|decided|known|told|established|settled|inferred|deduced|"
              "concluded|worked out|said", _SOURCE)
    + expand("it|this|that|the answer|the relation|the relationship", "is", "unknown|undetermined|not determined|"
              "uncertain|not known|unclear|impossible to tell|impossible to determine|impossible to know|"
              "impossible to say|not settled|undecidable|ambiguous|indeterminate")
    + expand("we|you|one", "cannot|can not|could not|are unable to|are not able to", "tell|know|determine|say|decide|"
              "be sure|conclude|work it out")
    + expand("there is", "not enough|insufficient|no", "information|evidence", "~|to tell|to decide|to determine|"
              "to know|to say")
    + expand("neither", "~|one|of them|of these|answer|option", "follows|can be determined|can be concluded|is certain|"
              "is determined|can be shown")
    + expand("the|this", "information|information given|information provided|given information|evidence",
             "is not enough|is insufficient|does not suffice|is not sufficient|is incomplete",
             "~|to decide|to tell|to determine|to know|to say|to be sure|to settle it|to decide it")
    + expand("the|these", _STATEMENTS, "leave it open|leave this open|leave it undecided|leave the question open|"
             "are not enough|are insufficient|do not suffice")
    + expand("the|these", _STATEMENTS, "are not enough|are insufficient|do not suffice|are not sufficient",
             "to tell|to decide|to determine|to know|to say|to settle it|to decide it")
    + expand("~|it is|this is|that is", "impossible to tell|impossible to say|impossible to determine|impossible to know|"
             "not determinable", _SOURCE)
    + ("otherwise", "in any other case", "in all other cases", "if neither", "if neither holds", "if neither is true",
       "if neither follows", "if neither can be determined")
    + ("it is not possible to tell", "it is not possible to determine", "it is not possible to know", "not enough "
       "information", "insufficient information", "unknown", "undetermined", "cannot be determined",
       "it cannot be determined either way", "the answer cannot be determined"))
# After a question: its third way said ("or can this not be determined?"), or its second ("or not").
@cache
def question_tails() -> tuple[str, ...]:
    """The third ways after a question. Built when first asked: importing costs nothing."""
    return (
    expand("or", "is it|is this|is that|is the answer|is the relation", "unknown|undetermined|uncertain|unclear|"
            "impossible to tell|impossible to determine|impossible to say|not determined|not known|undecidable", _SOURCE)
    + expand("or", "can|could", "this|it|that|the answer|the relation", "not be", "determined|decided|known|told|"
              "settled|established|inferred|concluded|said", _SOURCE)
    + expand("or", "cannot|can not|could not|can t", "this|it|that|the answer|the relation", "be", "determined|decided|"
              "known|told|settled|established|inferred|concluded|said", _SOURCE)
    + expand("or", "can|could", "we|you|one", "not", "tell|know|determine|say|decide|be sure")
    + expand("or", "do|does", "the", _STATEMENTS, "not", "settle|determine|decide|say|tell", "~|it|this|that")
    + expand("or", "is there not enough|is there insufficient|is there no", "information|evidence",
              "~|to tell|to decide|to know|to say")
    + expand("~|or", "is he|is she|are they|is it|is he then|is she then", "not", "~|one of them|a member|in it")
    + expand("or", "do|does", "the|these", _STATEMENTS, "leave it open|leave this open|leave that open|leave it undecided|"
             "leave it unsettled|not say|not tell")
    + expand("or", "is it|is this|is that", "left open|undecided|unsettled|open")
    + expand("or", "unknown|undetermined|uncertain|unclear|indeterminate|undecidable|not determinable|not known|"
             "impossible to tell|impossible to say|impossible to determine|cannot be determined|cannot be told|"
             "can not be determined|not determined|can not tell|cannot tell")
    + expand("or is", "his|her|their|its|the", "position|place|relative position|order", "~|relative to him|relative to "
             "her|relative to them|relative to it|to him|to her|to them", "undetermined|unknown|uncertain|not determined|"
             "unclear|not known")
    + expand("or whether", "it|this|that|the answer|the relation", "is", "unknown|undetermined|uncertain|not known|"
             "not determined|impossible to tell|impossible to determine")
    + expand("or whether", "it|this|that|the answer|the relation", "cannot|can not", "be", "determined|told|decided|known")
    + ("in the line", "in the row", "in the lineup", "in this row", "in this line")
    + ("or neither", "or is it neither", "or neither of these", "or can neither be determined", "or not",
       "or neither can be determined", "or does it not follow", "or is neither certain"))

# Heads that ask whether a statement holds ("Determine whether Priya is a Weaver", "Can we conclude that ..."):
# the statement after one is read by the fact grammar and must be the query itself.
@cache
def embedders() -> tuple[str, ...]:
    """Heads that ask whether a statement holds. Built when first asked: importing costs nothing."""
    return (expand("~|please|now|so", "determine|decide|establish|work out|figure out|find out|tell me|tell us|tell|say|"
                    "state|check|judge|assess|indicate|answer|evaluate|verify|ascertain|infer|conclude", "whether|if")
             + expand("~|so|then|now", "can|could", "we|you|one|i", "conclude|say|tell|infer|deduce|determine|be sure|"
                      "establish|know|be certain|conclude for certain|say for certain|say for sure|tell for sure",
                      "that|whether|if")
             + expand("is it|would it be|is this", "true|the case|certain|necessarily true|necessarily the case|"
                      "guaranteed|provable|entailed|known|definitely true|certainly true", "that")
             + expand("does it follow|does it necessarily follow|must it be|must it be true|must it be the case|"
                      "is it implied|can it be concluded|can it be inferred|can it be deduced|can it be shown|"
                      "would it follow", "that")
             + expand("do|does", "the", _STATEMENTS, "imply|show|establish|entail|guarantee|prove|tell us", "that|whether"))
# Heads of an instruction that asks for a value or a relation ("Determine the number of items in the Barn",
# "State where Tom is relative to Ivo"): read as a question ("what is the number ...", "where is Tom ...").
@cache
def imperatives() -> tuple[str, ...]:
    """Heads of an instruction that asks for a value or a relation. Built when first asked: importing costs nothing."""
    return expand("~|please|now|so|then", "determine|compute|calculate|find|give|state|report|work out|figure out|"
                     "tell me|tell us|say|identify|name|find out|establish|decide|indicate|describe|specify|write down|"
                     "predict|deduce|infer|work out for us") \
    + expand("what", "can|could", "be", "concluded|said|inferred|deduced|determined|stated|told", "about") \
    + expand("what", "can|could|do|does", "we|you|one|the statements|the premises|the facts", "conclude|say|infer|"
             "deduce|determine|tell|tell us", "about")   # "What can be concluded about where X is ...": the clause asks
