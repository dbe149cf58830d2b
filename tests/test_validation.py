"""The skeleton validator on anything a file may hold: a Skeleton or a SkeletonError, never another exception."""
from __future__ import annotations

import json

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from families.ir import Skeleton, SkeletonError
from families.registry import FAMILIES
from families.validation import skeleton_from_json
from providers.builtin import template_structure
from rendering.structure import assemble, from_object
from tests.conftest import FAMILY_NAMES, make

_scalar = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=12)
_json = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                                            max_size=4), max_leaves=15)
GOOD = [orjson.loads(make(f, i, c).to_json()) for f in FAMILY_NAMES for i, c in ((0, 1), (1, 3), (2, 6))]
FIELDS = sorted({k for obj in GOOD for k in obj})


def answer(line: bytes) -> Skeleton | SkeletonError:
    try:
        return skeleton_from_json(line)
    except SkeletonError as exc:
        assert str(exc) and "\n" not in str(exc)
        return exc


@settings(max_examples=400, deadline=None)
@given(data=st.binary(max_size=200))
def test_any_bytes(data):
    answer(data)


@settings(max_examples=400, deadline=None)
@given(value=_json)
def test_any_json_value(value):
    answer(json.dumps(value).encode())   # the stdlib writes what orjson will not: ints beyond 64 bits, NaN


@settings(max_examples=600, deadline=None)
@given(base=st.sampled_from(GOOD), field=st.sampled_from(FIELDS), value=_json, drop=st.booleans())
def test_one_field_of_a_valid_skeleton_changed_or_dropped(base, field, value, drop):
    obj = dict(base)
    if drop:
        obj.pop(field, None)
    else:
        obj[field] = value
    result = answer(json.dumps(obj).encode())
    if isinstance(result, Skeleton) and drop:   # only an optional field may be missing: it is written back as its default
        assert field in orjson.loads(result.to_json())


@settings(max_examples=300, deadline=None)
@given(base=st.sampled_from(GOOD), where=st.sampled_from(["premises", "query", "proof"]), value=_json)
def test_nested_parts_changed(base, where, value):
    obj = orjson.loads(orjson.dumps(base))
    part = obj.get(where)
    if isinstance(part, list) and part:
        part[0] = value
    elif isinstance(part, dict) and part:
        part[next(iter(part))] = value
    else:
        obj[where] = value
    answer(json.dumps(obj).encode())


@settings(max_examples=300, deadline=None)
@given(base=st.sampled_from(GOOD), label=st.text(max_size=12) | st.sampled_from(["MAYBE", "left_of", " YES", "UNKNOWN"]))
def test_a_skeleton_with_a_label_added_is_refused_or_one_the_template_words(base, label):
    """A skeleton validate accepts is one a run can put to a solver: a label outside a fixed-label family's set
    (which its wording cannot explain) is refused by name, not left to stop the run with a KeyError."""
    obj = dict(base, answer_options=[*base["answer_options"], label])
    result = answer(json.dumps(obj).encode())
    if isinstance(result, Skeleton):   # the problem a solver sees: raises where the wording cannot explain a label
        payload = result.redact()
        assert label in assemble(from_object(template_structure(payload)), payload)
    elif FAMILIES[base["family"]].labels is not None and label not in base["answer_options"]:
        assert f"answer_options: {label!r} is not a label of family" in str(result)


@settings(max_examples=100, deadline=None)
@given(fact=st.integers(0, 4), value=st.integers(-2**63, -1))
def test_a_negative_count_or_amount_is_refused_by_name(fact, value):
    """A counter's start and its moves are non-negative (the spec): a negative one is refused naming the fact,
    not passed to a template that then calls its own render unfaithful ("increases by -5")."""
    obj = orjson.loads(make("sequential_state_update", 0, 1).to_json())
    obj["facts"][fact]["arguments"][1] = value
    result = answer(json.dumps(obj).encode())
    assert isinstance(result, SkeletonError)
    assert f"facts[{fact}].arguments[1]: " in str(result) and "non-negative integer" in str(result)
