"""Membership inheritance: entities in sets, subset links, asking whether an entity belongs to a set.

Labels: YES (membership follows), NO (non-membership follows), UNKNOWN (neither follows).
Fact order does not matter (declarative): premises are shuffled uniformly, so no order of them,
the proof's own included, says anything about the label.

Beyond the spec, whose generator always answers YES, the three labels are drawn uniformly. To make NO
derivable the family adds the predicate NOT_MEMBER_OF(E, S) and the rule that non-membership passes
down subset links (NOT_MEMBER_OF(x,B) and SUBSET_OF(A,B) imply NOT_MEMBER_OF(x,A)).

Every item has one shape whatever its label, drawn before it: a chain of subset links
S0 ⊆ S1 ⊆ … ⊆ SL, the queried entity x in one set A of it and not in a set B below A, and other
entities with one membership fact each. Only where A, B and the queried set sit depends on the label:
- YES: the queried set is `complexity - 1` links above A; the proof is MEMBER_OF(x, A) and those links.
- NO: the queried set is `complexity - 1` links below B; the proof is NOT_MEMBER_OF(x, B) and those.
- UNKNOWN: the queried set lies between B and A, `complexity - 1` links below A or above B, where
  nothing follows. Proving that means collecting every set x is known to be in (upward from A) and
  every set it is known not to be in (downward from B) and seeing that the queried set is in neither.
  The proof lists the premises of both closures (x's two facts, every link above A, every link
  below B) and complexity is their number.
What this equalizes, from complexity 2 on (tests measure each): the shape, hence the number of
premises of each predicate and of symbols, is independent of the label; x is always the first
argument of exactly one MEMBER_OF and one NOT_MEMBER_OF premise; the queried set is never in a
membership premise and is always the first argument of one SUBSET_OF and the second of one (the chain
goes on past it); x and the queried set are `complexity` premises apart, ignoring direction, in every
label; premise positions are a uniform shuffle. From complexity 4 on, so do their neighbours: A, B and
the queried set's neighbours are inner sets of the chain, never its ends, and only the queried
entity's own sets hold its facts. At complexity 1 the answer of YES and NO is a stated premise and an
UNKNOWN entity has one fact only, so complexity 1 is not equalized.
"""
from __future__ import annotations

import random

from families.family import Family
from families.free_forms import only_where_unread
from families.ir import Atom, Skeleton, atom
from families.membership_forms import CONTAINERS
from families.membership_forms import rewrite as membership_rewrite
from families.membership_reads import (
    _ALL_R,
    _ARE_ALSO,
    _EVERY,
    _IN_O,
    _IS_IN_R,
    _ISNT_IN_R,
    _WHO,
    _all_reads,
    _grouped,
)
from families.phrases import expand
from families.seeding import symbol_names
from families.wording import Wording

NAME = "membership_inheritance"
LABELS = ("YES", "NO", "UNKNOWN")
RULES = (
    "MEMBER_OF(x,A) and SUBSET_OF(A,B) imply MEMBER_OF(x,B)",
    "NOT_MEMBER_OF(x,B) and SUBSET_OF(A,B) imply NOT_MEMBER_OF(x,A)",
    "The answer is YES if MEMBER_OF(x,S) follows, NO if NOT_MEMBER_OF(x,S) follows, UNKNOWN otherwise",
)


def generate(index: int, complexity: int, rng: random.Random) -> Skeleton:
    """One membership skeleton whose proof has exactly `complexity` premises."""
    k = complexity
    randint = rng.randint
    # The shape, label-blind: a chain of L links (sets 0..L, link s ⊆ s+1), long enough that every
    # label fits with A, B and the queried set away from its ends, and the queried set k - 1 links
    # from A or B (so k premises from x, ignoring direction) in every label.
    links = 3 * k + 2 + randint(0, 2)
    gold = LABELS[rng.randrange(3)]
    if gold == "YES":
        a = randint(2, links - k - 1)
        b = randint(1, a - 1)
        query = a + k - 1
        proof = [("M", 0, a)] + [("S", s, s + 1) for s in range(a, query)]
    elif gold == "NO":
        b = randint(k + 1, links - 2)
        a = randint(b + 1, links - 1)
        query = b - k + 1
        proof = [("N", 0, b)] + [("S", s - 1, s) for s in range(b, query, -1)]
    else:
        if k == 1:   # x has one fact only (the exception of complexity 1)
            a, b = links, None
            query = randint(1, links - 1)
        else:
            # Links above A and below B add up to k - 2; from k = 4 on neither set ends the chain.
            edge = 1 if k >= 4 else 0
            up = randint(edge, k - 2 - edge)
            a, b = links - up, k - 2 - up
            query = a - (k - 1) if rng.random() < 0.5 else b + (k - 1)
        proof = [("M", 0, a)] + [("S", s, s + 1) for s in range(a, links)]
        if b is not None:
            proof += [("N", 0, b)] + [("S", s - 1, s) for s in range(b, 0, -1)]
    facts = [("S", s, s + 1) for s in range(links)] + [("M", 0, a)]
    if b is not None:
        facts.append(("N", 0, b))
    n_ents = 1 + randint(1, 2)
    for e in range(1, n_ents):
        s = rng.randrange(links)   # any set but the queried one
        facts.append(("M" if rng.random() < 0.5 else "N", e, s + (s >= query)))
    n_sets = links + 1

    ent_symbols, set_symbols = symbol_names("E", n_ents), symbol_names("S", n_sets)
    ents, sets = list(ent_symbols), list(set_symbols)
    rng.shuffle(ents)
    rng.shuffle(sets)

    def spell(kind: str, u: int, v: int) -> Atom:
        return atom(PREDICATES[kind], (sets[u], sets[v]) if kind == "S" else (ents[u], sets[v]))

    atoms = [spell(*f) for f in facts]
    rng.shuffle(atoms)
    # The names are permutations of E0.. and S0..: declare them in index order.
    entities = dict.fromkeys(ent_symbols, "Entity")
    entities.update(dict.fromkeys(set_symbols, "Set"))
    return Skeleton(
        id=f"member-{index:04d}", family=NAME, complexity=complexity, entities=entities,
        facts=tuple(atoms), rules=RULES, query=atom("MEMBER_OF", (ents[0], sets[query])),
        answer_options=LABELS, gold_answer=gold,
        proof=tuple([str(spell(*f)) for f in proof]))


PREDICATES = {"M": "MEMBER_OF", "N": "NOT_MEMBER_OF", "S": "SUBSET_OF"}
_IN = "(a member of the|a member of|one of the|among the|in the|part of the|counted among the|included in the|" \
      "listed among the|a part of the)"
_IN_SHORT = "(one of the|a member of the|among the|in the|part of the)"
_NOT = "(is not|isn't|is never)"   # not "no longer": it says one was a member
_ALL = "(all|all the|all of the|every one of the|each of the|each one of the)"
_ARE_IN = "[among the|members of the|in the|part of the|one of the|counted among the]"
WORDING = Wording(
    facts={
        "MEMBER_OF": (
            "{0} is one of the {1}",
            f"{{0}} is {_IN} {{1}}",
            "{0} (belongs to|belongs in|is part of) [the] {1}",
            "[the] {1} (include|includes|count|counts|contain|contains) {0} [among them|as a member]"),
        "NOT_MEMBER_OF": (
            "{0} is not one of the {1}",
            f"{{0}} {_NOT} {_IN} {{1}}",
            "{0} (does not belong to|doesn't belong to|does not belong in|doesn't belong in|never belongs to|"
            "is not part of|isn't part of) [the] {1}",
            "[the] {1} (do not include|don't include|does not include|doesn't include|exclude|excludes|"
            "do not count|don't count|do not contain|don't contain) {0} [among them|as a member]",
            "{0} is (outside|excluded from|not among) the {1}"),
        "SUBSET_OF": (
            "all {0} are {1}",
            f"{_ALL} {{0}} are [also] {_ARE_IN} {{1}}",
            f"[the] {{0}} are all [also] {_ARE_IN} {{1}}",
            "(every|each) (one|member) of the {0} is [also] (one of the|a member of the|among the|in the|part "
            "of the|counted among the) {1}",
            "(every|each) (one|member) of the {0} [also] belongs to the {1}",
            f"[the] {{1}} (include|includes|contain|contains) {_ALL} {{0}}",
            f"(anyone who|whoever|everyone who|anybody who|each person who|every person who) (is|belongs to) "
            f"{_IN_SHORT} {{0}} is [also] {_IN_SHORT} {{1}}",
            f"if someone is {_IN_SHORT} {{0}} then (they are|that person is|he or she is) [also] {_IN_SHORT} {{1}}",
            f"being {_IN_SHORT} {{0}} means being {_IN_SHORT} {{1}}",
            "[the] {0} (form|are|make up) a subset of [the] {1}")},
    reads=_all_reads({
        "MEMBER_OF": (
            f"{{0}} {_IS_IN_R} [also|indeed] {_IN_O} {{1}}",
            "{0} (belongs to|belongs in|is part of|is a part of|is included in|is included among|is counted among|"
            "is listed among|is numbered among|is found among|is one) {1}",
            "{1} (include|includes|count|counts|contain|contains|number|numbers|list|lists|have|has) {0} "
            "[among them|as a member|as one of them|among their members|among its members|in their ranks]",
            "{0} is (included|counted|listed) (in|among) {1}",
            "{0} (is|is also) [a] (member|part) of {1}",
            "(among|in|within) {1} (is|stands|we find|you find|one finds) {0}",
            "one of {1} is {0}",
            "{1} (count|counts|include|includes|list|lists|number|numbers) {0} (among their number|among its number|"
            "among their ranks|in their ranks|in its ranks|among their members|as one of theirs)",
            "{0} is (in|among|within) {1} (ranks|number|membership)",
            "{1} (has|have|holds|hold|includes|include|counts|count|contains|contain) {0} (in it|in them|in its ranks|"
            "in their ranks|among them|among its members|among their members|as a member)",
            "the (group|guild|club|team|set|band|circle|society|order) (known as|called|named|of) {1} (includes|has|counts|"
            "contains|holds) {0} [in it|among its members|as a member]",
            "{0} is one of (those|these) {1}",
            f"{{0}} {_IS_IN_R} {_IN_O} {{1}} (group|guild|club|team|society|circle|crew|band|order|company)",
            "{0} is (one|a member) of {1} (members|ranks|membership|number)"),
        "NOT_MEMBER_OF": (
            f"{{0}} {_ISNT_IN_R} {_IN_O} {{1}}",
            "no {1} is {0}", "{0} is not (in|among|within) {1} (ranks|number|membership)",
            "{0} is (kept out of|barred from|shut out of|not on the roll of|not on the list of|not on the roster of) {1}",
            "{0} (does not belong to|does not belong in|never belongs to|is not part of|is not a part of|is not "
            "included in|is not included among|is not counted among|is not listed among|is not a member of|is not one "
            "of|is not among|is not in|is not within|is not inside) {1}",
            "{1} (do not include|does not include|exclude|excludes|do not count|does not count|do not contain|does "
            "not contain|do not have|does not have|leave out|leaves out|do not list|does not list) {0} "
            "[among them|as a member|as one of them|among their members|among its members]",
            "{0} is (outside|excluded from|left out of|absent from|missing from|not among|no member of|not a member of|"
            "not part of|not one of) {1}",
            "(none|no one|nobody|not one|no member|not a single one|no single one) (of|among|in) {1} is {0}",
            "{0} (is not|is never|is no) (member|part) of {1}",
            "{1} (do not|does not|never) (count|include|number|list|have|hold|contain) {0} (among their number|among its "
            "number|among their ranks|in their ranks|in its ranks|among their members|among its members|as one of theirs|"
            "among them|in it|in them|as a member|in their group|in its group)",
            "{0} is not counted among {1}", "{0} does not count among {1}"),
        "SUBSET_OF": (
            f"{_ALL_R} {{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            f"{_EVERY} {{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            f"{_EVERY} (one|member|single member|single one|person|individual) (of|in|among) {{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            f"{{0}} (are|are all|all are|are each|are always|are every one|are all of them|without exception are) "
            f"[also] {_IN_O} {{1}}",
            "{0} (all|each|also all|all also) (belong to|count as|are|are counted among) {1}",
            f"{{1}} (include|includes|contain|contains|take in|takes in|cover|covers|encompass|encompasses|enclose|"
            f"encloses) {_ALL_R} {{0}}",
            "{1} (include|includes|contain|contains|cover|covers|encompass|encompasses) (every|each|any) {0}",
            # one category holding another whole ("Eastmoor entirely contains Greyhill", "The Reports folder contains
            # the Workspace folder"): a category is never a member of a category, so its containing is a subset's
            "{1} [wholly|entirely|completely|fully] (includes|contains|encloses|encompasses|include|contain|enclose|"
            "encompass) {0}",
            "(inside|within) {1} (is|lies|sits|are|lie|sit) {0}",
            # what the other's members are called, composed ("all items of", "everything in", "every member of")
            "{1} (include|includes|contain|contains|cover|covers|encompass|encompasses|hold|holds) (" +
            "|".join(expand("all|all the|every|each", "item|items|element|elements|thing|things|entry|entries|member|members",
                            "of|in|from")) + "|everything in|everything from|everyone in|everyone on|everybody in|"
            "everyone from) {0}",
            # every member of one counted among the other's ("The Frost League counts every Oak Circle member among
            # its own members")
            "{1} (counts|count|includes|include|lists|list|numbers|number) (every|each|any|all) [member of|one of|"
            "member in] {0} [member|members] (among|in) (its|their) [own] (members|number|ranks|membership)",
            # the token held, said passively ("The Ember Badge is held by everyone who has the Tide Badge")
            "{1} is [also] (held|had|owned|carried|worn|shared) by (" + "|".join(expand(
                "everyone|anyone|everybody|anybody|all those|all|each person|every person", "who|that", "has|holds|have|"
                "hold|carries|owns|wears|is in|belongs to|is a member of")) + "|" + "|".join(expand(
                "every|each|any", "holder|owner|bearer|member|carrier", "of")) + "|everyone with|anyone with|all with|"
                "everybody with|all holders of|all owners of|all bearers of|all members of) {0}",
            f"{_WHO} (is|belongs to|counts as|is counted among|is in|is among|is one of|is a member of|is part of|"
            f"are|belong to|count as|are counted among|are in|are among|are members of|are part of|has|have|holds|"
            f"hold) "   # "all who belong to", "all who have Saffron clearance"
            f"{{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            f"(anyone|everyone|anybody|whoever|each person|every person|any person|everybody) (in|among|of) {{0}} "
            f"{_ARE_ALSO} {_IN_O} {{1}}",
            f"if (someone|somebody|anyone|anybody|a person|one|a given person) (is|belongs to|is in|is among|is one of|is a "
            f"member of|is part of|counts as) {{0}} [then] (they are|that person is|he or she is|they|that person|"
            f"they belong to|that person belongs to|they must be|they are also|they count as|so are they) [also] "
            f"{_IN_O} {{1}}",
            f"(being|to be) {_IN_O} {{0}} (means|implies|entails|guarantees) (being|that one is|membership in) "
            f"{_IN_O} {{1}}",
            # a token held ("Holding the birdcall badge means also holding the knot badge")
            "(holding|having|owning|carrying|wearing|earning) {0} (means|implies|entails|guarantees) [also] "
            "(holding|having|owning|carrying|wearing|earning) {1} [too|as well]",
            "{0} (form|are|make up|is|are a part of|constitute|is|forms) a (subset|subgroup|subclass|part) of {1}",
            # a kind within the other, by any noun of a kind ("the vinefolk are a subkind of the marshfolk", "a breed
            # of"); never "sort of" (a hedge) nor "a variety of" (many different ones, not a kind)
            "{0} (are|is) [wholly|entirely] a (subkind|subtype|subcategory|subfamily|subspecies|subdivision|subgenus|"
            "kind|type|species|breed|branch|subbranch|offshoot) of {1}",
            "{0} (is|are) [entirely|wholly|completely|fully] (contained|included|subsumed) (in|within|among|under) {1}",
            f"(whenever|if ever|when) (someone|somebody|anyone|anybody|a person|one) (is|belongs to|is in|is among|is one "
            f"of|is a member of|counts as) {{0}} [then] (they are|that person is|he or she is|they must be|that person "
            f"must be|they count as|they belong to|that person belongs to) {_IN_O} {{1}}",
            f"no one is {_IN_O} {{0}} without (being|also being) {_IN_O} {{1}}",
            f"(without exception|invariably|always|in every case) {_ALL_R} {{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            f"(without exception|invariably|in every case) {{0}} (are|are all) {_IN_O} {{1}}",
            f"(without exception|invariably|in every case) {_EVERY} {{0}} {_ARE_ALSO} {_IN_O} {{1}}",
            "membership in {0} implies membership in {1}",
            f"(a|an|any given|a given) {{0}} (is|counts as|belongs to) (always|invariably|necessarily|by definition|"
            f"automatically|in every case|without exception) [also] {_IN_O} {{1}}",
            f"(every|each|any) (single|last|one) {{0}} {_ARE_ALSO} [counted as|counted among|counts as] {_IN_O} {{1}}",
            f"{_EVERY} {{0}} (is|is also) (counted as|counted among|listed as|listed among|numbered among) {_IN_O} {{1}}",
            f"{_ALL_R} {{0}} (are|are also) (counted as|counted among|listed as|listed among|numbered among) {_IN_O} {{1}}",
            f"there is no {{0}} who is not [also] {_IN_O} {{1}}",
            "no {0} is outside {1}",
            f"(no|not a single|not one) {{0}} is not [also] {_IN_O} {{1}}")}),
    questions={"MEMBER_OF": (
        "is {0} one of the {1}",
        f"is {{0}} {_IN} {{1}} [or not]",
        "does {0} belong to [the] {1} [or not]",
        "(do|does) [the] {1} include {0} [or not]",
        f"is it (true|the case) that {{0}} is {_IN_SHORT} {{1}}",
        f"can we (conclude|say|tell) that {{0}} is {_IN_SHORT} {{1}}")},
    question_reads={"MEMBER_OF": _grouped((
        "{0} ∈ {1}", "member_of {0} {1}", "{0} (among|in|one of|a member of|part of) {1}",
        "can {0} be (placed|counted|included|listed|numbered|classed|classified) (among|in|with|as) {1}",
        "what is the (status|membership status|standing) of {0} (with respect to|in|regarding|relative to|in relation to|"
        "concerning|as regards) {1}",
        f"is {{0}} {_IN_O} {{1}}",
        "(does|do) {0} (belong to|belong in|count among|count as|belong among|rank among|number among|belong with) {1}",
        "(do|does) {1} (include|contain|count|have|list) {0} [among them|as a member]",
        f"is it (true|the case|so|certain|known) that {{0}} (is|belongs to) {_IN_O} {{1}}",
        f"(can|could|may) (we|you|one) (conclude|say|tell|infer|deduce|determine|be sure) that {{0}} (is|belongs to) "
        f"{_IN_O} {{1}}",
        f"(does|is) it follow that {{0}} (is|belongs to) {_IN_O} {{1}}",
        "is {0} (included|counted|listed) (in|among) {1}",
        "(what|how) (is|about) {0} 's membership in {1}",
        "(what|how) is the membership of {0} in {1}",
        f"(would|should|must|will) {{0}} (be|count as|be counted as|be considered|be regarded as|be deemed|be classed as|"
        f"be classified as) [to be] {_IN_O} {{1}} [or not]",
        f"is {{0}} (sure|certain|bound|guaranteed|known) to be {_IN_O} {{1}}",
        "(are|is) {1} (sure|certain|bound|guaranteed|known) to (include|contain|count) {0} [among them|as a member]",
        f"(is|must) {{0}} (necessarily|definitely|certainly) [be] {_IN_O} {{1}}"), "1")},
    # words that negate a membership beside the common ones: a sentence of a non-membership with one holds a negation
    negations=frozenset({"∉", "excluded", "absent", "barred", "non", "nonmember"}),
    member_nouns=CONTAINERS,
    cues={"SUBSET_OF": (("some, not all", frozenset({"some", "most", "many", "several", "few"})),),
          "MEMBER_OF": (("a likelihood", frozenset({"most", "many", "some"})),)},
    # how long a membership has held says nothing more ("Keiko has been one of the Cartographers for years")
    fact_tails=("for years", "for a long time", "for ages", "for some time", "for many years", "since long ago",
                "since childhood", "for as long as anyone remembers"),
    intro_hints=frozenset("every all each always leads lead path paths chain whole entire both within inside "
                          "belongs belong".split()),
    # a members' subject by any noun, any verb of being listed in a category: rewritten where nothing reads
    rewrite=only_where_unread(NAME, membership_rewrite),
    negative=frozenset({"NOT_MEMBER_OF"}), opposites={"MEMBER_OF": "NOT_MEMBER_OF", "NOT_MEMBER_OF": "MEMBER_OF"},
    definitions={"YES": "{0} is one of the {1}", "NO": "{0} is not one of the {1}",
                 "UNKNOWN": "the statements do not settle it"})
FAMILY = Family(
    name=NAME, prefix="member", types=frozenset({"Entity", "Set"}),
    predicates={"MEMBER_OF": ("Entity", "Set"), "NOT_MEMBER_OF": ("Entity", "Set"),
                "SUBSET_OF": ("Set", "Set")},
    queries={"MEMBER_OF": ("Entity", "Set")},
    rules=RULES, order_matters=False, labels=LABELS, generate=generate, wording=WORDING)
