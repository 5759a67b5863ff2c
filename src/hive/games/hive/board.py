"""The public Hive board: the game protocol's verbs, UHP notation, GameStrings and the hive's layout."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Mapping
from typing import ClassVar

from ...game import DRAW, InvalidPositionError, Outcome, Termination, text_argument
from ...gameboard import GameBoard
from ...position_records import is_position_record
from ...position_records import quoted as _quoted
from . import endings, movestrings, position_record
from .errors import (
    GameStringWarning,
    IllegalMoveError,
    InvalidGameStringError,
    InvalidGameTypeError,
    InvalidMoveError,
)
from .geometry import DIRECTIONS, MASK, NEIGHBOUR, SIZE, axial_of
from .move import Move, MovePosition
from .movestrings import MARKS
from .notation import GROUND_TAKEN, reference
from .pieces import COLOUR_NAMES, PIECE_NAMES, PIECES, PIECES_PER_COLOUR, GameType
from .reasons import PASS_GAME_OVER, PASS_WITH_MOVES, reason
from .state import (
    PASS,
    STATE_NAMES,
    WHITE_WINS,
    destination_of,
)

_TURN = re.compile(r"^(White|Black)\[(\d+)\]$", re.IGNORECASE)
_HALF = SIZE // 2


class Board(MovePosition, GameBoard[Move]):
    """A game of Hive: position, rules options, move history and UHP notation.

    Five of the protocol's verbs also answer to UHP's names, and these are the board's only aliases:
    :meth:`parse_uhp` (``parse_move``), :meth:`push_uhp` (``push_text``), :meth:`uhp` (``move_text``),
    :meth:`game_string` (``record``) and :meth:`from_game_string` (``from_record``).

    :param game_type: ``"Base"`` ... ``"Base+MLP"`` or a :class:`GameType`.
    :param tournament_opening: forbid placing the Queen on a player's first turn.
    :param repetition_draw: the third occurrence of a position is a draw.
    """

    rule_options = ("tournament_opening", "repetition_draw")

    __reduce__ = GameBoard.__reduce__  # before the compiled core's, which cannot pickle its C arrays

    sides: ClassVar[tuple[str, str]] = COLOUR_NAMES
    state_names: ClassVar[tuple[str, ...]] = STATE_NAMES

    def __init__(
        self,
        game_type: str | GameType = "Base+MLP",
        *,
        tournament_opening: bool = True,
        repetition_draw: bool = False,
    ) -> None:
        gt = game_type if isinstance(game_type, GameType) else GameType.parse(game_type)
        super().__init__(gt, tournament_opening, repetition_draw)
        self._init_texts()
        #: the position record the board was set up from (``None``: the start of the game)
        self._start: str | None = None

    # ------------------------------------------------------------------
    # game state

    @property
    def game_name(self) -> str:
        """The game type's name, e.g. ``Base+MLP`` (what :func:`hive.find_game` knows it by)."""
        return str(self.game_type)

    @property
    def turn_number(self) -> int:
        """The UHP turn number: 1 + plies // 2."""
        return 1 + self.ply // 2

    @property
    def turn_string(self) -> str:
        """UHP turn string, e.g. ``White[3]``."""
        return f"{COLOUR_NAMES[self.ply & 1]}[{1 + self.ply // 2}]"

    def outcome(self) -> Outcome | None:
        """How the game ended (a Queen Bee surrounded, both, or a repetition), or ``None`` while it goes on."""
        if self.status < DRAW:
            return None
        if self.status == DRAW:
            queens = (self.pos[0], self.pos[PIECES_PER_COLOUR])
            surrounded = all(cell >= 0 and self.nmask[cell] == 63 for cell in queens)
            return (endings.BOTH_QUEENS_SURROUNDED if surrounded else endings.REPETITION)(None, self.sides)
        return endings.QUEEN_SURROUNDED(0 if self.status == WHITE_WINS else 1, self.sides)

    def adjudicate(self) -> Outcome:
        """The outcome of a game stopped here: the rules' own if it is over, else a draw."""
        return self.outcome() or Outcome(Termination.ADJUDICATION, None, self.sides)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return list(map(Move.from_code, self.history))

    legal_moves = MovePosition.legal_moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played now (the legal moves are generated once per position for the checks of
        :meth:`is_legal`, :meth:`parse_move` and :meth:`push`)."""
        return self.has_move(move.code)

    def copy(self) -> Board:
        """Return an independent board with the same options and history."""
        options = {"tournament_opening": self.tournament_opening, "repetition_draw": self.repetition_draw}
        if self._start is not None:
            board = type(self).from_position(self._start, **options)
        else:
            board = type(self)(self.game_type, **options)
        for code in self.history:
            board.make(code)
        board._init_texts(self._texts)
        return board

    def __copy__(self) -> Board:
        return self.copy()

    # ------------------------------------------------------------------
    # push / pop

    # python-chess's loop over the children calls these for every child: compiled with the core (see
    # hive.games.hive.move.MovePosition), named here as the board's own
    push = MovePosition.push
    pop = MovePosition.pop

    def _repush(self, move: Move) -> None:
        self.make(move.code)

    def peek(self) -> Move:
        """The last move played."""
        return Move.from_code(self.history[-1])

    # ------------------------------------------------------------------
    # UHP notation

    def parse_move(self, text: str) -> Move:
        """Parse a UHP MoveString in this position and check it is legal.

        :raises InvalidMoveError: when the text is not a MoveString.
        :raises IllegalMoveError: when it describes a move against the rules (the message names the rule).
        """
        code, climbing = movestrings.read(self, text)
        if code == PASS:
            if self.status >= DRAW:
                raise IllegalMoveError(PASS_GAME_OVER)
            if not self.has_move(PASS):
                raise IllegalMoveError(PASS_WITH_MOVES)
            return Move.PASS
        # A reference with a direction names a ground cell; climbing is written "piece ref".
        if code >= GROUND_TAKEN or not self.has_move(code):
            raise IllegalMoveError(reason(self, code % GROUND_TAKEN, climbing))
        return Move.from_code(code)

    def push_text(self, text: str) -> Move:
        """Parse a MoveString, play it, and return the move. The record keeps the MoveString as it was given where
        it is written as the notation writes one (whichever piece it names as the reference), or else as
        :meth:`move_text` writes it (``bs1  ws1-`` is kept as ``bS1 wS1-``)."""
        return self._played(self.parse_move(text), text)

    def push_stored(self, text: str) -> Move:
        """:meth:`push_text` for a MoveString of this game's own record, checked when it was played here: read to
        its move without listing the legal moves (see :meth:`hive.game.Game.push_stored`). A move the rules
        forbid is played as it reads; one the tables cannot hold raises :class:`ValueError`.

        :raises InvalidMoveError: when the text is not a MoveString, or names a taken cell beside its reference.
        """
        code, _ = movestrings.read(self, text)
        if code >= GROUND_TAKEN:
            raise InvalidMoveError(f"Invalid MoveString {_quoted(text)}: it names a taken cell.")
        return self._played(Move.from_code(code), text)

    def _played(self, move: Move, text: str) -> Move:
        """Play ``move``, read from ``text``, unchecked, keeping the text as :meth:`push_text` says."""
        written = text if movestrings.as_written(text) else self.move_text(move)
        self.make(move.code)
        self._pushed(len(self.history) - 1, move, written)
        return move

    def move_text(self, move: Move) -> str:
        """The MoveString of a move in this position (the move need not be checked)."""
        code = move.code
        ref = -1 if code == PASS else reference(self, code)
        if ref == -2:
            raise IllegalMoveError(f"Move {move!r} is not a move of this game.")
        if code == PASS:
            text = "pass"
        elif self.ply == 0:
            text = PIECE_NAMES[code & 31]
        elif ref < 0:
            raise IllegalMoveError(f"Move {move!r} has no reference piece in this position.")
        elif ref & 7 == 6:
            text = f"{PIECE_NAMES[code & 31]} {PIECE_NAMES[ref >> 3]}"
        else:
            text = f"{PIECE_NAMES[code & 31]} " + MARKS[ref & 7].format(PIECE_NAMES[ref >> 3])
        return text

    def record(self, headers: Mapping[str, str] | None = None) -> str:
        """The UHP GameString of the game so far (a GameString has no headers: ``headers`` are left out); for a
        board set up with :meth:`from_position`, that position's record followed by the moves played since."""
        if self._start is not None:
            return ";".join([self._start, *self.move_texts()])
        return ";".join([str(self.game_type), self.state, self.turn_string, *self.move_texts()])

    def position_text(self) -> str:
        """The current position as a position record (see :mod:`hive.games.hive.position_record`), e.g.
        ``Position;Base;Black[1];wS1@0,0;last=wS1``."""
        return position_record.write(self)

    @classmethod
    def from_position(cls, text: str, *, tournament_opening: bool = True, repetition_draw: bool = False) -> Board:
        """A new board at the position recorded by ``text`` (see :mod:`hive.games.hive.position_record`), no move
        played.

        :raises InvalidPositionError: quoting the bad text and naming the rule, also for moves after the position
            (:meth:`from_record` reads those).
        """
        found, moves = position_record.read(text, tournament_opening)
        if any(moves):
            raise InvalidPositionError(
                f"Invalid position: {_quoted(moves[0])} follows the position; Board.from_record reads moves after it."
            )
        return cls._set_up(found, tournament_opening, repetition_draw)

    @classmethod
    def _set_up(cls, found: position_record.RecordedPosition, tournament_opening: bool, repetition_draw: bool) -> Board:
        board = cls(found.game_type, tournament_opening=tournament_opening, repetition_draw=repetition_draw)
        position_record.set_up(board, found)
        board._start = board.position_text()
        return board

    @classmethod
    def from_record(
        cls, text: str, *, tournament_opening: bool = True, repetition_draw: bool = False, strict: bool = True
    ) -> Board:
        """Replay a UHP GameString (``GameType;State;Turn;move;...``), checking every move; or a position record
        followed by the moves played from it (``Position;...;move;...``, see :meth:`from_position`).

        A bare game type is accepted too. The position comes from the moves, and the state and turn tokens must be
        where the moves lead; with ``strict=False`` they are checked for form only, and a contradiction is a
        :class:`GameStringWarning` (as other programs write ``Base;NotStarted;White[1]`` before their moves).

        :raises InvalidGameStringError: naming the header token that failed, or that contradicts the moves.
        :raises InvalidPositionError: quoting the part of a position record that failed and naming the rule.
        :raises InvalidMoveError, IllegalMoveError: naming the move token that failed.
        """
        if is_position_record(text_argument(text, "a GameString", InvalidGameStringError)):
            found, moves = position_record.read(text, tournament_opening)
            board = cls._set_up(found, tournament_opening, repetition_draw)
            return board._replay(moves, text.count(";") - len(moves) + 2)
        tokens = [t.strip() for t in text.strip().split(";")]
        try:
            game_type = GameType.parse(tokens[0])
        except InvalidGameTypeError as err:
            raise InvalidGameStringError(f"Invalid GameString: token 1 {_quoted(tokens[0])}: {err}") from None
        if len(tokens) > 1 and tokens[1] not in STATE_NAMES:
            raise InvalidGameStringError(
                f"Invalid GameString: token 2 {_quoted(tokens[1])} is not a game state ({', '.join(STATE_NAMES)})."
            )
        if len(tokens) == 2 or (len(tokens) > 2 and not _TURN.match(tokens[2])):
            bad = tokens[2] if len(tokens) > 2 else ""
            raise InvalidGameStringError(
                f"Invalid GameString: token 3 {_quoted(bad)} is not a turn such as 'White[1]'."
            )
        board = cls(game_type, tournament_opening=tournament_opening, repetition_draw=repetition_draw)
        board._replay(tokens[3:], 4)
        contradiction = board._contradiction(tokens)
        if contradiction is not None:
            if strict:
                raise InvalidGameStringError(f"Invalid GameString: {contradiction}")
            warnings.warn(f"GameString: {contradiction}", GameStringWarning, stacklevel=2)
        return board

    def _contradiction(self, tokens: list[str]) -> str | None:
        """How a GameString's state or turn token contradicts where its moves lead, if it does."""
        if len(tokens) > 1 and tokens[1] != self.state:
            return (
                f"it says the game is {tokens[1]}, but its moves leave it {self.state} ({self.turn_string}); "
                "correct or remove token 2."
            )
        if len(tokens) > 2 and tokens[2].lower() != self.turn_string.lower():
            played = len(self.history)
            return (
                f"it says {tokens[2]}, but after its {played} move{'' if played == 1 else 's'} it is "
                f"{self.turn_string}; correct token 3."
            )
        return None

    def _replay(self, tokens: list[str], first: int) -> Board:
        """Play the MoveStrings ``tokens`` of a record, the first of them its token number ``first``."""
        for index, token in enumerate(tokens, start=first):
            if not token:
                continue
            try:
                self.push_text(token)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise type(err)(f"GameString token {index} {_quoted(token)} (move {self.ply + 1}): {err}") from None
        return self

    # UHP's names for the protocol's verbs: the only aliases (see the class's docstring)
    parse_uhp = parse_move
    push_uhp = push_text
    uhp = move_text
    game_string = record
    from_game_string = from_record

    # ------------------------------------------------------------------
    # the hive as pieces and coordinates

    def stack(self, cell: int) -> list[int]:
        """The ids of the pieces on ``cell``, bottom first (empty for an empty cell)."""
        out = []
        pid = self.top[cell]
        while pid >= 0:
            out.append(pid)
            pid = self.below[pid]
        out.reverse()
        return out

    def layout(self, extra: Iterable[int] = ()) -> dict[int, tuple[int, int]]:
        """Axial coordinates ``(q, r)`` of the occupied cells, and of the cells in ``extra``, in one frame for the
        whole game: the grid's own coordinates (wrapped to -16..15) of the first piece played, the rest by a walk
        over the hive, which is connected even where the grid wraps around.

        A cell of ``extra`` is placed beside an occupied neighbour, else at its shortest offset from the hive.
        """
        first = destination_of(self.history[0]) if self.history else -1
        if first < 0 or not self.height[first]:
            first = next((self.pos[p] for p in range(PIECES) if self.pos[p] >= 0), -1)
        coords: dict[int, tuple[int, int]] = {}
        if first >= 0:
            coords[first] = _wrapped(first)
            todo = [first]
            while todo:
                cell = todo.pop()
                q, r = coords[cell]
                for d, (dq, dr) in enumerate(DIRECTIONS):
                    n = NEIGHBOUR[cell * 6 + d]
                    if self.height[n] and n not in coords:
                        coords[n] = (q + dq, r + dr)
                        todo.append(n)
        for cell in extra:
            if cell in coords:
                continue
            for d, (dq, dr) in enumerate(DIRECTIONS):
                n = NEIGHBOUR[cell * 6 + d]
                if n in coords and self.height[n]:
                    q, r = coords[n]
                    coords[cell] = (q - dq, r - dr)
                    break
            else:
                if first < 0:
                    coords[cell] = _wrapped(cell)
                    continue
                (q1, r1), (q0, r0), (aq, ar) = axial_of(cell), axial_of(first), coords[first]
                coords[cell] = (aq + (q1 - q0 + _HALF) % SIZE - _HALF, ar + (r1 - r0 + _HALF) % SIZE - _HALF)
        return coords

    # ------------------------------------------------------------------
    # pictures

    def __str__(self) -> str:
        from .render import render

        return render(self)

    def __repr__(self) -> str:
        return f"Board.from_game_string({self.game_string()!r})"

    def _repr_svg_(self) -> str:
        from .svg import board

        return board(self, last_move=self.peek() if self.history else None)


def _wrapped(cell: int) -> tuple[int, int]:
    q, r = axial_of(cell)
    return ((q + _HALF) & MASK) - _HALF, ((r + _HALF) & MASK) - _HALF
