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

    @staticmethod
    def from_code(code: int) -> Move:
        """The move of the core's int encoding ``code`` (one shared value per code)."""
        return _MOVES[code]

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


#: The most moves kept by :data:`_MOVES` before it starts again (a few hundred bytes each).
INTERN_LIMIT = 1 << 18


class _Interned(dict[int, Move]):
    """One :class:`Move` per code, made on first use: moves are values, so sharing them is safe, and a legal-move
    list then costs a dict lookup per move instead of an object."""

    def __missing__(self, code: int) -> Move:
        if len(self) >= INTERN_LIMIT:
            self.clear()
        move = object.__new__(Move)
        move.code = code
        self[code] = move
        return move


_MOVES = _Interned()
Move.PASS = Move.from_code(PASS)


class LegalMoveGenerator:
    """The legal moves of a board, generated when iterated (like python-chess)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return map(_MOVES.__getitem__, self.board._legal())

    def __len__(self) -> int:
        return len(self.board._legal())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self.board._legal())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(self.board.uhp(m) for m in self)})>"
