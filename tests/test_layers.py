"""Imports run one way, down (docs/architecture.md): every module of the packages, found by walking the tree,
imports only its own area or one of a lower layer, read from its source with `ast` (a late import inside a
function counts as well). A new area must be given a layer here, so none escapes the rule unplaced."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("runner", "providers", "rendering", "families", "audit")

# Areas by layer, the highest first: an area imports only areas of a later row, or itself. Within runner/,
# exits (how the CLI's commands end) sits beside commands/; commands/ drives the cluster and prints reports; view/ shows what reporting/ loads; engine/ and serving/
# (the servers a run launches) sit above plan/ (a grid's units and their keys, which the report and view
# compute too), above config/, which checks grids against fidelity/ and source/, above
# store/; children, errors and intervals are runner's leaves. Below runner/: providers/ and audit/, then
# rendering/, then families/.
LAYERS: list[set[str]] = [
    {"runner.__main__"},
    {"runner.cli", "runner"},
    {"runner.commands", "runner.exits"},
    {"runner.cluster", "runner.view"},
    {"runner.reporting"},
    {"runner.engine", "runner.serving"},
    {"runner.plan"},
    {"runner.config"},
    {"runner.fidelity", "runner.source"},
    {"runner.store"},
    {"runner.children", "runner.errors", "runner.intervals"},
    {"providers", "audit"},
    {"rendering"},
    {"families"},
]
RANK = {area: i for i, row in enumerate(LAYERS) for area in row}

# The report and the view read what a run wrote: they do not import the engine (issue 46: unit keys in one
# module below both), though they sit above it.
READERS_NOT_OF = {"runner.reporting": {"runner.engine"}, "runner.view": {"runner.engine"}}

# Known breaks (module, the module it imports): none. One added here must say why, and leave once mended.
ALLOWED: set[tuple[str, str]] = set()


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name), from the files there."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path) -> set[str]:
    """The modules `name` imports anywhere in its source, relative imports resolved, names of ours only."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)   # `from runner.engine import units`
    return {m for m in out if m.split(".")[0] in PACKAGES}


def area(module: str) -> str:
    """`runner.plan.units` -> `runner.engine`; `providers.base` -> `providers`."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "runner" and len(parts) > 1 else parts[0]


def imports_up(found: dict[str, Path]) -> list[tuple[str, str]]:
    """(module, what it imports) for every import that runs up, or sideways to another area of its layer."""
    out = []
    for name, path in found.items():
        mine = area(name)
        for target in imported(name, path):
            if target not in found:   # `from runner.engine import units`: its module, else the package's name
                continue
            theirs = area(target)
            if theirs == mine:
                continue
            if RANK[theirs] <= RANK[mine] or theirs in READERS_NOT_OF.get(mine, ()):
                out.append((name, target))
    return sorted(set(out))


def test_every_area_has_a_layer():
    """A new sub-package or top-level package is placed in LAYERS before it is used (else it escapes)."""
    unplaced = sorted({area(name) for name in modules()} - set(RANK))
    assert not unplaced, f"give these a layer in tests/test_layers.py and docs/architecture.md: {unplaced}"


def test_no_module_imports_a_higher_layer():
    """Imports run down only; the known breaks (issue 46) are listed, and one mended must leave the list."""
    found = modules()
    breaks = imports_up(found)
    assert [b for b in breaks if b not in ALLOWED] == [], "imports running up (or across a layer)"
    assert [a for a in ALLOWED if a not in breaks] == [], "mended: take these out of ALLOWED"


def test_the_check_sees_an_import_running_up(tmp_path):
    """The parser finds what a module imports, relative and late ones included."""
    src = tmp_path / "runner" / "store"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("")
    mod = src / "x.py"
    mod.write_text("from . import logs\nfrom ..engine import units\n\ndef f():\n    import runner.view.pages\n")
    assert imported("runner.store.x", mod) >= {"runner.store", "runner.store.logs", "runner.engine",
                                               "runner.engine.units", "runner.view.pages"}
    fake = {"runner.store.x": mod, "runner.store.logs": mod, "runner.engine.units": mod, "runner.view.pages": mod}
    for name in list(fake)[1:]:
        fake[name] = tmp_path / "empty.py"
    (tmp_path / "empty.py").write_text("")
    assert imports_up(fake) == [("runner.store.x", "runner.engine.units"), ("runner.store.x", "runner.view.pages")]
