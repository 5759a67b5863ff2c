"""Hive, the board game: an exact, fast rules library with UHP notation.

>>> import hive
>>> board = hive.Board("Base+MLP")
>>> move = board.push_uhp("wG1")
>>> len(board.legal_moves)
42
"""

import os

from . import _build

if os.environ.get("HIVE_PURE", "") not in ("", "0"):
    _build.force_pure()

from . import svg
from .core import (
    BLACK,
    GAME_TYPES,
    PIECE_NAMES,
    WHITE,
    Board,
    GameType,
    IllegalMoveError,
    InvalidGameStringError,
    InvalidGameTypeError,
    InvalidMoveError,
    LegalMoveGenerator,
    Move,
    Position,
    axial_of,
    cell_of,
)
from .core import position as _position

__version__ = "0.1.0"

#: Whether the hot core runs as compiled extension modules (``False``: plain Python, e.g. ``HIVE_PURE=1``).
COMPILED: bool = _position.COMPILED
#: ``"compiled"`` or ``"pure Python"``, as shown by ``hive --version``.
BUILD = "compiled" if COMPILED else "pure Python"

svg.install()


def perft(board: Position, depth: int) -> int:
    """Count the positions ``depth`` plies below ``board`` (a pass counts as a move, a finished game has none)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    return board.perft(depth)


__all__ = [
    "BLACK",
    "BUILD",
    "COMPILED",
    "GAME_TYPES",
    "PIECE_NAMES",
    "WHITE",
    "Board",
    "GameType",
    "IllegalMoveError",
    "InvalidGameStringError",
    "InvalidGameTypeError",
    "InvalidMoveError",
    "LegalMoveGenerator",
    "Move",
    "Position",
    "__version__",
    "axial_of",
    "cell_of",
    "perft",
]
