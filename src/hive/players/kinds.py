"""The players themselves: a game's built-in searcher, its random mover and an external UHP engine, behind one
:class:`Player` interface, made from a :class:`~hive.players.specs.PlayerSpec` by :func:`make_player`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from ..engine import EngineError, SimpleEngine
from ..game import Game
from ..plugin import GameSpec
from ..search import Limits, SearchResult
from .specs import (
    THREAD_OPTIONS,
    PlayerSpec,
    check_player,
    engine_limits,
    search_limits,
)


class Player(Protocol):
    """Anything that chooses moves: asked for one whenever it is its turn, closed when the game is done."""

    name: str

    def choose(self, board: Game[Any]) -> Any:
        """A legal move of ``board`` (a value of the game's move type); ``board`` is left as it was."""
        ...

    def close(self) -> None:
        """Release what the player holds (an engine's process); harmless when called twice."""
        ...


@runtime_checkable
class Timed(Protocol):
    """A player whose limits may be set before each move (a search or an engine playing on a clock)."""

    limits: Limits


@runtime_checkable
class Reporting(Protocol):
    """A player that says how it found its last move (a built-in search): the arena's report of depths and
    nodes."""

    #: The search of the player's last move, ``None`` before its first.
    last_search: SearchResult[Any] | None


@runtime_checkable
class Judge(Protocol):
    """A player with rules of its own (an external engine), which can say how a game stands by them: the arena's
    check that both sides' rules end every game alike."""

    name: str

    def judge(self, board: Game[Any]) -> str:
        """How ``board``'s game stands by the player's rules, in UHP's words (``InProgress``, ``Draw``,
        ``WhiteWins``, ``BlackWins``).

        :raises ~hive.engine.EngineError: when the player cannot say.
        """
        ...


class SearchPlayer:
    """The game's built-in searcher with fixed limits (its transposition table, and on more than one process its
    helper processes, are kept between moves; :meth:`close` stops the helpers).

    :param game: the game played.
    :param limits: how long each move is searched.
    :param name: the player's name in reports.
    :param seed: seeds the searcher's randomness; ``None`` plays deterministically.
    :param values: the AI's parameters set apart from the shipped ones (see :attr:`GameAI.parameters
        <hive.plugin.GameAI.parameters>`).
    :raises ValueError: when the game's AI refuses a parameter's name or value.
    """

    def __init__(
        self,
        game: GameSpec,
        limits: Limits,
        name: str = "ai",
        seed: int | None = None,
        values: Mapping[str, float] | None = None,
    ) -> None:
        self.name = name
        self.limits = limits
        self.last_search: SearchResult[Any] | None = None
        if values:
            if game.ai.searcher_with is None:
                raise ValueError(f"{game.title}'s AI has no parameters to set")
            self.searcher: Any = game.ai.searcher_with(seed, 0, values)
        else:
            self.searcher = game.ai.searcher(seed, 0)

    def choose(self, board: Game[Any]) -> Any:
        """The searcher's best move in ``board`` within :attr:`limits` (its search kept in :attr:`last_search`)."""
        self.last_search = self.searcher.search(board, self.limits)
        return self.last_search.move

    def close(self) -> None:
        """Stop the helper processes the searcher keeps for searches on more than one process."""
        close = getattr(self.searcher, "close", None)
        if close is not None:
            close()


class RandomPlayer:
    """The game's random mover, with a random generator of its own.

    :param game: the game played.
    :param seed: seeds the generator; the same seed plays the same moves.
    """

    name = "random"

    def __init__(self, game: GameSpec, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._random_move = game.ai.random_move

    def choose(self, board: Game[Any]) -> Any:
        """A random legal move of ``board``."""
        return self._random_move(board, self.rng)

    def close(self) -> None:
        """Nothing to release."""


def configure_engine(engine: SimpleEngine, options: Mapping[str, str], threads: int | None) -> None:
    """Set ``engine``'s ``options`` and its thread count (under the name it gives it: one of
    :data:`THREAD_OPTIONS`) with ``options set``.

    :raises EngineError: when the engine has no such option or refuses a value.
    """
    wanted = dict(options)
    if threads is not None:
        names = {name.lower() for name in THREAD_OPTIONS}
        name = next((name for name in engine.options if name.lower() in names), None)
        if name is None:
            raise EngineError(
                f"engine {engine.name!r} has no thread count option ({' or '.join(THREAD_OPTIONS)}; its options: "
                f"{', '.join(engine.options) or 'none'})"
            )
        wanted[name] = str(threads)
    if wanted:
        engine.configure(wanted)


class EnginePlayer:
    """An external UHP engine, started at once and set up with its options; call :meth:`close` when done.

    :param command: the engine's command line.
    :param limits: the ``bestmove`` limit of every move.
    :param timeout: seconds the engine may take beyond its move time before it fails.
    :param options: options set with ``options set`` once the engine has started.
    :param threads: the engine's thread count (see :func:`configure_engine`).
    :raises EngineError: when the engine cannot be started or refuses an option.
    """

    def __init__(
        self,
        command: str,
        limits: Limits,
        *,
        timeout: float | None = 60.0,
        options: Mapping[str, str] | None = None,
        threads: int | None = None,
    ) -> None:
        self.limits = limits
        self.engine = SimpleEngine.popen_uhp(command, timeout=timeout)
        self.name = self.engine.name
        try:
            configure_engine(self.engine, options or {}, threads)
        except EngineError:
            self.engine.quit()
            raise

    def choose(self, board: Game[Any]) -> Any:
        """The engine's best move in ``board``.

        :raises EngineError: when the engine fails, hangs or answers with something that is not a legal move.
        """
        return self.engine.play(board, self.limits).move

    def judge(self, board: Game[Any]) -> str:
        """How ``board``'s game stands by the engine's rules (:meth:`~hive.engine.SimpleEngine.game_state`).

        :raises EngineError: when the engine fails or does not answer with a GameString.
        """
        return self.engine.game_state(board)

    def close(self) -> None:
        """Quit the engine (killing it if it does not exit)."""
        self.engine.quit()


def make_player(
    spec: PlayerSpec | str,
    game: GameSpec,
    *,
    time: float | None = None,
    depth: int | None = None,
    seed: int | None = None,
    engine_timeout: float | None = 60.0,
) -> Player:
    """A player of ``game``; ``time``/``depth`` (the match's) override a level's limits and set an engine's, unless
    the player has limits of its own (:meth:`PlayerSpec.own`).

    External engines are started here: :meth:`Player.close` them when done.

    :raises InvalidPlayerError: for a bad player, or a UHP engine for a game UHP engines do not play.
    :raises ValueError: for bad limits.
    :raises EngineError: when an external engine cannot be started.
    """
    spec = check_player(spec, game)
    if spec.type == "random":
        return RandomPlayer(game, seed)
    if spec.type == "level":
        return SearchPlayer(game, search_limits(spec, game, time, depth), spec.label, seed, dict(spec.values))
    return EnginePlayer(
        spec.arg,
        engine_limits(*spec.limits_of(time, depth)),
        timeout=engine_timeout,
        options=dict(spec.options),
        threads=spec.threads,
    )
