"""Statuses, failure kinds and check codes are types (issue 46): every value a record holds is a member of its
type, the check writes no reason whose code is not a CheckCode, and no module of runner/ (the view's templates
included) compares a status, an error kind, a check code, an audit or a view's verdict with a string outside
its type, or splits a check's code out by itself."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import jinja2
import jinja2.nodes
import orjson
import pytest

from providers.base import FAILURE_KINDS, RENDER_STATUSES, SOLVE_STATUSES
from rendering.structure import CHECK_CODES, reason_code
from runner.store.records import CalibrationStatus, RenderAudit, SentRenderStatus
from runner.view.listing import VERDICTS
from tests.view_mixed import build

ROOT = Path(__file__).resolve().parent.parent
STATUSES = set(RENDER_STATUSES) | set(SOLVE_STATUSES) | set(get_args(CalibrationStatus))


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """A real run with every render and solve status (tests/view_mixed.py), against the fake server."""
    return build(tmp_path_factory.mktemp("statuses"))


def test_every_record_of_a_run_holds_members_of_the_types(mixed: Path):
    renders = [orjson.loads(line) for line in (mixed / "renders.jsonl").read_bytes().splitlines()]
    solves = [orjson.loads(line) for line in (mixed / "solves.jsonl").read_bytes().splitlines()]
    assert {r["status"] for r in renders} == set(RENDER_STATUSES)   # the run holds every one, and only those
    assert {"ok", "error"} <= {s["status"] for s in solves} <= set(SOLVE_STATUSES)
    assert {s["render_status"] for s in solves} <= set(get_args(SentRenderStatus))
    kinds = {r["error_kind"] for r in renders + solves if r["status"] == "error"}
    assert kinds and kinds <= set(FAILURE_KINDS), kinds   # every error says its kind, one of the type's
    assert all(r["error_kind"] is None for r in renders + solves if r["status"] != "error")
    codes = {reason_code(c) for r in renders for c in r["checks"]}
    assert {"misread", "unread", "missing_fact"} <= codes <= set(CHECK_CODES), codes


def _codes_written(path: Path) -> set[str]:
    """The codes of the reasons a module writes: string constants (or an f-string's opening) `code: ...`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        head = node.value if isinstance(node, ast.Constant) else (
            node.values[0].value if isinstance(node, ast.JoinedStr) and node.values
            and isinstance(node.values[0], ast.Constant) else None)
        if isinstance(head, str) and (m := re.match(r"([a-z_]+): ", head)):
            found.add(m.group(1))
    return found


def test_the_check_writes_only_check_codes_and_every_code_is_written():
    written = set().union(*(_codes_written(p) for p in (ROOT / "rendering").glob("*.py")))
    assert written == set(CHECK_CODES)


def _compared(tree: ast.AST):
    """(the compared expression's source, each string it is compared with) for every ==, != and in."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                items = side.elts if isinstance(side, (ast.Tuple, ast.Set, ast.List)) else [side]
                strings = [n.value for n in items if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                for other in sides:
                    if other is not side and strings and not isinstance(other, (ast.Constant, ast.Tuple, ast.Set,
                                                                                ast.List)):
                        yield ast.unparse(other), strings


def _field(source: str) -> str | None:
    """Which typed field an expression reads: `status`, `error_kind` or a check code; None for others."""
    if re.search(r"(\bstatus\b|\[.status.\]|\.status\)?$|status\"\)$)", source) and "render_status" not in source:
        return "status"
    if "error_kind" in source:
        return "error_kind"
    if source.startswith("reason_code("):
        return "code"
    if re.search(r"(\.audit$|\[.audit.\]$|^audit\[0\]$)", source):   # a record's audit, or an Audit's verdict
        return "audit"
    if re.search(r"\bverdict(_of\(.*\))?$", source):   # the view's verdict on a render
        return "verdict"
    return None


ALLOWED = {"status": STATUSES, "error_kind": set(FAILURE_KINDS) | {"other"}, "code": set(CHECK_CODES),
           "audit": set(get_args(RenderAudit)), "verdict": set(VERDICTS)}


def test_runner_compares_typed_fields_only_with_their_members():
    allowed = ALLOWED
    outside = []
    for path in sorted((ROOT / "runner").rglob("*.py")):
        for source, strings in _compared(ast.parse(path.read_text(encoding="utf-8"))):
            field = _field(source)
            if field is None:
                continue
            outside += [f"{path.relative_to(ROOT)}: {source} vs {s!r}" for s in strings if s not in allowed[field]]
    assert outside == []


def test_only_reason_code_splits_a_check_into_its_code():
    code = [p for area in ("runner", "providers", "rendering", "families", "audit", "benchmarks")
            for p in sorted((ROOT / area).rglob("*.py"))]
    splits = [str(p.relative_to(ROOT)) for p in code if 'split(":", 1)[0]' in p.read_text(encoding="utf-8")]
    assert splits == ["rendering/structure.py"]


def test_the_comparison_check_finds_a_status_outside_the_type(tmp_path: Path):
    tree = ast.parse('if rec["status"] == "done":\n    pass\nif res.error_kind in ("timeout", "bogus"):\n    pass\n')
    seen = {(_field(src), s) for src, strings in _compared(tree) for s in strings}
    assert ("status", "done") in seen and ("error_kind", "bogus") in seen


def _template_compared(source: str):
    """(the compared field's name, each string it is compared with) for every comparison of a Jinja template."""
    for node in jinja2.Environment().parse(source).find_all(jinja2.nodes.Compare):
        sides = [node.expr, *(op.expr for op in node.ops)]
        names = [side.attr if isinstance(side, jinja2.nodes.Getattr) else side.name for side in sides
                 if isinstance(side, (jinja2.nodes.Getattr, jinja2.nodes.Name))]
        strings = [c.value for side in sides
                   for c in (side.items if isinstance(side, (jinja2.nodes.Tuple, jinja2.nodes.List)) else [side])
                   if isinstance(c, jinja2.nodes.Const) and isinstance(c.value, str)]
        for name in names:
            yield name, strings


def test_the_view_templates_compare_statuses_and_verdicts_only_with_their_members():
    """The pages' own comparisons (`verdict != 'faithful'`, `r.rec.status in ('error', 'invalid')`) are held
    to the types as the Python is: a status renamed in its type and not in a template fails here."""
    outside, seen = [], 0
    for path in sorted((ROOT / "runner" / "view" / "templates").glob("*.html")):
        for name, strings in _template_compared(path.read_text(encoding="utf-8")):
            if name in ALLOWED and strings:
                seen += 1
                outside += [f"{path.name}: {name} vs {s!r}" for s in strings if s not in ALLOWED[name]]
    assert outside == [] and seen >= 3   # the templates do compare verdicts and statuses: the check sees them


def test_the_template_check_finds_a_status_outside_the_type():
    found = dict(_template_compared("{% if r.rec.status == 'done' %}x{% endif %}{% if verdict in ('faithfull',) %}"
                                    "y{% endif %}"))
    assert found == {"status": ["done"], "verdict": ["faithfull"]}


def test_the_comparison_check_finds_an_audit_or_verdict_outside_the_type():
    tree = ast.parse('if rec["audit"] == "agreed":\n    pass\nif row.verdict in ("faithful", "faithfull"):\n    pass\n')
    seen = {(_field(src), s) for src, strings in _compared(tree) for s in strings}
    assert ("audit", "agreed") in seen and ("verdict", "faithfull") in seen
