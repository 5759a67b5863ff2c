"""Hive's moves as values, and the lazy list of a board's legal moves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .errors import InvalidMoveError
from .geometry import CELLS, axial_of
from .pieces import PIECE_IDS, PIECE_NAMES, PIECES
from .state import HAND, PASS, destination_of, encode, origin_of, piece_of

if TYPE_CHECKING:
    from .board import Board


class Move:
    """A move: a piece from an origin cell (``None`` when placed from hand) to a destination cell.

    Moves are values: equal iff same piece, origin and destination, and hashable.
    The pass move is ``Move.PASS`` (false in a boolean context). Cells are ids on the
    board's grid (see :func:`hive.cell_of`); a move is meaningful for the position it was made for.
    """

    __slots__ = ("code",)

    PASS: Move

    def __init__(self, piece: str | int, origin: int | None, destination: int) -> None:
        """:raises InvalidMoveError: naming a piece that is neither a UHP name nor a piece id (0..27), or a cell
        that is not a cell id (0..1023; see :func:`hive.cell_of`)."""
        pid = PIECE_IDS.get(piece.lower(), -1) if isinstance(piece, str) else piece if type(piece) is int else -1
        if not 0 <= pid < PIECES:
            raise InvalidMoveError(f"Unknown piece {piece!r}: expected a piece's name such as 'wS1' or an id 0..27.")
        for name, cell in (("origin", origin), ("destination", destination)):
            if not (cell is None and name == "origin") and not (type(cell) is int and 0 <= cell < CELLS):
                raise InvalidMoveError(f"Invalid {name} {cell!r}: expected a cell id 0..{CELLS - 1} (see cell_of).")
        self.code = encode(pid, HAND if origin is None else origin, destination)

    @classmethod
    def from_code(cls, code: int) -> Move:
        """Wrap the core's int encoding of a move."""
        move = cls.__new__(cls)
        move.code = code
        return move

    @property
    def is_pass(self) -> bool:
        return self.code == PASS

    @property
    def piece_id(self) -> int:
        """The piece's id (0..27), -1 for a pass."""
        return -1 if self.code == PASS else piece_of(self.code)

    @property
    def piece(self) -> str | None:
        """The piece's UHP name, e.g. ``"wA1"``; ``None`` for a pass."""
        return None if self.code == PASS else PIECE_NAMES[piece_of(self.code)]

    @property
    def origin(self) -> int | None:
        """The cell the piece leaves, ``None`` for a placement or a pass."""
        src = origin_of(self.code)
        return None if self.code == PASS or src == HAND else src

    @property
    def destination(self) -> int | None:
        """The cell the piece ends on, ``None`` for a pass."""
        return None if self.code == PASS else destination_of(self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __bool__(self) -> bool:
        return self.code != PASS

    def __repr__(self) -> str:
        if self.code == PASS:
            return "Move.PASS"
        src = self.origin
        where = "hand" if src is None else str(axial_of(src))
        return f"<Move {self.piece} {where} -> {axial_of(destination_of(self.code))}>"


Move.PASS = Move.from_code(PASS)


class LegalMoveGenerator:
    """The legal moves of a board, generated when iterated (like python-chess)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return (Move.from_code(code) for code in self.board.generate())

    def __len__(self) -> int:
        return len(self.board.generate())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self.board.generate())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(self.board.uhp(m) for m in self)})>"
