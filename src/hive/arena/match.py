"""A match: pairs of games from shared random openings, colours swapped, played in this process, in parallel
processes or on a Ray cluster, optionally stopped by a sequential probability ratio test."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable

from ..engine import EngineError, SimpleEngine
from ..players import PlayerSpec, check_player, configure_engine
from ..plugin import GameSpec
from ..search import Limits
from .cluster import RayRunner
from .loop import game_spec
from .runners import InlineRunner, PoolRunner, Runner, finished_games
from .settings import arena_settings
from .sprt import Sprt, SprtError, SprtTracker
from .stats import GameRecord, MatchResult, plural_noun
from .tasks import Settings, match_tasks


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


def make_runner(ray: bool | str, jobs: int | None, games: int) -> Runner:
    """The runner asked for; ``jobs`` defaults to one per core, except on a Ray cluster (all of its CPUs)."""
    local = min(jobs if jobs is not None else os.cpu_count() or 1, games)
    if ray is not False:
        return RayRunner(None, local) if ray is True else RayRunner(ray, jobs)
    return PoolRunner(local) if local > 1 else InlineRunner()


def player_label(number: int, spec: PlayerSpec, game: GameSpec, timeout: float | None) -> str:
    """A player's name in reports; an engine is started once to learn its name and check that it takes its options
    and plays ``game``."""
    if spec.type != "uhp":
        return spec.label
    try:
        with SimpleEngine.popen_uhp(spec.arg, timeout=timeout) as engine:
            configure_engine(engine, dict(spec.options), spec.threads)
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
    ray: bool | str = False,
    sprt: Sprt | None = None,
    runner: Runner | None = None,
) -> MatchResult:
    """Play a match of ``game``; games ``2k - 1`` and ``2k`` share a random opening of ``openings`` moves.

    PLAYER1 moves first in the first game of each pair. ``time``/``depth`` override the built-in levels' limits and
    set the external engines' (default :data:`~hive.players.DEFAULT_ENGINE_TIME` seconds a move). A game still
    running after ``max_moves`` moves (default: the game's) is adjudicated. Each game depends only on its number and
    ``seed``, so every way of playing them gives the same games.

    :param jobs: games played at once (default: one per core): in this process when 1, else in worker processes,
        or the CPUs of the local Ray cluster.
    :param ray: play on Ray: ``True`` for a local cluster (or the Ray session already open in this process), or a
        cluster's address (``HOST:PORT``, ``ray://HOST:PORT``, ``auto``). Needs the ``cluster`` extra.
    :param sprt: stop as soon as this test decides (``games`` is then the most that are played); the result
        holds the games of the pairs it counted, and its verdict (:attr:`MatchResult.sprt`).
    :param on_game: called in this process with each game as it finishes, and the match so far.
    :param runner: play the games with this runner (:func:`make_runner`'s), left open for the next match, instead
        of one made for this match (``jobs`` and ``ray`` are then its); with ``sprt``, games still running when the
        test decides are waited for and dropped, so that none is left in the runner.
    :raises ValueError: naming a bad player, game or number.
    :raises EngineError: when an external engine cannot start or rejects the game.
    :raises ~hive.arena.cluster.ClusterError: when Ray is missing or its cluster cannot be reached.
    """
    spec = check_settings(game, games=games, time=time, depth=depth, max_moves=max_moves, openings=openings, jobs=jobs)
    if sprt is not None and games < 2:
        raise SprtError(f"an SPRT counts pairs of games: games must be >= 2, not {games}")
    limit = arena_settings(spec).max_moves if max_moves is None else max_moves
    specs = [check_player(player, spec) for player in (player1, player2)]
    labels = [player_label(number, player, spec, engine_timeout) for number, player in enumerate(specs, start=1)]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}#1", f"{labels[1]}#2"]
    if seed is None:
        seed = random.randrange(2**32)
    settings = Settings(spec.name, limit, time, depth, engine_timeout)
    tasks = match_tasks(spec, specs, labels, settings, games=games, openings=openings, seed=seed)
    result = MatchResult(labels[0], labels[1], seed)
    tracker = SprtTracker(sprt) if sprt is not None else None
    owned = runner is None
    playing = make_runner(ray, jobs, games) if runner is None else runner
    decided: list[bool] = []  # not empty once the test has decided
    try:
        for record in finished_games(itertools.takewhile(lambda _: not decided, tasks), playing):
            if decided:
                continue  # a game of a shared runner, finished after the decision
            result.games.append(record)
            if tracker is not None:
                result.sprt = tracker.add(record.number, record.player1_score)
            if on_game is not None:
                on_game(record, result)
            if result.sprt is not None and result.sprt.verdict is not None:
                if owned:
                    break
                decided.append(True)  # no more games; those running finish above
    finally:
        if owned:
            playing.close()
    if tracker is not None and tracker.result.verdict is not None:
        result.games = [record for record in result.games if record.number <= 2 * tracker.pairs]
    result.games.sort(key=lambda g: g.number)
    return result


__all__ = ["check_settings", "run_match"]
