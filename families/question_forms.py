"""Question forms a strong model writes that the grammar of one question sentence does not hold: labels that
are statements read by their symbols, and the rewrites families/questions.py tries before it gives up."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from families.phrases import expand
from families.wording import tokens

if TYPE_CHECKING:
    from families.reading import Marked


def symbols_marked(marked: Marked, types: Mapping[str, str]) -> Marked:
    """The render's marks with each symbol named by itself: a label that is a statement ("c != h") speaks of the
    symbols c and h whatever names the render gave them (a render that renamed them is refused by its names)."""
    if all(marked.names.get(s) == s for s in marked.symbols):
        return marked
    from families.reading import Marked
    return Marked({s: s for s in marked.symbols}, types)


# A question asked in two ("Exactly one of the following must hold. Which is it?", "... holds: A, B, C or D. Which
# one?", "... guaranteed. Is it A, B, C or D?"): the second part asks only which option, and says nothing unless
# another sentence of the question asked the query (a question of these words alone stays unread).
FOLLOW_UPS = frozenset(tuple(tokens(s)) for s in expand(
    "which|which one|which of them|which of these|which of those|which option|which statement|which answer|"
    "which conclusion|which of the options|which of the statements|so which|so which one|then which|then which one|"
    "and which|and which one|is it|so is it|which is it then|which one is it then", "~|is it|is that|is this|"
    "would it be|could it be") + expand("name|identify|give|state|pick|select|choose", "it|that one|the one|which"))
