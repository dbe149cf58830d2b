"""A render's kind noun in its plural after two names joined by "and" (families/kind_nouns.py): "the kumquat and
elderberry crates carry equal prices" reads as the pair; another plural noun, or a plural that owns what is compared,
never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.free_forms import s_form
from families.kind_nouns import KindMarked
from families.reading import reader

VARS = ("kumquat", "elderberry", "Oystercove", "Islemark", "Tidewell", "Pelling", "Quokka", "Newt")
_KIND = st.sampled_from(["crate", "lighthouse", "pouch", "box", "tower", "jar", "beacon", "cottage"])
_OTHER = st.sampled_from(["brothers", "owners", "neighbours", "rivals", "keepers", "twins"])
_SAID = st.sampled_from([("The {a} and {b} {k} carry equal prices.", "EQUAL"),
                         ("The {a} and {b} {k} have different rhythms.", "NOT_EQUAL"),
                         ("The {a} and {b} {k} are priced equally.", "EQUAL"),
                         ("The {a} and {b} {k} flash in different rhythms.", "NOT_EQUAL")])


@settings(max_examples=150, deadline=None)
@given(pair=st.tuples(st.sampled_from(VARS), st.sampled_from(VARS)).filter(lambda p: p[0] != p[1]), kind=_KIND,
       other=_OTHER, said=_SAID)
def test_a_kind_nouns_plural_after_a_pair_reads_and_no_other_plural_does(pair, kind, other, said):
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    marked = KindMarked(names, types, frozenset({kind}))
    form, fact = said
    negated = "NOT_EQUAL" if fact == "EQUAL" else "EQUAL"

    def read(text: str, predicate: str) -> str:
        return reader("equality").read_fact(text, (predicate, ("V0", "V1")), marked, types).kind
    text = form.format(a=a, b=b, k=s_form(kind))
    assert read(text, fact) == "read", text
    assert read(text, negated) != "read", text
    for wrong in (form.format(a=a, b=b, k=other), form.format(a=a, b=b, k=f"{s_form(kind)}' {other}"),
                  form.format(a=a, b=b, k=f"{s_form(kind)} probably")):
        assert read(wrong, fact) != "read", wrong
