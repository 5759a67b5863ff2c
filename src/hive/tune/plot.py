"""The plot of a tuning run: each parameter's value over the iterations, one small chart a parameter, as an SVG
written here (no plotting library): the start value dashed, and a vertical line at every confirmation, coloured by
its SPRT verdict."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from .spec import Spec

#: The colours of the confirmations' verdicts (``None``: no verdict within the games allowed).
VERDICT_COLOURS = {"H1": "#1a7f37", "H0": "#c62828", None: "#8c8c8c"}
_COLUMNS = 4
_WIDTH, _HEIGHT = 250, 120  # one chart, with its title and labels
_LEFT, _TOP, _RIGHT, _BOTTOM = 44, 22, 10, 20  # the plot area's margins in a chart
_HEAD = 46
_MOST_POINTS = 400  # a line keeps at most this many points (evenly spread, the last always)


def _number(value: float) -> str:
    return f"{value:.4g}"


def _thinned(points: Sequence[tuple[int, Mapping[str, float]]]) -> list[tuple[int, Mapping[str, float]]]:
    if len(points) <= _MOST_POINTS:
        return list(points)
    stride = len(points) / (_MOST_POINTS - 1)
    kept = [points[int(i * stride)] for i in range(_MOST_POINTS - 1)]
    return [*kept, points[-1]]


def render(
    spec: Spec,
    history: Sequence[tuple[int, Mapping[str, float]]],
    verdicts: Sequence[tuple[int, str | None]] = (),
    title: str = "hive tune",
) -> str:
    """The SVG of ``history`` (each iteration's number and its ``theta``, in order, the start as iteration 0) for
    ``spec``'s parameters, with ``verdicts`` (the iteration of each confirmation and its verdict) marked."""
    points = _thinned(history)
    last = max(1, points[-1][0] if points else 1)
    rows = -(-len(spec.parameters) // _COLUMNS)
    width, height = _COLUMNS * _WIDTH, _HEAD + rows * _HEIGHT
    inner_w, inner_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM
    marks = "; ".join(
        f"{label}: {colour_name}" for label, colour_name in (("H1", "green"), ("H0", "red"), ("no verdict", "grey"))
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="8" y="18" font-size="14" font-weight="bold">{escape(title)}</text>',
        f'<text x="8" y="36" fill="#444">each parameter by iteration (0 to {points[-1][0] if points else 0}); '
        f"dashed: the start value; vertical lines: confirmations by SPRT ({marks})</text>",
    ]
    for index, parameter in enumerate(spec.parameters):
        x0 = (index % _COLUMNS) * _WIDTH + _LEFT
        y0 = _HEAD + (index // _COLUMNS) * _HEIGHT + _TOP
        values = [theta[parameter.name] for _, theta in points if parameter.name in theta]
        low = min([parameter.start, *values])
        high = max([parameter.start, *values])
        if high - low < 1e-9:
            low, high = low - 1, high + 1
        pad = (high - low) * 0.08
        low, high = low - pad, high + pad

        def x(iteration: float, x0: int = x0) -> float:
            return x0 + inner_w * iteration / last

        def y(value: float, y0: int = y0, low: float = low, high: float = high) -> float:
            return y0 + inner_h * (high - value) / (high - low)

        out.append(f"<g><title>{escape(parameter.name)}</title>")
        heading = f"{parameter.name}: {_number(parameter.start)}"
        if values:
            heading += f" \u2192 {_number(values[-1])}"
        out.append(f'<text x="{x0}" y="{y0 - 6}" font-weight="bold">{escape(heading)}</text>')
        out.append(
            f'<rect x="{x0}" y="{y0}" width="{inner_w}" height="{inner_h}" fill="#fafafa" stroke="#bbb" '
            'stroke-width="0.5"/>'
        )
        for iteration, verdict in verdicts:
            colour = VERDICT_COLOURS.get(verdict, VERDICT_COLOURS[None])
            out.append(
                f'<line x1="{x(iteration):.1f}" y1="{y0}" x2="{x(iteration):.1f}" y2="{y0 + inner_h}" '
                f'stroke="{colour}" stroke-width="1"/>'
            )
        out.append(
            f'<line x1="{x0}" y1="{y(parameter.start):.1f}" x2="{x0 + inner_w}" y2="{y(parameter.start):.1f}" '
            'stroke="#888" stroke-dasharray="3,3" stroke-width="0.8"/>'
        )
        line = " ".join(f"{x(i):.1f},{y(theta[parameter.name]):.1f}" for i, theta in points if parameter.name in theta)
        if line:
            out.append(f'<polyline points="{line}" fill="none" stroke="#1f5fbf" stroke-width="1.2"/>')
        out.append(f'<text x="{x0 - 3}" y="{y0 + 8}" text-anchor="end">{_number(high)}</text>')
        out.append(f'<text x="{x0 - 3}" y="{y0 + inner_h}" text-anchor="end">{_number(low)}</text>')
        out.append(f'<text x="{x0}" y="{y0 + inner_h + 13}" fill="#666">0</text>')
        out.append(
            f'<text x="{x0 + inner_w}" y="{y0 + inner_h + 13}" text-anchor="end" fill="#666">'
            f"{points[-1][0] if points else 0}</text>"
        )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["VERDICT_COLOURS", "render"]
