"""A structured render as parsed (its shape checked, its fidelity not yet): rendering/structure.py parses and
checks it, rendering/read_back.py reads its premises back."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class StructuredRender:
    """A parsed structured render (shape checked, fidelity not yet)."""

    names: Mapping[str, str]
    premises: tuple[tuple[int, str], ...]
    question: str
    intro: str = ""
    aside: str = ""   # prose the model wrote around the JSON's one code fence ("Here is the puzzle:"): no solver sees it
