"""The skeleton IR: JSONL round trip, validation errors that name the field, redaction, presets."""
from __future__ import annotations

import dataclasses

import orjson
import pytest

from families.ir import Atom, SkeletonError, parse_complexity
from families.validation import skeleton_from_json, validate
from tests.conftest import make


def test_jsonl_round_trip_with_tuples_as_arrays(family):
    sk = make(family, 3, 5)
    line = sk.to_json()
    obj = orjson.loads(line)
    assert isinstance(obj["facts"][0]["arguments"], list)
    assert list(obj) == ["id", "family", "complexity", "entities", "facts", "rules", "query",
                         "answer_options", "gold_answer", "proof"]
    assert skeleton_from_json(line) == sk


def test_spec_example_validates():
    line = b'''{"id": "order-0000", "family": "transitive_order", "complexity": 2,
      "entities": {"E0": "Entity", "E1": "Entity", "E2": "Entity"},
      "facts": [{"predicate": "LEFT_OF", "arguments": ["E0", "E1"]},
                {"predicate": "LEFT_OF", "arguments": ["E1", "E2"]}],
      "rules": ["LEFT_OF is transitive", "RIGHT_OF(x,y) iff LEFT_OF(y,x)"],
      "query": {"predicate": "RELATION", "arguments": ["E0", "E2"]},
      "answer_options": ["LEFT_OF", "RIGHT_OF", "UNKNOWN"],
      "gold_answer": "LEFT_OF", "proof": ["LEFT_OF(E0,E1)", "LEFT_OF(E1,E2)"]}'''
    assert skeleton_from_json(line).gold_answer == "LEFT_OF"


BASE = make("transitive_order", 0, 2)


@pytest.mark.parametrize("change, field", [
    (dict(family="nope"), "family"),
    (dict(id="member-0000"), "id"),
    (dict(complexity=0, proof=()), "complexity"),
    (dict(complexity=21), "complexity"),
    (dict(gold_answer="MAYBE"), "gold_answer"),
    (dict(proof=BASE.proof[:1]), "proof"),
    (dict(answer_options=("LEFT_OF", "LEFT_OF", "UNKNOWN")), "answer_options"),
    (dict(facts=(Atom("LEFT_OF", ("E0", "ZZ")),) + BASE.facts[1:]), "facts[0].arguments[1]"),
    (dict(facts=(Atom("LEFT_OF", ("E0",)),) + BASE.facts[1:]), "facts[0].arguments"),
    (dict(facts=(Atom("SUBSET_OF", ("E0", "E1")),) + BASE.facts[1:]), "facts[0].predicate"),
    (dict(query=Atom("RELATION", ("E0", 3))), "query.arguments[1]"),
    (dict(entities={**BASE.entities, "E0": "Set"}), "entities.E0"),
])
def test_validate_names_the_field(change, field):
    bad = dataclasses.replace(BASE, **change)
    with pytest.raises(SkeletonError) as err:
        validate(bad)
    assert str(err.value).startswith(field), str(err.value)


def test_integer_literal_type_checked():
    sk = make("sequential_state_update", 0, 2)
    bad = dataclasses.replace(sk, facts=(Atom("INITIAL_VALUE", ("C0", "C1")),) + sk.facts[1:])
    with pytest.raises(SkeletonError, match=r"facts\[0\]\.arguments\[1\]: .*integer"):
        validate(bad)


@pytest.mark.parametrize("line, start", [
    (b"{", "line: not valid JSON"),
    (b"[]", "line: expected a JSON object"),
    (b'{"id": "order-0000"}', "family: missing field"),
])
def test_malformed_lines(line, start):
    with pytest.raises(SkeletonError, match=f"^{start}"):
        skeleton_from_json(line)


def test_unknown_field_rejected():
    obj = orjson.loads(BASE.to_json())
    obj["hint"] = "LEFT_OF"
    with pytest.raises(SkeletonError, match="^hint: unknown field"):
        skeleton_from_json(orjson.dumps(obj))


@pytest.mark.parametrize("text, value", [("short", 2), ("medium", 4), ("long", 6), ("1", 1), ("20", 20), (7, 7),
                                         (" 3 ", 3), ("03", 3)])
def test_complexity_presets(text, value):
    assert parse_complexity(text) == value


@pytest.mark.parametrize("text", ["0", "21", "huge", "", "2.5", "٣", "1_0", "+3", "-1", "³"])
def test_complexity_out_of_range(text):
    with pytest.raises(ValueError, match="expected"):
        parse_complexity(text)


def test_identity_is_id_plus_content_hash():
    a, b = make("equality", 0, 3, seed=1), make("equality", 0, 3, seed=2)
    assert a.identity.startswith("equality-0000#") and a.identity != b.identity
    assert a.identity == make("equality", 0, 3, seed=1).identity
