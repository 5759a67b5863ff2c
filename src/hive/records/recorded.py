"""The game record (headers, game type, moves, result, final position) and the two texts it writes of itself:
PGN and the UHP GameString."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..games.hive import Board, GameType, Move
from ..position_records import is_position_record

#: The results a :class:`Game` can have (UHP game states, ``InProgress`` for an unfinished record).
RESULTS = ("InProgress", "Draw", "WhiteWins", "BlackWins")
#: The results of a finished game.
FINISHED = ("Draw", "WhiteWins", "BlackWins")
_PGN_ORDER = ("GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result")


class RecordFormatError(ValueError):
    """A file is not a game record of any known format."""


@dataclass(eq=False)
class RecordedGame:
    """One game record: headers, game type, moves, result and the final position.

    :ivar headers: PGN-style tags (``White``, ``Black``, ``Date``, ``Result``, ``GameType``, ...).
    :ivar game_type: the :class:`hive.GameType` the game is played with.
    :ivar moves: the UHP MoveStrings of the moves replayed (for SGF records, written by this library).
    :ivar result: ``WhiteWins``, ``BlackWins``, ``Draw`` or ``InProgress``; a finished position
        decides, otherwise the record's own result (resignation, agreed draw, ...).
    :ivar board: the position after the last move replayed.
    :ivar errors: what went wrong, e.g. ``"move 12 'bA1 bP': <rule>"``; empty for a good record.
    :ivar warnings: what the reader accepted although the record does not write it as this library does (a
        Boardspace numbering such as ``wM1``, a climb written with a direction, an ignored Boardspace event,
        a result dropped because the replay stopped early...); the moves are kept in the canonical form.
    """

    headers: dict[str, str] = field(default_factory=dict)
    game_type: GameType = field(default_factory=lambda: GameType(True, True, True))
    moves: list[str] = field(default_factory=list)
    result: str = "InProgress"
    board: Board = field(default_factory=Board)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> RecordedGame:
        """Make a record of the moves played on ``board`` (the board itself becomes the record's position)."""
        game = cls(dict(headers or {}), board.game_type, board.move_texts(), board.state, board)
        if game.result == "NotStarted":
            game.result = "InProgress"
        game.headers.setdefault("GameType", str(board.game_type))
        return game

    def mainline_moves(self) -> list[Move]:
        """The moves replayed, as :class:`hive.Move` values."""
        return self.board.move_stack

    @property
    def ok(self) -> bool:
        """True when every move of the record was read and is legal."""
        return not self.errors

    def game_string(self) -> str:
        """The UHP GameString of the moves replayed."""
        return write_game_string(self)

    def __str__(self) -> str:
        return write_pgn(self)

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return f"<RecordedGame {white} vs {black}, {self.game_type}, {len(self.moves)} moves, {self.result}>"


@dataclass(eq=False)
class RecordHeaders:
    """One game of a record file read without replaying its moves, for quick filtering (see
    :func:`hive.records.iter_headers`).

    :ivar number: the game's place in its file, from 1.
    :ivar headers: the tags the full read gives, except ``Result``: the result the record states (as one of
        :data:`RESULTS`), absent when it states none; the full read decides it from the final position.
    :ivar moves: the moves the record writes, counted without reading them (a forced pass that a Boardspace
        record leaves out is not counted).
    :ivar errors: what could not be read from the record's syntax or headers (no move is checked).
    """

    number: int
    headers: dict[str, str]
    moves: int
    errors: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return f"<RecordHeaders #{self.number} {white} vs {black}, {self.moves} moves>"


#: A filter on a game's headers, given as ``where=`` to a reader: only the games it accepts are replayed.
Where = Callable[[RecordHeaders], bool]


def write_game_string(game: RecordedGame) -> str:
    """The UHP GameString of the game (state and turn from the position after the moves); for a game set up from a
    position, its position record followed by the moves."""
    board = game.board
    record = board.record()
    if is_position_record(record):
        return record
    return ";".join([str(game.game_type), board.state, board.turn_string, *game.moves])


def write_pgn(game: RecordedGame) -> str:
    """The game as PGN in Mzinga's dialect: tags, numbered MoveStrings one per line, then the result.

    Reading the text back with :func:`hive.records.read_pgn` gives the same headers, moves and result.
    """
    headers = dict(game.headers)
    headers["GameType"] = str(game.game_type)
    headers["Result"] = game.result
    for key in ("Event", "Site", "Round", "White", "Black"):
        headers.setdefault(key, "")
    headers.setdefault("Date", "????.??.??")
    keys = [k for k in _PGN_ORDER if k in headers] + [k for k in headers if k not in _PGN_ORDER]
    lines = [f'[{key} "{_pgn_escape(headers[key])}"]' for key in keys]
    lines.append("")
    lines.extend(f"{number}. {text}" for number, text in enumerate(game.moves, start=1))
    lines.append("")
    lines.append(game.result)
    return "\n".join(lines) + "\n"


def _pgn_escape(value: str) -> str:
    if not value.isprintable():  # a header is one line: a line break in a value would end it
        value = " ".join(value.splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')
