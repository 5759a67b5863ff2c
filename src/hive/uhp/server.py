"""A Universal Hive Protocol engine, served by ``hive uhp`` (or ``python -m hive.uhp``).

Every reply ends with the line ``ok``; errors are ``err <message>``, rejected moves ``invalidmove <reason>``,
and ``exit`` prints nothing. Choices where the protocol leaves room:

- ``newgame`` takes nothing (Base), a GameTypeString or a whole GameString. A GameString is replayed move by
  move; as in the library, the position comes from the moves and the state and turn tokens are checked for
  form only (viewers do not always keep them exact). It takes a position record too (``Position;Base+MLP;...``,
  see :mod:`hive.games.hive.position_record`), with or without moves after it: the game starts there, and the engine
  answers with its record in the same form (the position, then the moves played since).
- ``validmoves`` and ``bestmove`` on a finished game are errors; ``play`` on one is an ``invalidmove``.
- ``bestmove`` with no argument searches at the ``DefaultLevel`` option; ``bestmove time hh:mm:ss`` (minutes and
  seconds below 60, fractions allowed) answers within the time given, counted from the line's arrival: it searches
  until :data:`ANSWER_MARGIN` before the time runs out; ``00:00:00`` means a one-ply search;
  ``bestmove depth N`` searches N plies (1 and up; deeper than the searcher's limit is clipped to it).
  ``bestmove clock R [I]`` (an extension for clients that run a clock; UHP has no clock of its own) gives the time
  remaining on the engine's clock and the increment added after each move (both hh:mm:ss, the increment 0 when
  left out): the engine thinks for :func:`hive.search.timing.move_budget` of them, the budget the browser's timed
  games use (a 30th of the remaining time plus 70 % of the increment, less 50 ms for what a move costs besides
  the search, at most 40 % of the remaining time), so it answers well inside its clock.
- Options apply to the *next* ``newgame`` (rules can't change in the middle of a game) and are kept across games:
  ``TournamentOpening`` (bool, default True), ``RepetitionDraw`` (bool, default True: the third occurrence of a
  position is a draw, as in nokamute and hivegame.com) and ``DefaultLevel`` (enum of Hive's levels).
  ``options set`` replies with the option's new line; bools read True/False, 1/0, yes/no or on/off.
  ``MaxTime`` (int, seconds, default 600) is the hard ceiling of every ``bestmove`` and ``perft``; ``TTSizeMB``
  (int, default 250) is the size of the transposition table, which the processes of a search share; ``Threads``
  (int, 1 to 16, default 1) is the number of processes a ``bestmove`` searches with (the same scores at a depth,
  reached sooner on more cores). These three apply from the next ``bestmove``. The helper processes of ``Threads``
  are kept for the session (until ``Threads`` changes, a ``newgame`` of other rules, ``exit`` or the input's end).
- Between moves the searcher keeps its transposition table while ``newgame`` brings the game in progress (a
  GameString whose moves go on from, or back along, the game's: clients send the whole game before each
  ``bestmove``); a ``newgame`` with a game type alone or with another game wipes it; other rules clear it. The
  ``hive uhp`` process maps the whole table at ``newgame`` (:attr:`UHPEngine.populate`).
- ``perft [depth]`` (an extension, default depth 3, at most 32) prints one line ``<depth> <count> <seconds>`` per
  depth from 0, like ``hive perft`` (Mzinga prints ``perft(d) = count in ms``).
- A search or a perft is never left running: a line arriving on the input (or the input closing) stops it, as does
  ``MaxTime``. A stopped ``bestmove`` answers the best move found so far; a stopped ``perft`` answers the depths it
  finished and an ``err`` line. Then the waiting line is answered.
- Input lines are read up to :data:`~hive.uhp.process.MAX_LINE` bytes (a longer line is an error) and an error
  line quotes at most about 200 characters of the input.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

from .. import __version__
from ..games.hive import (
    Board,
    GameStringWarning,
    IllegalMoveError,
    InvalidGameStringError,
    InvalidGameTypeError,
    InvalidMoveError,
    InvalidPositionError,
    Searcher,
)
from ..games.hive.ai import LEVELS
from ..games.hive.reasons import GAME_OVER, PASS_GAME_OVER
from ..search import MAX_DEPTH, Limits, SearchTimeout
from ..search.parallel import root_line
from ..search.perft import perft
from ..search.table import ENTRY_BYTES, TableTooLarge, TranspositionTable, table_entries
from ..search.timing import move_budget
from .parsing import BREAKS, Option, UHPError, engine_options, failure, quoted, seconds, whole_number

CAPABILITIES = "Mosquito;Ladybug;Pillbug"
COMMANDS = ("info", "newgame", "play", "pass", "validmoves", "bestmove", "undo", "options", "perft", "exit")
NO_GAME = "No game in progress. Try 'newgame' to start a new game."
DEFAULT_PERFT_DEPTH = 3
MAX_PERFT_DEPTH = 32
#: Seconds of ``bestmove time T`` kept back for answering (the last clock check, the search's unwinding, the reply's
#: way out): the search ends ``T - ANSWER_MARGIN`` after the command was read (``T / 2`` where that is later). An
#: answer takes 1-5 ms on a machine whose two cores run ten other jobs (``benchmarks/uhp_time.py``).
ANSWER_MARGIN = 0.02
#: The least a ``bestmove`` searches for (its first depth is always completed).
LEAST_SEARCH = 0.001


class UHPEngine:
    """The state of a UHP session: the game, the options and the searcher (its transposition table is kept).

    >>> engine = UHPEngine()
    >>> engine.handle("newgame Base")
    ['Base;NotStarted;White[1]', 'ok']
    >>> engine.handle("play wS1")
    ['Base;InProgress;Black[1];wS1', 'ok']

    :param searcher: the AI behind ``bestmove`` (a deterministic Hive :class:`~hive.games.hive.Searcher` by default).
    :param populate: see :attr:`populate`.
    :ivar interrupted: polled during ``bestmove`` and ``perft``: when it returns true they stop early (the process
        sets it to "a line is waiting on the input").
    """

    def __init__(self, searcher: Searcher | None = None, *, populate: bool = False) -> None:
        self.board: Board | None = None
        #: Whether ``newgame`` maps the whole transposition table at once (``hive uhp`` does: no move's search then
        #: waits for the kernel to supply the table's pages; a session of a few searches need not pay for them).
        self.populate = populate
        self.finished = False
        self.interrupted: Callable[[], bool] | None = None
        #: The clock a move's time is counted on (from the moment its command was read).
        self.clock: Callable[[], float] = time.perf_counter
        self._received = 0.0
        self.searcher = searcher if searcher is not None else Searcher()
        self.option_table = engine_options()
        self.options: dict[str, str] = {option.key: option.default for option in self.option_table.values()}
        self._rules: tuple[str, bool, bool] | None = None
        self._handlers: dict[str, Callable[[list[str], str], list[str] | None]] = {
            "info": self._info,
            "newgame": self._newgame,
            "play": self._play,
            "pass": self._pass,
            "validmoves": self._validmoves,
            "bestmove": self._bestmove,
            "undo": self._undo,
            "options": self._options,
            "perft": self._perft,
            "exit": self._exit,
        }

    def banner(self) -> list[str]:
        """The ``info`` block printed unprompted at start-up: id, capabilities, ``ok``."""
        return [*self._info([], ""), "ok"]

    def handle(self, line: str, received: float | None = None) -> list[str]:
        """Process one input line and return the output lines.

        Every reply ends with exactly one ``ok`` line; ``exit`` returns ``[]`` and sets :attr:`finished`.
        No input makes this raise: unexpected failures are reported as ``err <type>: <message>``.

        :param received: when the line was read, on :attr:`clock` (now if not given): a ``bestmove``'s time counts
            from then.
        """
        self._received = self.clock() if received is None else received
        out: list[str] | None
        try:
            out = self._dispatch(line)
        except UHPError as err:
            return failure(f"err {err}")
        except (InvalidMoveError, IllegalMoveError) as err:
            return failure(f"invalidmove {err}")
        except (InvalidGameStringError, InvalidGameTypeError, InvalidPositionError) as err:
            return failure(f"err {err}")
        except Exception as err:
            return failure(f"err {type(err).__name__}: {err}")
        if out is None:
            return []
        # answers (GameStrings, position records, move lists) are never cut: only error lines are
        return [text.translate(BREAKS) for text in out] + ["ok"]

    # ------------------------------------------------------------------
    # commands

    def _dispatch(self, line: str) -> list[str] | None:
        words = line.split()
        if not words:
            raise UHPError(f"Empty command. Commands: {', '.join(COMMANDS)}.")
        command = words[0].lower()
        handler = self._handlers.get(command)
        if handler is None:
            raise UHPError(f"Unknown command {quoted(words[0])}. Commands: {', '.join(COMMANDS)}.")
        rest = line.strip()[len(words[0]) :].strip()
        return handler(words[1:], rest)

    def _game(self) -> Board:
        if self.board is None:
            raise UHPError(NO_GAME)
        return self.board

    @staticmethod
    def _no_arguments(command: str, args: list[str]) -> None:
        if args:
            raise UHPError(f"{command} takes no arguments, not {quoted(' '.join(args))}.")

    def _info(self, args: list[str], rest: str) -> list[str]:
        self._no_arguments("info", args)
        return [f"id hive {__version__}", CAPABILITIES]

    def _newgame(self, args: list[str], rest: str) -> list[str]:
        tournament = self.options["TournamentOpening"] == "True"
        repetition = self.options["RepetitionDraw"] == "True"
        if ";" in rest:
            try:
                # as Mzinga does: the moves make the position, a state or turn that lags behind them is ignored
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", GameStringWarning)
                    board = Board.from_record(
                        rest, tournament_opening=tournament, repetition_draw=repetition, strict=False
                    )
            except (InvalidMoveError, IllegalMoveError) as err:
                raise UHPError(str(err)) from None
        else:
            board = Board(rest or "Base", tournament_opening=tournament, repetition_draw=repetition)
        rules = (str(board.game_type), tournament, repetition)
        if rules != self._rules:
            self.searcher.close()
            self.searcher.tt.clear()
            self._rules = rules
        elif ";" not in rest or not self._continues(board):
            self.searcher.tt.wipe()  # a new game: as a new player would, the searcher starts with an empty table
        self.board = board
        self._prepare_table()
        return [board.record()]

    def _continues(self, board: Board) -> bool:
        """Whether ``board`` (a GameString's) is the game in progress (clients send ``newgame`` with the whole game
        before each ``bestmove``), a later position of it, or an earlier one (an undo): the same start and the moves
        of one the first moves of the other."""
        if self.board is None:
            return False
        old, new = root_line(self.searcher, self.board), root_line(self.searcher, board)
        if old is None or new is None or old[0] != new[0]:
            return False
        common = min(len(old[1]), len(new[1]))
        return old[1][:common] == new[1][:common]

    def _prepare_table(self) -> None:
        """The transposition table of ``TTSizeMB``, its memory in place (outside any move's time)."""
        searcher = self.searcher
        searcher.tt_limit = int(self.options["TTSizeMB"]) * 1_000_000 // ENTRY_BYTES
        if searcher.tt.entries != table_entries(searcher.tt_limit):
            searcher.tt = TranspositionTable(searcher.tt_limit)
        if not self.populate:
            return  # the search maps it
        try:
            searcher.tt.populate()
        except TableTooLarge as err:
            raise UHPError(f"{err} Try a smaller TTSizeMB.") from None

    def close(self) -> None:
        """Stop the searcher's helper processes (the engine's end)."""
        self.searcher.close()

    def _play(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        if not args:
            raise UHPError("play needs a MoveString, e.g. 'play wS1'.")
        if board.is_game_over():
            raise IllegalMoveError(PASS_GAME_OVER if rest.lower() == "pass" else GAME_OVER)
        board.push_text(rest)
        return [board.record()]

    def _pass(self, args: list[str], rest: str) -> list[str]:
        self._no_arguments("pass", args)
        return self._play(["pass"], "pass")

    def _validmoves(self, args: list[str], rest: str) -> list[str]:
        self._no_arguments("validmoves", args)
        board = self._game()
        if board.is_game_over():
            raise UHPError(f"The game is over ({board.state}). Try 'newgame' or 'undo'.")
        return [";".join(board.move_text(move) for move in board.legal_moves)]

    def _bestmove(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        limits = self._limits(args)
        if board.is_game_over():
            raise UHPError(f"The game is over ({board.state}). Try 'newgame' or 'undo'.")
        ceiling = float(self.options["MaxTime"])
        # the time is counted from the command's arrival: what the engine did since (replaying, setting up) is spent
        spent = max(0.0, self.clock() - self._received)
        seconds = min(limits.time if limits.time is not None else ceiling, ceiling)
        threads = int(self.options["Threads"])
        limits = Limits(depth=limits.depth, time=max(LEAST_SEARCH, seconds - spent), threads=threads)
        self._prepare_table()
        self.searcher.stop = self.interrupted
        try:
            result = self.searcher.search(board.copy(), limits)
        except TableTooLarge as err:
            raise UHPError(f"{err} Try a smaller TTSizeMB.") from None
        finally:
            self.searcher.stop = None
        if result.move not in board.legal_moves:
            raise UHPError(f"The search returned an illegal move ({result.move}).")
        return [board.move_text(result.move)]

    def _limits(self, args: list[str]) -> Limits:
        if not args:
            return LEVELS[self.options["DefaultLevel"]]
        kind = args[0].lower()
        if not ((kind in ("depth", "time") and len(args) == 2) or (kind == "clock" and len(args) in (2, 3))):
            raise UHPError(
                f"Invalid bestmove arguments {quoted(' '.join(args))}: expected 'time hh:mm:ss', 'depth N' or "
                "'clock hh:mm:ss [hh:mm:ss]'."
            )
        if kind == "depth":
            depth = whole_number(args[1])
            if depth is None or depth < 1:
                raise UHPError(f"Invalid depth {quoted(args[1])}: expected a whole number of plies, 1 or more.")
            return Limits(depth=min(depth, MAX_DEPTH))
        if kind == "clock":
            increment = seconds(args[2]) if len(args) == 3 else 0.0
            return Limits(time=move_budget(seconds(args[1]), increment))
        given = seconds(args[1])
        if given <= 0:
            return Limits(depth=1)
        return Limits(time=max(given - ANSWER_MARGIN, given / 2))

    def _undo(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        if len(args) > 1:
            raise UHPError(f"Invalid undo arguments {quoted(rest)}: expected 'undo' or 'undo N'.")
        count = whole_number(args[0]) if args else 1
        if count is None or count < 1:
            raise UHPError(f"Invalid number of moves to undo {quoted(args[0])}: expected a whole number, 1 or more.")
        played = len(board.move_stack)
        if count > played:
            raise UHPError(f"Unable to undo {count} move{'s' * (count != 1)}: only {played} played.")
        for _ in range(count):
            board.pop()
        return [board.record()]

    def _options(self, args: list[str], rest: str) -> list[str]:
        if not args:
            return [option.line(self.options[option.key]) for option in self.option_table.values()]
        sub = args[0].lower()
        if sub == "get" and len(args) == 2:
            option = self._option(args[1])
            return [option.line(self.options[option.key])]
        if sub == "set" and len(args) == 3:
            option = self._option(args[1])
            value = option.parse(args[2])
            if option.key == "Threads" and value != self.options["Threads"]:
                self.searcher.close()  # the helpers of the old count
            self.options[option.key] = value
            return [option.line(self.options[option.key])]
        raise UHPError(
            f"Invalid options arguments {quoted(rest)}: "
            "expected 'options', 'options get Key' or 'options set Key Value'."
        )

    def _option(self, key: str) -> Option:
        option = self.option_table.get(key.lower())
        if option is None:
            keys = ", ".join(option.key for option in self.option_table.values())
            raise UHPError(f"Unknown option {quoted(key)}. Options: {keys}.")
        return option

    def _perft(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        if len(args) > 1:
            raise UHPError(f"Invalid perft arguments {quoted(rest)}: expected 'perft' or 'perft depth'.")
        depth = whole_number(args[0]) if args else DEFAULT_PERFT_DEPTH
        if depth is None or not 0 <= depth <= MAX_PERFT_DEPTH:
            raise UHPError(
                f"Invalid perft depth {quoted(args[0])}: expected a whole number from 0 to {MAX_PERFT_DEPTH}."
            )
        position = board.copy()
        lines = []
        deadline = time.perf_counter() + float(self.options["MaxTime"])
        interrupted = self.interrupted

        def stop() -> bool:
            return time.perf_counter() > deadline or (interrupted is not None and interrupted())

        for d in range(depth + 1):
            start = time.perf_counter()
            try:
                count = perft(position, d, stop)
            except SearchTimeout:
                lines.append(f"err perft stopped during depth {d} (new input, or past MaxTime)")
                break
            lines.append(f"{d} {count} {time.perf_counter() - start:.3f}")
        return lines

    def _exit(self, args: list[str], rest: str) -> None:
        self._no_arguments("exit", args)
        self.close()
        self.finished = True
