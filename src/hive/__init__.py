"""Hive, the board game: an exact, fast rules library with UHP notation, and the games beside it.

>>> import hive
>>> board = hive.Board("Base+MLP")
>>> move = board.push_uhp("wG1")
>>> len(board.legal_moves)
42
>>> queen_game = hive.find_game("hivequeen")()
>>> queen_game.turn, queen_game.outcome()
(0, None)
"""

import os

from . import _build

if os.environ.get("HIVE_PURE", "") not in ("", "0"):
    _build.force_pure()

from .game import Ending, Game, InvalidPositionError, InvalidRecordError, Outcome, Termination, UnknownGameError
from .games import GAMES, find_game
from .games.hive import (
    BLACK,
    GAME_TYPES,
    PIECE_NAMES,
    WHITE,
    Board,
    GameStringWarning,
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
from .games.hive import position as _position
from .plugin import GamePlugin, GameSpec
from .search import Limits, SearchResult

__version__ = "0.1.0"

#: Whether the hot core runs as compiled extension modules (``False``: plain Python, e.g. ``HIVE_PURE=1``).
COMPILED: bool = _position.COMPILED
#: ``"compiled"`` or ``"pure Python"``, as shown by ``hive --version``.
BUILD = "compiled" if COMPILED else "pure Python"


def perft(board: Position, depth: int) -> int:
    """Count the positions ``depth`` plies below ``board`` (a pass counts as a move, a finished game has none)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    return board.perft(depth)


__all__ = [
    "BLACK",
    "BUILD",
    "COMPILED",
    "GAMES",
    "GAME_TYPES",
    "PIECE_NAMES",
    "WHITE",
    "Board",
    "Ending",
    "Game",
    "GamePlugin",
    "GameSpec",
    "GameStringWarning",
    "GameType",
    "IllegalMoveError",
    "InvalidGameStringError",
    "InvalidGameTypeError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "LegalMoveGenerator",
    "Limits",
    "Move",
    "Outcome",
    "Position",
    "SearchResult",
    "Termination",
    "UnknownGameError",
    "__version__",
    "axial_of",
    "cell_of",
    "find_game",
    "perft",
]
