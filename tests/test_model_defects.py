"""The blind corpora of wrong meanings (benchmarks/model_defects.py): every render, written faithful but for one
defect by a writer who never saw the reader, is refused by the run's own check, and at its defect's sentence."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.model_defects import verdicts

_ROOT = Path(__file__).parent.parent / "benchmarks"
# blind27's equality-0023 writes a symbol's name in its full-width form ("ｙ equals e."): NFKC folds it to the name
# itself, as names are compared (issue 42's rule 2), so the sentence states its fact; the only render kept `ok`
_SAME_FACT = {("model_renders_blind27", "equality-0023")}


@pytest.mark.parametrize("corpus", ["model_renders_blind27", "model_renders_blind34"])
def test_every_wrong_meaning_is_refused_at_its_defect(corpus: str) -> None:
    judged = verdicts(_ROOT / corpus)
    assert len(judged) == 40
    for defect, verdict, reason in judged:
        if (corpus, defect["id"]) in _SAME_FACT:
            assert verdict == "ok", reason
            continue
        assert verdict not in ("ok", "elsewhere"), (defect, reason)


_FAITHFUL = sorted(p.name for p in _ROOT.glob("model_renders_blind*") if not (p / "DEFECTS.jsonl").exists())


@pytest.mark.parametrize("corpus", _FAITHFUL)
def test_no_faithful_blind_render_is_misread(corpus: str) -> None:
    """A faithful render may stay unread (an auditor may rescue it), never be misread: a false misread is rare by
    construction (a sentence is misread only where it reads whole as another fact or holds a word the grammar is sure
    of), and none of the blind corpora holds one."""
    import orjson

    from rendering.structure import check, parse
    folder = _ROOT / corpus
    asked = {r["id"]: r for r in map(orjson.loads, (folder / "prompts.jsonl").read_bytes().splitlines()) if r}
    for line in (folder / "answers.jsonl").read_bytes().splitlines():
        ans = orjson.loads(line)
        read = parse(ans["answer"])
        if isinstance(read, str):
            continue
        misread = [r for r in check(read, asked[ans["id"]]["payload"]) if r.startswith("misread")]
        assert not misread, (ans["id"], misread)
