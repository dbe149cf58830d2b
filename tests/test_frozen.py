"""set_at_once: the same constructor as the generated one (signature, defaults, factories), still frozen."""
from __future__ import annotations

import dataclasses
import inspect
import pickle

import orjson
import pytest

from families.frozen import set_at_once
from families.ir import Skeleton
from providers.base import Completion, RenderRequest, SolveRequest, Usage
from runner.store.records import RenderRecord, SolveRecord


@set_at_once
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 2
    tags: list = dataclasses.field(default_factory=list)


def test_defaults_factories_and_keywords_behave_like_the_generated_init():
    assert Point(1) == Point(1, 2, []) == Point(x=1, tags=[])
    assert Point(1).tags is not Point(1).tags   # a fresh list each time, as default_factory promises
    assert list(inspect.signature(Point).parameters) == ["x", "y", "tags"]
    with pytest.raises(TypeError):
        Point()   # x is required
    with pytest.raises(TypeError):
        Point(1, z=3)


def test_instances_stay_frozen_and_replaceable_and_picklable():
    p = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5   # type: ignore[misc]
    assert dataclasses.replace(p, y=7) == Point(1, 7)
    assert pickle.loads(pickle.dumps(p)) == p


@pytest.mark.parametrize("cls", [Skeleton, Usage, RenderRequest, SolveRequest, Completion, RenderRecord, SolveRecord])
def test_records_keep_their_field_order_on_disk(cls):
    """The resume index reads `schema`, `key`, `status` first: orjson writes the fields in declared order
    (and a skeleton's fields are the spec's, in its order)."""
    names = [f.name for f in dataclasses.fields(cls)]
    values = {n: i for i, n in enumerate(names)}
    assert list(orjson.loads(orjson.dumps(cls(**values)))) == names


def test_slotted_or_mutable_classes_are_refused():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    @dataclasses.dataclass
    class Mutable:
        x: int

    for cls in (Slotted, Mutable):
        with pytest.raises(TypeError, match="frozen dataclass without __slots__"):
            set_at_once(cls)
