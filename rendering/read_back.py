"""A structured render's premises and question read back by its family's wording (families/reading.py): each as
exactly its fact (`read`), as another (`misread`) or as nothing (`unread`); the check's reasons for those that
do not read, and every verdict for the view."""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, TypeVar

from families.kind_before import BeforeMarked, before_marked, kinds_before, measure_nouns
from families.kind_nouns import KindMarked, kind_nouns
from families.questions import QVerdict
from families.reading import Marked, Verdict, reader, spell
from rendering.render import StructuredRender


class PremiseVerdict(NamedTuple):
    """One premise read back against its fact: `read`, `misread` (with what it says instead) or `unread`."""

    index: int   # type: ignore[assignment]  # shadows tuple.index; the fact's index is what callers read
    text: str
    fact: str          # the fact as the check spells it, e.g. LEFT_OF(a, b)
    kind: str
    detail: str


def premise_verdicts(render: StructuredRender, payload: Mapping[str, Any],
                     names: Mapping[str, str], wrong_only: bool = False) -> list[PremiseVerdict]:
    """Every premise of a render read back by its family's wording, in the render's order (the question last,
    index -1); premises that name no fact of the skeleton are left out (the shape checks name them).
    `wrong_only`: only those that do not read (what the check reports)."""
    read = reader(payload["family"])
    types = payload["entities"]
    marked = Marked(names, types)
    facts = [(f["predicate"], tuple(f["arguments"])) for f in payload["facts"]]
    known, out = read.known(render.premises, facts, marked, types), []
    kinded: list[KindMarked | None] = []

    def kinds() -> KindMarked | None:   # the render's kind nouns, found once, where a sentence needs them
        if not kinded:
            texts = [t for _, t in render.premises] + [render.question]
            found = kind_nouns(texts, marked, types, payload["family"])
            # and before them ("register n"), and the story's measure ("the same colour"): families/kind_before.py
            before = kinds_before(texts, marked, types, payload["family"], render.intro)
            measures = measure_nouns(texts, payload["family"])
            kinded.append(before_marked(names, types, found, before, measures, payload["family"]) if before or measures
                          else KindMarked(names, types, found) if found else None)
        return kinded[0]
    prev = -1   # the fact of the premise before, where it read: its one symbol is what "it" may stand for
    for j, (i, text) in enumerate(render.premises):
        if not 0 <= i < len(facts):
            prev = -1
            continue
        if j in known:   # read before, in another render: the common case, and most of the check's time
            if not wrong_only:
                out.append(PremiseVerdict(i, text, spell(facts[i]), "read", ""))
            prev = i
            continue
        own = [a for a in facts[prev][1] if isinstance(a, str)] if prev >= 0 else []
        antecedent = own[0] if len(own) == 1 else None
        verdict = read.read_fact(text, facts[i], marked, types, antecedent, facts)
        if verdict.kind == "unread" and (again := kinds()) is not None:
            verdict = _or_unread(read.read_fact(text, facts[i], again, types, antecedent, facts), verdict)
        prev = i if verdict.kind == "read" else -1
        if not (wrong_only and verdict.kind == "read"):
            out.append(PremiseVerdict(i, text, spell(facts[i]), verdict.kind, verdict.detail))
    query = (payload["query"]["predicate"], tuple(payload["query"]["arguments"]))
    asked = read.read_question(render.question, query, marked, types, tuple(payload["answer_options"]))
    if asked.kind == "unread" and (again := kinds()) is not None:
        second = read.read_question(render.question, query, again, types, tuple(payload["answer_options"]))
        # a question whose label clauses read only with nouns read away before names or as the measure: read, or
        # left unread (a label list the reader half follows is no sure word of another question)
        if second.kind == "read" or not isinstance(again, BeforeMarked):
            asked = _or_unread(second, asked)
    if not (wrong_only and asked.kind == "read"):
        out.append(PremiseVerdict(-1, render.question, spell(query), asked.kind, asked.detail))
    return out


_V = TypeVar("_V", bound="Verdict | QVerdict")


def _or_unread(second: _V, first: _V) -> _V:
    """A reading with the render's kind nouns read away, where it reads as anything; else the first."""
    return first if second.kind == "unread" else second


def read_back(render: StructuredRender, payload: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Every premise and the question read back by the family's wording: `misread` and `unread` reasons."""
    out = []
    for v in premise_verdicts(render, payload, names, wrong_only=True):
        if v.index < 0:
            if v.kind == "misread":
                out.append(f"misread: the question {v.detail}, where the query is {v.fact}")
            else:   # a question must ask the query: one that reads as nothing goes to an auditor, if any
                out.append(f"unread: the question does not read as the query {v.fact}")
        elif v.kind == "misread":
            out.append(f"misread: the premise of fact {v.index} {v.fact} {v.detail}")
        elif v.kind == "unread":
            out.append(f"unread: the premise of fact {v.index} {v.fact} does not read as any fact")
    return out
