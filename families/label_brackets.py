"""Labels each explained in brackets after it ("The possible answers are LEFT_OF (Ironwood is to the left of Atlas),
RIGHT_OF (Ironwood is to the right of Atlas), and UNKNOWN (the information does not settle it)"): said again as each
label's "if" clause ("LEFT_OF if Ironwood is to the left of Atlas, ..."), for the question's reader to judge each clause
as it judges any label's clause. Read by families/questions.py."""
from __future__ import annotations

import re
from typing import Sequence

# What may open a bracketed clause and says only that it is the label's meaning ("(if ...)", "(meaning ...)")
_OPENS = re.compile(r"^(?:if|when|meaning|i\.e\.,?|that is,?|=|:)\s+", re.IGNORECASE)
# The words that say a list of the labels comes ("The possible answers are", "Answer with one of"): an instruction,
# said as "Answer" so the clauses that follow read as any explained list does
_LEAD = re.compile(r"(?:^|(?<=[.?!;:]\s))(?:the\s+)?(?:possible\s+|allowed\s+|valid\s+|available\s+)?"
                   r"(?:answers|options|choices|labels|responses)\s+(?:are|being)\s*:?\s+(?=\S)", re.IGNORECASE)


def _meant(text: str, labels: Sequence[str], alternatives: str) -> str:
    """The text with each label's clause said after a comma ("'k != a', meaning k is not equal to a; 'j = c', meaning
    ...") in brackets after the label, as `bracketed` reads them; as it was where a label has no such clause."""
    q = "['\"‘’“”]?"
    pattern = re.compile(rf"{q}(?<![\w=!<>])({alternatives})(?![\w=]){q}\s*,?\s+(?:meaning|which means|i\.e\.,?|that is,)"
                         rf"\s+([^;()]+?)(?=\s*;|,\s*(?:and\s+|or\s+)?{q}(?:{alternatives})(?![\w=])|[.?!](?:\s|$)|$)")
    return pattern.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)


def bracketed(text: str, labels: Sequence[str]) -> str | None:
    """The question with each label's bracketed clause said as "LABEL if CLAUSE"; None unless every label is followed
    by exactly one bracket that holds no label (a bracket of some labels only explains nothing for certain)."""
    if len(labels) < 2:
        return None
    alternatives = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
    text = _meant(text, labels, alternatives)
    found = list(re.finditer(rf"(?<![\w=!<>])({alternatives})(?![\w=])\s*\(([^()]+)\)", text))
    if sorted(m.group(1) for m in found) != sorted(labels):
        return None
    if any(label in m.group(2) for m in found for label in labels):
        return None
    out, pos = [], 0
    for m in found:
        clause = _OPENS.sub("", m.group(2).strip())
        out += [text[pos:m.start()], f"{m.group(1)} if {clause}"]
        pos = m.end()
    said = "".join(out) + text[pos:]
    return _LEAD.sub("Answer ", said, count=1)
