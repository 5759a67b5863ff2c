"""The rules of Hive: geometry, pieces, positions, legal moves and UHP notation.

This package imports nothing from the rest of the project.
"""

from .board import Board, LegalMoveGenerator, Move
from .errors import IllegalMoveError, InvalidGameStringError, InvalidGameTypeError, InvalidMoveError
from .geometry import axial_of, cell_of
from .pieces import BLACK, GAME_TYPES, PIECE_NAMES, WHITE, GameType
from .position import Position

__all__ = [
    "BLACK",
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
    "axial_of",
    "cell_of",
]
