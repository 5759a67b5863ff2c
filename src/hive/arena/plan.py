"""A match's plan: the game, the limits a move is searched to, how many games from what openings, the seed, where
they are played; one value that ``hive match``, ``hive tournament``, ``hive tune`` and the Python API build and
hand to :func:`~hive.arena.run_match` or :func:`~hive.arena.tournament.run_tournament`."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..games import DEFAULT_GAME
from ..plugin import GameSpec
from ..search import Limits
from .loop import game_spec
from .settings import arena_settings
from .stats import plural_noun
from .tasks import Settings


@dataclass(frozen=True)
class MatchPlan:
    """How the games of a match (or of each pairing of a tournament) are played.

    >>> from hive.arena import MatchPlan
    >>> plan = MatchPlan(game="Base", games=4, depth=1, seed=7)
    >>> plan.check().name, plan.move_limit
    ('Base', 200)

    :ivar game: the game, or its name (default :data:`hive.games.DEFAULT_GAME`).
    :ivar games: the games played (a tournament: of each pairing; with an SPRT: the most).
    :ivar time: seconds a move for every player, overriding the built-in levels' limits and setting the external
        engines' (default :data:`~hive.players.DEFAULT_ENGINE_TIME`); ``None`` with ``depth`` or neither.
    :ivar depth: the search depth of every move instead.
    :ivar max_moves: the move limit after which a game is adjudicated (``None``: the game's own, its
        :attr:`~hive.arena.settings.ArenaSettings.max_moves`).
    :ivar openings: random moves opening each pair of games.
    :ivar seed: the seed every game depends on (``None``: one drawn when the games are played, :meth:`seeded`).
    :ivar jobs: games played at once (default: one per core; on a Ray cluster, all of its CPUs).
    :ivar ray: play on Ray: ``True`` for a local cluster (or the Ray session already open in this process), or a
        cluster's address (``HOST:PORT``, ``ray://HOST:PORT``, ``auto``); ``False`` for this machine.
    :ivar engine_timeout: seconds an external engine may take beyond its move time before it forfeits
        (``None``: no limit).
    """

    game: GameSpec | str = DEFAULT_GAME
    games: int = 2
    time: float | None = None
    depth: int | None = None
    max_moves: int | None = None
    openings: int = 2
    seed: int | None = None
    jobs: int | None = None
    ray: bool | str = False
    engine_timeout: float | None = 60.0

    @property
    def spec(self) -> GameSpec:
        """The game (see :func:`hive.find_game`).

        :raises ~hive.game.UnknownGameError: naming the unknown game.
        """
        return game_spec(self.game)

    @property
    def move_limit(self) -> int:
        """The moves after which a game is adjudicated: :attr:`max_moves`, or the game's own."""
        return arena_settings(self.spec).max_moves if self.max_moves is None else self.max_moves

    def check(self) -> GameSpec:
        """The game, once the plan's numbers are known to be good.

        :raises ValueError: naming the unknown game or the bad number.
        """
        spec = self.spec
        counts = (
            ("games", self.games, 1),
            (f"max {plural_noun(spec.move_noun)}", self.max_moves, 1),
            ("openings", self.openings, 0),
        )
        for name, value, low in counts:
            if value is not None and value < low:
                raise ValueError(f"{name} must be >= {low}, not {value}")
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be >= 1, not {self.jobs}")
        if self.time is not None and self.depth is not None:
            raise ValueError("give a time or a depth, not both")
        if self.time is not None or self.depth is not None:
            Limits(time=self.time, depth=self.depth)
        if self.engine_timeout is not None and not self.engine_timeout > 0:
            raise ValueError(f"engine timeout must be > 0 seconds, not {self.engine_timeout}")
        return spec

    def seeded(self) -> MatchPlan:
        """This plan with a seed: its own, or one drawn now."""
        return self if self.seed is not None else dataclasses.replace(self, seed=random.randrange(2**32))

    def settings(self) -> Settings:
        """What every game of the plan shares, as its tasks carry it."""
        return Settings(self.spec.name, self.move_limit, self.time, self.depth, self.engine_timeout)


__all__ = ["MatchPlan"]
