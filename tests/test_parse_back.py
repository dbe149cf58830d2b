"""The parse-back audit: our comparison of what an auditor read with the skeleton, and the audit in a run."""
from __future__ import annotations

import orjson
import pytest

from providers.builtin import template_structure
from runner.fidelity.parse_back import audit_schema, compare, sampled
from tests.conftest import bench, make
from tests.fake_server import FakeServer
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
    """A renderer that states the first fact backwards, names all right."""
    first = render["premises"][0]
    a, b = first["text"][:-1].split(" is to the left of ")
    first["text"] = f"{b} is to the left of {a}."
    return render


def _unread_first_premise(render, payload):
    """A renderer that states the first fact in words no family's wording has (but an auditor reads)."""
    first = render["premises"][0]
    a, b = first["text"][:-1].split(" is to the left of ")
    first["text"] = f"In the row, {a} comes before {b}."
    return render


def _misread_first(facts, _):
    return [{**facts[0], "arguments": facts[0]["arguments"][::-1]}] + facts[1:]


def test_a_trusted_auditor_agrees_and_a_reversed_render_is_misread_by_the_check_itself(tmp_path):
    with FakeServer() as server:
        renders, solves, out = run_grid(tmp_path / "a", server.url, "transitive_order", 6, AUDIT)
        assert all(r["status"] == "ok" and r["audit"] == "agrees" for r in renders) and len(solves) == 6
        assert "6/0/0" in out
        server.render_hook = _reverse_first_premise
        renders, solves, out = run_grid(tmp_path / "b", server.url, "transitive_order", 6, AUDIT)
    # the words are read back: no auditor is needed, or asked, to see a reversed relation
    assert all(r["status"] == "unfaithful" and r["audit"] is None for r in renders)
    assert all(any(c.startswith("misread: the premise of fact 0 LEFT_OF(") and c.endswith("(direction)")
                   for c in r["checks"]) for r in renders)
    assert not solves
    # 80 control renders per family: the grid's 6 and 74 generated for calibration
    calibration = records(tmp_path / "b" / "run", "calibration.jsonl")
    assert len(calibration) == 80 and all(c["audit"] == "agrees" for c in calibration)
    assert sum(c["skeleton"].startswith("control-") for c in calibration) == 74


def test_unread_premises_go_to_a_calibrated_trusted_auditor_only(tmp_path):
    with FakeServer() as server:
        server.render_hook = _unread_first_premise
        renders, solves, _ = run_grid(tmp_path / "none", server.url, "transitive_order", 4)
        assert all(r["status"] == "unfaithful" and r["checks"] == [next(c for c in r["checks"] if c.startswith(
            "unread: the premise of fact 0"))] for r in renders) and not solves
        # trusted (0 of 80 false alarms, at most 4.6%): it reads the unread premise; the render is scored
        renders, solves, out = run_grid(tmp_path / "trusted", server.url, "transitive_order", 4,
                                        ", audit: {provider: fake, rate: 0.0}")
        assert all(r["status"] == "ok" and r["audit"] == "agrees" for r in renders) and len(solves) == 4
        report = bench("report", str(tmp_path / "trusted" / "run"), check=True)
        assert "read by the auditor" in report.stdout
        # calibrated on 20 only: 0 of 20 does not show a rate under 5% (at most 16%): not trusted to read
        renders, solves, out = run_grid(tmp_path / "few", server.url, "transitive_order", 4,
                                        ", audit: {provider: fake, rate: 0.0, calibrate: 20}")
        assert all(r["status"] == "unfaithful" and r["audit"] is None for r in renders) and not solves
        bench("report", str(tmp_path / "few" / "run"), check=True)
        [row] = orjson.loads((tmp_path / "few" / "run" / "report" / "summary.json").read_bytes())["auditors"]
        assert (row["read"], row["disagreed"], row["false_alarm_upper"], row["trusted"]) == (20, 0, 0.1611, False)
        # uncalibrated: never trusted to read what the check could not
        renders, solves, out = run_grid(tmp_path / "off", server.url, "transitive_order", 4,
                                        ", audit: {provider: fake, rate: 0.0, calibrate: 0}")
        assert all(r["status"] == "unfaithful" for r in renders) and not solves
        # a trusted auditor that reads the render otherwise rejects it
        calls = {"n": 0}

        def after_calibration(facts, _):   # calibration (80 read-backs) runs before any render
            calls["n"] += 1
            return facts if calls["n"] <= 80 else _misread_first(facts, _)
        server.audit_hook = after_calibration
        renders, solves, out = run_grid(tmp_path / "disagrees", server.url, "transitive_order", 4,
                                        ", audit: {provider: fake, rate: 0.0}")
    assert all(r["status"] == "unfaithful" and r["audit"] == "disagrees" for r in renders) and not solves


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
    assert len(calibration) == 80 and all(c["audit"] == "disagrees" for c in calibration)
    assert {c["skeleton"] for c in calibration} >= {r["skeleton"] for r in renders}
    line = "bench: auditor fake on transitive_order: false alarms 80/80 (100%, at most 100%) on the template's " \
           "renders (threshold 5%): untrusted"
    assert line in proc.stderr and line not in again.stdout
    # never counted as renders: the renders log holds the fake renderer's units alone
    assert len(records(tmp_path / "run", "renders.jsonl")) == 6
    report = bench("report", str(tmp_path / "run"), check=True)
    summary = orjson.loads((tmp_path / "run" / "report" / "summary.json").read_bytes())
    [row] = summary["auditors"]
    assert (row["auditor"], row["family"], row["read"], row["agreed"], row["disagreed"], row["failed"],
            row["trusted"]) == ("fake", "transitive_order", 80, 0, 80, 0, False)
    assert "untrusted" in report.stdout and "auditors on the control" in report.stdout
    assert "| fake | transitive_order | 80 | 0 | 80 | 0 | 1.000 | 1.000 | 0.050 | no |" in \
        (tmp_path / "run" / "report" / "report.md").read_text()


def test_without_calibration_an_auditor_rejects_as_before(tmp_path):
    with FakeServer() as server:
        server.audit_hook = _misread_first
        renders, solves, _ = run_grid(tmp_path, server.url, "transitive_order", 4,
                                      ", audit: {provider: fake, rate: 1.0, calibrate: 0}")
    assert all(r["status"] == "unfaithful" and r["audit"] == "disagrees" for r in renders) and not solves
    assert not (tmp_path / "run" / "calibration.jsonl").exists()


def test_the_sample_is_the_first_n_of_each_family_and_a_threshold_on_the_interval_lets_a_weak_auditor_through(
        tmp_path):
    calls = {"n": 0}

    def every_third(facts, _):   # misreads one control render in three
        calls["n"] += 1
        return _misread_first(facts, _) if calls["n"] % 3 == 0 else facts
    with FakeServer() as server:
        server.audit_hook = every_third
        renders, _, out = run_grid(tmp_path, server.url, "transitive_order", 9,
                                   ", audit: {provider: fake, rate: 0.0, calibrate: 3, max_false_alarm: 0.8}")
    calibration = records(tmp_path / "run", "calibration.jsonl")
    assert sorted(c["skeleton"].split("#")[0] for c in calibration) == ["order-0000", "order-0001", "order-0002"]
    assert sum(c["audit"] == "disagrees" for c in calibration) == 1
    summary_of = bench("report", str(tmp_path / "run"), check=True)
    [row] = orjson.loads((tmp_path / "run" / "report" / "summary.json").read_bytes())["auditors"]
    # 1 of 3: 33%, at most 79% (Wilson), under 80%
    assert (row["read"], row["disagreed"], row["trusted"], row["false_alarm_upper"]) == (3, 1, True, 0.7923)
    assert "fake / transitive_order" in summary_of.stdout
