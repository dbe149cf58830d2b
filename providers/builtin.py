"""Built-in providers that need no server: the template renderer and the random and prior baselines."""
from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from functools import lru_cache
from typing import Any, Mapping

import orjson

from providers.base import Completion, Provider, RenderRequest, SolveRequest
from rendering.names import CLUBS, PEOPLE, draw, seeded
from rendering.structure import assemble, from_object

JARS = ("red", "blue", "green", "yellow")


def _names(payload: Mapping[str, Any], type_name: str, pool: tuple[str, ...]) -> dict[str, str]:
    """Invented names for the symbols of one type, fixed by the skeleton's id (deterministic)."""
    return draw([s for s, t in payload["entities"].items() if t == type_name], pool, seeded(payload["id"]))


def template_structure(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The template's render as the structured object every renderer returns: names, intro, premises, question."""
    family, facts = payload["family"], payload["facts"]
    if family == "equality":   # the LogicMark card's premises, its variables as their own names
        ops = {"EQUAL": "=", "NOT_EQUAL": "!="}
        names = {s: s for s in payload["entities"]}
        premises = [f"{f['arguments'][0]} {ops[f['predicate']]} {f['arguments'][1]}" for f in facts]
        options = "\n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(payload["answer_options"]))
        return _structure(names, "If:", premises, "Then\n" + options)
    if family == "transitive_order":
        n = _names(payload, "Entity", PEOPLE)
        premises = [f"{n[a]} stands somewhere to the left of {n[b]}." for a, b in (f["arguments"] for f in facts)]
        x, y = (n[s] for s in payload["query"]["arguments"])
        ask = (f"Where does {x} stand relative to {y}? Answer LEFT_OF if {x} is to the left of {y}, "
               f"RIGHT_OF if {x} is to the right of {y}, UNKNOWN if the statements do not settle it.")
        return _structure(n, "People stand in a row.", premises, ask)
    if family == "membership_inheritance":
        p, c = _names(payload, "Entity", PEOPLE), _names(payload, "Set", CLUBS)
        say = {"MEMBER_OF": lambda a, b: f"{p[a]} is a member of the {c[b]} club.",
               "NOT_MEMBER_OF": lambda a, b: f"{p[a]} is not a member of the {c[b]} club.",
               "SUBSET_OF": lambda a, b: f"Every member of the {c[a]} club is a member of the {c[b]} club."}
        premises = [say[f["predicate"]](*f["arguments"]) for f in facts]
        x, s = payload["query"]["arguments"]
        ask = (f"Is {p[x]} a member of the {c[s]} club? Answer YES if it follows, NO if it follows that "
               f"{p[x]} is not, UNKNOWN if the statements do not settle it.")
        return _structure({**p, **c}, "", premises, ask)
    if family == "sequential_state_update":
        jar = dict(zip(sorted(payload["entities"]), JARS))
        premises = []
        for f in facts:
            c, k = f["arguments"]
            if f["predicate"] == "INITIAL_VALUE":
                premises.append(f"The {jar[c]} jar starts with {k} marbles.")
            elif f["predicate"] == "INCREMENT":
                premises.append(f"Then {k} marbles are put into the {jar[c]} jar.")
            else:
                premises.append(f"Then {k} marbles are taken out of the {jar[c]} jar.")
        target = jar[payload["query"]["arguments"][0]]
        return _structure(jar, "These events happen in this order:", premises,
                          f"How many marbles are in the {target} jar at the end?")
    raise ValueError(f"template renderer: no template for family {family!r}")


def _structure(names: dict[str, str], intro: str, premises: list[str], question: str) -> dict[str, Any]:
    return {"names": names, "intro": intro, "premises": [{"fact": i, "text": t} for i, t in enumerate(premises)],
            "question": question}


def render_template(payload: Mapping[str, Any]) -> str:
    """A plain-English problem stating every premise, with the answer labels verbatim."""
    return assemble(from_object(template_structure(payload)), list(payload["answer_options"]))


class Template(Provider):
    """The deterministic renderer; it reads only the redacted payload."""

    renders_locally = True

    def __init__(self, name: str, model: str = "template-v1"):
        self.name, self.model = name, model

    def render_now(self, request: RenderRequest) -> Completion:
        started = time.perf_counter()
        # Asked for a structured render (the default), the same object a model returns; else the text.
        text = orjson.dumps(template_structure(request.payload)).decode() if request.schema is not None \
            else render_template(request.payload)
        return Completion(status="ok", text=text, finish_reason="stop", latency_s=time.perf_counter() - started)

    async def render(self, request: RenderRequest) -> Completion:
        return self.render_now(request)

    async def solve(self, request: SolveRequest) -> Completion:
        return Completion(status="error", reason="the template provider only renders")

    def describe(self) -> dict[str, Any]:
        return {"kind": "template", "model": self.model}


class RandomSolver(Provider):
    """A uniformly random label, seeded by (seed, unit), so reruns give the same answers."""

    def __init__(self, name: str, seed: int = 0):
        self.name, self.model, self.seed = name, "random", seed

    async def render(self, request: RenderRequest) -> Completion:
        return Completion(status="error", reason="the random provider only solves")

    async def solve(self, request: SolveRequest) -> Completion:
        key = f"{self.seed}\x1f{request.seed_key}\x1f{request.sample}".encode()
        rng = random.Random(hashlib.blake2b(key, digest_size=8).digest())
        label = request.labels[rng.randrange(len(request.labels))]
        return Completion(status="ok", text=label, label=label, finish_reason="stop")

    def describe(self) -> dict[str, Any]:
        return {"kind": "random", "seed": self.seed}


@lru_cache(maxsize=None)
def prior_slot(family: str, complexity: int) -> int:
    """The answer position the family's generator gives most often at this complexity (from 600 items)."""
    from families.registry import FAMILIES
    from families.seeding import item_rng
    fam = FAMILIES[family]
    slots = Counter()
    for i in range(600):
        sk = fam.generate(i, complexity, item_rng(-1, family, i, complexity))
        slots[sk.answer_options.index(sk.gold_answer)] += 1
    return min(slots, key=lambda s: (-slots[s], s))


class PriorSolver(Provider):
    """The most frequent label (or answer position) of the family: what a solver gets from the prior alone."""

    def __init__(self, name: str):
        self.name, self.model = name, "prior"

    async def render(self, request: RenderRequest) -> Completion:
        return Completion(status="error", reason="the prior provider only solves")

    async def solve(self, request: SolveRequest) -> Completion:
        label = request.labels[prior_slot(request.family, request.complexity) % len(request.labels)]
        return Completion(status="ok", text=label, label=label, finish_reason="stop")

    def describe(self) -> dict[str, Any]:
        return {"kind": "prior"}
