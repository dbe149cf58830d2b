"""Rows written by the session of issue 42 (the forms GPT-4o and Claude write), appended to benchmarks/corpus."""
import json
import sys

P = [
 ("transitive_order","LEFT_OF",["Alice","Bob"],"Alice stands somewhere to Bob's left (not necessarily directly).",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"Alice is left of Bob (not necessarily adjacent).",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"In the lineup, Alice appears to the left of Bob.",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"1. Alice is positioned to the left of Bob.",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"- **Alice** is to the left of **Bob**.",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"Alice was seated somewhere to the left of Bob.",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"To Bob's left, somewhere, stands Alice.",True,""),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"Alice was standing directly to the left of Bob.",False,"adjacency, past tense"),
 ("transitive_order","LEFT_OF",["Alice","Bob"],"1. Alice is to the right of Bob.",False,"direction reversed, numbered"),
 ("membership_inheritance","MEMBER_OF",["Alice","Bakers"],"Alice belongs to the group of Bakers.",True,""),
 ("membership_inheritance","MEMBER_OF",["Alice","Bakers"],"- Alice is a member of the Bakers.",True,""),
 ("membership_inheritance","MEMBER_OF",["Alice","Bakers"],"Alice was one of the Bakers.",True,""),
 ("membership_inheritance","MEMBER_OF",["Alice","Bakers"],"Alice is no longer one of the Bakers.",False,"negated, says a former membership"),
 ("membership_inheritance","NOT_MEMBER_OF",["Alice","Bakers"],"Alice has never been a member of the Bakers.",True,""),
 ("membership_inheritance","NOT_MEMBER_OF",["Alice","Bakers"],"Alice is no longer one of the Bakers.",False,"says a former membership"),
 ("membership_inheritance","SUBSET_OF",["Bakers","Divers"],"Being a Baker implies being a Diver.",True,""),
 ("membership_inheritance","SUBSET_OF",["Bakers","Divers"],"**Every** Baker is also a Diver.",True,""),
 ("membership_inheritance","SUBSET_OF",["Bakers","Divers"],"A Baker is always a Diver.",True,""),
 ("membership_inheritance","SUBSET_OF",["Bakers","Divers"],"A Baker is sometimes a Diver.",False,"some, not all"),
 ("sequential_state_update","INITIAL_VALUE",["Hopper",18],"Step 1: The Hopper starts with 18 items.",True,""),
 ("sequential_state_update","INITIAL_VALUE",["Hopper",18],"At the beginning, the Hopper had 18 items.",True,""),
 ("sequential_state_update","INITIAL_VALUE",["Hopper",18],"Step 1: The Hopper starts with about 18 items.",False,"hedge"),
 ("sequential_state_update","INCREMENT",["Hopper",7],"Step 2: The Hopper receives 7 additional items.",True,""),
 ("sequential_state_update","INCREMENT",["Hopper",7],"Next, a courier delivers 7 items to the Hopper.",True,""),
 ("sequential_state_update","INCREMENT",["Hopper",7],"Then the Hopper gained 7 items.",True,""),
 ("sequential_state_update","INCREMENT",["Hopper",7],"Then the Hopper gained 7 items per hour.",False,"a rate"),
 ("sequential_state_update","DECREMENT",["Hopper",5],"After that, 5 items were removed from the Hopper.",True,""),
 ("sequential_state_update","DECREMENT",["Hopper",5],"Step 3: Remove 5 items from the Hopper.",True,""),
 ("sequential_state_update","DECREMENT",["Hopper",5],"Later, 5 items had been taken out of the Hopper.",True,""),
 ("equality","EQUAL",["q","j"],"q and j have the same value.",True,""),
 ("equality","EQUAL",["q","j"],"- q = j",True,""),
 ("equality","NOT_EQUAL",["q","j"],"q and j are known to be different.",True,""),
 ("equality","NOT_EQUAL",["q","j"],"q is not equal to j.",True,""),
 ("equality","NOT_EQUAL",["q","j"],"q might differ from j.",False,"hedge"),
]
Q = [
 ("transitive_order",{"predicate":"RELATION","args":["Alice","Bob"]},["LEFT_OF","RIGHT_OF","UNKNOWN"],"What is Alice's position relative to Bob: LEFT_OF, RIGHT_OF, or UNKNOWN?",True,""),
 ("transitive_order",{"predicate":"RELATION","args":["Alice","Bob"]},["LEFT_OF","RIGHT_OF","UNKNOWN"],"**Question:** Based on the premises above, where is Alice relative to Bob? Answer with LEFT_OF, RIGHT_OF, or UNKNOWN.",True,""),
 ("transitive_order",{"predicate":"RELATION","args":["Alice","Bob"]},["LEFT_OF","RIGHT_OF","UNKNOWN"],"Determine where Alice stands relative to Bob. Respond with exactly one of LEFT_OF / RIGHT_OF / UNKNOWN.",True,""),
 ("transitive_order",{"predicate":"RELATION","args":["Alice","Bob"]},["LEFT_OF","RIGHT_OF","UNKNOWN"],"Determine where Bob stands relative to Alice. Respond with exactly one of LEFT_OF / RIGHT_OF / UNKNOWN.",False,"reversed"),
 ("membership_inheritance",{"predicate":"MEMBER_OF","args":["Alice","Bakers"]},["YES","NO","UNKNOWN"],"Does it follow that Alice is a Baker? Answer YES, NO, or UNKNOWN.",True,""),
 ("membership_inheritance",{"predicate":"MEMBER_OF","args":["Alice","Bakers"]},["YES","NO","UNKNOWN"],"Decide whether Alice is one of the Bakers (YES/NO/UNKNOWN).",True,""),
 ("membership_inheritance",{"predicate":"MEMBER_OF","args":["Alice","Bakers"]},["YES","NO","UNKNOWN"],"Decide whether Alice could be one of the Bakers (YES/NO/UNKNOWN).",False,"possibility"),
 ("sequential_state_update",{"predicate":"FINAL_VALUE","args":["Hopper"]},["19","20","21"],"After all the steps, how many items are in the Hopper? Choose from 19, 20, or 21.",True,""),
 ("sequential_state_update",{"predicate":"FINAL_VALUE","args":["Hopper"]},["19","20","21"],"Calculate the final number of items in the Hopper. (19 / 20 / 21)",True,""),
 ("sequential_state_update",{"predicate":"FINAL_VALUE","args":["Hopper"]},["19","20","21"],"Calculate the number of items the Hopper started with. (19 / 20 / 21)",False,"asks the start"),
 ("equality",{"predicate":"ENTAILED","args":[]},["q = j","q != j","j = k","k != q"],"Which of the following must be true?\n(A) q = j\n(B) q != j\n(C) j = k\n(D) k != q",True,""),
 ("equality",{"predicate":"ENTAILED","args":[]},["q = j","q != j","j = k","k != q"],"Which statement is guaranteed by the premises? A: q = j, B: q != j, C: j = k, D: k != q",True,""),
]
with open(sys.argv[1] + "/premises.jsonl", "a") as f:
    for fam, pred, args, text, ok, why in P:
        f.write(json.dumps({"family": fam, "predicate": pred, "args": args, "text": text, "faithful": ok, "why": why + ("; " if why else "") + "session 42"}, ensure_ascii=False) + "\n")
with open(sys.argv[1] + "/questions.jsonl", "a") as f:
    for fam, q, opts, text, ok, why in Q:
        f.write(json.dumps({"family": fam, "query": q, "options": opts, "text": text, "faithful": ok, "why": why + ("; " if why else "") + "session 42"}, ensure_ascii=False) + "\n")
