"""The render schema: one slot per fact (its index a const), names const where given, bounded patterns that
spell each fact's names and numbers (property-tested against the checker), and what each server gets."""
from __future__ import annotations

import re

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rendering.names import assigned_names
from rendering.schema import for_server, render_schema
from rendering.structure import check, from_object, names_fixed
from tests.conftest import FAMILY_NAMES, make


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


@pytest.mark.parametrize("complexity", [1, 4, 20])
def test_every_fact_has_its_slot(family, complexity):
    payload = make(family, 5, complexity).redact()
    premises = render_schema(payload)["properties"]["premises"]
    n = len(payload["facts"])
    assert premises["items"] is False and premises["minItems"] == premises["maxItems"] == n
    assert [slot["properties"]["fact"] for slot in premises["prefixItems"]] == [{"const": i} for i in range(n)]


def test_names_are_const_only_where_given(family):
    payload = make(family, 2, 3).redact()
    own = render_schema(payload)["properties"]["names"]["properties"]
    given_names = assigned_names(payload, "k")
    fixed = render_schema(payload, given_names)["properties"]["names"]["properties"]
    if names_fixed(payload):   # equality: the symbols are their own names, whatever is given
        assert own == fixed == {s: {"const": s} for s in payload["entities"]}
    else:
        assert all("const" not in v for v in own.values())
        assert fixed == {s: {"const": given_names[s]} for s in payload["entities"]}


def test_patterns_only_with_given_names_and_never_beside_a_max_length(family):
    payload = make(family, 1, 4).redact()
    own = render_schema(payload)
    assert not [n for n in _walk(own) if "pattern" in n]   # names of the model's own: no pattern
    schema = render_schema(payload, assigned_names(payload, "k"))
    with_patterns = [n for n in _walk(schema) if "pattern" in n]
    assert len(with_patterns) >= len(payload["facts"]) + 1
    # xgrammar refuses a pattern beside maxLength: a pattern server gets the pattern alone, others the bound
    vllm, other = for_server(schema, True), for_server(schema, False)
    assert all("maxLength" not in n for n in _walk(vllm) if "pattern" in n)
    assert not [n for n in _walk(other) if "pattern" in n]
    assert sum("maxLength" in n for n in _walk(other)) == sum("maxLength" in n for n in _walk(schema))


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False) | st.sampled_from(["string", "object", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "pattern", "maxLength", "properties", "items", "const"]), inner, max_size=4),
    max_leaves=30)


def _for_server_by_definition(schema, patterns):
    """The rule, spelled plainly: a string node with a pattern drops its maxLength (pattern servers) or its
    pattern (the others); every other mapping and list is walked; anything else is kept."""
    if isinstance(schema, dict):
        if schema.get("type") == "string" and "pattern" in schema:
            return {k: v for k, v in schema.items() if k != ("maxLength" if patterns else "pattern")}
        return {k: _for_server_by_definition(v, patterns) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_for_server_by_definition(v, patterns) for v in schema]
    return schema


@settings(max_examples=300, deadline=None)
@given(schema=_JSON, patterns=st.booleans())
def test_what_a_server_gets_is_the_rule_on_any_json(schema, patterns):
    got = for_server(schema, patterns)
    assert got == _for_server_by_definition(schema, patterns)
    assert orjson.dumps(got) == orjson.dumps(_for_server_by_definition(schema, patterns))   # types kept too


def _sentence_strategy(pattern: str):
    return st.from_regex(re.compile(pattern), fullmatch=True)


@pytest.mark.parametrize("family_name", FAMILY_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), index=st.integers(0, 50), complexity=st.integers(1, 8))
def test_any_render_the_patterns_allow_is_faithful(family_name, data, index, complexity):
    """Right by construction: whatever a pattern server lets a renderer write reads back as its facts."""
    payload = make(family_name, index, complexity).redact()
    names = {s: s for s in payload["entities"]} if names_fixed(payload) else assigned_names(payload, str(index))
    schema = render_schema(payload, names)
    slots = schema["properties"]["premises"]["prefixItems"]
    texts = [data.draw(_sentence_strategy(slot["properties"]["text"]["pattern"])) for slot in slots]
    question = data.draw(_sentence_strategy(schema["properties"]["question"]["pattern"]))
    assert schema["properties"]["intro"] == {"const": ""}   # left out: a small model's intro restated facts
    render = from_object({"names": names, "intro": "", "question": question,
                          "premises": [{"fact": i, "text": t} for i, t in enumerate(texts)]})
    assert check(render, payload, names) == []


def test_the_schema_is_json():
    payload = make("sequential_state_update", 0, 4).redact()
    schema = render_schema(payload, assigned_names(payload, "k"))
    assert orjson.loads(orjson.dumps(schema)) == schema
    pats = [n["pattern"] for n in _walk(schema) if "pattern" in n]
    for p in pats:   # bounded: no unbounded repetition, which let SmolLM2 loop until max_tokens
        assert not set("*+") & set(p), p
