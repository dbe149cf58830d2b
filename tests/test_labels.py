"""The documented free-text label parser and the constrained-output formats."""
from __future__ import annotations

import pytest

from providers.labels import gbnf, json_schema, parse_free_text, parse_json_answer

ORDER = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
EQ = ("c = h", "c != h", "b = e", "b != e")
NUM = ("44", "45", "46")


@pytest.mark.parametrize("text, labels, expect", [
    ("LEFT_OF", ORDER, "LEFT_OF"),
    ("  `RIGHT_OF`.\n", ORDER, "RIGHT_OF"),
    ('{"answer": "UNKNOWN"}', ORDER, "UNKNOWN"),
    ("Reasoning... it is not LEFT_OF.\nAnswer: RIGHT_OF", ORDER, "RIGHT_OF"),
    ("It is not LEFT_OF but RIGHT_OF", ORDER, "RIGHT_OF"),
    ("final answer: unknown", ORDER, "UNKNOWN"),
    ("so c != h holds", EQ, "c != h"),
    ("so c = h holds", EQ, "c = h"),
    ("The jar has 145 marbles", NUM, None),
    ("The jar has 45 marbles", NUM, "45"),
    ("I cannot tell", ORDER, None),
])
def test_parse_free_text(text, labels, expect):
    assert parse_free_text(text, labels) == expect


def test_json_answer_must_be_a_label():
    assert parse_json_answer('{"answer": "MAYBE"}', ORDER) is None
    assert parse_json_answer("not json", ORDER) is None


def test_schema_and_grammar():
    assert json_schema(ORDER)["properties"]["answer"]["enum"] == list(ORDER)
    assert gbnf(['say "hi"']) == 'root ::= "say \\"hi\\""'
