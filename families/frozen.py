"""`set_at_once`: a frozen dataclass whose `__init__` sets all its fields in one write.

The `__init__` that `dataclass(frozen=True)` generates calls `object.__setattr__` once per field,
looked up each time: about 4.4 µs for a 25-field solve record, against 2.4 µs for one write of the
instance's `__dict__`. Skeletons are made by the ten thousand per second, and records once per unit
on the event loop, so this is worth a helper.
The class must not use `__slots__` (a slotted instance has no `__dict__`; orjson also serializes a
plain dataclass 4x faster than a slotted one). Fields keep their order: records rely on it on disk.
"""
from __future__ import annotations

import dataclasses
import types
from typing import TypeVar, cast

T = TypeVar("T")
_NO_DEFAULT = object()


def set_at_once(cls: type[T]) -> type[T]:
    """Replace a frozen dataclass's `__init__` by one with the same signature that sets `__dict__` once."""
    # `__dataclass_params__` is set by dataclass(); typeshed does not declare it
    if (not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
            or "__slots__" in cls.__dict__):
        raise TypeError(f"{cls.__name__}: set_at_once needs a frozen dataclass without __slots__")
    env: dict[str, object] = {"_set": object.__setattr__}
    params, items = [], []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            env[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
            items.append(f"{f.name!r}: {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            env[f"_f_{f.name}"], env["_none"] = f.default_factory, _NO_DEFAULT
            params.append(f"{f.name}=_none")
            items.append(f"{f.name!r}: _f_{f.name}() if {f.name} is _none else {f.name}")
        else:
            params.append(f.name)
            items.append(f"{f.name!r}: {f.name}")
    src = f"def __init__(self, {', '.join(params)}):\n    _set(self, '__dict__', {{{', '.join(items)}}})\n"
    exec(src, env)   # as dataclasses itself does: a signature with real parameter names and defaults
    init = cast(types.FunctionType, env["__init__"])
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init   # type: ignore[method-assign]  # replacing the generated __init__ is the point
    return cls
