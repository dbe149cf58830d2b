"""Built-in providers that need no server: the template renderer and the random and prior baselines."""
from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from functools import lru_cache
from typing import Any, Mapping

import orjson

from families.registry import FAMILIES
from families.wording import say
from providers.base import Completion, Provider, RenderRequest, SolveRequest
from rendering.names import given_names
from rendering.render import StructuredRender
from rendering.structure import assemble, from_object


def template_structure(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The template's render as the structured object every renderer returns: names drawn from the
    skeleton's id, and the family's own canonical sentences (families/wording.py)."""
    family = FAMILIES.get(payload["family"])
    if family is None:
        raise ValueError(f"template renderer: no family {payload['family']!r}")
    wording, names = family.wording, given_names(payload, payload["id"])

    def spell(args: list[str | int]) -> list[str]:
        return [names[a] if isinstance(a, str) else str(a) for a in args]

    canonical, end = wording.canonical_template, wording.template_end
    premises = [{"fact": i, "text": say(canonical(f["predicate"]), spell(f["arguments"]), end=end)}
                for i, f in enumerate(payload["facts"])]
    query = payload["query"]
    question = wording.template_question or wording.question(query["predicate"], spell(query["arguments"]))
    return {"names": names, "intro": wording.intro, "premises": premises, "question": question}


def render_template(payload: Mapping[str, Any]) -> str:
    """A plain-English problem stating every premise, with what each label means and the labels verbatim."""
    return assemble(_structured(template_structure(payload)), payload)


def _structured(obj: dict[str, Any]) -> StructuredRender:
    """The template's object as `from_object` reads it: never malformed, as the template made it."""
    render = from_object(obj)
    if isinstance(render, str):
        raise ValueError(f"template renderer: its own render reads as {render}")
    return render


class Template(Provider):
    """The deterministic renderer; it reads only the redacted payload."""

    renders_locally = True

    def __init__(self, name: str, model: str = "template-v2"):
        self.name, self.model = name, model

    def render_now(self, request: RenderRequest) -> Completion:
        return self.render_now_parsed(request)[0]

    def render_now_parsed(self, request: RenderRequest) -> tuple[Completion, StructuredRender | None]:
        started = time.perf_counter()
        # Asked for a structured render (the default), the same object a model returns; else the text.
        # The object is handed on as from_object reads it: reading its JSON back gives the same (7 to 12 µs).
        payload = request.payload
        if payload is None:
            raise ValueError("template renderer: the request carries no payload to render")
        structure = template_structure(payload) if request.schema is not None else None
        text = orjson.dumps(structure).decode() if structure is not None else render_template(payload)
        return (Completion(status="ok", text=text, finish_reason="stop", latency_s=time.perf_counter() - started),
                None if structure is None else _structured(structure))

    async def render(self, request: RenderRequest) -> Completion:
        return self.render_now(request)

    async def solve(self, request: SolveRequest) -> Completion:
        return Completion(status="error", reason="the template provider only renders")


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


@lru_cache(maxsize=None)
def prior_slot(family: str, complexity: int) -> int:
    """The answer position the family's generator gives most often at this complexity (from 600 items)."""
    from families.registry import FAMILIES
    from families.seeding import item_rng
    fam = FAMILIES[family]
    slots: Counter[int] = Counter()
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
