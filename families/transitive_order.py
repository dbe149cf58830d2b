"""Transitive order: LEFT_OF premises over entities, asking the relation between two of them.

Labels: LEFT_OF (a chain of premises leads from the first queried entity to the second), RIGHT_OF (a
chain leads from the second to the first), UNKNOWN (the premises order neither before the other).
Fact order does not matter (declarative): premises are shuffled uniformly, so no order of them,
the proof's own included, says anything about the label.

Beyond the spec, which only asks LEFT_OF questions, the three labels are drawn uniformly, and every
item has one shape whatever its label, drawn before it: two chains A and B that merge into a
junction m, which ends them (a0 -> .. -> m <- .. <- b0). Only where the queried entities sit on that
shape depends on the label:
- LEFT_OF and RIGHT_OF: both on one branch, `complexity` premises apart; the proof is the path
  between them, the only derivation.
- UNKNOWN: one entity on each branch, i and j premises before m, i + j = complexity. Proving that
  nothing follows means following every chain that leads right from either of them and seeing that
  none reaches the other; the proof lists exactly those premises (each entity's way to m), and
  complexity is their number. Both ways meet in m, so the two entities are connected, yet unordered,
  and as far apart (complexity premises, ignoring direction) as a LEFT_OF pair.
What this equalizes, from complexity 2 on (tests measure each): the shape, hence the number of
premises, of entities and of entities with each in- and out-degree, is independent of the label;
every queried entity stands exactly once on the left and once on the right of a premise (the chains
go on past both of them), is never the junction, and shares no premise with the other; premise
positions are a uniform shuffle. From complexity 4 on, so do their neighbours: no queried entity is
next to m or to the start of a branch, in any label (at 2 and 3 an UNKNOWN entity must be next to m).
At complexity 1 the answer of LEFT_OF and RIGHT_OF is a stated premise, and an UNKNOWN entity ends a
chain, so complexity 1 is not equalized.
"""
from __future__ import annotations

import random

from families.family import Family
from families.free_forms import only_where_unread
from families.ir import Skeleton, atom
from families.order_forms import rewrite as order_rewrite
from families.order_reads import (
    _AGAINST,
    _BE_READ,
    _COMPARED,
    _INVERTED,
    _PLACE,
    _PLACE_OF,
    _PLACED_ASKED,
    _QUESTION_FORMS,
    _SEQUENCES,
    _SIDE_READ,
    _WHOSE,
)
from families.phrases import expand
from families.seeding import symbol_names
from families.wording import OWNED_PLACES, Wording

NAME = "transitive_order"
LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
RULES = ("LEFT_OF is transitive", "RIGHT_OF(x,y) iff LEFT_OF(y,x)")


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One transitive-order skeleton whose proof has exactly `complexity` premises."""
    k = complexity
    randint = rng.randint
    # The shape, label-blind: two branches of p and q premises that merge into m, which ends both.
    # Room for every label: k + 4 premises on a branch place LEFT_OF pairs away from its ends.
    p, q = k + 4 + randint(0, 2), k + 4 + randint(0, 2)
    m = p                                  # nodes: A branch 0..p-1, then m, then the B branch
    a_path = list(range(p + 1))
    b_path = list(range(p + 1, p + 1 + q)) + [m]
    edges = [(a_path[i], a_path[i + 1]) for i in range(p)] + [(b_path[i], b_path[i + 1]) for i in range(q)]
    n_nodes = p + 1 + q
    gold = LABELS[rng.randrange(3)]
    if gold == "UNKNOWN":
        if k == 1:   # x -> m ends the shape; y ends a branch of its own (the exception of complexity 1)
            x, y = a_path[p - 1], n_nodes
            edges.append((b_path[0], y))
            n_nodes += 1
            proof = [(x, m)]
        else:
            # x is i premises before m on A, y is j before it on B, i + j = k: as far apart as a
            # LEFT_OF pair, and from complexity 4 on neither is next to m.
            edge = 2 if k >= 4 else 1
            i = randint(edge, k - edge)
            j = k - i
            x, y = a_path[p - i], b_path[q - j]
            proof = [(a_path[s], a_path[s + 1]) for s in range(p - i, p)]
            proof += [(b_path[s], b_path[s + 1]) for s in range(q - j, q)]
        query = (x, y) if rng.random() < 0.5 else (y, x)
    else:
        path = a_path if rng.random() < 0.5 else b_path
        # x = path[s], y = path[s + k]: neither is an end of the branch, m, or next to one.
        s = randint(2, len(path) - 3 - k) if k >= 2 else randint(1, len(path) - 2 - k)
        proof = [(path[t], path[t + 1]) for t in range(s, s + k)]
        query = (path[s], path[s + k]) if gold == "LEFT_OF" else (path[s + k], path[s])
    symbols = symbol_names("E", n_nodes)
    names = list(symbols)
    rng.shuffle(names)
    facts = [atom("LEFT_OF", (names[a], names[b])) for a, b in edges]
    rng.shuffle(facts)
    return Skeleton(
        id=f"order-{index:04d}", family=NAME, complexity=complexity,
        entities=dict.fromkeys(symbols, "Entity"),   # names are a permutation of these
        facts=tuple(facts), rules=RULES,
        query=atom("RELATION", (names[query[0]], names[query[1]])),
        answer_options=LABELS, gold_answer=gold,
        proof=tuple([f"LEFT_OF({names[a]},{names[b]})" for a, b in proof]))


# Settings a row may stand in or on, as a model names them: a tail "on the shelf" says where the row is, nothing more.
_SETTINGS = ("shelf|wall|dock|docks|pier|quay|jetty|harbour|harbor|marina|mooring|street|lane|road|avenue|bench|table|"
             "rack|stand|desk|counter|board|display|gallery|map|mantel|mantelpiece|windowsill|sill|fence|beach|bay|"
             "canal|river|riverbank|shore|hill|ridge|valley|track|course|field|garden|lot|car park|parking lot|yard|"
             "hall|corridor|hallway|room|stage|platform|market|square|plaza|village|town|range|row of stalls|lineup|"
             "photo|photograph|picture|queue|line|row|ceiling|beam|rail|railing|string|cord|branch|tree|arrangement|"
             "sequence|order|procession|parade|convoy|formation|chain|series")
_BE = "(is|stands|sits|lies|is standing|is sitting|is placed|is located|is positioned|comes)"
# No adjacency ("immediately", "directly", "just", "next to"): a fact says only that one stands somewhere left
# of the other, and an adjacent claim is a stronger one (a render of them could give one person two left
# neighbours).
_SOME = "[somewhere|further|farther|far|some way|anywhere]"
_SIDE = "(to the {0} of|{0} of|on the {0} of|on the {0} side of|to the {0} side of|to the {0} hand side of)"
_AT = "[stand|standing|sit|sitting|placed|positioned|located]"
ADJACENT = frozenset("immediately directly just next adjacent adjacently beside besides neighbour neighbours "
                     "neighbor neighbors neighbouring neighboring alongside touching beside right-next".split())
WORDING = Wording(
    facts={"LEFT_OF": (
        "{0} is to the left of {1}",
        f"{{0}} {_BE} {_SOME} {_SIDE.format('left')} {{1}}",
        f"{{1}} {_BE} {_SOME} {_SIDE.format('right')} {{0}}",
        "{0} (stands|is|sits|comes) (further|farther|more) (left|to the left) than {1}",
        "{1} (stands|is|sits|comes) (further|farther|more) (right|to the right) than {0}",
        "{1} has {0} (to|on) (its|their|his|her) left [side]",
        "{0} has {1} (to|on) (its|their|his|her) right [side]",
        "(to|on) the left of {1} (stands|is|sits|lies) {0}",
        "(to|on) the right of {0} (stands|is|sits|lies) {1}")},
    reads={"LEFT_OF": (
        f"{{0}} {_BE_READ} {_SOME} {_SIDE_READ.format('left')} {{1}}",
        f"{{1}} {_BE_READ} {_SOME} {_SIDE_READ.format('right')} {{0}}",
        f"{{1}} has {{0}} {_PLACE} (to|on|at) {_WHOSE} left [side|hand side]",
        f"{{0}} has {{1}} {_PLACE} (to|on|at) {_WHOSE} right [side|hand side]",
        f"{_PLACE} (to|on|at) the left of {{1}} [somewhere] {_INVERTED} {{0}}",
        f"{_PLACE} (to|on|at) the right of {{0}} [somewhere] {_INVERTED} {{1}}",
        f"{_PLACE} (left of|leftward of|left from) {{1}} {_INVERTED} {{0}}",
        f"{_PLACE} (right of|rightward of|right from) {{0}} {_INVERTED} {{1}}",
        f"{_AGAINST} {{1}} {{0}} {_BE_READ} [somewhere|further|farther] (on|to|at|toward|towards) the left [side|hand side]",
        f"{_AGAINST} {{0}} {{1}} {_BE_READ} [somewhere|further|farther] (on|to|at|toward|towards) the right [side|hand side]",
        f"{{0}} {_BE_READ} [somewhere|further|farther] (on|to|at) the left (relative to|compared to|compared with|in "
        f"relation to|with respect to) {{1}}",
        f"{{1}} {_BE_READ} [somewhere|further|farther] (on|to|at) the right (relative to|compared to|compared with|in "
        f"relation to|with respect to) {{0}}",
        "(going|moving|walking|heading|looking|counting) (leftward|leftwards|to the left|left) from {1} [you|one|we] "
        "[will|would|can|could] [eventually|sooner or later|at some point] (reach|reaches|meet|meets|come to|comes to|find|"
        "finds|pass|passes|get to|gets to|arrive at|arrives at) {0}",
        "(going|moving|walking|heading|looking|counting) (rightward|rightwards|to the right|right) from {0} [you|one|we] "
        "[will|would|can|could] [eventually|sooner or later|at some point] (reach|reaches|meet|meets|come to|comes to|find|"
        "finds|pass|passes|get to|gets to|arrive at|arrives at) {1}",
        "{0} (stands|is|sits|comes|is placed|is positioned|is located) (left|leftward|leftwards) of {1}",
        "{0} and {1} stand in that order from left to right",
        f"the ({OWNED_PLACES}) of {{0}} [in the row|in the line|in the lineup] {_BE_READ} {_SOME} "
        f"{_SIDE_READ.format('left')} {_PLACE_OF} {{1}}",
        f"the ({OWNED_PLACES}) of {{1}} [in the row|in the line|in the lineup] {_BE_READ} {_SOME} "
        f"{_SIDE_READ.format('right')} {_PLACE_OF} {{0}}",
        *_SEQUENCES, *_COMPARED)},
    read_openers={"LEFT_OF": ("in the row", "in the line", "in the lineup", "in this row", "in the queue",
                              "in the photo", "in the picture", "in this line")},
    fact_tails=("in the row", "in the line", "in the lineup", "in this row", "in the queue", "in the photo",
                "in the picture", "in this line")
    # where the row stands ("... left of Saltmarsh on the shelf"): a setting that places nothing of its own
    + expand("in|on|along|at|across|inside|within", "the|this|that|our", _SETTINGS)
    + expand("though|but|although|~", "not necessarily|perhaps not|possibly not|maybe not", "next to|beside|adjacent to|"
             "directly|immediately|right next to|adjacent|neighbours|neighbors|side by side|next to each other|touching|"
             "directly next to|immediately next to|right beside|directly beside", "~|him|her|them|it|each other|one another")
    # "(there may be others between them)": a gap allowed, which LEFT_OF (somewhere to the left) allows too
    + expand("~|and|but|though|although", "there|and there", "may|might|could|can", "be|stand|sit", "others|other people|"
             "someone|somebody|people|some people|someone else|more people|anyone|gaps|a gap|space|other people or not",
             "~|in between|between them|in between them|between the two|between the two of them")
    + expand("possibly|perhaps|maybe|~", "with", "others|other people|someone|some people|people|others possibly|"
             "someone else", "~|in between|between them|standing between them|in between them")
    + expand("with", "possibly|perhaps|maybe|potentially", "others|other people|someone|some people|people|someone else",
             "~|in between|between them|standing between them|in between them"),
    questions={"RELATION": (
        "where does {0} stand relative to {1}",
        f"where (does|is) {{0}} {_AT} {_AGAINST} {{1}}",
        f"{_AGAINST} {{1}} where (does|is) {{0}} {_AT}",
        "is {0} (to the left or to the right of|to the left or right of|left or right of|on the left or on the "
        "right of|on the left or right of) {1} [or is it unknown|or is that unknown|or can we not tell]",
        f"what is the position of {{0}} {_AGAINST} {{1}}",
        f"how (does|is) {{0}} (placed|positioned|ordered|arranged|standing) {_AGAINST} {{1}}",
        f"on which side of {{1}} (does|is) {{0}} {_AT}")},
    question_reads={"RELATION": (
        f"where (does|is|do) {{0}} (stand|sit|lie|fall|come|standing|sitting|placed|positioned|located|situated|"
        f"{_PLACED_ASKED}) {_AGAINST} {{1}}",
        f"where (does|is) {{0}} {_AT} (with regard to|in comparison with|when compared to|when compared with) {{1}}",
        f"{_AGAINST} {{1}} where (does|is) {{0}} (stand|sit|standing|sitting|placed|positioned|located|situated|"
        f"{_PLACED_ASKED})",
        "is {0} (to the left or to the right of|to the left or right of|left or right of|on the left or on the "
        "right of|on the left or right of|on the left side or the right side of|to the left of or to the right of|"
        "on the left of or on the right of|left of or right of) {1}",
        f"what is the position of {{0}} {_AGAINST} {{1}}",
        "what is the (relation|relationship|relative position|order) (of|between) {0} (and|to|relative to) {1}",
        f"how (is|are|does) {{0}} (placed|positioned|ordered|arranged|standing|located|situated) {_AGAINST} {{1}}",
        "(on|to) which side of {1} (does|is) {0} [stand|standing|sit|sitting|placed|positioned|located|situated] [on]",
        "which side of {1} (is|does) {0} (on|stand on|sit on|placed on|located on)",
        f"(does|is) {{0}} (stand|sit|standing|sitting|placed|positioned|located|situated|{_PLACED_ASKED}) (to the left "
        "or to the right of|to the left or right of|left or right of|on the left or right of|on the left or on the right "
        "of) {1}",
        "(is|does) {0} (come|stand|sit) (to the left or to the right of|to the left or right of|left or right of) {1}",
        "(is|does) {0} [stand|sit|standing|sitting|placed|positioned|located|situated] [somewhere] (to the left of|left "
        "of|on the left of|on the left side of|to the left side of) {1} [or] [somewhere] (to the right of|right of|on the "
        "right of|on the right side of|to the right side of) {1}",
        f"what can (be concluded|be said|be determined|be inferred|be deduced|we conclude|we say|we tell) about the "
        f"(position|place|placement|location) of {{0}} {_AGAINST} {{1}}",
        "what is the (relative position|position|place|placement|location|relative placement) of {0} "
        "(relative to|compared to|compared with|in relation to|with respect to|in comparison to|with regard to) {1}",
        "(how|where) (does|is) {0} (stand|sit|placed|positioned|located|situated) (relative to|in relation to|with "
        "respect to|compared to|compared with) {1}",
        f"where (in the row|in the line|in the lineup) (is|does) {{0}} [stand|sit|placed|positioned|located|situated] "
        f"{_AGAINST} {{1}}",
        f"(which|what) (best describes|describes|gives|is) the (position|place|placement|location|relative position) of "
        f"{{0}} {_AGAINST} {{1}}",
        "(can you tell|can we tell|can one tell|tell me|say|determine|decide) (whether|if) {0} (is|stands|sits) (to the "
        "left or to the right of|to the left or right of|left or right of|on the left or right of|on the left or on "
        "the right of) {1}",
        f"(determine|tell|say|state|decide|find out|work out|establish) where {{0}} (stands|is|sits|is placed|is "
        f"positioned|is located|is situated) {_AGAINST} {{1}}",
        # an embedded question ("State where Tom is relative to Ivo": the instruction is read away) and one that asks
        # which label says it
        f"where {{0}} (stands|is|sits|lies|falls|is placed|is positioned|is located|is situated|is standing|is sitting) "
        f"{_AGAINST} {{1}}",
        f"(which|what) [one] [of] [the|these] (label|labels|answer|answers|option|options|choice|choices|one) [of these|"
        f"of the labels] [correctly|best|accurately] (describes|describe|best describes|gives|give|fits|fit|best fits|"
        f"captures|capture|says|tells|correctly describes) where {{0}} (stands|is|sits|lies|falls|is placed|is positioned|is located|is "
        f"situated) {_AGAINST} {{1}}",
        f"where {_AGAINST} {{1}} (is|does) {{0}} (stand|sit|standing|sitting|placed|positioned|located|situated|lie|fall)",
        f"where {_AGAINST} {{1}} is {{0}}",
        *_QUESTION_FORMS)},
    intro_hints=frozenset("leftmost rightmost end ends far first last front back edge corner".split()),
    cues={"LEFT_OF": (("adjacency, a stronger claim", ADJACENT),)},
    ordered_question=True, intro="People stand in a row.",
    # any placement verb, a scene phrase, a scan's scene: free forms rewritten where a sentence reads as nothing
    rewrite=only_where_unread(NAME, order_rewrite),
    definitions={"LEFT_OF": "{0} is to the left of {1}", "RIGHT_OF": "{0} is to the right of {1}",
                 "UNKNOWN": "the statements do not settle it"})
FAMILY = Family(
    name=NAME, prefix="order", types=frozenset({"Entity"}),
    predicates={"LEFT_OF": ("Entity", "Entity")}, queries={"RELATION": ("Entity", "Entity")},
    rules=RULES, order_matters=False, labels=LABELS, generate=generate, wording=WORDING)
