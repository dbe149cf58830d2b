#!/usr/bin/env python3
"""Regenerate the blind held-out corpus in /work/corpus3.

All sentences below are hand-typed templates. Only names and numbers are
filled in, with a fixed random seed, so the output is byte-reproducible.
Standard library only.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261203)

# ---------------------------------------------------------------- pools
PEOPLE = ["Alice", "Bob", "Carmen", "Dmitri", "Elena", "Farid", "Grace",
          "Hiroshi", "Ines", "Jonah", "Keiko", "Liam", "Mariana", "Nikhil",
          "Olga", "Pedro", "Quinn", "Rosa", "Samir", "Tove", "Ursula",
          "Viktor", "Wen", "Ximena", "Yusuf", "Zara", "Beatrix", "Cormac",
          "Delphine", "Emeka", "Freya", "Gustavo", "Hana", "Idris", "Juno",
          "Kofi", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Rafael",
          "Saoirse", "Tariq", "Uma", "Vera", "Wilhelm", "Yara", "Anselm",
          "Bronwyn", "Cyrus", "Dagny", "Esme", "Florin", "Greta", "Hugo"]

GROUPS = [("Falconers", "Falconer"), ("Cartographers", "Cartographer"),
          ("Beekeepers", "Beekeeper"), ("Glassblowers", "Glassblower"),
          ("Astronomers", "Astronomer"), ("Archivists", "Archivist"),
          ("Blacksmiths", "Blacksmith"), ("Weavers", "Weaver"),
          ("Herbalists", "Herbalist"), ("Navigators", "Navigator"),
          ("Potters", "Potter"), ("Violinists", "Violinist"),
          ("Botanists", "Botanist"), ("Engravers", "Engraver"),
          ("Alchemists", "Alchemist"), ("Stonemasons", "Stonemason"),
          ("Clockmakers", "Clockmaker"), ("Scribes", "Scribe"),
          ("Rangers", "Ranger"), ("Gardeners", "Gardener"),
          ("Jugglers", "Juggler"), ("Fencers", "Fencer"),
          ("Archers", "Archer"), ("Illustrators", "Illustrator"),
          ("Oboists", "Oboist"), ("Rowers", "Rower"),
          ("Lighthouse Keepers", "Lighthouse Keeper"),
          ("Chess Players", "Chess Player"), ("Tanners", "Tanner"),
          ("Bookbinders", "Bookbinder"), ("Mountaineers", "Mountaineer"),
          ("Puppeteers", "Puppeteer"), ("Umpires", "Umpire"),
          ("Surveyors", "Surveyor"), ("Cellists", "Cellist"),
          ("Ornithologists", "Ornithologist")]

# counter name, plural unit, singular unit
COUNTERS = [("Granary", "sacks", "sack"), ("Cellar", "bottles", "bottle"),
            ("Vault", "coins", "coin"), ("Pantry", "jars", "jar"),
            ("Harbor", "boats", "boat"), ("Library", "books", "book"),
            ("Greenhouse", "seedlings", "seedling"),
            ("Warehouse", "crates", "crate"), ("Aquarium", "fish", "fish"),
            ("Bakery", "loaves", "loaf"), ("Stable", "horses", "horse"),
            ("Toolshed", "shovels", "shovel"), ("Armory", "shields", "shield"),
            ("Mailroom", "parcels", "parcel"), ("Garage", "cars", "car"),
            ("Hangar", "gliders", "glider"), ("Kennel", "dogs", "dog"),
            ("Depot", "barrels", "barrel"), ("Treasury", "gold bars", "gold bar"),
            ("Cupboard", "plates", "plate"), ("Locker", "towels", "towel"),
            ("Boathouse", "canoes", "canoe"), ("Icehouse", "blocks", "block"),
            ("Silo", "tons of wheat", "ton of wheat"),
            ("Piggy Bank", "coins", "coin"), ("Bookshop", "novels", "novel")]

LETTERS = list("abcdefghijkmnpqrstuvwxyz")
DOUBLES = ["aa", "kb", "xy", "pq", "mn", "zz", "rt", "uv", "gh", "bc",
           "st", "jk", "wx", "de", "fg", "lm"]

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven",
         "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
         "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def words(n):
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def art(noun):
    return ("an " if noun[0].lower() in "aeiou" else "a ") + noun


def cap(s):
    return s[0].upper() + s[1:]


def people(k):
    return rng.sample(PEOPLE, k)


def groups(k):
    return rng.sample(GROUPS, k)


def variables(k, doubles=False):
    if doubles:
        pool = LETTERS + DOUBLES
    else:
        pool = LETTERS
    return rng.sample(pool, k)


# ---------------------------------------------------------------- premise templates
# Each entry: (template, why).  Faithful ones also carry a style tag:
# p = plain/crisp, s = story/explanatory, f = formal/symbolic, t = terse.

LEFT_OF_OK = [
    ("{a} is to the left of {b}.", "plain", "p"),
    ("{b} is to the right of {a}.", "converse RIGHT form", "p"),
    ("{a} stands somewhere to the left of {b}.", "somewhere-left, verb stands", "s"),
    ("{a} sits left of {b}.", "terse sits left of", "t"),
    ("{b} sits somewhere to {a}'s right.", "converse with possessive", "s"),
    ("{a} is positioned to the left of {b}, though not necessarily right next to {b}.", "explanatory non-adjacency note", "s"),
    ("Somewhere to the right of {a} is {b}.", "inverted converse", "s"),
    ("To the left of {b} stands {a}.", "fronted locative", "s"),
    ("{a}'s spot in the row is further left than {b}'s.", "possessive comparative", "p"),
    ("{b} is farther to the right than {a}.", "comparative converse", "p"),
    ("{a} is left of {b}.", "terse copula", "t"),
    ("Reading the row from left to right, you reach {a} before {b}.", "reading-order paraphrase", "s"),
    ("{a} is placed to the left of {b}.", "passive placed", "p"),
    ("{b} has been placed to the right of {a}.", "passive converse", "p"),
    ("In the line, {a} is located somewhere to the left of {b}.", "scene prefix", "s"),
    ("{a} is somewhere on {b}'s left-hand side.", "left-hand side possessive", "p"),
    ("{b} is on the right-hand side of {a}.", "right-hand side converse", "p"),
    ("{a} occupies a position to the left of {b}'s.", "occupies a position", "p"),
    ("{a}'s position is to the left of {b}'s position.", "formal position noun", "f"),
    ("pos({a}) < pos({b}), where positions are numbered from the left.", "symbolic position inequality", "f"),
    ("{a} is further left in the lineup than {b} is.", "comparative lineup", "p"),
    ("{b} is found to the right of {a}.", "passive found converse", "p"),
    ("{a} lies to the left of {b}.", "verb lies", "p"),
    ("Of {a} and {b}, it is {a} who is further to the left.", "cleft comparison", "s"),
    ("{b}'s seat is to the right of {a}'s seat.", "seat possessive converse", "p"),
    ("{a} is seated to the left of {b}.", "seated passive", "p"),
    ("{b} is seated somewhere to the right of {a}.", "seated converse", "p"),
    ("Counting from the left end, {a} comes earlier than {b}.", "counting from left end", "f"),
    ("{a} appears to the left of {b} in the row.", "appears in row", "p"),
    ("{a} is to {b}'s left (not necessarily adjacent).", "parenthetical non-adjacency", "p"),
    ("{b} stands to the right of {a}, possibly with others in between.", "explanatory converse", "s"),
    ("We know that {a} is to the left of {b}.", "we-know framing", "p"),
    ("It is given that {b} is to the right of {a}.", "formal given converse", "f"),
    ("{a}: left of {b}.", "terse colon list", "t"),
    ("{a} has a place further left than {b}.", "has a place further left", "p"),
]

LEFT_OF_BAD = [
    ("{a} is to the right of {b}.", "reversed direction"),
    ("{b} is to the left of {a}.", "reversed (converse wording, wrong way)"),
    ("{a} is immediately to the left of {b}.", "adjacency 'immediately' added"),
    ("{a} is directly left of {b}.", "adjacency 'directly' added"),
    ("{a} sits right next to {b}, on the left side.", "adjacency claim added"),
    ("{a} might be to the left of {b}.", "hedged 'might'"),
    ("{a} is probably somewhere left of {b}.", "hedged 'probably'"),
    ("{a} is not to the left of {b}.", "negated"),
    ("{a} is two places to the left of {b}.", "extra distance claim"),
    ("{a} is to the left of {b}, at the far left end of the row.", "extra claim: leftmost"),
    ("{a} is next to {b}.", "direction lost, adjacency added"),
    ("{a} is either to the left or to the right of {b}.", "direction lost"),
    ("{a} is standing in front of {b}.", "different relation (front/behind)"),
    ("{b}'s position is further left than {a}'s.", "reversed possessive comparative"),
    ("{a} is just to the left of {b}.", "adjacency 'just'"),
    ("pos({a}) <= pos({b}), counting from the left.", "non-strict <= allows same spot"),
    ("{a} is left of {b} and left of everyone else too.", "extra claim about others"),
]

MEMBER_OK = [
    ("{e} is {a_s}.", "plain copula singular noun", "p"),
    ("{e} is one of the {S}.", "one of the group", "p"),
    ("{e} belongs to the {S}.", "belongs to", "p"),
    ("{e} is a member of the {S}.", "member of", "p"),
    ("Among the {S} is {e}.", "inverted among", "s"),
    ("{e} counts among the {S}.", "counts among", "p"),
    ("{e} is included in the {S}.", "passive included", "p"),
    ("The {S} include {e}.", "group as subject", "p"),
    ("{e} is part of the {S}.", "part of", "p"),
    ("{e} is in the set of {S}.", "set of", "f"),
    ("{e} ∈ {S}.", "symbolic ∈", "f"),
    ("One of the {S} is {e}.", "one-of as subject", "s"),
    ("{e} is known to be {a_s}.", "known to be", "p"),
    ("{e} happens to be {a_s}.", "story 'happens to be'", "s"),
    ("{e} is listed among the {S}.", "listed among", "p"),
    ("The {S} have {e} as a member.", "have as member", "p"),
    ("{e} holds membership in the {S}.", "holds membership", "f"),
    ("The membership of the {S} includes {e}.", "membership noun phrase", "f"),
    ("It is given that {e} is {a_s}.", "formal given", "f"),
    ("{e}, as it turns out, is {a_s}.", "story aside", "s"),
    ("{e} is among the {S}.", "among", "p"),
    ("{e} appears on the roster of the {S}.", "roster metaphor", "s"),
    ("{e} is an element of the set {S}.", "formal element of", "f"),
    ("{e} is classed as {a_s}.", "classed as", "p"),
    ("{e}: member of {S}.", "terse colon", "t"),
    ("The group of {S} contains {e}.", "contains", "p"),
    ("{e} numbers among the {S}.", "numbers among", "s"),
    ("We are told that {e} is {a_s}.", "we-are-told framing", "s"),
    ("{e} is enrolled with the {S}.", "enrolled with", "p"),
    ("{e} is counted as one of the {S}.", "passive counted as", "p"),
    ("{e} falls within the {S}.", "falls within", "f"),
    ("Everyone agrees on one thing: {e} is {a_s}.", "story framing", "s"),
]

MEMBER_BAD = [
    ("{e} is not {a_s}.", "negated"),
    ("{e} might be {a_s}.", "hedged 'might'"),
    ("{e} is probably one of the {S}.", "hedged 'probably'"),
    ("{e} used to be {a_s}.", "past tense, membership now unclear"),
    ("{e} wants to join the {S}.", "aspiration, not membership"),
    ("{e} is the only {s}.", "extra claim: only member"),
    ("{e} is the leader of the {S}.", "different relation / extra claim"),
    ("{e} is a friend of the {S}.", "different relation"),
    ("{e} left the {S} last year.", "negated by departure"),
    ("{e} is sometimes counted among the {S}.", "hedged 'sometimes'"),
    ("{e} is not among the {S}.", "negated 'not among'"),
    ("{e} ∉ {S}.", "symbol flipped to ∉"),
    ("{e} is either {a_s} or {a_t}.", "disjunction with another group"),
    ("{e} was turned away by the {S}.", "negated (rejected)"),
    ("Some say {e} is {a_s}.", "hedged hearsay"),
    ("{e} is one of the few {S} who are also {T}.", "extra claim about second group"),
    ("{e} is {a_s} and {a_t}.", "extra membership added"),
]

NOT_MEMBER_OK = [
    ("{e} is not {a_s}.", "plain negation", "p"),
    ("{e} isn't one of the {S}.", "contraction", "p"),
    ("{e} does not belong to the {S}.", "does not belong", "p"),
    ("{e} is not a member of the {S}.", "not a member", "p"),
    ("{e} is not among the {S}.", "not among", "p"),
    ("The {S} do not include {e}.", "group as subject", "p"),
    ("{e} ∉ {S}.", "symbolic ∉", "f"),
    ("None of the {S} is {e}.", "none-of subject", "s"),
    ("{e} is no {s}.", "'no' determiner", "p"),
    ("{e} falls outside the {S}.", "falls outside", "p"),
    ("{e} is excluded from the {S}.", "passive excluded", "p"),
    ("{e} does not count among the {S}.", "does not count among", "p"),
    ("It is not the case that {e} is {a_s}.", "formal negation", "f"),
    ("{e} is not part of the {S}.", "not part of", "p"),
    ("{e} holds no membership in the {S}.", "holds no membership", "f"),
    ("{e} is not an element of the set {S}.", "formal not element", "f"),
    ("The {S} have no member called {e}.", "no member called", "s"),
    ("{e} is certainly not {a_s}.", "emphatic negation", "p"),
    ("{e} is not listed among the {S}.", "not listed", "p"),
    ("{e} is not one of the {S}.", "not one of", "p"),
    ("{e} does not number among the {S}.", "does not number among", "s"),
    ("{e} is not in the group of {S}.", "not in group", "p"),
    ("Whatever else {e} may be, {e} is not {a_s}.", "story concessive", "s"),
    ("{e}: not a member of {S}.", "terse colon", "t"),
    ("We know that {e} is not {a_s}.", "we-know framing", "p"),
    ("{e} is no member of the {S}.", "no member of", "p"),
    ("The set {S} does not contain {e}.", "formal set contains", "f"),
    ("{e} lies outside the set of {S}.", "lies outside", "f"),
    ("Among the {S}, there is no {e}.", "inverted existential", "s"),
    ("{e} is not counted among the {S}.", "passive counted", "p"),
    ("{e} cannot be found anywhere among the {S}.", "cannot be found", "s"),
    ("{e} is not classed as {a_s}.", "not classed as", "p"),
]

NOT_MEMBER_BAD = [
    ("{e} is {a_s}.", "negation dropped"),
    ("{e} may not be {a_s}.", "hedged 'may not'"),
    ("{e} is probably not one of the {S}.", "hedged 'probably'"),
    ("It is unknown whether {e} is {a_s}.", "turned into unknown"),
    ("{e} is not yet {a_s}.", "'not yet' implies future membership"),
    ("{e} is no longer {a_s}.", "extra claim: was a member"),
    ("{e} is not the only {s}.", "implies membership"),
    ("{e} is not {a_s}, but is {a_t}.", "extra membership added"),
    ("The {S} do not know {e}.", "different relation"),
    ("{e} is not just {a_s}.", "implies membership"),
    ("{e} isn't necessarily {a_s}.", "hedged 'necessarily'"),
    ("{e} is hardly ever among the {S}.", "hedged frequency"),
    ("{e} ∈ {S}.", "symbol flipped to ∈"),
    ("{e} is not always {a_s}.", "hedged 'not always'"),
    ("{e} is not {a_s}, and neither is anyone else.", "extra claim: group empty"),
    ("{e} is not {a_s}, unlike everyone else here.", "extra claim about others"),
]

SUBSET_OK = [
    ("All {A} are {B}.", "classic All-are", "p"),
    ("Every {a1} is {a_b1}.", "every singular", "p"),
    ("Every {a1} is also {a_b1}.", "every ... also", "p"),
    ("The {A} are a subset of the {B}.", "subset wording", "f"),
    ("Anyone who is {a_a1} is {a_b1}.", "anyone who", "p"),
    ("If someone is {a_a1}, then they are {a_b1}.", "conditional", "f"),
    ("{A} ⊆ {B}.", "symbolic ⊆", "f"),
    ("Each of the {A} is one of the {B}.", "each of the", "p"),
    ("All members of the {A} are also members of the {B}.", "members of", "p"),
    ("Being {a_a1} means being {a_b1}.", "gerund implication", "s"),
    ("The {B} include all of the {A}.", "superset as subject", "p"),
    ("Whoever belongs to the {A} also belongs to the {B}.", "whoever belongs", "s"),
    ("No {a1} fails to be {a_b1}.", "double negation", "f"),
    ("The {A} are all {B}.", "floating quantifier", "p"),
    ("Every single one of the {A} is {a_b1}.", "emphatic every", "s"),
    ("The group of {A} is contained in the group of {B}.", "contained in", "f"),
    ("Membership in the {A} implies membership in the {B}.", "implies membership", "f"),
    ("There is no {a1} who is not {a_b1}.", "no-one-who-is-not", "f"),
    ("The set {A} is a subset of the set {B}.", "formal set subset", "f"),
    ("The {A} are, without exception, {B}.", "without exception", "s"),
    ("Any {a1} is {a_b1}.", "any", "p"),
    ("All of the {A} count as {B}.", "count as", "p"),
    ("Every {a1} belongs to the {B} as well.", "belongs as well", "p"),
    ("Each {a1} is automatically {a_b1}.", "automatically", "s"),
    ("{a_a1_cap} is always {a_b1}.", "generic 'a X is always'", "p"),
    ("The {B} contain every {a1}.", "superset contains", "p"),
    ("If you are one of the {A}, you are one of the {B}.", "second-person conditional", "s"),
    ("{A}: all are {B}.", "terse colon", "t"),
    ("Every member of the {A} is likewise a member of the {B}.", "likewise", "s"),
    ("Being among the {A} guarantees being among the {B}.", "guarantees", "s"),
    ("For every x, if x ∈ {A} then x ∈ {B}.", "first-order formula", "f"),
    ("Only {B} can be {A}.", "'only' with superset first", "f"),
    ("None of the {A} is outside the {B}.", "none outside", "p"),
]

SUBSET_BAD = [
    ("All {B} are {A}.", "reversed"),
    ("Every {b1} is {a_a1}.", "reversed every"),
    ("Some {A} are {B}.", "weakened to some"),
    ("Most {A} are {B}.", "weakened to most"),
    ("No {A} are {B}.", "negated"),
    ("The {A} and the {B} are exactly the same group.", "extra claim: equality"),
    ("Only {A} are {B}.", "'only' reversed direction"),
    ("Many {A} are also {B}.", "weakened to many"),
    ("{B} ⊆ {A}.", "reversed symbol"),
    ("All {A} are {B}, and all {B} are {A}.", "extra converse added"),
    ("Every {a1} may be {a_b1}.", "hedged 'may'"),
    ("Not all {A} are {B}.", "negated 'not all'"),
    ("The {A} are usually {B}.", "hedged 'usually'"),
    ("The {A} overlap with the {B}.", "weakened to overlap"),
    ("The {A} include all of the {B}.", "reversed include"),
    ("All {A} are {B}, but some {B} are not {A}.", "extra claim: strictness"),
]

INIT_OK = [
    ("The {C} starts with {n} {u}.", "plain starts with", "p"),
    ("At first, the {C} holds {n} {u}.", "at first holds", "p"),
    ("Initially, there {are} {n} {u} in the {C}.", "initially there are", "p"),
    ("The {C} begins the day with {n} {u}.", "story begins the day", "s"),
    ("{C} starts at {n}.", "terse unitless", "t"),
    ("In the beginning, the {C} contains exactly {n} {u}.", "exactly", "s"),
    ("To start, the {C} has {n} {u} in it.", "to start", "p"),
    ("The initial count for the {C} is {n}.", "initial count noun", "f"),
    ("{C} = {n} at the start.", "symbolic", "f"),
    ("Before anything else happens, the {C} holds {n} {u}.", "before anything happens", "s"),
    ("The {C} opens with {nw} {u}.", "number in words", "s"),
    ("There {are} {nw} {u} in the {C} to begin with.", "words, to begin with", "p"),
    ("Set the {C} to {n}.", "imperative set", "t"),
    ("The {C}'s starting total is {n} {u}.", "possessive starting total", "p"),
    ("Let the {C} start at {n}.", "formal let", "f"),
    ("When the story begins, the {C} contains {n} {u}.", "story frame", "s"),
    ("Initially, {C} = {n}.", "initially symbolic", "f"),
    ("{n} {u} {are} in the {C} at the outset.", "number-first outset", "p"),
    ("The {C} is stocked with {n} {u} at the start.", "passive stocked", "p"),
    ("Our {C} starts out holding {n} {u}.", "story 'our'", "s"),
    ("On Monday morning, the {C} has {n} {u}.", "time-stamped start", "s"),
    ("The {C} has {n} {u} to start with.", "to start with", "p"),
    ("Start: {C} has {n}.", "terse label", "t"),
    ("The count in the {C} is {n} at the beginning.", "count at beginning", "p"),
    ("At the outset, the {C} stores {n} {u}.", "stores", "p"),
    ("The {C} initially contains {n} {u}.", "initially contains", "p"),
    ("At the start there {are} exactly {n} {u} inside the {C}.", "exactly inside", "p"),
    ("Initially, the value of {C} is {n}.", "value of", "f"),
    ("The {C} begins holding {nw} {u}.", "words begins holding", "p"),
    ("{C} begins with a count of {n}.", "count of", "f"),
    ("At dawn, the {C} holds {n} {u}.", "story dawn", "s"),
    ("Let's say the {C} starts off with {n} {u}.", "conversational", "s"),
]
INIT_ZERO_OK = [
    ("The {C} starts out empty.", "zero as empty", "s"),
    ("Initially, there are no {U} in the {C}.", "zero as no items", "p"),
    ("The {C} begins with zero {U}.", "zero in words", "p"),
    ("{C} starts at 0.", "zero digit terse", "t"),
    ("At first the {C} holds no {U} at all.", "no ... at all", "s"),
    ("Initially, the {C} contains no items.", "literal 'no items'", "p"),
]

INIT_BAD = [
    ("The {C} starts with about {n} {u}.", "hedged 'about'"),
    ("The {C} starts with at least {n} {u}.", "hedged 'at least'"),
    ("The {C} starts with at most {n} {u}.", "hedged 'at most'"),
    ("The {C} starts with roughly {n} {u}.", "hedged 'roughly'"),
    ("The {C} starts with {n2} {u2}.", "wrong number"),
    ("The {C} ends with {n} {u}.", "final instead of initial"),
    ("{C} starts at ~{n}.", "tilde approximation"),
    ("{C} starts at -{n}.", "sign flipped"),
    ("{C} starts at {n}%.", "percent sign"),
    ("The {C} starts with {n} more {u} than the shed next door.", "relative, not absolute"),
    ("The {C} starts with {n} {u}, plus a few spares.", "extra vague amount"),
    ("{C} <= {n} at the start.", "<= inequality"),
    ("The {C} starts with over {n} {u}.", "hedged 'over'"),
    ("The {C} starts with nearly {n} {u}.", "hedged 'nearly'"),
    ("The {C} can hold {n} {u}.", "capacity, not content"),
    ("The {C} starts with {n} dozen {U}.", "multiplier 'dozen'"),
    ("The {C} starts out empty.", "wrong number (empty for nonzero)"),
]

INC_OK = [
    ("Then {n} more {u} {are} added to the {C}.", "then ... more added", "p"),
    ("{n} {u} {are} delivered to the {C}.", "passive delivered", "p"),
    ("The {C} gains {n} {u}.", "gains", "p"),
    ("Next, someone puts {n} {u} into the {C}.", "next someone puts", "s"),
    ("The {C} receives {n} additional {u}.", "receives additional", "p"),
    ("Add {n} to {C}.", "imperative add", "t"),
    ("{C} increases by {n}.", "increases by", "f"),
    ("{C} += {n}.", "code +=", "f"),
    ("After that, the {C} takes in another {n} {u}.", "after that another", "s"),
    ("A shipment of {n} {u} arrives at the {C}.", "shipment arrives", "s"),
    ("The {C}'s count goes up by {n}.", "possessive goes up", "p"),
    ("Later, {nw} {u} {are} added to the {C}.", "later, words", "s"),
    ("The {C} grows by {n} {u}.", "grows by", "p"),
    ("Increase the {C} by {n}.", "imperative increase", "t"),
    ("{n} extra {u} {are} placed in the {C}.", "extra placed", "p"),
    ("Someone drops off {n} {u} at the {C}.", "drops off", "s"),
    ("The number of {U} in the {C} rises by {n}.", "number rises", "f"),
    ("Following that, the {C} is topped up with {n} {u}.", "topped up with", "s"),
    ("The {C} then gets {n} more {u}.", "then gets more", "p"),
    ("+{n} {u} to the {C}.", "terse plus sign", "t"),
    ("Afterwards, {n} {u} {are} brought into the {C}.", "afterwards brought in", "s"),
    ("The {C} is restocked with {n} more {u}.", "restocked", "p"),
    ("Another {n} {u} {go} into the {C}.", "another go into", "p"),
    ("The total in the {C} increases by {n}.", "total increases", "f"),
    ("Later that day, {n} {u} {are} added to the {C}.", "later that day", "s"),
    ("The {C} is credited with {n} {u}.", "credited", "f"),
    ("{C} is incremented by {n}.", "incremented", "f"),
    ("The {C} picks up {n} more {u}.", "picks up", "p"),
    ("Then the {C}'s stock goes up by {nw}.", "words, stock goes up", "s"),
    ("{n} {u} {are} stored in the {C} on top of what is already there.", "explanatory on top of", "s"),
    ("Step: add {n} {u} to the {C}.", "terse step label", "t"),
    ("Someone donates {n} {u}, and they all go into the {C}.", "story donation", "s"),
]

INC_BAD = [
    ("Then the {C} holds {n} {u}.", "final-value claim"),
    ("{n} {u} {are} removed from the {C}.", "sign flipped (removal)"),
    ("The {C} gains about {n} {u}.", "hedged 'about'"),
    ("The {C} gains at least {n} {u}.", "hedged 'at least'"),
    ("{C} -= {n}.", "code sign flipped"),
    ("{C} = {n}.", "assignment, not increment"),
    ("The {C} gains {n}% more {u}.", "percent"),
    ("The {C}'s count doubles.", "wrong operation"),
    ("The {C} gains {n2} {u2}.", "wrong number"),
    ("The {C} may gain {n} {u}.", "hedged 'may'"),
    ("The {C} gains up to {n} {u}.", "hedged 'up to'"),
    ("The {C} is filled up to {n} {u}.", "final-value 'filled up to'"),
    ("{n} {u} {are} added to the {C}, and {n} {are} taken out again.", "extra removal"),
    ("The {C} gains {n} {u} every hour.", "repetition added"),
    ("The {C} gains {n} {u} twice.", "applied twice"),
    ("The {C} reaches {n} {u}.", "final-value 'reaches'"),
    ("The {C} gains roughly {n} {u}.", "hedged 'roughly'"),
]

DEC_OK = [
    ("Then {n} {u} {are} taken out of the {C}.", "then taken out", "p"),
    ("{n} {u} {are} removed from the {C}.", "passive removed", "p"),
    ("The {C} loses {n} {u}.", "loses", "p"),
    ("Subtract {n} from {C}.", "imperative subtract", "t"),
    ("{C} decreases by {n}.", "decreases by", "f"),
    ("{C} -= {n}.", "code -=", "f"),
    ("After that, {nw} {u} {are} sold from the {C}.", "after that, words, sold", "s"),
    ("Someone takes {n} {u} from the {C}.", "someone takes", "s"),
    ("The {C}'s count drops by {n}.", "possessive drops", "p"),
    ("The {C} gives up {n} {u}.", "gives up", "p"),
    ("{n} {u} {leave} the {C}.", "leave", "p"),
    ("Next, {n} {u} {are} carried away from the {C}.", "next carried away", "s"),
    ("The number of {U} in the {C} falls by {n}.", "number falls", "f"),
    ("Decrease the {C} by {n}.", "imperative decrease", "t"),
    ("A withdrawal of {n} {u} is made from the {C}.", "withdrawal noun", "f"),
    ("{n} {u} {are} shipped out of the {C}.", "shipped out", "p"),
    ("Later, the {C} hands over {n} of its {U}.", "hands over of its", "s"),
    ("The {C} goes down by {n}.", "goes down", "p"),
    ("-{n} {u} from the {C}.", "terse minus sign", "t"),
    ("Then the {C} is depleted by {n} {u}.", "depleted by", "p"),
    ("The total in the {C} is reduced by {n}.", "total reduced", "f"),
    ("{C} is decremented by {n}.", "decremented", "f"),
    ("Following that, {n} {u} {are} used up from the {C}.", "used up", "s"),
    ("Afterwards, {n} {u} {go} missing from the {C}.", "go missing", "s"),
    ("Later that evening, {n} {u} {are} pulled from the {C}.", "later that evening", "s"),
    ("The {C} parts with {n} {u}.", "parts with", "p"),
    ("{n} of the {U} in the {C} {are} given away.", "partitive given away", "p"),
    ("Step: remove {n} {u} from the {C}.", "terse step label", "t"),
    ("The {C}'s stock shrinks by {nw}.", "words, shrinks", "s"),
    ("After this, the {C} contains {n} fewer {u} than it did before.", "comparative fewer than before", "s"),
    ("The {C} sends out {n} {u}.", "sends out", "p"),
    ("Take {n} {u} out of the {C}.", "imperative take out", "t"),
]

DEC_BAD = [
    ("Then the {C} holds {n} {u}.", "final-value claim"),
    ("{n} {u} {are} added to the {C}.", "sign flipped (addition)"),
    ("The {C} loses about {n} {u}.", "hedged 'about'"),
    ("The {C} loses at most {n} {u}.", "hedged 'at most'"),
    ("{C} += {n}.", "code sign flipped"),
    ("{C} = -{n}.", "negative assignment"),
    ("The {C} loses {n}% of its {U}.", "percent"),
    ("The {C} is left with {n} {u}.", "final-value 'left with'"),
    ("The {C} loses {n2} {u2}.", "wrong number"),
    ("The {C} might lose {n} {u}.", "hedged 'might'"),
    ("The {C} loses all but {n} {u}.", "final-value 'all but'"),
    ("The {C} loses half of its {U}.", "wrong operation"),
    ("{n} {u} {are} taken out of the {C} and then put back.", "extra undo"),
    ("The {C} loses {n} {u} every day.", "repetition added"),
    ("The {C} is down to {n} {u}.", "final-value 'down to'"),
    ("The {C} loses nearly {n} {u}.", "hedged 'nearly'"),
    ("Everything in the {C} is taken out.", "wrong operation (emptied)"),
]

EQ_OK = [
    ("{x} = {y}.", "bare symbol", "t"),
    ("{x} equals {y}.", "equals", "p"),
    ("{x} is equal to {y}.", "is equal to", "p"),
    ("{x} and {y} are equal.", "coordinated equal", "p"),
    ("{x} has the same value as {y}.", "same value as", "p"),
    ("The value of {x} is identical to the value of {y}.", "value identical", "f"),
    ("{x} and {y} are the same.", "are the same", "p"),
    ("{y} equals {x}.", "symmetric order swapped", "p"),
    ("Variable {x} equals variable {y}.", "variable prefix", "f"),
    ("{x} is the same as {y}.", "same as", "p"),
    ("It holds that {x} = {y}.", "it holds that", "f"),
    ("{x} and {y} take the same value.", "take the same value", "p"),
    ("{x} == {y}.", "code ==", "t"),
    ("{x} is identical to {y}.", "identical to", "p"),
    ("We know that {x} = {y}.", "we-know symbol", "p"),
    ("{x} and {y} have equal values.", "equal values", "p"),
    ("The variables {x} and {y} are equal.", "the variables", "f"),
    ("{x} matches {y}.", "matches", "p"),
    ("{x} coincides with {y}.", "coincides", "f"),
    ("{x} has exactly the same value as {y}.", "exactly the same", "p"),
    ("{x} and {y} share a value.", "share a value", "s"),
    ("Given: {x} = {y}.", "given label", "f"),
    ("{x} is equal in value to {y}.", "equal in value", "p"),
    ("There is no difference between {x} and {y}.", "no difference", "s"),
    ("{x}'s value equals {y}'s.", "possessive", "p"),
    ("Whatever value {x} has, {y} has the same one.", "explanatory whatever", "s"),
    ("{x} = {y} holds.", "holds", "f"),
    ("{x}, {y}: equal.", "terse colon", "t"),
    ("Premise: {x} equals {y}.", "premise label", "f"),
    ("{x} and {y} are equal to each other.", "to each other", "p"),
    ("{x} is no different from {y}.", "litotes", "s"),
    ("{y} and {x} have the same value.", "symmetric swapped coordination", "p"),
]

EQ_BAD = [
    ("{x} != {y}.", "negated symbol"),
    ("{x} is not equal to {y}.", "negated"),
    ("{x} is approximately equal to {y}.", "hedged approximate"),
    ("{x} ≈ {y}.", "≈ symbol"),
    ("{x} <= {y}.", "<= inequality"),
    ("{x} is greater than {y}.", "order instead of equality"),
    ("{x} = {y} + 1.", "offset added"),
    ("{x} might equal {y}.", "hedged 'might'"),
    ("{x} is twice {y}.", "multiplier"),
    ("{x} and {y} are similar.", "weakened 'similar'"),
    ("{x} = -{y}.", "sign flipped"),
    ("{x} is close to {y}.", "hedged 'close to'"),
    ("{x} equals both {y} and {z}.", "extra equality"),
    ("{x} is equal to {y} in most cases.", "hedged 'most cases'"),
    ("{x} >= {y}.", ">= inequality"),
    ("{x} and {y} are probably equal.", "hedged 'probably'"),
]

NEQ_OK = [
    ("{x} != {y}.", "bare != symbol", "t"),
    ("{x} ≠ {y}.", "unicode ≠", "t"),
    ("{x} is not equal to {y}.", "is not equal to", "p"),
    ("{x} does not equal {y}.", "does not equal", "p"),
    ("{x} and {y} are different.", "are different", "p"),
    ("{x} and {y} are not equal.", "coordinated not equal", "p"),
    ("{x} differs from {y}.", "differs from", "p"),
    ("{x} has a different value from {y}.", "different value", "p"),
    ("The value of {x} is not the same as the value of {y}.", "value not same", "f"),
    ("{x} is distinct from {y}.", "distinct", "f"),
    ("{x} and {y} are unequal.", "unequal", "p"),
    ("{y} is not equal to {x}.", "symmetric order swapped", "p"),
    ("It is not the case that {x} = {y}.", "formal negation", "f"),
    ("{x} and {y} do not share a value.", "do not share", "s"),
    ("{x} is different from {y}.", "different from", "p"),
    ("{x} and {y} take different values.", "take different values", "p"),
    ("{x} <> {y}.", "SQL <>", "t"),
    ("{x} is unequal to {y}.", "unequal to", "p"),
    ("We know that {x} ≠ {y}.", "we-know symbol", "p"),
    ("{x} and {y} have different values.", "different values", "p"),
    ("The variables {x} and {y} differ.", "the variables differ", "f"),
    ("{x} cannot equal {y}.", "modal cannot", "s"),
    ("{x} is never equal to {y}.", "never equal", "s"),
    ("{x} does not have the same value as {y}.", "not same value", "p"),
    ("{x}, {y}: not equal.", "terse colon", "t"),
    ("Given: {x} != {y}.", "given label", "f"),
    ("{x} and {y} are not the same.", "not the same", "p"),
    ("{x} =/= {y}.", "ascii =/=", "t"),
    ("{x}'s value is different from {y}'s.", "possessive", "p"),
    ("Premise: {x} differs from {y}.", "premise label", "f"),
    ("Whatever {x} is, {y} is something else.", "explanatory whatever", "s"),
    ("{x} and {y} are two different values.", "two different values", "s"),
]

NEQ_BAD = [
    ("{x} = {y}.", "negation dropped (symbol)"),
    ("{x} is equal to {y}.", "negation dropped"),
    ("{x} may not equal {y}.", "hedged 'may not'"),
    ("{x} is not necessarily equal to {y}.", "hedged 'not necessarily'"),
    ("{x} < {y}.", "order claim added"),
    ("{x} is greater than {y}.", "order claim added"),
    ("{x} is equal to neither {y} nor {z}.", "extra inequality"),
    ("{x} differs from {y} by 1.", "extra numeric claim"),
    ("{x} and {y} are not very different.", "weakened"),
    ("It is unclear whether {x} equals {y}.", "turned into unknown"),
    ("{x} is not always equal to {y}.", "hedged 'not always'"),
    ("{x} and {y} are almost equal.", "hedged 'almost'"),
    ("{x} != {y} != {z}.", "extra chained inequality"),
    ("{x} >= {y}.", "non-strict order"),
    ("{x} is not equal to {y}, but it is equal to {z}.", "extra equality"),
    ("{x} and {y} might be different.", "hedged 'might'"),
]

# ---------------------------------------------------------------- question templates
# order: query RELATION(a, b), options LEFT_OF / RIGHT_OF / UNKNOWN
ORDER_LABELS = ["LEFT_OF", "RIGHT_OF", "UNKNOWN"]
ORDER_Q_OK = [
    ("Where is {a} relative to {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "crisp where-relative", "p"),
    ("Is {a} to the left of {b}, to the right of {b}, or can't this be determined? Respond with LEFT_OF, RIGHT_OF, or UNKNOWN.", "three-way question", "p"),
    ("Determine the position of {a} relative to {b}: LEFT_OF, RIGHT_OF, or UNKNOWN.", "imperative determine", "f"),
    ("What is the relation of {a} to {b}? Options: LEFT_OF, RIGHT_OF, UNKNOWN.", "relation with Options:", "f"),
    ("Relative to {b}, where does {a} stand? Reply LEFT_OF if {a} is to the left of {b}, RIGHT_OF if {a} is to the right of {b}, or UNKNOWN if the statements do not settle it.", "explained labels", "s"),
    ("Which of the following describes {a}'s position with respect to {b}? (A) LEFT_OF (B) RIGHT_OF (C) UNKNOWN", "lettered options", "p"),
    ("Query: RELATION({a}, {b}) ∈ {{LEFT_OF, RIGHT_OF, UNKNOWN}}.", "formal query", "f"),
    ("Can you tell whether {a} is left or right of {b}? Give LEFT_OF, RIGHT_OF, or UNKNOWN.", "conversational can-you-tell", "s"),
    ("Using only the information above, decide how {a} is placed relative to {b}. Answer with one of LEFT_OF, RIGHT_OF, UNKNOWN.", "using-only imperative", "s"),
    ("{a} vs. {b}: LEFT_OF, RIGHT_OF, or UNKNOWN?", "terse versus", "t"),
    ("In the row, is {a} on the left of {b} or on the right of {b}? If the clues don't tell you, say UNKNOWN. Use the labels LEFT_OF, RIGHT_OF, UNKNOWN.", "story clue wording", "s"),
    ("Determine whether {a} is to the left of {b} (LEFT_OF), to the right of {b} (RIGHT_OF), or whether this cannot be determined (UNKNOWN).", "parenthesised labels", "p"),
    ("How does {a}'s position compare with {b}'s? Respond with exactly one of: LEFT_OF / RIGHT_OF / UNKNOWN", "slash list", "p"),
    ("What can be concluded about where {a} is in relation to {b}? [LEFT_OF, RIGHT_OF, UNKNOWN]", "bracketed list", "p"),
    ("Figure out whether {a} stands LEFT_OF or RIGHT_OF {b}; if it cannot be deduced, answer UNKNOWN.", "labels inline as words", "s"),
    ("Given these facts, is {a} left of {b}, right of {b}, or is it unknown? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "given-these-facts", "p"),
    ("Complete the statement '{a} is ___ {b}' with LEFT_OF, RIGHT_OF, or UNKNOWN (if it cannot be determined).", "cloze form", "f"),
    ("Is {a} positioned to the left or to the right of {b}? Answer: LEFT_OF, RIGHT_OF, or UNKNOWN.", "left-or-right question", "p"),
    ("Your task: state where {a} is with respect to {b}. The allowed answers are LEFT_OF, RIGHT_OF and UNKNOWN.", "task framing", "s"),
    ("Relative position of {a} with respect to {b}? LEFT_OF | RIGHT_OF | UNKNOWN", "terse pipe list", "t"),
    ("Based solely on the statements above, which label describes where {a} is compared to {b}: LEFT_OF, RIGHT_OF, or UNKNOWN?", "which-label", "p"),
    ("Question: where does {a} stand relative to {b}? Choose from [LEFT_OF, RIGHT_OF, UNKNOWN].", "question label + choose from", "p"),
]
ORDER_Q_BAD = [
    ("Where is {b} relative to {a}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "reversed arguments"),
    ("Where is {a} relative to {c}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "wrong entity"),
    ("Is {a} to the left or right of {b}? Answer LEFT, RIGHT, or UNKNOWN.", "labels renamed"),
    ("Is {a} to the left of {b}? Answer LEFT_OF or RIGHT_OF.", "UNKNOWN label dropped"),
    ("Since {a} is clearly further left, is {a} LEFT_OF, RIGHT_OF, or UNKNOWN relative to {b}?", "answer hint"),
    ("Could {a} possibly be to the left of {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "asks about possibility"),
    ("Is {a} immediately to the left of {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "adjacency added to query"),
    ("Who is furthest to the left? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "different query (leftmost)"),
    ("How many people stand between {a} and {b}? Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "different query (count)"),
    ("Is {a} to the left of {b}? Answer YES, NO, or UNKNOWN.", "wrong label set"),
]

MEMBER_LABELS = ["YES", "NO", "UNKNOWN"]
MEMBER_Q_OK = [
    ("Is {e} {a_s}? Answer YES, NO, or UNKNOWN.", "crisp yes/no", "p"),
    ("Is {e} one of the {S}? Respond with YES, NO, or UNKNOWN.", "one-of question", "p"),
    ("Does {e} belong to the {S}? (YES / NO / UNKNOWN)", "slash list in parentheses", "p"),
    ("Determine whether {e} is a member of the {S}. Answer YES, NO, or UNKNOWN.", "imperative determine", "f"),
    ("Based on the statements above, is {e} among the {S}? Reply YES if it follows, NO if it is ruled out, or UNKNOWN if the statements don't settle it.", "explained labels", "s"),
    ("Question: {e} ∈ {S}? Options: YES, NO, UNKNOWN.", "symbolic query", "f"),
    ("Is it true that {e} is {a_s}? Choose one: YES, NO, UNKNOWN.", "is-it-true", "p"),
    ("Decide whether {e} counts among the {S}: YES, NO, or UNKNOWN.", "decide counts among", "p"),
    ("Is {e} a member of the {S}? Possible answers: YES | NO | UNKNOWN", "pipe list", "t"),
    ("Tell me whether {e} is {a_s}. Your answer must be YES, NO, or UNKNOWN.", "conversational must-be", "s"),
    ("Does the group of {S} include {e}? [YES, NO, UNKNOWN]", "group-as-subject bracketed", "p"),
    ("Using only these facts, is {e} {a_s}? Answer with exactly one of: YES, NO, UNKNOWN.", "using-only exactly one", "p"),
    ("So, is {e} among the {S}? Say YES, NO, or UNKNOWN.", "story 'so'", "s"),
    ("Is {e} included in the {S}? Respond YES, NO, or UNKNOWN.", "passive included", "p"),
    ("Determine if {e} belongs to the {S}. (A) YES (B) NO (C) UNKNOWN", "lettered options", "p"),
    ("What is {e}'s status with respect to the {S}: a member (YES), not a member (NO), or impossible to tell from the facts (UNKNOWN)?", "status explained", "s"),
    ("Query: MEMBER_OF({e}, {S}). Answer YES, NO, or UNKNOWN.", "formal predicate query", "f"),
    ("Given all of the above, is {e} one of the {S}? Answer YES, NO, or UNKNOWN.", "given all of the above", "p"),
    ("Is {e} part of the {S}? Respond with one of: YES / NO / UNKNOWN", "slash list", "p"),
    ("Does {e} count as {a_s}? Answer YES, NO or UNKNOWN.", "counts as, no Oxford comma", "p"),
    ("{e} among the {S}? YES / NO / UNKNOWN", "terse fragment", "t"),
    ("From the premises alone, can {e} be placed among the {S}? Answer YES (a member), NO (not a member), or UNKNOWN.", "premises alone, labelled", "s"),
]
MEMBER_Q_BAD = [
    ("Is {e} {a_t}? Answer YES, NO, or UNKNOWN.", "wrong set"),
    ("Is {f} {a_s}? Answer YES, NO, or UNKNOWN.", "wrong entity"),
    ("Is {e} not {a_s}? Answer YES, NO, or UNKNOWN.", "negated query"),
    ("Could {e} be {a_s}? Answer YES, NO, or UNKNOWN.", "asks about possibility"),
    ("Is {e} {a_s}? Answer TRUE, FALSE, or UNKNOWN.", "labels renamed"),
    ("Is {e} {a_s}? Answer YES or NO.", "UNKNOWN dropped"),
    ("We already know {e} is {a_s}, right? Answer YES, NO, or UNKNOWN.", "answer hint"),
    ("Are all {S} also {T}? Answer YES, NO, or UNKNOWN.", "different query (subset)"),
    ("Which group does {e} belong to? Answer YES, NO, or UNKNOWN.", "open question"),
    ("Is {e} the only {s}? Answer YES, NO, or UNKNOWN.", "different query (uniqueness)"),
]

SEQ_Q_OK = [
    ("How many {U} are in the {C} at the end? Answer {o1}, {o2}, or {o3}.", "crisp how-many", "p"),
    ("What is the final value of {C}? Options: {o1}, {o2}, {o3}.", "final value Options:", "f"),
    ("After all of these changes, how many {U} does the {C} hold? Choose from: {o1} / {o2} / {o3}.", "after-all slash list", "p"),
    ("Determine the number of {U} in the {C} once every step has been carried out. (A) {o1} (B) {o2} (C) {o3}", "lettered options", "p"),
    ("What is the {C}'s final count? [{o1}, {o2}, {o3}]", "bracketed list", "p"),
    ("When everything is done, what does the {C} contain? Respond with one of {o1}, {o2}, or {o3}.", "when-everything-is-done", "s"),
    ("Compute the final value of {C}. Answer with exactly one of: {o1}, {o2}, {o3}.", "compute imperative", "f"),
    ("How many {U} end up in the {C}? Possible answers: {o1} | {o2} | {o3}", "pipe list", "t"),
    ("At the end of the day, how many {U} are in the {C}? Pick {o1}, {o2}, or {o3}.", "story end of day", "s"),
    ("What is the {C}'s total after the last update? Reply with {o1}, {o2}, or {o3}.", "after last update", "p"),
    ("Final value of {C}? {o1} / {o2} / {o3}", "terse", "t"),
    ("Once all of the changes above are finished, how many {U} remain in the {C}? The answer is one of {o1}, {o2} and {o3}.", "explanatory remain", "s"),
    ("Find the final number of {U} in the {C}. Options: (A) {o1}, (B) {o2}, (C) {o3}.", "find imperative lettered", "p"),
    ("Query: FINAL_VALUE({C}) ∈ {{{o1}, {o2}, {o3}}}.", "formal set notation", "f"),
    ("How many {U} does the {C} have after the final step? Choose {o1}, {o2}, or {o3}.", "after final step", "p"),
    ("So how many {U} are in the {C} now that everything has happened: {o1}, {o2}, or {o3}?", "conversational now", "s"),
    ("By the end, what number of {U} is in the {C}? Answer: {o1}, {o2}, or {o3}.", "by the end", "p"),
    ("What's the final count for the {C}? Select one: {o1}, {o2}, {o3}.", "contraction select one", "p"),
    ("Work out how many {U} the {C} holds after everything above has happened. Respond with {o1}, {o2}, or {o3}.", "work-out imperative", "s"),
    ("Ultimately, how many {U} are left in the {C}? ({o1}, {o2}, or {o3})", "ultimately parenthesised", "p"),
    ("In the end, what is the value of {C}? Answer with one of the following: {o1}, {o2}, {o3}.", "value of, following list", "f"),
    ("Final count in the {C}: {o1}, {o2}, or {o3}?", "terse noun phrase", "t"),
]
SEQ_Q_BAD = [
    ("How many {U} are in the {C} after the second step? Answer {o1}, {o2}, or {o3}.", "intermediate value"),
    ("How many {U} were in the {C} at the start? Answer {o1}, {o2}, or {o3}.", "asks initial value"),
    ("How many {U} are in the {C} at the end? Answer {p1}, {p2}, or {p3}.", "options shifted/renamed"),
    ("How many {U} are in the {C} at the end? Answer {o1} or {o2}.", "option dropped"),
    ("The {C} should end up with {ans} {U}; is that {o1}, {o2}, or {o3}?", "answer hint"),
    ("How many {U} were added to the {C} in total? Answer {o1}, {o2}, or {o3}.", "different quantity (sum of additions)"),
    ("How many {U} are in the {D} at the end? Answer {o1}, {o2}, or {o3}.", "wrong counter"),
    ("Could the {C} end with more than {o1} {U}? Answer {o1}, {o2}, or {o3}.", "asks about possibility"),
    ("Roughly how many {U} are in the {C} at the end? Answer {o1}, {o2}, or {o3}.", "approximate query"),
]

EQ_Q_OK = [
    ("Which of the following conclusions necessarily follows? A. {o1} B. {o2} C. {o3} D. {o4}", "logicmark-style lettered", "p"),
    ("Then\nA. {o1}\nB. {o2}\nC. {o3}\nD. {o4}", "card format 'Then' list", "t"),
    ("Which statement is entailed by the premises? Options: {o1}; {o2}; {o3}; {o4}.", "entailed semicolon list", "f"),
    ("Select the one conclusion that must be true: (A) {o1} (B) {o2} (C) {o3} (D) {o4}", "must-be-true lettered", "p"),
    ("Which of these must hold? [{o1}, {o2}, {o3}, {o4}]", "bracketed list", "p"),
    ("Given the premises above, which one of the following is guaranteed? 1) {o1} 2) {o2} 3) {o3} 4) {o4}", "numbered options", "p"),
    ("Determine which of the following statements logically follows from the premises: {o1}, {o2}, {o3}, or {o4}.", "determine inline list", "f"),
    ("Exactly one of these conclusions can be derived from the premises. Which is it? (A) {o1} (B) {o2} (C) {o3} (D) {o4}", "explanatory exactly-one", "s"),
    ("Which conclusion is forced by the statements above?\n(a) {o1}\n(b) {o2}\n(c) {o3}\n(d) {o4}", "forced, lowercase letters", "p"),
    ("Therefore, which of the following is necessarily true? A) {o1} B) {o2} C) {o3} D) {o4}", "therefore", "p"),
    ("What follows? Choose one: {o1} / {o2} / {o3} / {o4}", "terse slash list", "t"),
    ("Using only the equalities and inequalities listed, identify the statement that must be true. Options: A. {o1}; B. {o2}; C. {o3}; D. {o4}.", "using-only identify", "s"),
    ("Which of the following can be deduced with certainty? (A) {o1} (B) {o2} (C) {o3} (D) {o4}", "deduced with certainty", "p"),
    ("Pick the conclusion that is logically entailed: {o1} | {o2} | {o3} | {o4}", "pipe list", "t"),
    ("Based on these premises, which one of the options below definitely holds?\nA. {o1}\nB. {o2}\nC. {o3}\nD. {o4}", "definitely holds multiline", "p"),
    ("Which of the four statements below is a valid consequence of the premises? A: {o1}, B: {o2}, C: {o3}, D: {o4}.", "valid consequence", "f"),
    ("Conclusion? A. {o1}  B. {o2}  C. {o3}  D. {o4}", "terse conclusion", "t"),
    ("From the premises, it necessarily follows that: (A) {o1}, (B) {o2}, (C) {o3}, or (D) {o4}. Which one?", "it necessarily follows that", "f"),
    ("Reasoning only from the statements given, which option must be correct? Options: {o1}; {o2}; {o3}; {o4}", "reasoning only", "s"),
    ("Choose the statement that has to be true if all the premises hold: A) {o1}  B) {o2}  C) {o3}  D) {o4}", "has-to-be-true", "s"),
    ("Which one of the following is implied by the premises? • {o1} • {o2} • {o3} • {o4}", "bulleted inline", "p"),
    ("Identify the entailed conclusion among: {o1}, {o2}, {o3}, {o4}.", "identify among", "f"),
]
EQ_Q_BAD = [
    ("Which of the following could be true? A. {o1} B. {o2} C. {o3} D. {o4}", "asks possibility"),
    ("Which of the following is false? A. {o1} B. {o2} C. {o3} D. {o4}", "asks for a false statement"),
    ("Which of the following necessarily follows? A. {o1} B. {o2} C. {o3}", "option dropped"),
    ("Which of the following necessarily follows? A. {o1} B. {o2} C. {o3} D. {bad}", "option altered"),
    ("Hint: look closely at {hint}. Which of the following necessarily follows? A. {o1} B. {o2} C. {o3} D. {o4}", "answer hint"),
    ("Which of the following follow? Select all that apply: A. {o1} B. {o2} C. {o3} D. {o4}", "select-all instead of exactly one"),
    ("Is it true that {o1}? Answer YES, NO, or UNKNOWN.", "different query (single statement)"),
    ("Which of the following is most likely? A. {o1} B. {o2} C. {o3} D. {o4}", "asks likelihood"),
    ("Which of the following necessarily follows? A. {o1} B. {o2} C. {o3} D. {o4} (Answer: {hint})", "answer given away"),
]


# ---------------------------------------------------------------- filling helpers
def counter():
    return rng.choice(COUNTERS)


def unit(cn, n):
    return cn[2] if n == 1 else cn[1]


def agree(n):
    one = (n == 1)
    return {"are": "is" if one else "are", "go": "goes" if one else "go",
            "leave": "leaves" if one else "leave"}


def other_number(n):
    while True:
        m = n + rng.choice([-3, -2, -1, 1, 2, 3, 5])
        if m >= 0 and m != n:
            return m


def fill(t, d):
    return t.format_map(d)


def order_vals():
    a, b, c = people(3)
    return [a, b], dict(a=a, b=b, c=c)


def member_vals():
    e, f = people(2)
    (S, s), (T, t) = groups(2)
    return [e, S], dict(e=e, f=f, S=S, s=s, T=T, t=t, a_s=art(s), a_t=art(t))


def subset_vals():
    (A, a1), (B, b1) = groups(2)
    return [A, B], dict(A=A, B=B, a1=a1, b1=b1, a_a1=art(a1), a_b1=art(b1),
                        a_a1_cap=cap(art(a1)))


def count_vals(n):
    cn = counter()
    n2 = other_number(n)
    return [cn[0], n], dict(C=cn[0], U=cn[1], n=n, nw=words(n), u=unit(cn, n),
                            n2=n2, u2=unit(cn, n2), **agree(n))


def eq_vals():
    x, y, z = variables(3, doubles=rng.random() < 0.3)
    return [x, y], dict(x=x, y=y, z=z)


def premise_rows():
    rows = []

    def add(family, pred, ok, bad, vals):
        for tpl in ok:
            args, d = vals(True, tpl[0])
            rows.append(dict(family=family, predicate=pred, args=args,
                             text=fill(tpl[0], d), faithful=True, why=tpl[1]))
        for tpl in bad:
            args, d = vals(False, tpl[0])
            rows.append(dict(family=family, predicate=pred, args=args,
                             text=fill(tpl[0], d), faithful=False, why=tpl[1]))

    add("transitive_order", "LEFT_OF", LEFT_OF_OK, LEFT_OF_BAD,
        lambda ok, t: order_vals())
    add("membership_inheritance", "MEMBER_OF", MEMBER_OK, MEMBER_BAD,
        lambda ok, t: member_vals())
    add("membership_inheritance", "NOT_MEMBER_OF", NOT_MEMBER_OK,
        NOT_MEMBER_BAD, lambda ok, t: member_vals())
    add("membership_inheritance", "SUBSET_OF", SUBSET_OK, SUBSET_BAD,
        lambda ok, t: subset_vals())

    def init_n(ok, t):
        if "empty" in t and not ok:
            return count_vals(rng.randint(3, 30))
        return count_vals(rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                      14, 15, 17, 18, 20, 23, 25, 30, 36]))
    add("sequential_state_update", "INITIAL_VALUE", INIT_OK, INIT_BAD, init_n)
    add("sequential_state_update", "INITIAL_VALUE", INIT_ZERO_OK, [],
        lambda ok, t: count_vals(0))

    def upd_n(ok, t):
        if "{nw}" in t:
            return count_vals(rng.randint(2, 12))
        return count_vals(rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15]))
    add("sequential_state_update", "INCREMENT", INC_OK, INC_BAD, upd_n)
    add("sequential_state_update", "DECREMENT", DEC_OK, DEC_BAD, upd_n)
    add("equality", "EQUAL", EQ_OK, EQ_BAD, lambda ok, t: eq_vals())
    add("equality", "NOT_EQUAL", NEQ_OK, NEQ_BAD, lambda ok, t: eq_vals())
    return rows


# ---------------------------------------------------------------- instance generators
def eq_instance(max_facts=8):
    while True:
        k = rng.randint(4, 7)
        vs = variables(k, doubles=rng.random() < 0.25)
        ncomp = rng.choice([2, 2, 3])
        comp_of = {}
        order = vs[:]
        rng.shuffle(order)
        for i, v in enumerate(order):
            comp_of[v] = i if i < ncomp else rng.randrange(ncomp)
        comps = [[v for v in vs if comp_of[v] == c] for c in range(ncomp)]
        facts = []
        eq_edges = set()
        for comp in comps:
            for i in range(1, len(comp)):
                u = comp[i]
                w = rng.choice(comp[:i])
                pair = (w, u) if rng.random() < 0.5 else (u, w)
                facts.append(("EQUAL", pair))
                eq_edges.add(frozenset(pair))
        comp_pairs = [(a, b) for a in range(ncomp) for b in range(a + 1, ncomp)]
        rng.shuffle(comp_pairs)
        nneq = rng.randint(1, min(2, len(comp_pairs)))
        neq_comp = set()
        neq_edges = set()
        for a, b in comp_pairs[:nneq]:
            u = rng.choice(comps[a])
            w = rng.choice(comps[b])
            pair = (u, w) if rng.random() < 0.5 else (w, u)
            facts.append(("NOT_EQUAL", pair))
            neq_comp.add(frozenset((a, b)))
            neq_edges.add(frozenset(pair))
        if not (2 <= len(facts) <= max_facts):
            continue
        if {v for _, pr in facts for v in pr} != set(vs):
            continue  # every variable must occur in some premise

        def entailed(op, u, w):
            if op == "=":
                return comp_of[u] == comp_of[w]
            return frozenset((comp_of[u], comp_of[w])) in neq_comp

        cands_eq = [(u, w) for u in vs for w in vs if u < w and comp_of[u] == comp_of[w]
                    and frozenset((u, w)) not in eq_edges]
        cands_neq = [(u, w) for u in vs for w in vs if u < w
                     and frozenset((comp_of[u], comp_of[w])) in neq_comp
                     and frozenset((u, w)) not in neq_edges]
        want = rng.choice(["=", "!="])
        pool = cands_eq if want == "=" else cands_neq
        if not pool:
            continue
        u, w = rng.choice(pool)
        if rng.random() < 0.5:
            u, w = w, u
        correct = "%s %s %s" % (u, want, w)
        flipped = "%s %s %s" % (u, "!=" if want == "=" else "=", w)
        opts = [correct, flipped]
        seen = {frozenset((u, w))}
        tries = 0
        while len(opts) < 4 and tries < 200:
            tries += 1
            p, q = rng.sample(vs, 2)
            if frozenset((p, q)) in seen:
                continue
            op = rng.choice(["=", "!="])
            if entailed(op, p, q):
                continue
            seen.add(frozenset((p, q)))
            opts.append("%s %s %s" % (p, op, q))
        if len(opts) < 4:
            continue
        rng.shuffle(opts)
        rng.shuffle(facts)
        return ([{"predicate": p, "args": list(a)} for p, a in facts],
                opts, correct, vs)


def seq_instance(k=None):
    cn = counter()
    n0 = rng.choice([0, 0] + list(range(1, 31)))
    if k is None:
        k = rng.randint(1, 7)
    facts = [{"predicate": "INITIAL_VALUE", "args": [cn[0], n0]}]
    cur = n0
    for _ in range(k):
        amt = rng.randint(1, 12)
        op = rng.choice(["INCREMENT", "DECREMENT"])
        if op == "DECREMENT" and cur - amt < 0:
            op = "INCREMENT"
        cur = cur + amt if op == "INCREMENT" else cur - amt
        facts.append({"predicate": op, "args": [cn[0], amt]})
    ans = cur
    opts = [0, 1, 2] if ans == 0 else [ans - 1, ans, ans + 1]
    if rng.random() < 0.3:
        rng.shuffle(opts)
    return cn, facts, [str(o) for o in opts], ans


def opt_dict(opts):
    return {"o%d" % (i + 1): o for i, o in enumerate(opts)}


# ---------------------------------------------------------------- questions
def question_rows():
    rows = []
    for ok, lst in ((True, ORDER_Q_OK), (False, ORDER_Q_BAD)):
        for tpl in lst:
            a, b, c = people(3)
            rows.append(dict(family="transitive_order",
                             query={"predicate": "RELATION", "args": [a, b]},
                             options=list(ORDER_LABELS),
                             text=fill(tpl[0], dict(a=a, b=b, c=c)),
                             faithful=ok, why=tpl[1]))
    for ok, lst in ((True, MEMBER_Q_OK), (False, MEMBER_Q_BAD)):
        for tpl in lst:
            args, d = member_vals()
            rows.append(dict(family="membership_inheritance",
                             query={"predicate": "MEMBER_OF", "args": args},
                             options=list(MEMBER_LABELS),
                             text=fill(tpl[0], d), faithful=ok, why=tpl[1]))
    for ok, lst in ((True, SEQ_Q_OK), (False, SEQ_Q_BAD)):
        for tpl in lst:
            cn, facts, opts, ans = seq_instance()
            other = rng.choice([c for c in COUNTERS if c[0] != cn[0]])
            d = dict(C=cn[0], U=cn[1], D=other[0], ans=ans, **opt_dict(opts))
            d.update({"p%d" % (i + 1): str(int(o) + 1) for i, o in enumerate(opts)})
            rows.append(dict(family="sequential_state_update",
                             query={"predicate": "FINAL_VALUE", "args": [cn[0]]},
                             options=opts, text=fill(tpl[0], d),
                             faithful=ok, why=tpl[1]))
    for ok, lst in ((True, EQ_Q_OK), (False, EQ_Q_BAD)):
        for tpl in lst:
            facts, opts, correct, vs = eq_instance()
            d = opt_dict(opts)
            d["hint"] = correct
            wrong_idx = 3
            o = opts[wrong_idx]
            d["bad"] = o.replace("!=", "=") if "!=" in o else o.replace("=", "!=")
            rows.append(dict(family="equality",
                             query={"predicate": "ENTAILED", "args": []},
                             options=opts, text=fill(tpl[0], d),
                             faithful=ok, why=tpl[1]))
    return rows


# ---------------------------------------------------------------- renders
VOICES = {
    "gpt4o": ("GPT-4o-like crisp", {"p"}, 0.4),
    "claude": ("Claude-like explanatory", {"p", "s"}, 0.6),
    "story": ("story voice", {"s", "p"}, 0.85),
    "formal": ("formal/mathematical voice", {"f"}, 0.0),
    "terse": ("terse list voice", {"t", "f"}, 0.0),
    "llama": ("Llama-3-like chatty", {"p", "s"}, 0.6),
    "gemini": ("Gemini-like structured", {"p", "f"}, 0.3),
}
VOICE_ORDER = ["gpt4o", "claude", "story", "formal", "terse", "llama", "gemini"]

INTROS = {
    "transitive_order": {
        "gpt4o": ["", "Several people are standing in a single row.",
                  "Consider the following arrangement of people in a line."],
        "claude": ["Here is a small puzzle about where some people are standing in a row. Use only the statements below and don't assume anything beyond them.",
                   "Some friends have lined up from left to right. Note that when one person is said to be to the left of another, they are not necessarily next to each other."],
        "story": ["At the harbor festival, a group of friends lined up along the pier to watch the boats come in.",
                  "The class photo was being arranged on the school steps, with everyone in one long row.",
                  "On a quiet Sunday morning, some neighbours queued in a single line at the bakery window."],
        "formal": ["Let the following individuals occupy distinct positions along a horizontal line.",
                   "Assume a strict left-to-right ordering of the individuals named below."],
        "terse": ["", "Row puzzle."],
        "llama": ["Let's solve a fun logic puzzle! A group of people are standing in a line, and we have some clues about their positions.",
                  "In this puzzle, you'll be given some information about the positions of people standing in a row."],
        "gemini": ["**Setup:** Some people are standing in a row.", "**The Lineup**"],
    },
    "membership_inheritance": {
        "gpt4o": ["", "Consider the following statements about some people and the groups they belong to."],
        "claude": ["The following puzzle is about membership in a few groups. Treat each statement as strictly true, and rely on nothing outside of them.",
                   "Below are some statements about who belongs to which group, and how the groups relate to one another."],
        "story": ["In the old city of Marrowgate, every craftsperson belongs to one guild or another, and the guilds have their own rules about who counts as what.",
                  "The annual gathering of the societies was about to begin, and the registrar was checking her lists."],
        "formal": ["Let the capitalised plural nouns below denote sets of individuals.",
                   "Consider the following sets and elements."],
        "terse": ["", "Sets and members."],
        "llama": ["Let's think about groups of people! Here are some facts about who belongs to which group."],
        "gemini": ["**Context:** The statements below describe people and the groups they are part of."],
    },
    "sequential_state_update": {
        "gpt4o": ["", "Track the contents of the {C} through the following steps."],
        "claude": ["This puzzle follows the number of {U} in the {C} over the course of a day. The events happen in the order listed, and each one changes the count.",
                   "Keep a running tally of the {U} in the {C}; the changes below are given in the order they happen."],
        "story": ["It was a busy day at the {C}.",
                  "Old Marta kept careful records of everything that came in and out of the {C}."],
        "formal": ["Let {C} denote a non-negative integer counter. The following operations are applied in the order given."],
        "terse": ["", "Counter: {C}."],
        "llama": ["Let's keep track of some {U}! Read each step carefully and in order."],
        "gemini": ["**Scenario:** The {C} changes over time as described below, step by step."],
    },
    "equality": {
        "gpt4o": ["", "Each letter below represents a value."],
        "claude": ["In this problem, each lowercase letter stands for some value. You are told which letters are equal and which are not; use only these statements."],
        "story": ["A cryptographer jotted down a few relationships between secret values, each labelled with a letter."],
        "formal": ["Let the following variables range over an arbitrary domain.", "If:"],
        "terse": ["If:", ""],
        "llama": ["Let's solve a logic problem with variables! Here are the premises."],
        "gemini": ["**Premises** (each letter names a value):"],
    },
}

OK_POOL = {"LEFT_OF": LEFT_OF_OK, "MEMBER_OF": MEMBER_OK,
           "NOT_MEMBER_OF": NOT_MEMBER_OK, "SUBSET_OF": SUBSET_OK,
           "INITIAL_VALUE": INIT_OK, "INCREMENT": INC_OK, "DECREMENT": DEC_OK,
           "EQUAL": EQ_OK, "NOT_EQUAL": NEQ_OK}
BAD_POOL = {"LEFT_OF": LEFT_OF_BAD, "MEMBER_OF": MEMBER_BAD,
            "NOT_MEMBER_OF": NOT_MEMBER_BAD, "SUBSET_OF": SUBSET_BAD,
            "INITIAL_VALUE": INIT_BAD, "INCREMENT": INC_BAD, "DECREMENT": DEC_BAD,
            "EQUAL": EQ_BAD, "NOT_EQUAL": NEQ_BAD}
Q_OK = {"transitive_order": ORDER_Q_OK, "membership_inheritance": MEMBER_Q_OK,
        "sequential_state_update": SEQ_Q_OK, "equality": EQ_Q_OK}
Q_BAD = {"transitive_order": ORDER_Q_BAD, "membership_inheritance": MEMBER_Q_BAD,
         "sequential_state_update": SEQ_Q_BAD, "equality": EQ_Q_BAD}

OPENERS = ["Then", "After that", "Next", "Later", "Later that day",
           "Afterwards", "Soon after", "Following that", "Shortly afterwards",
           "In the afternoon", "After a while"]
HAS_OPENER = ("Then", "Next", "After", "Later", "Afterwards", "Following")

GROUP_SING = dict(GROUPS)
COUNTER_INFO = {c[0]: c for c in COUNTERS}


def styled(pool, styles):
    got = [t for t in pool if t[2] in styles]
    if len(got) < 4:
        got += [t for t in pool if t[2] == "p"]
    return got


def fact_dict(pred, args, extra=None):
    """Placeholder values for one fact."""
    d = {}
    if pred == "LEFT_OF":
        d = dict(a=args[0], b=args[1])
    elif pred in ("MEMBER_OF", "NOT_MEMBER_OF"):
        s = GROUP_SING[args[1]]
        d = dict(e=args[0], S=args[1], s=s, a_s=art(s))
    elif pred == "SUBSET_OF":
        a1, b1 = GROUP_SING[args[0]], GROUP_SING[args[1]]
        d = dict(A=args[0], B=args[1], a1=a1, b1=b1, a_a1=art(a1),
                 a_b1=art(b1), a_a1_cap=cap(art(a1)))
    elif pred in ("INITIAL_VALUE", "INCREMENT", "DECREMENT"):
        cn = COUNTER_INFO[args[0]]
        n = args[1]
        n2 = other_number(n)
        d = dict(C=cn[0], U=cn[1], n=n, nw=words(n), u=unit(cn, n), n2=n2,
                 u2=unit(cn, n2), **agree(n))
    elif pred in ("EQUAL", "NOT_EQUAL"):
        d = dict(x=args[0], y=args[1])
    if extra:
        d.update(extra)
    return d


def with_opener(text, tpl, prob, last):
    if rng.random() >= prob or tpl.startswith(HAS_OPENER) or " then " in tpl:
        return text
    if not (tpl.startswith(("The ", "Someone", "Another", "A ", "{n}"))):
        return text
    op = "Finally" if last and rng.random() < 0.5 else rng.choice(OPENERS)
    first = text[0].lower() + text[1:] if not text[0].isdigit() else text
    sep = " " if op == "Then" else ", "
    return op + sep + first


def render_premises(facts, voice, extra=None):
    styles = VOICES[voice][1]
    consistent = rng.random() < 0.35
    chosen = {}
    used = set()
    out = []
    for i, f in enumerate(facts):
        pred = f["predicate"]
        pool = OK_POOL[pred]
        if pred == "INITIAL_VALUE" and f["args"][1] == 0:
            pool = INIT_ZERO_OK
        cands = styled(pool, styles)
        if consistent and pred in chosen:
            tpl = chosen[pred]
        else:
            fresh = [t for t in cands if t[0] not in used] or cands
            tpl = rng.choice(fresh)
            chosen[pred] = tpl
            used.add(tpl[0])
        text = fill(tpl[0], fact_dict(pred, f["args"], extra))
        if pred in ("INCREMENT", "DECREMENT"):
            text = with_opener(text, tpl[0], VOICES[voice][2], i == len(facts) - 1)
        out.append(text)
    return out, consistent


def query_dict(family, query, options, ctx):
    if family == "transitive_order":
        d = dict(a=query["args"][0], b=query["args"][1], c=ctx["spare_person"])
    elif family == "membership_inheritance":
        s = GROUP_SING[query["args"][1]]
        t = GROUP_SING[ctx["spare_group"]]
        d = dict(e=query["args"][0], S=query["args"][1], s=s, a_s=art(s),
                 f=ctx["spare_person"], T=ctx["spare_group"], t=t, a_t=art(t))
    elif family == "sequential_state_update":
        cn = COUNTER_INFO[query["args"][0]]
        d = dict(C=cn[0], U=cn[1], D=ctx["spare_counter"], ans=ctx["ans"])
        d.update(opt_dict(options))
        d.update({"p%d" % (i + 1): str(int(o) + 1) for i, o in enumerate(options)})
    else:
        d = opt_dict(options)
        d["hint"] = ctx["correct"]
        o = options[3]
        d["bad"] = o.replace("!=", "=") if "!=" in o else o.replace("=", "!=")
    return d


def make_order():
    k = rng.randint(2, 7)
    ps = people(k + 2)
    chain, spare = ps[:k + 1], ps[k + 1]
    facts = [{"predicate": "LEFT_OF", "args": [chain[i], chain[i + 1]]} for i in range(k)]
    rng.shuffle(facts)
    if rng.random() < 0.15:
        q = [chain[-1], chain[0]]
    else:
        q = [chain[0], chain[-1]]
    query = {"predicate": "RELATION", "args": q}
    ctx = dict(spare_person=spare, chain=chain)
    return facts, query, list(ORDER_LABELS), ctx


def make_member():
    kind = rng.choice(["chain"] * 6 + ["chain_neg", "neg_query", "unknown"])
    e, spare = people(2)
    while True:
        k = rng.randint(2, 7)
        gs = [g[0] for g in groups(k + 3)]
        chain, x, y, sparegroup = gs[:k], gs[k], gs[k + 1], gs[k + 2]
        facts = [{"predicate": "MEMBER_OF", "args": [e, chain[0]]}]
        facts += [{"predicate": "SUBSET_OF", "args": [chain[i], chain[i + 1]]}
                  for i in range(k - 1)]
        query = {"predicate": "MEMBER_OF", "args": [e, chain[-1]]}
        if kind == "chain_neg":
            facts.append({"predicate": "NOT_MEMBER_OF", "args": [e, x]})
        elif kind == "neg_query":
            facts.append({"predicate": "NOT_MEMBER_OF", "args": [e, x]})
            facts.append({"predicate": "SUBSET_OF", "args": [y, x]})
            query = {"predicate": "MEMBER_OF", "args": [e, y]}
        elif kind == "unknown":
            facts.append({"predicate": "SUBSET_OF", "args": [y, chain[-1]]})
            query = {"predicate": "MEMBER_OF", "args": [e, y]}
        if 2 <= len(facts) <= 8:
            break
    rng.shuffle(facts)
    ctx = dict(spare_person=spare, spare_group=sparegroup, kind=kind,
               last=chain[-1])
    return facts, query, list(MEMBER_LABELS), ctx


def make_seq():
    cn, facts, opts, ans = seq_instance(k=rng.randint(1, 7))
    other = rng.choice([c for c in COUNTERS if c[0] != cn[0]])
    query = {"predicate": "FINAL_VALUE", "args": [cn[0]]}
    ctx = dict(spare_counter=other[0], ans=ans, cn=cn)
    return facts, query, opts, ctx


def make_eq():
    facts, opts, correct, vs = eq_instance()
    spare = [v for v in LETTERS if v not in vs][0]
    query = {"predicate": "ENTAILED", "args": []}
    ctx = dict(correct=correct, vars=vs, spare_var=spare)
    return facts, query, opts, ctx


MAKERS = {"transitive_order": make_order,
          "membership_inheritance": make_member,
          "sequential_state_update": make_seq,
          "equality": make_eq}


def intro_for(family, voice, facts):
    t = rng.choice(INTROS[family][voice])
    if family == "sequential_state_update":
        cn = COUNTER_INFO[facts[0]["args"][0]]
        t = t.format(C=cn[0], U=cn[1])
    return t


def leak_intro(family, facts, query, ctx):
    if family == "transitive_order":
        a, b = query["args"]
        return rng.choice([
            "Exactly %s people are standing in a row." % words(len(ctx["chain"])),
            "In this lineup, %s ends up on the left-hand side of %s, as you will see." % (
                ctx["chain"][0], ctx["chain"][-1])]), "intro leaks a count / the answer"
    if family == "membership_inheritance":
        e, S = query["args"]
        s = GROUP_SING[S]
        return "Spoiler: by the end, it will be clear that %s is %s." % (e, art(s)), "intro leaks the answer"
    if family == "sequential_state_update":
        cn = COUNTER_INFO[facts[0]["args"][0]]
        return "By the end of the day the %s will hold %d %s." % (
            cn[0], ctx["ans"], unit(cn, ctx["ans"])), "intro leaks the final value"
    return "Hint: the key conclusion is %s." % ctx["correct"], "intro leaks the entailed option"


def extra_premise(family, facts, ctx):
    if family == "transitive_order":
        return "%s is also to the left of %s." % (ctx["chain"][0], ctx["spare_person"])
    if family == "membership_inheritance":
        e = [f for f in facts if f["predicate"] == "MEMBER_OF"][0]["args"][0]
        s = GROUP_SING[ctx["spare_group"]]
        return "%s is also %s." % (e, art(s))
    if family == "equality":
        return "%s = %s." % (ctx["vars"][0], ctx["spare_var"])
    cn = ctx["cn"]
    return "Then 3 more %s are added to the %s." % (cn[1], cn[0])


def render_rows():
    rows = []
    for family in ["transitive_order", "membership_inheritance",
                   "sequential_state_update", "equality"]:
        # faithful renders: 28 per family, voices round-robin
        for i in range(35):
            voice = VOICE_ORDER[i % len(VOICE_ORDER)]
            facts, query, options, ctx = MAKERS[family]()
            intro = intro_for(family, voice, facts)
            prem, consistent = render_premises(facts, voice)
            qtpl = rng.choice(styled(Q_OK[family], VOICES[voice][1]))
            question = fill(qtpl[0], query_dict(family, query, options, ctx))
            why = "%s; %s premises; question: %s" % (
                VOICES[voice][0], "uniform" if consistent else "varied", qtpl[1])
            if family == "membership_inheritance" and ctx["kind"] != "chain":
                why += "; variant " + ctx["kind"]
            rows.append(dict(family=family, facts=facts, query=query,
                             options=options, intro=intro, premises=prem,
                             question=question, faithful=True, why=why))
        # defective renders: exactly one defect each
        defects = ["bad_premise"] * 5 + ["bad_question"] * 2 + ["intro_leak"]
        if family == "sequential_state_update":
            defects += ["swapped_order", "dropped_premise"]
        else:
            defects += ["dropped_premise", "extra_premise"]
        for j, kind in enumerate(defects):
            voice = VOICE_ORDER[(j + 3) % len(VOICE_ORDER)]
            while True:
                facts, query, options, ctx = MAKERS[family]()
                if kind == "swapped_order":
                    ups = [i for i in range(1, len(facts) - 1)
                           if facts[i] != facts[i + 1]]
                    if not ups:
                        continue
                if kind == "dropped_premise" and len(facts) < 3:
                    continue
                break
            intro = intro_for(family, voice, facts)
            prem, consistent = render_premises(facts, voice)
            qtpl = rng.choice(styled(Q_OK[family], VOICES[voice][1]))
            question = fill(qtpl[0], query_dict(family, query, options, ctx))
            if kind == "bad_premise":
                i = rng.randrange(len(facts))
                f = facts[i]
                bad = rng.choice(BAD_POOL[f["predicate"]])
                extra = {}
                if f["predicate"] in ("MEMBER_OF", "NOT_MEMBER_OF"):
                    t = GROUP_SING[ctx["spare_group"]]
                    extra = dict(T=ctx["spare_group"], t=t, a_t=art(t))
                if f["predicate"] in ("EQUAL", "NOT_EQUAL"):
                    extra = dict(z=ctx["spare_var"])
                prem[i] = fill(bad[0], fact_dict(f["predicate"], f["args"], extra))
                defect = "premise %d wrong: %s" % (i + 1, bad[1])
            elif kind == "bad_question":
                bq = rng.choice(Q_BAD[family])
                question = fill(bq[0], query_dict(family, query, options, ctx))
                defect = "question wrong: " + bq[1]
            elif kind == "intro_leak":
                intro, defect = leak_intro(family, facts, query, ctx)
            elif kind == "dropped_premise":
                i = rng.randrange(len(facts))
                del prem[i]
                defect = "premise for fact %d dropped" % (i + 1)
            elif kind == "extra_premise":
                i = rng.randrange(len(prem) + 1)
                prem.insert(i, extra_premise(family, facts, ctx))
                defect = "extra premise inserted (fact not in skeleton)"
            elif kind == "swapped_order":
                i = rng.choice([i for i in range(1, len(facts) - 1)
                                if facts[i] != facts[i + 1]])
                prem[i], prem[i + 1] = prem[i + 1], prem[i]
                defect = "updates %d and %d rendered in swapped order" % (i + 1, i + 2)
            rows.append(dict(family=family, facts=facts, query=query,
                             options=options, intro=intro, premises=prem,
                             question=question, faithful=False,
                             why="%s; DEFECT: %s" % (VOICES[voice][0], defect)))
    return rows


def dump(name, rows):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    dump("premises.jsonl", premise_rows())
    dump("questions.jsonl", question_rows())
    dump("renders.jsonl", render_rows())


if __name__ == "__main__":
    main()
