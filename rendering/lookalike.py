"""Names as they look: NFKC, control characters found, and Unicode TR39 skeletons (confusable letters of any
script mapped to one prototype), so two names that look alike are one name.

The confusables data is Unicode's confusables.txt as `confusable_homoglyphs` ships it (a well-kept package that
tracks Unicode's releases): each character's look-alikes. Characters that look alike are joined into one class
(its transitive closure joins only `1 I l |`, `0 O` and `' \\`` among printable ASCII, as TR39's own prototypes
do), each class spelled by one member (an ASCII one where it has one); look-alike runs of ASCII letters
("rn" for "m") are spelled as their letter.
"""
from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path

import confusable_homoglyphs

# Format (Cf: zero-width, bidi overrides and isolates, soft hyphen), control (Cc), unassigned, private use,
# surrogates, line and paragraph separators: characters a name never needs and that hide what it says.
_HIDDEN = frozenset({"Cf", "Cc", "Cn", "Co", "Cs", "Zl", "Zp"})


def hidden(name: str) -> str | None:
    """The first character of `name` that is a control, format (zero-width, bidi) or unassigned one, as U+XXXX."""
    if name.isascii():
        bad = next((c for c in name if not c.isprintable()), None)
    else:
        bad = next((c for c in name if unicodedata.category(c) in _HIDDEN or (c.isspace() and c != " ")), None)
    return None if bad is None else f"U+{ord(bad):04X}"


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """The character -> prototype map and the ASCII runs that look like one letter, built once."""
    data = json.loads((Path(confusable_homoglyphs.__file__).parent / "confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    runs: dict[str, str] = {}
    for char, alikes in data.items():
        for alike in alikes:
            other = alike["c"].replace("\u200e", "")
            if len(char) == 1 and len(other) == 1:
                parent[root(char)] = root(other)
            elif len(char) == 1 and char.isascii() and char.isalpha() and other.isascii() and other.isalpha():
                runs[other] = char
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    proto: dict[str, str] = {}
    for group in members.values():
        rep = min(group, key=lambda c: (not (c.isascii() and c.isprintable()), ord(c)))
        proto.update((c, rep) for c in group if c != rep)
    return proto, tuple(sorted(runs.items(), key=lambda kv: -len(kv[0])))


@lru_cache(maxsize=1 << 14)   # names repeat from render to render
def skeleton(text: str) -> str:
    """The TR39-style skeleton of a text: NFKC, hidden characters dropped, each character as its class's
    prototype, look-alike ASCII runs as their letter."""
    text = unicodedata.normalize("NFKC", text)
    proto, runs = _tables()
    out = "".join(proto.get(c, c) for c in text if unicodedata.category(c) not in _HIDDEN)
    for run, letter in runs:
        if run in out:
            out = out.replace(run, letter)
    return out


# Dotless strokes: TR39 maps them to "i" (through the dotless ı), and in most fonts they look as much like "l" (the
# Cyrillic palochka ӏ for the variable l). They are given both looks; "i" and "l" themselves stay two letters.
_STROKES = frozenset("ıӏɩι")


def looks(name: str) -> frozenset[str]:
    """What a name looks like, with and without case: two names look alike where these meet."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    forms = {skeleton(name), skeleton(folded), folded}
    if not _STROKES.isdisjoint(folded):
        forms.add(skeleton("".join("l" if c in _STROKES else c for c in folded)))
    return frozenset(forms)
