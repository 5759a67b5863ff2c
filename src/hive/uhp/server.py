"""A Universal Hive Protocol engine, served by ``hive uhp`` (or ``python -m hive.uhp``).

Every reply ends with the line ``ok``; errors are ``err <message>``, rejected moves ``invalidmove <reason>``,
and ``exit`` prints nothing. Choices where the protocol leaves room:

- ``newgame`` takes nothing (Base), a GameTypeString or a whole GameString. A GameString is replayed move by
  move; as in the library, the position comes from the moves and the state and turn tokens are checked for
  form only (viewers do not always keep them exact).
- ``validmoves`` and ``bestmove`` on a finished game are errors; ``play`` on one is an ``invalidmove``.
- ``bestmove`` with no argument searches at the ``DefaultLevel`` option; ``bestmove time hh:mm:ss`` (minutes and
  seconds below 60, fractions allowed) answers within the time given, ``00:00:00`` meaning a one-ply search;
  ``bestmove depth N`` searches N plies (1 and up; deeper than the searcher's limit is clipped to it).
- Options apply to the *next* ``newgame`` (rules can't change in the middle of a game) and are kept across games:
  ``TournamentOpening`` (bool, default True), ``RepetitionDraw`` (bool, default True: the third occurrence of a
  position is a draw, as in nokamute and hivegame.com) and ``DefaultLevel`` (enum of Hive's levels).
  ``options set`` replies with the option's new line; bools read True/False, 1/0, yes/no or on/off.
- ``perft [depth]`` (an extension, default depth 3, at most 32) prints one line ``<depth> <count> <seconds>`` per
  depth from 0, like ``hive perft`` (Mzinga prints ``perft(d) = count in ms``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TextIO

from .. import __version__
from ..games.hive import (
    Board,
    IllegalMoveError,
    InvalidGameStringError,
    InvalidGameTypeError,
    InvalidMoveError,
    Searcher,
)
from ..games.hive.ai import LEVELS
from ..games.hive.reasons import GAME_OVER, PASS_GAME_OVER
from ..search import MAX_DEPTH, Limits

CAPABILITIES = "Mosquito;Ladybug;Pillbug"
COMMANDS = ("info", "newgame", "play", "pass", "validmoves", "bestmove", "undo", "options", "perft", "exit")
NO_GAME = "No game in progress. Try 'newgame' to start a new game."
DEFAULT_PERFT_DEPTH = 3
MAX_PERFT_DEPTH = 32
#: ``bestmove time T`` searches for ``max(T * TIME_SHARE - TIME_MARGIN, T / 2)`` seconds, leaving time to reply.
TIME_SHARE = 0.9
TIME_MARGIN = 0.05

_TIME = re.compile(r"^([0-9]{1,6}):([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,6})?)$")
_INT = re.compile(r"^[+-]?[0-9]{1,9}$")
_BREAKS = str.maketrans({ch: " " for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"})
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


class UHPError(Exception):
    """A command the engine refuses; the message becomes the ``err`` line."""


def _show(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _int(text: str) -> int | None:
    return int(text) if _INT.match(text) else None


class _Option:
    def __init__(self, key: str, kind: str, default: str, values: tuple[str, ...] = ()) -> None:
        self.key = key
        self.kind = kind
        self.default = default
        self.values = values

    def parse(self, text: str) -> str:
        word = text.lower()
        if self.kind == "bool":
            if word in _TRUE:
                return "True"
            if word in _FALSE:
                return "False"
            raise UHPError(f"Invalid value {_show(text)} for option {self.key} (bool): expected True or False.")
        for value in self.values:
            if value.lower() == word:
                return value
        raise UHPError(
            f"Invalid value {_show(text)} for option {self.key} (enum): expected one of {', '.join(self.values)}."
        )

    def line(self, value: str) -> str:
        return ";".join((self.key, self.kind, value, self.default, *self.values))


def _options() -> dict[str, _Option]:
    levels = tuple(LEVELS)
    level = "hard" if "hard" in LEVELS else levels[0]
    options = (
        _Option("TournamentOpening", "bool", "True"),
        _Option("RepetitionDraw", "bool", "True"),
        _Option("DefaultLevel", "enum", level, levels),
    )
    return {option.key.lower(): option for option in options}


class UHPEngine:
    """The state of a UHP session: the game, the options and the searcher (its transposition table is kept).

    >>> engine = UHPEngine()
    >>> engine.handle("newgame Base")
    ['Base;NotStarted;White[1]', 'ok']
    >>> engine.handle("play wS1")
    ['Base;InProgress;Black[1];wS1', 'ok']

    :param searcher: the AI behind ``bestmove`` (a deterministic Hive :class:`~hive.games.hive.Searcher` by default).
    """

    def __init__(self, searcher: Searcher | None = None) -> None:
        self.board: Board | None = None
        self.finished = False
        self.searcher = searcher if searcher is not None else Searcher()
        self.option_table = _options()
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

    def handle(self, line: str) -> list[str]:
        """Process one input line and return the output lines.

        Every reply ends with exactly one ``ok`` line; ``exit`` returns ``[]`` and sets :attr:`finished`.
        No input makes this raise: unexpected failures are reported as ``err <type>: <message>``.
        """
        out: list[str] | None
        try:
            out = self._dispatch(line)
        except UHPError as err:
            out = [f"err {err}"]
        except (InvalidMoveError, IllegalMoveError) as err:
            out = [f"invalidmove {err}"]
        except (InvalidGameStringError, InvalidGameTypeError) as err:
            out = [f"err {err}"]
        except Exception as err:
            out = [f"err {type(err).__name__}: {err}"]
        if out is None:
            return []
        return [text.translate(_BREAKS) for text in out] + ["ok"]

    # ------------------------------------------------------------------
    # commands

    def _dispatch(self, line: str) -> list[str] | None:
        words = line.split()
        if not words:
            raise UHPError(f"Empty command. Commands: {', '.join(COMMANDS)}.")
        command = words[0].lower()
        handler = self._handlers.get(command)
        if handler is None:
            raise UHPError(f"Unknown command {_show(words[0])}. Commands: {', '.join(COMMANDS)}.")
        rest = line.strip()[len(words[0]) :].strip()
        return handler(words[1:], rest)

    def _game(self) -> Board:
        if self.board is None:
            raise UHPError(NO_GAME)
        return self.board

    @staticmethod
    def _no_arguments(command: str, args: list[str]) -> None:
        if args:
            raise UHPError(f"{command} takes no arguments, not {_show(' '.join(args))}.")

    def _info(self, args: list[str], rest: str) -> list[str]:
        self._no_arguments("info", args)
        return [f"id hive {__version__}", CAPABILITIES]

    def _newgame(self, args: list[str], rest: str) -> list[str]:
        tournament = self.options["TournamentOpening"] == "True"
        repetition = self.options["RepetitionDraw"] == "True"
        if ";" in rest:
            try:
                board = Board.from_record(rest, tournament_opening=tournament, repetition_draw=repetition)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise UHPError(str(err)) from None
        else:
            board = Board(rest or "Base", tournament_opening=tournament, repetition_draw=repetition)
        rules = (str(board.game_type), tournament, repetition)
        if rules != self._rules:
            self.searcher.tt.clear()
            self._rules = rules
        self.board = board
        return [board.record()]

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
        result = self.searcher.search(board.copy(), limits)
        if result.move not in board.legal_moves:
            raise UHPError(f"The search returned an illegal move ({result.move}).")
        return [board.move_text(result.move)]

    def _limits(self, args: list[str]) -> Limits:
        if not args:
            return LEVELS[self.options["DefaultLevel"]]
        kind = args[0].lower()
        if kind not in ("depth", "time") or len(args) != 2:
            raise UHPError(
                f"Invalid bestmove arguments {_show(' '.join(args))}: expected 'time hh:mm:ss' or 'depth N'."
            )
        if kind == "depth":
            depth = _int(args[1])
            if depth is None or depth < 1:
                raise UHPError(f"Invalid depth {_show(args[1])}: expected a whole number of plies, 1 or more.")
            return Limits(depth=min(depth, MAX_DEPTH))
        match = _TIME.match(args[1])
        if match is None or int(match[2]) >= 60 or float(match[3]) >= 60:
            raise UHPError(f"Invalid time {_show(args[1])}: expected hh:mm:ss (minutes and seconds below 60).")
        seconds = int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])
        if seconds <= 0:
            return Limits(depth=1)
        return Limits(time=max(seconds * TIME_SHARE - TIME_MARGIN, seconds / 2))

    def _undo(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        if len(args) > 1:
            raise UHPError(f"Invalid undo arguments {_show(rest)}: expected 'undo' or 'undo N'.")
        count = _int(args[0]) if args else 1
        if count is None or count < 1:
            raise UHPError(f"Invalid number of moves to undo {_show(args[0])}: expected a whole number, 1 or more.")
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
            self.options[option.key] = option.parse(args[2])
            return [option.line(self.options[option.key])]
        raise UHPError(
            f"Invalid options arguments {_show(rest)}: "
            "expected 'options', 'options get Key' or 'options set Key Value'."
        )

    def _option(self, key: str) -> _Option:
        option = self.option_table.get(key.lower())
        if option is None:
            keys = ", ".join(option.key for option in self.option_table.values())
            raise UHPError(f"Unknown option {_show(key)}. Options: {keys}.")
        return option

    def _perft(self, args: list[str], rest: str) -> list[str]:
        board = self._game()
        if len(args) > 1:
            raise UHPError(f"Invalid perft arguments {_show(rest)}: expected 'perft' or 'perft depth'.")
        depth = _int(args[0]) if args else DEFAULT_PERFT_DEPTH
        if depth is None or not 0 <= depth <= MAX_PERFT_DEPTH:
            raise UHPError(
                f"Invalid perft depth {_show(args[0])}: expected a whole number from 0 to {MAX_PERFT_DEPTH}."
            )
        position = board.copy()
        lines = []
        for d in range(depth + 1):
            start = time.perf_counter()
            count = position.perft(d)
            lines.append(f"{d} {count} {time.perf_counter() - start:.3f}")
        return lines

    def _exit(self, args: list[str], rest: str) -> None:
        self._no_arguments("exit", args)
        self.finished = True


# ----------------------------------------------------------------------
# the process


def _reader(stdin: TextIO) -> Callable[[], str]:
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:
        return stdin.readline
    encoding = getattr(stdin, "encoding", None) or "utf-8"

    def read() -> str:
        raw: bytes = buffer.readline()
        return raw.decode(encoding, "replace")

    return read


def _write(stdout: TextIO, lines: list[str]) -> None:
    if not lines:
        return
    text = "\n".join(lines) + "\n"
    try:
        stdout.write(text)
    except UnicodeEncodeError:
        stdout.write(text.encode("ascii", "backslashreplace").decode("ascii"))
    stdout.flush()


def run(stdin: TextIO, stdout: TextIO, engine: UHPEngine | None = None) -> int:
    """Serve UHP: print the banner, then answer each line of ``stdin`` until end of input or ``exit``.

    Bytes that are not valid text are replaced, never fatal. Returns the exit status (0).
    """
    engine = engine if engine is not None else UHPEngine()
    read = _reader(stdin)
    try:
        _write(stdout, engine.banner())
        while not engine.finished:
            line = read()
            if not line:
                break
            _write(stdout, engine.handle(line))
    except BrokenPipeError:
        return 0
    return 0
