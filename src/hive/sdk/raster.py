"""Pictures as RGB arrays, drawn with NumPy alone: hexagons, discs and a small bitmap font.

Enough to show a position frame by frame (a video of self-play, a notebook) without a drawing library. Hexagons
are pointy-topped, as in the games' SVG pictures: axial ``(q, r)`` has its centre at
``radius * (sqrt(3) * (q + r / 2), 1.5 * r)``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

SQRT3 = math.sqrt(3.0)

# 5 x 7 glyphs of the letters and digits the pictures write (bug letters, HiveQueen's pieces, stack heights).
_FONT_ROWS: dict[str, tuple[str, ...]] = {
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "D": ("####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."),
    "G": (".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"),
    "N": ("#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"),
    "P": ("####.", "#...#", "#...#", "####.", "#....", "#....", "#...."),
    "Q": (".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"),
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "W": ("#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": (".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."),
}
FONT: dict[str, NDArray[np.bool_]] = {
    char: np.array([[pixel == "#" for pixel in row] for row in rows]) for char, rows in _FONT_ROWS.items()
}


def colour(text: str) -> tuple[int, int, int]:
    """``#rrggbb`` as an RGB triple."""
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def hex_centre(q: float, r: float, radius: float) -> tuple[float, float]:
    """The centre of axial cell ``(q, r)`` for hexagons of circumradius ``radius``, cell (0, 0) at the origin."""
    return radius * SQRT3 * (q + r / 2), radius * 1.5 * r


class Canvas:
    """A ``width`` x ``height`` RGB picture filled with ``background``; :attr:`pixels` is ``(height, width, 3)``."""

    def __init__(self, width: int, height: int, background: str) -> None:
        self.pixels: NDArray[np.uint8] = np.empty((height, width, 3), np.uint8)
        self.pixels[:] = colour(background)

    def _region(
        self, x: float, y: float, half_w: float, half_h: float
    ) -> tuple[slice, slice, NDArray[np.float64], NDArray[np.float64]] | None:
        """The pixels around ``(x, y)`` within the half sizes, and each one's distance from it along x and y."""
        height, width = self.pixels.shape[:2]
        x0, x1 = max(0, math.floor(x - half_w)), min(width, math.ceil(x + half_w) + 1)
        y0, y1 = max(0, math.floor(y - half_h)), min(height, math.ceil(y + half_h) + 1)
        if x0 >= x1 or y0 >= y1:
            return None
        dx = np.abs(np.arange(x0, x1) + 0.5 - x)[None, :]
        dy = np.abs(np.arange(y0, y1) + 0.5 - y)[:, None]
        return slice(y0, y1), slice(x0, x1), dx, dy

    def hexagon(self, x: float, y: float, radius: float, fill: str) -> None:
        """A pointy-topped hexagon of circumradius ``radius`` centred on ``(x, y)``."""
        half_w = radius * SQRT3 / 2
        region = self._region(x, y, half_w, radius)
        if region is not None:
            rows, cols, dx, dy = region
            self.pixels[rows, cols][(dx <= half_w) & (dy <= radius - dx / SQRT3)] = colour(fill)

    def disc(self, x: float, y: float, radius: float, fill: str) -> None:
        """A disc of ``radius`` centred on ``(x, y)``."""
        region = self._region(x, y, radius, radius)
        if region is not None:
            rows, cols, dx, dy = region
            self.pixels[rows, cols][dx * dx + dy * dy <= radius * radius] = colour(fill)

    def text(self, x: float, y: float, text: str, height: float, ink: str) -> None:
        """``text`` (letters and digits of :data:`FONT`) centred on ``(x, y)``, about ``height`` pixels high."""
        scale = max(1, round(height / 7))
        glyphs = [np.kron(FONT[char], np.ones((scale, scale), bool)) for char in text]
        width = len(glyphs) * 6 * scale - scale
        left, top = round(x - width / 2), round(y - 7 * scale / 2)
        for i, glyph in enumerate(glyphs):
            self._stamp(left + i * 6 * scale, top, glyph, ink)

    def _stamp(self, left: int, top: int, shape: NDArray[np.bool_], ink: str) -> None:
        height, width = self.pixels.shape[:2]
        y0, x0 = max(0, top), max(0, left)
        y1, x1 = min(height, top + shape.shape[0]), min(width, left + shape.shape[1])
        if x0 < x1 and y0 < y1:
            part = shape[y0 - top : y1 - top, x0 - left : x1 - left]
            self.pixels[y0:y1, x0:x1][part] = colour(ink)


__all__ = ["FONT", "SQRT3", "Canvas", "colour", "hex_centre"]
