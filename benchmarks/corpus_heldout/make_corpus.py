import json
import random
import re

R = random.Random(20261202)
OUT = "/work/corpus2/"
PEOPLE = ["Ilse","Tomas","Priya","Oskar","Mirela","Devan","Hana","Lucan","Wren","Fatima","Jorge","Keiko",
          "Anselm","Bettina","Caius","Dalia","Emeric","Greta","Ivo","Juno","Marisol","Teodor","Yara","Soren","Agnes","Kofi"]
SETS = [("Potters","Potter"),("Sailors","Sailor"),("Weavers","Weaver"),("Glaziers","Glazier"),("Falconers","Falconer"),
        ("Beekeepers","Beekeeper"),("Lamplighters","Lamplighter"),("Archers","Archer"),("Tanners","Tanner"),
        ("Cartographers","Cartographer"),("Masons","Mason"),("Fiddlers","Fiddler"),("Quilters","Quilter"),("Rangers","Ranger")]
SING = dict(SETS)
CTRS = ["Warehouse","Barn","Vault","Granary","Cellar","Pantry","Silo","Locker","Shed","Attic","Storeroom","Chest","Boathouse","Kiosk"]
VARS = list("abcdefghjkmnpqrstuvwxyz") + ["xy","pq","mn","rt","uv"]

def two(lst):
    return R.sample(lst, 2)

# ---------------- premise templates ----------------
# each: (text template, why)
P = {}
P["LEFT_OF"] = dict(fam="transitive_order", good=[
 "{a} is somewhere to the left of {b}.",
 "{b} is to the right of {a}.",
 "{a} stands somewhere left of {b} in the row.",
 "In the row, {a} is positioned to the left of {b}.",
 "{b} sits somewhere to the right of {a}.",
 "{a} is farther left in the line than {b}.",
 "{b} is further to the right than {a}.",
 "Reading the row from left to right, {a} comes before {b}.",
 "{a} is to {b}'s left, though not necessarily beside {b}.",
 "Somewhere to the left of {b}, you will find {a}.",
 "{a} is placed left of {b}.",
 "{b} is located to the right of {a}.",
 "{a}'s spot in the row lies to the left of {b}'s spot.",
 "{b} has {a} somewhere on the left.",
 "Going leftward from {b}, one eventually reaches {a}.",
 "{a} is left of {b}.",
 "{b} stands to the right of {a}, possibly with others in between.",
 "It is known that {a} is to the left of {b}.",
 "{a} is seated somewhere to the left of {b}.",
 "Further along to the right of {a} is {b}.",
 "{a} lines up to the left of {b}.",
 "{b}'s position is to the right of {a}'s.",
 "{a} occupies a place to the left of {b}.",
 "Relative to {b}, {a} is on the left.",
 "{b} is somewhere on {a}'s right-hand side.",
], bad=[
 ("{a} is immediately to the left of {b}.","adjacency added"),
 ("{a} sits directly left of {b}.","adjacency added"),
 ("{a} is right next to {b}, on the left side.","adjacency added"),
 ("{b} is somewhere to the left of {a}.","direction reversed"),
 ("{a} is to the right of {b}.","direction reversed"),
 ("{a} is not to the left of {b}.","negated"),
 ("{a} is probably somewhere to the left of {b}.","hedge"),
 ("{a} might be to the left of {b}.","hedge"),
 ("{a} is exactly two places to the left of {b}.","extra distance claim"),
 ("{a} is to the left of {b}, and {b} is at the far right end of the row.","extra claim"),
 ("{a} is the leftmost person in the row, somewhere left of {b}.","extra claim (leftmost)"),
 ("{a} and {b} stand side by side.","adjacency, direction lost"),
 ("{a} stands in front of {b}.","wrong relation (front/behind)"),
 ("{a} is either to the left or to the right of {b}.","direction lost"),
 ("{a} <= {b} in the row.","sign instead of strict left-of"),
])
P["MEMBER_OF"] = dict(fam="membership_inheritance", good=[
 "{x} is one of the {S}.",
 "{x} belongs to the {S}.",
 "{x} is a {s}.",
 "Among the {S} is {x}.",
 "{x} counts among the {S}.",
 "{x} is a member of the {S}.",
 "The {S} include {x}.",
 "{x} is numbered among the {S}.",
 "One of the {S} is {x}.",
 "{x} is part of the {S}.",
 "The group known as the {S} has {x} in it.",
 "{x} is among the {S}.",
 "It is known that {x} is a {s}.",
 "{x} is included in the {S}.",
 "{x} happens to be one of the {S}.",
 "{x} is counted as one of the {S}.",
 "{x} holds membership in the {S}.",
 "Note that {x} is a {s}.",
 "{x}, for one, is a {s}.",
 "The {S} count {x} among their number.",
 "{x} is a {s}, as it happens.",
 "Everyone agrees that {x} belongs to the {S}.",
 "{x} is one of those {S}.",
 "{x} is found among the {S}.",
 "{x} ranks among the {S}.",
], bad=[
 ("{x} is not one of the {S}.","negated"),
 ("{x} might be one of the {S}.","hedge"),
 ("{x} used to be one of the {S}.","temporal hedge: not a current member"),
 ("{x} is the leader of the {S}.","extra claim (leader)"),
 ("{x} is one of the {S} and also one of the {T}.","extra membership claim"),
 ("{x} is friends with the {S}.","wrong relation"),
 ("{x} is one of the {T}.","wrong set"),
 ("{x} is the only {s}.","extra claim (only member)"),
 ("{x} hopes to join the {S}.","not membership"),
 ("{x} is almost certainly a {s}.","hedge"),
 ("{x} is one of roughly 5 {S}.","extra number claim"),
 ("Every {s} is {x}.","reversed/garbled relation"),
 ("{x} left the {S} last year.","negated (former member)"),
 ("{x} is a {s}, so {x} is also a {t}.","extra inference claim"),
 ("{x} works for the {S}.","wrong relation"),
])
P["NOT_MEMBER_OF"] = dict(fam="membership_inheritance", good=[
 "{x} is not one of the {S}.",
 "{x} does not belong to the {S}.",
 "{x} isn't a {s}.",
 "{x} is not a {s}.",
 "None of the {S} is {x}.",
 "The {S} do not include {x}.",
 "{x} is not among the {S}.",
 "{x} falls outside the {S}.",
 "{x} is not counted among the {S}.",
 "{x} has no membership in the {S}.",
 "{x} is no {s}.",
 "It is known that {x} is not a {s}.",
 "{x} is not a member of the {S}.",
 "Whatever else {x} may be, {x} is not one of the {S}.",
 "The {S} do not count {x} among their number.",
 "{x} is excluded from the {S}.",
 "{x} does not appear among the {S}.",
 "Nobody among the {S} is {x}.",
 "{x} is not part of the {S}.",
 "{x} is not included in the {S}.",
 "{x} doesn't belong to the {S}.",
 "{x} is definitely not a {s}.",
 "{x} isn't one of the {S}.",
 "The {S} do not have {x} in their ranks.",
 "Note that {x} is not a {s}.",
], bad=[
 ("{x} is one of the {S}.","negation dropped"),
 ("{x} may not be a {s}.","hedge"),
 ("{x} is not one of the {T}.","wrong set"),
 ("{x} is no longer one of the {S}.","extra claim (formerly a member)"),
 ("{x} is neither one of the {S} nor one of the {T}.","extra non-membership claim"),
 ("{x} is not the leader of the {S}.","weaker claim, membership not denied"),
 ("{x} isn't always a {s}.","hedge"),
 ("{x} is not one of the {S}, but {x} is one of the {T}.","extra membership claim"),
 ("{x} probably isn't a {s}.","hedge"),
 ("{x} does not like the {S}.","wrong relation"),
 ("It is unclear whether {x} is one of the {S}.","uncertainty instead of fact"),
 ("{x} is not one of the {S} yet.","temporal hedge"),
 ("Not every {s} is {x}.","garbled relation"),
 ("{x} is hardly ever counted among the {S}.","hedge"),
 ("{x} is not one of the {S}, and no {s} is a {t}.","extra claim"),
])
P["SUBSET_OF"] = dict(fam="membership_inheritance", good=[
 "Every {s} is a {t}.",
 "All {S} are {T}.",
 "Each of the {S} is also one of the {T}.",
 "Anyone who is a {s} is also a {t}.",
 "The {S} are all {T}.",
 "Being a {s} means being a {t}.",
 "No {s} is outside the {T}.",
 "The {S} form a subset of the {T}.",
 "If someone is a {s}, then that person is a {t}.",
 "Whoever is among the {S} is among the {T} too.",
 "There is no {s} who is not a {t}.",
 "The {T} include every one of the {S}.",
 "All of the {S} belong to the {T}.",
 "Every single {s} is also counted as a {t}.",
 "Membership in the {S} implies membership in the {T}.",
 "Each {s} is a {t} as well.",
 "Without exception, {S} are {T}.",
 "All members of the {S} are members of the {T}.",
 "The {S} are contained within the {T}.",
 "A {s} is always a {t}.",
 "Every member of the {S} is also a {t}.",
 "Anybody in the {S} is automatically in the {T}.",
 "Any {s} is a {t}.",
 "It holds that every {s} is a {t}.",
 "All {S}, without exception, are also {T}.",
], bad=[
 ("Every {t} is a {s}.","direction reversed"),
 ("Some {S} are {T}.","weakened to some"),
 ("Most {S} are {T}.","hedge (most)"),
 ("No {s} is a {t}.","negated"),
 ("The {S} and the {T} are exactly the same group.","extra claim (equality of sets)"),
 ("Every {s} is a {t}, and every {t} is a {s}.","extra converse claim"),
 ("Every {s} except one is a {t}.","exception added"),
 ("{S} are usually {T}.","hedge"),
 ("Only {S} are {T}.","direction reversed (only)"),
 ("At least half of the {S} are {T}.","hedge/number"),
 ("{S} often work alongside {T}.","wrong relation"),
 ("Every {s} knows a {t}.","wrong relation"),
 ("All {T} are {S}.","direction reversed"),
 ("Every {s} was once a {t}.","temporal hedge"),
 ("Roughly 90% of {S} are {T}.","percentage hedge"),
])
P["INITIAL_VALUE"] = dict(fam="sequential_state_update", good=[
 "The {C} starts with {n} items.",
 "At the start, the {C} holds {n} items.",
 "Initially, there are {n} items in the {C}.",
 "The {C} begins with {n} items.",
 "To begin with, the {C} contains {n} items.",
 "At first, {n} items sit in the {C}.",
 "The starting count for the {C} is {n} items.",
 "Before anything changes, the {C} has {n} items.",
 "The {C} opens with a stock of {n} items.",
 "The initial number of items in the {C} is {n}.",
 "In the beginning, the {C} has {n} items in it.",
 "When the story opens, the {C} is holding {n} items.",
 "There are {n} items in the {C} to start.",
 "The {C} starts out with {n} items.",
 "{n} items are in the {C} at the outset.",
 "First, note that the {C} starts with {n} items.",
 "The {C} initially contains {n} items.",
 "At the very beginning, the {C} stores {n} items.",
 "Starting inventory of the {C}: {n} items.",
 "Originally, the {C} had {n} items.",
 "The {C} kicks off with {n} items.",
 "Right at the start there are {n} items inside the {C}.",
 "The {C}'s count begins at {n} items.",
 "Before any deliveries or removals, the {C} holds {n} items.",
 "The {C} has {n} items to begin with.",
], zero=[
 "The {C} starts with no items.",
 "At the start, the {C} is empty.",
 "Initially, there are no items in the {C}.",
 "The {C} begins with zero items.",
], bad=[
 ("The {C} starts with about {n} items.","hedge about"),
 ("The {C} starts with at least {n} items.","hedge at least"),
 ("Initially the {C} holds roughly {n} items.","hedge roughly"),
 ("The {C} starts with ~{n} items.","tilde hedge"),
 ("The {C} starts at {n}% capacity.","percent sign / wrong unit"),
 ("The {C} starts with -{n} items.","minus sign"),
 ("The {C} starts with {n1} items.","wrong number"),
 ("The {C} ends up with {n} items.","final-value claim instead of initial"),
 ("The {C} starts with {n} crates of ten items each.","wrong unit"),
 ("The {C} starts with {n} items and then gains 3 more.","extra update"),
 ("The {C} can hold {n} items.","capacity, not contents"),
 ("The {C} starts with no more than {n} items.","hedge (<=)"),
 ("The {C} starts with {n} dozen items.","wrong unit"),
 ("The {C} will have {n} items at the end.","final-value claim"),
 ("The {C} starts with {n} items, half of which belong to the Barn.","extra claim"),
])
P["INCREMENT"] = dict(fam="sequential_state_update", good=[
 "The {C} gains {n} items.",
 "{N} items are added to the {C}.",
 "Then, the {C} receives {n} more items.",
 "Next, {n} items are delivered to the {C}.",
 "After that, someone puts {n} items into the {C}.",
 "Later, the {C} takes in {n} items.",
 "Finally, {n} more items arrive at the {C}.",
 "The {C}'s count goes up by {n} items.",
 "A shipment of {n} items is added to the {C}.",
 "The {C} picks up {n} additional items.",
 "Then {n} items get stored in the {C}.",
 "Next, the {C} is restocked with {n} items.",
 "After that, the number of items in the {C} increases by {n}.",
 "Later on, {n} new items are placed in the {C}.",
 "The {C} then acquires {n} items.",
 "Someone drops off {n} items at the {C}.",
 "Following this, the {C} grows by {n} items.",
 "Then a delivery brings {n} items to the {C}.",
 "Next, {n} items are carried into the {C}.",
 "The {C} is given {n} more items.",
 "After that, add {n} items to the {C}.",
 "Later, the {C}'s stock rises by {n} items.",
 "Finally, the {C} collects {n} more items.",
 "Then {n} extra items go into the {C}.",
 "The {C} next welcomes {n} more items.",
], bad=[
 ("The {C} loses {n} items.","direction reversed"),
 ("The {C} gains about {n} items.","hedge about"),
 ("The {C} gains at least {n} items.","hedge at least"),
 ("The {C} grows by {n}%.","percent sign"),
 ("The {C} gains -{n} items.","minus sign"),
 ("The {C} gains {n} items, bringing it to {m} items.","final-value claim"),
 ("The {C} now has {n} items.","final-value claim instead of increment"),
 ("The {C} gains {n1} items.","wrong number"),
 ("The {C} gains {n} boxes of items.","wrong unit"),
 ("The {C} gains {n} items and then loses 2.","extra update"),
 ("The {C} may gain {n} items.","hedge"),
 ("The {C} gains up to {n} items.","hedge (<=)"),
 ("Roughly {n} items are added to the {C}.","hedge roughly"),
 ("The {C} gains {n} items twice.","extra update (doubled)"),
 ("The {C} receives ~{n} more items.","tilde hedge"),
])
P["DECREMENT"] = dict(fam="sequential_state_update", good=[
 "The {C} loses {n} items.",
 "{N} items are removed from the {C}.",
 "Then, {n} items are taken out of the {C}.",
 "Next, the {C} gives up {n} items.",
 "After that, someone takes {n} items from the {C}.",
 "Later, {n} items leave the {C}.",
 "Finally, the {C} ships out {n} items.",
 "The {C}'s count goes down by {n} items.",
 "The {C} then drops {n} items.",
 "{N} items are carted away from the {C}.",
 "Next, the number of items in the {C} decreases by {n}.",
 "After that, {n} items are sold from the {C}.",
 "Then the {C} sends away {n} items.",
 "Later on, a withdrawal of {n} items is made from the {C}.",
 "Someone borrows {n} items from the {C} and does not return them.",
 "Following this, the {C} shrinks by {n} items.",
 "The {C} loses {n} more items.",
 "Next, {n} items are pulled out of the {C}.",
 "Then, subtract {n} items from the {C}.",
 "After that, the {C}'s stock falls by {n} items.",
 "{N} items are then cleared out of the {C}.",
 "Later, the {C} hands over {n} items.",
 "Finally, {n} items are withdrawn from the {C}.",
 "Then {n} items go missing from the {C}.",
 "The {C} next parts with {n} items.",
], bad=[
 ("The {C} gains {n} items.","direction reversed"),
 ("The {C} loses about {n} items.","hedge about"),
 ("The {C} loses at least {n} items.","hedge at least"),
 ("The {C} shrinks by {n}%.","percent sign"),
 ("The {C} loses -{n} items.","minus sign (double negative)"),
 ("The {C} loses {n} items, leaving {m} items.","final-value claim"),
 ("The {C} is left with {n} items.","final-value claim instead of decrement"),
 ("The {C} loses {n1} items.","wrong number"),
 ("The {C} loses {n} pallets of items.","wrong unit"),
 ("The {C} loses {n} items and then gains 4.","extra update"),
 ("The {C} might lose {n} items.","hedge"),
 ("The {C} loses up to {n} items.","hedge (<=)"),
 ("Roughly {n} items are removed from the {C}.","hedge roughly"),
 ("The {C} loses {n} items, and {n} more the next day.","extra update"),
 ("The {C} loses ~{n} items.","tilde hedge"),
])
P["EQUAL"] = dict(fam="equality", good=[
 "{x} = {y}",
 "{x} equals {y}.",
 "{x} is equal to {y}.",
 "{y} equals {x}.",
 "{x} and {y} are equal.",
 "{x} has the same value as {y}.",
 "The value of {x} is the same as the value of {y}.",
 "{x} and {y} hold identical values.",
 "{x} is the same as {y}.",
 "We know that {x} = {y}.",
 "{x} and {y} are equal to each other.",
 "{y} is equal to {x}.",
 "{x} is identical to {y}.",
 "There is no difference between {x} and {y}.",
 "{y} = {x}",
 "It is given that {x} equals {y}.",
 "{x} and {y} share the same value.",
 "The variables {x} and {y} are equal.",
 "{x} takes the same value as {y}.",
 "{y} has exactly the same value as {x}.",
 "{x} == {y}",
 "One can assume {x} = {y}.",
 "{x} and {y} coincide in value.",
 "Variable {x} equals variable {y}.",
 "{x} is equivalent in value to {y}.",
], bad=[
 ("{x} != {y}","negated"),
 ("{x} is not equal to {y}.","negated"),
 ("{x} is approximately equal to {y}.","hedge"),
 ("{x} ≈ {y}","approximate sign"),
 ("{x} <= {y}","inequality sign"),
 ("{x} is greater than {y}.","wrong relation"),
 ("{x} = {y} + 1","arithmetic offset"),
 ("{x} might equal {y}.","hedge"),
 ("{x} equals both {y} and {z}.","extra claim"),
 ("{x} = 2{y}","multiplier"),
 ("{x} and {y} differ.","negated"),
 ("{x} is close to {y}.","hedge"),
 ("{x} >= {y}","inequality sign"),
 ("{x} = -{y}","minus sign"),
 ("{x} equals {z}.","wrong variable"),
])
P["NOT_EQUAL"] = dict(fam="equality", good=[
 "{x} != {y}",
 "{x} ≠ {y}",
 "{x} is not equal to {y}.",
 "{x} does not equal {y}.",
 "{x} and {y} are different.",
 "{x} and {y} differ.",
 "{y} is not equal to {x}.",
 "{x} and {y} are not the same.",
 "{x} and {y} have different values.",
 "{x} is distinct from {y}.",
 "The values of {x} and {y} are unequal.",
 "{y} does not equal {x}.",
 "{x} and {y} are not equal.",
 "It is given that {x} ≠ {y}.",
 "{x} differs from {y}.",
 "{x} isn't equal to {y}.",
 "The value of {x} is not the value of {y}.",
 "{x} and {y} do not share a value.",
 "We know that {x} != {y}.",
 "{y} != {x}",
 "{x} and {y} take different values.",
 "Variable {x} is unequal to variable {y}.",
 "{x} cannot be equal to {y}.",
 "{x} is not the same as {y}.",
 "{y} and {x} are different from each other.",
], bad=[
 ("{x} = {y}","negation dropped"),
 ("{x} is greater than {y}.","extra ordering claim"),
 ("{x} < {y}","extra ordering claim"),
 ("{x} may differ from {y}.","hedge"),
 ("{x} is equal to neither {y} nor {z}.","extra claim"),
 ("{x} and {y} are nearly equal.","wrong relation (hedge)"),
 ("{x} is not always equal to {y}.","hedge"),
 ("{x} differs from {y} by 3.","extra number"),
 ("{x} != {z}","wrong variable"),
 ("{x} and {y} are probably different.","hedge"),
 ("{x} is the same as {y}.","negation dropped"),
 ("{x} ≠ {y}, and {y} = {z}","extra claim"),
 ("{x} <= {y}","wrong sign"),
 ("{x} is roughly {y}.","hedge, negation lost"),
 ("{x} = -{y}","wrong relation (minus)"),
])

def fill(t, pred, args, extra):
    d = dict(extra)
    if pred == "LEFT_OF":
        d.update(a=args[0], b=args[1])
    elif pred in ("MEMBER_OF","NOT_MEMBER_OF"):
        d.update(x=args[0], S=args[1], s=SING[args[1]])
    elif pred == "SUBSET_OF":
        d.update(S=args[0], s=SING[args[0]], T=args[1], t=SING[args[1]])
    elif pred in ("INITIAL_VALUE","INCREMENT","DECREMENT"):
        d.update(C=args[0], n=args[1], N=str(args[1]))
    else:
        d.update(x=args[0], y=args[1])
    s = re.sub(r"\b([Aa]) ([AEIOU])", r"\1n \2", t.format(**d))
    return s[0].upper() + s[1:] if s[0].isalpha() and not pred.endswith("EQUAL") else s

def rand_args(pred):
    if pred == "LEFT_OF": return two(PEOPLE)
    if pred in ("MEMBER_OF","NOT_MEMBER_OF"): return [R.choice(PEOPLE), R.choice(SETS)[0]]
    if pred == "SUBSET_OF": return [s[0] for s in R.sample(SETS, 2)]
    if pred in ("INITIAL_VALUE","INCREMENT","DECREMENT"): return [R.choice(CTRS), R.randint(2, 30)]
    return two(VARS)

def extras(pred, args):
    used = set(map(str, args))
    e = {}
    e["T"], e["t"] = next((p, s) for p, s in R.sample(SETS, len(SETS)) if p not in used)
    e["z"] = next(v for v in R.sample(VARS, len(VARS)) if v not in used)
    if isinstance(args[-1], int):
        e["n1"] = args[-1] + R.choice([1, 2, -1]) if args[-1] > 2 else args[-1] + 1
        e["m"] = args[-1] + R.randint(3, 20)
    return e

prem = []
for pred, spec in P.items():
    goods = spec["good"]
    assert len(goods) >= 25 and len(set(goods)) >= 20, pred
    zeros = spec.get("zero", [])
    for i in range(25):
        args = rand_args(pred)
        t = goods[i]
        why = "faithful rendering"
        if zeros and i % 6 == 5:
            args[1] = 0; t = zeros[(i // 6) % len(zeros)]; why = "faithful; zero rendered as no items"
        prem.append(dict(family=spec["fam"], predicate=pred, args=args,
                         text=fill(t, pred, args, extras(pred, args)), faithful=True, why=why))
    for t, why in spec["bad"]:
        args = rand_args(pred)
        prem.append(dict(family=spec["fam"], predicate=pred, args=args,
                         text=fill(t, pred, args, extras(pred, args)), faithful=False, why=why))

with open(OUT + "premises.jsonl", "w") as f:
    for r in prem: f.write(json.dumps(r, ensure_ascii=False) + "\n")


# ---------------- questions ----------------
OPT = {"transitive_order": ["LEFT_OF","RIGHT_OF","UNKNOWN"], "membership_inheritance": ["YES","NO","UNKNOWN"]}
QG = {}
QG["transitive_order"] = [
 "Where is {a} relative to {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.",
 "What is the position of {a} relative to {b}: LEFT_OF, RIGHT_OF, or UNKNOWN?",
 "Is {a} to the left of {b}, to the right of {b}, or can this not be determined? Reply LEFT_OF, RIGHT_OF, or UNKNOWN.",
 "Relative to {b}, where does {a} stand? Choose LEFT_OF if {a} is to the left of {b}, RIGHT_OF if {a} is to the right of {b}, and UNKNOWN if the statements do not settle it.",
 "Question: how is {a} placed with respect to {b}? Options: LEFT_OF, RIGHT_OF, UNKNOWN.",
 "Based only on the statements above, where is {a} in relation to {b}? Give one of LEFT_OF, RIGHT_OF, UNKNOWN.",
 "Determine whether {a} is LEFT_OF or RIGHT_OF {b}, or whether that is UNKNOWN.",
 "Which label describes where {a} is compared with {b}: LEFT_OF, RIGHT_OF, or UNKNOWN?",
 "Looking at the row, is {a} somewhere left of {b} (LEFT_OF), somewhere right of {b} (RIGHT_OF), or can it not be determined (UNKNOWN)?",
 "Where does {a} sit compared to {b}? Respond with LEFT_OF, RIGHT_OF, or UNKNOWN.",
 "What can be concluded about the position of {a} relative to {b}? Pick LEFT_OF, RIGHT_OF, or UNKNOWN.",
 "Using the labels LEFT_OF, RIGHT_OF and UNKNOWN, state where {a} is relative to {b}.",
 "Is {a} left of {b} or right of {b}? If the information is insufficient, answer UNKNOWN; otherwise answer LEFT_OF or RIGHT_OF.",
 "Where, relative to {b}, is {a} positioned? (LEFT_OF / RIGHT_OF / UNKNOWN)",
 "Considering the whole row, what is the relation of {a} to {b}? Answer with exactly one of: LEFT_OF, RIGHT_OF, UNKNOWN.",
]
QB = {}
QB["transitive_order"] = [
 ("Where is {b} relative to {a}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.","arguments reversed"),
 ("Is {a} immediately to the left of {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.","adjacency added"),
 ("Where is {a} relative to {b}? Answer left, right, or can't tell.","labels renamed"),
 ("Where is {a} relative to {b}? Answer LEFT_OF or RIGHT_OF.","UNKNOWN label dropped"),
 ("Since {a} is clearly on the left side, where is {a} relative to {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.","answer hint"),
 ("Where is {a} relative to {z}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.","wrong entity"),
 ("Where is {a} relative to {b}? Answer LEFT_OF if {b} is to the left of {a}, RIGHT_OF if {b} is to the right of {a}, otherwise UNKNOWN.","label explanation reversed"),
 ("Is {a} to the left of {b}? Answer YES or NO.","labels changed"),
]
QG["membership_inheritance"] = [
 "Is {x} one of the {S}? Answer YES, NO, or UNKNOWN.",
 "Does {x} belong to the {S}? Reply YES, NO, or UNKNOWN.",
 "Is {x} a {s}? (YES / NO / UNKNOWN)",
 "Based on the statements above, is {x} a member of the {S}? Answer YES, NO, or UNKNOWN.",
 "Question: can we conclude that {x} is among the {S}? Choose YES if {x} must be one of the {S}, NO if {x} cannot be, and UNKNOWN if it cannot be determined.",
 "Is {x} counted among the {S}? Give one of YES, NO, UNKNOWN.",
 "Does it follow that {x} is one of the {S}? Respond YES, NO, or UNKNOWN.",
 "Must {x} be a {s}, must {x} not be one, or is it undetermined? Answer YES, NO, or UNKNOWN respectively.",
 "Are the {S} sure to include {x}? Options: YES, NO, UNKNOWN.",
 "Determine whether {x} is a {s}. Use YES, NO, or UNKNOWN.",
 "Is {x} part of the {S}? Answer with exactly one of: YES, NO, UNKNOWN.",
 "Given everything above, is {x} one of the {S}? Say YES, NO, or UNKNOWN.",
 "Would {x} be considered a {s}? Answer YES, NO, or UNKNOWN.",
 "Using only the information provided, is {x} in the {S}? (YES, NO, or UNKNOWN)",
 "Is it true that {x} is a member of the {S}? Reply YES, NO, or UNKNOWN.",
]
QB["membership_inheritance"] = [
 ("Is {x} one of the {T}? Answer YES, NO, or UNKNOWN.","wrong set"),
 ("Are all {S} {x}? Answer YES, NO, or UNKNOWN.","garbled/reversed query"),
 ("Is {x} one of the {S}? Answer TRUE, FALSE, or UNSURE.","labels renamed"),
 ("Since {x} clearly qualifies, is {x} one of the {S}? Answer YES, NO, or UNKNOWN.","answer hint"),
 ("Is {x} not one of the {S}? Answer YES, NO, or UNKNOWN.","negated query"),
 ("Is {x} one of the {S}? Answer YES or NO.","UNKNOWN label dropped"),
 ("Is {x} the leader of the {S}? Answer YES, NO, or UNKNOWN.","wrong relation"),
 ("Could {x} possibly be one of the {S}? Answer YES, NO, or UNKNOWN.","possibility instead of entailment"),
]
QG["sequential_state_update"] = [
 "How many items does the {C} hold at the end? Options: {o}.",
 "After all of these changes, how many items are in the {C}? Choose from {o}.",
 "What is the final number of items in the {C}? Answer {o}.",
 "Once every update has happened, how many items does the {C} contain? ({o})",
 "How many items are left in the {C} in the end? Pick one of {o}.",
 "Question: what is the {C}'s final item count? Options: {o}.",
 "When everything is done, how many items remain in the {C}? Give one of {o}.",
 "How many items does the {C} end up with? Possible answers: {o}.",
 "Determine the number of items in the {C} after the last change. Answer with one of {o}.",
 "At the end of the sequence, what is the count of items in the {C}? Choose {o}.",
 "Finally, how many items are stored in the {C}? Options are {o}.",
 "What is the total number of items in the {C} after all the changes above? ({o})",
 "How many items are in the {C} when the process finishes? Reply with one of {o}.",
 "Counting everything, how many items does the {C} have at the end? {o}",
 "Compute the final contents of the {C} in items. Answer {o}.",
]
QB["sequential_state_update"] = [
 ("How many items did the {C} hold at the start? Options: {o}.","asks initial value"),
 ("How many items does the {Z} hold at the end? Options: {o}.","wrong counter"),
 ("How many items were added to the {C} in total? Options: {o}.","asks total added"),
 ("How many items does the {C} hold at the end? (Hint: it is {g}.) Options: {o}.","answer hint"),
 ("How many items does the {C} hold at the end? Options: {o2}.","options altered"),
 ("Approximately how many items does the {C} hold at the end? Options: {o}.","hedge"),
 ("How many items does the {C} hold after the second change? Options: {o}.","asks intermediate value"),
 ("How many items did the {C} lose overall? Options: {o}.","asks total removed"),
]
QG["equality"] = [
 "Which of the following statements necessarily follows? {L}",
 "Which one of these must be true? {L}",
 "Given the premises, which statement is logically entailed? {L}",
 "Then which of the following holds? {L}",
 "Select the statement that must follow from the relations above: {L}",
 "Which conclusion is guaranteed by the premises? {L}",
 "From these facts, which of the options is necessarily true? {L}",
 "Pick the statement that can be deduced with certainty: {L}",
 "Which of the following is a valid consequence of the premises? {L}",
 "Which option must hold given all of the above? {L}",
 "Identify the statement that is entailed: {L}",
 "Based strictly on the premises, which of these is certainly true? {L}",
 "Which of these conclusions follows necessarily? {L}",
 "Choose the one statement that the premises force to be true. {L}",
 "What can be concluded? {L}",
]
QB["equality"] = [
 ("Which of the following statements might be true? {L}","possibility instead of necessity"),
 ("Which of the following statements is false? {L}","asks for false statement"),
 ("Which of the following statements necessarily follows? {Lx}","an option altered"),
 ("Which of the following statements necessarily follows? {Lm}","an option dropped"),
 ("Which of the following statements necessarily follows? (The answer is A.) {L}","answer hint"),
 ("Which of the following is most likely true? {L}","probabilistic wording"),
 ("Which of the following statements does not follow? {L}","asks for non-entailed statement"),
 ("Which of the following statements necessarily follows? {Ln}","options renamed to words"),
]

def letters(opts):
    fmt = R.choice([0,1,2])
    if fmt == 0: return " ".join(f"{c}. {o}" for c, o in zip("ABCD", opts))
    if fmt == 1: return "\n" + "\n".join(f"{c}. {o}" for c, o in zip("ABCD", opts))
    return " ".join(f"({c}) {o}" for c, o in zip("ABCD", opts))

def flip(st):
    return st.replace(" != ", " = ") if " != " in st else st.replace(" = ", " != ")

def words(st):
    a, op, b = st.split(" ")
    return f"{a} {'equals' if op == '=' else 'does not equal'} {b}"

def eq_options(vs=None):
    vs = vs or R.sample(VARS[:12], 5)
    opts = []
    while len(opts) < 4:
        a, b = R.sample(vs, 2)
        o = f"{a} {R.choice(['=','!='])} {b}"
        if o not in opts and flip(o) not in opts: opts.append(o)
    return opts

def qfill(fam, t, args, opts, extra_opts=None):
    if fam == "transitive_order":
        z = R.choice([p for p in PEOPLE if p not in args])
        return t.format(a=args[0], b=args[1], z=z)
    if fam == "membership_inheritance":
        T = R.choice([p for p, _ in SETS if p != args[1]])
        return re.sub(r"\b([Aa]) ([AEIOU])", r"\1n \2", t.format(x=args[0], S=args[1], s=SING[args[1]], T=T))
    if fam == "sequential_state_update":
        o = ", ".join(opts[:-1]) + " or " + opts[-1]
        o2v = [str(int(x) + 5) for x in opts]
        o2 = ", ".join(o2v[:-1]) + " or " + o2v[-1]
        Z = R.choice([c for c in CTRS if c != args[0]])
        return t.format(C=args[0], o=o, o2=o2, Z=Z, g=opts[1])
    L = letters(opts)
    lx = list(opts); lx[1] = flip(lx[1])
    return t.format(L=L, Lx=letters(lx), Lm=letters(opts[:3]), Ln=letters([words(o) for o in opts])).replace(" \n", "\n")

def seq_opts():
    g = R.randint(3, 40)
    o = [str(g-1), str(g), str(g+1)]
    R.shuffle(o)
    return o

ques = []
for fam in ["transitive_order","membership_inheritance","sequential_state_update","equality"]:
    for lst, good in ((QG[fam], True), (QB[fam], False)):
        for item in lst:
            t, why = (item, "faithful rendering") if good else item
            if fam == "transitive_order":
                args, opts = two(PEOPLE), OPT[fam]; qp = "RELATION"
            elif fam == "membership_inheritance":
                args, opts = [R.choice(PEOPLE), R.choice(SETS)[0]], OPT[fam]; qp = "MEMBER_OF"
            elif fam == "sequential_state_update":
                args, opts = [R.choice(CTRS)], seq_opts(); qp = "FINAL_VALUE"
            else:
                args, opts = [], eq_options(); qp = "ENTAILED"
            text = qfill(fam, t, args, opts)
            ques.append(dict(family=fam, query=dict(predicate=qp, args=args), options=list(opts),
                             text=text, faithful=good, why=why))
with open(OUT + "questions.jsonl", "w") as f:
    for r in ques: f.write(json.dumps(r, ensure_ascii=False) + "\n")

# ---------------- renders ----------------
VOICES = ["terse","story","formal"]
INTRO = {
 "transitive_order": {
  "terse": ["Some people are in a row.", "A row of people, left to right.", "People stand in one line."],
  "story": ["On a bright morning, a group of friends lined up along the harbor wall to watch the boats come in.",
            "At the village fair, neighbors formed a single line in front of the pie stall.",
            "The choir gathered for a photo, everyone standing in one long row on the steps."],
  "formal": ["Consider several individuals arranged in a single left-to-right row.",
             "The following statements describe the relative positions of individuals in one row.",
             "Assume a set of people occupies positions in a single horizontal line."]},
 "membership_inheritance": {
  "terse": ["Some people and some groups.", "Groups and members.", "Facts about guild membership."],
  "story": ["In the river town of Hollowmere, almost everyone belongs to at least one of the old trade guilds.",
            "The annual craft festival brings together people from many different guilds.",
            "Old records from a mountain village describe who belonged to which society."],
  "formal": ["The following statements concern individuals and the groups to which they belong.",
             "Consider the following facts about group membership. Treat each group as a set of people.",
             "Assume only the information below about individuals and groups."]},
 "sequential_state_update": {
  "terse": ["Track the items in the {C}.", "One store, several changes.", "Count the items in the {C}."],
  "story": ["A small family shop keeps its spare stock in the {C}, and the stock shifts over the course of a busy day.",
            "Every week the caretaker keeps a careful tally of what is kept in the {C}.",
            "During the harvest season, things move in and out of the {C} constantly."],
  "formal": ["The following describes an ordered sequence of changes to the contents of the {C}.",
             "Consider a single storage location, the {C}. Apply the changes below in the order given.",
             "Let the {C} be a container whose item count changes step by step as described."]},
 "equality": {
  "terse": ["If:", "Given:", "Premises:"],
  "story": ["A student is handed a worksheet listing how some unknown values relate to one another.",
            "A puzzle book presents a few relationships between mystery values, one per line.",
            "Your friend scribbles some relations between variables on a napkin."],
  "formal": ["Let each lowercase letter denote a value. Consider the following premises.",
             "Assume the following relations hold between the variables.",
             "The premises below state equalities and inequalities among variables."]},
}
RT = {
 "LEFT_OF": {
  "terse": ["{a} is left of {b}.", "{b} is right of {a}.", "{a} is somewhere left of {b}."],
  "story": ["{a} was standing somewhere to the left of {b}.", "{b} ended up somewhere to the right of {a}.",
            "{a} had found a spot further left than {b}.", "Somewhere to the right of {a} stood {b}."],
  "formal": ["{a} is positioned to the left of {b}.", "{b} is located to the right of {a}.",
             "It is given that {a} is somewhere to the left of {b}."]},
 "MEMBER_OF": {
  "terse": ["{x} is a {s}.", "{x} is one of the {S}."],
  "story": ["{x} has been one of the {S} for years.", "{x} proudly counts among the {S}.", "{x} is a {s}, as everyone in town knows."],
  "formal": ["{x} is a member of the {S}.", "It is given that {x} belongs to the {S}."]},
 "NOT_MEMBER_OF": {
  "terse": ["{x} is not a {s}.", "{x} is not one of the {S}."],
  "story": ["{x}, on the other hand, has never been one of the {S}.", "{x} is not a {s}, whatever the rumors say."],
  "formal": ["{x} is not a member of the {S}.", "It is given that {x} does not belong to the {S}."]},
 "SUBSET_OF": {
  "terse": ["Every {s} is a {t}.", "All {S} are {T}."],
  "story": ["By old custom, every {s} is also a {t}.", "In this town, all {S} are {T} as well.", "Anyone who is a {s} is automatically one of the {T}."],
  "formal": ["Every member of the {S} is a member of the {T}.", "The {S} form a subset of the {T}.", "It is given that all {S} are {T}."]},
 "INITIAL_VALUE": {
  "terse": ["The {C} starts with {n} items."],
  "story": ["When the doors open in the morning, the {C} holds {n} items.", "At the start of the day there are {n} items in the {C}."],
  "formal": ["Initially, the {C} contains {n} items.", "The initial number of items in the {C} is {n}."]},
 "INCREMENT": {
  "terse": ["the {C} gains {n} items.", "{n} items are added to the {C}."],
  "story": ["a delivery van drops off {n} items at the {C}.", "a neighbor brings {n} items to the {C}.", "{n} more items are carried into the {C}."],
  "formal": ["{n} items are added to the {C}.", "the number of items in the {C} increases by {n}."]},
 "DECREMENT": {
  "terse": ["the {C} loses {n} items.", "{n} items are removed from the {C}."],
  "story": ["a customer buys {n} items from the {C}.", "{n} items are loaded onto a cart and taken out of the {C}.", "the owner sends {n} items away from the {C}."],
  "formal": ["{n} items are removed from the {C}.", "the number of items in the {C} decreases by {n}."]},
 "EQUAL": {
  "terse": ["{x} = {y}"],
  "story": ["{x} is the same as {y}.", "{x} and {y} turn out to be equal."],
  "formal": ["{x} is equal to {y}.", "The value of {x} equals the value of {y}."]},
 "NOT_EQUAL": {
  "terse": ["{x} != {y}"],
  "story": ["{x} and {y} are different.", "{x} is not the same as {y}."],
  "formal": ["{x} is not equal to {y}.", "The value of {x} differs from the value of {y}."]},
}
ZERO = {"terse": "The {C} starts with no items.", "story": "When the doors open in the morning, the {C} is completely empty.",
        "formal": "Initially, the {C} contains no items."}
RQ = {  # index lists into QG per voice
 "terse": [0, 4, 13], "story": [2, 8, 9, 12], "formal": [3, 5, 10, 14]}

def mk_facts(fam):
    k = R.randint(2, 6)
    if fam == "transitive_order":
        ppl = R.sample(PEOPLE, k + 1)
        facts = [["LEFT_OF", [ppl[i], ppl[i+1]]] for i in range(k)]
        R.shuffle(facts)
        q = [ppl[0], ppl[-1]] if R.random() < .6 else [ppl[-1], ppl[0]]
        if R.random() < .2 and k >= 3:
            q = [ppl[1], ppl[-1]]
        return facts, dict(predicate="RELATION", args=q), list(OPT[fam])
    if fam == "membership_inheritance":
        ss = [p for p, _ in R.sample(SETS, k)]
        x = R.choice(PEOPLE)
        facts = [["MEMBER_OF", [x, ss[0]]]] + [["SUBSET_OF", [ss[i], ss[i+1]]] for i in range(k - 1)]
        if R.random() < .35 and len(facts) < 7:
            y = R.choice([p for p in PEOPLE if p != x])
            facts.append(["NOT_MEMBER_OF", [y, R.choice(ss)]])
        R.shuffle(facts)
        return facts, dict(predicate="MEMBER_OF", args=[x, ss[-1]]), list(OPT[fam])
    if fam == "sequential_state_update":
        C = R.choice(CTRS); v = R.choice([0, R.randint(2, 25), R.randint(5, 30)])
        facts = [["INITIAL_VALUE", [C, v]]]
        for _ in range(k):
            n = R.randint(2, 12)
            if R.random() < .5 and v - n >= 0:
                facts.append(["DECREMENT", [C, n]]); v -= n
            else:
                facts.append(["INCREMENT", [C, n]]); v += n
        o = [str(v - 1), str(v), str(v + 1)] if v > 0 else [str(v), str(v + 1), str(v + 2)]
        R.shuffle(o)
        return facts, dict(predicate="FINAL_VALUE", args=[C]), o
    # equality: build classes
    vs = R.sample(VARS[:14], R.randint(5, 7))
    facts = []
    while len(facts) < min(k + 1, 7):
        a, b = R.sample(vs, 2)
        p = R.choice(["EQUAL", "EQUAL", "NOT_EQUAL"])
        if any(set(f[1]) == {a, b} for f in facts): continue
        facts.append([p, [a, b]])
    facts = facts[:7]
    # union-find
    par = {v: v for v in vs}
    def fd(v):
        while par[v] != v: v = par[v]
        return v
    for p, (a, b) in facts:
        if p == "EQUAL": par[fd(a)] = fd(b)
    neq = {frozenset((fd(a), fd(b))) for p, (a, b) in facts if p == "NOT_EQUAL"}
    ent = []
    for i, a in enumerate(vs):
        for b in vs[i+1:]:
            if fd(a) == fd(b) and not any(set(f[1]) == {a, b} for f in facts): ent.append(f"{a} = {b}")
            elif frozenset((fd(a), fd(b))) in neq and not any(set(f[1]) == {a, b} for f in facts): ent.append(f"{a} != {b}")
    if not ent:
        return mk_facts(fam)
    corr = R.choice(ent)
    opts = [corr, flip(corr)]
    tries = 0
    while len(opts) < 4 and tries < 200:
        tries += 1
        a, b = R.sample(vs, 2)
        o = f"{a} {R.choice(['=','!='])} {b}"
        if o in opts or o in ent or flip(o) in opts: continue
        if fd(a) == fd(b) or frozenset((fd(a), fd(b))) in neq: continue
        opts.append(o)
    if len(opts) < 4: return mk_facts(fam)
    R.shuffle(opts)
    return facts, dict(predicate="ENTAILED", args=[]), opts

OPENERS = ["Then ", "Next, ", "After that, ", "Later, ", "Then, ", "After this, "]

def rsent(pred, args, voice, i, nupd, tmpl=None):
    t = tmpl or R.choice(RT[pred][voice])
    if pred == "INITIAL_VALUE" and args[1] == 0 and tmpl is None:
        t = ZERO[voice]
    s = fill(t, pred, args, extras(pred, args))
    if pred in ("INCREMENT", "DECREMENT"):
        body = s[0].lower() + s[1:] if not s[0].isdigit() else s
        if body.startswith("the ") or body[0].isdigit() or body.startswith("a ") or True:
            pass
        if voice == "terse" and TERSE_BARE[0]:
            s = body[0].upper() + body[1:]
        else:
            if i == 1: op = "First, "
            elif i == nupd: op = "Finally, "
            else: op = R.choice(OPENERS)
            s = op + body
    return s

TERSE_BARE = [False]
def render(fam, voice):
    TERSE_BARE[0] = R.random() < .5
    facts, q, opts = mk_facts(fam)
    C = facts[0][1][0] if fam == "sequential_state_update" else ""
    intro = R.choice(INTRO[fam][voice]).format(C=C)
    nupd = len(facts) - 1
    prem = [rsent(p, a, voice, i, nupd) for i, (p, a) in enumerate(facts)]
    qt = QG[fam][R.choice(RQ[voice])]
    question = qfill(fam, qt, q["args"], opts)
    return dict(family=fam, facts=facts, query=q, options=opts, intro=intro, premises=prem,
                question=question, voice=voice)

LEAK = {
 "transitive_order": ("{intro} As it turns out, {a} ended up at the very far left.", "intro states a position fact / hints answer"),
 "membership_inheritance": ("{intro} Everyone mentioned below turns out to be one of the {S}.", "intro hints the answer"),
 "sequential_state_update": ("{intro} The {C} starts the day with 50 items.", "intro states an extra number"),
 "equality": ("{intro} (Hint: the correct option is an equality.)", "intro hints the answer"),
}

rend = []
for fam in ["transitive_order","membership_inheritance","sequential_state_update","equality"]:
    for i in range(15):
        r = render(fam, VOICES[i % 3])
        r.update(faithful=True, why="faithful render, voice " + r.pop("voice"))
        rend.append(r)
    for j in range(8):
        r = render(fam, VOICES[j % 3]); voice = r.pop("voice")
        kind = j % 4
        if kind == 0:
            r["intro"] = LEAK[fam][0].format(intro=r["intro"], a=r["query"]["args"][0] if r["query"]["args"] else "",
                                             S=r["query"]["args"][1] if fam == "membership_inheritance" else "",
                                             C=r["query"]["args"][0] if r["query"]["args"] else "")
            why = LEAK[fam][1]
        elif kind == 3:
            qb = QB[fam][j % len(QB[fam])]
            r["question"] = qfill(fam, qb[0], r["query"]["args"], r["options"])
            why = "question defect: " + qb[1]
        else:
            idx = R.randrange(len(r["facts"]))
            p, a = r["facts"][idx]
            bads = P[p]["bad"]
            t, bw = bads[(j * 5 + idx) % len(bads)]
            s = fill(t, p, a, extras(p, a))
            if p in ("INCREMENT", "DECREMENT"):
                s = ("First, " if idx == 1 else "Then ") + s[0].lower() + s[1:]
            r["premises"][idx] = s
            why = f"premise {idx} defect: {bw}"
        r.update(faithful=False, why=why + f" (voice {voice})")
        rend.append(r)
with open(OUT + "renders.jsonl", "w") as f:
    for r in rend: f.write(json.dumps(r, ensure_ascii=False) + "\n")
