"""A tuning run's games, played by the arena (:func:`hive.arena.run_match`) on one runner kept for the whole run:
in this process, in worker processes on every core, or on a Ray cluster, as ``hive match`` plays them.

An iteration's pair of games (or pairs) puts ``plus`` against ``minus`` from the same random opening, sides
swapped; a confirmation plays the run's current values against the shipped ones until the arena's SPRT decides (or
its most games are played).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..arena import MatchPlan, MatchResult, Sprt, run_match
from ..arena.match import make_runner
from ..arena.runners import Runner
from ..arena.stats import GameRecord
from ..games import DEFAULT_GAME
from ..players import PlayerSpec
from .spsa import Perturbation, iteration_random

#: The level the run's players are made from; their limits are always the run's own (a depth or a time).
LEVEL = "medium"


@dataclass(frozen=True)
class Games:
    """How a run's games are played.

    :ivar game: the game's name (``Base+MLP``).
    :ivar depth: each move's search depth (deterministic, whatever the machine's load), or ``None`` with ``time``.
    :ivar time: each move's seconds instead of a depth.
    :ivar openings: random moves opening each pair of games.
    :ivar max_moves: the move limit after which a game is adjudicated (``None``: the game's own).
    :ivar pairs: pairs of games an iteration plays (each from its own opening), their results averaged.
    """

    game: str = DEFAULT_GAME
    depth: int | None = 3
    time: float | None = None
    openings: int = 4
    max_moves: int | None = None
    pairs: int = 1

    def check(self) -> None:
        """:raises ValueError: naming a bad game or number."""
        if (self.depth is None) == (self.time is None):
            raise ValueError("a run's games need a depth or a time, not both")
        if self.pairs < 1:
            raise ValueError(f"pairs must be >= 1, not {self.pairs}")
        self.plan(2).check()

    def plan(self, games: int, seed: int | None = None) -> MatchPlan:
        """The arena's plan of ``games`` of these games from ``seed`` (played on the run's own runner)."""
        return MatchPlan(
            game=self.game,
            games=games,
            time=self.time,
            depth=self.depth,
            max_moves=self.max_moves,
            openings=self.openings,
            seed=seed,
        )

    def describe(self) -> str:
        """``Base+MLP at depth 3, openings of 4 random moves``..."""
        limit = f"depth {self.depth}" if self.depth is not None else f"{self.time:g} s a move"
        pairs = f"{self.pairs} pairs" if self.pairs > 1 else "a pair"
        return f"{self.game} at {limit}, openings of {self.openings} random moves, {pairs} of games an iteration"


@dataclass(frozen=True)
class Confirmation:
    """How often, and by what test, a run's values are confirmed against the shipped ones.

    :ivar every: confirm after every ``every`` iterations, and after the last (0: never).
    :ivar elo0: the SPRT's H0: the values are ``elo0`` logistic Elo stronger than the shipped ones.
    :ivar elo1: its H1: ``elo1`` stronger.
    :ivar alpha: the chance of accepting H1 when H0 holds.
    :ivar beta: the chance of accepting H0 when H1 holds.
    :ivar games: the most games a confirmation plays; past them it ends with no verdict.
    """

    every: int = 100
    elo0: float = 0.0
    elo1: float = 40.0
    alpha: float = 0.05
    beta: float = 0.05
    games: int = 400

    @property
    def sprt(self) -> Sprt:
        """The test (its checks raise :class:`~hive.arena.SprtError` for bad bounds or chances)."""
        return Sprt(self.elo0, self.elo1, self.alpha, self.beta)

    def check(self) -> None:
        """:raises ValueError: naming the bad setting."""
        if self.every < 0:
            raise ValueError(f"confirmations every N iterations: N must be >= 0, not {self.every}")
        if self.games < 2 or self.games % 2:
            raise ValueError(f"a confirmation's most games must be an even number >= 2, not {self.games}")
        self.sprt  # noqa: B018 (checks the test's numbers)


@dataclass(frozen=True)
class PairOutcome:
    """An iteration's games: ``result`` is plus's score minus minus's, as a fraction of the games (-1 to 1), and
    ``games`` each game as ``[who moved first, result, moves]``."""

    result: float
    points: float
    games: list[list[Any]] = field(default_factory=list)


class Player(Protocol):
    """What a run needs to play: an iteration's pair of games, and a confirmation (:class:`ArenaPlayer`, or a test's
    stand-in)."""

    def pair(self, step: Perturbation) -> PairOutcome:
        """The games of ``plus`` against ``minus``."""
        ...

    def confirm(self, values: Mapping[str, float], iteration: int, seed: int) -> dict[str, Any]:
        """The SPRT of ``values`` against the shipped ones (:func:`verdict_entry`)."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


def player_spec(label: str, values: Mapping[str, float]) -> PlayerSpec:
    """A level player with ``values`` set (the arena's :class:`~hive.players.PlayerSpec`), called ``label``."""
    return PlayerSpec(label, "level", LEVEL, tuple(values.items()))


def rounded(values: Mapping[str, float]) -> dict[str, int]:
    """``values`` as the AI plays them: whole numbers."""
    return {name: round(value) for name, value in values.items()}


def _elo(result: MatchResult) -> list[float | None]:
    return [round(v, 1) if math.isfinite(v) else None for v in result.elo()]


def verdict_entry(
    iteration: int, confirmation: Confirmation, result: MatchResult, values: Mapping[str, float]
) -> dict[str, Any]:
    """What a run records of a confirmation after ``iteration``: the test, its verdict (``H1``, ``H0`` or ``None``),
    its log-likelihood ratio, the pairs by the candidate's points (0, ½, 1, 1½, 2), W/D/L, the Elo estimate with its
    95 % interval (``None`` for an infinite end), and the values tested."""
    sprt = result.sprt
    return {
        "iteration": iteration,
        "sprt": {k: v for k, v in asdict(confirmation).items() if k in ("elo0", "elo1", "alpha", "beta")},
        "verdict": sprt.verdict if sprt is not None else None,
        "llr": round(sprt.llr, 3) if sprt is not None else 0.0,
        "pairs": sprt.pairs if sprt is not None else 0,
        "counts": list(sprt.counts) if sprt is not None else [],
        "wdl": [result.wins, result.draws, result.losses],
        "elo": _elo(result),
        "seed": result.seed,
        "values": rounded(values),
    }


def _game(record: GameRecord) -> list[Any]:
    return [record.first, record.result, record.moves]


class ArenaPlayer:
    """Plays a run's games with the arena on one runner (``jobs`` processes, or Ray: see
    :func:`hive.arena.run_match`), kept until :meth:`close`.

    :raises ValueError: naming a bad setting.
    :raises ~hive.arena.cluster.ClusterError: when Ray is asked for and missing or out of reach.
    """

    def __init__(
        self, games: Games, confirmation: Confirmation, *, jobs: int | None = None, ray: bool | str = False
    ) -> None:
        games.check()
        confirmation.check()
        self.games = games
        self.confirmation = confirmation
        self.runner: Runner = make_runner(
            ray, jobs, max(2 * games.pairs, confirmation.games if confirmation.every else 2)
        )

    def _match(
        self, first: PlayerSpec, second: PlayerSpec, count: int, seed: int, sprt: Sprt | None = None
    ) -> MatchResult:
        return run_match(first, second, self.games.plan(count, seed), sprt=sprt, runner=self.runner)

    def pair(self, step: Perturbation) -> PairOutcome:
        """The iteration's games, ``plus`` moving first in the first of each pair."""
        pairs = self.games.pairs
        result = self._match(player_spec("plus", step.plus), player_spec("minus", step.minus), 2 * pairs, step.seed)
        return PairOutcome((result.score - pairs) / pairs, result.score, [_game(r) for r in result.games])

    def confirm(self, values: Mapping[str, float], iteration: int, seed: int) -> dict[str, Any]:
        """The SPRT of ``values`` (rounded) against the shipped values, up to the confirmation's most games."""
        shipped = PlayerSpec("shipped", "level", LEVEL)
        candidate = player_spec(f"tuned@{iteration}", rounded(values))
        match_seed = iteration_random(seed, iteration, "confirm").randrange(2**32)
        result = self._match(candidate, shipped, self.confirmation.games, match_seed, self.confirmation.sprt)
        return verdict_entry(iteration, self.confirmation, result, values)

    def close(self) -> None:
        """Stop the workers."""
        self.runner.close()


__all__ = [
    "LEVEL",
    "ArenaPlayer",
    "Confirmation",
    "Games",
    "PairOutcome",
    "Player",
    "player_spec",
    "rounded",
    "verdict_entry",
]
