"""The grid file's checks: a YAML loader that refuses duplicate keys, and value checks with one-line errors."""
from __future__ import annotations

import math
import re
from typing import Any, Collection

import yaml

from providers.config import INT64, short  # one 64-bit range and one way to show a value, for providers and grid
from runner.errors import UserError, printable

# A grid's name is its run folder's; a provider's names its server logs: plain file names, bounded.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+=-]*")


one_line = printable   # a message with the control characters of user-given keys and values escaped


class Checker:
    """Checks of a grid's values; each failure names the file, the key path and the value."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, path: str, what: str) -> UserError:
        """The one-line error of the value at `path` ("" : the whole file, e.g. an empty one)."""
        return UserError(one_line(f"{self.file}: {path}: {what}" if path else f"{self.file}: {what}"))

    def mapping(self, value: Any, path: str, keys: Collection[str], required: Collection[str] = frozenset()
                ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "expected a mapping")
        for key in value:
            if key not in keys:
                raise self.fail(f"{path}.{key}" if path else key,
                                f"unknown key (expected one of {', '.join(sorted(keys))})")
        for key in sorted(required):
            if key not in value:
                raise self.fail(f"{path}.{key}" if path else key, "missing")
        return value

    def number(self, value: Any, path: str, lo: float, hi: float | None = None, integer: bool = False) -> Any:
        """A finite number in [lo, hi]; an integer also fits in 64 bits."""
        ok = isinstance(value, int) if integer else isinstance(value, (int, float)) and math.isfinite(value)
        if integer and hi is None:
            hi = INT64[1]
        if isinstance(value, bool) or not ok or value < lo or (hi is not None and value > hi):
            kind = "an integer" if integer else "a finite number"
            raise self.fail(path, f"expected {kind} >= {lo}" + (f" and <= {hi}" if hi is not None else "")
                            + f", got {value!r}")
        return value

    def name(self, value: Any, path: str, longest: int) -> str:
        """A name that is also a valid file name: letters, digits and _ . + = -, at most `longest` characters."""
        if not isinstance(value, str) or len(value) > longest or not NAME.fullmatch(value):
            raise self.fail(path, f"expected a name of 1..{longest} letters, digits and _ . + = - "
                            f"(starting with a letter or digit; it names files), got {short(value)}")
        return value


class UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, but a key given twice in one mapping is an error (not: the last one wins), and an
    alias (`*name`) is refused: nested aliases expand a file of a few hundred bytes to billions of nodes."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # types-PyYAML leaves Parser.peek_event bare
            raise yaml.composer.ComposerError(None, None, f"aliases (*{event.anchor}) are not supported; write the "
                                              "value out", event.start_mark)
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:   # an unhashable key: the base class says so
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {short(key)}", key_node.start_mark)
        return super().construct_mapping(node, deep)
