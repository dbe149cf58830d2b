"""What a label's clause may say of the query itself, read by families/questions.py: that it holds ("YES if it
follows", "if it necessarily does", "if so necessarily"), that it is ruled out ("NO if it cannot be", "if necessarily
not"), composed from subject, modal and complement; and "it follows that" before a statement, read away (the statement
then read by the fact grammar). Never "not necessarily" or "might be": the one is the third way, the other a hedge."""
from __future__ import annotations

from families.phrases import expand
from families.wording import tokens

# A label's clause that speaks of the query itself: it holds, or it is ruled out.
SO = frozenset(tuple(tokens(s)) for s in expand("it|that|this|so|the statement|the claim", "follows|holds|is true|is the "
                                                   "case|is so|must be true|is certain|necessarily holds|can be shown|"
                                                   "can be proven|is entailed") + ("so", "yes", "it does", "he is", "she is")
                + expand("it|that|this|he|she|they|~", "must be|must|necessarily is|is necessarily|necessarily does|"
                         "does necessarily|is certainly|certainly is|is definitely|definitely is|is|does|necessarily must be",
                         "~|so|true|the case|necessarily|for sure|for certain")
                + expand("so necessarily|necessarily so|necessarily yes|yes necessarily|necessarily|certainly|definitely|"
                         "yes definitely|definitely yes|certainly yes"))
# (never "not necessarily": that is the third way, unsettled)
NOT_SO = frozenset(tuple(tokens(s)) for s in expand("it|that|this|the statement|the claim", "is ruled out|is false|"
                                                       "cannot be true|is impossible|is contradicted|is excluded|can be "
                                                       "ruled out|must be false|does not hold|is not the case|is refuted")
                    + ("not", "it does not", "he is not", "she is not")
                    + expand("it|that|this|he|she|they|~", "cannot be|can not be|must not be|necessarily is not|is "
                             "necessarily not|necessarily does not|does not|is not|certainly is not|definitely is not|"
                             "is certainly not|is definitely not", "~|so|true|the case")
                    + expand("necessarily not|certainly not|definitely not|necessarily no|no necessarily"))
# What may open a label's clause and say only that the clause follows ("YES if it follows that Tobin is a member of
# Ithor"): read away, the statement after it read as the clause (never "it is possible that": a hedge)
_FOLLOWS = frozenset(tuple(tokens(s)) for s in expand("it|this", "follows|necessarily follows|follows necessarily|must be true|"
                                                      "must be the case|is certain|is certainly true|is necessarily true|is necessarily the case|can be shown|"
                                                      "can be proven|can be concluded", "that")
                     + expand("we|you|one", "can|must", "conclude|deduce|infer|prove|show", "that")
                     + expand("the", "premises|facts|statements", "imply|show|prove|entail", "that"))
_FOLLOWS_LENGTHS = sorted({len(f) for f in _FOLLOWS}, reverse=True)


def unembedded(clause: list[str]) -> list[str]:
    """A label's clause without "it follows that" before its statement."""
    for n in _FOLLOWS_LENGTHS:
        if n < len(clause) and tuple(clause[:n]) in _FOLLOWS:
            return clause[n:]
    return clause
