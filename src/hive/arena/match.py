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
from .cluster import RayRunner
from .plan import MatchPlan
from .runners import InlineRunner, PoolRunner, Runner, finished_games
from .sprt import Sprt, SprtError, SprtTracker
from .stats import GameRecord, MatchResult
from .tasks import match_tasks


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
    plan: MatchPlan | None = None,
    *,
    on_game: Callable[[GameRecord, MatchResult], None] | None = None,
    sprt: Sprt | None = None,
    runner: Runner | None = None,
) -> MatchResult:
    """Play a match as ``plan`` says (default: :class:`MatchPlan`'s defaults); games ``2k - 1`` and ``2k`` share a
    random opening of ``plan.openings`` moves.

    PLAYER1 moves first in the first game of each pair. The plan's ``time``/``depth`` override the built-in levels'
    limits and set the external engines' (default :data:`~hive.players.DEFAULT_ENGINE_TIME` seconds a move). A game
    still running after ``plan.max_moves`` moves (default: the game's) is adjudicated. Each game depends only on its
    number and the plan's seed, so every way of playing them (``plan.jobs``, ``plan.ray``) gives the same games.

    :param sprt: stop as soon as this test decides (``plan.games`` is then the most that are played); the result
        holds the games of the pairs it counted, and its verdict (:attr:`MatchResult.sprt`).
    :param on_game: called in this process with each game as it finishes, and the match so far.
    :param runner: play the games with this runner (:func:`make_runner`'s), left open for the next match, instead
        of one made for this match (the plan's ``jobs`` and ``ray`` are then its); with ``sprt``, games still
        running when the test decides are waited for and dropped, so that none is left in the runner.
    :raises ValueError: naming a bad player, game or number.
    :raises EngineError: when an external engine cannot start or rejects the game.
    :raises ~hive.arena.cluster.ClusterError: when Ray is missing or its cluster cannot be reached.
    """
    plan = plan or MatchPlan()
    spec = plan.check()
    if sprt is not None and plan.games < 2:
        raise SprtError(f"an SPRT counts pairs of games: games must be >= 2, not {plan.games}")
    specs = [check_player(player, spec) for player in (player1, player2)]
    labels = [player_label(number, player, spec, plan.engine_timeout) for number, player in enumerate(specs, 1)]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}#1", f"{labels[1]}#2"]
    seed = plan.seed if plan.seed is not None else random.randrange(2**32)
    tasks = match_tasks(spec, specs, labels, plan.settings(), games=plan.games, openings=plan.openings, seed=seed)
    result = MatchResult(labels[0], labels[1], seed)
    tracker = SprtTracker(sprt) if sprt is not None else None
    owned = runner is None
    playing = make_runner(plan.ray, plan.jobs, plan.games) if runner is None else runner
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


__all__ = ["make_runner", "player_label", "run_match"]
