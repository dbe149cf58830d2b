"""The parse-back audit: our comparison of what an auditor read with the skeleton, and the audit in a run."""
from __future__ import annotations

import orjson
import pytest

from providers.builtin import template_structure
from runner.fidelity.parse_back import audit_schema, compare, sampled
from tests.conftest import make
from tests.fake_server import FakeServer
from tests.conftest import bench
from tests.test_fidelity import run_grid
from tests.test_pipeline import records


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


AUDIT = ", audit: {provider: fake, rate: 1.0}"


def _reverse_first_premise(render, payload):
    """A renderer that states the first fact backwards: the names are right, so only an audit sees it."""
    first = render["premises"][0]
    a, b = first["text"].split(" stands somewhere to the left of ")
    first["text"] = f"{b[:-1]} stands somewhere to the left of {a}."
    return render


def _misread_first(facts, _):
    return [{**facts[0], "arguments": facts[0]["arguments"][::-1]}] + facts[1:]


def test_a_trusted_auditor_agrees_and_its_disagreement_rejects_a_reversed_render(tmp_path):
    with FakeServer() as server:
        renders, solves, out = run_grid(tmp_path / "a", server.url, "transitive_order", 6, AUDIT)
        assert all(r["status"] == "ok" and r["audit"] == "agrees" for r in renders) and len(solves) == 6
        assert "6/0/0" in out
        server.render_hook = _reverse_first_premise
        renders, solves, out = run_grid(tmp_path / "b", server.url, "transitive_order", 6, AUDIT)
    assert all(r["status"] == "unfaithful" and r["audit"] == "disagrees" for r in renders)
    assert all(any(c.startswith("audit: not read: LEFT_OF(") for c in r["checks"]) for r in renders)
    assert not solves and "0/6/0" in out
    calibration = records(tmp_path / "b" / "run", "calibration.jsonl")
    assert len(calibration) == 6 and all(c["audit"] == "agrees" for c in calibration)


def test_an_auditor_that_misreads_the_control_is_untrusted_and_rejects_nothing(tmp_path):
    with FakeServer() as server:
        server.audit_hook = _misread_first
        renders, solves, out = run_grid(tmp_path, server.url, "transitive_order", 6, AUDIT)
        grid = tmp_path / "grid.yaml"
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), check=True)
        requests_before = server.requests
        again = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), check=True)
        assert server.requests == requests_before   # calibration resumes like any unit: nothing re-asked
    # every render keeps the exact check's status; the auditor's word is kept, marked untrusted
    assert all(r["status"] == "ok" and r["audit"] == "audit_untrusted" for r in renders) and len(solves) == 6
    calibration = records(tmp_path / "run", "calibration.jsonl")
    assert len(calibration) == 6 and all(c["audit"] == "disagrees" for c in calibration)
    assert {c["skeleton"] for c in calibration} == {r["skeleton"] for r in renders}
    line = "bench: auditor fake on transitive_order: false alarms 6/6 (100%) on the template's renders " \
           "(threshold 5%): untrusted"
    assert line in proc.stderr and line not in again.stdout
    # never counted as renders: the renders log holds the fake renderer's units alone
    assert len(records(tmp_path / "run", "renders.jsonl")) == 6
    report = bench("report", str(tmp_path / "run"), check=True)
    summary = orjson.loads((tmp_path / "run" / "report" / "summary.json").read_bytes())
    [row] = summary["auditors"]
    assert (row["auditor"], row["family"], row["read"], row["agreed"], row["disagreed"], row["failed"],
            row["trusted"]) == ("fake", "transitive_order", 6, 0, 6, 0, False)
    assert "untrusted" in report.stdout and "auditors on the control" in report.stdout
    assert "| fake | transitive_order | 6 | 0 | 6 | 0 | 1.000 | 0.050 | no |" in \
        (tmp_path / "run" / "report" / "report.md").read_text()


def test_without_calibration_an_auditor_rejects_as_before(tmp_path):
    with FakeServer() as server:
        server.audit_hook = _misread_first
        renders, solves, _ = run_grid(tmp_path, server.url, "transitive_order", 4,
                                      ", audit: {provider: fake, rate: 1.0, calibrate: 0}")
    assert all(r["status"] == "unfaithful" and r["audit"] == "disagrees" for r in renders) and not solves
    assert not (tmp_path / "run" / "calibration.jsonl").exists()


def test_the_sample_is_the_first_n_of_each_family_and_a_threshold_lets_a_weak_auditor_through(tmp_path):
    calls = {"n": 0}

    def every_third(facts, _):   # misreads one control render in three
        calls["n"] += 1
        return _misread_first(facts, _) if calls["n"] % 3 == 0 else facts
    with FakeServer() as server:
        server.audit_hook = every_third
        renders, _, out = run_grid(tmp_path, server.url, "transitive_order", 9,
                                   ", audit: {provider: fake, rate: 0.0, calibrate: 3, max_false_alarm: 0.34}")
    calibration = records(tmp_path / "run", "calibration.jsonl")
    assert sorted(c["skeleton"].split("#")[0] for c in calibration) == ["order-0000", "order-0001", "order-0002"]
    assert sum(c["audit"] == "disagrees" for c in calibration) == 1
    summary_of = bench("report", str(tmp_path / "run"), check=True)
    [row] = orjson.loads((tmp_path / "run" / "report" / "summary.json").read_bytes())["auditors"]
    assert (row["read"], row["disagreed"], row["trusted"]) == (3, 1, True)   # 33% <= 34%
    assert "fake / transitive_order" in summary_of.stdout
