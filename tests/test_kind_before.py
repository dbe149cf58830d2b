"""Kind nouns before names ("register n", "registers i and m") and a story's own measure noun ("the same colour"):
an equality render written with them reads premise by premise; a wrong premise among them is never read."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.free_forms import s_form
from families.wording import HEDGES
from rendering.structure import StructuredRender, check
from tests.conftest import make

# Plain nouns of a story: none is a word of equality's grammar.
KINDS = ("register", "jar", "tile", "dial", "crate", "envelope", "bell", "box", "card", "lamp", "chest", "vial",
         "token", "marble", "drawer", "beacon", "flask", "socket")
MEASURES = ("colour", "code", "weight", "pitch", "shade", "label", "charge", "tone", "setting", "quantity", "amount",
            "reading", "pattern", "signal")
# (EQUAL, NOT_EQUAL) frames: {k} the kind noun, {ks} its plural, {m} the measure, {ms} its plural.
COMPARED = (
    ("{K} {0} holds the same {m} as {k} {1}", "{K} {0} does not hold the same {m} as {k} {1}"),
    ("{K} {0} and {k} {1} contain equal {ms}", "{K} {0} and {k} {1} contain different {ms}"),
    ("{KS} {0} and {1} show the same {m}", "{KS} {0} and {1} show different {ms}"),
    ("{K} {0} is painted the same {m} as {k} {1}", "{K} {0} is not painted the same {m} as {k} {1}"),
    ("{K} {0} has exactly the same {m} as {k} {1}", "{K} {0} and {k} {1} do not have the same {m}"),
    ("{KS} {0} and {1} share the same {m}", "{KS} {0} and {1} have different {ms}"),
    ("{K} {0} belongs to the same {m} as {k} {1}", "{K} {0} and {k} {1} belong to different {ms}"))
PLAIN = (
    ("The {m} in {k} {0} equals the {m} in {k} {1}", "The {m} in {k} {0} differs from the {m} in {k} {1}"),
    ("The {m} of {k} {0} is the same as that of {k} {1}", "The {m} of {k} {0} is not the same as that of {k} {1}"),
    ("{K} {0} matches {k} {1} in {m}", "{K} {0} differs in {m} from {k} {1}"),
    ("{K} {0} is identical in {m} to {k} {1}", "{KS} {0} and {1} differ in {m}"),
    ("{K} {0} is equal to {k} {1}", "The {ms} in {k} {0} and {k} {1} are unequal"),
    ("The {k} {0} equals {k} {1}", "{K} {0} is distinct from {k} {1}"),
    ("{K} {0} holds as many beads as {k} {1}", "{K} {0} and {k} {1} are not equal"),
    ("{KS} {0} and {1} are painted identically", "{KS} {0} and {1} are tuned differently"))
FRAMES = COMPARED + PLAIN


def _say(frame: str, args: tuple[str, str], kind: str, measure: str) -> str:
    text = frame.format(*args, k=kind, K=kind.capitalize(), KS=s_form(kind).capitalize(), m=measure,
                        ms=s_form(measure))
    return text[:1].upper() + text[1:] + "."


def _render(data: st.DataObject, poison: str = "") -> tuple[StructuredRender, dict, int]:
    """An equality render of a drawn item, each premise in a drawn frame, kind noun and measure; with `poison`,
    one premise (the index returned) says something else."""
    payload = make("equality", data.draw(st.integers(0, 30)), data.draw(st.integers(2, 4))).redact()
    kind, measure = data.draw(st.sampled_from(KINDS)), data.draw(st.sampled_from(MEASURES))
    names = {s: s for s in payload["entities"]}
    facts = payload["facts"]
    at = data.draw(st.integers(2, len(facts) - 1))
    premises = []
    for i, f in enumerate(facts):
        args = tuple(f["arguments"])
        if data.draw(st.booleans()):
            args = args[::-1]     # either order: (in)equality is symmetric
        # the first two premises say the measure after "same"/"different": the render shows its measure noun
        pair = data.draw(st.sampled_from(COMPARED if i < 2 else FRAMES))
        negative = f["predicate"] == "NOT_EQUAL"
        frame = pair[negative]
        if i == at and poison:
            frame, args = _poisoned(data, poison, pair, negative, args, payload)
        premises.append((i, _say(frame, args, kind, measure)))
    question = "Which of the options follows from the premises?"
    return StructuredRender(names, tuple(premises), question), payload, at


def _poisoned(data: st.DataObject, poison: str, pair: tuple[str, str], negative: bool, args: tuple[str, str],
              payload: dict) -> tuple[str, tuple[str, str]]:
    if poison == "flipped":
        return pair[not negative], args
    if poison == "more":
        return data.draw(st.sampled_from(("{K} {0} holds more {ms} than {k} {1}", "{K} {0} holds fewer {ms} than {k} {1}",
                                          "{K} {0} is almost the same {m} as {k} {1}",
                                          "{K} {0} is a similar {m} to {k} {1}",
                                          "{K} {0} holds at least as many beads as {k} {1}",
                                          "{K} {0} holds twice as many beads as {k} {1}",
                                          "{K} {0} is close to {k} {1} in {m}"))), args
    if poison == "hedge":
        hedge = data.draw(st.sampled_from(sorted(HEDGES)))
        return pair[negative].replace("{0} ", "{0} " + hedge + " ", 1), args
    if poison == "other":   # another symbol in place of one argument
        others = sorted(s for s in payload["entities"] if s not in args)
        return pair[negative], (args[0], data.draw(st.sampled_from(others)))
    # a word before one name only, a cue word of the grammar: never a kind noun
    cue = data.draw(st.sampled_from(("false", "wrong", "untrue", "impossible", "incorrect")))
    frame = COMPARED[0][negative]
    return frame.replace("{K} {0}", cue.capitalize() + " {0}"), args


def _about(reasons: list[str], at: int) -> list[str]:
    return [r for r in reasons if f"premise of fact {at} " in r]


def _premise_reasons(reasons: list[str]) -> list[str]:
    return [r for r in reasons if "the premise of fact" in r]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_render_with_kind_nouns_before_names_and_its_own_measure_reads_premise_by_premise(data):
    render, payload, _ = _render(data)
    reasons = _premise_reasons(check(render, payload))
    assert reasons == [], [t for i, t in render.premises if any(f"fact {i} " in r for r in reasons)]


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(("flipped", "more", "hedge", "other", "cue")))
def test_a_wrong_premise_among_kind_nouns_and_measures_is_never_read(data, poison):
    render, payload, at = _render(data, poison)
    assert _about(check(render, payload), at), render.premises[at]


def _registers(texts: list[str]) -> tuple[StructuredRender, dict]:
    payload = make("equality", 1, 2).redact()
    premises = tuple((i, t.format(*f["arguments"])) for i, (f, t) in enumerate(zip(payload["facts"], texts)))
    return StructuredRender({s: s for s in payload["entities"]}, premises, "Which option follows?"), payload


def _said(payload: dict, equal: str, unequal: str) -> list[str]:
    return [equal if f["predicate"] == "EQUAL" else unequal for f in payload["facts"]]


def test_a_noun_before_one_name_only_is_no_kind_noun():
    payload = make("equality", 1, 2).redact()
    texts = _said(payload, "{0} equals {1}.", "{0} differs from {1}.")
    texts[0] = "Gadget " + texts[0]   # "gadget" before one name: a word unaccounted for
    render, payload = _registers(texts)
    assert [r.split(":")[0] for r in _premise_reasons(check(render, payload))] == ["unread"]


def test_a_measure_short_of_the_value_is_never_read_as_equality():
    payload = make("equality", 1, 2).redact()
    # the same sign, the same parity: said in every premise, a story's noun all the same, and never the value
    for noun in ("sign", "parity", "paritys"):
        render, payload = _registers(_said(payload, f"Register {{0}} has the same {noun} as register {{1}}.",
                                           f"Registers {{0}} and {{1}} have different {s_form(noun)}."))
        reasons = _premise_reasons(check(render, payload))
        equal = [i for i, f in enumerate(payload["facts"]) if f["predicate"] == "EQUAL"]
        assert all(_about(reasons, i) for i in equal), reasons


def test_the_letter_a_as_an_article_after_a_kind_noun_is_no_name_read_away():
    payload = make("equality", 1, 2).redact()
    texts = _said(payload, "Tile {0} is the same colour as tile {1}.", "Tile {0} differs from tile {1}.")
    render, payload = _registers(texts)
    assert _premise_reasons(check(render, payload)) == []
    names = {s: s for s in payload["entities"]}
    if "a" in names:
        f0 = payload["facts"][0]
        bad = f"Tile {f0['arguments'][0]} differs from a tile."
        render = StructuredRender(names, ((0, bad),) + render.premises[1:], render.question)
        assert _about(check(render, payload), 0)


POOL = ("Blue Ferry", "Quiet Mill", "Tin Soldier", "Salt Marsh", "Paper Moon", "Red Lantern", "Winter Hare",
        "Amber Tide", "Iron Bridge", "Velvet Fox", "Glass Garden", "Dusk Orchard", "Still Kettle", "Crimson Kite",
        "North Window", "Grey Heron", "Silver Birch", "Lone Pine", "Sea Glass", "Night Train")


def _gallery(first: str, intro: str) -> tuple[StructuredRender, dict]:
    payload = make("transitive_order", 1, 2).redact()
    names = dict(zip(sorted(payload["entities"]), POOL))
    texts = [first if i == 0 else "{0} is to the left of {1}." for i in range(len(payload["facts"]))]
    premises = tuple((i, t.format(*(names[a] for a in f["arguments"])))
                     for i, (f, t) in enumerate(zip(payload["facts"], texts)))
    q = payload["query"]["arguments"]
    return StructuredRender(names, premises, f"Where is {names[q[0]]} relative to {names[q[1]]}?", intro), payload


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(("painting", "canvas", "portrait", "print")), st.sampled_from((
    "In a small gallery, {ks} hang side by side along one long wall.", "A curator hangs each {k} in one row.")))
def test_a_noun_the_intro_names_as_the_storys_thing_is_read_away_before_one_name(kind: str, intro: str) -> None:
    """"The painting Blue Ferry is to the right of ...": before one name only, a kind noun where the intro says the
    story is of paintings; without the intro's word, or reversed, or with a word that may change who is meant, never."""
    said = intro.format(k=kind, ks=s_form(kind))
    render, payload = _gallery(f"The {kind} {{0}} is to the left of {{1}}.", said)
    assert _premise_reasons(check(render, payload)) == [], render.premises[0]
    render, payload = _gallery(f"The {kind} {{0}} is to the left of {{1}}.", "Works of art hang along one long wall.")
    assert _about(check(render, payload), 0)   # no word of the intro's: unaccounted for
    render, payload = _gallery(f"The {kind} {{0}} is to the right of {{1}}.", said)
    assert any(r.startswith("misread") for r in _about(check(render, payload), 0))
    for word in ("former", "other", "late"):
        render, payload = _gallery(f"The {word} {{0}} is to the left of {{1}}.", f"Some {word} {s_form(kind)} hang in "
                                                                                f"a row; the {word} ones too.")
        assert _about(check(render, payload), 0), render.premises[0]
