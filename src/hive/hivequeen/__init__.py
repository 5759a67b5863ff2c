"""HiveQueen: L. Lynn Smith's "Hive" on a 61-cell field, with captures and production.

>>> from hive import hivequeen
>>> board = hivequeen.Board()
>>> board.push_move_string("Wc3-c4;+Sd4")
Turn(origin=45, destination=37, promote=False, productions=(Production(kind=6, cell=38),))
"""

from .board import Board, IllegalMoveError, InvalidMoveError, Production, Turn
from .geometry import CELLS, NAMES, cell_name, parse_cell
from .position import Position

__all__ = [
    "CELLS",
    "NAMES",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "Position",
    "Production",
    "Turn",
    "cell_name",
    "parse_cell",
]
