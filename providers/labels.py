"""Label handling: the documented free-text parser, and the constrained-output formats of each dialect."""
from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

import orjson

ANSWER_KEY = "answer"


def json_schema(labels: Iterable[str]) -> dict[str, Any]:
    """The JSON schema of `{"answer": <one label>}`."""
    return {"type": "object", "properties": {ANSWER_KEY: {"type": "string", "enum": list(labels)}},
            "required": [ANSWER_KEY], "additionalProperties": False}


def gbnf(labels: Iterable[str]) -> str:
    """A llama.cpp GBNF grammar whose only sentences are the labels."""
    def quote(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "root ::= " + " | ".join(quote(l) for l in labels)


def parse_free_text(text: str, labels: tuple[str, ...]) -> str | None:
    """The label a free-text answer gives, or None.

    In order: the whole text (trimmed of spaces, quotes, brackets and final punctuation) is a label;
    the text is JSON with an "answer" that is a label; a line `Answer: X` (the last one) names a
    label; else the label whose last whole-word occurrence ends latest (ties: the longer label), so
    "not LEFT_OF but RIGHT_OF" gives RIGHT_OF. Matching is exact case first, then case-insensitive.
    """
    stripped = text.strip().strip("\"'`*[]().:").strip()
    if stripped in labels:
        return stripped
    from_json = parse_json_answer(text, labels)
    if from_json is not None:
        return from_json
    for line in reversed(text.strip().splitlines()):
        m = re.match(r"^\W*(?:final\s+)?answer\s*(?:is)?\s*[:=-]?\s*(.+?)\s*$", line, re.IGNORECASE)
        if m:
            cand = m.group(1).strip().strip("\"'`*[]().:").strip()
            for label in labels:
                if cand == label or cand.lower() == label.lower():
                    return label
            break
    for fold in (False, True):
        hay = text.casefold() if fold else text
        best: tuple[int, int, str] | None = None
        for label in labels:
            end = last_word_end(hay, label.casefold() if fold else label)
            if end >= 0 and (best is None or (end, len(label)) > best[:2]):
                best = (end, len(label), label)
        if best:
            return best[2]
    return None


def _glued(ch: str, extra: str) -> bool:
    return ch.isalnum() or ch == "_" or ch in extra


def word_spans(text: str, label: str) -> Iterator[int]:
    """Start positions of `label` in `text` as a whole word: not glued to a letter, digit or `_`
    on either side, nor preceded by `!`, `=`, `<`, `>` (so `c = h` is not found inside `c != h`)."""
    n, start = len(label), 0
    while True:
        i = text.find(label, start)
        if i < 0:
            return
        if not (i and _glued(text[i - 1], "!=<>")) and not (i + n < len(text) and _glued(text[i + n], "")):
            yield i
        start = i + 1


def last_word_end(text: str, label: str) -> int:
    """The end of the last whole-word occurrence of `label`, or -1."""
    last = -1
    for i in word_spans(text, label):
        last = i + len(label)
    return last


def parse_json_answer(text: str, labels: tuple[str, ...]) -> str | None:
    """`{"answer": X}` with X a label, else None."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    answer = obj.get(ANSWER_KEY) if isinstance(obj, dict) else None
    return answer if isinstance(answer, str) and answer in labels else None


def missing_labels(text: str, labels: Iterable[str]) -> list[str]:
    """The labels that do not appear verbatim, as whole words, in a rendered problem."""
    return [l for l in labels if next(word_spans(text, l), None) is None]


def check_label(value: str | None, labels: tuple[str, ...]) -> str | None:
    """The value if it is exactly one of the labels (whatever the server promised), else None."""
    return value if value in labels else None
