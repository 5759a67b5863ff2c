"""The game protocol: the verbs every game's board answers to, and the vocabulary the apps share.

In the manner of python-chess's variants, every game the project plays (Hive with its expansions, HiveQueen) has a
board class with the same verbs, so that the arena, the browser app, the command line and the UHP engine are
written once::

    import hive

    board = hive.find_game("Base+MLP")()          # or hive.find_game("hivequeen")()
    move = next(iter(board.legal_moves))
    text = board.move_text(move)                    # the game's own notation
    board.push(move)
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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    import random
    from typing import Self

    from .search.limits import Limits, SearchResult

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

    def push(self, move: M) -> None:
        """Play a legal move (checked: :class:`IllegalMoveError` names the rule otherwise)."""
        ...

    def pop(self) -> M:
        """Take back the last move and return it (:class:`IndexError` when none was played)."""
        ...

    def push_text(self, text: str) -> M:
        """:meth:`parse_move` then :meth:`push`; returns the move."""
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
        the same position however it was reached or written (see each game's ``diagram`` module)."""
        ...

    @classmethod
    def from_position(cls, text: str) -> Self:
        """A new board at the position ``text`` records (with the game's rule options as keywords), no move in
        its stack: :meth:`pop` raises as on a new board, and :meth:`record` writes the position then the moves
        played since.

        :raises InvalidPositionError: quoting the bad text and naming the rule it breaks.
        """
        ...


def _rebuilt(cls: Any, record: str, options: dict[str, Any]) -> Any:
    """A board unpickled: ``cls.from_record(record, **options)``."""
    return cls.from_record(record, **options)


class GameBoard(Generic[M]):
    """What every game's board mixes in: whose turn it is, the name of its state, whether the game is over, and the
    notation of the moves played, kept so that a record is written without replaying the game.

    The board has ``ply`` (its low bit is the side to move), ``status`` (the codes above) and the class attribute
    ``state_names`` (the name of each status code).

    The text of a move is remembered when :meth:`Game.move_text` writes it just before the move is pushed (as the
    apps do); the texts of moves pushed without one are written when a record asks for them, by taking back those
    moves and playing them again (``_repush``: the board plays a move it played before, unchecked, and keeps no
    text). The board calls :meth:`_init_texts` once, :meth:`_pushed` after each push and :meth:`_popped` after each
    pop.

    A board pickles and deep-copies as its record and its rule options (:attr:`rule_options`): unpickling replays
    the record, so a pickle never holds the core's tables (C arrays in the compiled build).
    """

    state_names: ClassVar[tuple[str, ...]]
    #: The keyword options of ``from_record`` that the board keeps as attributes of the same names.
    rule_options: ClassVar[tuple[str, ...]] = ()

    if TYPE_CHECKING:
        ply: int
        status: int

        def record(self, headers: Mapping[str, str] | None = None) -> str: ...

        @property
        def move_stack(self) -> list[M]: ...

        def move_text(self, move: M) -> str: ...

        def pop(self) -> M: ...

        def _repush(self, move: M) -> None: ...

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        options = {name: getattr(self, name) for name in self.rule_options}
        return _rebuilt, (type(self), self.record(), options)

    @property
    def turn(self) -> int:
        """The side to move: 0 for the first player (``sides[0]``), 1 for the second."""
        return self.ply & 1

    @property
    def state(self) -> str:
        """The state's name: ``InProgress``, ``Draw``, ``WhiteWins``, ``NorthWins``..."""
        return self.state_names[self.status]

    def is_game_over(self) -> bool:
        """Whether the game has ended (see :meth:`Game.outcome` for how)."""
        return self.status >= DRAW

    def could_win(self, side: int) -> bool:
        """Whether ``side`` could still win by some series of legal moves of both sides (what a clock asks when
        the other side's time runs out). ``False`` only where the game proves it; by default, while the game goes
        on (in Hive every Queen Bee can always still be surrounded by the pieces of both colours)."""
        return not self.is_game_over()

    def _init_texts(self, texts: list[tuple[M, str]] | None = None) -> None:
        self._texts: list[tuple[M, str]] = list(texts or [])
        self._memo: tuple[int, M, str] | None = None

    def _remember(self, played: int, move: M, text: str) -> str:
        """Note that ``move`` is written ``text`` after ``played`` moves; returns ``text``."""
        self._memo = (played, move, text)
        return text

    def _pushed(self, played: int, move: M) -> None:
        """``move`` was pushed after ``played`` moves: keep its text if it was just written."""
        memo = self._memo
        if memo is not None and memo[0] == played == len(self._texts) and memo[1] == move:
            self._texts.append((move, memo[2]))
        self._memo = None

    def _popped(self, played: int) -> None:
        """A move was taken back, leaving ``played`` moves."""
        del self._texts[played:]
        self._memo = None

    def move_texts(self) -> list[str]:
        """The notation of every move played, oldest first, each written in the position it was played in."""
        moves = self.move_stack
        texts = self._texts
        known = 0
        while known < min(len(texts), len(moves)) and texts[known][0] == moves[known]:
            known += 1
        del texts[known:]
        undone = [self.pop() for _ in range(len(moves) - known)]
        for move in reversed(undone):
            text = self.move_text(move)
            self._repush(move)
            texts.append((move, text))
        return [text for _, text in texts]


@dataclass(frozen=True)
class OpeningBalance:
    """How the arena balances random openings: draw them again until a ``depth`` search scores them within
    ``margin`` of even, keeping the most balanced of ``tries`` draws if none is."""

    depth: int
    margin: int
    tries: int


@dataclass(frozen=True)
class GameAI:
    """What a game brings for its players: named levels, a searcher and a random mover.

    :ivar levels: the named strength levels (``easy`` ... ``max``) as search limits.
    :ivar searcher: ``searcher(seed, opening_noise)`` makes a searcher whose ``search(board, limits)`` returns a
        :class:`~hive.search.SearchResult` of the game's own move type.
    :ivar random_move: a random legal move (the game's own random mover: uniform for Hive, a random movement
        then random production steps for HiveQueen).
    :ivar hint_level: the level that answers hints in the browser.
    :ivar win_chance: the first player's winning chance (0..1) for a score of the searcher's, from the first
        player's point of view; ``None`` where the scores are not calibrated (no evaluation bar).
    :ivar play_noise: plies from the start during which the browser's AI opponent varies its choices.
    :ivar balanced_openings: how the arena balances random openings, or ``None`` to take them as drawn.
    """

    levels: Mapping[str, Limits]
    searcher: Callable[[int | None, int], Any]
    random_move: Callable[[Any, random.Random], Any]
    hint_level: str = "medium"
    win_chance: Callable[[int], float] | None = None
    play_noise: int = 0
    balanced_openings: OpeningBalance | None = None

    def search(self, board: Game[M], limits: Limits, seed: int | None = None, noise: int = 0) -> SearchResult[M]:
        """Search ``board`` with a new searcher of this game."""
        result: SearchResult[M] = self.searcher(seed, noise).search(board, limits)
        return result


@dataclass(frozen=True)
class GameSpec:
    """A game the project plays, as :func:`hive.find_game` returns it: call it for a new board at the start.

    :ivar name: the game's name (``Base+MLP``, ``HiveQueen``).
    :ivar kind: the rules family (``hive``, ``hivequeen``): the module names of its browser view and page.
    :ivar title: the game's title for people (``Hive``, ``HiveQueen``).
    :ivar sides: the two sides' names, first player first.
    :ivar new: makes a new board at the start, with the rule options it is given (see ``options``).
    :ivar options: the names of the game's rule options, as keyword arguments of ``new`` (Hive:
        ``tournament_opening``, ``repetition_draw``).
    :ivar arena_options: the rule options the arena plays with (Hive: the repetition draw on, as hivegame.com and
        nokamute play).
    :ivar ai: the game's players (levels, searcher, random mover).
    :ivar move_noun: what one entry of the move list is called (``ply``, ``turn``), for reports.
    :ivar record_noun: what one game's record is called (``GameString``, ``HiveQueen record``).
    :ivar uhp: whether UHP engines play it.
    :ivar max_moves: the arena's default move limit, after which :meth:`Game.adjudicate` decides.
    :ivar help: how to type a move, for the terminal game.
    """

    name: str
    kind: str
    title: str
    sides: tuple[str, str]
    new: Callable[..., Game[Any]]
    ai: GameAI
    options: tuple[str, ...] = ()
    arena_options: Mapping[str, Any] = field(default_factory=dict)
    move_noun: str = "ply"
    record_noun: str = "record"
    uhp: bool = False
    max_moves: int = 200
    help: str = ""

    def __call__(self, **options: Any) -> Game[Any]:
        """A new board at the start, with rule ``options`` (keyword arguments among :attr:`options`).

        :raises UnknownGameError: naming an option the game does not have.
        """
        self._check_options(options)
        return self.new(**options)

    def from_position(self, text: str, **options: Any) -> Game[Any]:
        """A new board at the position ``text`` records (see :meth:`Game.from_position`), with rule ``options``.

        :raises InvalidPositionError: naming the rule the position breaks, or a position of another game.
        :raises UnknownGameError: naming an option the game does not have.
        """
        self._check_options(options)
        board: Game[Any] = type(self.new(**options)).from_position(text, **options)
        if board.game_name != self.name:
            from .positions import quoted  # positions builds on this module

            raise InvalidPositionError(
                f"Invalid position: {quoted(text)} is a position of {board.game_name}, not of {self.name}."
            )
        return board

    def _check_options(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise UnknownGameError(f"{self.name} has no rule option {', '.join(unknown)} (its options: {known}).")


__all__ = [
    "DRAW",
    "FIRST_WINS",
    "IN_PROGRESS",
    "NOT_STARTED",
    "SECOND_WINS",
    "Ending",
    "Game",
    "GameAI",
    "GameBoard",
    "GameSpec",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Moves",
    "OpeningBalance",
    "Outcome",
    "Termination",
    "UnknownGameError",
    "text_argument",
]
