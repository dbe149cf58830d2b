"""The family registry: one dict, duplicates and clashing predicates refused."""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from families.registry import FAMILIES, register


def test_four_families_in_spec_round_robin_order():
    assert list(FAMILIES) == ["transitive_order", "membership_inheritance", "sequential_state_update", "equality"]


def test_duplicate_name_is_an_error():
    with pytest.raises(ValueError, match="registered twice"):
        register(FAMILIES["equality"])


def test_duplicate_prefix_is_an_error():
    clone = dataclasses.replace(FAMILIES["equality"], name="equality2", predicates={}, queries={})
    with pytest.raises(ValueError, match="prefix"):
        register(clone)
    assert "equality2" not in FAMILIES


def test_predicate_spelled_alike_with_other_signature_is_an_error():
    clash = dataclasses.replace(FAMILIES["equality"], name="clash", prefix="clash",
                                predicates={"LEFT_OF": ("Variable",)}, queries={})
    with pytest.raises(ValueError, match="LEFT_OF"):
        register(clash)
    assert "clash" not in FAMILIES


def test_every_family_declares_its_contract(family):
    fam = FAMILIES[family]
    assert fam.generate.__module__.startswith("families.")
    module = __import__(fam.generate.__module__, fromlist=["_"])
    doc = module.__doc__ or ""
    assert "Labels:" in doc and ("order" in doc.lower())   # what labels mean, whether order matters
    used = {t for sig in list(fam.predicates.values()) + list(fam.queries.values()) for t in sig}
    assert used - {"Integer"} <= fam.types


@pytest.mark.parametrize("module", [*FAMILIES, "logicmark", "validation"])
def test_any_family_module_may_be_imported_first(module):
    """The family modules know `Family`, not the registry: importing one first in a fresh interpreter
    works, and the registry it then fills holds that module's family."""
    code = (f"import families.{module} as m; from families.registry import FAMILIES; "
            "f = getattr(m, 'FAMILY', None); assert f is None or FAMILIES[f.name] is f; print(len(FAMILIES))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "4", proc.stderr
