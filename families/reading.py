"""Reading a render's sentences back into facts by the family's wording: each premise reads as its fact
(`read`), as another fact or with words that contradict it (`misread`), or as nothing (`unread`).

Deterministic, no model. A premise is `read` only when the whole sentence is one phrasing of its own
fact, arguments in place; it is `misread` when it is one phrasing of another fact (reversed, negated,
another predicate or number) or, not reading whole, holds a word that says otherwise (a negation in a
positive fact, a decrease word in an increment, the converse direction word with the fact's arguments
in the fact's order); else `unread`.
"""
from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Mapping, NamedTuple, Sequence

from families import two_claims
from families.counted import as_items, vocabulary
from families.family import Family
from families.free_forms import WhereUnread
from families.ir import INTEGER, Argument
from families.opened import Reading, reader_pattern
from families.questions import QuestionReader, QVerdict
from families.wording import (
    FINAL_OPENERS,
    NEGATIONS,
    NOT_THE_CASE,
    NUMBER_AFTER,
    NUMBER_BEFORE,
    READ_OPENERS,
    WORD_NAMES,
    hedges,
    normalize,
    tokens,
)

Fact = tuple[str, tuple[Argument, ...]]   # (predicate, arguments): symbols and integers
Grammar = Mapping[str, Sequence[Reading]]   # predicate -> the readings of its phrasings
Matches = tuple[tuple[str, tuple[int, ...]], ...]   # (predicate, slot values) of each phrasing that reads a line
# a fact's symbols as (mark place, type), for `Reader._reads`; as (name, type), for `Reader._named`
# (integers stand as themselves; `type(a) is str` picks the symbols, which leaves mypy an Argument)
ReadKey = tuple[str, str, tuple[tuple[int, str | None] | Argument, ...]]
NamedKey = tuple[str, str, tuple[tuple[str, str] | Argument, ...]]
_MEMO = 1 << 16            # marked lines (and their readings) remembered per family
# Texts that read, remembered per family: fewer, as a model's texts rarely repeat (each entry holds its
# text); a template's do, and a family's template texts number a few thousand.
_NAMED_MEMO = 1 << 14


class Verdict(NamedTuple):
    """How a sentence reads: `read`, `misread` (with what it says instead) or `unread`."""

    kind: str
    detail: str = ""


# Names come from small pools, and a template's sentences repeat (93 to 98% of them in three families):
# each is tokenized once.
@lru_cache(maxsize=1 << 15)
def _words(text: str) -> tuple[str, ...]:
    return tuple(tokens(text))


READ = Verdict("read")


@lru_cache(maxsize=1 << 12)   # a render's category names come from small pools
def number_variant(spelled: tuple[str, ...]) -> tuple[str, ...] | None:
    """A one-word category name in the other number: Gardeners -> Gardener, Glaziers -> Glazier, Baker -> Bakers."""
    if len(spelled) > 1:   # "Chess Players": the last word's number ("a Chess Player")
        last = number_variant(spelled[-1:])
        return None if last is None else spelled[:-1] + last
    if len(spelled) != 1 or len(spelled[0]) < 3 or not spelled[0].isalpha():
        return None
    w = spelled[0]
    if w.endswith("ies"):
        return (w[:-3] + "y",)
    if w.endswith(("sses", "ches", "shes", "xes")):
        return (w[:-2],)
    if w.endswith("s") and not w.endswith("ss"):
        return (w[:-1],)
    return (w + "es",) if w.endswith(("ss", "ch", "sh", "x", "z")) else (w[:-1] + "ies",) \
        if w.endswith("y") and w[-2] not in "aeiou" else (w + "s",)


def _other_plurals(w: str) -> tuple[tuple[str, ...], ...]:
    """The rarer plurals and singulars of a one-word name: frostleaf -> frostleaves, frostleaves -> frostleaf."""
    if w.endswith("f"):
        return ((w[:-1] + "ves",),)
    if w.endswith("fe"):
        return ((w[:-2] + "ves",),)
    if w.endswith("ves"):
        return ((w[:-3] + "f",), (w[:-3] + "fe",))
    if w.endswith("y") and len(w) > 3:   # "wemblys" for the wembly: a made-up word's plain plural
        return ((w + "s",),)
    if w.endswith("ys") and len(w) > 4:
        return ((w[:-1],),)
    if w.endswith("uses") and len(w) > 5:   # "All wumpuses are tumpuses" for the wumpus: -us takes -es
        return ((w[:-2],),)
    if w.endswith("us") and len(w) > 3:
        return ((w + "es",),)
    return ()


def _set_variants(spelled: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """A category's name in its other number, and both numbers without the article it was named with ("the
    scouts": "the scout", "scouts", "scout"; "Every scout is a lancer", "All coopers are tanners")."""
    bare = spelled[1:] if len(spelled) > 1 and spelled[0] in ("the", "a", "an") else None
    found = (number_variant(spelled), bare, number_variant(bare) if bare else None)
    last = (bare or spelled)[-1:]
    rarer = tuple((bare or spelled)[:-1] + p for p in _other_plurals(last[0])) if last and last[0].isalpha() else ()
    return tuple(v for v in found + rarer if v)


def _family(spelled: tuple[str, ...], name: str) -> tuple[tuple[str, ...], ...]:
    """A capitalized one-word name said as its family's, with its article ("the Oakleys", "the Joneses"), or none."""
    if len(spelled) != 1 or len(name) < 3 or not name[:1].isupper() or not name.isalpha():
        return ()
    word = spelled[0]
    return (("the", word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")),)


class Marked:
    """A render's names, each read as one mark (`@k`, k its symbol's place): sentences become words and marks.
    A category's name (a `Set`) is marked in the singular too ("every Gardener" for the Gardeners)."""

    def __init__(self, names: Mapping[str, str], types: Mapping[str, str] | None = None):
        self.names = names
        self.types = types
        self.symbols = list(names)
        self._spelled = [_words(n) for n in names.values()]
        sets = types if types is not None and "Set" in types.values() else None   # only a category has another number
        self._variants = [_set_variants(w) if sets.get(s) == "Set" else ()
                          for s, w in zip(self.symbols, self._spelled)] if sets is not None else []
        if types is not None and sets is None and set(types.values()) == {"Entity"}:
            # an order's one-word names said as a family's ("the Oakleys live left of the Kingsleys")
            self._variants = [_family(w, n) for w, n in zip(self._spelled, names.values())]
        spelled = [w for w in self._spelled if w] + [v for vs in self._variants for v in vs]
        ones = frozenset(w[0] for w in spelled) if all(len(w) == 1 for w in spelled) else frozenset()
        # The names' words when every name is one word and no two are the same word (the common case): a word
        # is then a name, and whose, by one lookup. None otherwise.
        self.name_words = ones if len(ones) == len(spelled) else None

    def narrowed(self, names: Mapping[str, str]) -> Marked:
        """The same reading of names, of these names only (a subclass keeps what it reads besides the names)."""
        return Marked(names, self.types)

    @cached_property
    def place(self) -> dict[str, int]:
        return {s: k for k, s in enumerate(self.symbols)}

    @cached_property
    def _marks(self) -> dict[tuple[str, ...], str]:
        marks = {v: f"@{k}" for k, vs in enumerate(self._variants) for v in vs}
        marks.update({w: f"@{k}" for k, w in enumerate(self._spelled) if w})   # a name itself wins over a variant
        return marks

    @cached_property
    def _lengths(self) -> list[int]:
        return sorted({len(w) for w in self._marks}, reverse=True)

    @cached_property
    def single(self) -> dict[str, str] | None:
        """Each name's word -> its mark, where `name_words` is known."""
        return None if self.name_words is None else {w[0]: m for w, m in self._marks.items()}

    def words(self, text: str) -> list[str]:
        """The words of `text`, each name (longest first) as its mark."""
        if self.single is not None:
            single = self.single
            return [single.get(t, t) for t in _words(text)]
        toks, out, i = _words(text), [], 0
        while i < len(toks):
            for n in self._lengths:
                mark = self._marks.get(tuple(toks[i:i + n]))
                if mark is not None:
                    out.append(mark)
                    i += n
                    break
            else:
                out.append(toks[i])
                i += 1
        return out

    def mark(self, symbol: str) -> str | None:
        return f"@{self.place[symbol]}" if symbol in self.place else None


class Reader:
    """One family's sentences, compiled once: every phrasing of every fact and query predicate."""

    def __init__(self, family: Family):
        self.family, self.wording = family, family.wording
        w = self.wording
        self.signatures = {**family.predicates, **family.queries}

        def kinds(sig: Sequence[str]) -> list[str]:
            return ["int" if t == INTEGER else "name" for t in sig]

        self.openers = {p: w.openers + READ_OPENERS + w.read_openers.get(p, ())
                        + (() if p in w.no_final_openers else FINAL_OPENERS) for p in w.facts}
        self.facts = {p: [reader_pattern(ph, kinds(family.predicates[p]), self.openers[p])
                          for ph in phs + w.reads.get(p, ())] for p, phs in w.facts.items()}
        # what may close any fact and say nothing more ("in the row"), as words, longest first: read away
        # (a set, and its lengths longest first: one lookup a length, however many tails a family composes)
        self._tails = frozenset(tuple(tokens(t)) for t in w.fact_tails)
        self._tail_lengths = sorted({len(t) for t in self._tails}, reverse=True)
        # the words before a closing "them" ("beside them"): a sentence whose name follows one may close in a tail
        self._before_them = frozenset(t[-2] for t in self._tails if len(t) > 1 and t[-1] == "them")
        # each predicate's openers as words, longest first: read away before a sentence's words are weighed
        self._opener_words = {p: sorted({tuple(tokens(o)) for o in ops}, key=len, reverse=True)
                              for p, ops in self.openers.items()}
        self.questions = {p: [reader_pattern(ph, kinds(family.queries[p]), READ_OPENERS) for ph in
                              phs + w.question_reads.get(p, ())] for p, phs in w.questions.items()}
        self.asked = QuestionReader(self)
        # where a phrasing counts "items", a count noun the model named reads as that word ("17 canoes")
        said = [ph for phs in (*w.facts.values(), *w.reads.values()) for ph in phs]
        said += [*w.fact_tails, *(o for ops in self.openers.values() for o in ops)]
        # a word a cue is sure of ("2 ends", "5 gains") is never a noun the model named
        known = vocabulary(said) | frozenset(c for table in w.cues.values() for _, cue in table for c in cue)
        # a family whose facts hold a number counts items (a question's counted noun is "items"); another family's
        # phrasings may say "items" too ("all items of the Kestrel collection")
        counting = "items" in known and any(INTEGER in sig for sig in family.predicates.values())
        self._known: frozenset[str] | None = known if counting else None
        self.counts = self._known is not None
        self._groups = {p: tuple(f"s{i}" for i in range(len(sig))) for p, sig in self.signatures.items()}
        self._memo: dict[tuple[int, str | None, str], Matches] = {}
        self._reads: dict[ReadKey, bool] = {}   # (marked line, predicate, (mark, type) of each argument) -> reads
        # (text, predicate, (name, type) of each argument) -> the text's other words, for a text that read
        # as its fact (`known`); the same for questions that read as their query
        self._named: dict[NamedKey, tuple[str, ...]] = {}
        self._named_questions: dict[NamedKey, tuple[str, ...]] = {}

    def counted(self, words: list[str]) -> list[str]:
        """The words with each count noun the model named as the phrasings' items word (a family that counts)."""
        return words if self._known is None else as_items(words, self._known)

    def _parses(self, table: Grammar, line: str, marked: Marked, types: Mapping[str, str],
                only: str | None = None) -> list[Fact]:
        out = []
        for pred, slots in self._matches(table, line, only):
            args: list[Argument] = []
            for t, v in zip(self.signatures[pred], slots):
                if t == INTEGER:
                    args.append(v)
                elif v < len(marked.symbols) and types.get(marked.symbols[v]) == t:
                    args.append(marked.symbols[v])
                else:
                    break
            else:
                out.append((pred, tuple(args)))
        return out

    def _matches(self, table: Grammar, line: str, only: str | None) -> Matches:
        """(predicate, slot values) of every phrasing that reads the whole marked line. Remembered: with
        names as marks, sentences repeat (the template's always do), and matching every phrasing is the
        check's main cost."""
        key = (id(table), only, line)
        hit = self._memo.get(key)
        if hit is None:
            hit = tuple((pred, tuple(int(m.group(g)) for g in self._groups[pred]))
                        for pred, regexes in (table.items() if only is None else ((only, table.get(only, ())),))
                        for rx in regexes if (m := rx.fullmatch(line)) is not None)
            if len(self._memo) >= _MEMO:   # bounded: a long run of model renders would grow it for ever
                self._memo.clear()
            self._memo[key] = hit
        return hit

    def reads_any(self, line: str) -> bool:
        """Whether a marked line reads whole as some phrasing of any fact (a family's rewrite leaves it be)."""
        return bool(self._matches(self.facts, line, None))

    def norm(self, fact: Fact) -> Fact:
        """A fact as it is compared: a symmetric predicate's arguments in sorted order."""
        pred, args = fact
        return (pred, tuple(sorted(args, key=str))) if pred in self.wording.symmetric else (pred, tuple(args))

    def read_fact(self, text: str, fact: Fact, marked: Marked, types: Mapping[str, str],
                  antecedent: str | None = None, others: Sequence[Fact] = ()) -> Verdict:
        """How one premise reads against the fact it must state. `antecedent`: the one symbol the premise
        before it was about, which "it" or "they" opening this one stands for ("Then it gains 8 items").
        `others`: the skeleton's facts, which a second clause of a premise may restate (families/two_claims.py)."""
        if self.known(((0, text),), (fact,), marked, types):
            return READ
        words = normalize(marked.words(text))
        words = self._untailed(words if self._known is None else as_items(words, self._known))
        words = self.rewritten(fact[0], words, marked, types)
        line = " " + " ".join(words)
        # Whether the line reads as the fact depends on the line, the fact with its symbols as marks, and their
        # types alone: remembered, as the matching is the check's main cost and sentences repeat.
        place = marked.place
        key = (line, fact[0], tuple([(place.get(a, -1), types.get(a)) if type(a) is str else a for a in fact[1]]))
        if self._reads.get(key):
            self._remember(self._named, text, fact, marked, types)
            return READ
        want = self.norm(fact)
        if any(self.norm(p) == want for p in self._parses(self.facts, line, marked, types, only=fact[0])) \
                or want in self._negated(words, marked, types):
            if len(self._reads) >= _MEMO:
                self._reads.clear()
            self._reads[key] = True
            self._remember(self._named, text, fact, marked, types)
            return READ   # the grammar is unambiguous (tested): no other fact reads here too
        if self._read_as_words(text, fact, marked, types):
            return READ
        other = [p for p in self._parses(self.facts, line, marked, types) + self._negated(words, marked, types)
                 if self.norm(p) != want]
        if other:
            return Verdict("misread", f"reads as {spell(other[0])} ({self.difference(other[0], fact)})")
        opposite = self.wording.opposites.get(fact[0])   # read whole as the opposite with a name read as its word
        if opposite is not None and self._read_as_words(text, (opposite, fact[1]), marked, types):
            return Verdict("misread", f"reads as {spell((opposite, fact[1]))} (polarity)")
        if antecedent is not None:
            said = self._by_pronoun(words, fact, marked, types, antecedent)
            if said is not None:
                return said
        def clause_read(clause: str) -> tuple[str, str]:
            said = self.read_fact(clause, fact, marked, types)
            if said.kind == "misread" and any(
                    f != fact and self.read_fact(clause, f, marked, types).kind == "read" for f in others):
                return "given", ""   # another fact of the skeleton, said again: a declarative fact adds nothing twice
            return said.kind, said.detail
        # (never in a family of steps: "Silo gains 2 items, and it gains 2 items" may be two steps, not one said twice)
        two = None if self.family.order_matters else two_claims.verdict(text, [marked.names[a] for a in fact[1] if isinstance(a, str) and a in marked.names],
                                 clause_read)
        if two is not None:   # the fact stated twice ("X is contained in Y: all of its members belong to Y")
            return READ if two[0] == "read" else Verdict("misread", f"holds a clause, {two[1]}")
        cue = self._cue(self._unopened(words, fact[0]), fact, marked)
        return Verdict("misread", cue) if cue else Verdict("unread")

    def rewritten(self, pred: str, words: list[str], marked: Marked, types: Mapping[str, str]) -> list[str]:
        """The words as the family's rewrite says them; a line that reads only with a name in a slot of another
        type reads as no fact, and is rewritten like one ("Rhea has the Mesa badge": an entity holds a badge,
        where "{1} has {0}" says a category has a member)."""
        rw = self.wording.rewrite
        if rw is None:
            return words
        if isinstance(rw, WhereUnread) and not self._parses(self.facts, " " + " ".join(words), marked, types):
            return rw.mistyped(pred, words)
        return rw(pred, words)

    def _read_as_words(self, text: str, fact: Fact, marked: Marked, types: Mapping[str, str]) -> bool:
        """Whether the sentence reads as its fact with some name that is also a word of the clause ("a", "I")
        read as that word: always where the fact does not name it ("b and f share a value", with a variable
        named a), at each choice of its places where it does ("a takes a different value than e")."""
        raw = marked.words(text)
        places = [k for k, w in enumerate(raw) if w[:1] == "@" and w[1:].isdigit()
                  and marked.names.get(marked.symbols[int(w[1:])], "").lower() in WORD_NAMES]
        if not places:
            return False
        named = {marked.mark(a) for a in fact[1] if isinstance(a, str)}
        free = [k for k in places if raw[k] in named][:4]   # a name of the fact: a word at some places only
        want = self.norm(fact)
        for choice in range(1 << len(free)):
            words = list(raw)
            for k in places:
                if raw[k] not in named or any(choice >> b & 1 for b, f in enumerate(free) if f == k):
                    words[k] = marked.names[marked.symbols[int(raw[k][1:])]].lower()
            words = normalize(words)
            words = self._untailed(words if self._known is None else as_items(words, self._known))
            line = " " + " ".join(words)
            if any(self.norm(p) == want for p in self._parses(self.facts, line, marked, types, only=fact[0])):
                return True
        return False

    def _by_pronoun(self, words: list[str], fact: Fact, marked: Marked, types: Mapping[str, str],
                    antecedent: str) -> Verdict | None:
        """The reading of a sentence that opens (after an opener) with "it" or "they" for the symbol of the
        premise before it, where that symbol is the fact's only one; None where it does not."""
        symbols = [a for a in fact[1] if isinstance(a, str)]
        mark = marked.mark(antecedent)
        rest = self._unopened(words, fact[0])
        if symbols != [antecedent] or mark is None or not rest or rest[0] not in ("it", "they", "its", "their"):
            return None
        said = [mark] if rest[0] in ("it", "they") else [mark, "'s"]   # "its stock" as "the stock of Silo"
        line = " " + " ".join(normalize(words[:len(words) - len(rest)] + said + rest[1:]))
        want = self.norm(fact)
        parses = self._parses(self.facts, line, marked, types)
        if any(self.norm(p) == want for p in parses):
            return READ
        if parses:
            return Verdict("misread", f"reads as {spell(parses[0])} ({self.difference(parses[0], fact)})")
        return None

    def _untailed(self, words: list[str]) -> list[str]:
        """The words without a tail that says nothing more ("..., though not necessarily next to her")."""
        if words and words[-1][:1] == "@" and len(words) > 1 and words[-2] in self._before_them:
            # "..., though not necessarily beside Keiko": the name as "them"
            said = words[:-1] + ["them"]
            for n in self._tail_lengths:
                if n < len(said) and tuple(said[-n:]) in self._tails:
                    return _unowned(said[:-n])
        for n in self._tail_lengths if words else ():
            if n < len(words) and tuple(words[-n:]) in self._tails:
                return _unowned(words[:-n])
        return words

    def _negated(self, words: list[str], marked: Marked, types: Mapping[str, str]) -> list[Fact]:
        """What "It is not the case that S" says, where S reads as a fact with an opposite: that opposite."""
        for head in NOT_THE_CASE:
            if tuple(words[:len(head)]) == head:
                rest = " " + " ".join(words[len(head):])
                opp = self.wording.opposites
                return [self.norm((opp[p], a)) for p, a in self._parses(self.facts, rest, marked, types) if p in opp]
        return []

    def _unopened(self, words: list[str], pred: str) -> list[str]:
        """The words without the opener they start with ("Next," is no adjacency)."""
        for opener in self._opener_words.get(pred, ()):
            if opener and tuple(words[:len(opener)]) == opener:
                return words[len(opener):]
        return words

    # A text that read as a fact reads so again wherever its arguments have the same names and types and no
    # other word of it is a name of the render: its marked line is then the same but for the marks' numbers,
    # which the reading never compares. So a template's sentence, whose names change from render to render
    # but repeat, is read once per text and not marked again (marking and keying it was most of the check).
    def known(self, premises: Sequence[tuple[int, str]], facts: Sequence[Fact], marked: Marked,
              types: Mapping[str, str], memo: dict[NamedKey, tuple[str, ...]] | None = None) -> set[int]:
        """The places in `premises` ((fact index, text) pairs) of those known to read as their facts: the
        same text read so before with its arguments named and typed alike, no other name in it."""
        name_words, names = marked.name_words, marked.names
        if name_words is None:   # names of several words, or two of one word: marking is not one lookup a word
            return set()
        memo, n, out = self._named if memo is None else memo, len(facts), set()
        for j, (i, text) in enumerate(premises):
            if 0 <= i < n:
                try:
                    rest = memo.get(_named_key(text, facts[i], names, types))
                except KeyError:   # an argument without a (distinct) name: it reads as words, not as a mark
                    continue
                if rest is not None and name_words.isdisjoint(rest):
                    out.add(j)
        return out

    def _remember(self, memo: dict[NamedKey, tuple[str, ...]], text: str, fact: Fact, marked: Marked, types: Mapping[str, str]) -> None:
        """Remember a text that read as its fact (see `known`), with its words but the arguments' names."""
        if marked.name_words is None:
            return
        try:
            key = _named_key(text, fact, marked.names, types)
        except KeyError:
            return
        if len(memo) >= _NAMED_MEMO:
            memo.clear()
        own = [w[0] for a in fact[1] if type(a) is str for w in (_words(marked.names[a]),) if w]
        memo[key] = tuple(set(_words(text)).difference(own))   # a tuple: a third of a frozenset's memory

    def read_question(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                      labels: Sequence[str] = ()) -> Verdict | QVerdict:
        """How the question reads against the query: the query itself, with its symbols in order, is `read`;
        what follows it may say what each label means, in words that must mean what the label does."""
        if self.known(((0, text),), (query,), marked, types, self._named_questions):
            return READ
        verdict = self.asked.read(text, query, marked, types, tuple(labels))
        if verdict.kind == "read":
            self._remember(self._named_questions, text, query, marked, types)
        return verdict

    def difference(self, got: Fact, want: Fact) -> str:
        """What kind of misreading `got` is of `want`: direction, polarity, predicate, number or symbols."""
        (gp, ga), (wp, wa) = got, want
        if gp == wp and ga != tuple(wa) and sorted(ga, key=str) == sorted(wa, key=str):
            return "direction"
        if self.wording.opposites.get(wp) == gp:
            return "polarity" if self.norm((wp, ga)) == self.norm(want) else "polarity and symbols"
        if gp != wp:
            return "predicate"
        return "number" if _symbols(ga) == _symbols(wa) else "symbols"

    def _cue(self, words: list[str], fact: Fact, marked: Marked) -> str | None:
        """A word the grammar is sure of that contradicts the fact, in a sentence that does not read whole, or
        None: a negation in a positive fact, a hedge, a number made another one, a word of
        another fact (a decrease in an increment, an end in an update, adjacency in an order)."""
        w, pred = self.wording, fact[0]
        present = set(words)
        negated = sorted(present & (NEGATIONS | w.negations))
        # A negative fact said without a negation word the grammar knows ("Crane and Oswald read differently")
        # is unread, not misread: an absent word is no word the grammar is sure of (its positive twin, read
        # whole, is misread above).
        if pred not in w.negative and negated:
            return f"holds a negation ({negated[0]!r})"
        hedged = sorted(hedges(words))
        if hedged:
            return f"hedges its claim ({hedged[0]!r})"
        for k, t in enumerate(words):
            if t.isdigit():
                before = words[k - 1] if k else ""
                after = words[k + 1] if k + 1 < len(words) else ""
                if before in NUMBER_BEFORE or after in NUMBER_AFTER:
                    return f"makes its number another ({before if before in NUMBER_BEFORE else after!r} by {t})"
        return self._word_cues(words, pred)

    def _word_cues(self, words: Sequence[str], pred: str) -> str | None:
        present = set(_without(words, self.wording.unsure)) if self.wording.unsure else set(words)
        for what, cue_words in self.wording.cues.get(pred, ()):
            hit = sorted(present & cue_words)
            if hit:
                return f"says {what} ({hit[0]!r})"
        return None


def _without(words: Sequence[str], runs: tuple[tuple[str, ...], ...]) -> list[str]:
    """`words` with every occurrence of each run taken out."""
    out, i = [], 0
    while i < len(words):
        run = next((r for r in runs if tuple(words[i:i + len(r)]) == r), None)
        if run is None:
            out.append(words[i])
        i += len(run) if run else 1
    return out


def _unowned(words: list[str]) -> list[str]:
    """The words without a possessive that ends them once a tail is read away ("... than Ben's, though ...")."""
    return words[:-1] if len(words) > 1 and words[-1] == "'s" and words[-2][:1] == "@" else words


def _named_key(text: str, fact: Fact, names: Mapping[str, str], types: Mapping[str, str]) -> NamedKey:
    """A text and its fact with each symbol as its name and type (KeyError: a symbol without them)."""
    return (text, fact[0], tuple([(names[a], types[a]) if type(a) is str else a for a in fact[1]]))


def _symbols(args: Sequence[Argument]) -> list[str]:
    return [a for a in args if isinstance(a, str)]


def _first(words: Sequence[str], mark: str | None) -> int | None:
    return words.index(mark) if mark is not None and mark in words else None


def spell(fact: Fact) -> str:
    """`PRED(a,b)`, as reasons and proofs write a fact."""
    return f"{fact[0]}({','.join(map(str, fact[1]))})"


@lru_cache(maxsize=None)
def reader(family_name: str) -> Reader:
    """The compiled reader of a registered family."""
    from families.registry import FAMILIES
    return Reader(FAMILIES[family_name])
