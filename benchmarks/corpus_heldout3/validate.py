#!/usr/bin/env python3
"""Shape, count and consistency checks for the corpus3 files."""
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILY_OF = {"LEFT_OF": "transitive_order", "MEMBER_OF": "membership_inheritance",
             "NOT_MEMBER_OF": "membership_inheritance",
             "SUBSET_OF": "membership_inheritance",
             "INITIAL_VALUE": "sequential_state_update",
             "INCREMENT": "sequential_state_update",
             "DECREMENT": "sequential_state_update",
             "EQUAL": "equality", "NOT_EQUAL": "equality"}
QUERY_PRED = {"transitive_order": "RELATION", "membership_inheritance": "MEMBER_OF",
              "sequential_state_update": "FINAL_VALUE", "equality": "ENTAILED"}
FIXED_OPTIONS = {"transitive_order": ["LEFT_OF", "RIGHT_OF", "UNKNOWN"],
                 "membership_inheritance": ["YES", "NO", "UNKNOWN"]}
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
         "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
         "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
errors = []


def err(msg):
    errors.append(msg)


def load(name, keys):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            r = json.loads(line)   # own parser: the corpus's files, not a run's logs
            if list(r.keys()) != keys:
                err("%s:%d keys %s" % (name, i, list(r.keys())))
            rows.append(r)
    return rows


def check_args(pred, args, where):
    if pred in ("LEFT_OF", "MEMBER_OF", "NOT_MEMBER_OF", "SUBSET_OF", "EQUAL", "NOT_EQUAL"):
        ok = len(args) == 2 and all(isinstance(a, str) for a in args) and args[0] != args[1]
    elif pred == "INITIAL_VALUE":
        ok = (len(args) == 2 and isinstance(args[0], str) and type(args[1]) is int
              and args[1] >= 0)
    elif pred in ("INCREMENT", "DECREMENT"):
        ok = (len(args) == 2 and isinstance(args[0], str) and type(args[1]) is int
              and args[1] >= 1)
    else:
        ok = False
    if not ok:
        err("%s: bad args %s %s" % (where, pred, args))


def mentions_number(text, n):
    if re.search(r"(?<![\d.])%d(?![\d])" % n, text):
        return True
    if n < len(WORDS) and re.search(r"\b%s\b" % WORDS[n], text, re.I):
        return True
    if n == 0 and re.search(r"\bno\b|\bempty\b", text):
        return True
    return False


def has_name(text, name):
    """Name present; a plural group noun may appear in its singular form."""
    forms = [name] + ([name[:-1]] if name.endswith("s") else [])
    return any(re.search(r"(?<![A-Za-z])%s(?![A-Za-z])" % re.escape(f), text)
               for f in forms)


# ------------------------------------------------------------ premises
prem = load("premises.jsonl", ["family", "predicate", "args", "text", "faithful", "why"])
cnt = defaultdict(Counter)
texts = defaultdict(set)
for i, r in enumerate(prem, 1):
    where = "premises:%d" % i
    if FAMILY_OF.get(r["predicate"]) != r["family"]:
        err(where + " family/predicate mismatch")
    check_args(r["predicate"], r["args"], where)
    if not isinstance(r["faithful"], bool) or not r["why"] or not r["text"].strip():
        err(where + " faithful/why/text")
    cnt[r["predicate"]][r["faithful"]] += 1
    texts[(r["predicate"], r["faithful"])].add(r["text"])
    if r["faithful"]:
        a0, a1 = r["args"]
        if not has_name(r["text"], a0):
            err(where + " first arg missing from text: " + r["text"])
        if isinstance(a1, int):
            if not mentions_number(r["text"], a1):
                err(where + " number missing: " + r["text"])
        else:
            if not has_name(r["text"], a1):
                err(where + " second arg missing: " + r["text"])
for pred in FAMILY_OF:
    if cnt[pred][True] < 30 or cnt[pred][False] < 15:
        err("premises: %s counts %s" % (pred, dict(cnt[pred])))
    if len(texts[(pred, True)]) != cnt[pred][True]:
        err("premises: %s duplicate faithful texts" % pred)

# ------------------------------------------------------------ questions
ques = load("questions.jsonl", ["family", "query", "options", "text", "faithful", "why"])
qcnt = defaultdict(Counter)
for i, r in enumerate(ques, 1):
    where = "questions:%d" % i
    fam = r["family"]
    qcnt[fam][r["faithful"]] += 1
    if r["query"].get("predicate") != QUERY_PRED.get(fam):
        err(where + " query predicate")
    if fam in FIXED_OPTIONS and r["options"] != FIXED_OPTIONS[fam]:
        err(where + " options")
    if fam == "sequential_state_update":
        o = sorted(int(x) for x in r["options"])
        if len(o) != 3 or o[1] - o[0] != 1 or o[2] - o[1] != 1:
            err(where + " seq options not adjacent")
    if fam == "equality" and len(r["options"]) != 4:
        err(where + " eq options")
    if r["faithful"]:
        for o in r["options"]:
            if o not in r["text"]:
                err(where + " option %s missing" % o)
        for a in r["query"]["args"]:
            if not has_name(r["text"], a):
                err(where + " query arg %s missing" % a)
for fam in QUERY_PRED:
    if qcnt[fam][True] < 20 or qcnt[fam][False] < 8:
        err("questions: %s counts %s" % (fam, dict(qcnt[fam])))


# ------------------------------------------------------------ renders
def components(facts):
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x
    for f in facts:
        for a in f["args"]:
            find(a)
        if f["predicate"] == "EQUAL":
            parent[find(f["args"][0])] = find(f["args"][1])
    return find


def eq_entailed(stmt, facts, find):
    m = re.fullmatch(r"(\w+) (!=|=) (\w+)", stmt)
    if not m:
        return None
    u, op, w = m.groups()
    if op == "=":
        return find(u) == find(w)
    ne = {frozenset((find(f["args"][0]), find(f["args"][1])))
          for f in facts if f["predicate"] == "NOT_EQUAL"}
    return frozenset((find(u), find(w))) in ne


rend = load("renders.jsonl", ["family", "facts", "query", "options", "intro",
                              "premises", "question", "faithful", "why"])
rcnt = defaultdict(Counter)
for i, r in enumerate(rend, 1):
    where = "renders:%d" % i
    fam = r["family"]
    rcnt[fam][r["faithful"]] += 1
    facts = r["facts"]
    if not 2 <= len(facts) <= 8:
        err(where + " fact count")
    for f in facts:
        if list(f.keys()) != ["predicate", "args"] or FAMILY_OF.get(f["predicate"]) != fam:
            err(where + " fact shape")
        check_args(f["predicate"], f["args"], where)
    if r["query"].get("predicate") != QUERY_PRED[fam]:
        err(where + " query predicate")
    if fam in FIXED_OPTIONS and r["options"] != FIXED_OPTIONS[fam]:
        err(where + " options")
    # consistency of the skeleton itself
    if fam == "transitive_order":
        edges = defaultdict(set)
        for f in facts:
            edges[f["args"][0]].add(f["args"][1])
        seen, stack = set(), set()

        def dfs(v):
            if v in stack:
                return True
            if v in seen:
                return False
            seen.add(v)
            stack.add(v)
            cyc = any(dfs(w) for w in edges[v])
            stack.discard(v)
            return cyc
        if any(dfs(v) for v in list(edges)):
            err(where + " cyclic order")
    elif fam == "sequential_state_update":
        if facts[0]["predicate"] != "INITIAL_VALUE" or any(
                f["predicate"] == "INITIAL_VALUE" for f in facts[1:]):
            err(where + " initial value placement")
        cur = facts[0]["args"][1]
        for f in facts[1:]:
            cur += f["args"][1] if f["predicate"] == "INCREMENT" else -f["args"][1]
            if cur < 0:
                err(where + " negative state")
        if str(cur) not in r["options"] or len(set(r["options"])) != 3:
            err(where + " answer not among options")
        o = sorted(int(x) for x in r["options"])
        if o[2] - o[0] != 2:
            err(where + " options not adjacent")
        if r["query"]["args"] != [facts[0]["args"][0]]:
            err(where + " query counter")
    elif fam == "membership_inheritance":
        members = {(f["args"][0], f["args"][1]) for f in facts if f["predicate"] == "MEMBER_OF"}
        subs = [(f["args"][0], f["args"][1]) for f in facts if f["predicate"] == "SUBSET_OF"]
        changed = True
        while changed:
            changed = False
            for (e, s) in list(members):
                for (a, b) in subs:
                    if a == s and (e, b) not in members:
                        members.add((e, b))
                        changed = True
        for f in facts:
            if f["predicate"] == "NOT_MEMBER_OF" and tuple(f["args"]) in members:
                err(where + " membership contradiction")
    elif fam == "equality":
        find = components(facts)
        for f in facts:
            if f["predicate"] == "NOT_EQUAL" and find(f["args"][0]) == find(f["args"][1]):
                err(where + " equality contradiction")
        fvars = {a for f in facts for a in f["args"]}
        for o in r["options"]:
            m = re.fullmatch(r"(\w+) (!=|=) (\w+)", o)
            if not m or m.group(1) not in fvars or m.group(3) not in fvars:
                err(where + " option %r not over premise variables" % o)
        ent = [o for o in r["options"] if eq_entailed(o, facts, find)]
        if len(r["options"]) != 4 or len(ent) != 1:
            err(where + " equality options: %s entailed" % ent)
    if r["faithful"]:
        if len(r["premises"]) != len(facts):
            err(where + " premise count != fact count")
        if re.search(r"\d", r["intro"]):
            err(where + " digit in intro")
        for o in r["options"]:
            if o not in r["question"]:
                err(where + " option %s missing from question" % o)
        for f, p in zip(facts, r["premises"]):
            for a in f["args"]:
                if isinstance(a, str) and not has_name(p, a):
                    err(where + " premise lacks %s: %s" % (a, p))
            if isinstance(f["args"][1], int) and not mentions_number(p, f["args"][1]):
                err(where + " premise lacks number: " + p)
for fam in QUERY_PRED:
    if rcnt[fam][True] < 25 or rcnt[fam][False] < 8:
        err("renders: %s counts %s" % (fam, dict(rcnt[fam])))

print("premises:", {p: dict(c) for p, c in cnt.items()})
print("questions:", {f: dict(c) for f, c in qcnt.items()})
print("renders:", {f: dict(c) for f, c in rcnt.items()})
if errors:
    print("%d problems" % len(errors))
    for e in errors[:60]:
        print("  " + e)
    sys.exit(1)
print("OK")
