"""The words of a question made ready for the grammar: openers and third ways read away, instructions as the question
they ask, pronouns as the names they stand for, a label's clause with its subject and object said again; and the
phrase tables these look up, built once, when first read (importing costs nothing)."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, Sequence

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
            text = re.sub(rf"(^|[.;!?(]\s*|\n\s*)([\"'“‘]?{re.escape(label)}[\"'”’]?)\s*[:—–-]\s+",
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
        for k, w in enumerate(words):
            nxt = words[k + 1] if k + 1 < len(words) else ""
            if k and w in _POSSESSIVE and nxt in ("left", "right", "side"):
                swapped += [rest[0], "'s"]
            elif k and (w in _OBJECT and nxt not in ("left", "right") or w == "it" and words[k - 1] in AFTER_IT):
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


# A scene or time opener before the ask ("Seen from the photographer's position, ...", "Along this lane, ...", "Once
# these arrivals are over, ..."): any phrase before a comma that the ask follows, read away, where it names no symbol
# and holds no word that would make the ask another one: a negation or hedge, a time before the end ("before", "at the
# start", "after the second step"), a view that turns the scene round ("from behind", "facing us").
_OPENED = re.compile(r"^\s*(?P<opener>[^,?;:.]{3,80}?),\s+(?P<ask>(?:is|are|does|do|did|will|would|how|what|where|"
                     r"which|who|whom|on|to|in|at|so)\b.*)$", re.IGNORECASE | re.DOTALL)
_TURNING = frozenset("before prior start starting begin beginning began initially originally first earlier initial outset "
                     "until till halfway midway middle during without except excluding apart second third fourth fifth "
                     "next previous behind back rear opposite reverse reversed reversing facing mirror mirrored other "
                     "upside inverted flipped turned across far mirrored reflected rotated swapped".split())


def scene_opened(text: str, marked: Marked) -> str | None:
    """The ask after a scene or time opener read away, or None where the text opens with none (or one that may
    change what is asked)."""
    from families.wording import HEDGES, NEGATIONS
    m = _OPENED.match(text)
    if m is None:
        return None
    words = normalize(marked.words(m.group("opener")))
    if not words or any(w[:1] == "@" or w[:1].isdigit() or w in _TURNING or w in NEGATIONS or w in HEDGES
                        for w in words) or words[0] in _WH | {"is", "are", "does", "do", "if", "unless", "assuming"}:
        return None
    ask = m.group("ask")
    return ask[:1].upper() + ask[1:]


def coordinated(words: list[str]) -> list[str]:
    """An either/or ask with its preposition said once ("to the left or the right of B") as said twice ("to the left
    or to the right of B"), a placement verb after the subject read away ("is @0 moored to the left", "is @0 sitting
    to the right"), a scene after "where" read away ("where on the line is @0"): the grammar reads the ask plain."""
    words = _placed_away(words)
    for k in range(2, len(words) - 1):
        if words[k] == "or" and words[k + 1] == "the":
            j = max((i for i in range(k) if words[i] in ("to", "on", "at") and words[i + 1:i + 2] == ["the"]), default=-1)
            if j >= 0:
                return words[:k + 1] + [words[j]] + words[k + 1:]
    return words


# A time clause after the ask that says every step is done ("... once every turn above has been played", "... after
# the program finishes"): read away where it ends in a word of completion and holds no symbol, number, or word that
# would make it another time ("after the first step", "before the last one").
_TIME_OPENS = frozenset({"once", "after", "when", "by"})
_COMPLETE = frozenset("finished done over complete completed applied played made happened run ended ends finishes "
                      "finish end processed performed executed recorded settled taken place through concluded concludes "
                      "stopped stops closed closes carried out".split())
# Verbs of being somewhere a count's question may say for "are" ("how many books sit on the shelf")
_PLACED = frozenset("sit sits stand stands lie lies rest rests wait waits stay stays live lives ride ride remain "
                    "are".split())


def timed_away(words: list[str]) -> list[str] | None:
    """The ask without a time clause of completion after it, its placement verb as "are" ("how many books sit on @0
    once all is done" -> "how many books are on @0"); None where there is neither."""
    from families.wording import HEDGES, NEGATIONS
    out = list(words)
    for k in range(3, len(out) - 1):
        if out[k] in _TIME_OPENS and out[-1] in _COMPLETE and not any(
                w[:1] == "@" or w[:1].isdigit() or w in _TURNING or w in NEGATIONS or w in HEDGES for w in out[k:]):
            out = out[:k]
            break
    if out[:2] == ["how", "many"] and len(out) > 4 and out[3] in _PLACED and out[4] in ("on", "in", "at", "inside"):
        out = out[:3] + ["are"] + out[4:]
    return out if out != words else None


def statement(words: list[str]) -> list[str] | None:
    """A yes/no question as the statement it asks about ("is @0 filed under @1" -> "@0 is filed under @1", "does @0
    hold @1" -> "@0 holds @1"): the family's fact grammar then says what it asks; None where it is no such question."""
    from families.label_clauses import third
    if len(words) < 3 or words[1][:1] != "@":
        return None
    if words[0] in ("is", "are", "was"):
        return [words[1], words[0]] + words[2:]
    if words[0] in ("does", "do") and words[2:3] and words[2].isalpha():
        return [words[1], third(words[2])] + words[3:]
    return None


def _placed_away(words: list[str]) -> list[str]:
    """An ask without a placement participle after its subject, or a scene phrase after "where"."""
    out = list(words)
    for k in range(2, len(out) - 2):
        if out[k - 1][:1] == "@" and out[k - 2] in ("is", "are") and out[k].endswith(("ed", "ing")) and out[k] not in _TURNING and \
                out[k + 1] in ("to", "on") and out[k + 2] == "the":
            out = out[:k] + out[k + 1:]
            break
    if out[:1] == ["where"] and len(out) > 4 and out[1] in ("on", "in", "along", "at") and out[2] == "the":
        j = next((i for i in range(3, min(len(out), 6)) if out[i] in ("is", "are", "does", "do")), None)
        if j is not None and all(w.isalpha() for w in out[3:j]):
            out = ["where"] + out[j:]
    return out


def asked_unsettled(words: list[str]) -> list[list[str]]:
    """A third way asked as a question ("can its position relative to @1 not be determined", "is its position
    undetermined") as the statements it may ask about ("its position relative to @1 cannot be determined", "its
    position is undetermined"); none where it is no such question."""
    if len(words) < 3:
        return []
    if words[0] in ("can", "could") and "not" in words[2:]:
        k = words.index("not", 2)
        return [words[1:k] + ["cannot"] + words[k + 1:]]
    if words[0] in ("is", "are"):
        return [words[1:j] + [words[0]] + words[j:] for j in range(2, len(words))]
    return []


def possessive_of(words: list[str]) -> list[str] | None:
    """ "what is @0 's final score" (or "@0 final score", a plural's apostrophe lost: "the Badgers' final score") as
    "what is the final score of @0"; None where the ask is not of that form."""
    if words[:2] not in (["what", "is"], ["what", "will"]):
        return None
    k = 2 if words[1] == "is" else 3
    if k >= len(words) or words[k][:1] != "@":
        return None
    j = k + 2 if words[k + 1:k + 2] == ["'s"] else k + 1
    end = j
    while end < len(words) and end < j + 3 and words[end].isalpha() and words[end] not in _TIME_OPENS | {"at", "in"}:
        end += 1
    if end == j:
        return None
    owned = words[j:end]
    if len(owned) > 1 and owned[-1] in ("total", "count", "tally", "number", "score") and owned[-2] not in \
            ("final", "ending", "end", "last", "closing", "resulting"):
        owned = owned[:-2] + owned[-1:]   # "Tomas's point total": his total, what the points are said by
    return words[:k] + ["the"] + owned + ["of", words[k]] + words[end:]
