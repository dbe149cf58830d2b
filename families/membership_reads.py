"""membership_inheritance's reading-only phrasings (never written, never in a pattern): the parts its reads are
composed of, the more forms a strong model writes, and each category slot named through its members or as a set."""
from __future__ import annotations

import re

from families.phrases import expand

# Read, never written. Articles before names are read away (families/wording.py `normalize`) and a category is
# read in the singular too ("every Gardener", "a Baker"), so these hold each form once.
_IN_R = "(a member of|one of|among|in|part of|a part of|counted among|included in|included among|listed among|" \
        "within|inside|contained in|on the roll of|on the list of|on the roster of|in the ranks of|among the ranks of|" \
        "in the group of|part of the group of|part of the group known as|in the group known as|a card carrying member of|" \
        "a full member of|a registered member of|an official member of|enrolled in|enrolled among|registered with|" \
        "registered among|one among|the group of|the ranks of|members of|one of|an element of|an element in|counted in|" \
        "listed in|found in|listed on|named on|on)"
_IN_O = "[" + _IN_R[1:-1] + "]"   # the same words, optional
_IS_IN_R = "(is|belongs to|counts as|counts among|is counted as|is listed as|is numbered among|ranks among|happens to be|" \
           "turns out to be|is known to be|belongs among|numbers among|is found among|is found in|holds membership in|" \
           "has membership in|has a place among|has a place in|is enrolled in|is registered with|serves among|has joined|" \
           "is now|is now one of|has become|has become one of|" + \
           "|".join(expand("holds|bears|carries|has", "the", "rank|title", "of")) + ")"
_ISNT_IN_R = "(is not|is never|is no|does not belong to|does not belong in|does not belong among|" \
             "does not count as|is not counted as|cannot be counted among|cannot be counted as|does not number among|" \
             "is not found among|is not found in|is not numbered among|does not rank among|does not hold membership in|" \
             "has no place among|has no place in|holds no membership in|has no membership in|is not listed as|" \
             "is not enrolled in|never belongs to|is never counted among|does not appear among|does not " \
             "appear in|does not feature among|does not figure among|is not to be found among|falls outside|lies outside|" \
             "stands outside|remains outside|stays outside|is nowhere among|is not seen among|" + \
             "|".join(expand("does not|never", "hold|bear|carry|have", "the", "rank|title", "of")) + ")"
_EVERY = "(every|each|any|every single|each and every|every last)"
_ALL_R = "(all|all of|every one of|each of|each one of|every member of|each member of|all members of|all the members of|" \
         "every element of|each element of|all elements of|all the elements of|everyone on|everybody on|anyone on|" \
         "every single one of|all of the members of|the whole of)"
_WHO = "(anyone who|whoever|everyone who|anybody who|each person who|every person who|someone who|a person who|" \
       "anyone that|everyone that|everybody who|all who|all those who|those who)"
# (and a token's holders: "All who have Saffron clearance also have Topaz clearance")
_ARE_ALSO = "(is|are|must be|must also be|is also|are also|is then|is therefore|is necessarily|is automatically|" \
            "is likewise|counts as|also counts as|also belongs to|belongs to|belong to|also belong to|are then|are likewise|" \
            "count as|also count as|are counted in|is counted in|is counted among|are counted among|" \
            "has|have|also has|also have|holds|hold|also holds|also hold|" + \
            "|".join(expand("is|are", "~|also", "classified|classed|catalogued|cataloged|filed|listed|registered|"
                            "recorded|reckoned|counted", "as")) + "|" + \
            "|".join(expand("~|also", "hold|holds|bear|bears|carry|carries|has|have", "the", "rank|title", "of")) + ")"
# A category named through its members or as a set ("Among the members of the Fenner League is Lior", "The roster of the
# Glimmerhaus includes Neve", "the set of Falconers", "The group of Beekeepers is contained in the group of Potters"):
# every reading phrasing takes each category slot so named.
_GROUP = "[the members of|members of|the ranks of|the roster of|the membership of|membership of|the set of|the group of|" \
         "the set|the group|the list of|the roll of|the class of|the category of]"
# A category's name as a noun's modifier ("every Chess Club member", "all Orl Guild members are Nask Guild members", "the
# Cobalt Order's members"): the members of that category, after each category slot.
_MEMBERS = "[member|members|'s members|'s membership|membership]"
_SITS = "(sits|falls|lies|stands|remains|stays|is)"
_SEEN = "(appears|figures|features|shows up|turns up|is seen|is named|is listed|is found)"
_CLASSED = "(classed|classified|registered|enrolled|counted|listed|numbered|recorded|reckoned)"


def _grouped(phrasings: tuple[str, ...], slots: str) -> tuple[str, ...]:
    """The phrasings with each category slot (of `slots`) that may be named through its members or as a set."""
    def wrap(m: re.Match[str]) -> str:
        before = m.string[:m.start()].rstrip()
        group = re.search(r"[(\[]([^()\[\]]*)[)\]]$", before)
        if group and any(o.split()[-1:] in (["a"], ["an"], ["the"], ["given"]) for o in group.group(1).split("|")):
            return m.group(0)   # "(a|an|any given) {0}": the article before a name, read away, stays next to it
        return f"{_GROUP} {m.group(0)} {_MEMBERS}"
    return tuple(re.sub(r"\{[%s]\}" % slots, wrap, p) for p in phrasings)


# More reading-only phrasings: locative verbs ("Neve sits within the Kettlemark"), being seen on a list ("Kofi appears on
# the roster of the Jugglers"), being classed, terse notation ("Rafael: member of Rowers", "Samir ∈ Rangers",
# "MEMBER_OF(a, B)"), a list without the name ("The Quessa Order has no member named Dov"), a double negation ("No
# Engraver fails to be a Clockmaker"), a superset's "only" ("Only Beekeepers can be Falconers").
_MEMBER_MORE = (
    "(one|a) member of {1} is {0}", f"{{0}} {_SITS} (within|inside|among|amid) {{1}}", f"{{0}} {_SEEN} {_IN_R} {{1}}",
    f"{{0}} is {_CLASSED} (as|with|among|in) {{1}}", "{0} (member of|a member of|one of) {1}", "{0} ∈ {1}",
    "member_of {0} {1}")
_NOT_MEMBER_MORE = (
    "{0} (does not|never) (sit|fall|lie|stand|remain|stay) (within|inside|among|in) {1}",
    "{0} (does not|never) (appear|figure|feature|show up|turn up) " + _IN_R + " {1}",
    "{1} (has|have) no (member|one|person|members) (named|called|by the name of) {0}",
    "(among|in|within) {1} there is no {0}", "there is no {0} (among|in|within) {1}",
    "{0} (cannot|can not) be found [anywhere] (among|in|within|on) {1}",
    "{0} is nowhere to be found (among|in|within|on) {1}", f"{{0}} is not {_CLASSED} (as|with|among|in) {{1}}",
    "{0} (not a member of|not one of|not in|not among|not part of) {1}", "{0} ∉ {1}", "not_member_of {0} {1}")
_SUBSET_MORE = (
    "{1} (includes|include|contains|contain|covers|cover|takes in|take in|encompasses|encompass) (everyone|everybody|"
    "anyone|anybody|all those|each person|every person|all who|all people|whoever) [who is|who are|that is|who belongs "
    "to|who belong to] " + _IN_O + " {0}",
    "[the whole|all of|all] {0} (lies|lie|sits|sit|falls|fall|is|are) [entirely|wholly|completely|fully] (inside|within) {1}",
    "{0} (forms|form|constitutes|constitute|makes up|make up) [a] part of {1}",
    "{0} (is|are) [wholly|entirely|completely|fully] (part of|a part of|contained in|included in|a subset of) {1}",
    "(no|not a single|not one) {0} (fails|fail) to be " + _IN_O + " {1}",
    "(none of|not one of|no one in|no one among|nobody in|nobody among|no member of|no one of|no single one of) {0} "
    "(is|are|lies|falls|stands) (outside|not in|not among|not one of|not a member of|not part of) {1}",
    "if you (are|belong to) " + _IN_O + " {0} [then] you (are|belong to|must be|are also) " + _IN_O + " {1}",
    "only {1} (are|can be) {0}", "{0} ⊆ {1}", "subset_of {0} {1}",
    # "Membership in Umberglen always comes with membership in Wickhaven"
    "(membership in|belonging to|being in|being a member of|being one of) {0} [always|automatically|necessarily] "
    "(comes with|brings|brings with it|implies|entails|guarantees|means) (membership in|belonging to|being in|"
    "being a member of|being one of) {1}",
    # whatever a category holds, named as "anything in it" ("Anything in Box K is also in Box S")
    "(anything|anyone|anybody|everything|everyone|everybody|whatever|whoever|any item|any member|any person|any thing) "
    "[is|that is|who is|which is|that belongs to|who belongs to|that lies] (in|inside|within|among|belonging to) {0} "
    "(is|belongs to|lies|sits|must be|is then|is therefore|is necessarily|is automatically|is likewise) "
    "(in|inside|within|among|a member of|one of|part of) {1}",
    # (a noun of the story's own, "each student in Elm House", is a kind noun: families/kind_nouns.py reads it away)
    "(each|every|any) (member|person|one|item|thing|element|individual) (in|of|inside|within|among) {0} "
    "(is|belongs to|must be) "
    "(in|inside|within|among|a member of|one of|part of|a) {1}",
    "{0} (are|is) (all|every one|each) [of them] {1}",
    "(for every|for each|for all|for any) x [if] x ∈ {0} [then] x ∈ {1}")


def _all_reads(reads: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Every reading-only phrasing, the more forms above added, each category slot also named through its members."""
    return {"MEMBER_OF": _grouped(reads["MEMBER_OF"] + _MEMBER_MORE, "1"),
            "NOT_MEMBER_OF": _grouped(reads["NOT_MEMBER_OF"] + _NOT_MEMBER_MORE, "1"),
            "SUBSET_OF": _grouped(reads["SUBSET_OF"] + _SUBSET_MORE, "01")}
