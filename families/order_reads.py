"""transitive_order's reading-only phrasings (never written, never in a pattern): the parts its reads are composed
of, a row read in one direction, comparisons, and the questions' composed forms, each mirrored where it says a side."""
from __future__ import annotations

import re

from families.wording import OWNED_PLACES

_AGAINST = "(relative to|compared to|compared with|in relation to|with respect to|in comparison to)"
# Read, never written: more verbs, the "at" and "on the ... hand side" forms (a possessive reads as its "of"
# form: "to Ben's left" as "to the left of Ben"), "has X somewhere on their left", the far end first.
_BE_READ = "(is|stands|sits|lies|is standing|is sitting|is placed|is located|is positioned|comes|is found|" \
           "can be found|is seated|sits somewhere|appears|is situated|is set|has a place|has its place|has their place|" \
           "is set up|is lined up|is lining up|lines up|is waiting|waits|is posed|poses|is sitting somewhere|ends up|" \
           "winds up|has found a spot|has found a place|found a spot|found a place|finds a spot|finds a place|occupies a " \
           "place|occupies a spot|occupies a position|occupies a seat|takes a place|takes a spot|has taken a place|" \
           "has taken a spot|has a spot|has a seat|is standing somewhere|has been placed|is to be found|will be found)"
_SIDE_READ = "(to the {0} of|{0} of|on the {0} of|on the {0} side of|to the {0} side of|to the {0} hand side of|" \
             "on the {0} hand side of|at the {0} of|at the {0} side of|at the {0} hand side of|towards the {0} of|" \
             "toward the {0} of|{0} from|to the {0} from|on the {0} from)"
_WHOSE = "(its|their|his|her|the)"
_PLACE = "[somewhere|some way|far|further|farther|further along|farther along|somewhere along|further down|" \
         "farther down|further on|farther on]"
# Verbs that place a thing rather than a person ("The lantern hangs left of ...", "Nimbus is moored to the right of
# ...", "Ravenholt is shelved left of ..."): each verb's present, progressive and passive forms, composed, never
# a verb of looking or pointing ("looks left of", "points left of" say nothing of where a thing is).
_PLACING = {"hang": "hung", "moor": "moored", "dock": "docked", "park": "parked", "shelve": "shelved",
            "perch": "perched", "mount": "mounted", "display": "displayed", "pin": "pinned", "rest": "rested",
            "station": "stationed", "post": "posted", "keep": "kept", "store": "stored", "stay": "", "remain": "",
            "stack": "stacked", "plant": "planted",
            "float": "", "wait": "", "tie": "tied", "berth": "berthed", "anchor": "anchored", "hook": "hooked",
            "nail": "nailed", "lean": "", "settle": "settled", "install": "installed", "arrange": "arranged",
            "line": "lined", "queue": "queued", "seat": "seated", "slot": "slotted", "grow": "grown", "pitch": "pitched",
            "build": "built", "erect": "erected"}


def _forms(verbs: dict[str, str]) -> str:
    out = []
    for verb, done in verbs.items():
        s = verb + ("es" if verb.endswith(("sh", "ch", "s", "x")) else "s")
        ing = (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"
        out += [s, f"is {ing}"] + ([f"is {done}", f"has been {done}"] if done else [])
    return "|".join(sorted(set(out), key=len, reverse=True))


_PLACED = _forms(_PLACING)
# The same verbs as a question asks with them ("Where does the lantern hang ...", "where is Nimbus moored ..."):
# base, progressive and passive forms.
_PLACED_ASKED = "|".join(sorted({f for verb, done in _PLACING.items() for f in (
    verb, (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing", done) if f}, key=len,
    reverse=True))
_BE_READ = _BE_READ[:-1] + "|" + _PLACED + ")"

# Verbs of the far end first ("To the left of Bob sits Alice", "Somewhere left of Juno, you will find Ivo").
_INVERTED = "(is|stands|sits|lies|is standing|is sitting|is placed|is located|is positioned|comes|is found|can be " \
            "found|is seated|appears|is situated|waits|is waiting|you will find|you find|you can find|one finds|one " \
            "will find|we find|we will find|you would find|you will see|you see|one sees|is to be found|will be found|" \
            + _PLACED + ")"
# A possessive's owned place after the last name ("left of Marisol's spot") is the place of that name.
_PLACE_OF = "[" + "|".join(f"the {p} of" for p in OWNED_PLACES.split("|")) + "]"

def _mirrored(phrasings: tuple[str, ...]) -> tuple[str, ...]:
    """Each phrasing of LEFT_OF(A, B) as written, with A as {0} and B as {1}, and mirrored: left and right swapped,
    A as {1} and B as {0} (a sentence of "right" says the same fact the other way round)."""
    swap = {"left": "right", "right": "left", "leftward": "rightward", "rightward": "leftward",
            "leftwards": "rightwards", "rightwards": "leftwards", "leftmost": "rightmost", "rightmost": "leftmost"}
    out = []
    for p in phrasings:
        out.append(p.replace("%A", "{0}").replace("%B", "{1}"))
        flipped = re.sub(r"[a-z]+", lambda m: swap.get(m.group(0), m.group(0)), p)
        out.append(flipped.replace("%A", "{1}").replace("%B", "{0}"))
    return tuple(out)


# A row read in one direction ("Reading the line from the left, you reach A before B", "Quill precedes Neve from left
# to right", "Going rightward, B appears after A"): the scan (before or after the order clause) and the order clause
# are composed, so every clause is read with every scan, and each also mirrored (from the right, B comes first).
_SCAN = "[reading|going|counting|looking|scanning|walking|moving|heading|travelling|traveling|proceeding|read|counted|" \
        "viewed|seen|looked at|ordered|listed|numbered|taken]"
_ALONG = "[along|down|across|through|over] [the row|the line|the lineup|the queue|the people]"
_FROM = "(from left to right|left to right|from the left|from the left end|from the left side|from the leftmost end|" \
        "from the left hand end|from the left hand side|rightward|rightwards|starting from the left|starting at the left|" \
        "starting on the left|beginning at the left|beginning from the left|in left to right order|in order from left " \
        "to right|in the left to right order)"
_AHEAD = "(comes|is|stands|appears|sits|lies|is placed|is found|shows up|turns up|is seen|is reached|is met|" \
         "is encountered|is listed|ranks|is positioned|is located|is counted|is numbered)"
_REACH = "[you|one|we] [will|would|can|could] [first] (reach|meet|come to|find|pass|see|encounter|hit|get to|" \
         "arrive at|come across|come upon|run into|count|read|reaches|meets|comes to|finds|passes|sees|encounters|hits|" \
         "gets to|arrives at|comes across|comes upon|runs into|counts|reads)"
_ORDERS = (f"%A {_AHEAD} [somewhere] (before|ahead of|earlier than|prior to) %B", "%A precedes %B",
           f"%B {_AHEAD} [somewhere] (after|later than) %A", "%B follows %A",
           f"{_REACH} %A (before|earlier than|prior to) %B", f"{_REACH} %B after %A")
_SEQUENCES = _mirrored(tuple(f"{_SCAN} {_ALONG} {_FROM} {order}" for order in _ORDERS)
                       + tuple(f"{order} [when|if|as|while] [you are|one is|we are|you|one|we] {_SCAN} {_ALONG} {_FROM}"
                               for order in _ORDERS)
                       + tuple(f"{order} (when|if|as|while) (the row|the line|the lineup|the queue|it|they) (is|are) "
                               f"(read|scanned|viewed|counted|seen|taken|looked at|listed) {_FROM}" for order in _ORDERS))
# A comparison, its places owned ("Rosa's spot in the row is further left than Kofi's"), and a cleft one ("Of Emeka
# and Oskar, it is Emeka who is further to the left"; "Of the two, Lior is the one further left, with Tamsin to its
# right"), each mirrored.
_ROW = "[in the row|in the line|in the lineup|in the queue]"
_MORE_LEFT = "[somewhere] (further|farther|more) [along|over|out|down] (left|to the left)"
_COMPARED = _mirrored((
    f"{_PLACE_OF} %A {_ROW} {_BE_READ} {_MORE_LEFT} {_ROW} than {_PLACE_OF} %B [is|does]",
    f"{_PLACE_OF} %A {_ROW} {_BE_READ} {_PLACE} {_SIDE_READ.format('left')} {_PLACE_OF} %B",
    f"{_MORE_LEFT} than %B {_INVERTED} %A",
    f"(of|between) %A and %B [it is] %A (who|that) (is|stands|sits|comes) {_MORE_LEFT} {_ROW}",
    f"(of|between) %B and %A [it is] %A (who|that) (is|stands|sits|comes) {_MORE_LEFT} {_ROW}",
    f"[of the two] %A is the (one|person) [who is|that is] {_MORE_LEFT} (with|and) %B [is] (to|on) {_WHOSE} right",
    # terse notation: "Nikhil: left of Elena", "LEFT_OF(Nikhil, Elena)"
    "%A (left of|to the left of|on the left of) %B")) + (
    "left_of {0} {1}",
    # "pos(Yara) < pos(Tove), where positions are numbered from the left": the numbering said, never assumed
    "(pos|position|place|index) {0} < (pos|position|place|index) {1} (where|with|when|if) (positions|places|spots|indices) "
    "(are|being) (numbered|counted|indexed) (from the left|from left to right)",
    "(pos|position|place|index) {1} > (pos|position|place|index) {0} (where|with|when|if) (positions|places|spots|indices) "
    "(are|being) (numbered|counted|indexed) (from the left|from left to right)")
# Questions composed of a head ("which one of the following describes", "what is", none) and the relation as a noun
# ("the relative position of A with respect to B"), a clause ("how A is placed relative to B", after an instruction
# read away: "decide how ..."), a terse pair ("A vs. B"), the labels as the clause's words ("whether A stands LEFT_OF
# or RIGHT_OF B"), a cloze ("Complete the statement 'A is ___ B'") or the notation "RELATION(A, B)".
_WHICH = "(which|what) [one|option|label|answer|choice] [of the following|of these|of the options|of the labels|" \
         "of the answers|of the choices|of them|below]"
_NOUN = "(relation|relationship|relative position|position|place|placement|location|order|ordering|arrangement|" \
        "relative placement|relative location|relative order|side)"
_EITHER = "(left_of or right_of|to the left or to the right of|to the left or right of|left or right of|on the left or " \
          "right of|on the left or on the right of|to the left of or to the right of|left of or right of)"
_QUESTION_FORMS = (
    f"{_WHICH} (relation|relationship|order|ordering|arrangement) (holds|exists|obtains|applies) between {{0}} and {{1}}",
    f"{_WHICH} (describes|describe|best describes|gives|fits|best fits|captures|is|correctly describes) the {_NOUN} of "
    f"{{0}} {_AGAINST} {{1}}",
    f"[what is] [the] {_NOUN} of {{0}} {_AGAINST} {{1}}",
    f"how (does|do) {_PLACE_OF} {{0}} (compare|stack up|relate) (with|to|against) {_PLACE_OF} {{1}}",
    f"how {{0}} (is placed|is positioned|is located|is situated|is ordered|is arranged|stands|sits|lies|compares) "
    f"{_AGAINST} {{1}}",
    "{0} (vs|versus|v|against|relative to|compared to|compared with|in relation to|with respect to) {1}",
    "(is|does) {0} [stand|sit|lie|standing|sitting|placed|positioned|located|situated] left_of or right_of {1}",
    f"(whether|if) {{0}} (is|stands|sits|lies|is placed|is positioned|is located|is situated) {_EITHER} {{1}}",
    "[complete|fill in] [the] [statement|sentence|blank] {0} is ___ {1}",
    # one side asked of a pair ("Is the jasmine to the left of the peony?") or the pair named by a frame before which
    # label holds ("Looking at A and B, which is true?"): a yes or no of one side, or no side at all, asks of the pair
    # whichever name comes first (its labels' meaning is the query's, said after it or by their clauses, which are read)
    *(form.format(a, b) for a, b in (("{0}", "{1}"), ("{1}", "{0}")) for form in (
        "(is|does) {} [stand|sit|lie|standing|sitting|placed|positioned|located|situated] [somewhere] (to the left of|"
        "left of|on the left of|on the left side of|to the right of|right of|on the right of|on the right side of) {}",
        f"(looking at|considering|comparing|taking|regarding|as for|about|concerning|between|for) {{}} and {{}} "
        f"{_WHICH} (is true|holds|is the case|is correct|applies|is right)",
        f"{_WHICH} (is true|holds|is the case|is correct|applies) (of|about|for|between) {{}} and {{}}",
        # "Let's determine the relative position of the compass and the lamp.": the pair announced, then asked
        "(let 's|let us|we need to|we want to|now) (determine|find|find out|figure out|work out|establish|decide) "
        "the (relative position|relative positions|relation|relationship|relative order|order|positions) (of|between) "
        "{} and {}")),
    "[what is] [the] [relation|value|answer|result] [of] relation {0} {1}",
    # "Which way is the cumin jar from the chervil jar?": the first one's side seen from the second
    "(which way|which side|what side|in which direction|what direction) (is|does) {0} [stand|sit|lie] from {1}")
