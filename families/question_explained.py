"""A question read as its core ask and its labels' clauses (families/label_explain.py finds them): the core must ask
the query, and each clause, with what it leaves implicit said again (its pronouns, "there", an elided complement, a
frame of entailment, a modal), must mean its label."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from families.ask_forms import scene_opened
from families.counted import MEASURES
from families.label_clauses import framed_away, plain, unsettled
from families.label_explain import explained
from families.label_pronouns import label_pair, pair_kind_away, pair_named
from families.option_lists import counted_as_items
from families.question_cases import LabelCases
from families.question_words import READ, QVerdict, resolved, said, unsettled_words
from families.wording import normalize

if TYPE_CHECKING:
    from families.reading import Fact, Marked

_OTHERWISE = frozenset({("otherwise",), ("else",), ("in", "any", "other", "case"), ("in", "all", "other", "cases"),
                        ("if", "neither"), ("if", "not")})
_SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they"})
_AUX = frozenset({"is", "are", "does", "do", "was"})
_PLACES = frozenset({"in", "on", "at", "under", "inside", "within", "among", "into", "onto", "to"})


# Verbs of a count's end value ("ends at 141", "finishes on 141"): asked back as "what value does X end with"
_ENDS_AT = frozenset("ends finishes closes settles lands stops end finish close settle land stop".split())


class Explaining(LabelCases):
    """A question of a core ask and a label explanation segmented on its labels."""

    def _explained(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                   labels: tuple[str, ...], asked: Callable[[str], QVerdict]) -> QVerdict | None:
        """`read` where the core asks the query and every clause means its label, `misread` where the core asks
        another thing or a clause means another label's meaning; None where the question is not of this shape or
        something of it reads as nothing (the other readings then try it). `asked` reads the core as a question."""
        ex = explained(text, labels)
        if ex is None:
            return None
        core = asked(ex.core)
        if core.kind == "unread" and self.r.counts and counted_as_items(ex.core) != ex.core:
            core = asked(counted_as_items(ex.core))
        ask = scene_opened(ex.core, marked) if core.kind == "unread" else None
        if ask is not None:   # "Seen from the photographer's position, is A ...?": the scene read away
            core = asked(ask)
        if core.kind == "misread":
            return core
        core_words = normalize(marked.words(ex.core))
        unread, before = core.kind != "read", None
        for label, clause in ex.clauses:
            words = normalize(marked.words(clause))
            got = self._clause_meaning(words, label, query, marked, types, core_words, before)
            want = ("final", label) if self.r.counts else self._label_meaning(label, query, marked, types)
            if got is None or want is None:
                unread = True
            elif got != want:
                return QVerdict("misread", f"says {label} means {said(got)}, where it means {said(want)}")
            before = (label, words) if any(w[:1] == "@" for w in words) else before   # the last clause said whole
        return None if unread else READ

    def _clause_meaning(self, words: list[str], label: str, query: Fact, marked: Marked, types: Mapping[str, str],
                        core: list[str], before: tuple[str, list[str]] | None) -> object:
        """What one label's clause means: "not settled", the facts it says (the query's or its opposite), a final
        value; None where it reads as nothing."""
        if tuple(words) in _OTHERWISE or unsettled(words) or tuple(words) in unsettled_words() or \
                self._unsettled_whether(words, label, query, marked, types):
            return "not settled"
        if self.r.counts:
            return self._final_said(words, query, marked, types, core, before)
        held = self._affirmed(words, query, marked, frozenset(core))
        if held is not None:
            return held
        bare = plain(framed_away(words))
        if bare is None:
            return None
        readings = [bare] + resolved(bare, query, marked)
        pair = label_pair(label, marked, types) if label not in self.r.wording.definitions else None
        named = pair_named(framed_away(words), pair) if pair is not None else None   # '"r != h" means they differ'
        if named is not None and (named := plain(named)) is not None:   # the pair plural: "the two must differ"
            readings.append(named)
        kinds: frozenset[str] = getattr(marked, "kinds", frozenset())   # "the Hollis and Kestrel parcels": the render's kind noun
        readings += [away for r in list(readings) if kinds and (away := pair_kind_away(r, kinds)) is not None]
        readings += [there for r in readings if (there := _there(r, core, query, marked)) is not None]
        got = self._meaning(readings, marked, types)
        return got if got is not None else self._asked_back(readings, query, marked, types)

    def _unsettled_whether(self, words: list[str], label: str, query: Fact, marked: Marked,
                           types: Mapping[str, str]) -> bool:
        """ "it cannot be determined whether Kiri is a mistpiper [or not]": not settled, of what another label means
        (the query's fact or its opposite); of anything else it says nothing (False)."""
        k = next((k for k, w in enumerate(words) if w in ("whether", "if") and k), None)
        if k is None or not (tuple(words[:k]) in unsettled_words() or unsettled(words[:k])):
            return False
        tail = words[k + 1:-2] if words[-2:] == ["or", "not"] else words[k + 1:]
        got = self._meaning(resolved(tail, query, marked), marked, types) if tail else None
        others = [other for other in self.r.wording.definitions if other != label]
        return got is not None and any(got == self._label_meaning(o, query, marked, types) for o in others)

    def _asked_back(self, readings: list[list[str]], query: Fact, marked: Marked, types: Mapping[str, str]
                    ) -> object:
        """A clause the fact grammar does not read, turned back into the question it answers ("@0 is not listed in
        @1" -> "is @0 listed in @1"): the query (or its opposite, with one "not") where that asks the query."""
        r = self.r
        opposite = r.wording.opposites.get(query[0])
        if opposite is None or query[0] not in r.facts:
            return None
        for words in readings:
            if len(words) < 3 or words[0][:1] != "@" or words[1] not in _AUX:
                continue
            rest = words[2:]
            negated = rest[:1] == ["not"]
            if negated:
                rest = rest[1:]
            if "not" in rest:
                continue
            if self._asks([words[1], words[0]] + rest, query, marked, types) == READ:
                return frozenset({r.norm((opposite, query[1]) if negated else query)})
        return None

    def _final_said(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str], core: list[str],
                    before: tuple[str, list[str]] | None) -> object:
        """A counter's clause ("North Depot ends with 147 crates", "there are 124", "it ends with 149"): ("final", N)
        where it says the queried counter ends with N, asked back as the question of its final value."""
        numbers = [w for w in words if w.isdigit()]
        if len(numbers) != 1:
            return None
        if not any(w[:1] == "@" for w in words) and before is not None:   # "124 means there are 124": as the one before
            prior_label, prior = before
            again = [numbers[0] if w == prior_label else w for w in prior]
            if again[:len(words)] == words:
                words = again
        n = words.index(numbers[0])
        if n == 0 and len(words) <= 2 and all(w.isalpha() and w not in MEASURES for w in words[1:]):
            return ("final", numbers[0])   # "128 means 128 sheep": the core's count, said with its number
        counter = marked.mark(query[1][0]) if query[1] and isinstance(query[1][0], str) else None
        head = [counter if w in _SUBJECT_PRONOUNS and counter else w for w in words[:n]]
        tail = words[n + 1:]
        if tail[:1] and tail[0].isalpha() and tail[0] not in _PLACES and tail[0] not in ("at", "by", "after", "once"):
            if tail[0] in MEASURES:
                return None
            tail = tail[1:]   # "147 crates": the counted noun
        if head[:1] == ["there"]:
            head = head[1:]
        asks = [["how", "many", "items"] + head + tail]
        if head[-1:] in (["is"], ["will", "be"]) and head[:-1]:
            asks.append(["what", "is"] + head[:-1] + tail)   # "the final count of @0 is 147"
        if len(head) > 2 and head[-2] in _ENDS_AT and head[-1] in ("at", "on", "with"):   # "the red ledger ends at 141"
            asks.append(["what", "value", "does"] + head[:-2] + ["end", "with"] + tail)
        if len(head) > 3 and head[-3] in _ENDS_AT and head[-2] == "up" and head[-1] in ("holding", "having", "with"):
            asks.append(["what", "value", "does"] + head[:-3] + ["end", "with"] + tail)   # "ends up holding 110"
        for ask in asks:
            got = self._asks(normalize(ask), query, marked, types)
            if got == READ:
                return ("final", numbers[0])
            if got is not None:
                return got.detail
        return None


def _there(words: list[str], core: list[str], query: Fact, marked: Marked) -> list[str] | None:
    """A clause with "there" (or "in it") as the query's object where the core says it after a preposition ("it must
    be listed there", the core asking "Is the Bone Flute listed in the Tallow Box?")."""
    obj = marked.mark(query[1][1]) if len(query[1]) > 1 and isinstance(query[1][1], str) else None
    if obj is None or obj not in core or "there" not in words:
        return None
    k = core.index(obj)
    place = core[k - 1] if k and core[k - 1] in _PLACES else "in"
    j = words.index("there")
    return words[:j] + [place, obj] + words[j + 1:]
