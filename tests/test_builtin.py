"""Built-in providers: the template renderer states every premise with labels verbatim; seeded baselines."""
from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.logicmark import logicmark_context
from families.registry import FAMILIES
from providers.base import RenderRequest, SolveRequest
from providers.builtin import PriorSolver, RandomSolver, Template, render_template
from rendering.structure import parse
from runner.fidelity.judge import judge
from tests.conftest import make


def test_template_states_every_premise_and_every_label(family):
    for i in range(100):
        sk = make(family, i, 5)
        text = render_template(sk.redact())
        for label in sk.answer_options:
            assert label in text
        # Exactly one line per premise in the premise block (after its one-line heading, if any).
        block = [l for l in text.split("\n\n")[0].splitlines()
                 if l not in ("If:", "People stand in a row.", "These events happen in this order:")]
        assert len(block) == len(sk.facts)


def test_template_text_cannot_depend_on_gold_or_proof(family):
    import dataclasses
    sk = make(family, 1, 4)
    other = next(o for o in sk.answer_options if o != sk.gold_answer)
    twin = dataclasses.replace(sk, gold_answer=other, proof=tuple(reversed(sk.proof)))
    assert render_template(sk.redact()) == render_template(twin.redact())


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 10**6), complexity=st.integers(1, 8))
def test_a_template_render_handed_on_parsed_is_judged_as_its_text(family, index, complexity):
    """The object the template hands the checker with its render is what parsing its JSON text gives."""
    sk = make(family, index, complexity)
    payload = sk.redact()
    done, parsed = Template("t").render_now_parsed(RenderRequest(prompt="", payload=payload, schema={}))
    assert parsed == parse(done.text)
    handed, read = (judge(done, "structured", sk.answer_options, payload, parsed=p) for p in (parsed, None))
    assert handed == read and handed.completion.status == "ok"
    text_only, none = Template("t").render_now_parsed(RenderRequest(prompt="", payload=payload))
    assert none is None and text_only.text == render_template(payload)


def test_template_equality_is_the_logicmark_task_format():
    sk = make("equality", 0, 3)
    text = render_template(sk.redact())
    assert text.startswith(logicmark_context(sk))
    # the card's lettered options, then our answer line with the labels verbatim
    assert text.splitlines()[-5:-1] == [f"{l}. {o}" for l, o in zip("ABCD", sk.answer_options)]
    assert text.splitlines()[-1] == f"Answer with exactly one of: {', '.join(sk.answer_options)}."


def test_template_keeps_procedural_order():
    sk = make("sequential_state_update", 0, 6)
    text = render_template(sk.redact())
    amounts = [int(m) for m in re.findall(r"(?:gains|loses) (\d+) items", text)]
    assert amounts == [f.arguments[1] for f in sk.facts if f.predicate != "INITIAL_VALUE"]


def test_template_deterministic_and_invents_names():
    sk = make("membership_inheritance", 4, 4)
    a = asyncio.run(Template("t").render(RenderRequest(prompt="", payload=sk.redact())))
    b = asyncio.run(Template("t").render(RenderRequest(prompt="", payload=sk.redact())))
    assert a.text == b.text and a.status == "ok"
    assert not re.search(r"\b[ES]\d+\b", a.text)   # no raw symbols


def test_random_is_seeded_and_uniform():
    labels = ("A", "B", "C")
    solver = RandomSolver("r", seed=1)
    picks = [asyncio.run(solver.solve(SolveRequest(prompt="", labels=labels, seed_key=f"u{i}"))).label
             for i in range(900)]
    again = [asyncio.run(solver.solve(SolveRequest(prompt="", labels=labels, seed_key=f"u{i}"))).label
             for i in range(900)]
    assert picks == again and all(abs(picks.count(l) - 300) < 60 for l in labels)


def test_prior_answers_a_fixed_position_and_scores_chance(family):
    solver = PriorSolver("p")
    hits = 0
    for i in range(600):
        sk = make(family, i, 3, seed=77)
        res = asyncio.run(solver.solve(SolveRequest(prompt="", labels=sk.answer_options,
                                                    family=family, complexity=3)))
        hits += res.label == sk.gold_answer
    slots = len(sk.answer_options)
    assert abs(hits / 600 - 1 / slots) < 0.07   # balanced labels: the prior is at chance
    assert FAMILIES[family].name == family
