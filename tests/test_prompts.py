"""Prompt templates: the shipped files equal the built-in defaults; filling never leaks gold or proof."""
from __future__ import annotations

import pytest

from rendering.structure import names_fixed
from runner.config.prompts import RENDER_DEFAULT, RENDER_STRUCTURED_DEFAULT, SOLVE_DEFAULT, fill_render, fill_solve
from tests.conftest import ROOT, make


def test_shipped_prompt_files_match_defaults():
    assert (ROOT / "configs/prompts/render.txt").read_text() == RENDER_DEFAULT + "\n"
    assert (ROOT / "configs/prompts/solve.txt").read_text() == SOLVE_DEFAULT + "\n"


def test_render_prompt_has_payload_and_labels_but_no_gold_field_or_proof(family):
    sk = make(family, 2, 5)
    prompt = fill_render(RENDER_DEFAULT, sk.redact())
    assert sk.id in prompt and all(l in prompt for l in sk.answer_options)
    assert "gold_answer" not in prompt and "proof" not in prompt
    assert all(step not in prompt for step in sk.proof)


def test_solve_prompt_carries_problem_and_labels():
    p = fill_solve(SOLVE_DEFAULT, "The problem {with braces}.", ("YES", "NO"))
    assert p.startswith("The problem {with braces}.") and p.endswith("YES, NO")


@pytest.mark.parametrize("template", [RENDER_DEFAULT, RENDER_STRUCTURED_DEFAULT])
def test_a_render_prompt_says_to_keep_the_symbols_where_the_labels_spell_them(family, template):
    """Equality's labels ("c != h") name symbols: a model that renames them (as the plain prompt asks) writes a
    render the check must refuse, so the prompt tells it to keep them; other families invent names."""
    sk = make(family, 2, 5)
    prompt = fill_render(template, sk.redact())
    told = "do not rename them" in prompt
    assert told == names_fixed(sk.redact())
    if told:   # and nothing before it asks for invented names: a note that contradicts the rules is not followed
        assert f"({', '.join(sk.entities)})" in prompt
        assert "invented name" not in prompt and "named as itself" in prompt
    else:
        assert "invented name" in prompt


def test_a_family_s_note_on_its_numbers_reaches_a_renderer_that_words_them_itself(family):
    """The counters' amounts as counts, not measures (the check refuses "96 liters"): said to a renderer that
    invents its words; not to one given each fact in words (assigned names), whose prompt stays as it was."""
    from families.registry import FAMILIES
    from rendering.names import assigned_names
    sk = make(family, 2, 5)
    note = FAMILIES[family].wording.prompt_note
    assert (family == "sequential_state_update") == bool(note)
    if note:
        assert note in fill_render(RENDER_STRUCTURED_DEFAULT, sk.redact())
        assert note not in fill_render(RENDER_STRUCTURED_DEFAULT, sk.redact(), names=assigned_names(sk.redact(), "k"))
