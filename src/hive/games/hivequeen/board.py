"""The public HiveQueen board: the game protocol's verbs, turns as values, legality with reasons, notation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

from ...game import (
    DRAW,
    FIRST_WINS,
    IN_PROGRESS,
    IllegalMoveError,
    InvalidMoveError,
    InvalidRecordError,
    Outcome,
    Termination,
    text_argument,
)
from ...gameboard import GameBoard
from . import endings, position_record
from .geometry import RADIUS, cell_at
from .move import LegalTurns, Production, Turn
from .notation import named_cell, read_turn, turn_text
from .position import Position
from .rules import COLOUR_NAMES, LETTERS
from .state import (
    END,
    PRODUCTION,
    STATE_NAMES,
    production_cell,
    production_kind,
)
from .turns import list_turns, play_partial

__all__ = ["GAME_NAME", "Board", "IllegalMoveError", "InvalidMoveError", "LegalTurns", "Production", "Turn"]

#: The game's name in records and for :func:`hive.find_game`.
GAME_NAME = "HiveQueen"


class Board(Position, GameBoard[Turn]):
    """A HiveQueen game: the field, the turns played, legal turns, notation.

    >>> from hive.games.hivequeen import Board
    >>> board = Board()
    >>> turn = board.push_text("Wc3-c4;+Sd4")
    >>> board.turn_name, board.units
    ('North', [25, 24])
    """

    __reduce__ = GameBoard.__reduce__  # before the compiled core's, which cannot pickle its C arrays

    sides: ClassVar[tuple[str, str]] = COLOUR_NAMES
    state_names: ClassVar[tuple[str, ...]] = STATE_NAMES
    #: The game's name (what :func:`hive.find_game` knows it by).
    game_name = GAME_NAME

    def __init__(self, setup: bool = True) -> None:
        super().__init__(setup)
        self._turn_starts: list[int] = []
        self._init_texts()
        # the turn parse_move checked last, and where: push plays it without checking it again
        self._checked: tuple[int, int, Turn] | None = None
        # the legal turns of the position at (history length, hash), made once a position
        self._kept_turns: tuple[int, int, list[Turn]] | None = None
        #: the position record the board was set up from (``None``: the usual setup)
        self._start: str | None = None

    @classmethod
    def from_pieces(cls, pieces: Mapping[str, str], turn: int = 0, quiet: int = 0) -> Board:
        """A position from cell names to piece letters, South upper case and North lower case
        (``{"c1": "Q", "g9": "q"}``), with ``turn`` (0 South, 1 North) to move after ``quiet`` turns without a
        capture (the turn number is the first that leaves room for them).

        :raises ~hive.game.InvalidMoveError: naming a bad cell or letter.
        """
        board = cls(setup=False)
        for name, letter in pieces.items():
            cell = named_cell(name, name)
            if len(letter) != 1 or letter.upper() not in LETTERS[1:]:
                raise InvalidMoveError(f"{letter!r} on {name} is not a piece letter (Q H D N W S, North lower case)")
            board.put(cell, LETTERS.index(letter.upper()) | (8 if letter.islower() else 0))
        board.ply = turn + 2 * max(0, (quiet - turn + 1) // 2)  # the turns without a capture were played
        board.quiet = quiet
        board.reset()
        board._start = board.position_text()  # its record starts from this position, not the usual setup
        return board

    def copy(self) -> Board:
        """An independent copy with the same position and history."""
        other = Board(setup=False)
        self.copy_state_to(other)
        self.copy_history_to(other)
        other._turn_starts = list(self._turn_starts)
        other._init_texts(self._texts)
        other._start = self._start
        return other

    def position_text(self) -> str:
        """The position as a position record (see :mod:`hive.games.hivequeen.position_record`), e.g.
        ``Position;HiveQueen;North[12];Qc1 Wa1;Qg9 Wi9;quiet=3``."""
        return position_record.write(self)

    @classmethod
    def from_position(cls, text: str) -> Board:
        """A new board at the position recorded by ``text`` (see :mod:`hive.games.hivequeen.position_record`), no turn
        played.

        :raises InvalidPositionError: quoting the bad text and naming the rule it breaks.
        """
        board = cls(setup=False)
        position_record.set_up(board, text)
        board._start = board.position_text()
        return board

    # ------------------------------------------------------------------
    # state

    @property
    def turn_name(self) -> str:
        """``South`` or ``North``."""
        return COLOUR_NAMES[self.ply & 1]

    def outcome(self) -> Outcome | None:
        """How the game ended (a Queen lost, no movement, units, repetition, the turn limit), or ``None``."""
        return endings.outcome_of(self)

    def adjudicate(self) -> Outcome:
        """The outcome of a game stopped here: the rules' own if it is over, else units decide (as the rules do at
        their turn limit)."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome
        status = self.units_decision()
        winner = None if status == DRAW else status - FIRST_WINS
        return Outcome(Termination.ADJUDICATION, winner, self.sides, f"units {self.units[0]}-{self.units[1]}")

    def could_win(self, side: int) -> bool:
        """Whether ``side`` could still win by some series of legal turns of both players (see
        :func:`hive.games.hivequeen.endings.could_win`)."""
        return endings.could_win(self, side)

    def end_reason(self) -> str:
        """Why the game ended (empty while it goes on)."""
        outcome = self.outcome()
        return "" if outcome is None else outcome.reason

    def piece_at(self, cell: int) -> tuple[int, int] | None:
        """``(colour, kind)`` of the piece on ``cell``, or ``None``."""
        code = self.board[cell]
        return (code >> 3, code & 7) if code else None

    def turns(self) -> list[Turn]:
        """The turns played, oldest first."""
        out = []
        starts = [*self._turn_starts, len(self.history)]
        for i in range(len(self._turn_starts)):
            out.append(Turn.from_steps(self.history[starts[i] : starts[i + 1]]))
        return out

    # ------------------------------------------------------------------
    # legal turns

    @property
    def legal_movements(self) -> list[Turn]:
        """Every legal movement of the side to move (a turn without productions)."""
        if self.phase != PRODUCTION:
            return [Turn.from_steps([s]) for s in self.movements()] if self.status == IN_PROGRESS else []
        return []

    def production_options(self, turn: Turn) -> list[Production]:
        """The productions that may follow ``turn`` (a movement and the productions chosen so far).

        :raises ~hive.game.IllegalMoveError: when ``turn`` itself is illegal.
        """
        depth = play_partial(self, turn)
        try:
            if self.phase != PRODUCTION or self.ply != self.ply_before(depth):
                return []
            return [Production(production_kind(s), production_cell(s)) for s in self.productions() if s != END]
        finally:
            for _ in range(depth):
                self.unmake()

    def legal_turns(self) -> Iterator[Turn]:
        """Every legal whole turn, each set of productions once (there can be tens of thousands), movement by
        movement, each movement before the turns that add productions to it. The turns are listed once a position
        and kept until the board changes, so a loop over them may push and pop."""
        return iter(self._turn_list())

    def _turn_list(self) -> list[Turn]:
        """:meth:`legal_turns` as the list the board keeps for its position (not to be changed)."""
        kept = self._kept_turns
        if kept is not None and kept[0] == len(self.history) and kept[1] == self.hash:
            return kept[2]
        turns = list_turns(self)
        self._kept_turns = (len(self.history), self.hash, turns)
        return turns

    def is_legal(self, turn: Turn) -> bool:
        """Whether ``turn`` may be played now (a turn found legal is pushed next without checking it again)."""
        try:
            depth = play_partial(self, turn)
        except IllegalMoveError:
            return False
        for _ in range(depth):
            self.unmake()
        self._checked = (len(self.history), self.hash, turn)
        return True

    def push(self, turn: Turn, text: str | None = None) -> None:
        """Play a whole turn (checked, unless :meth:`parse_move` has just checked it here); ``text``, its notation as
        :meth:`move_text` wrote it here, is kept for the record.

        :raises ~hive.game.IllegalMoveError: naming the rule the turn breaks.
        """
        if not isinstance(turn, Turn):
            raise InvalidMoveError(f"Board.push takes a Turn, not {type(turn).__name__}.")
        start, ply = len(self.history), self.ply
        checked = self._checked
        if checked is not None and checked[0] == start and checked[1] == self.hash and checked[2] == turn:
            self._repush(turn)
        else:
            play_partial(self, turn)
            self._close_turn(start, ply)
        if text is not None:
            self._pushed(len(self._turn_starts) - 1, turn, text)

    def _repush(self, turn: Turn) -> None:
        start, ply = len(self.history), self.ply
        for step in turn.steps():
            self.make(step)
        self._close_turn(start, ply)

    def _close_turn(self, start: int, ply: int) -> None:
        """End the turn whose steps start at ``start`` (``END`` where productions were still possible)."""
        if self.ply == ply and self.status == IN_PROGRESS:
            self.make(END)
        self._turn_starts.append(start)
        self._checked = None

    def pop(self) -> Turn:
        """Take back the last whole turn and return it.

        :raises IndexError: when no turn has been played.
        """
        if not self._turn_starts:
            raise IndexError("pop from a board with no turns played")
        start = self._turn_starts.pop()
        turn = Turn.from_steps(self.history[start:])
        while len(self.history) > start:
            self.unmake()
        self._popped(len(self._turn_starts))
        return turn

    @property
    def move_stack(self) -> list[Turn]:
        """The turns played, oldest first."""
        return self.turns()

    @property
    def legal_moves(self) -> LegalTurns:
        """The legal whole turns (see :meth:`legal_turns`)."""
        return LegalTurns(self)

    # ------------------------------------------------------------------
    # notation

    def move_text(self, turn: Turn) -> str:
        """The notation of ``turn`` in this position, e.g. ``Ha1xa5``, ``Hb1=Q`` or ``Wc3-c4;+Sd4``."""
        return turn_text(self, turn)

    def parse_move(self, text: str) -> Turn:
        """Read a turn in this position's notation and check it.

        :raises ~hive.game.InvalidMoveError: for malformed text (naming it).
        :raises ~hive.game.IllegalMoveError: for a turn against the rules (naming the rule).
        """
        turn = read_turn(self, text)
        try:
            depth = play_partial(self, turn)
        except IllegalMoveError as err:
            raise IllegalMoveError(f"{text!r}: {err}") from None
        for _ in range(depth):
            self.unmake()
        self._checked = (len(self.history), self.hash, turn)
        return turn

    def push_text(self, text: str) -> Turn:
        """Parse and play a turn, keeping its notation as :meth:`move_text` writes it; returns it."""
        turn = self.parse_move(text)
        self.push(turn, turn_text(self, turn))
        return turn

    def push_stored(self, text: str) -> Turn:
        """:meth:`push_text` for a turn of this game's own record, checked when it was played here: its steps made
        without listing the movements and productions (see :meth:`hive.game.Game.push_stored`); a turn the rules
        forbid is played as it reads.

        :raises ~hive.game.InvalidMoveError: for malformed text; :class:`~hive.game.IllegalMoveError` where it
            names a piece other than the one on its cell.
        """
        turn = read_turn(self, text)
        written = turn_text(self, turn)
        self._repush(turn)
        self._pushed(len(self._turn_starts) - 1, turn, written)
        return turn

    def record(self, headers: Mapping[str, str] | None = None) -> str:
        """The game's record: ``[Game "HiveQueen"]``, ``[Position ...]`` for a board set up from a position, the
        ``headers`` given, ``[Result ...]``, then one turn a line."""
        start = {} if self._start is None else {"Position": self._start}
        values = {"Game": GAME_NAME, **start, **(headers or {}), "Result": self.state}
        lines = [f'[{key} "{_escape(value)}"]' for key, value in values.items()]
        return "\n".join([*lines, *self.move_texts()]) + "\n"

    @classmethod
    def from_record(cls, text: str) -> Board:
        """The board at the end of the single record ``text`` (see :mod:`hive.games.hivequeen.records`); a record
        that starts from a position (a ``[Position "..."]`` header, or a position record on its first line) is
        replayed from it.

        :raises InvalidRecordError: naming the first problem.
        """
        from .records import read_record

        text = text_argument(text, "a HiveQueen record", InvalidRecordError)
        return position_record.read_record(cls, text) or read_record(text)

    # ------------------------------------------------------------------
    # pictures

    def __str__(self) -> str:
        lines = []
        for r in range(-RADIUS, RADIUS + 1):
            row = []
            for q in range(-RADIUS, RADIUS + 1):
                cell = cell_at(q, r)
                if cell >= 0:
                    code = self.board[cell]
                    letter = LETTERS[code & 7] if code else "."
                    row.append(letter.lower() if code >> 3 else letter)
            lines.append(f"{5 - r} " + " " * abs(r) + " ".join(row))
        south, north = self.units
        lines.append(
            f"units South {south}/{self.capacity(0)}, North {north}/{self.capacity(1)}; "
            + (f"{self.turn_name} to move" if self.status == IN_PROGRESS else self.state)
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<hivequeen.Board {self.state} {self.turn_name} to move, turn {self.ply + 1}>"

    def _repr_svg_(self) -> str:
        from .svg import board_svg

        return board_svg(self)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
