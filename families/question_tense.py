"""The past tense of a family's questions: "how many items were in X at the end" asks what "are" asks."""
from __future__ import annotations

import re

# The present's verbs and their past, as a question asks them ("does X hold" -> "did X hold"); a word of no other
# tense ("will") is left as it is. Whole words of a phrasing only, inside or outside its groups.
_PAST = {"does": "did", "do": "did", "is": "was", "are": "were", "remain": "remained", "remains": "remained",
         "holds": "held", "has": "had", "contains": "contained", "stores": "stored", "ends": "ended",
         "finishes": "finished", "'s": "was"}
_WORD = re.compile(r"(?<![\w'])('s|[a-z]+)(?![\w'])")


def past(phrasings: tuple[str, ...]) -> tuple[str, ...]:
    """Each phrasing in the past tense, where it has a verb of the present. A family that asks one thing (a final
    value) asks it in either tense: a story told in the past asks "How many tokens were in the bin?" of its end,
    as one told in the present asks "How many are in the bin?"; a start said ("at the start") stays a cue."""
    out = []
    for ph in phrasings:
        told = _WORD.sub(lambda m: _PAST.get(m.group(1), m.group(1)), ph)
        if told != ph:
            out.append(told)
    return tuple(out)
