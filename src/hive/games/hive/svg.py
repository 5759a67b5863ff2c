"""Pictures of Hive positions as standalone SVG (public as :mod:`hive.svg`).

Each occupied cell is one ``<polygon>`` (classes and ``data-`` attributes name the top piece, its colour,
the whole stack and its height) with the top bug drawn as a small glyph and labelled with its letter;
stacks carry a height badge. Boards show themselves through it in Jupyter (``Board._repr_svg_``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from .board import Board
from .move import Move
from .pieces import BUG_LETTERS, BUG_NAMES, KIND, PIECE_NAMES, PIECES_PER_COLOUR

__all__ = ["GLYPHS", "THEMES", "Theme", "board"]


@dataclass(frozen=True)
class Theme:
    """Colours of a picture.

    :ivar sides: the names of the two sides (``White``/``Black``, or ``Warm``/``Cool``).
    :ivar tiles: tile fill per side, per bug (``Q S B G A M L P`` order).
    :ivar inks: glyph and label colour per side, per bug.
    :ivar edges: tile outline per side.
    """

    name: str
    sides: tuple[str, str]
    tiles: tuple[tuple[str, ...], tuple[str, ...]]
    inks: tuple[tuple[str, ...], tuple[str, ...]]
    edges: tuple[str, str]
    background: str
    last_move: str
    highlight: str
    badge: tuple[str, str]


# The classic set: ivory and ebony tiles, each bug in its own colour on both sides.
_CLASSIC_INKS = ("#c99a06", "#8a4b1c", "#6f3f9e", "#2f8a3a", "#2462b0", "#7a7a7a", "#c0392b", "#18968c")
_CLASSIC_INKS_ON_BLACK = ("#e8b923", "#c8804a", "#a57ad6", "#4fb85a", "#4c94e6", "#b4b4b4", "#e2574c", "#2fc0b2")

# Seed 001's hand-made set: the Warm side's bugs in gold, maroon, orange, mustard and red, the Cool side's
# in black, purple, dark blue, green and teal; the expansion bugs get warm and cool colours of their own.
_WARM = ("#e8b418", "#7b1f2b", "#ee7d1c", "#c7a03a", "#cf2f26", "#e5735a", "#d9562b", "#a8572a")
_COOL = ("#202228", "#5d3591", "#1d3b7c", "#2b8a4f", "#14888a", "#4d6b7c", "#3a45a8", "#2b8fcf")

THEMES: dict[str, Theme] = {
    "default": Theme(
        name="default",
        sides=("White", "Black"),
        tiles=(("#f6f1e3",) * 8, ("#2d2a27",) * 8),
        inks=(_CLASSIC_INKS, _CLASSIC_INKS_ON_BLACK),
        edges=("#6e6453", "#0b0a09"),
        background="#e9e4d8",
        last_move="#d9480f",
        highlight="#1c7ed6",
        badge=("#c92a2a", "#ffffff"),
    ),
    "warm-cool": Theme(
        name="warm-cool",
        sides=("Warm", "Cool"),
        tiles=(_WARM, _COOL),
        inks=(("#fff7e6",) * 8, ("#e6f4ff",) * 8),
        edges=("#6b2a10", "#0c1730"),
        background="#f3efe9",
        last_move="#ff5f1f",
        highlight="#00a8a8",
        badge=("#ffffff", "#222222"),
    ),
}

_SQRT3 = math.sqrt(3.0)
_R = 40.0  # hex radius in user units; the picture is scaled to ``size`` by the viewBox


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _outline(cx: float, cy: float, radius: float) -> str:
    return "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in _hex_points(cx, cy, radius)) + " Z"


# Glyphs of our own design, drawn in a 20 x 20 box centred on the origin with the ink colour ``{c}``.
GLYPHS: dict[str, str] = {
    "Q": (  # a queen bee: wings, striped body, crown
        '<ellipse cx="-4.6" cy="-1" rx="4" ry="2.4" transform="rotate(-25 -4.6 -1)" fill="none" stroke="{c}"/>'
        '<ellipse cx="4.6" cy="-1" rx="4" ry="2.4" transform="rotate(25 4.6 -1)" fill="none" stroke="{c}"/>'
        '<ellipse cx="0" cy="2.5" rx="3.2" ry="6" fill="{c}"/>'
        '<path d="M-3 1.5 H3 M-2.8 4.5 H2.8" stroke="{bg}" stroke-width="1.1"/>'
        '<path d="M-3.4 -5 L-3.4 -9 L-1.7 -7 L0 -9.5 L1.7 -7 L3.4 -9 L3.4 -5 Z" fill="{c}"/>'
    ),
    "S": (  # a spider: two round segments, eight bent legs
        '<circle cx="0" cy="2" r="4.2" fill="{c}"/><circle cx="0" cy="-4" r="2.6" fill="{c}"/>'
        '<path d="M-2.5 -2 L-7 -6 L-9 -3 M-3 0 L-8 -1 L-9.5 2.5 M-3 2.5 L-8 4 L-8.5 8 M-2 4.5 L-5.5 8 L-5 10.5'
        ' M2.5 -2 L7 -6 L9 -3 M3 0 L8 -1 L9.5 2.5 M3 2.5 L8 4 L8.5 8 M2 4.5 L5.5 8 L5 10.5"'
        ' fill="none" stroke="{c}" stroke-width="1.2" stroke-linejoin="round"/>'
    ),
    "B": (  # a beetle: split shell, head, antennae
        '<ellipse cx="0" cy="2" rx="6.5" ry="7.5" fill="{c}"/>'
        '<path d="M0 -5 V9.5" stroke="{bg}" stroke-width="1.1"/>'
        '<ellipse cx="0" cy="-6.5" rx="3" ry="2.2" fill="{c}"/>'
        '<path d="M-1.5 -8 L-4 -10.5 M1.5 -8 L4 -10.5 M-6 0 L-9 -2 M6 0 L9 -2 M-6.2 4 L-9.2 5 M6.2 4 L9.2 5"'
        ' fill="none" stroke="{c}" stroke-width="1.2"/>'
    ),
    "G": (  # a grasshopper: long body, big folded hind legs
        '<ellipse cx="0" cy="1" rx="2.6" ry="8.5" fill="{c}"/><circle cx="0" cy="-8" r="2.2" fill="{c}"/>'
        '<path d="M-2 2 L-7 -4 L-5.5 9 M2 2 L7 -4 L5.5 9 M-1 -9.5 L-4 -11 M1 -9.5 L4 -11 M-2 -3 L-5 -5 M2 -3 L5 -5"'
        ' fill="none" stroke="{c}" stroke-width="1.3" stroke-linejoin="round"/>'
    ),
    "A": (  # a soldier ant: head, thorax, abdomen, six legs
        '<circle cx="0" cy="-6.5" r="2.4" fill="{c}"/><ellipse cx="0" cy="-1.5" rx="1.8" ry="2.6" fill="{c}"/>'
        '<ellipse cx="0" cy="5.5" rx="3.4" ry="4.4" fill="{c}"/>'
        '<path d="M-1.5 -2.5 L-6 -5 M-1.7 -1 L-7 -0.5 M-1.5 0.5 L-6 4 M1.5 -2.5 L6 -5 M1.7 -1 L7 -0.5 M1.5 0.5 L6 4'
        ' M-1 -8.5 L-3.5 -10.5 M1 -8.5 L3.5 -10.5" fill="none" stroke="{c}" stroke-width="1.2"/>'
    ),
    "M": (  # a mosquito: slim body, long proboscis, see-through wings, long legs
        '<ellipse cx="-4" cy="0" rx="4.2" ry="1.8" transform="rotate(-30 -4 0)" fill="none" stroke="{c}"/>'
        '<ellipse cx="4" cy="0" rx="4.2" ry="1.8" transform="rotate(30 4 0)" fill="none" stroke="{c}"/>'
        '<ellipse cx="0" cy="2.5" rx="1.7" ry="6" fill="{c}"/><circle cx="0" cy="-4.5" r="1.8" fill="{c}"/>'
        '<path d="M0 -6 V-10.5 M-1 4 L-7 9 M1 4 L7 9 M-1 1 L-8 3 M1 1 L8 3" fill="none" stroke="{c}"'
        ' stroke-width="1"/>'
    ),
    "L": (  # a ladybug: round split shell with spots
        '<circle cx="0" cy="1.5" r="7.2" fill="{c}"/><path d="M-4 -5 A4 3 0 0 1 4 -5 Z" fill="{c}"/>'
        '<path d="M0 -5.5 V8.7" stroke="{bg}" stroke-width="1.1"/>'
        '<circle cx="-3.4" cy="-1" r="1.3" fill="{bg}"/><circle cx="3.4" cy="-1" r="1.3" fill="{bg}"/>'
        '<circle cx="-3.6" cy="4" r="1.3" fill="{bg}"/><circle cx="3.6" cy="4" r="1.3" fill="{bg}"/>'
    ),
    "P": (  # a pillbug: segmented oval armour
        '<ellipse cx="0" cy="1" rx="6" ry="8.2" fill="{c}"/>'
        '<path d="M-5.2 -3 Q0 -1 5.2 -3 M-5.9 0.5 Q0 2.5 5.9 0.5 M-5.6 4 Q0 6 5.6 4 M-4.3 7 Q0 8.8 4.3 7"'
        ' fill="none" stroke="{bg}" stroke-width="1"/>'
        '<path d="M-2 -6.5 L-4.5 -10.5 M2 -6.5 L4.5 -10.5" fill="none" stroke="{c}" stroke-width="1.2"/>'
    ),
}


def board(
    board: Board,
    *,
    size: int = 400,
    flipped: bool = False,
    last_move: Move | None = None,
    highlight: Iterable[int] = (),
    theme: str = "default",
) -> str:
    """Draw a position as a standalone SVG document.

    :param board: the position.
    :param size: width and height of the picture in pixels.
    :param flipped: turn the picture half a turn (Black's side of the table).
    :param last_move: outline this move's destination (and, dashed, its origin).
    :param highlight: cells (ids, as in :attr:`hive.Move.destination`) to outline.
    :param theme: ``"default"`` (ivory and ebony tiles, coloured bugs) or ``"warm-cool"``
        (seed 001's Warm and Cool sides, a colour per bug).
    :raises ValueError: naming the theme when it is unknown.
    """
    if theme not in THEMES:
        raise ValueError(f"Unknown theme {theme!r}: expected one of {', '.join(THEMES)}.")
    style = THEMES[theme]
    marked = list(highlight)
    move_cells: list[int] = []
    if last_move is not None and not last_move.is_pass:
        move_cells = [c for c in (last_move.origin, last_move.destination) if c is not None]
    coords = board.layout([*marked, *move_cells])
    flip = -1.0 if flipped else 1.0

    def centre(cell: int) -> tuple[float, float]:
        q, r = coords[cell]
        return flip * _R * _SQRT3 * (q + r / 2), flip * _R * 1.5 * r

    centres = [centre(c) for c in coords] or [(0.0, 0.0)]
    margin = _R * 1.3
    left = min(x for x, _ in centres) - margin
    right = max(x for x, _ in centres) + margin
    top = min(y for _, y in centres) - margin
    bottom = max(y for _, y in centres) + margin
    width, height = right - left, bottom - top
    side = max(width, height)
    left -= (side - width) / 2
    top -= (side - height) / 2
    title = f"{board.game_type};{board.state};{board.turn_string}"
    title = title.replace("White[", style.sides[0] + "[").replace("Black[", style.sides[1] + "[")

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" height="{size}"'
        f' viewBox="{_num(left)} {_num(top)} {_num(side)} {_num(side)}" class="hive-board theme-{style.name}"'
        f' role="img" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(side)}" height="{_num(side)}"'
        f' fill="{style.background}" class="background"/>',
    ]
    occupied = [cell for cell in coords if board.height[cell]]
    occupied.sort(key=lambda c: (coords[c][1], coords[c][0]))
    if not occupied:
        out.append(
            f'<text x="0" y="0" text-anchor="middle" dominant-baseline="middle" font-size="{_num(_R * 0.4)}"'
            f' fill="{style.edges[0]}" class="empty">empty board</text>'
        )
    for cell in occupied:
        out.append(_cell(board, cell, centre(cell), coords[cell], style))
    origin = last_move.origin if last_move is not None else None
    for cell in move_cells:
        x, y = centre(cell)
        dashed = ' stroke-dasharray="7 5"' if cell == origin else ""
        kind = "from" if dashed else "to"
        out.append(
            f'<path class="last-move last-move-{kind}" data-cell="{cell}" d="{_outline(x, y, _R * 0.97)}"'
            f' fill="none" stroke="{style.last_move}" stroke-width="{_num(_R * 0.11)}"{dashed}/>'
        )
    for cell in marked:
        x, y = centre(cell)
        out.append(
            f'<path class="highlight" data-cell="{cell}" d="{_outline(x, y, _R * 0.8)}" fill="{style.highlight}"'
            f' fill-opacity="0.18" stroke="{style.highlight}" stroke-width="{_num(_R * 0.09)}"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell(board: Board, cell: int, at: tuple[float, float], axial: tuple[int, int], style: Theme) -> str:
    stack = board.stack(cell)
    pid = stack[-1]
    colour = pid // PIECES_PER_COLOUR
    kind = KIND[pid]
    name = PIECE_NAMES[pid]
    x, y = at
    fill = style.tiles[colour][kind]
    ink = style.inks[colour][kind]
    edge = style.edges[colour]
    names = " ".join(PIECE_NAMES[p] for p in stack)
    tooltip = f"{style.sides[colour]} {BUG_NAMES[kind]} ({name})"
    if len(stack) > 1:
        tooltip += " on " + ", ".join(PIECE_NAMES[p] for p in reversed(stack[:-1]))
    parts = [f'<g class="cell" data-cell="{cell}" data-q="{axial[0]}" data-r="{axial[1]}">']
    parts.append(f"<title>{escape(tooltip)}</title>")
    for level in range(len(stack) - 1, 0, -1):  # the pieces beneath, peeking out down-right
        below = stack[level - 1]
        shift = _R * 0.09 * level
        parts.append(
            f'<path class="under" data-piece="{PIECE_NAMES[below]}" d="{_outline(x + shift, y + shift, _R * 0.93)}"'
            f' fill="{style.tiles[below // PIECES_PER_COLOUR][KIND[below]]}"'
            f' stroke="{style.edges[below // PIECES_PER_COLOUR]}" stroke-width="1.5"/>'
        )
    side = ("white", "black")[colour]
    parts.append(
        f'<polygon class="hex {side} {BUG_NAMES[kind].lower().replace(" ", "-")}" data-piece="{name}"'
        f' data-colour="{side}" data-height="{len(stack)}" data-stack={quoteattr(names)}'
        f' points="{_points(_hex_points(x, y, _R * 0.93))}" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
    )
    scale = _R * 0.047
    glyph = GLYPHS[BUG_LETTERS[kind]].format(c=ink, bg=fill)
    parts.append(
        f'<g class="bug" transform="translate({_num(x)},{_num(y - _R * 0.1)}) scale({_num(scale)})"'
        f' stroke-linecap="round">{glyph}</g>'
    )
    parts.append(
        f'<text class="label" x="{_num(x)}" y="{_num(y + _R * 0.7)}" text-anchor="middle"'
        f' font-size="{_num(_R * 0.26)}" font-weight="bold" fill="{ink}">{escape(name[1:])}</text>'
    )
    if len(stack) > 1:
        bx, by = x + _R * 0.5, y - _R * 0.5
        parts.append(
            f'<g class="height-badge" data-height="{len(stack)}"><circle cx="{_num(bx)}" cy="{_num(by)}"'
            f' r="{_num(_R * 0.22)}" fill="{style.badge[0]}" stroke="{edge}" stroke-width="1.2"/>'
            f'<text x="{_num(bx)}" y="{_num(by + _R * 0.1)}" text-anchor="middle" font-size="{_num(_R * 0.28)}"'
            f' font-weight="bold" fill="{style.badge[1]}">{len(stack)}</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)
