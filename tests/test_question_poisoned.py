"""Every question of the blind model corpora in the repository that reads, corrupted as a wrong render would be (two
labels swapped, the queried symbols swapped, another symbol named, a hedge, the start for the end, two counts
swapped inside their clauses), never reads: the question reader generalizes by structure, not by letting words by."""
from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from families.kind_nouns import KindMarked, kind_nouns
from families.reading import Marked, reader
from rendering.structure import parse

CORPORA = [Path(__file__).parent.parent / "benchmarks" / f"model_renders_blind{n}" for n in (8, 9)]
HEDGES = ((" is ", " might be "), (" must be ", " might be "), (" ends with ", " ends with about "))


def _cases(folder: Path) -> list[tuple[str, dict, object]]:
    asked = {r["id"]: r for r in map(orjson.loads, (folder / "prompts.jsonl").read_bytes().splitlines()) if r}
    out = []
    for line in (folder / "answers.jsonl").read_bytes().splitlines():
        ans = orjson.loads(line)
        render = parse(ans["answer"])
        if not isinstance(render, str):
            out.append((ans["id"], asked[ans["id"]]["payload"], render))
    return out


def _kind(payload: dict, render, text: str) -> str:
    """The question's verdict as the check reads it (again with the render's kind nouns where it reads as nothing)."""
    read, types = reader(payload["family"]), payload["entities"]
    query = (payload["query"]["predicate"], tuple(payload["query"]["arguments"]))
    labels = tuple(payload["answer_options"])
    verdict = read.read_question(text, query, Marked(render.names, types), types, labels)
    if verdict.kind == "unread":
        found = kind_nouns([t for _, t in render.premises] + [text], Marked(render.names, types), types,
                           payload["family"])
        if found:
            again = read.read_question(text, query, KindMarked(render.names, types, found), types, labels)
            verdict = again if again.kind != "unread" else verdict
    return verdict.kind


def _corrupted(payload: dict, render, text: str) -> list[str]:
    labels, query = payload["answer_options"], payload["query"]["arguments"]
    a, b = labels[0], labels[1]
    out = [re.sub(rf"\b(with|are|has|means|holds|have) ({a}|{b})\b",
                  lambda m: f"{m.group(1)} {b if m.group(2) == a else a}", text)] if a.isdigit() else \
        [text.replace(a, "\0").replace(b, a).replace("\0", b)]
    names = [render.names[s] for s in query if isinstance(s, str) and s in render.names]
    if len(names) == 2:
        out.append(text.replace(names[0], "\0").replace(names[1], names[0]).replace("\0", names[1]))
    out += [text.replace(w, h) for w, h in HEDGES if w in text]
    kind = payload["entities"].get(query[0]) if query else None
    others = [n for s, n in render.names.items() if s not in query and payload["entities"].get(s) == kind]
    if names and others:
        out.append(text.replace(names[0], others[0]))
    if payload["family"] == "sequential_state_update":
        out.append(text.replace("final", "starting").replace("at the end", "at the start")
                   .replace("ends with", "starts with").replace("after all", "before all").replace("once", "before"))
    return [o for o in out if o != text]


@pytest.mark.parametrize("folder", CORPORA, ids=[f.name for f in CORPORA])
def test_a_read_question_corrupted_as_a_wrong_render_never_reads(folder: Path) -> None:
    tried = 0
    for rid, payload, render in _cases(folder):
        if _kind(payload, render, render.question) != "read":
            continue
        for wrong in _corrupted(payload, render, render.question):
            tried += 1
            assert _kind(payload, render, wrong) != "read", f"{rid}: {wrong}"
    assert tried > 50   # the corpora hold that many read questions to corrupt
