"""What the free-language rewrites of transitive_order, membership_inheritance and equality share: a rewrite
applied only to a sentence that reads as no fact as it stands, and the test of a plain word (no cue word)."""
from __future__ import annotations

from typing import Callable, Iterable

from families.wording import HEDGES, NEGATIONS

Rewrite = Callable[[list[str]], list[str]]
# Words a scene, kind or member noun never is: they say a side, an order, a negation, a hedge or adjacency.
CUE_WORDS = frozenset(
    "left right leftmost rightmost leftward rightward leftwards rightwards side hand end ends edge far front back "
    "middle centre center first last before after ahead behind of than next beside besides adjacent adjacently "
    "immediately directly just near nearby close touching neighbour neighbours neighbor neighbors alongside between "
    "same other another one ones some all every each any no none not only also too either or and but if then "
    "is are be was were been being it its their them they he she his her who which that what whom there here "
    # words of a turned view, which swap left and right ("seen to the left of Y in the mirror")
    "mirror mirrors mirrored reflection reflections reflected reverse reversed inverted upside flipped flip backwards "
    "backward opposite facing rear negative "
    # words of time and frequency, which weaken or date a claim ("usually", "once", "formerly")
    "often sometimes seldom once twice always ever usually formerly mostly partly rather quite somewhat sometime "
    "previously later earlier soon now then still yet already until since except but "
    # prepositions and auxiliaries: words of a clause, never a noun of the story's own
    "on in at by with from for to into onto under over along across through within inside among amid as like per via "
    "upon around toward towards beyond past off out up down has have had do does did can will would shall should "
    "must was whose whom this these those such so".split()) | HEDGES | NEGATIONS


def plain(word: str, stop: frozenset[str] = frozenset()) -> bool:
    """A plain word of the story's own (a scene, a kind, a member noun): letters only, no name, no cue word, no
    adverb (-ly: "usually", "formerly" date or weaken a claim)."""
    return word.isascii() and word.isalpha() and not word.endswith("ly") and word not in CUE_WORDS and word not in stop


def s_form(word: str) -> str:
    """A word's -s form by English spelling: a noun's plural, a verb's third person ("box" -> "boxes", "fly" ->
    "flies", "sit" -> "sits")."""
    if word.endswith(("sh", "ch", "s", "x", "z")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    return word + "s"


def third_person(verbs: Iterable[str]) -> frozenset[str]:
    """Each verb's third person singular ("sit" -> "sits", "perch" -> "perches", "fly" -> "flies")."""
    return frozenset(map(s_form, verbs))


def progressive(verbs: Iterable[str]) -> frozenset[str]:
    """Each verb's -ing form ("sit" -> "sitting", "rest" -> "resting", "lie" -> "lying", "hover" -> "hovering")."""
    out = set()
    for v in verbs:
        if v.endswith("ie"):
            out.add(v[:-2] + "ying")
        elif v.endswith("e") and not v.endswith(("ee", "ye")):
            out.add(v[:-1] + "ing")
        elif len(v) > 2 and v[-1] in "bdgmnpt" and v[-2] in "aeiou" and v[-3] not in "aeiou" and v not in _NO_DOUBLE:
            out.add(v + v[-1] + "ing")
        else:
            out.add(v + "ing")
    return frozenset(out)


_NO_DOUBLE = frozenset("open happen listen visit hover anchor moor berth".split())


class WhereUnread:
    """A family's `Wording.rewrite`: a fact's sentence that reads as no fact as it stands is rewritten; one that
    reads as any (its own, or another: a misreading) stays as it is, so no reading of before changes."""

    def __init__(self, family: str, rewrite: Rewrite):
        self.family, self.rewrite = family, rewrite

    def __call__(self, predicate: str, words: list[str]) -> list[str]:
        from families.reading import reader  # the reader is built of this family's wording: asked at read time
        if predicate not in reader(self.family).facts or reader(self.family).reads_any(" " + " ".join(words)):
            return words
        return self.rewrite(words)

    def mistyped(self, predicate: str, words: list[str]) -> list[str]:
        """The words rewritten where they read only with a name in a slot of another type ("Rhea has the Mesa
        badge" against "{1} has {0}", a category having a member): as a sentence that reads as no fact."""
        from families.reading import reader
        return self.rewrite(words) if predicate in reader(self.family).facts else words


def only_where_unread(family: str, rewrite: Rewrite) -> WhereUnread:
    """A family's rewrite, applied only where a sentence reads as no fact as it stands (`WhereUnread`)."""
    return WhereUnread(family, rewrite)


# Vessels a thing is named by ("the jar of Brine Pearls"): the thing itself.
VESSELS = frozenset("jar jars bottle bottles box boxes crate crates tin tins can cans pot pots bag bags sack sacks barrel "
                    "barrels cask casks basket baskets tray trays bowl bowls flask flasks vial vials carton cartons "
                    "packet packets".split())




def apposed(words: list[str], verbs: frozenset[str] = frozenset()) -> list[str]:
    """The words without a noun said alike beside two names ("Box n and box r", "Bluebird cottage is left of Sundew
    cottage") or a vessel a name is in ("the jar of Brine Pearls"). A word before one name alone is never read away:
    it may be a noun ("the painting Blue Ferry") or a word that changes who is meant ("the former Weavers", "the
    late Osei"), and nothing in one sentence tells which. `verbs`: a family's verbs, never a noun ("who attend X
    also attend Y")."""
    marks = [k for k, w in enumerate(words) if w[:1] == "@"]
    before = [words[k - 1] for k in marks if k and plain(words[k - 1], verbs) and not words[k - 1].endswith(("s", "ed"))]
    # (a word beside a name ending in -s or -ed may be a verb: "the hammock costs what the mirror costs", "every
    # scout who holds the Lantern badge also holds ...")
    after = [words[k + 1] for k in marks if k + 1 < len(words) and plain(words[k + 1]) and not words[k + 1].endswith(("s", "ed"))]
    pre = {w for w in before if before.count(w) > 1}
    post = {w for w in after if after.count(w) > 1}
    out: list[str] = []
    k = 0
    while k < len(words):
        w = words[k]
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if (w in pre and nxt[:1] == "@") or (w in post and k and words[k - 1][:1] == "@"):
            k += 1
            continue
        if out[-1:] == ["the"] and w in VESSELS and nxt == "of" and words[k + 2:k + 3] and words[k + 2][:1] == "@":
            out.pop()   # "the jar of Brine Pearls"
            k += 2
            continue
        out.append(w)
        k += 1
    return out
