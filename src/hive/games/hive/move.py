"""Hive's moves as values, the lazy list of a board's legal moves, and the board's verbs over them.

Compiled (see ``move.pxd``), a :class:`Move` is an extension type holding its int code, and a board's legal moves
become values without a dict lookup per move: a table of recently used moves, indexed by a hash of the code, stands
in front of the shared values of :data:`_MOVES`. :class:`MovePosition` is the compiled half of :class:`hive.Board`:
the verbs that python-chess's loop over the children calls for every child (``legal_moves``, ``push``, ``pop``), so
that a child costs no Python frame.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..._build import is_compiled
from .errors import IllegalMoveError, InvalidMoveError
from .geometry import CELLS, axial_of
from .pieces import PIECE_IDS, PIECE_NAMES, PIECES
from .position import Position
from .reasons import reason
from .state import HAND, PASS, destination_of, encode, origin_of, piece_of

if TYPE_CHECKING:
    from .board import Board


class _PassMove:
    """``Move.PASS``: the pass move (a class attribute that the compiled type, which is immutable, can hold)."""

    def __get__(self, instance: object, owner: type | None = None) -> Move:
        return _PASS_MOVE


class Move:
    """A move: a piece from an origin cell (``None`` when placed from hand) to a destination cell.

    Moves are values: equal iff same piece, origin and destination, and hashable.
    The pass move is ``Move.PASS`` (false in a boolean context). Cells are ids on the
    board's grid (see :func:`hive.cell_of`); a move is meaningful for the position it was made for.
    """

    __slots__ = ("code",)

    PASS = _PassMove()

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
        if _COMPILED and type(code) is int and _CODE_MIN <= code <= _CODE_MAX:
            return _shared(code)
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

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _move_of, (self.code,)

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self

    def __bool__(self) -> bool:
        return self.code != PASS

    def __repr__(self) -> str:
        if self.code == PASS:
            return "Move.PASS"
        code = self.code
        if not (0 <= code < 1 << 26 and piece_of(code) < PIECES and origin_of(code) <= HAND):
            return f"<Move of code {code}, not a move of Hive>"
        src = self.origin
        where = "hand" if src is None else str(axial_of(src))
        return f"<Move {self.piece} {where} -> {axial_of(destination_of(self.code))}>"


def _move_of(code: int) -> Move:
    """:meth:`Move.from_code` as a module function: what a pickled move is rebuilt with."""
    return Move.from_code(code)


#: Whether this module runs compiled (its ``.pxd`` types apply) or as plain Python.
COMPILED: bool = is_compiled(_move_of)
_COMPILED = COMPILED

#: The most moves kept by :data:`_MOVES` before it starts again (a few hundred bytes each).
INTERN_LIMIT = 1 << 18
#: The codes a move can hold (64 bits): the core's codes, and others that no position has as a legal move.
_CODE_MIN = -(1 << 63)
_CODE_MAX = (1 << 63) - 1


class _Interned(dict[int, Move]):
    """One :class:`Move` per code, made on first use: moves are values, so sharing them is safe, and a legal-move
    list then costs a dict lookup per move instead of an object."""

    def __missing__(self, code: int) -> Move:
        try:
            value = operator.index(code)
        except TypeError:
            raise _bad_code(code) from None
        if not _CODE_MIN <= value <= _CODE_MAX:
            raise _bad_code(code)
        if type(code) is not int:
            return self[value]
        if len(self) >= INTERN_LIMIT:
            self.clear()
        move = _new_move(value)
        self[value] = move
        return move


def _bad_code(code: object) -> InvalidMoveError:
    return InvalidMoveError(f"Invalid move code {code!r}: expected an int of 64 bits (see Position.generate).")


def _new_move(code: int) -> Move:
    """A new move of ``code``, made without the checks of :class:`Move`'s constructor."""
    move = Move.__new__(Move)
    move.code = code
    return move


_MOVES = _Interned()
_PASS_MOVE = _MOVES[PASS]
#: The table in front of :data:`_MOVES` in the compiled build: slot ``_slot_of(code)`` holds the last move hashed
#: there (a move of code -1 while empty), so that a look-up reads the table and the move it finds, whose code it
#: compares.
_SLOT_BITS = 15
_SLOT_HASH = 0x9E3779B1  # Fibonacci hashing: the top bits of the low 32 of code * 2^32 / golden ratio
_SLOT_SHIFT = 32 - _SLOT_BITS
_LOW_32 = 0xFFFFFFFF
_NO_MOVE = _MOVES[-1]
_SLOTS: list[Move] = [_NO_MOVE] * (1 << _SLOT_BITS)


def _slot_of(code: int) -> int:
    """The slot of :data:`_SLOTS` where the shared move of ``code`` is kept."""
    return (code * _SLOT_HASH & _LOW_32) >> _SLOT_SHIFT


def _shared(code: int) -> Move:
    """The shared move of ``code`` from :data:`_SLOTS` (put there from :data:`_MOVES` if it was not)."""
    move = _SLOTS[_slot_of(code)]
    if move.code != code:
        move = _fill_slot(code)
    return move


def _fill_slot(code: int) -> Move:
    """Put the shared move of ``code`` in its slot (out of the callers' hot paths) and return it."""
    move = _MOVES[code]
    _SLOTS[_slot_of(code)] = move
    return move


def moves_of(board: Position) -> list[Move]:
    """The legal moves of ``board`` as values, in the core's order (a new list; the codes are kept by the board)."""
    if not _COMPILED:
        return list(map(_MOVES.__getitem__, board.legal_codes()))
    n = board._keep()
    at = board._kept_at
    moves = [_NO_MOVE] * n
    for i in range(n):
        moves[i] = _shared(board._lists[at + i])
    return moves


#: The most moves a :class:`_KeptMoves` holds, so that one fits a block of CPython's small-object allocator (512
#: bytes); a :class:`_WideKeptMoves` holds up to :data:`_WIDE_ROOM`, and a longer list (far beyond any position of a
#: game) is iterated from a list of values.
_ITERATOR_ROOM = 120
_WIDE_ROOM = 256


class _KeptMoves:
    """The compiled build's iterator over a board's legal moves: a copy of the board's kept codes in a C array of the
    object (so that the board may push and pop while it runs, as a python-chess loop does), boxed one at a time
    as values, without a list in between."""

    def __init__(self) -> None:
        self._next = 0
        self._end = 0

    def __iter__(self) -> _KeptMoves:
        return self

    def __next__(self) -> Move:
        if self._next >= self._end:
            raise StopIteration
        code = self._codes[self._next]  # type: ignore[attr-defined]
        self._next += 1
        return _shared(code)


class _WideKeptMoves(_KeptMoves):
    """A :class:`_KeptMoves` of a position of more than :data:`_ITERATOR_ROOM` moves (too large for the small-object
    allocator: it comes from ``malloc``)."""

    def __next__(self) -> Move:
        if self._next >= self._end:
            raise StopIteration
        code = self._wide[self._next]  # type: ignore[attr-defined]
        self._next += 1
        return _shared(code)


def _kept_moves(board: Position, n: int) -> _KeptMoves:
    """An iterator over the first ``n`` of ``board``'s kept moves (compiled build)."""
    at = board._kept_at
    if n > _ITERATOR_ROOM:
        wide = _WideKeptMoves.__new__(_WideKeptMoves)
        for i in range(n):
            wide._wide[i] = board._lists[at + i]  # type: ignore[attr-defined]
        wide._end = n
        return wide
    moves = _KeptMoves.__new__(_KeptMoves)
    for i in range(n):
        moves._codes[i] = board._lists[at + i]  # type: ignore[attr-defined]
    moves._end = n
    return moves


class LegalMoveGenerator:
    """The legal moves of a board, generated when first asked for in a position (like python-chess)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        if not _COMPILED:
            return map(_MOVES.__getitem__, self.board.legal_codes())
        n = self.board._keep()
        if n > _WIDE_ROOM:
            return iter(moves_of(self.board))
        return _kept_moves(self.board, n)

    def __len__(self) -> int:
        return self.board._keep()

    def count(self) -> int:
        return self.board._keep()

    def __bool__(self) -> bool:
        return self.board._keep() != 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.board.has_move(move.code)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(self.board.uhp(m) for m in self)})>"


def _legal_moves(board: Position) -> LegalMoveGenerator:
    """``board``'s :class:`LegalMoveGenerator`, made without a call of the type."""
    moves = LegalMoveGenerator.__new__(LegalMoveGenerator)
    moves.board = board  # type: ignore[assignment]  # a Board: the only MovePosition made
    return moves


def _shared_move(code: int) -> Move:
    """:meth:`Move.from_code` of a code that the core played (an int of the core's range)."""
    if _COMPILED:
        return _shared(code)
    return _MOVES[code]


def _code_of(move: object) -> int:
    """The code of ``move``, an object that is not a :class:`Move` but may hold one's code."""
    try:
        code: int = move.code  # type: ignore[attr-defined]
    except AttributeError:
        raise InvalidMoveError(f"Board.push takes a Move, not {type(move).__name__}.") from None
    return code


class MovePosition(Position):
    """A :class:`~hive.games.hive.position.Position` played with :class:`Move` values: the verbs of
    :class:`hive.Board` that python-chess's loop over the children calls for every child, compiled with the core.

    ``_texts`` is the list of moves and their texts that :class:`hive.gameboard.GameBoard` keeps for the record
    (declared in ``move.pxd``, so that :meth:`pop` reads it without a dict lookup).
    """

    _texts: list[tuple[Move, str]]

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves here, generated when first asked for in a position (like python-chess's)."""
        return _legal_moves(self)

    def push(self, move: Move, text: str | None = None) -> None:
        """Play a legal move; ``text``, its MoveString as :meth:`move_text` wrote it here, is kept for the record.

        :raises IllegalMoveError: naming the rule, when the move is not legal here.
        """
        _play(self, move)
        if text is not None:
            self._pushed(len(self.history) - 1, move, text)  # type: ignore[attr-defined]

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: when no move has been played.
        """
        return _take_back(self)


def _play(board: MovePosition, move: Move) -> None:
    """:meth:`MovePosition.push` without its text: play ``move`` if it is legal on ``board``."""
    if isinstance(move, Move):
        known = move
        code = known.code
    else:
        code = _code_of(move)
    if not board.has_move(code):
        raise IllegalMoveError(reason(board, code, False))
    board.make(code)


def _take_back(board: MovePosition) -> Move:
    """:meth:`MovePosition.pop`: take back the last move on ``board``, drop its text if one was kept, return it."""
    if not board.history:
        raise IndexError("pop from a board with no moves played")
    code = board.unmake()
    played = len(board.history)
    if played < len(board._texts):
        board._popped(played)  # type: ignore[attr-defined]
    return _shared_move(code)
