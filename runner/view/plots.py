"""Line plots as inline SVG made on the server (no script, no outside request): accuracy by depth per solver
with the chance level, and the faithful share of renders by complexity per renderer."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from html import escape

from runner.reporting.fidelity import FidelityRow
from runner.reporting.stats import SummaryRow

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")
W, H, LEFT, RIGHT, TOP, BOTTOM = 520, 230, 44, 150, 12, 36


def _svg(title: str, series: dict[str, dict[int, float]], dashed: dict[str, dict[int, float]], xlabel: str) -> str:
    """Lines over integer x (0..1 on y), one colour each, dashed lines grey; a legend on the right."""
    xs = sorted({x for pts in (*series.values(), *dashed.values()) for x in pts})
    if not xs:
        return ""
    lo, hi = xs[0], xs[-1]
    span = max(hi - lo, 1)

    def px(x: int) -> float:
        return LEFT + (W - LEFT - RIGHT) * ((x - lo) / span if hi > lo else 0.5)

    def py(y: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (1 - y)

    out = [(f'<svg class="plot" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(title)}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>')]
    for y in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#e3e3e3"/>'
                   f'<text x="{LEFT - 6}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="11">{y:g}</text>')
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{H - BOTTOM + 15}" text-anchor="middle" font-size="11">{x}</text>')
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2:.0f}" y="{H - 4}" text-anchor="middle" font-size="11">'
               f'{escape(xlabel)}</text>')
    legend = 0
    for i, (name, pts) in enumerate(sorted(series.items())):
        colour = COLOURS[i % len(COLOURS)]
        out.append(_line(pts, px, py, colour, ""))
        out.append(_key(legend, name, colour, ""))
        legend += 1
    for name, pts in sorted(dashed.items()):
        out.append(_line(pts, px, py, "#777", ' stroke-dasharray="5 4"'))
        out.append(_key(legend, name, "#777", ' stroke-dasharray="5 4"'))
        legend += 1
    out.append("</svg>")
    return "".join(out)


def _line(pts: dict[int, float], px, py, colour: str, dash: str) -> str:
    coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in sorted(pts.items()))
    dots = "".join(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.6" fill="{colour}"/>' for x, y in pts.items())
    return f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{coords}"/>{dots}'


def _key(i: int, name: str, colour: str, dash: str) -> str:
    y = TOP + 8 + 16 * i
    short = name if len(name) <= 20 else name[:19] + "…"
    return (f'<line x1="{W - RIGHT + 10}" x2="{W - RIGHT + 28}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"{dash}/>'
            f'<text x="{W - RIGHT + 32}" y="{y + 4}" font-size="11">{escape(short)}</text>')


def accuracy_by_depth(rows: Iterable[SummaryRow]) -> str:
    """Accuracy over answers on faithful renders by complexity, one line per solver (renderers pooled), and
    the chance level of the skeletons answered (dashed)."""
    acc: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    chance: dict[int, list[float]] = defaultdict(lambda: [0.0, 0])
    for r in rows:
        if r.n:
            c = acc[r.solver][r.complexity]
            c[0] += r.correct
            c[1] += r.n
            if r.chance is not None:
                chance[r.complexity][0] += r.chance * r.n
                chance[r.complexity][1] += r.n
    series = {s: {x: k / n for x, (k, n) in pts.items()} for s, pts in acc.items()}
    level = {x: t / n for x, (t, n) in chance.items() if n}
    return _svg("accuracy by depth per solver", series, {"chance": level} if level else {}, "complexity (proof depth)")


def fidelity_by_complexity(rows: Iterable[FidelityRow]) -> str:
    """The faithful share of checked renders by complexity, one line per renderer (families pooled)."""
    got: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for f in rows:
        c = got[f.renderer][f.complexity]
        c[0] += f.faithful
        c[1] += f.renders
    series = {r: {x: k / n for x, (k, n) in pts.items() if n} for r, pts in got.items()}
    return _svg("faithful renders by complexity per renderer", series, {}, "complexity (proof depth)")
