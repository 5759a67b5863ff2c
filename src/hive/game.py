"""The game protocol: the verbs every game's board answers to, and the vocabulary the apps share.

In the manner of python-chess's variants, every game the project plays (Hive with its expansions, HiveQueen) has a
board class with the same verbs, so that the arena, the browser app, the command line and the UHP engine are
written once::

    import hive

    board = hive.find_game("Base+MLP")()          # or hive.find_game("hivequeen")()
    move = next(iter(board.legal_moves))
    text = board.move_text(move)                    # the game's own notation
    board.push(move, text)                          # the text kept for the record
    board.pop()
    board.push_text(text)
    print(board.turn, board.outcome(), board.record())

A game ends by its own rules: :meth:`Game.outcome` says how (an :class:`Outcome`), in one place per game. Apps end
games in other ways too (resignation, agreement, a move limit, an engine that fails): they say so with the same
:class:`Outcome`.

This module holds no game and imports none: games depend on it, never the other way round.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from typing import Self

#: Status codes kept by the compiled cores and read by the search: a game at or above ``DRAW`` is over.
NOT_STARTED = 0
IN_PROGRESS = 1
DRAW = 2
FIRST_WINS = 3
SECOND_WINS = 4

M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)


class InvalidMoveError(ValueError):
    """A move's text is malformed: it does not describe a move of the game at all."""


class IllegalMoveError(ValueError):
    """A move is well-formed but against the rules; the message names the rule."""


class InvalidRecordError(ValueError):
    """A game record cannot be read: the message names the part that failed and why."""


class InvalidPositionError(InvalidRecordError):
    """A position record cannot be read, or sets up a position the rules cannot reach: the message quotes the bad
    text and names the rule."""


class UnknownGameError(ValueError):
    """A name that names no game the project plays."""


E = TypeVar("E", bound=ValueError)


def text_argument(value: object, what: str, error: type[E]) -> str:
    """``value``, a text the caller reads as ``what`` (``a MoveString``); anything else (``None``, bytes) raises
    ``error`` naming what came instead."""
    if isinstance(value, str):
        return value
    shown = repr(value)
    raise error(f"Expected {what}, not {type(value).__name__} {shown[:60]}{'…' if len(shown) > 60 else ''}.")


class Termination(enum.Enum):
    """How a game ended: by its rules (the game's :class:`Ending` says which way), or by its players and apps."""

    RULES = "rules"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    ADJUDICATION = "adjudication"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class Ending:
    """A way a game's rules end it, declared by the game (Hive's Queen Bee surrounded, HiveQueen's Queen captured).

    Call it for the :class:`Outcome`: ``QUEEN_SURROUNDED(0, sides)``.

    :ivar name: what the ending is called (``queen surrounded``).
    :ivar phrase: why the game ended, with ``{winner}`` and ``{loser}`` for the sides' names:
        ``{loser}'s Queen Bee is surrounded``. An outcome's detail follows it after a comma.
    """

    name: str
    phrase: str

    def __call__(self, winner: int | None, sides: tuple[str, str], detail: str = "") -> Outcome:
        """The outcome of a game that ended this way, won by ``winner`` (``None``: drawn)."""
        return Outcome(Termination.RULES, winner, sides, detail, self)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: a :class:`Termination` and the winner (0 the first player, 1 the second, ``None`` a draw).

    :ivar sides: the names of the two sides, first player first (``White``/``Black``, ``South``/``North``).
    :ivar detail: what the termination needs to be told in full (``units 20-18``, ``ply limit 200``, an
        engine's error).
    :ivar ending: the game's own way of ending, when its rules ended it (:attr:`Termination.RULES`).
    """

    termination: Termination
    winner: int | None
    sides: tuple[str, str] = ("White", "Black")
    detail: str = ""
    ending: Ending | None = None

    def __post_init__(self) -> None:
        if (self.termination is Termination.RULES) != (self.ending is not None):
            raise ValueError("An outcome has an ending exactly when the rules ended the game.")

    @property
    def result(self) -> str:
        """``Draw`` or the winner's side and ``Wins``: ``WhiteWins``, ``NorthWins``..."""
        return "Draw" if self.winner is None else f"{self.sides[self.winner]}Wins"

    @property
    def loser(self) -> str:
        """The losing side's name (the second player's for a draw, where no one lost)."""
        return self.sides[1 - (self.winner if self.winner is not None else 0)]

    @property
    def reason(self) -> str:
        """Why the game ended, as a phrase: ``Black's Queen Bee is surrounded``, ``North resigned``..."""
        if self.ending is not None:
            winner = self.sides[self.winner] if self.winner is not None else "no one"
            text = self.ending.phrase.format(winner=winner, loser=self.loser)
            return f"{text}, {self.detail}" if self.detail else text
        return _REASONS[self.termination](self)

    def __str__(self) -> str:
        return f"{self.result} ({self.reason})"


def _forfeit(o: Outcome) -> str:
    if o.winner is None:  # a draw: the detail says who ran out of what, and why no one wins
        return o.detail or "drawn by forfeit"
    return f"{o.loser} forfeits: {o.detail}" if o.detail else f"{o.loser} forfeits"


_REASONS: dict[Termination, Callable[[Outcome], str]] = {
    Termination.RESIGNATION: lambda o: f"{o.loser} resigned",
    Termination.AGREEMENT: lambda o: "the players agreed",
    Termination.ADJUDICATION: lambda o: o.detail or "adjudicated",
    Termination.FORFEIT: _forfeit,
}


class Moves(Protocol[M_co]):
    """The legal moves of a position: iterable, countable and searchable (``move in board.legal_moves``)."""

    def __iter__(self) -> Iterator[M_co]: ...

    def __len__(self) -> int: ...

    def __contains__(self, move: object) -> bool: ...


class Game(Protocol[M]):
    """What every game's board implements (Hive's :class:`hive.Board`, HiveQueen's board).

    A move is a value of the game's own move type (Hive's :class:`hive.Move`, HiveQueen's ``Turn``): hashable,
    equal when it is the same move, meaningful for the position it was made for. Texts are in the game's own
    notation (UHP MoveStrings for Hive). ``turn`` is 0 when the first player (``sides[0]``) is to move, else 1.
    """

    sides: ClassVar[tuple[str, str]]

    @property
    def game_name(self) -> str:
        """The name :func:`hive.find_game` knows this game by (``Base+MLP``, ``HiveQueen``)."""
        ...

    @property
    def turn(self) -> int: ...

    @property
    def legal_moves(self) -> Moves[M]: ...

    @property
    def move_stack(self) -> list[M]:
        """The moves played, oldest first."""
        ...

    def parse_move(self, text: str) -> M:
        """The legal move written ``text`` in this position.

        :raises InvalidMoveError: when ``text`` is not a move of the game's notation.
        :raises IllegalMoveError: naming the rule, when the move is against the rules here.
        """
        ...

    def move_text(self, move: M) -> str:
        """The notation of ``move`` in this position."""
        ...

    def is_legal(self, move: M) -> bool:
        """Whether ``move`` may be played here; a move found legal (here or by :meth:`parse_move`) is pushed next
        without being checked again."""
        ...

    def push(self, move: M, text: str | None = None) -> None:
        """Play a legal move (checked: :class:`IllegalMoveError` names the rule otherwise). ``text`` is the move's
        notation as :meth:`move_text` wrote it in this position, kept for the record so that it is not written
        again; it is not checked."""
        ...

    def pop(self) -> M:
        """Take back the last move and return it (:class:`IndexError` when none was played)."""
        ...

    def push_text(self, text: str) -> M:
        """:meth:`parse_move` then :meth:`push`, keeping the move's text in the game's notation (the one
        :meth:`move_text` writes: a text read liberally is kept as the game writes it); returns the move."""
        ...

    def push_stored(self, text: str) -> M:
        """:meth:`push_text` for a move read back from this game's own record, which was checked when it was played
        in this same position: the text is trusted, read without listing the legal moves or checking the move
        against them, and kept as :meth:`push_text` keeps it; returns the move.

        Only for texts the game accepted here before (a server's stored moves replayed on its copy of the game),
        never for a record from outside. A text that is not a move of the position may raise
        :class:`ValueError` (:class:`InvalidMoveError` for one that is not a move of the notation at all) or may
        be played as it reads, leaving the board in a position the rules cannot reach: a caller that catches the
        error loads the game again rather than use the board.
        """
        ...

    def outcome(self) -> Outcome | None:
        """How the rules ended the game, or ``None`` while it goes on."""
        ...

    def is_game_over(self) -> bool: ...

    def could_win(self, side: int) -> bool:
        """Whether ``side`` could still win by some series of legal moves of both sides; ``False`` only where the
        game proves it cannot (a clock's flag that falls then draws)."""
        ...

    def adjudicate(self) -> Outcome:
        """The outcome the rules give a game stopped here (a move limit): a draw for Hive, units for HiveQueen."""
        ...

    def copy(self) -> Self: ...

    def record(self, headers: Mapping[str, str] | None = None) -> str:
        """The game so far in the game's own record format (a GameString for Hive, which has no place for
        ``headers``: players' names and the like are kept where the format has headers, left out where not)."""
        ...

    @classmethod
    def from_record(cls, text: str) -> Self:
        """Replay a record written by :meth:`record` (or any record of the format), checking every move; a
        record that starts from a position (see :meth:`from_position`) is replayed from it.

        :raises InvalidRecordError: naming the part that failed (Hive's errors subclass it or the move errors).
        """
        ...

    def position_text(self) -> str:
        """The current position as a position record: one line, ``Position;<game>;<turn>;...``, the same text for
        the same position however it was reached or written (see each game's ``position_record`` module)."""
        ...

    @classmethod
    def from_position(cls, text: str) -> Self:
        """A new board at the position ``text`` records (with the game's rule options as keywords), no move in
        its stack: :meth:`pop` raises as on a new board, and :meth:`record` writes the position then the moves
        played since.

        :raises InvalidPositionError: quoting the bad text and naming the rule it breaks.
        """
        ...


@runtime_checkable
class CountsPerft(Protocol):
    """A capability a game's board may offer beside the protocol: it counts its own move tree, faster than the
    protocol's moves can (Hive's compiled core does); apps ask ``isinstance(board, CountsPerft)``."""

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` moves long from here; the board is left as it was."""
        ...


__all__ = [
    "DRAW",
    "FIRST_WINS",
    "IN_PROGRESS",
    "NOT_STARTED",
    "SECOND_WINS",
    "CountsPerft",
    "Ending",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Moves",
    "Outcome",
    "Termination",
    "UnknownGameError",
    "text_argument",
]
