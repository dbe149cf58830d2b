"""The parse-back audit: our comparison of what an auditor read with the skeleton, and the audit in a run."""
from __future__ import annotations

import orjson
import pytest

from providers.builtin import template_structure
from runner.fidelity.parse_back import audit_schema, compare, sampled
from tests.conftest import make
from tests.fake_server import FakeServer
from tests.test_fidelity import run_grid


def read_back(payload, names, change=None) -> str:
    facts = [{"predicate": f["predicate"], "arguments": [names.get(a, a) for a in f["arguments"]]}
             for f in payload["facts"]]
    if change:
        change(facts)
    return orjson.dumps({"facts": facts}).decode()


def test_the_same_facts_in_any_order_agree_for_a_declarative_family():
    payload = make("transitive_order", 3, 4).redact()
    names = template_structure(payload)["names"]
    assert compare(read_back(payload, names, lambda f: f.reverse()), payload, names) == ("agrees", None)


def test_a_reversed_relation_disagrees_and_says_which():
    payload = make("transitive_order", 3, 4).redact()
    names = template_structure(payload)["names"]
    verdict, what = compare(read_back(payload, names, lambda f: f[0]["arguments"].reverse()), payload, names)
    a, b = payload["facts"][0]["arguments"]
    assert verdict == "disagrees" and f"LEFT_OF({a},{b})" in what and f"LEFT_OF({b},{a})" in what


def test_a_procedural_family_is_compared_in_order():
    payload = make("sequential_state_update", 3, 5).redact()
    names = template_structure(payload)["names"]
    verdict, what = compare(read_back(payload, names, lambda f: f.insert(1, f.pop(3))), payload, names)
    assert verdict == "disagrees" and "in order, fact 1" in what


@pytest.mark.parametrize("answer", ["", "[]", '{"facts": 3}', '{"facts": [1]}', '{"nope": []}'])
def test_an_unusable_answer_is_a_failed_audit(answer):
    payload = make("equality", 0, 2).redact()
    assert compare(answer, payload, {s: s for s in payload["entities"]})[0] == "failed"


def test_the_schema_names_predicates_and_names_only():
    payload = make("membership_inheritance", 0, 2).redact()
    names = template_structure(payload)["names"]
    item = audit_schema(payload, names)["properties"]["facts"]["items"]
    assert item["properties"]["predicate"]["enum"] == ["MEMBER_OF", "NOT_MEMBER_OF", "SUBSET_OF"]
    assert set(item["properties"]["arguments"]["items"]["anyOf"][0]["enum"]) == set(names.values())


def test_sampling_is_stable_and_near_the_rate():
    picks = [sampled(f"key-{i}", 0.3) for i in range(4000)]
    assert picks == [sampled(f"key-{i}", 0.3) for i in range(4000)]
    assert abs(sum(picks) / 4000 - 0.3) < 0.03


def test_an_audited_run_agrees_and_a_misread_render_becomes_unfaithful(tmp_path):
    with FakeServer() as server:
        renders, solves, out = run_grid(tmp_path / "a", server.url, "transitive_order", 6,
                                        ", audit: {provider: fake, rate: 1.0}")
        assert all(r["status"] == "ok" and r["audit"] == "agrees" for r in renders) and len(solves) == 6
        assert "6/0/0" in out
        # The auditor reads the first premise backwards: the render's direction is in doubt.
        server.audit_hook = lambda facts, payload: [{**facts[0], "arguments": facts[0]["arguments"][::-1]}] + facts[1:]
        renders, solves, out = run_grid(tmp_path / "b", server.url, "transitive_order", 6,
                                        ", audit: {provider: fake, rate: 1.0}")
    assert all(r["status"] == "unfaithful" and r["audit"] == "disagrees" for r in renders)
    assert all(any(c.startswith("audit: not read: LEFT_OF(") for c in r["checks"]) for r in renders)
    assert not solves and "0/6/0" in out
