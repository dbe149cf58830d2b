"""Reading a render's question back: it must ask the skeleton's query, and whatever it says each answer label
means must be what the label means.

A question is read sentence by sentence (and, inside one, up to the first "LABEL if ..."): exactly the
query, after an optional opener ("Based on the statements, ...") and before an optional third way ("..., or
can this not be determined?"), is `read`; another query (the other way round, another symbol) is
`misread`. A label explanation ("Answer LEFT_OF if Nico is to the left of Ben, ..., or UNKNOWN if the
premises do not settle it") is read clause by clause with the family's fact grammar (or the words that say
"not settled"); a clause that reads as another meaning than its label's is `misread`, one that reads as
nothing leaves the question `unread`. Bare instructions ("Answer with one of the labels.") say nothing.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping, NamedTuple, Sequence

from families.label_clauses import NOT_SO, SO, unembedded
from families.label_lists import (
    CONNECTORS,
    INSTRUCTION,
    Spelled,
    asked_first,
    first_label,
    labels_named,
    listed,
    unlisted,
    within,
)
from families.option_gloss import glossed
from families.option_lists import counted_as_items, option_list, repeated
from families.phrases import EMBEDDERS, IMPERATIVES, QUESTION_OPENERS, QUESTION_TAILS, UNDETERMINED
from families.question_forms import AFTER_IT, FOLLOW_UPS, Unsettled, echoed, ones_dropped, symbols_marked
from families.wording import NEGATIONS, WORD_NAMES, normalize, say, tokens

if TYPE_CHECKING:
    from families.reading import Fact, Marked, Reader

_BRACKETED = re.compile(r"\(\s*([^()]+?)\s*\)")
# A bracketed restatement of the question: "(that is, where is A compared to B)", "(i.e. ...)", "(in other words ...)"
_RESTATED = re.compile(r"\(\s*(?:that is|i\.e\.|ie|in other words|namely|put differently|said differently|or rather)"
                       r"\s*,?\s*([^()]+?)\s*\)", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.?!;])\s+")
_TRAILING = frozenset({"or", "and", "otherwise", "else"})


class QVerdict(NamedTuple):
    """How a question reads: `read`, `misread` (with what it asks or says instead) or `unread`."""

    kind: str
    detail: str = ""


_READ = QVerdict("read")


def _table(sentences: Sequence[str]) -> tuple[frozenset[tuple[str, ...]], list[int]]:
    rows = frozenset(tuple(tokens(s)) for s in sentences)
    return rows, sorted({len(r) for r in rows}, reverse=True)


_OPENERS, _OPENER_LENGTHS = _table(QUESTION_OPENERS)
_TAILS, _TAIL_LENGTHS = _table(QUESTION_TAILS)
_UNSETTLED = Unsettled(tuple(tokens(s)) for s in UNDETERMINED)
_EMBEDDERS, _EMBEDDER_LENGTHS = _table(EMBEDDERS)
_IMPERATIVES, _IMPERATIVE_LENGTHS = _table(tuple(i for i in IMPERATIVES if i))
_WH = frozenset({"where", "how", "which", "what", "whether"})


# "A. a != c  B. d = c", "(A) a != c", "A: a != c": the letters of a list
_LETTERED = re.compile(r"(?:(?<=\s)|^)(?:\([A-H]\)|[A-H][.):])(?=\s)|(?m:^\s*(?:[1-9][.)]|[-*•])(?=\s))")
# (a list's numbers and bullets only at a line's start: "Options: 10, 11 or 9." keeps its 9)
_SPLIT = re.compile(r"(?<=[.?!;:])(?<!\bvs\.)(?<!\bv\.)(?<!\bi\.e\.)(?<!\be\.g\.)\s+|(?<=[.?!;:]\))\s+|\s+[—–-]\s+|"
                    r"\s*[—–]\s*")   # "A vs. B" is one sentence


class QuestionReader:
    """One family's questions: the reader's query grammar, with openers, third ways and label explanations."""

    def __init__(self, reader: Reader):
        self.r = reader

    def read(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
             labels: tuple[str, ...]) -> QVerdict:
        """The question's verdict against the query (see the module's docstring), and where it reads as nothing,
        again with each name that is also a word of the clause and no symbol of the query read as that word
        ("Which statement is a valid consequence?" with a variable named a)."""
        verdict = self._read_listed(text, query, marked, types, labels)
        if verdict.kind != "unread":
            return verdict
        asked = {a for a in query[1] if isinstance(a, str)}
        kept = {s: n for s, n in marked.names.items() if s in asked or n.lower() not in WORD_NAMES}
        if len(kept) == len(marked.names):
            return verdict
        return self._read_listed(text, query, marked.narrowed(kept), types, labels)

    def _read_listed(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                     labels: tuple[str, ...]) -> QVerdict:
        """The question's verdict against the query; a list of every option, each once, is read away first and
        the rest must ask the query."""
        twice = repeated(text, labels)
        if twice is not None:
            return QVerdict("misread", f"repeats the answer {twice!r}")
        text = _colons_as_means(text, labels)
        glossed = self._glossed(text, query, marked, types, labels)
        if isinstance(glossed, QVerdict):
            return glossed
        text = glossed
        options = option_list(text, labels)
        if options is None and any(_lowered(label, text) for label in labels) and \
                option_list(text.lower(), tuple(label.lower() for label in labels)) is not None:
            return QVerdict("unread")   # "Respond with yes, no, unknown": the labels not as they are answered
        if options is not None:
            rest = f"{options.before} {options.after}".strip() if options.after.strip(" .?!") else \
                options.before + (options.after.strip() or "")
            verdict = self._read(counted_as_items(rest), query, marked, types, labels)
            if verdict.kind == "read" or self._read(text, query, marked, types, labels).kind != "read":
                return verdict
            return _READ
        verdict = self._read(text, query, marked, types, labels)
        if verdict.kind != "unread" or not self.r.counts or counted_as_items(text) == text:
            return verdict
        return self._read(counted_as_items(text), query, marked, types, labels)   # "how many canoes are in X"

    def _read(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
              labels: tuple[str, ...]) -> QVerdict:
        spelled = [(label, marked.words(label)) for label in labels]
        if "(" in text:   # a bracketed list of every label ("Is Ann a Baker (YES/NO/UNKNOWN)?") says nothing more
            text = _BRACKETED.sub(lambda m: " " if listed(normalize(marked.words(m.group(1))), spelled) == "" and
                                  any(within(marked.words(m.group(1)), lw) for _, lw in spelled) else m.group(0), text)
        restated = self._restated(text, query, marked, types)
        if isinstance(restated, QVerdict):
            return restated
        text = restated
        whole = self._asks(normalize(marked.words(text)), query, marked, types)
        if whole is not None:
            return whole
        inline = self._inline(text, query, marked, types, spelled)
        if inline is not None:
            return inline
        asked, unread, cue = 0, False, None
        explained: set[str] = set()   # labels whose meaning a sentence said (a later list may leave them out)
        for sentence in _SPLIT.split(_LETTERED.sub(" ", text.strip())):
            words = unlisted(sentence, marked, spelled)
            if not words:
                continue
            gloss = glossed(words) if self.r.counts else None
            if gloss is not None:   # "Each option is a possible final number of marbles in the blue jar"
                got = self._asks(self.r.counted(gloss), query, marked, types)
                if got is not None and got.kind == "misread":
                    return got
                unread |= got is None
                continue
            start = first_label(words, spelled)
            as_list = listed(words, spelled, explained) if start is None else None
            if as_list is not None:
                if as_list:
                    return QVerdict("misread", as_list)
                continue
            said = self._if_then(words, query, marked, types, spelled)
            if said is not None:
                if said.kind == "misread":
                    return said
                unread |= said.kind != "read"
                explained |= {label for label, lw in spelled if said.kind == "read" and within(words, lw)}
                continue
            head, tail = (words, []) if start is None else (words[:start], words[start:])
            head = [] if tuple(head) in FOLLOW_UPS else head   # "Which is it?" after the query: nothing more
            whole_head = head
            while head and head[-1] in INSTRUCTION:   # "..., answer" before the labels
                head = head[:-1]
            if head and listed(head, spelled) != "" and not set(head) <= INSTRUCTION | {w for _, lw in spelled
                                                                                         for w in lw}:
                # the head as said first ("... end up with?" ends in a word an instruction holds too)
                got = self._asks(whole_head, query, marked, types) if whole_head != head else None
                got = got or self._asks(head, query, marked, types)
                named = labels_named(head, spelled)   # "Which of LEFT_OF, RIGHT_OF or UNKNOWN describes ..."
                got = got or (self._asks(named, query, marked, types) if named is not None else None)
                if got is not None and got.kind == "misread":
                    return got
                if got is not None:
                    asked += 1
                else:
                    unread = True
                    cue = cue or self._cue(head, query[0])
            if tail:
                said = self._explains(tail, query, marked, types, spelled)
                if said is not None and said.kind == "misread":
                    return said
                unread |= said is None
                explained |= {label for label, lw in spelled if said is not None and within(tail, lw)}
        if cue:
            return QVerdict("misread", cue)
        return QVerdict("read") if asked and not unread else QVerdict("unread")

    def _glossed(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                 labels: tuple[str, ...]) -> str | QVerdict:
        """The question without each label's bracketed gloss ("Answer YES (a member), NO (not a member), or UNKNOWN",
        "... or UNKNOWN (if it cannot be determined)"): each gloss must mean its label, said of the query's first
        symbol where it names none ("a member" as "she is a member of the Bakers"); one that means another thing is
        `misread`, one that reads as nothing makes the question `unread`."""
        if "(" not in text:
            return text
        for label in sorted(labels, key=len, reverse=True):
            for m in re.finditer(rf"(?<![\w!=<>]){re.escape(label)}(?P<q>[\"'”’]?)\s*\(\s*(?P<g>[^()]+?)\s*\)", text):
                words = normalize(marked.words(m.group("g")))
                if len(m.group("g")) < 3 or not words or any(within(words, marked.words(other)) for other in labels):
                    continue   # "(B)" letters the next option; a bracket of labels is a list
                while words and words[0] in ("if", "when", "whenever", "meaning", "i", "e", "ie", "that", "is"):
                    words = words[1:]
                readings = [words] + _resolved(words, query, marked) + _resolved(["it", "is"] + words, query, marked)
                got = self._meaning(readings, marked, types)
                want = self._label_meaning(label, query, marked, types)
                if got is None or want is None:
                    return QVerdict("unread")
                if got != want:
                    return QVerdict("misread", f"says {label} means {_said(got)}, where it means {_said(want)}")
                text = text.replace(m.group(0), label + m.group("q"), 1)   # its quotes kept: '"a = b", ...'
        return text

    def _restated(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str]) -> str | QVerdict:
        """The question without a bracketed restatement of it ("Which relation holds between A and B (that is, where
        is A compared to B)?"), which must ask the query too: a restatement that asks another thing is `misread`,
        one that reads as nothing leaves the question as it was (and so unread)."""
        if "(" not in text:
            return text
        for m in _RESTATED.finditer(text):
            got = self._asks(normalize(marked.words(m.group(1))), query, marked, types)
            if got is not None and got.kind == "misread":
                return got
            if got is not None:
                text = text.replace(m.group(0), " ", 1)
        return text

    def _inline(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                spelled: Spelled) -> QVerdict | None:
        """A question that names each label in brackets after its case ("is Priya left of Dalia (LEFT_OF), right of
        Dalia (RIGHT_OF), or can it not be determined (UNKNOWN)?"): each case must mean its label (None: not of
        this form)."""
        labels = [label for label, _ in spelled]
        tagged = [m for m in _BRACKETED.finditer(text) if m.group(1) in labels]
        if len(tagged) < 2 or {m.group(1) for m in tagged} != set(labels) or len(tagged) != len(labels):
            return None
        if text[tagged[-1].end():].strip(" ?.!"):
            return None
        subject, pos = None, 0
        for m in tagged:
            words = normalize(marked.words(text[pos:m.start()]))
            pos = m.end()
            while words and words[0] in ("or", "and", "whether", "if"):
                words = words[1:]
            if subject is None:   # "Determine whether X is to the left of Y (LEFT_OF), ...": the statement is the case
                n = next((n for n in _EMBEDDER_LENGTHS if n < len(words) and tuple(words[:n]) in _EMBEDDERS), 0)
                if n and len(words) > n + 1 and words[n][:1] == "@" and words[n + 1] in ("is", "are", "stands", "sits"):
                    words = words[n:]
                    subject = words[0]
            if subject is None:   # the first case is the question: "[opener] is X ...", said as "X is ..."
                at = next((i for i in range(len(words) - 1) if words[i] in ("is", "are") and words[i + 1][:1] == "@"),
                          None)
                if at is None or (at and tuple(words[:at]) not in _OPENERS):
                    asked = asked_first(text[:m.start()])   # "Where does X stand relative to Y: to her left (..."
                    if asked is None or self._asks(normalize(marked.words(asked[0])), query, marked, types) != _READ:
                        return QVerdict("unread")
                    first = marked.mark(query[1][0]) if query[1] and isinstance(query[1][0], str) else None
                    if first is None:
                        return QVerdict("unread")
                    subject, words = first, [first, "is"] + normalize(marked.words(asked[1]))
                else:
                    subject, words = words[at + 1], [words[at + 1], words[at]] + words[at + 2:]
            elif tuple(["or"] + words) in _TAILS or tuple(words) in _UNSETTLED:
                words = ["otherwise"]   # a third way: "not settled"
            elif words[:1] != [subject]:
                words = [subject, "is"] + words
            got = self._meaning(_resolved(words, query, marked) if words != ["otherwise"] else [words], marked, types)
            want = self._label_meaning(m.group(1), query, marked, types)
            if got is None or want is None:
                return QVerdict("unread")
            if got != want:
                return QVerdict("misread", f"says {m.group(1)} means {_said(got)}, where it means {_said(want)}")
        return QVerdict("read")

    def _if_then(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str],
                 spelled: Spelled) -> QVerdict | None:
        """"If CLAUSE, answer LABEL": the clause must mean what the label does (None: not of this form)."""
        if words[:1] != ["if"]:
            return None
        for label, lw in spelled:
            n = len(lw)
            if n and words[-n:] == lw:
                clause = words[1:-n]
                while clause and clause[-1] in INSTRUCTION | {"then"}:
                    clause = clause[:-1]
                clause = unembedded(clause)
                got = self._affirmed(clause, query, marked) or \
                    self._meaning(_resolved(clause, query, marked), marked, types)
                want = self._label_meaning(label, query, marked, types)
                if got is None or want is None:
                    return QVerdict("unread")
                if got != want:
                    return QVerdict("misread", f"says {label} means {_said(got)}, where it means {_said(want)}")
                return QVerdict("read")
        return None

    def _asks(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str]) -> QVerdict | None:
        """`read` where the words are the query (opener and third way aside), `misread` where another query."""
        r, other = self.r, None
        if r.wording.rewrite is not None:
            words = r.wording.rewrite(query[0], words)
        lines = []
        heads = [words] + [words[n:] for n in _OPENER_LENGTHS if n < len(words) and tuple(words[:n]) in _OPENERS]
        for said in [words] + [c for head in heads for c in _commanded(head)]:   # "Using only ..., decide how ..."
            lines += _bare(said, r.wording.context_words, r.wording.context_starts)
            named = _pronouns_named(said)
            if named is not None:
                lines += _bare(named, r.wording.context_words, r.wording.context_starts)
        for line in lines:
            parses = r._parses(r.questions, line, marked, types)
            if tuple(query[1]) in [tuple(a) for p, a in parses if p == query[0]]:
                return QVerdict("read")
            other = other or (parses[0] if parses else None)
        if other is None and query[0] in r.facts:   # "Determine whether Priya is a Weaver": the statement's fact
            want = r.norm(query)
            for line in lines:
                ws = line.split()
                for n in _EMBEDDER_LENGTHS:
                    if n < len(ws) and tuple(ws[:n]) in _EMBEDDERS:
                        parses = r._parses(r.facts, " " + " ".join(ws[n:]), marked, types)
                        if any(r.norm(p) == want for p in parses):
                            return QVerdict("read")
                        other = other or (parses[0] if parses else None)
        if other is not None:
            from families.reading import spell
            return QVerdict("misread", f"asks {spell(other)} ({r.difference(other, query)})")
        return None

    def _cue(self, words: list[str], pred: str) -> str | None:
        """A word that makes a question ask another thing: a negation (where no third way follows it: "or can
        this not be determined" negates nothing), a start in a question of the end, another question's word."""
        present = set(words)
        hit = sorted(present & NEGATIONS)
        if hit and "or" not in present:
            return f"holds a negation ({hit[0]!r})"
        for what, cue_words in self.r.wording.question_cues:
            found = sorted(present & cue_words)
            if found:
                return f"asks {what} ({found[0]!r})"
        return self.r._word_cues(words, pred)

    def _explains(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str],
                  spelled: Spelled) -> QVerdict | None:
        """Label explanations, each "LABEL if CLAUSE": `read` when every clause means its label, `misread` when
        one means another thing, None when one reads as nothing."""
        starts = []
        for k in range(len(words)):
            for label, lw in spelled:
                n = len(lw)
                if lw and words[k:k + n] == lw and k + n < len(words) and words[k + n] in CONNECTORS:
                    starts.append((k, k + n + 1, label))
        if not starts:
            return None
        for j, (_, begin, label) in enumerate(starts):
            end = starts[j + 1][0] if j + 1 < len(starts) else len(words)
            clause = words[begin:end]
            while clause and clause[-1] in _TRAILING:
                clause = clause[:-1]
            if words[begin - 1] == "otherwise":   # "UNKNOWN otherwise": in every other case
                clause = ["otherwise"]
            if clause[:1] == ["that"]:
                clause = clause[1:]
            clause = unembedded(clause)
            got = self._affirmed(clause, query, marked) or self._meaning(_resolved(clause, query, marked), marked, types)
            want = self._label_meaning(label, query, marked, types)
            if got is None or want is None:
                return None
            if got != want:
                return QVerdict("misread", f"says {label} means {_said(got)}, where it means {_said(want)}")
        return QVerdict("read")

    def _affirmed(self, clause: list[str], query: Fact, marked: Marked) -> frozenset[Fact] | None:
        """What a clause that speaks of the query itself says ("YES if it follows", "NO if it is ruled out"): the
        query's fact, or its opposite; None where the query is no fact with an opposite, or the clause is not so."""
        r = self.r
        opposite = r.wording.opposites.get(query[0])
        if opposite is None or query[0] not in r.facts:
            return None
        said = tuple(clause)
        if said in SO:
            return frozenset({r.norm(query)})
        if said in NOT_SO:
            return frozenset({r.norm((opposite, query[1]))})
        first = marked.mark(query[1][0]) if query[1] and isinstance(query[1][0], str) else None
        echo = echoed(said, first)   # "YES if she certainly does", "NO if it necessarily is not"
        return None if echo is None else frozenset({r.norm(query if echo else (opposite, query[1]))})

    def _meaning(self, readings: list[list[str]], marked: Marked, types: Mapping[str, str]) -> object:
        """What the first of a clause's readings that says anything says: the facts it reads as (a frozenset),
        "not settled", or None."""
        r = self.r
        for words in readings:
            if tuple(words) in _UNSETTLED:
                return "not settled"
            parses = r._parses(r.facts, " " + " ".join(words), marked, types)
            if parses:
                return frozenset(r.norm(p) for p in parses)
        return None

    def _label_meaning(self, label: str, query: Fact, marked: Marked, types: Mapping[str, str]) -> object:
        """What a label means for this query: its definition in the family's wording, read like a clause; a label that
        is a statement, what the statement reads as."""
        definition = self.r.wording.definitions.get(label)
        if definition is None:   # a statement as its label (equality's "c != h"): what it reads as, its letters
            return self._meaning([normalize(symbols_marked(marked, types).words(label))], marked, types)   # symbols
        spelled = [marked.names.get(a, str(a)) if isinstance(a, str) else str(a) for a in query[1]]
        words = normalize(marked.words(say(definition, spelled, end="", capital=False)))
        return self._meaning([words], marked, types)


def _colons_as_means(text: str, labels: tuple[str, ...]) -> str:
    """A label that opens a clause with a colon or a dash ("LEFT_OF: Bianca is to the left of Nadia.", "YES - Pax is
    in it", '"o = q": Olive and Quince share a number') read as "LABEL means ...": each clause must then mean its
    label, as any explanation must. Only where the label opens the text, a sentence or a bracket."""
    for label in labels:
        if label in text:
            text = re.sub(rf"(^|[.;!?(]\s*|\n\s*)([\"'“‘]?{re.escape(label)}[\"'”’]?)\s*[:—–-]\s+",
                          r"\1\2 means ", text)
    return text


def _lowered(label: str, text: str) -> bool:
    """Whether a label with capitals is never written as it is but in lower case ("yes" for YES; a title case "Yes"
    is the label as a sentence writes it)."""
    low = label.lower()
    if low == label or re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text):
        return False
    return re.search(rf"(?<!\w){re.escape(low)}(?!\w)", text) is not None


def _commanded(words: list[str]) -> list[list[str]]:
    """An instruction as the question it asks: "determine the number of ..." as "what is the number of ...",
    "state where Tom is ..." as "where Tom is ..."; [] where the words open with no instruction."""
    out = []
    for n in _IMPERATIVE_LENGTHS:
        if n < len(words) and tuple(words[:n]) in _IMPERATIVES:
            nxt = words[n]
            if nxt == "the":
                out.append(["what", "is"] + words[n:])
            elif nxt in _WH:
                out.append(words[n:])
    return out


_POSSESSIVE = frozenset({"his", "her", "their", "its"})
_OBJECT = frozenset({"him", "her", "them"})


def _pronouns_named(words: list[str]) -> list[str] | None:
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


def _bare(words: list[str], context: frozenset[str] = frozenset(), starts: frozenset[str] = frozenset()) -> list[str]:
    """The question's line as it is, and without an opener before it, a third way (or two) after it, and words
    of its time ("once every step is done") before or after it."""
    heads = [words] + [words[n:] for n in _OPENER_LENGTHS if tuple(words[:n]) in _OPENERS]
    heads += [h[n:] for h in heads[1:] for n in _OPENER_LENGTHS if tuple(h[:n]) in _OPENERS]   # two openers
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
        for n in _TAIL_LENGTHS:
            if n < len(head) and tuple(head[-n:]) in _TAILS:
                out.append(" " + " ".join(head[:-n]))
                out += [" " + " ".join(head[:-n - m]) for m in _TAIL_LENGTHS
                        if m < len(head) - n and tuple(head[-n - m:-n]) in _TAILS]
    return out


_PRONOUNS = frozenset({"he", "she", "they", "it", "him", "her", "them"})
_MODAL = {("must", "be"): ["is"], ("cannot", "be"): ["is", "not"], ("can", "not", "be"): ["is", "not"],
          ("is", "definitely"): ["is"], ("definitely", "is"): ["is"], ("is", "certainly"): ["is"]}


def _resolved(clause: list[str], query: Fact, marked: Marked) -> list[list[str]]:
    """A label's clause as it may be read: as written, and, where it says a pronoun for the query's first
    symbol ("YES if he is", "RIGHT_OF if she is to the right"), with the symbol for it and what it leaves
    out said again: the query's other symbol, after "of" or as the category."""
    marks = [marked.mark(a) for a in query[1] if isinstance(a, str)]
    if not clause or not marks or marks[0] is None or (clause[0] not in _PRONOUNS and clause[0] != marks[0]):
        return [clause]
    if tuple(clause) in _UNSETTLED:   # "it cannot be determined": no pronoun of a symbol
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


def _said(meaning: object) -> str:
    if isinstance(meaning, frozenset):
        from families.reading import spell
        return " and ".join(sorted(spell(f) for f in meaning))
    return str(meaning)
