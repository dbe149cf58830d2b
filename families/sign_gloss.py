"""A sentence that says what the signs of statement labels mean ("Here = means equal and != means not equal", 'Read "="
as "is equal to" and "!=" as "is not equal to"', 'An option with "!=" says their values differ'): each sign's clause
must say its sign's meaning in words of (in)equality and of framing only; a clause that says the other sign's meaning
is misread (the labels would mean what they do not), any other word leaves it unread. A sign may be mentioned through
an example with placeholder letters that are no names ('An option of the form "x = y" says x equals y'): its clause
may name the two placeholders, and no other letter. Read by families/questions.py."""
from __future__ import annotations

from typing import Literal, Sequence

from families.wording import HEDGES, NEGATIONS, hedges

# What each sign of equality's labels ("c = h", "c != h") means
SIGNS = {"=": "equal", "!=": "unequal"}
_EQUAL = frozenset("equal equals same identical match matches equality".split())
_DIFFERENT = frozenset("different differ differs unequal distinct inequality".split())
_NOT = frozenset(["not"])
# Words that only frame a gloss: who is glossed (the sign, an option with it, the two variables or their values),
# a verb of meaning, joins. A clause with any other word says something else and is unread.
_FRAME = frozenset(
    "here read reads as means mean meaning indicates indicate denotes denote signifies signify says say claims claim "
    "stands stand for states state asserts assert shows show tells tell that is are be 's has have hold holds "
    "the a an 2 both variables variable letters letter values value sides terms their its they it them those these "
    "sign signs symbol symbols option options statement statements answer answers choice choices written "
    "with using uses use one each every any in of to from as and while whereas but so two "
    "relation relationship between must necessarily definitely certainly hold holds hide hides store stores contain "
    "contains keep keeps carry carries form does do".split())

Gloss = Literal["read", "unread", "misread"]


def _mentioned(words: Sequence[str], k: int, taken: frozenset[str]) -> bool:
    """Whether the sign at k is mentioned, not used: a used sign stands between two symbols, as their marks ("@0 !=
    @1") or as letters where the names are not marked ("q != j"); one between placeholders is mentioned."""
    before = words[k - 1] if k else ""
    after = words[k + 1] if k + 1 < len(words) else ""
    return not (_symbol(before) and _symbol(after)) or bool(_placeholders(words, k, taken))


def _placeholders(words: Sequence[str], k: int, taken: frozenset[str]) -> frozenset[str]:
    """The placeholder letters of an example the sign at k stands in ("x = y"): two different bare letters, or two
    names of the render that a clause of the same example names again ('"x = y" means that x and y are equal', x and
    y variables of a large puzzle too); never a label's letters (`taken`: the labels' words, so "h != a" of a render
    that named its symbols otherwise stays a label used). Why two different letters: "x = x" glosses nothing."""
    pair = (words[k - 1] if k else "", words[k + 1] if k + 1 < len(words) else "")
    if pair[0] == pair[1] or any(w in taken for w in pair):
        return frozenset()
    if all(len(w) == 1 and w.isalpha() for w in pair):
        return frozenset(pair)
    if all(w[:1] == "@" for w in pair) and _named_again(words, k, frozenset(pair)):
        return frozenset(pair)
    return frozenset()


def _named_again(words: Sequence[str], k: int, pair: frozenset[str]) -> bool:
    """Whether an example of the pair at k or before it has a clause that names both again (up to the next sign)."""
    signs = [j for j, w in enumerate(words) if w in SIGNS] + [len(words)]
    for n, j in enumerate(signs[:-1]):
        if j <= k and 0 < j and {words[j - 1], words[j + 1] if j + 1 < len(words) else ""} == pair \
                and pair <= set(words[j + 2:signs[n + 1]]):
            return True
    return False


def _symbol(w: str) -> bool:
    return w.startswith("@") or (len(w) == 1 and w.isalpha())


def _unframed(words: Sequence[str]) -> set[str]:
    """The words that frame nothing: not of _FRAME, no "one" of "one written with" (normalized to "1" as a number
    is; "= means equal to 1" keeps its number), and no scene's noun for what is compared, one word after "two",
    "their", "same", "different" or "equal" ("the two registers hold the same value", "different settings")."""
    return {w for k, w in enumerate(words) if w not in _FRAME
            and not (w == "1" and k + 1 < len(words) and words[k + 1] in ("written", "with"))
            and not (k and words[k - 1] in _BEFORE_NOUN and _noun(w))}


# Words after which one word may be the scene's noun for the variables or their values
_BEFORE_NOUN = frozenset("2 two their its same different equal".split())
# Never such a noun: a word that compares, counts or weakens
_NOT_NOUN = NEGATIONS | HEDGES | frozenset("greater less more fewer larger smaller higher lower bigger most least "
                                           "times plus minus half double twice".split())


def _noun(w: str) -> bool:
    return w.isalpha() and w not in _NOT_NOUN


def _meaning(clause: Sequence[str], before: str | None) -> str | None:
    """What a sign's clause says: "equal", "unequal", or None where it says anything else. "they are not" after a
    clause of equality says the negation of it (an ellipsis); a word not of (in)equality or framing says more."""
    words = set(clause)
    if not _unframed(clause) <= _EQUAL | _DIFFERENT | _NOT or hedges(list(clause)):
        return None
    nots = sum(w in _NOT for w in clause)
    equal, different = bool(words & _EQUAL), bool(words & _DIFFERENT)
    if nots > 1 or (equal and different):
        return None
    if equal:
        return "unequal" if nots else "equal"
    if different:
        return "equal" if nots else "unequal"
    return "unequal" if nots and before == "equal" else None


# Words that open a gloss after the sentence's own words ("Answer with the statement that follows, where = means ...")
_OPENERS = frozenset("where here with whereby in".split())


def sign_gloss(words: Sequence[str], signed: bool, taken: frozenset[str] = frozenset()) -> tuple[Gloss, int] | None:
    """A gloss of the labels' signs and where it starts in `words` (the words before it are the sentence's own, to be
    read as they would be alone): "read" where every mentioned sign's clause says its meaning, "misread" where one
    says the other's, "unread" otherwise; None where the sentence mentions no sign or the labels have none
    (`signed`: the labels are statements with the signs; `taken`: the labels' words, never placeholders)."""
    if not signed:
        return None
    signs = [k for k, w in enumerate(words) if w in SIGNS]
    at = [k for k in signs if _mentioned(words, k, taken)]
    if not at:
        return None
    if any(k > at[0] for k in signs if k not in at):   # a label used after a sign mentioned: no gloss this reads
        return "unread", 0
    held = [_placeholders(words, k, taken) for k in at]
    opens = [k - 1 if h else k for k, h in zip(at, held)]   # where each mention starts: "x" of "x = y"
    start = 0   # labels used before the gloss ("Choose one of: f = p, ... (with = meaning ...)") are the rest's
    if _unframed(words[:opens[0]]):   # before the first sign: framing ("Here", "In each option,") or a
        # sentence of its own and an opener ("Answer with the one that follows, where")
        opened = [k for k in range(opens[0]) if words[k] in _OPENERS and not _unframed(words[k + 1:opens[0]])]
        # or a list of the labels before it, a line of its own ("- l != i\nA statement with = says ...")
        after = max((k + 2 for k in signs if k < at[0] and k not in at), default=0)
        opened += [after] if 0 < after < opens[0] and not _unframed(words[after:opens[0]]) else []
        if not opened:
            return "unread", 0
        start = min(opened)   # the widest gloss: "where an option with =" opens at "where"
    verdict: Gloss = "read"
    before: str | None = None
    for n, k in enumerate(at):
        end = opens[n + 1] if n + 1 < len(at) else len(words)
        clause = words[k + (2 if held[n] else 1):end]   # the placeholders named again say who is compared
        said = _meaning([w if w not in held[n] else "they" for w in clause], before)
        if said is None:
            return "unread", start
        if said != SIGNS[words[k]]:
            verdict = "misread"
        before = said
    return verdict, start
