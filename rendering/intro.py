"""A structured render's intro, checked: it may set a scene with the names, never state a fact, hint at one,
hold a number or an answer label, or speak of the answer."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Sequence

from families.counted import MEASURES
from families.reading import Marked, reader
from families.registry import FAMILIES
from families.wording import HEDGES, NEGATIONS, NUMBER_WORDS, normalize, tokens
from rendering.whole_words import contains, words

# Words that, beside a name in the intro, say or hint something about it (besides each family's cue words,
# negations and hedges): an intro may set a scene with the names, never say where they stand or what they hold.
_HINTS = frozenset("answer answers question result solution ends end ending final finally last first left right "
                   "leftmost rightmost between next beside before after member members belongs belong includes "
                   "include equal equals different differ differs relates related turns gains gain loses lose "
                   "more most fewer fewest less least start starts started begins initially empty full "
                   "none subset linked link links connected connects tied chained joined through via same alike "
                   "matched match matches coincide share shares shared".split())   # (blind41: "q and g turn out to be
# linked through n")


def intro_hint(intro: str, payload: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """Why an intro that names symbols says too much (a sentence of it reads as a fact, or holds a word of a
    hint), or None."""
    family = FAMILIES[payload["family"]]
    read, types = reader(payload["family"]), payload["entities"]
    marked = Marked(names, types)
    for sentence in re.split(r"(?<=[.;:!?])\s+|,\s+", intro):
        line = " " + " ".join(normalize(marked.words(sentence)))
        if read._parses(read.facts, line, marked, types):
            return "states a fact"
    cues = {w for table in family.wording.cues.values() for _, ws in table for w in ws}
    hit = sorted(set(tokens(intro)) & (_HINTS | family.wording.intro_hints | cues | NEGATIONS | HEDGES))
    return f"holds a word of a hint ({hit[0]!r})" if hit else None


# A variable named "a" is the article too ("A student is handed a worksheet"): before a word that says nothing
# of a variable, the intro's "a" is read as the article.
ARTICLE_NAMES = frozenset({"a", "an"})
_ARTICLE = re.compile(r"\b[Aa]n?\s+(?!(?:is|equals|and|does|has|differs|matches|was|were|are|or|not|to|plus|minus)\b)"
                      r"(?=[A-Za-z]{2,})")


def unarticled(intro: str) -> str:
    return _ARTICLE.sub("", intro)


# "One" that counts no item: the setting's "one row", "a single line", "one per line", "one another".
_ONE_OK = frozenset("row rows line lines queue lineup long straight file per another bench table photo picture "
                    "group list side sides edge".split())
# Words that speak of the answer: an intro with one hints at it ("Hint: the correct option is an equality").
_ANSWER_TALK = frozenset("hint hints hinted correct incorrect solution solutions".split())


# "One" of an order or a choice, no count: "one after another", "one by one", "one at a time", "each one", "no one".
_ONE_BEFORE = frozenset("each every any no which this that".split())
_ONE_AFTER = (("after", "another"), ("after", "the", "other"), ("by", "1"), ("by", "one"), ("at", "a", "time"))
# "one" as a pronoun before a modal ("belonging to one can mean belonging to another"): it counts nothing
_MODALS = frozenset("can could may might must will would should".split())
_MAY = frozenset("can could may might".split())   # a possibility, never a rule ("one person must ...")


def _one_of_order(intro_words: Sequence[str], k: int) -> bool:
    """Whether the "one" at `k` orders or picks ("one after another", "each one"), counting nothing."""
    before = tuple(intro_words[max(0, k - 2):k])
    after = tuple(intro_words[k + 1:k + 5])
    # "one step after another", "one crate at a time": the same with a noun of the steps between
    return bool(before) and before[-1] in _ONE_BEFORE or before[-2:] in (("1", "by"), ("one", "by")) or any(
        after[:len(a)] == a or (after[1:1 + len(a)] == a and a[0] != "by") for a in _ONE_AFTER) \
        or bool(after) and after[0] in _MODALS


def _no_counts(options: tuple[str, ...]) -> bool:
    """Whether the answers are no numbers: only there may "one" of any one or of each say nothing (of a problem whose
    answers are counts it may say a start: "each jar holds one marble", "one jar may hold one or more")."""
    return bool(options) and not any(o.strip().isdigit() for o in options)


def _one_each(intro_words: Sequence[str], k: int) -> bool:
    """Whether "one" is had by each of a kind ("each thermometer shows one reading"), in an intro of no word of a hint
    ("each knight belongs to one order", "every cottage has one neighbour on the left" would be rules of the world)."""
    return bool({"each", "every"}.intersection(intro_words[max(0, k - 4):k])) and _HINTS.isdisjoint(intro_words) \
        and NEGATIONS.isdisjoint(intro_words)


def _one_indefinite(intro_words: Sequence[str], k: int) -> bool:
    """Whether "one" says any one, no count: a noun of any one before a modal ("one person may belong to several",
    "membership in one order can carry membership in another"), "one or more", "more than one", "one of them" set
    against another ("belonging to one of them guarantees a place in another")."""
    before, after = tuple(intro_words[max(0, k - 2):k]), tuple(intro_words[k + 1:k + 3])
    against = "another" in intro_words[k + 3:] or ("the", "other") in zip(intro_words[k + 3:], intro_words[k + 4:])
    return len(after) > 1 and after[0].isalpha() and after[0] not in _FUNCTION_WORDS and after[1] in _MAY or \
        after[:2] == ("or", "more") or before[-2:] == ("more", "than") or \
        after[:1] == ("of",) and after[1:2] in (("them",), ("these",), ("those",)) and against


# Where a row stands, had once by the scene ("along one wall", "on one very long bench"): a setting, no count
_SETTINGS = frozenset("wall walls fence street road lane path corridor hallway hall track shelf rack platform "
                      "string rope wire pole beam board".split())


def _one_setting(intro_words: Sequence[str], k: int) -> bool:
    """Whether "one" is the one place a row stands in: up to two plain words ("very long") and a noun of the setting."""
    for j in range(k + 1, min(k + 4, len(intro_words))):
        w = intro_words[j]
        if w in _ONE_OK or w in _SETTINGS:
            return True
        if not w.isalpha() or w in _FUNCTION_WORDS or w in NUMBER_WORDS or w in _HINTS or w in MEASURES:
            return False
    return False


def _counts(intro_words: Sequence[str], kinds: Kinds = (), options: tuple[str, ...] = ()) -> bool:
    """Whether the intro's words hold a number: a digit or number word, but "one" of the setting (`_ONE_OK`) and
    a count of the problem's own things (`_of_kind`)."""
    for k, w in enumerate(intro_words):
        if w in ("1", "one") and (k + 1 < len(intro_words) and intro_words[k + 1] in _ONE_OK
                         or tuple(intro_words[max(0, k - 2):k]) == ("at", "least") or _one_of_order(intro_words, k)
                         or _no_counts(options) and (_one_each(intro_words, k) or _one_indefinite(intro_words, k)
                                                     or _one_setting(intro_words, k))):
            continue
        if w in NUMBER_WORDS and kinds and _of_kind(intro_words, k, kinds, options):
            continue
        if w.isdigit() or w in NUMBER_WORDS:
            return True
    return False


# A count of the problem's own things, in words: "Two jars of marbles sit on a shelf" where the two counters are the
# blue jar and the red jar. The intro rule bars a number because it may state a fact or hint an answer ("One
# storeroom ends the day with forty-six items"); a count of the named things is neither: it is no fact's argument
# and no value (what it counts are the symbols every premise names), and a problem's shape is no answer. Only where
# the noun after it is, in the singular, a word of every name of one type and the number is that type's count, and
# never where the number is an answer option (a label said in the intro is refused whatever it counts).
Kinds = tuple[tuple[int, frozenset[str]], ...]   # per type of several symbols: how many, the words all its names share
ANY_NOUN = "*"   # among a type's shared words: any plural noun counts its names
_NOT_NOUNS = frozenset("the a an 's of and".split())


def kinds_named(entities: Mapping[str, str], names: Mapping[str, str]) -> Kinds:
    """Per type of two or more symbols: their number and the words every one of their names holds ("jar")."""
    by_type: dict[str, list[tuple[str, ...]]] = {}
    for s, t in entities.items():
        by_type.setdefault(t, []).append(tuple(words(names.get(s, ""))))
    out = []
    for named in by_type.values():
        if len(named) < 2:
            continue
        shared = frozenset.intersection(*map(frozenset, named)) - _NOT_NOUNS
        # names of no shared noun ("Jonas", "Mara"; "the Otters", "the Badgers") or each an owner's ("Mira's purse"):
        # what they are is no word of theirs ("two players", "two teams", "two travelers"), so any noun counts them
        owners = all(len(w) > 2 and "'s" in w[1:-1] for w in named)
        out.append((len(named), shared | ({ANY_NOUN} if owners or not shared else frozenset())))
    return tuple(sorted(out, key=lambda k: (k[0], sorted(k[1]))))


# Plurals of no "s" ("Two children are saving stickers", blind23): each the plural of its singular, as "jars" of "jar"
_IRREGULAR = {"children": "child", "people": "person", "men": "man", "women": "woman", "mice": "mouse",
              "geese": "goose", "oxen": "ox", "teeth": "tooth", "dice": "die", "sheep": "sheep", "fish": "fish",
              "deer": "deer", "cattle": "cattle"}


def _singulars(word: str) -> tuple[str, ...]:
    """What a plural may be the plural of: jars -> jar, boxes -> box, shelves -> shelf, knives -> knife, children ->
    child."""
    if word in _IRREGULAR:
        return (_IRREGULAR[word],)
    out = []
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("ves"):
        out += [word[:-3] + "f", word[:-3] + "fe"]
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return tuple(out)


def _of_kind(intro_words: Sequence[str], k: int, kinds: Kinds, options: tuple[str, ...]) -> bool:
    """Whether the number word at `k` counts the names of one type: that type's count, before its shared noun."""
    said = tokens(intro_words[k])
    if len(said) != 1 or not said[0].isdigit() or said[0] in options or k + 1 >= len(intro_words):
        return False
    n = int(said[0])
    if tuple(intro_words[k + 1:k + 2]) == ("of",) and k + 2 < len(intro_words) and intro_words[k + 2] in _OWNERS:
        k += 2   # "two of its warehouses": a partitive of the named things, all of them
    for j in range(k + 1, min(k + 4, len(intro_words))):   # "two counting dials": up to two words before the noun
        noun = intro_words[j]
        if not noun.isalpha():
            return False
        plural = _singulars(noun)
        if any(count == n and (not shared.isdisjoint(plural) or ANY_NOUN in shared and plural and noun not in MEASURES)
               for count, shared in kinds):
            return True
        if plural or noun in _FUNCTION_WORDS:   # "two marbles in jars": the noun is the first plural, or none
            return False
    return False


_FUNCTION_WORDS = frozenset("of in on at to the a an and or with from by for into onto its their his her".split())
_OWNERS = frozenset("the its their his her our these those".split())


@lru_cache(maxsize=1 << 12)   # a renderer's intros repeat (the template's always), and so do a family's labels
def intro_flaws(intro: str, options: tuple[str, ...], kinds: Kinds = ()) -> tuple[str, ...]:
    """What the intro must not hold besides names: a number (but a count of the problem's named things, `kinds`), an
    answer label (it says or hints an answer)."""
    # digits, or number words ("forty-six", "one"): tokens() spells every number word as digits
    intro_words = words(intro)
    reasons = ["intro: the intro holds a number"] if re.search(r"\d", intro) or _counts(intro_words, kinds, options) \
        else []
    talk = sorted(_ANSWER_TALK.intersection(intro_words))
    if talk:
        reasons.append(f"intro: the intro speaks of the answer ({talk[0]!r})")
    for label in sorted({label for label in options if contains(intro_words, words(label))}):
        reasons.append(f"intro: the intro holds the answer label {label!r}")
    return tuple(reasons)
