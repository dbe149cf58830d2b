"""The words of a question made ready for the grammar: openers and third ways read away, instructions as the question
they ask, pronouns as the names they stand for, a label's clause with its subject and object said again; and the
phrase tables these look up, built once, when first read (importing costs nothing)."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, Sequence

from families.membership_forms import CONTAINERS, HOLDING
from families.phrases import embedders as embedder_phrases
from families.phrases import imperatives as imperative_phrases
from families.phrases import question_openers, question_tails, undetermined
from families.question_forms import AFTER_IT, Unsettled, ones_dropped
from families.wording import normalize, tokens

if TYPE_CHECKING:
    from families.reading import Fact, Marked

Table = tuple[frozenset[tuple[str, ...]], list[int]]


class QVerdict(NamedTuple):
    """How a question reads: `read`, `misread` (with what it asks or says instead) or `unread`."""

    kind: str
    detail: str = ""


READ = QVerdict("read")


def _table(sentences: Sequence[str]) -> Table:
    rows = frozenset(tuple(tokens(s)) for s in sentences)
    return rows, sorted({len(r) for r in rows}, reverse=True)


@cache
def openers() -> Table:
    """The openers before a question ("Based on the statements, ..."), and their lengths, longest first."""
    return _table(question_openers())


@cache
def tails() -> Table:
    """The third ways after a question ("..., or can this not be determined?")."""
    return _table(question_tails())


@cache
def embedders() -> Table:
    """Heads that ask whether a statement holds ("Determine whether ...")."""
    return _table(embedder_phrases())


@cache
def imperatives() -> Table:
    """Heads of an instruction that asks for a value or a relation ("State where ...")."""
    return _table(tuple(i for i in imperative_phrases() if i))


@cache
def unsettled_words() -> Unsettled:
    """The words that say "the statements do not settle it"."""
    return Unsettled(tuple(tokens(s)) for s in undetermined())


_WH = frozenset({"where", "how", "which", "what", "whether"})


def colons_as_means(text: str, labels: tuple[str, ...]) -> str:
    """A label that opens a clause with a colon or a dash ("LEFT_OF: Bianca is to the left of Nadia.", "YES - Pax is
    in it", '"o = q": Olive and Quince share a number') read as "LABEL means ...": each clause must then mean its
    label, as any explanation must. Only where the label opens the text, a sentence or a bracket."""
    for label in labels:
        if label in text:
            text = re.sub(rf"(^|[.;!?(]\s*|\n\s*)(?:(?<=\n)[-*•]\s+|(?<=\n)[1-9][.)]\s+)?([\"'“‘]?{re.escape(label)}[\"'”’]?)[ \t]*[:—–-]\s+",
                          r"\1\2 means ", text)
    return text


def lowered(label: str, text: str) -> bool:
    """Whether a label with capitals is never written as it is but in lower case ("yes" for YES; a title case "Yes"
    is the label as a sentence writes it)."""
    low = label.lower()
    if low == label or re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text):
        return False
    return re.search(rf"(?<!\w){re.escape(low)}(?!\w)", text) is not None


def commanded(words: list[str]) -> list[list[str]]:
    """An instruction as the question it asks: "determine the number of ..." as "what is the number of ...",
    "state where Tom is ..." as "where Tom is ..."; [] where the words open with no instruction."""
    out = []
    for n in imperatives()[1]:
        if n < len(words) and tuple(words[:n]) in imperatives()[0]:
            nxt = words[n]
            if nxt == "the":
                out.append(["what", "is"] + words[n:])
            elif nxt in _WH:
                out.append(words[n:])
    return out


_POSSESSIVE = frozenset({"his", "her", "their", "its"})
_OBJECT = frozenset({"him", "her", "them"})


def pronouns_named(words: list[str]) -> list[str] | None:
    """A question's words with each pronoun after a name as that name ("to the left of Chloe, to her right" ->
    "... to the right of Chloe"), where the pronoun can stand for one name only: the last one named before it,
    and no other name comes between. None where there is no such pronoun."""
    out, last, changed = [], None, False
    for k, w in enumerate(words):
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if w[:1] == "@":
            last = w
        if last is not None and w in _POSSESSIVE and nxt in ("left", "right", "side", "position", "place"):
            out += [last, "'s"]
            changed = True
        elif last is not None and (w in _OBJECT and nxt not in ("left", "right") or
                                   w == "it" and k and words[k - 1] in AFTER_IT):   # "... or to the right of it"
            out.append(last)
            changed = True
        else:
            out.append(w)
    return normalize(out) if changed else None


def bare(words: list[str], context: frozenset[str] = frozenset(), starts: frozenset[str] = frozenset()) -> list[str]:
    """The question's line as it is, and without an opener before it, a third way (or two) after it, and words
    of its time ("once every step is done") before or after it."""
    (opens, opener_lengths), (ends, tail_lengths) = openers(), tails()
    heads = [words] + [words[n:] for n in opener_lengths if tuple(words[:n]) in opens]
    heads += [h[n:] for h in heads[1:] for n in opener_lengths if tuple(h[:n]) in opens]   # two openers
    if context and words and words[0] in starts:
        j = 0
        while j < len(words) and words[j] in context:
            j += 1
        heads += [words[k:] for k in range(j, 1, -1)]
    for head in list(heads) if context else ():   # after an opener too ("So how many ... now that all is done")
        i = len(head)
        while i > 0 and head[i - 1] in context:
            i -= 1
        heads += [head[:k] for k in range(i, len(head) - 1) if head[k] in starts and k > 2]
    out = []
    for head in heads:
        out.append(" " + " ".join(head))
        for n in tail_lengths:
            if n < len(head) and tuple(head[-n:]) in ends:
                out.append(" " + " ".join(head[:-n]))
                out += [" " + " ".join(head[:-n - m]) for m in tail_lengths
                        if m < len(head) - n and tuple(head[-n - m:-n]) in ends]
    return out


_PRONOUNS = frozenset({"he", "she", "they", "it", "him", "her", "them"})
_MODAL = {("must", "be"): ["is"], ("cannot", "be"): ["is", "not"], ("can", "not", "be"): ["is", "not"],
          ("is", "definitely"): ["is"], ("definitely", "is"): ["is"], ("is", "certainly"): ["is"]}


# What may follow "that tag" in a label's clause and end it: nothing more is said of the category
_ENDS = frozenset({"too", "also", "as", "well"})


def resolved(clause: list[str], query: Fact, marked: Marked) -> list[list[str]]:
    """A label's clause as it may be read: as written, and, where it says a pronoun for the query's first
    symbol ("YES if he is", "RIGHT_OF if she is to the right"), with the symbol for it and what it leaves
    out said again: the query's other symbol, after "of" or as the category."""
    marks = [marked.mark(a) for a in query[1] if isinstance(a, str)]
    if not clause or not marks or marks[0] is None or (clause[0] not in _PRONOUNS and clause[0] != marks[0]):
        return [clause]
    if tuple(clause) in unsettled_words():   # "it cannot be determined": no pronoun of a symbol
        return [clause]
    words = [marks[0]] + ones_dropped(clause[1:])   # the pronoun as the symbol, or the symbol's own name
    for modal, plain in _MODAL.items():
        for k in range(len(words)):
            if tuple(words[k:k + len(modal)]) == modal:
                words = words[:k] + plain + words[k + len(modal):]
                break
    rest = [m for m in marks[1:] if m is not None]
    if rest:   # "she is to his left": a pronoun after the subject stands for the query's other symbol
        swapped: list[str] = []
        skip = False
        for k, w in enumerate(words):
            nxt = words[k + 1] if k + 1 < len(words) else ""
            if skip:   # the noun after "that", said with it
                skip = False
                continue
            if k and w in _POSSESSIVE and nxt in ("left", "right", "side"):
                swapped += [rest[0], "'s"]
            elif k and w in ("that", "this") and nxt in CONTAINERS and (k + 2 == len(words) or words[k + 2] in _ENDS):
                swapped.append(rest[0])   # "YES if it must carry that tag": the category the question named
                skip = True
            elif k and (w in _OBJECT and nxt not in ("left", "right") or w == "it" and words[k - 1] in AFTER_IT
                        or w == "it" and words[k - 1] in HOLDING and k + 1 == len(words)):   # "cannot carry it"
                swapped.append(rest[0])   # "she is to his left", "RIGHT_OF if she is to the right of it"
            else:
                swapped.append(w)
        words = normalize(swapped)
    out = [words]
    for other in rest:
        out += [words + [other], words + ["of", other], words + ["one", "of", other]]
    return out


def said(meaning: object) -> str:
    if isinstance(meaning, frozenset):
        from families.reading import spell
        return " and ".join(sorted(spell(f) for f in meaning))
    return str(meaning)


def core_words(text: str, spelled: list[list[str]], marked: Marked) -> frozenset[str]:
    """The words of a question before its first label: what its core asks, which a label's clause may echo."""
    words = normalize(marked.words(text))
    for k in range(len(words)):
        if any(lw and words[k:k + len(lw)] == lw for lw in spelled):
            return frozenset(words[:k])
    return frozenset(words)
