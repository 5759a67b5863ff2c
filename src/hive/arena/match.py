"""A match: pairs of games from shared random openings, colours swapped, played in parallel processes."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..engine import EngineError, SimpleEngine
from ..game import GameSpec
from ..players import Player, PlayerSpec, check_player, make_player
from ..search import Limits
from .loop import forfeit, game_spec, new_board, play_game
from .openings import random_opening
from .stats import GameRecord, MatchResult, plural_noun


@dataclass(frozen=True)
class _Settings:
    """What every game of a match shares."""

    game: str
    max_moves: int
    time: float | None
    depth: int | None
    engine_timeout: float | None


@dataclass(frozen=True)
class _GameTask:
    """One game for a worker process: names and numbers only, so that it pickles. Players go first player first."""

    number: int
    players: tuple[PlayerSpec, PlayerSpec]
    labels: tuple[str, str]
    opening: tuple[str, ...]
    seed: int
    settings: _Settings

    @property
    def player1_first(self) -> bool:
        return self.number % 2 == 1


def check_settings(
    game: GameSpec | str,
    *,
    games: int = 2,
    time: float | None = None,
    depth: int | None = None,
    max_moves: int | None = None,
    openings: int = 2,
    jobs: int | None = None,
) -> GameSpec:
    """The game named, once the match's numbers are known to be good.

    :raises ValueError: naming the unknown game or the bad number.
    """
    spec = game_spec(game)
    counts = (("games", games, 1), (f"max {plural_noun(spec.move_noun)}", max_moves, 1), ("openings", openings, 0))
    for name, value, low in counts:
        if value is not None and value < low:
            raise ValueError(f"{name} must be >= {low}, not {value}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    if time is not None and depth is not None:
        raise ValueError("give a time or a depth, not both")
    if time is not None or depth is not None:
        Limits(time=time, depth=depth)
    return spec


def _play_task(task: _GameTask) -> GameRecord:
    settings = task.settings
    spec = game_spec(settings.game)
    players: list[Player] = []
    try:
        try:
            for side, wanted in enumerate(task.players):
                players.append(
                    make_player(
                        wanted,
                        spec,
                        time=settings.time,
                        depth=settings.depth,
                        seed=task.seed + side,
                        engine_timeout=settings.engine_timeout,
                    )
                )
        except EngineError as err:
            played = forfeit(new_board(spec), len(players), err)
        else:
            played = play_game(*players, game=spec, opening=task.opening, max_moves=settings.max_moves)
    finally:
        for player in players:
            with contextlib.suppress(EngineError):
                player.close()
    first, second = task.labels
    return GameRecord(
        task.number, first, second, task.player1_first, played.outcome, played.moves, played.record, spec.name
    )


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_tasks(tasks: list[_GameTask], jobs: int) -> Iterable[GameRecord]:
    if jobs <= 1:
        for task in tasks:
            yield _play_task(task)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_ignore_sigint) as pool:
        yield from pool.imap_unordered(_play_task, tasks, chunksize=1)


def _label(number: int, spec: PlayerSpec, game: GameSpec, timeout: float | None) -> str:
    """A player's name in reports; an engine is started once to learn its name and check that it plays ``game``."""
    if spec.type != "uhp":
        return spec.label
    try:
        with SimpleEngine.popen_uhp(spec.arg, timeout=timeout) as engine:
            engine.communicate(f"newgame {game.name}")
            return engine.name
    except EngineError as err:
        raise EngineError(f"player {number} {spec.text!r}: {err}") from None


def run_match(
    player1: str | PlayerSpec,
    player2: str | PlayerSpec,
    *,
    games: int = 2,
    game: GameSpec | str = "Base+MLP",
    time: float | None = None,
    depth: int | None = None,
    max_moves: int | None = None,
    openings: int = 2,
    seed: int | None = None,
    jobs: int | None = None,
    engine_timeout: float | None = 60.0,
    on_game: Callable[[GameRecord, MatchResult], None] | None = None,
) -> MatchResult:
    """Play a match of ``game``; games ``2k`` and ``2k+1`` share a random opening of ``openings`` moves.

    PLAYER1 moves first in the first game of each pair. ``time``/``depth`` override the built-in levels' limits and
    set the external engines' (default :data:`~hive.players.DEFAULT_ENGINE_TIME` seconds a move). A game still
    running after ``max_moves`` moves (default: the game's) is adjudicated. ``jobs`` processes play in parallel
    (default: one per core). ``on_game`` is called in this process after each game.

    :raises ValueError: naming a bad player, game or number.
    :raises EngineError: when an external engine cannot start or rejects the game.
    """
    spec = check_settings(game, games=games, time=time, depth=depth, max_moves=max_moves, openings=openings, jobs=jobs)
    limit = spec.max_moves if max_moves is None else max_moves
    specs = [check_player(player, spec) for player in (player1, player2)]
    labels = [_label(number, player, spec, engine_timeout) for number, player in enumerate(specs, start=1)]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}#1", f"{labels[1]}#2"]
    if seed is None:
        seed = random.randrange(2**32)
    rng = random.Random(seed)
    settings = _Settings(spec.name, limit, time, depth, engine_timeout)
    tasks: list[_GameTask] = []
    opening: tuple[str, ...] = ()
    for number in range(1, games + 1):
        if number % 2:
            opening = random_opening(spec, openings, rng.randrange(2**32))
        first, second = (0, 1) if number % 2 else (1, 0)
        players = (specs[first], specs[second])
        names = (labels[first], labels[second])
        tasks.append(_GameTask(number, players, names, opening, rng.randrange(2**32), settings))
    result = MatchResult(labels[0], labels[1], seed)
    workers = min(jobs if jobs is not None else os.cpu_count() or 1, games)
    for record in _run_tasks(tasks, workers):
        result.games.append(record)
        if on_game is not None:
            on_game(record, result)
    result.games.sort(key=lambda g: g.number)
    return result


__all__ = ["check_settings", "run_match"]
