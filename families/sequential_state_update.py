"""Sequential state update: counters with an initial value and ordered updates, asking a final value.

Labels: three integers two apart (as strings), one of them the final value of the queried counter.
Fact order MATTERS (procedural): a renderer must keep the updates in order.

The proof is the queried counter's `complexity` updates, each with the value it leaves. An update that
would make a value negative is replaced with an increment (the spec's rule). Beyond the spec:
- the options are two apart, not adjacent: the plain sum of the counter's numbers, signs ignored,
  has the answer's parity, and would pick among adjacent options without reading a single update;
- the gold's position among its three options is uniform (g..g+4, g-2..g+2 or g-4..g), and a final
  value below 4 is redrawn so that no option is ever negative;
- values and amounts are drawn from 0..99 and 1..99: against amounts of one digit, the options'
  distance from the initial value (a typical drift) picked the answer well above chance;
- a second counter's updates are interleaved as distractors off the proof path, and the queried
  counter is either one, so its name and position give nothing away.
What stays readable is the arithmetic itself (with no decrement, the answer is the sum of the
numbers): that is the family's reasoning, not a shortcut. Complexity 1 is one addition.
"""
from __future__ import annotations

import random

from families.counter_moves import canonical
from families.counter_reads import (
    LAST_ORDINALS,
    ORDINALS,
    PERIODS,
    START_OPENERS,
    made_reads,
    moved_reads,
    turned_reads,
    unwrapped,
)
from families.family import Family
from families.ir import INTEGER, Skeleton, atom
from families.phrases import expand
from families.wording import Wording

NAME = "sequential_state_update"
OPTIONS, STEP = 3, 2   # options g, g+2, g+4 (or shifted): alike in parity, which a plain sum of the numbers gives away
RULES = (
    "INITIAL_VALUE(c,n) sets counter c to n",
    "INCREMENT(c,n) adds n to counter c; DECREMENT(c,n) subtracts n from counter c",
    "Updates apply in the order they are listed",
    "FINAL_VALUE(c) is the value of c after every update",
)


def _updates(rng: random.Random, start: int, count: int) -> tuple[list[tuple[str, int]], list[int]]:
    """`count` updates from `start` (ops and amounts) and the value each one leaves."""
    rnd = rng.random
    ops, values, value = [], [], start
    for _ in range(count):
        amount = 1 + int(rnd() * 99)   # rng.randint(1, 99), inlined: this loop is the family's hot path
        if rnd() < 0.5 and value >= amount:
            op, value = "DECREMENT", value - amount
        else:   # an increment, or a decrement that would go negative (the spec's rule)
            op, value = "INCREMENT", value + amount
        ops.append((op, amount))
        values.append(value)
    return ops, values


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One state-update skeleton with exactly `complexity` updates of the queried counter."""
    while True:
        start = rng.randint(0, 99)
        ops, values = _updates(rng, start, complexity)
        if values[-1] >= 2 * (OPTIONS - 1):
            break
    other_start = rng.randint(0, 99)
    other_ops, _ = _updates(rng, other_start, rng.randint(1, max(2, complexity // 2)))
    names = ["C0", "C1"]
    rng.shuffle(names)
    target, other = names
    # Interleave the distractor counter's updates at random places, keeping each counter's own order.
    slots = [True] * len(ops) + [False] * len(other_ops)
    rng.shuffle(slots)
    next_target = iter([atom(op, (target, amount)) for op, amount in ops]).__next__
    next_other = iter([atom(op, (other, amount)) for op, amount in other_ops]).__next__
    inits = [atom("INITIAL_VALUE", (target, start)), atom("INITIAL_VALUE", (other, other_start))]
    rng.shuffle(inits)
    facts = inits + [next_target() if is_target else next_other() for is_target in slots]
    gold = values[-1]
    low = gold - STEP * rng.randrange(OPTIONS)
    return Skeleton(
        id=f"state-{index:04d}", family=NAME, complexity=complexity,
        entities={"C0": "Counter", "C1": "Counter"}, facts=tuple(facts), rules=RULES,
        query=atom("FINAL_VALUE", (target,)), answer_options=tuple([str(low + STEP * i) for i in range(OPTIONS)]),
        gold_answer=str(gold),
        proof=tuple([f"{op}({target},{amount}) -> {value}" for (op, amount), value in zip(ops, values)]))


_ITEMS = "[items|item|more items|more item|additional items|extra items|new items]"
_AT_FIRST = "(at first|at the start|initially|to begin with|in the beginning|at the beginning|first)"
_END = "[at the end|in the end|after all the updates|after every update|after all of this|after all these events|" \
       "after all the events|finally]"
_THEN = "[then|next|later|also|now]"
_HOLD = "(hold|have|contain|store|keep|end up with|end with|finish with)"
START = frozenset("starts start started begins begin began initially initial".split())
# "finally" is not among them: "Finally, Silo gains 40 items" is the last update, not a final value.
END = frozenset("ends end ended final finishes finish finished remaining".split())
# "get" is no cue of either way: "9 passengers get off the bus" is a decrease (blind8's false misread, mended after
# its held-out figures were taken); a sentence with it that reads as nothing stays unread
INCREASE = frozenset("gains gain gained receives receive received added adds add increases increase "
                     "increased rises rose grows grew plus acquires collects obtains".split())
DECREASE = frozenset("loses lose lost gives give away spends spent removed remove removes fewer less decreases "
                     "decrease decreased drops dropped falls fell shrinks minus subtract subtracts subtracted sells "
                     "sold sheds".split())
# Read, never written: more verbs and nouns, in every form the written ones have (a possessive reads as its
# "of" form: "Silo's count" as "the count of Silo"; "no items" as 0; "exactly" before a number is dropped).
_ITEMS_R = "[items|item|more items|more item|additional items|extra items|new items|more|additional|extra|new|" \
           "further items|fresh items|units|more units]"
_NOUN = "(count|total|number of items|value|stock|supply|inventory|amount|item count|tally|contents|balance|number|" \
        "holdings|reserves|store|collection|total of items|count of items|total number of items|item total|score|reading|" \
        "figure|level|headcount)"
_GAIN = "(gains|receives|gets|is given|takes in|collects|acquires|obtains|picks up|earns|adds|saves|saves up|gains another|" \
        "receives another|gets another|is given another|takes in another|collects another|adds another|" \
        "is sent|is delivered|is handed|is supplied with|is restocked with|is topped up with|is filled with|" \
        "takes delivery of|welcomes|accepts|brings in|gathers|is credited with|is refilled with|is loaded with|" \
        "is stocked with|is topped up by|is restocked by|takes on|is given|is granted|is handed|is sent|is brought|" \
        "is credited|is credited by|" \
        "is donated|borrows|buys|purchases|wins|is awarded|scores|racks up|rakes in|banks|pockets|nets|is paid|" \
        "is credited with|takes delivery of|finds|finds another|discovers|digs up|unearths|comes across|" \
        "catches|catches another|hauls in|reels in)"
_LOSE = "(loses|gives away|gives up|hands over|gives out|spends|uses up|sheds|sells|gives|ships|ships out|" \
        "sends out|sends away|sends off|hands out|gives off|lets go of|parts with|is emptied of|is drained of|" \
        "is relieved of|is robbed of|has removed|has taken away|discards|dispatches|releases|donates|drops|" \
        "loses another|gives away another|sells off|throws away|consumes|pays out|pays|lends out|lends|loans out|" \
        "hands off|surrenders|gives back|returns|sends|ships off|unloads|dumps|gets rid of|spills|leaks|drains|" \
        "is debited|is debited by|is charged|is charged for|uses|trades in|redeems|cashes in|forfeits|is docked|concedes|" \
        "is penalised|is penalized|is fined|is docked by|is penalised by|is penalized by|is fined by|" \
        "gives back|lets go|is stripped of|writes off)"
_ADDED = "(added to|put into|put in|placed in|placed into|given to|delivered to|brought to|moved into|moved to|" \
         "sent to|shipped to|stored in|loaded into|added into|transferred to|transferred into|deposited in|" \
         "deposited into|dropped into|carried into|stocked in|brought into|slipped into|unloaded onto|unloaded into|" \
         "loaded onto|put on|placed on|added at|delivered into|sent into|tucked into|packed into|stashed in|" \
         "stored at|dropped off at|dropped off in|brought in to)"
_TAKEN = "(removed from|taken from|taken out of|taken away from|lost from|moved out of|shipped out of|shipped from|" \
         "sent out of|sent away from|withdrawn from|pulled from|pulled out of|transferred out of|cleared from|" \
         "unloaded from|carried out of|emptied from|sold from|given away from|used up from|unpacked from|" \
         "subtracted from|drawn out of|drawn from|pulled off|taken off|removed out of|shipped away from|lifted out of|" \
         "cleared out of|dispatched from|paid out of|paid out from|sent from|taken back out of|taken back from|" \
         "carried away from|carried off from|carried away out of|moved away from|hauled out of|hauled away from|" \
         "shipped off|sent off|unloaded off|carried off|taken away off|carted away from|carted off from|carted out of|" \
         "loaded onto a cart and taken out of|loaded onto a cart and taken away from|loaded up and taken out of|" \
         "packed up and taken out of|packed up and shipped out of|boxed up and shipped out of|picked up from|" \
         "collected from|borrowed from|sold off from|deducted from|taken off from)"
# What an addition may close with and say nothing more ("5 canoes are stored in the Boathouse on top of what is
# already there"): never a start's words, so only after an addition's phrasing.
_ON_TOP = "[" + "|".join(expand("on top of|in addition to|besides|beyond", "what is already there|what it already "
                                "holds|what it already has|what was already there|what is already in it|its stock|"
                                "what it had|the items already there")) + "]"
# "than it did before", as `normalize` reads it (a past as its present)
_BEFORE = "(before|it does|it does before|previously|it has|it has before|it held|it holds before|earlier)"
_UP = "(goes up|increases|rises|grows|climbs|jumps|go up|increase|rise|grow|climb|is increased|is raised|is boosted|swells|gets bigger|is incremented|is topped up)"
_DOWN = "(goes down|decreases|drops|falls|shrinks|declines|dips|go down|decrease|drop|fall|shrink|decline|is reduced|is decreased|is lowered|is cut|sinks|" \
        "gets smaller|is drawn down|is depleted|is run down|is cut down|is decremented)"
_START_R = "(starts|begins|starts out|starts off|opens|" + PERIODS + "|" \
           "kicks off|is stocked|is filled|is loaded|is set up|comes in)"
_FIRST = "(at first|at the start|initially|to begin with|in the beginning|at the beginning|first|to start with|" \
         "at the outset|originally|at the start of the day|when things begin|before any changes|before anything " \
         "happens|at the very beginning|to start|right at the start|right at the beginning|at the very start|" \
         "before anything changes|before any change|before anything else happens|before anything else|" \
         "when the day begins|when the day starts|at the start of the story|at opening time|when the doors open|" \
         "when the doors open in the morning|when the shop opens|when the day opens|at dawn|first thing in the morning|" \
         "when the voyage begins|when the journey begins|when the story begins|when the day begins|when the week begins|" \
         "when the process begins|when the game begins|when the season begins|when the voyage starts|when the journey " \
         "starts|when the story starts|when the process starts|when the game starts|when we begin|when we start|" \
         "at the start of the story|at the start of the process|at the start of the week|" + "|".join(START_OPENERS) + ")"
_FIRST_O = "[" + _FIRST[1:-1] + "]"
_KEEP = "(holds|has|contains|stores|keeps|carries|houses|is holding|is storing|has got)"
_WHO = "(someone|somebody|a worker|a person|a clerk|an employee|a courier|a supplier|a customer|a visitor|one|" \
       "a delivery|a shipment|a truck|a van|a cart|a farmer|a delivery truck|the courier|a trader|a merchant|a porter|" \
       "a neighbor|a neighbour|the neighbor|the neighbour|the owner|an owner|a friend|a helper|the keeper|the manager|" \
       "a delivery van|the delivery van|a driver|the driver|a supplier|the supplier|a customer|the staff|a staff member|" \
       "a vendor|the clerk|the worker|a shopper|a buyer|the buyer|a thief|a robot|a crew|the crew|a volunteer)"
# a day or a time before a step or a start claims no value ("On Monday morning, the Mailroom has 36 parcels")
_DAYS = expand("on|early on|late on|later on", "monday|tuesday|wednesday|thursday|friday|saturday|sunday",
               "~|morning|afternoon|evening|night")
UPDATE_OPENERS = ("after this", "following that",
                  "following this", "at some point", "soon after", "shortly after", "after a while", "eventually",
                  "then after that", "and then", "next up", "right after that", "after that point", "later on",
                  "some time later", "in the next step", "in the following step", "in a later step", "meanwhile",
                  "to finish", "as a last step", "as the last step", "after that event", "subsequently to that",
                  "step", "next step", "then step", "the next step", "in the next step") + \
    expand("later that|that|the next|the following|later in the|early the next|later the same|on the next|"
           "on the following", "day|morning|afternoon|evening|night|week") + _DAYS + \
    expand("shortly|soon|right|not long|a little|some time|a while|a bit", "after|afterwards|afterward|later|"
           "after that|after this") + expand("in the|later in the|early in the|that|this|by the", "morning|afternoon|"
                                             "evening|night|middle of the day") + ("at noon", "at midday", "by noon")
_MOVED_READS = moved_reads(_ITEMS_R, _WHO)
_TURNED_READS = turned_reads(_ITEMS_R)


def _rewrite(predicate: str, words: list[str]) -> list[str]:
    """A sentence's words as the phrasings read them: a wrapped counter unwrapped, and a fact's movement or start
    in the family's plainest words (families/counter_moves.py; never the question's)."""
    words = unwrapped(predicate, words)
    if predicate not in _MOVES:
        return words
    if not _MID_OPENERS.isdisjoint(words):   # (few sentences hold one: the scan only for them)
        k = next((k for k in range(1, len(words) - 2) if words[k] in _AUX and words[k + 1] in _MID_OPENERS), None)
        if k is not None:   # "The silver dial is initially set to 70": the opener said after the auxiliary, fronted
            words = [words[k + 1]] + words[:k + 1] + words[k + 2:]
    return canonical(words)


_AUX = frozenset("is was are were gets got".split())
# One-word openers a model sets between the auxiliary and the participle ("is initially set", "is then increased")
_MID_OPENERS = frozenset("initially originally first then next later subsequently afterwards finally".split())


_MOVES = frozenset({"INITIAL_VALUE", "INCREMENT", "DECREMENT"})
# A change said to come "at the end" is the last change, not a final value ("At the end, Nora gains 94 coins",
# blind24's false misread); "in the end" is not among them: it may sum every change ("In the end, Nora gained 94").
_LAST_STEP = expand("at the|at the very|right at the|near the|toward the|towards the", "end")
_STEP_OPENERS = UPDATE_OPENERS + ORDINALS + LAST_ORDINALS + _LAST_STEP
_ASKED = (f"how many [items|things|units] (does|will|do) {{0}} (hold|have|contain|store|keep|carry|end up with|end with|finish "
        f"with|end up holding|end up having|finish holding|wind up with|have left|hold in the end|have in the end|"
        f"have at the end|have at the finish) {_END}",
        f"how many [items|things|units] (are|remain|remains|are left|will remain|will be|will be left|are there|end up|"
        f"remain in the end|are stored|are held|are kept|are sitting|are waiting|are queuing|are queueing|are standing|"
        f"are parked|are stacked|are seated|are resting|are lying|are docked|are perched|are housed|are staying|"
        f"are living|are lodging|are sleeping|are working|are grazing|are penned|are shelved|are kept) "
        f"(in|at|on|inside|aboard) {{0}} {_END}",
        f"what (number|count|total) of items (does|will) {{0}} (hold|have|contain|store|end up with|end with) {_END}",
        "what (final|ending|last|resulting|closing) (count|number|total|tally) [of items] (does|will) {0} (reach|end "
        "with|end up with|have|hold|finish with|end at|arrive at)",
        f"(what is|what will be) the {_NOUN} (of|in|at|for|on) {{0}} {_END}",
        f"how many [items|things|units] (end up|finish|remain|are left) (in|at) {{0}} {_END}",
        "how many [items|things|units] (does|will) {0} (hold|have|contain|store) (once|after) (all|every|all of) "
        "(the|these|those) (updates|events|changes|steps|transactions) (are done|are over|have happened|are finished|"
        "have taken place|are complete)",
        f"what is the (final|ending|last|resulting|end|closing|remaining|eventual) {_NOUN} (of|in|at|for) {{0}} {_END}",
        f"what is the {_NOUN} (of|in|at|for) {{0}} (at the end|in the end|after all the updates|after every update|"
        f"after all of this|after all these events|after all the events|finally|after all these changes|after "
        f"these events|after all updates|once all updates are done)",
        "what (value|count|number|total) does {0} (end with|end up with|finish with|end on|end up at|end at|"
        "finish at|settle at|reach)",
        "(with|at) what (value|count|number|total) does {0} (end|finish|end up)",
        "what does {0} (hold|have|contain) (at the end|in the end|finally|after all the updates)",
        # the family asks one thing, a final value: a bare "what value does X have" (its end read away as context,
        # "After the last update, ...") asks it; "at the start" is no end word and stays unread
        f"what (value|count|number|total|amount) (does|will) {{0}} (have|hold|contain|show|reach|read|display|store) "
        f"{_END}",
        f"what (does|will) {{0}} (hold|have|contain|store) {_END}",
        f"what (number|count|total|amount) of items (is|are|will be|remain|remains|ends up|end up) (in|at|inside|on) "
        f"{{0}} {_END}",
        f"how many [items|things|units] {{0}} (holds|has|contains|stores|will hold|will have|will contain|ends up with|"
        f"ends with|finishes with|is left with|will end up with|will be left with) {_END}",
        f"(what is|what 's|what will be) the (final|ending|last|resulting|end|closing|remaining|eventual) {_NOUN} "
        f"(of|in|at|for) {{0}} {_END}",
        # a terse heading or the skeleton's notation: "Final count in the Harbor: 28, 29, or 30?", "FINAL_VALUE(X)"
        f"[the] (final|ending|end|closing|resulting|last|eventual) {_NOUN} (of|in|at|for) {{0}} {_END}",
        "[query|question] final_value [of] {0}",
        # the counter itself asked, as the family asks one thing ("What is the Gold score after all updates?"), and
        # what a counter shows ("How many visitors does the north gate's count show at the end?")
        f"(what is|what 's|what will be) {{0}} {_END}",
        f"how many [items|things|units] (does|will|do) {{0}} (show|read|display|register|record) {_END}")
WORDING = Wording(
    prompt_note="Each counter counts things (items, crates, coins, people): say every number as a count of things, "
                "never as a measure (liters, kilograms, meters), a multiple (a dozen) or a percentage.",
    facts={
        "INITIAL_VALUE": (
            "{0} starts with {1} items",
            "{0} (starts|begins|starts out|starts off|opens) with {1} [items|item]",
            f"{{0}} (holds|has|contains|stores|keeps) {{1}} (items|item) {_AT_FIRST}",
            f"{_AT_FIRST} {{0}} (holds|has|contains|stores|keeps) {{1}} [items|item]",
            "{0} initially (holds|has|contains|stores|keeps) {1} [items|item]",
            "the (initial|starting|first) (value|count|number of items|amount) (of|in|at) {0} is {1}",
            f"there (are|is) {{1}} (items|item) in {{0}} {_AT_FIRST}"),
        "INCREMENT": (
            "{0} gains {1} items",
            f"{{0}} {_THEN} (gains|receives|gets|is given|takes in|collects|acquires|obtains|picks up|earns|adds) "
            f"{{1}} {_ITEMS}",
            "{1} [more|additional|extra|new] (items are|item is) (added to|put into|placed in|given to|delivered to|"
            "brought to|moved into) {0}",
            f"{{0}} (goes up|increases|rises|grows) by {{1}} {_ITEMS}",
            "the (count|total|number of items|value) (of|in|at) {0} (goes up|increases|rises|grows) by {1}",
            f"(add|put|place) {{1}} {_ITEMS} (to|into|in) {{0}}",
            f"someone (adds|puts|places|brings|gives) {{1}} {_ITEMS} (to|into|in) {{0}}"),
        "DECREMENT": (
            "{0} loses {1} items",
            f"{{0}} {_THEN} (loses|gives away|gives up|hands over|gives out|spends|uses up|sheds|sells|gives) "
            f"{{1}} {_ITEMS}",
            "{1} (items are|item is) (removed from|taken from|taken out of|taken away from|lost from|moved out of) {0}",
            f"{{0}} (goes down|decreases|drops|falls|shrinks) by {{1}} {_ITEMS}",
            "the (count|total|number of items|value) (of|in|at) {0} (goes down|decreases|drops|falls|shrinks) by {1}",
            f"(remove|take|take away) {{1}} {_ITEMS} from {{0}}",
            f"someone (removes|takes|takes away) {{1}} {_ITEMS} (from|out of) {{0}}")},
    reads={
        "INITIAL_VALUE": (
            f"{{1}} {_ITEMS_R} (is|are) (in|at|inside|stored in|kept in|held in|sitting in) {{0}} {_FIRST}",
            "(our|the|this) (story|tale|account|day|process|puzzle|scenario) (begins|starts|opens) with {1} [items|item] "
            "(in|at|inside) {0}",
            f"{_FIRST} {{1}} {_ITEMS_R} (is|are) (in|at|inside|stored in|kept in|held in|sitting in) {{0}}",
            f"{_FIRST} there (are|is) {{1}} [items|item|units] (inside|stored in|kept in|held in|sitting in) {{0}}",
            f"the (initial|starting|first|opening|original|beginning) {_NOUN} (of|in|at|for) {{0}} (is|stands at|comes "
            f"to|amounts to) {{1}} [items|item]",
            f"(initial|starting|opening|original|beginning) {_NOUN} (of|in|at|for) {{0}} {{1}} [items|item]",
            f"{{0}} {_START_R} (with|at|on) {{1}} [items|item|units] {_FIRST_O}",
            f"{{0}} {_START_R} (holding|having|containing|storing|with a count of|at a count of|with a total of|with a "
            f"stock of|with a supply of|with a store of|with a tally of|with an inventory of|by holding|by having|"
            f"by containing|by storing|out holding|off holding) {{1}} [items|item|units] "
            f"[inside|in it|in stock|in store|in storage|on hand|on its shelves]",
            f"{{0}} {_START_R} (with|at|on) {{1}} [items|item|units] (inside|in it|in stock|in store|in storage|on hand|"
            f"on its shelves)",
            f"{{0}} {_KEEP} {{1}} [items|item|units] {_FIRST}",
            f"{{0}} {_KEEP} {{1}} [items|item|units] (in it|inside|inside it|in stock|in store|in storage|on hand) {_FIRST}",
            "{0} (has|holds|contains|stores|keeps) {1} [items|item|units] [in it|inside|inside it|in stock|in store|"
            "in storage|on hand|aboard]",
            f"{_FIRST} {{0}} {_KEEP} {{1}} [items|item|units] [in it|inside|inside it|in stock|in store|in storage|on hand|"
            f"aboard|on board]",
            f"{_FIRST} there (are|is|were|was) {{1}} [items|item|units] (in|at) {{0}}",
            f"{_FIRST} {{0}} (is at|stands at|sits at|is stocked with|is filled with) {{1}} [items|item|units]",
            f"{{0}} (initially|originally|first) {_KEEP} {{1}} [items|item|units]",
            "{0} (initially|originally) (is at|stands at|sits at|is stocked with|is filled with) {1} [items|item]",
            f"the (initial|starting|first|opening|original|beginning) {_NOUN} (of|in|at|for) {{0}} is {{1}} [items|item]",
            f"{_FIRST} the {_NOUN} (of|in|at|for) {{0}} is {{1}} [items|item]",
            f"the {_NOUN} (of|in|at|for) {{0}} (starts|begins|starts out|starts off) at {{1}} [items|item]",
            f"there (are|is|were|was) {{1}} [items|item|units] in {{0}} {_FIRST}",
            "{0} (has|holds|contains) {1} [items|item|units] (to start with|to begin with|at the start|"
            "at the outset|to start)",
            # set, as a story or a program says it: "The Tollhouse is set to 13 at the outset", "Let X start at 6",
            # "Initially, Vault = 10", "x := 3" (an assignment is a start; a bare "x = 3" may be an end: not read)
            f"{{0}} is (set|initialized|initialised|fixed) (to|at) {{1}} [items|item] {_FIRST_O}",
            f"{_FIRST} {{0}} is (set|initialized|initialised|fixed) (to|at) {{1}} [items|item]",
            "(set|initialize|initialise) {0} (to|at) {1} [items|item]",
            "let {0} (start|begin|start out|start off) (at|with|on) {1} [items|item]",
            f"(we|you) (begin|start|start out|start off) with {{1}} [items|item] (in|at|inside) {{0}} {_FIRST_O}",
            f"there (are|is|were|was) {_FIRST} {{1}} [items|item] (in|at|inside|stored in|kept in|held in|sitting in) {{0}}",
            "{0} (initially|originally|first) (reads|shows|displays|registers) {1} [items|item]",
            f"{_FIRST} {{0}} (reads|shows|displays|registers) {{1}} [items|item]",
            f"{{0}} (reads|shows|displays|registers) {{1}} [items|item] {_FIRST}",
            f"the {_NOUN} (of|in|at|for) {{0}} (is|stands at|sits at) {{1}} [items|item] {_FIRST}",
            f"{_FIRST} {{0}} (=|is) {{1}} [items|item]",
            f"{{0}} (=|is) {{1}} [items|item] {_FIRST}",
            "{0} := {1} [items|item]",
            # a stock named as a noun ("has an initial stock of 14 crates"), things that sit somewhere at the start,
            # a terse "Silo: 14 crates at the start", "was initially stocked with"
            f"{{0}} [initially|originally|first] (has|holds|starts with|begins with|opens with|starts out with) (a|an) "
            f"[initial|starting|opening|original|beginning] {_NOUN} of {{1}} [items|item] {_FIRST_O}",
            f"{_FIRST} {{1}} [items|item] (sit|sits|lie|lies|rest|rests|wait|waits|are sitting|are waiting|are stored|"
            f"are kept|are held|are stocked) (in|at|inside) {{0}}",
            f"{{1}} [items|item] (sit|sits|lie|lies|rest|rests|wait|waits|are sitting|are waiting) (in|at|inside) {{0}} {_FIRST}",
            f"{{0}} {{1}} [items|item] {_FIRST}",
            "{0} is (initially|originally|first) (stocked|filled|loaded|supplied|set up) with {1} [items|item]",
            f"(we|you) (begin|start|start out|start off) with {{0}} (holding|having|containing|at) {{1}} [items|item] {_FIRST_O}"),
        "INCREMENT": (
            f"{{0}} {_THEN} {_GAIN} {{1}} {_ITEMS_R}",
            f"{{0}} {_THEN} {_GAIN} {{1}} {_ITEMS_R} (more|in addition|on top|extra)",
            # one reads things, never a bare number ("the meter then reads 30" says its value)
            f"{{0}} {_THEN} (reads|reads another) {{1}} (items|item|more items|more item|additional items|further items)",
            f"{{1}} {_ITEMS_R} (is|are|get|gets|were|was) {_THEN} {_ADDED} {{0}} {_ON_TOP}",
            f"{{0}} {_THEN} (contains|has|holds) {{1}} (more|additional|extra) [items|item] than {_BEFORE}",
            f"(a|one) (shipment|delivery|batch|load|crate|box|consignment|lot) of {{1}} {_ITEMS_R} (is|gets|arrives) "
            f"[then] ({_ADDED[1:-1]}|at|in) {{0}}",
            f"{{1}} {_ITEMS_R} (arrive at|arrive in|come into|come in to|go into|are added at|flow into|enter|goes into|comes into|" \
            f"arrives at|arrives in|enters|flows into|make their way into|find their way into) {{0}}",
            f"{{0}} {_UP} by {{1}} {_ITEMS_R}",
            f"the {_NOUN} (of|in|at|for) {{0}} {_UP} by {{1}} [items|item]",
            f"(add|put|place|bring|deliver|send) {{1}} {_ITEMS_R} (to|into|in) {{0}}",
            f"{_WHO} (adds|puts|places|brings|gives|delivers|sends|drops|deposits|loads|stores|carries|moves|takes|"
            f"hauls|ships|slips|tucks|drops off|unloads) {{1}} {_ITEMS_R} (to|into|in|at|up into|up to|down into|over to|"
            f"onto|inside) {{0}}",
            f"{_WHO} (gives|sends|brings|hands) {{0}} {{1}} {_ITEMS_R}",
            # a story's two clauses: "Someone donates 12 canoes, and they all go into the Boathouse"
            f"{_WHO} (donates|brings|delivers|sends|buys|gives|drops off|brings in|hands over) {{1}} {_ITEMS_R} "
            f"(and|which) [then] (they|these|those) [all] (go|are put|are placed|are added|are stored|end up|are taken) "
            f"(into|in|to|at) {{0}}",
            f"{{0}} (is|gets) (given|sent|handed|delivered) {{1}} {_ITEMS_R}",
            f"{{0}} {_THEN} (gets|has|sees) {{1}} {_ITEMS_R} added [to it|in]",
            f"{{1}} {_ITEMS_R} (arrive|come in|are delivered|are added|are brought in) (at|to|for) {{0}}",
            # a delivery named as a noun ("receives a delivery of 5 crates"), the counter's stock as the place
            f"{{0}} {_THEN} {_GAIN} (a|one|another) [new|fresh|further] (delivery|shipment|batch|load|consignment|supply|"
            f"lot|crate|box) of {{1}} {_ITEMS_R}",
            f"{{1}} {_ITEMS_R} (is|are|get|gets|were|was) {_THEN} {_ADDED} the (stock|supply|inventory|store|collection|"
            f"contents|count|total|holdings|reserves) of {{0}}",
            # an order or a program: "Increase the Toolshed by 15", "Harbor += 9", "x = x + 9"
            f"(increase|raise|grow|boost|increment|bump up|top up) {{0}} by {{1}} {_ITEMS_R}",
            f"(increase|raise|boost|increment) the {_NOUN} (of|in|at|for) {{0}} by {{1}} [items|item]",
            "{0} += {1} [items|item]",
            "{0} = {0} + {1} [items|item]") + _MOVED_READS["INCREMENT"] + _TURNED_READS["INCREMENT"] + \
            made_reads(_ITEMS_R, _THEN),
        "DECREMENT": (
            f"{{0}} {_THEN} {_LOSE} {{1}} {_ITEMS_R}",
            f"{{1}} {_ITEMS_R} (is|are|get|gets|were|was) {_THEN} {_TAKEN} {{0}}",
            f"(a|one) (withdrawal|removal|shipment|delivery|sale|loss|batch|load) of {{1}} {_ITEMS_R} (is|gets) (made|taken|"
            f"sent|shipped|removed|carried) (from|out of) {{0}}",
            f"{_WHO} (sends|takes|carries|moves|ships|hauls|carts|clears) {{1}} {_ITEMS_R} (away|off|out) (from|of) {{0}}",
            f"{{1}} {_ITEMS_R} (leave|leaves|go out of|exit|are gone from|disappear from|depart from|depart|fall out of|" \
            f"falls out of|drop out of|drops out of|spill out of|spills out of|drain out of|drains out of|leak out of|" \
            f"leaks out of|go missing from|goes missing from|vanish from|vanishes from) {{0}}",
            f"{{0}} {_THEN} (sends|gives|ships|carries|takes|hands|gives|pays|moves|throws|clears) {{1}} {_ITEMS_R} "
            f"(away|out|off)",
            f"{{0}} {_DOWN} by {{1}} {_ITEMS_R}",
            f"{{0}} {_THEN} (contains|has|holds) {{1}} (fewer|less) [items|item] than {_BEFORE}",
            f"the {_NOUN} (of|in|at|for) {{0}} {_DOWN} by {{1}} [items|item]",
            f"(remove|take|take away|take out|withdraw|subtract|deduct) {{1}} {_ITEMS_R} (from|out of) {{0}}",
            f"{_WHO} (removes|takes|takes away|takes out|withdraws|pulls|buys|collects) {{1}} {_ITEMS_R} (from|out of) {{0}}",
            f"{{0}} {_THEN} (has|gets|sees) {{1}} {_ITEMS_R} (removed|taken away|taken out|taken from it|removed from it|"
            f"taken out of it|sent away|shipped out)",
            f"{{0}} (is|gets) (emptied|relieved|robbed|drained) of {{1}} {_ITEMS_R}",
            # a number of the counter's own things ("33 of the crates in the Depot are sold off", read as items)
            f"{{1}} {_ITEMS_R} (in|at|inside|from|of) {{0}} (are|is|were|was|get|gets) {_THEN} (sold|sold off|removed|"
            f"taken away|given away|shipped out|shipped off|used up|taken out|sent away|sent off|lost|consumed|eaten|"
            f"discarded|thrown away|thrown out|spent|withdrawn|carried off|carried away|donated|handed out|given out|"
            f"paid out)",
            # an order or a program: "Decrease the Bookshop by 4", "Library -= 4", "x = x - 4"
            f"(decrease|reduce|lower|cut|decrement|deplete|draw down) {{0}} by {{1}} {_ITEMS_R}",
            f"(decrease|reduce|lower|cut|decrement) the {_NOUN} (of|in|at|for) {{0}} by {{1}} [items|item]",
            "{0} -= {1} [items|item]",
            "{0} = {0} - {1} [items|item]") + _MOVED_READS["DECREMENT"] + _TURNED_READS["DECREMENT"]},
    questions={"FINAL_VALUE": (
        "how many items does {0} hold at the end",
        f"how many (items|things) (does|will) {{0}} {_HOLD} {_END}",
        f"how many (items|things) (are|remain|are left) (in|at) {{0}} {_END}",
        "what is the final (value|count|number of items|total) (of|in|at|for) {0}",
        "what (value|count|number) does {0} end (with|up with)")},
    question_reads={"FINAL_VALUE": _ASKED},   # in the past too: the words of a question are read in the present
    openers=("then", "next", "after that", "later", "afterwards", "subsequently"),
    read_openers={"INCREMENT": _STEP_OPENERS, "DECREMENT": _STEP_OPENERS,
                  "INITIAL_VALUE": ("first", "first of all", "to begin", "to start", "at the start", "initially",
                                    "in the beginning", "at the outset", "before anything else", "originally",
                                    "to begin with", "at first", "start", "at start", "starting", "starting out",
                                    "setup", "set up") + _DAYS + START_OPENERS + ORDINALS},
    cues={"INITIAL_VALUE": (("a change", INCREASE | DECREASE), ("a final value", END)),
          "INCREMENT": (("a decrease", DECREASE), ("a final value", END), ("a start", START)),
          "DECREMENT": (("an increase", INCREASE), ("a final value", END), ("a start", START)),
          "FINAL_VALUE": (("the start", START),)},
    question_cues=(("another question", frozenset({"together", "combined", "both", "altogether", "sum", "difference",
                                                   "more", "fewer", "less", "compare", "than"})),),
    opposites={"INCREMENT": "DECREMENT", "DECREMENT": "INCREMENT"},
    unsure=(("in", "the", "end"),),   # a change said "in the end" may be the last one or the sum of all: unread
    no_final_openers=frozenset({"INITIAL_VALUE"}),
    intro_hints=frozenset("ends end ending final finally finishes most least empty full total left remaining".split()),
    context_starts=frozenset("after once when following at by in taking finally now".split()),
    context_words=frozenset("after once when following at by the end of day all every each last final these those this now "
                            "above steps step updates update events event changes change transactions transaction "
                            "deliveries delivery shipments shipment packing unpacking and movements movement operations "
                            "is are has have been carried out done complete completed finished over happened taken finishes ends ended "
                            "concludes concluded stops stopped items "
                            "place listed in order everything taking very that of story process sequence them it "
                            "applied performed made processed given described entries entry game match round "
                            "season day 's".split())
    # any noun of the steps as a list names them all ("after all the instructions", "at the end of the log")
    | frozenset("instructions adjustments moves turns records log logs "
                "lines actions notes".split()),
    rewrite=_rewrite,
    # why a change is made ("the Otters lose 29 points as a penalty"): a reason, never an amount or a direction
    # and "again", "once more" after a change ("is increased by 5 once more"): a step like an earlier one, the amount
    # its own (as "gains another 5")
    fact_tails=expand("as", "a|the|their|its", "penalty|bonus|reward|fine|prize|gift|tip|fee") +
    ("again", "once more", "once again"),
    intro="These events happen in this order:")
FAMILY = Family(
    name=NAME, prefix="state", types=frozenset({"Counter"}),
    predicates={"INITIAL_VALUE": ("Counter", INTEGER), "INCREMENT": ("Counter", INTEGER),
                "DECREMENT": ("Counter", INTEGER)},
    queries={"FINAL_VALUE": ("Counter",)},
    rules=RULES, order_matters=True, labels=None, generate=generate, wording=WORDING)
