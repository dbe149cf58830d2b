"""Names for a skeleton's symbols: built-in pools per symbol type, drawn deterministically from a seed.

Both the template renderer (seeded by the skeleton's id) and model renderers with `names: assigned`
(seeded by the render unit's key, so the same unit always gets the same names) draw from here. Every
drawn set is distinct, no name is part of another (whole words: past a pool's size every name of that
type gets two words, so `Nico` never stands beside `Nico Ash`), and no pool word is an answer label.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, Mapping

from rendering.structure import names_fixed

# Pools of single capitalised words; across pools no word repeats, so two types never share a name.
PEOPLE = ("Alice", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ines", "Jonas",
          "Kofi", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
          "Una", "Viktor", "Wren", "Ximena", "Yusuf", "Zofia")
CLUBS = ("Amber", "Birch", "Cobalt", "Dune", "Ember", "Fjord", "Garnet", "Harbor", "Iris", "Juniper",
         "Kestrel", "Lumen", "Maple", "Nimbus", "Onyx", "Pine", "Quartz", "Reed", "Slate", "Tundra",
         "Umber", "Vale", "Willow", "Xenon", "Yarrow", "Zephyr")
SURNAMES = ("Ash", "Brook", "Cliff", "Dale", "Eaves", "Field", "Grove", "Heath", "Isle", "Jett", "Kerr",
            "Lake", "Moss", "North", "Oakes", "Pike", "Quarry", "Ridge", "Stone", "Thorn", "Upton", "Vance",
            "West", "Yates", "York", "Zell")
# Categories read as plural nouns ("Nico is one of the Bakers", "every Baker is a Diver" would break the
# name: the pattern keeps the plural as given).
CATEGORIES = ("Archers", "Bakers", "Cellists", "Divers", "Engravers", "Falconers", "Glaziers", "Harpists",
              "Jugglers", "Knitters", "Lutists", "Masons", "Navigators", "Oboists", "Potters", "Rowers",
              "Sculptors", "Tailors", "Umpires", "Violinists", "Weavers", "Yodelers", "Zoologists",
              "Drummers", "Fencers", "Gardeners")
COUNTERS = ("Silo", "Vault", "Cistern", "Hopper", "Granary", "Coffer", "Reservoir", "Bunker", "Cellar",
            "Depot", "Larder", "Pantry", "Quiver", "Tankard", "Urn", "Kiln", "Boathouse", "Hangar")

# A model renderer's pool per symbol type; a type not listed here draws from CLUBS (what is left of it).
ASSIGNED_POOLS: Mapping[str, tuple[str, ...]] = {"Entity": PEOPLE, "Set": CATEGORIES, "Counter": COUNTERS}


def seeded(seed: str) -> random.Random:
    """A generator fixed by a string (a skeleton id, a render unit key)."""
    return random.Random(hashlib.blake2b(seed.encode(), digest_size=8).digest())


def draw(symbols: list[str], pool: tuple[str, ...], rng: random.Random) -> dict[str, str]:
    """Distinct names for `symbols` from `pool`; past the pool's size every name gets a second word
    (all of them, so that no name is part of another)."""
    if len(symbols) <= len(pool):
        chosen = rng.sample(pool, len(symbols))
    else:
        chosen = [f"{a} {b}" for a, b in rng.sample([(a, b) for a in pool for b in SURNAMES], len(symbols))]
    return dict(zip(symbols, chosen))


def assigned_names(payload: Mapping[str, Any], unit_key: str) -> dict[str, str]:
    """The names a model renderer with `names: assigned` must use for one render unit: drawn from the
    unit's key, so a rerun or a resumed run asks with the same names.

    Types take turns (sorted); a word one type used is not offered to the next, and a type with more
    symbols than its pool has words left gets two-word names whose first word no other name is.
    """
    rng = seeded(unit_key)
    by_type: dict[str, list[str]] = {}
    for symbol, type_name in payload["entities"].items():
        by_type.setdefault(type_name, []).append(symbol)
    out: dict[str, str] = {}
    taken: set[str] = set()   # every word that is a whole name, or the first word of one
    for type_name in sorted(by_type):
        symbols = by_type[type_name]
        pool = [w for w in ASSIGNED_POOLS.get(type_name, CLUBS) if w not in taken]
        if len(symbols) <= len(pool):
            chosen = rng.sample(pool, len(symbols))
            taken.update(chosen)
        else:
            pool = pool or [w for w in PEOPLE + CLUBS + CATEGORIES + COUNTERS if w not in taken]
            chosen = [f"{a} {b}" for a, b in rng.sample([(a, b) for a in pool for b in SURNAMES], len(symbols))]
            taken.update(name.split()[0] for name in chosen)
        out.update(zip(symbols, chosen))
    return {s: out[s] for s in payload["entities"]}


def given_names(payload: Mapping[str, Any], unit_key: str) -> dict[str, str]:
    """The names a renderer is given: the symbols themselves where the answer labels spell them
    (equality's `c != h`), else the unit's assigned names."""
    if names_fixed(payload):
        return {s: s for s in payload["entities"]}
    return assigned_names(payload, unit_key)
