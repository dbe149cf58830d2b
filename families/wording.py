"""How a family's facts and questions are worded: one grammar per predicate, from which come the
sentence the template writes and the prompt says, the pattern a grammar-constrained renderer is held
to, and the reading the fidelity check gives each premise back.

A phrasing is words, argument slots `{0}` `{1}`, choices `(a|b c)` and optional choices `[a|b]` (no
nesting). Reading is on words: lower case, punctuation
dropped except `=` `!=` `≠` `<>`, number words as digits, every name of the render as one mark. So a
sentence reads as a fact when the whole of it is one phrasing of that fact, after an optional opener.
"""
from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Mapping, NamedTuple, Sequence

# Every character is accounted for: a word, an equality or comparison sign, or any other symbol as a token of
# its own (which no phrasing holds, so a sentence with one reads as nothing); only plain punctuation is dropped.
_TOKEN = re.compile(r"'s\b|\w+|:=|!=|==|<=|>=|<>|=|[^\w\s]")
_DROPPED = frozenset(".,;:?!\"'()“”‘’«»…")
_HYPHEN = re.compile(r"(?<=[^\W\d_])[-‐‑](?=[^\W\d_])")   # left-hand, forty-six: a hyphen inside a word joins
# (the Unicode hyphen and the non-breaking one as the ASCII hyphen: "right‑hand"; never a minus or a dash)
_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS)   # what an intro may not hold, digits aside
_NUMBER_WORDS = NUMBER_WORDS | {"no", "single"}
# Words that negate what a sentence says (n't reads as `not`); where one stands in a sentence of a
# positive fact that does not read whole, the sentence says something else.
NEGATIONS = frozenset("not no never neither nor none nobody nothing cannot unequal differs differ different distinct "
                      "outside != ≠ <>".split())
# Words that weaken any claim: a sentence with one says less than its fact (misread, never read).
HEDGES = frozenset("probably possibly perhaps maybe likely unlikely apparently seemingly supposedly reportedly "
                   "presumably might may could seems seem appears appear roughly approximately nearly almost "
                   "about around circa ~ ≈".split())
# "appear(s)" hedges only as a verb of seeming ("appears to be", "it appears that", "as it appears"); before a place
# or an order ("appears after Juna", "appears to the left of", "appears on the roster") it says where one is seen.
_SEEMING = frozenset("appear appears appeared".split())
_SEEMING_AFTER = frozenset("that as like likely unlikely certain sure".split())
_PLACE_AFTER_TO = frozenset("the its his her their".split())


def hedges(words: Sequence[str]) -> list[str]:
    """The words of a line that weaken its claim (`HEDGES`), "appear(s)" only where it speaks of seeming."""
    out = []
    for k, w in enumerate(words):
        if w not in HEDGES:
            continue
        if w in ("may", "might") and "whatever" in words[max(0, k - 4):k]:
            continue   # "Whatever else Mirela may be, ...": a concession, no hedge of what follows
        if w in _SEEMING:
            before = words[k - 1] if k else ""
            after = words[k + 1] if k + 1 < len(words) else ""
            beyond = words[k + 2] if k + 2 < len(words) else ""
            seeming = before in ("it", "as", "so") or after in _SEEMING_AFTER or (
                after == "to" and beyond not in _PLACE_AFTER_TO and beyond[:1] != "@")
            if not seeming:
                continue
        out.append(w)
    return out


# Words and signs that make a number another one: before it (over 40, at least 40, -40, ~40) or after it (40%).
NUMBER_BEFORE = frozenset("over under least most than above below beyond upto ~ ≈ + - − ± – — some".split())
NUMBER_AFTER = frozenset("% percent percentage + - − ± or ish times".split())
# Openers any sentence may start with and still say its fact (read, never written).
READ_OPENERS = ("also", "note that", "we know that", "it is known that", "it is true that", "in addition",
                "furthermore", "moreover", "additionally", "besides that", "and", "we are told that",
                "it is given that", "here", "now", "it holds that", "we also know that", "what is more",
                # sequence openers that claim no value: a fact is one step of a list
                "then", "next", "after that", "later", "afterwards", "subsequently", "first", "first of all",
                "second", "third", "fourth", "fifth", "and then", "after this", "following that", "next up",
                "to begin", "to start", "to begin with", "to start with", "meanwhile", "in the next step",
                "at the same time", "on top of that", "beyond that", "apart from that", "as for the rest",
                # a scene's or a source's words before a fact, claiming nothing about it
                "by old custom", "by custom", "by tradition", "as tradition has it", "in this town", "in this village",
                "in this city", "in this story", "in this puzzle", "in this world", "in this setting", "as it turns out",
                "it turns out that", "everyone agrees that", "everyone knows that", "it is well known that",
                "as everyone knows", "as is well known", "it is also known that", "we learn that", "we are also told that",
                "it is stated that", "the records show that", "records show that", "note also that", "keep in mind that",
                "remember that", "recall that", "one can assume", "one can assume that", "we can assume",
                "we can assume that", "assume", "assume that", "suppose", "suppose that", "let us say that",
                "it is a fact that", "for the record", "on record", "as stated", "to be clear",
                "for one thing", "for another thing", "of note", "importantly", "crucially", "known fact")
# "Finally," opens the last of a list: any fact but one that is a start ("Finally, Silo has 40 items" is a
# final value's claim, where "Finally, Silo gains 40 items" is the last update).
FINAL_OPENERS = ("finally", "lastly", "last", "last of all", "to finish", "to finish up", "as a last step",
                 "in the last step", "at last")
# The negation of a whole sentence: what follows says the opposite fact.
NOT_THE_CASE = tuple(tuple(w.split()) for w in (
    "it is not the case that", "it is not true that", "it is false that", "it is untrue that",
    "it is not so that", "it is not correct that"))
_ARTICLES = frozenset({"the", "a", "an"})
# Names that are words of a clause too: a variable named "a" is the article in "share a value", "I" the pronoun.
WORD_NAMES = frozenset("a an i as at be by do he if in is it me my no of on or so to up us we".split())


# A list's bullet or number before a sentence ("- ", "2. ", "(3) ") and markdown emphasis in pairs ("**Note:**"):
# the layout of a strong model's answer, read away. A lone "*" (a product) stays a symbol.
_LIST_MARKS = frozenset("-*•(0123456789 ")
_BULLET = re.compile(r"^\s*(?:[-*•]\s+|\(?\d{1,2}[.)]\s+(?=[A-Z\"“])|(?:step|premise|fact|clue|statement|constraint|"
                     r"condition)\s*\d{1,2}\s*[:.)]\s+)", re.IGNORECASE)
# the heads a numbered item of a list may open with ("Step 3:", "Premise 2:", "Fact 1:"): what `_BULLET` reads away
_NUMBERED = re.compile(r"^\s*(?:step|premise|fact|clue|statement|constraint|condition)\s*\d", re.IGNORECASE)
_MARKDOWN = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*|\*(\S(?:[^*]*?\S)?)\*")


def _clean(text: str) -> str:
    """Lower case, compatibility forms folded (full-width letters, ligatures) and a hyphen inside a word a space."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if "*" in text or text[:1] in _LIST_MARKS or _NUMBERED.match(text):   # markdown a strong model writes: "**Question:**", "1. Ann is ..."
        text = _MARKDOWN.sub(lambda m: m.group(1) or m.group(2), _BULLET.sub("", text))
    if ("'" in text or "’" in text) and _PLURAL_OWNER.search(text) and not _OPENING_QUOTE.search(text):
        text = _PLURAL_OWNER.sub("'s", text)
    low = text.lower()
    if "'" in low or "’" in low:
        low = low.replace("’", "'")
        if "n't" in low:   # "can't" is "can not", "won't" "will not" (not "ca not", "wo not")
            low = low.replace("can't", "can not").replace("won't", "will not").replace("shan't", "shall not")
            low = low.replace("n't", " not")
    return _HYPHEN.sub(" ", low) if "-" in low or "‐" in low or "‑" in low else low


def tokens(text: str) -> list[str]:
    """The words of a text as they are read: lower case, plain punctuation dropped, every other symbol a
    token, number words up to ninety-nine as digits, "no" before "items" as 0."""
    raw = [t for t in _TOKEN.findall(_clean(text)) if t not in _DROPPED]
    if _NUMBER_WORDS.isdisjoint(raw):   # most sentences hold no number word: nothing to join or convert
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if t in _TENS:
            n = _TENS[t]
            if i + 1 < len(raw) and 0 < _UNITS.get(raw[i + 1], 0) < 10:
                n += _UNITS[raw[i + 1]]
                i += 1
            out.append(str(n))
        elif t == "no" and i + 1 < len(raw) and raw[i + 1] in ("items", "item"):
            out.append("0")   # "starts with no items": a count of none
        elif t == "single" and out and out[-1] in ("a", "1"):
            out[-1] = "1"     # "a single item"
        else:
            out.append(str(_UNITS[t]) if t in _UNITS else t)
        i += 1
    return out


def symbols(words: Sequence[str]) -> list[str]:
    """The tokens of a line that are neither words, names, numbers nor the equality signs: what no phrasing holds."""
    return [w for w in words if not (w[0].isalnum() or w[0] in "_@'" or w in _SIGNS)]


_SIGNS = frozenset({"=", "==", "!=", "≠", "<>", ":="})
# Nouns a possessive may own ("Ben's left", "Silo's final count"), read as "the left of Ben": every phrasing
# with "the N of X" is then read with "X's N" too.
# What one in a row owns where it stands ("Wren's desk", "the seat of Ann"): its place, as the name itself is. Only
# nouns the grammar holds besides (a row's setting: "on the desk", "at the counter"); any other noun a render sets
# after two names ("Hesketh's stall", "Ilse's locker") is a kind noun of that render, read away as it is.
OWNED_PLACES = "place|spot|position|seat|chair|desk|bench|table|counter"
_OWNED = frozenset(OWNED_PLACES.split("|")) | frozenset("left right side count total value number stock supply inventory "
                   "amount tally status contents content balance holdings reserves store collection score reading level "
                   "headcount".split())
_OWNED_ADJ = frozenset("final initial starting ending current first last item relative".split())
# A plural's possessive of what a possessive may own ("the Otters' score", "the Hawks' final score") is its "'s"
# ("the Otters's score"), read as every possessive is; before any other word it is dropped as before ("the Carvers'
# guild" is the Carvers, as "the Carvers guild"); and never where a single quote opens a word ("the team called
# 'the Otters' scores"): the mark may close a quotation there.
_PLURAL_OWNER = re.compile(r"(?<=[A-Za-z]s)['’](?=\s+(?:" + "|".join(sorted(_OWNED | _OWNED_ADJ)) + r")\b)")
_OPENING_QUOTE = re.compile(r"(?:^|[\s(\[])['‘’]")
# Words that add nothing to what a sentence claims ("Felix is also not a Fletcher", "Ivan is not, in fact, a
# Smith"): read away in sentences and phrasings alike.
FILLERS = tuple(tuple(f.split()) for f in sorted((
    "also", "too", "indeed", "actually", "certainly", "definitely", "clearly", "surely", "truly", "likewise",
    "similarly", "as well", "in fact", "as it happens", "of course", "in turn", "as a matter of fact", "in addition",
    "additionally", "furthermore", "moreover", "meanwhile", "for its part", "for their part", "in the meantime",
    "however", "though", "nonetheless", "nevertheless", "by contrast", "in contrast", "on the other hand", "herself",
    "himself", "themselves", "itself", "for one", "without exception", "proudly", "happily", "officially",
    "currently", "still", "at present", "in truth", "for sure", "for 1", "for certain", "undeniably",
    "unquestionably", "beyond doubt", "no doubt", "as it turns out"),
    key=lambda f: -len(f.split())))
_FILLER_HEADS = frozenset(f[0] for f in FILLERS)
_START_VERBS = frozenset("starts begins opens".split())
_MORE = (("another",), ("an", "extra"), ("an", "additional"), ("a", "further"), ("a", "further"))


_SINGLE_FILLERS = frozenset(f[0] for f in FILLERS if len(f) == 1)
# A story tells its facts in the past ("Keiko was standing left of Mira", "the Barn had 6 items"): each past
# or perfect form of a verb the phrasings say is read as its present, so every phrasing reads in the past too.
# Only forms that are never a participle of a passive the phrasings hold ("is sent", "is counted" stay).
_PAST = {("was",): ["is"], ("were",): ["are"], ("stood",): ["stands"], ("sat",): ["sits"], ("had",): ["has"],
         ("came",): ["comes"], ("ended",): ["ends"], ("began",): ["begins"], ("belonged",): ["belongs"],
         ("differed",): ["differs"], ("equaled",): ["equals"], ("equalled",): ["equals"], ("gained",): ["gains"],
         ("gave",): ["gives"], ("took",): ["takes"], ("lay",): ["lies"], ("waited",): ["waits"],
         ("has", "been"): ["is"], ("have", "been"): ["are"], ("has", "always", "been"): ["is"],
         ("have", "always", "been"): ["are"], ("has", "never", "been"): ["is", "never"],
         ("have", "never", "been"): ["are", "never"], ("has", "long", "been"): ["is"], ("had", "been"): ["is"],
         ("had", "never", "been"): ["is", "never"], ("had", "always", "been"): ["is"],
         ("turns", "out", "to", "be"): ["is"], ("turn", "out", "to", "be"): ["are"], ("turned", "out", "to", "be"): ["are"],
         ("happens", "to", "be"): ["is"], ("happen", "to", "be"): ["are"], ("proves", "to", "be"): ["is"],
         ("prove", "to", "be"): ["are"], ("known", "to", "be"): [],
         ("completely", "empty"): ["empty"], ("entirely", "empty"): ["empty"], ("totally", "empty"): ["empty"]}
# A simple past that is also a participle ("added", "removed", "counted"): the present only where no auxiliary
# comes before it in the sentence ("The Hopper received 7 items", "Nico counted among the Bakers"; "7 items are
# added to", "Nico is not counted among", "The Cistern has 7 items added" stay).
_SIMPLE_PAST = {w: p for w, p in (pair.split(":") for pair in (
    "received:receives added:adds got:gets went:goes rose:rises lost:loses dropped:drops started:starts "
    "contained:contains held:holds sold:sells removed:removes delivered:delivers brought:brings sent:sends "
    "grew:grows fell:falls increased:increases decreased:decreases shrank:shrinks collected:collects "
    "acquired:acquires obtained:obtains spent:spends shipped:ships moved:moves carried:carries loaded:loads "
    "unloaded:unloads counted:counts included:includes numbered:numbers ranked:ranks kept:keeps "
    "withdrew:withdraws donated:donates handed:hands discarded:discards consumed:consumes earned:earns "
    "picked:picks took:takes gave:gives dipped:dips climbed:climbs jumped:jumps declined:declines did:does "
    "opened:opens kicked:kicks emptied:empties remained:remains stored:stores finished:finishes").split())}
_AUX = frozenset("is are be been being get gets has have does do".split())   # "How does X placed": a participle
_PAST_BY_HEAD: dict[str, list[tuple[str, ...]]] = {}   # each form by its first word, longest first
for _k in sorted(_PAST, key=len, reverse=True):
    _PAST_BY_HEAD.setdefault(_k[0], []).append(_k)
_PAST_HEADS = frozenset(_PAST_BY_HEAD) | frozenset(_SIMPLE_PAST)


def _present(words: list[str]) -> list[str]:
    """The words with each past or perfect form (`_PAST`) as its present."""
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        if words[i] in _SIMPLE_PAST and _AUX.isdisjoint(out):
            out.append(_SIMPLE_PAST[words[i]])
            i += 1
        elif words[i] in _PAST_BY_HEAD:
            for k in _PAST_BY_HEAD[words[i]]:
                if k[0] == "known" and out[-1:] not in (["is"], ["are"]):   # "is known to be" is "is", never "is not"
                    continue
                if len(k) == 1 or tuple(words[i:i + len(k)]) == k:
                    out += _PAST[k]
                    i += len(k)
                    break
            else:
                out.append(words[i])
                i += 1
        else:
            out.append(words[i])
            i += 1
    return out


# Articles before a name and fillers of several words, read away by one regex over the line (the check's hot
# path: most sentences hold "the" or "of", few hold anything else this reads away).
_PLAIN = re.compile(r" (?:the|a|an|our)(?= @)| (?:" + "|".join(" ".join(f) for f in FILLERS if len(f) > 1) + r")(?= |$)")
_RARE = frozenset({"'s", "exactly", "precisely", "empty", "another", "extra", "additional", "further"})


def _defill(words: list[str]) -> list[str]:
    """The words without fillers (a phrasing's options are read as sentences are)."""
    line = _PLAIN.sub("", " " + " ".join(words)) if len(words) > 1 else " " + " ".join(words)
    return [w for w in line.split() if w not in _SINGLE_FILLERS]


def normalize(words: list[str], number: bool = True) -> list[str]:
    """A marked line in its plain form, for phrasings and sentences alike: no article before a name
    (`the @3`), a possessive as its "of" form (`@3 's left` -> `the left of @3`; `... of @3 's` -> `of @3`),
    no filler ("also", "in fact"), "exactly" and "another" before a number dropped (every fact's number is
    exact and says how many more), "empty" as 0 items."""
    words = _PLAIN.sub("", " " + " ".join(words)).split()
    if not _PAST_HEADS.isdisjoint(words):
        words = _present(words)
    if not _SINGLE_FILLERS.isdisjoint(words):
        words = [w for w in words if w not in _SINGLE_FILLERS]
    if _RARE.isdisjoint(words):
        return words
    return _rare(words, number)


def _rare(words: list[str], number: bool) -> list[str]:
    """Possessives, "exactly" and "another" before a number, "empty": a loop over the words, for the few
    sentences that hold one."""
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        nxt = words[i + 1] if i + 1 < n else ""
        if w in _ARTICLES and (nxt[:1] == "@" or nxt == "{"):
            i += 1
            continue
        if number and (w in ("exactly", "precisely") or (w,) in _MORE) and (nxt.isdigit() or nxt == "{"):
            i += 1
            continue
        if number and (w, nxt) in _MORE and i + 2 < n and (words[i + 2].isdigit() or words[i + 2] == "{"):
            i += 2
            continue
        if w == "empty" and out and out[-1] in ("is", "sits", "stands", "remains"):
            out[-1:] = ["has", "0", "items"]
            i += 1
            continue
        if w == "empty" and out and (out[-1] in _START_VERBS or out[-2:] in (["starts", "out"], ["starts", "off"])):
            out += ["with", "0", "items"]
            i += 1
            continue
        if w == "'s" and out and out[-1][:1] == "@":
            j = i + 1
            while j < n and words[j] in _OWNED_ADJ:
                j += 1
            if j < n and words[j] in _OWNED:
                end = j + 1
                if words[j] in ("left", "right"):
                    end += words[end:end + 1] == ["hand"]
                    end += words[end:end + 1] == ["side"]
                elif words[end:end + 2] == ["of", "items"]:
                    end += 2
                owner = out.pop()
                out += ["the", *words[i + 1:end], "of", owner]
                i = end
                continue
            if j == n or words[j] in ("is", "does", "in", "and", "or"):   # "left of Lucia's", "than Fabian's is"
                i += 1
                continue
        out.append(w)
        i += 1
    return out


class _Part(NamedTuple):
    slot: int | None                 # an argument slot, or None
    options: tuple[str, ...]         # the words (one option), or the choices
    optional: bool


_PART = re.compile(r"\{(\d)\}|\(([^()\[\]]*)\)|\[([^()\[\]]*)\]|([^\s(){}\[\]]+)")


@lru_cache(maxsize=4096)   # a family's phrasings are few and said once per premise: parse each once
def parse_phrasing(phrasing: str) -> tuple[_Part, ...]:
    """The parts of a phrasing; a malformed one (an optional opening, text outside any part) is an error."""
    parts, pos = [], 0
    for m in _PART.finditer(phrasing):
        if phrasing[pos:m.start()].strip():
            raise ValueError(f"phrasing {phrasing!r}: cannot read {phrasing[pos:m.start()]!r}")
        pos = m.end()
        slot, choice, optional, word = m.groups()
        if slot is not None:
            parts.append(_Part(int(slot), (), False))
        elif word is not None:
            parts.append(_Part(None, (word,), False))
        else:
            options = tuple(o.strip() for o in (choice if choice is not None else optional).split("|"))
            if not all(options):
                raise ValueError(f"phrasing {phrasing!r}: an empty choice")
            parts.append(_Part(None, options, optional is not None))
    if phrasing[pos:].strip() or not parts or (parts[0].optional and len(parts) == 1):
        raise ValueError(f"phrasing {phrasing!r}: empty, or only an optional part")
    return tuple(parts)


def _alternation(options: Sequence[str]) -> str:
    return "|".join(" ".join(map(re.escape, tokens(o))) for o in options)


def _strip_article(option: str) -> str:
    words = option.split()
    return " ".join(words[:-1] if words and words[-1] in _ARTICLES else words)


def plain_parts(parts: Sequence[_Part], kinds: Sequence[str]) -> list[_Part]:
    """A phrasing's parts as `normalize` reads a sentence: no article right before a name slot."""
    out: list[_Part] = []
    for k, p in enumerate(parts):
        if p.slot is None:   # fillers read away, as `normalize` does in a sentence
            kept = [" ".join(_defill(o.split())) for o in p.options]
            if not any(kept):
                continue
            if kept != list(p.options):
                p = _Part(None, tuple(dict.fromkeys(o for o in kept if o)), p.optional or "" in kept)
        nxt = parts[k + 1] if k + 1 < len(parts) else None
        if p.slot is None and nxt is not None and nxt.slot is not None and kinds[nxt.slot] == "name":
            stripped = [_strip_article(o) for o in p.options]
            options = tuple(dict.fromkeys(o for o in stripped if o))
            if not options:
                continue
            p = _Part(None, options, p.optional or "" in stripped)
        out.append(p)
    return out


def reader_regex(phrasing: str, kinds: Sequence[str], openers: Sequence[str] = (),
                 tails: Sequence[str] = ()) -> re.Pattern[str]:
    """The compiled reading of a phrasing (see `_reader_regex`), made once per phrasing, kinds, openers and tails:
    a family's readers (a fresh one per test, per worker) share them."""
    return _reader_regex(phrasing, tuple(kinds), tuple(openers), tuple(tails))


@lru_cache(maxsize=4096)
def _reader_regex(phrasing: str, kinds: tuple[str, ...], openers: tuple[str, ...] = (),
                  tails: tuple[str, ...] = ()) -> re.Pattern[str]:
    """The regex over `" " + " ".join(normalized marked tokens)` that reads this phrasing: a name slot
    matches a name mark `@k`, an integer slot digits; group `sI` holds slot I. `openers` may come before
    it and `tails` after it (read, never written)."""
    # up to two openers ("First, note that ..."): every phrasing takes any pair of them
    opened = f"(?: (?:{_alternation(openers)})){{0,2}}" if openers else ""
    return re.compile(opened + reader_body(phrasing, kinds, tails))


def reader_body(phrasing: str, kinds: Sequence[str], tails: Sequence[str] = ()) -> str:
    """A phrasing's regex without its openers (see `_reader_regex`)."""
    out, seen = "", set[int]()
    for p in plain_parts(parse_phrasing(phrasing), kinds):
        if p.slot in seen:   # a slot said twice ("is X left of Y or right of Y"): the same mark again
            out += f" @(?P=s{p.slot})" if kinds[p.slot] == "name" else f" (?P=s{p.slot})"
        elif p.slot is not None:
            seen.add(p.slot)
            out += f" @(?P<s{p.slot}>\\d+)" if kinds[p.slot] == "name" else f" (?P<s{p.slot}>\\d+)"
        else:
            body = _alternation(p.options)
            out += f"(?: (?:{body}))?" if p.optional else f" (?:{body})"
    if tails:
        out += f"(?: (?:{_alternation(tails)}))?"
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def writer_pattern(phrasings: Sequence[str], spelled: Sequence[str], openers: Sequence[str] = (),
                   end: str = ".") -> str:
    """A bounded pattern (JSON schema `pattern`) that admits exactly the sentences of these phrasings
    with the arguments spelled as given: an optional opener, one phrasing, the end mark."""
    bodies = []
    for phrasing in phrasings:
        out, sep = "", ""   # sep: what stands before the next part (an optional opening carries its space)
        for i, p in enumerate(parse_phrasing(phrasing)):
            if p.slot is not None:
                out += sep + re.escape(spelled[p.slot])
            else:
                options = [re.escape(_cap(o) if i == 0 else o) for o in p.options]
                if i == 0 and p.optional:
                    out += "(" + "|".join(o + " " for o in options) + ")?"
                    continue   # the next part needs no space before it
                elif p.optional:
                    out += "(" + "|".join(" " + o for o in options) + ")?"
                else:
                    out += sep + "(" + "|".join(options) + ")"
            sep = " "
        bodies.append(out)
    opener = "((" + "|".join(re.escape(_cap(o)) for o in openers) + "), )?" if openers else ""
    return f"{opener}({'|'.join(bodies)}){re.escape(end)}"


def say(phrasing: str, spelled: Sequence[str], rng: random.Random | None = None, end: str = ".",
        capital: bool = True) -> str:
    """A sentence of this phrasing: its first choices and no optional part (the canonical one), or,
    with `rng`, random choices (how tests make paraphrases)."""
    if rng is None:
        form, cap = _canonical(phrasing, end, capital)
        text = form.format(*spelled)
        return _cap(text) if cap else text
    words, parts = [], parse_phrasing(phrasing)
    for p in parts:
        if p.slot is not None:
            words.append(spelled[p.slot])
        elif rng is None:
            if not p.optional:
                words.append(p.options[0])
        elif not p.optional or rng.random() < 0.5:
            words.append(rng.choice(p.options))
    text = " ".join(words)
    # a name stays as given (equality's variables are lower case)
    return (_cap(text) if capital and (parts[0].slot is None or parts[0].optional) else text) + end


@lru_cache(maxsize=4096)
def _canonical(phrasing: str, end: str, capital: bool) -> tuple[str, bool]:
    """The canonical sentence of a phrasing as a format string of its words and slots, e.g. "The {0} is left
    of {1}.", made once per phrasing (the template says one per premise), and whether the spelled sentence's
    first letter is still to capitalize (it starts with a slot)."""
    every = parse_phrasing(phrasing)
    parts = [p for p in every if p.slot is not None or not p.optional]
    pieces = [f"{{{p.slot}}}" if p.slot is not None else p.options[0].replace("{", "{{").replace("}", "}}")
              for p in parts]
    cap = capital and (every[0].slot is None or every[0].optional)
    if cap and parts[0].slot is None:   # the sentence begins with a word: capitalized here, once
        pieces[0], cap = _cap(pieces[0]), False
    return " ".join(pieces) + end.replace("{", "{{").replace("}", "}}"), cap


@dataclass(frozen=True)
class Wording:
    """What a family's sentences may say, per predicate; the first phrasing of each is the canonical
    one (the template's and the prompt's, unless `template` names another)."""

    facts: Mapping[str, tuple[str, ...]]          # fact predicate -> its phrasings
    questions: Mapping[str, tuple[str, ...]]      # query predicate -> its phrasings
    negative: frozenset[str] = frozenset()        # predicates that negate (a sentence of one holds a negation)
    opposites: Mapping[str, str] = field(default_factory=dict)   # polarity pairs, both ways
    symmetric: frozenset[str] = frozenset()       # predicates whose arguments may come in either order
    openers: tuple[str, ...] = ()                 # openers a premise may start with (written and read)
    # predicate -> ((what it would say, words that say it), ...): where one of the words stands in a
    # sentence that does not read whole, the sentence says that instead (a decrease in an increment).
    cues: Mapping[str, tuple[tuple[str, frozenset[str]], ...]] = field(default_factory=dict)
    # predicate -> (its direction words, its converse's): with the fact's arguments in the fact's order,
    # a converse word (and no direction word) reverses it; in the other order, a direction word does.
    directions: Mapping[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    ordered_question: bool = False                # the question's symbols must come in the query's order
    intro: str = ""                               # the template's opening line
    intro_hints: frozenset[str] = frozenset()     # words that, beside a name in an intro, hint at the answer
    template: Mapping[str, str] = field(default_factory=dict)      # predicate -> the template's phrasing
    template_question: str = ""                   # the template's question, verbatim, when not the canonical one
    template_end: str = "."                       # how the template ends a premise
    # label -> what it means, over the query's arguments: the line after the question is ours.
    definitions: Mapping[str, str] = field(default_factory=dict)
    lettered: bool = False                        # the options are listed after the question, lettered A, B, ...
    # What a renderer told to invent its own words is told of the family's numbers, where the check refuses a
    # common way of saying them (a counter's amount as a measure: "96 liters" is no count of items)
    prompt_note: str = ""
    # Read, never written (the patterns a server is held to stay as they were): more phrasings per fact
    # predicate and per query, and openers per fact predicate ("finally" before an update, never a start).
    reads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    question_reads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    read_openers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    question_cues: tuple[tuple[str, frozenset[str]], ...] = ()   # words that make a question ask another thing
    # runs of words whose cue word the grammar is not sure of: a sentence with one and no other cue is unread, not
    # misread ("In the end, Nora gains 94" may say the last change or the sum of every change)
    unsure: tuple[tuple[str, ...], ...] = ()
    fact_tails: tuple[str, ...] = ()              # what may follow any fact and say nothing more ("in the row")
    no_final_openers: frozenset[str] = frozenset()   # fact predicates that "Finally," may not open (a start)
    # A question about a final value may sit in words of its end ("once every step is done"): where a run of
    # only these words opens or closes it, after one of `context_starts`, it is read away.
    context_words: frozenset[str] = frozenset()
    context_starts: frozenset[str] = frozenset()
    # Words that negate in this family beside `NEGATIONS` ("excluded", "absent", "∉" for a membership): a sentence of
    # a negative fact that holds one is not taken for one that holds no negation.
    negations: frozenset[str] = frozenset()
    # Nouns the grammar reads after a category's name ("the Drifters class", "the Ostrand family") that a render may
    # also set after a member's name as its kind ("the Thistlecrown card"): there read away where the render shows
    # them after two or more members' names (rendering's kind nouns)
    member_nouns: frozenset[str] = frozenset()
    # A family's own rewrite of a sentence's read words before its phrasings are tried (predicate or query, words):
    # words that wrap a name and say nothing more ("the count at the north gate" as the north gate)
    rewrite: Callable[[str, list[str]], list[str]] | None = None

    def canonical_template(self, predicate: str) -> str:
        """The phrasing the template writes for a fact predicate (the canonical one, unless `template` says)."""
        return self.template.get(predicate) or self.facts[predicate][0]

    def question(self, predicate: str, spelled: Sequence[str]) -> str:
        """The canonical question of a query, arguments spelled."""
        return say(self.questions[predicate][0], spelled, end="?")

    def answer_line(self, spelled: Sequence[str], labels: Sequence[str]) -> str:
        """What each label means, spelled from the query, or the options lettered (empty where labels
        say it themselves)."""
        if self.lettered:
            return "\n".join(f"{chr(65 + i)}. {label}" for i, label in enumerate(labels))
        if not self.definitions:
            return ""
        said = [f"{label} if {say(self.definitions[label], spelled, end='', capital=False)}" for label in labels]
        return "Answer " + ", ".join(said[:-1]) + ", or " + said[-1] + "."
