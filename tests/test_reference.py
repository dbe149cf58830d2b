"""The grid reference cannot drift: docs/grid.md is made from the checker's own tables, and says every key."""
from __future__ import annotations

from runner.config.reference import KEYS, accepted, markdown
from tests.conftest import ROOT


def test_every_key_the_checker_takes_is_documented_and_no_other():
    assert set(KEYS) == accepted(), (sorted(accepted() - set(KEYS)), sorted(set(KEYS) - accepted()))


def test_docs_grid_md_is_the_generated_page():
    assert (ROOT / "docs" / "grid.md").read_text() == markdown(), \
        "docs/grid.md is stale: python -m runner.config.reference > docs/grid.md"


def test_the_readme_s_grid_is_a_grid_the_checker_takes(tmp_path):
    import re

    from runner.config.grid import load_grid
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## A grid, line by line\n\n```yaml\n(.*?)```", text, re.S).group(1)
    (tmp_path / "grid.yaml").write_text(block)
    grid = load_grid(tmp_path / "grid.yaml", env={"OPENAI_API_KEY": "k"})
    assert [st.label for st in grid.renderers] == ["template", "qwen"] and len(grid.solvers) == 3


def test_every_docs_link_of_the_readme_leads_to_a_page():
    import re
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(((?:docs/)?[\w./-]+)\)", text)
    assert links and all((ROOT / link).exists() for link in links), [l for l in links if not (ROOT / l).exists()]
