"""Names as they look (rendering/lookalike.py): a dotless stroke of another script (the Cyrillic palochka ӏ, the
dotless ı, the Latin or Greek iota) in place of "l" or "i" looks like either, so such a name is one name with its
Latin twin; the Latin letters "i" and "l" themselves stay two names."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rendering.lookalike import looks

STROKES = "ıӏɩι"


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["l", "lark", "Milo", "bell", "i", "iris", "Kit", "Lila"]), st.sampled_from(STROKES),
       st.integers(0, 10))
def test_a_dotless_stroke_for_l_or_i_looks_like_the_name(name: str, stroke: str, at: int) -> None:
    spots = [k for k, c in enumerate(name) if c in "liLI"]
    k = spots[at % len(spots)]
    alike = name[:k] + stroke + name[k + 1:]
    assert looks(alike) & looks(name), (alike, name)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("i", "l"), ("bill", "biil"), ("Lia", "Ila"), ("lk", "ik"), ("Mila", "Mia")]))
def test_latin_i_and_l_stay_two_letters(pair: tuple[str, str]) -> None:
    a, b = pair
    assert not looks(a) & looks(b), pair
