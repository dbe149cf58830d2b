"""The parts families/counter_moves.py composes a counter's movement from: verbs by how they say a way (their own,
or none until a particle says it), the ways themselves, what holds and starts, and the words that make a sentence
say something else (a hedge, a negation, a multiple, an end)."""
from __future__ import annotations

from families.counter_reads import START_OPENERS
from families.free_forms import s_form
from families.phrases import expand
from families.wording import HEDGES, NEGATIONS, NUMBER_AFTER, NUMBER_BEFORE

_VOWELS = frozenset("aeiou")


def _doubles(b: str) -> bool:
    """A verb of one syllable that ends in a vowel and a consonant doubles it in the past ("drop", "step")."""
    groups = sum(1 for k, c in enumerate(b) if c in _VOWELS and (k == 0 or b[k - 1] not in _VOWELS))
    return groups == 1 and len(b) > 2 and b[-1] not in _VOWELS | set("wxy") and b[-2] in _VOWELS and \
        b[-3] not in _VOWELS


def _forms(bases: str, irregular: str = "") -> frozenset[str]:
    """Each verb as it is said of one, of many and in the past ("walk walks walked"), and the irregular pasts."""
    out: set[str] = set(irregular.split())
    for b in bases.split():
        out.update((b, s_form(b)))
        if b.endswith("y") and b[-2] not in "aeiou":
            out.add(b[:-1] + "ied")
        else:
            out.add(b + "d" if b.endswith("e") else b + "ed")
        if _doubles(b):
            out.add(b + b[-1] + "ed")   # drop dropped, step stepped
    return frozenset(out)


# Things that move themselves: the way is their particle's ("get off", "climb aboard", "come back into"); "get" and
# "drop" go both ways and so read only with one
SELF_VERBS = _forms("walk pass march stream pour flow file crowd wander step move roll hurry troop drift trickle "
                    "climb squeeze pile check stroll hop jump travel head crawl rush flock float seep trek sail slip "
                    "spill tumble drop crowd pack shuffle spill squeeze cram transfer pull drive park steer taxi "
                    "cycle paddle row waddle scurry scamper trot gallop", "transferred get gets got come comes came "
                    "go goes went run runs ran fly flies flew swim swims swam fall falls fell ride rides rode slide "
                    "slides slid escape escapes escaped flee flees fled stray strays strayed")
# Transitive verbs whose object is the counter, with their own way: "31 passengers board @0", "9 leave @1"
INTO_VERBS = _forms("board enter join reboard embark")
OUT_VERBS = _forms("exit vacate deboard disembark alight quit depart", "leave leaves left")
# Participles of a passive ("48 coins are taken out of @0"): the way is the preposition's, but for a few that say
# their own (then the preposition must agree)
IN_ONLY = _forms("add deposit credit insert admit award grant", "admitted")
OUT_ONLY = _forms("remove withdraw deduct subtract debit extract evict eject expel steal", "withdrawn stolen spent used "
                 "lost consumed eaten")
PARTICIPLES = frozenset(
    "put placed poured pumped tossed thrown dropped stocked loaded moved carried brought sent shipped delivered "
    "transferred led herded driven wheeled rolled packed stacked piled tipped dumped emptied drained scooped fished "
    "pulled lifted hauled carted trucked ferried flown slid pushed spooned shoveled shovelled ladled siphoned released "
    "walked guided ushered paid posted sold fed returned collected gathered picked cleared unloaded offloaded tapped "
    "bailed raked swept marched steered filed passed taken drawn given handed lent borrowed fetched dragged shifted "
    "relocated piped funneled funnelled channeled channelled transported mailed dispatched lowered hoisted stored "
    "stashed tucked slipped sorted brought let checked stuck pasted glued pinned taped clipped".split()) | IN_ONLY | OUT_ONLY
# Verbs of giving with the counter as the first object: "the first batch gives @0 46 more votes" (an increase)
TOGETHER = _forms("give hand send bring award pay grant lend", "gave given sent brought paid lent")
# What someone does to things: "the merchant puts 52 coins into @0" (the way the preposition's, as above)
AGENT_VERBS = _forms(
    "put place pour toss throw drop load move carry bring send ship deliver transfer pull lift haul drag take scoop "
    "fish shovel ladle pump drain siphon tip dump empty stack pile pack slip tuck unload offload feed return hand give "
    "pay lend borrow collect fetch sweep rake ferry truck cart wheel roll push stash store sort shift stuff lower hoist "
    "release let buy purchase grab snatch pick herd guide usher steer walk march chase coax",
    "put brought sent threw thrown took taken gave given fed lent paid swept bought drive drives drove driven lead "
    "leads led") | IN_ONLY | OUT_ONLY | TOGETHER
AGENT_HEADS = frozenset("he she they we you i someone somebody everyone one".split())
IN_WAYS = tuple(tuple(w.split()) for w in (
    "back into", "back onto", "back to", "back in", "in to", "on to", "over to", "up into", "down into", "in through",
    "on board", "up onto", "into", "onto", "inside", "aboard", "to", "in", "on"))
OUT_WAYS = tuple(tuple(w.split()) for w in (
    "back out of", "out of", "off of", "away from", "out from", "down from", "from inside", "up from", "off", "from"))
# A carrier's phrasal verbs, the particle saying the way for the carrier: "@0 drops off 9", "@0 lets 9 items off",
# "12 items are picked up by @0" (an increase of @0), "9 items are dropped off by @0" (a decrease)
CARRIER_VERBS = _forms("let drop take pick set put", "took taken dropped")
CARRIER_WAYS = {"in": 1, "on": 1, "up": 1, "aboard": 1, "off": -1, "out": -1, "down": -1}
# Where held things wait, said of them after their number ("begins with 85 passengers waiting", "has 40 cars parked
# in it"): a state of being in the counter that says nothing of the count (never "left", "missing", "expected", "due",
# "sold", which say another number)
POSED = frozenset("waiting queuing queueing sitting standing resting lying parked stored stacked seated shelved docked "
                  "perched idling sleeping kept held housed".split())
# What a counter keeps its things in, said after its possessive ("Lena's card starts with 22 tokens", "Milo loads 73
# tokens onto his card"): the counter itself; a closed set, so an owner's other thing ("Lena's sister") never is
HOLDERS = frozenset("card purse wallet pouch bag jar box album pocket tin chest basket piggybank hold account locker "
                    "vault collection stash hoard savings crew".split())   # (a boat's crew hauls in its catch)
# A holding's verb, and a start's (a holding is a start only with a word of the start)
HOLD_VERBS = tuple(tuple(w.split()) for w in (
    # a tally of what one has done so far ("Marco has read 49 pages at the start"): a holding of its things (before
    # "has": the longest first)
    "has read", "has collected", "has earned", "has scored", "has saved", "has gathered", "has won",
    "is home to", "is stocked with", "is filled with", "is loaded with", "is holding", "is carrying", "is storing",
    "is keeping", "is housing", "has got", "has", "holds",
    "contains", "carries", "stores", "keeps", "houses", "owns"))
START_VERBS = tuple(tuple(w.split()) for w in (
    "starts out holding", "starts out having", "starts out carrying", "starts out with", "starts off with",
    "starts off holding", "starts holding", "begins holding", "starts with", "begins with", "opens with",
    "sets out carrying", "sets off carrying", "sets out holding", "sets off holding",
    "sets off with", "sets out with", "kicks off with", "starts the day with", "begins the day with",
    "starts its route carrying", "begins its route carrying", "starts its route with", "begins its route with",
    "starts the route carrying", "starts the route with"))
# Before the counter (there are 5 items aboard @0), and the counter's own place after its number ("on board")
THERE_PLACES = tuple(tuple(w.split()) for w in (
    "on board", "sitting in", "waiting in", "stored in", "kept in", "held in", "in", "on", "inside", "aboard", "at",
    "within"))
OWN_PLACES = frozenset(tuple(w.split()) for w in (
    "on board", "aboard", "in it", "on it", "inside", "inside it", "in stock", "on hand", "in store", "in storage",
    "on its shelves", "in its hold", "on them", "in them",
    "to his", "to hers", "to theirs", "into his", "into hers", "into theirs"))   # "Maya adds 75 stamps to hers"
START_TIMES = tuple(sorted({tuple(w.split()) for w in (
    "at the start", "at the beginning", "at the outset", "to begin with", "to start with", "to start", "to begin",
    "initially", "originally", "at first", "in the beginning", "at the very start", "at the very beginning",
    "before anything happens", "before any changes", "before anything changes", "at the start of the day",
    "at the start of the story", "right at the start", "first thing", "at opening time", "first thing in the morning",
    "before any change", "before anything else", "before anything else happens") + START_OPENERS
    + expand("to start|to begin|to open|at the start of|at the beginning of", "the|its",
             "day|morning|week|game|match|season|shift|journey|trip|evening|round")}, key=len, reverse=True))
# A counter named in the plural: its verb as said of one ("the Badgers gain" as "gains")
AGREEMENT = {b: t for b, t in (p.split(":") for p in (
    "gain:gains lose:loses receive:receives get:gets open:opens start:starts begin:begins hold:holds have:has "
    "contain:contains keep:keeps store:stores carry:carries take:takes give:gives spend:spends collect:collects "
    "earn:earns score:scores win:wins add:adds drop:drops sell:sells buy:buys pay:pays use:uses set:sets kick:kicks "
    "pick:picks welcome:welcomes accept:accepts are:is were:was end:ends finish:finishes rise:rises grow:grows "
    "fall:falls go:goes shed:sheds donate:donates send:sends ship:ships trade:trades lend:lends hand:hands "
    "release:releases acquire:acquires obtain:obtains lose:loses forfeit:forfeits rack:racks bank:banks "
    "pocket:pockets net:nets").split())}
# Words that make a sentence claim something else: a hedge, a negation, a bound, a multiple, a measure, an end or
# the whole; a sentence with one is never read as a movement
CLAIMS = frozenset("least most than above below beyond under upto percent percentage times twice thrice double doubles "
                   "doubled triple triples tripled half halves halved or ish end ends ended ending final finally "
                   "remaining left total only each every all both now".split())
# Places that are no place, where nothing moved ("added to X on paper", "in theory", "in the plan", "per day"):
# never a place after a movement, so such a sentence stays unread.
IRREAL = frozenset("theory principle paper name spirit dream dreams plan plans planning imagination fiction story "
                   "stories estimate estimates projection projections forecast forecasts budget average sum total "
                   "totals wish wishes hope hopes idea mind minds rumour rumor rumours rumors per".split())
FORBIDDEN = HEDGES | NEGATIONS | (CLAIMS - {"left"}) | IRREAL
_NOT_PLAIN = FORBIDDEN | NUMBER_BEFORE | NUMBER_AFTER | frozenset(
    "start starts started begins began beginning outset initially initial first last left then dozen dozens score gross "
    "hundred hundreds thousand thousands million millions billion billions pair pairs fold".split())


def plain(word: str) -> bool:
    """A word that may stand in an agent or a place and says nothing of the count."""
    return word.isascii() and word.isalpha() and word not in _NOT_PLAIN


Words = list[str]
MORE = frozenset("more additional extra further new fresh".split())
STEP = frozenset("then next later also now again".split())
DETS = frozenset("the a an his her its their this that some one".split())
_PLACE_PREPS = frozenset("at on in inside during for near by from within across along aboard".split())
OWN = frozenset("his her its their".split())   # a possessive of the counter's own

def is_mark(w: str) -> bool:
    """A name's mark ("@0")."""
    return w[:1] == "@" and w[1:].isdigit()


def amount(words: Words, i: int, need_items: bool) -> tuple[str, int] | None:
    """(the number, the end) of "N [more] items" at `i` (items optional unless `need_items`)."""
    if i >= len(words) or not words[i].isdigit():
        return None
    j = i + 1 + (i + 1 < len(words) and words[i + 1] in MORE)
    if j < len(words) and words[j] in ("items", "item"):
        return words[i], j + 1
    return None if need_items or j > i + 1 else (words[i], i + 1)


def place_tail(words: Words, i: int, given: bool = False) -> bool:
    """Whether words[i:] is a place that says nothing of a count ("at the prize counter", "in his album", "on
    board", "on it"): a preposition, a determiner or none, and one to three plain words."""
    rest = words[i:]
    if not rest or tuple(rest) in OWN_PLACES:
        return bool(rest)
    if rest[0] not in _PLACE_PREPS and rest[0] not in ("to", "into", "onto"):
        return False
    if rest[0] in ("to", "into", "onto") and not given and (len(rest) != 3 or rest[1] not in OWN
                                                           or rest[2] not in HOLDERS):
        return False   # "adds 5 coins to the box" (or "to his friend") moves them elsewhere: only the counter's own
        # holder ("to his album")
    body = rest[1:]
    if body[:1] and body[0] in DETS:
        body = body[1:]
    return 1 <= len(body) <= 3 and all(plain(w) for w in body)

