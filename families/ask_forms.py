"""An ask's words made plain before the grammar reads them, each a class composed from its parts: a scene or time
opener before it and a time clause of completion after it read away, an either/or preposition said twice, a
placement verb after the subject away, a possessive count as "the count of X", a yes/no question as the statement it
inverts, a third way asked as a question as the statement it asks."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from families.wording import normalize

if TYPE_CHECKING:
    from families.reading import Marked

_WH = frozenset({"where", "how", "which", "what", "whether"})


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
_EVERY = frozenset({"all", "every", "each", "whole", "entire"})
# Words that make "all" fewer than all ("after all but the last of these moves", "after half of them")
_PARTIAL = frozenset("but save minus only half some most last few several almost nearly any".split())
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
        # ends in a word of completion, or says every step ("after all of these moves, applied in order")
        every = _EVERY.intersection(out[k + 1:k + 3]) and all(w.isalpha() for w in out[k:])
        if out[k] in _TIME_OPENS and (out[-1] in _COMPLETE or every) and not any(
                w[:1] == "@" or w[:1].isdigit() or w in _TURNING or w in _PARTIAL or w in NEGATIONS or w in HEDGES
                for w in out[k:]):
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


# Where the answer is to come from, named by any noun phrase of the story ("according to the survey", "guaranteed by
# the price tags", "Based only on these notes, ..."): a preposition of source, a determiner and up to three plain words.
_SOURCE_PREPS = (("based", "only", "on"), ("based", "solely", "on"), ("based", "on"), ("according", "to"),
                 ("judging", "by"), ("going", "by"), ("in", "light", "of"), ("given",), ("from",), ("per",))
_ENTAILING = frozenset("guaranteed forced implied entailed established settled proven proved shown determined "
                       "required dictated confirmed".split())
_SOURCE_DETS = frozenset("the these those this our your all".split())
_ASK_STARTS = _WH | frozenset({"is", "are", "does", "do", "who", "must", "can", "exactly", "one", "what"})


def _source_len(words: list[str], k: int) -> int:
    """How many words from k make a source's noun phrase: a determiner ("the", "these", "all the") and one to three
    plain words (a possessive "'s" among them); 0 where none."""
    from families.wording import HEDGES, NEGATIONS
    j = k
    while j < len(words) and words[j] in _SOURCE_DETS and j - k < 2:
        j += 1
    if j == k:
        return 0
    n = j
    while n < len(words) and n - j < 4 and (words[n] == "'s" or words[n].isalpha() and words[n] not in NEGATIONS and
                                            words[n] not in HEDGES and words[n] not in _TURNING and
                                            words[n] not in _ASK_STARTS and words[n] not in ("and", "or", "only")):
        n += 1
    return n - k if n > j and words[n - 1] != "'s" else 0


def sourced_away(words: list[str]) -> list[list[str]]:
    """The ask without where its answer comes from, said before it ("based only on these notes which statement ...")
    or after it ("... must be true according to the survey", "... is forced by the notebook": "... is forced"); none
    where it names no such source."""
    out = []
    for opening in _SOURCE_PREPS:
        if tuple(words[:len(opening)]) == opening:
            n = _source_len(words, len(opening))
            if n and len(opening) + n < len(words) and words[len(opening) + n] in _ASK_STARTS:
                out.append(words[len(opening) + n:])
    for k in range(2, len(words) - 1):
        prep = next((p for p in _SOURCE_PREPS + (("by",),) if tuple(words[k:k + len(p)]) == p), None)
        if prep is None or prep == ("by",) and words[k - 1] not in _ENTAILING:
            continue
        if k + len(prep) + _source_len(words, k + len(prep)) == len(words):
            out.append(words[:k])
    return out


_BE = frozenset({"be", "is", "are"})


def so_as_true(words: list[str]) -> list[str] | None:
    """An ask that ends in "so" as the complement of being ("Which of the following must be so?", "... is necessarily
    so") as "true"; None where it does not."""
    if len(words) > 2 and words[-1] == "so" and (words[-2] in _BE or words[-3] in _BE and words[-2] in
                                                 ("necessarily", "certainly", "definitely", "always")):
        return words[:-1] + ["true"]
    return None


# Certainty said of a truth ("is necessarily correct", "is certain to be true", "is bound to be the case") as the
# ask's plain "must be"; and "one option" as "one of the options". Never a hedge: "is possibly true" stays as it is.
_CERTAINLY = (("is", "necessarily"), ("is", "certainly"), ("is", "definitely"), ("is", "surely"), ("is", "always"),
              ("is", "certain", "to", "be"), ("is", "bound", "to", "be"), ("is", "guaranteed", "to", "be"),
              ("must", "necessarily", "be"), ("has", "to", "be"), ("must", "certainly", "be"))
_TRUTHS = frozenset({"true", "correct", "valid", "right", "so"})
_OPTION_NOUNS = frozenset({"option", "statement", "conclusion", "choice", "answer"})


def certainty_plain(words: list[str]) -> list[str] | None:
    """The ask with its certainty of a truth said "must be" ("which statement is necessarily correct" -> "which
    statement must be correct") and "one option" as "one of the options"; None where neither is said."""
    out = list(words)
    for k in range(1, len(out)):
        hit = next((c for c in _CERTAINLY if tuple(out[k:k + len(c)]) == c), None)
        if hit is not None and k + len(hit) < len(out) and out[k + len(hit)] in _TRUTHS:
            out = out[:k] + ["must", "be"] + out[k + len(hit):]
            break
    for k in range(len(out) - 1):
        if out[k] in ("1", "one") and out[k + 1] in _OPTION_NOUNS and (k == 0 or out[k - 1] in ("exactly", "only")):
            out = out[:k + 1] + ["of", "the", out[k + 1] + "s"] + out[k + 2:]
            break
    return out if out != words else None


def changes_nothing(words: list[str], again: list[str]) -> bool:
    """Whether a premise's free form, applied to an ask, read away only words that cannot change what it asks: no
    name, number, negation, hedge or word of another time or view ("At the start," stays: in a question it may ask
    of another time)."""
    from families.wording import HEDGES, NEGATIONS
    kept = set(again)
    return not any(w not in kept and (w[:1] == "@" or w[:1].isdigit() or w in _TURNING or w in NEGATIONS or
                                      w in HEDGES) for w in words)


# An agent noun of a verb of belonging ("Is X a subscriber to Y?"): the verb it names ("X subscribes to Y"), which the
# family's grammar then reads or not; the noun alone, after "a"/"an", before a preposition, nothing between
_AGENT_ENDS = (("ber", "be"), ("ter", "te"), ("ser", "se"), ("ver", "ve"), ("er", ""), ("or", ""))


def agent_as_verb(words: list[str]) -> list[list[str]]:
    """ "@0 is a subscriber to @1" as "@0 subscribes to @1"; none where the statement is of no such form."""
    from families.label_clauses import third
    if len(words) < 5 or words[0][:1] != "@" or words[1] != "is" or words[2] not in ("a", "an", "1") or \
            not words[3].isalpha() or words[4] not in ("to", "of", "at", "in", "on", "with", "for"):
        return []
    out = []
    for end, base in _AGENT_ENDS:
        if words[3].endswith(end) and len(words[3]) > len(end) + 2:
            out.append([words[0], third(words[3][:-len(end)] + base)] + words[4:])
    return out
