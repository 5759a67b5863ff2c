"""A match's games as tasks: each depends only on its number and the match's seed, so every runner plays the same
games (in this process, in a process pool, or on a Ray cluster)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine import EngineError
from ..players import Player, PlayerSpec, make_player
from ..plugin import GameSpec
from .loop import forfeit, game_spec, new_board, play_game
from .openings import random_opening
from .stats import GameRecord


@dataclass(frozen=True)
class Settings:
    """What every game of a match shares."""

    game: str
    max_moves: int
    time: float | None
    depth: int | None
    engine_timeout: float | None


@dataclass(frozen=True)
class GameTask:
    """One game: names and numbers only, so that it pickles. Players go first player first.

    :ivar number: the game's number in the match, from 1; games ``2k - 1`` and ``2k`` are a pair.
    :ivar seed: the seed of the game's players (the second player gets ``seed + 1``).
    """

    number: int
    players: tuple[PlayerSpec, PlayerSpec]
    labels: tuple[str, str]
    opening: tuple[str, ...]
    seed: int
    settings: Settings

    @property
    def player1_first(self) -> bool:
        """Whether PLAYER1 moves first: in the odd games."""
        return self.number % 2 == 1


def match_tasks(
    spec: GameSpec,
    players: Sequence[PlayerSpec],
    labels: Sequence[str],
    settings: Settings,
    *,
    games: int,
    openings: int,
    seed: int,
) -> Iterator[GameTask]:
    """The match's games in order, made as they are asked for (an opening is drawn when its pair is reached).

    The seeds come from one generator seeded with ``seed``: for each pair, its opening's seed and then each game's
    own seed, so the ``n``-th task is the same whoever plays it and however many games the match has.
    """
    rng = random.Random(seed)
    opening: tuple[str, ...] = ()
    for number in range(1, games + 1):
        if number % 2:
            opening = random_opening(spec, openings, rng.randrange(2**32))
        first, second = (0, 1) if number % 2 else (1, 0)
        yield GameTask(
            number,
            (players[first], players[second]),
            (labels[first], labels[second]),
            opening,
            rng.randrange(2**32),
            settings,
        )


def play_task(task: GameTask) -> GameRecord:
    """Play ``task``'s game; a player whose engine cannot start forfeits it."""
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
        task.number,
        first,
        second,
        task.player1_first,
        played.outcome,
        played.moves,
        played.record,
        spec.name,
        played.judges,
        played.disputes,
        played.thinking,
    )


__all__ = ["GameTask", "Settings", "match_tasks", "play_task"]
