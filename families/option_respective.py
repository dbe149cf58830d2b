"""A list of the options said twice, the second time inside a gloss closed by "respectively" ("Answer with 104, 106 or
108, meaning the clay jar ends with 104, 106 or 108 pebbles respectively"): the second list, in the first one's order,
read as "that many", so the gloss says of each option what it says of one ("... ends with that many pebbles"). Read by
families/questions.py before the options are looked for."""
from __future__ import annotations

import re
from typing import Sequence

from families.option_lists import occurrences, runs

_RESPECTIVELY = re.compile(r"[\s,]*\brespectively\b")


def respective(text: str, labels: Sequence[str]) -> str | None:
    """The question with its second, "respectively" list as "that many"; None where the options are not said exactly
    twice, as two whole lists in the same order, the second closed by "respectively" in its own sentence."""
    if len(labels) < 2 or len(_RESPECTIVELY.findall(text)) != 1:
        return None
    occs = occurrences(text, labels)
    lists = runs(text, occs)
    if len(lists) != 2 or any(len(run) != len(labels) for run in lists):
        return None
    first, second = ([label for _, _, label in run] for run in lists)
    if first != second or set(first) != set(labels):
        return None   # another order: each option would be glossed with another's words
    end = lists[1][-1][1]
    said = _RESPECTIVELY.search(text, end)
    if said is None or re.search(r"[.?!;]", text[end:said.start()]):
        return None
    return text[:lists[1][0][0]] + "that many" + text[end:said.start()] + text[said.end():]
