"""Positions labelled with their games' results, for fitting the evaluation (:mod:`~hive.tune.texel`): from
records of real games, and from self-play by the arena.

A position is measured by the AI's evaluation one parameter at a time: its features are the scores of searchers
whose parameters are all 0 but one, at 1. Where the evaluation is linear in its parameters (Hive's is: each term
adds a weight, or takes one away), a position's score with any values is the sum of the values times its features
(:class:`Features` checks it), so a fit needs no evaluation of its own. Parameters that leave the static evaluation
unchanged (the search's) have features that are all 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..arena import MatchPlan, random_opening
from ..arena.match import make_runner
from ..arena.runners import finished_games
from ..arena.tasks import GameTask
from ..game import Game
from ..players import PlayerSpec
from ..plugin import GameSpec
from .capabilities import record_reader, replay_reader


class PositionsError(ValueError):
    """Positions that cannot be had: a game without parameters, records that cannot be read, an evaluation that is
    not linear in its parameters."""


@dataclass(frozen=True)
class Sample:
    """One position: its features (by parameter, from the first player's point of view), its game's result (the
    first player's points: 1, ½ or 0) and the index of its game (a fit holds out whole games)."""

    features: tuple[int, ...]
    result: float
    game: int


@dataclass(frozen=True)
class LabelledGame:
    """A finished game: where it comes from, its final board (its moves on its move stack) and the first player's
    points."""

    source: str
    board: Game[Any]
    result: float


class Features:
    """Measures positions of ``game`` by the AI's parameters (all of them, in :attr:`names`'s order).

    :raises PositionsError: when the game's AI has no parameters.
    """

    def __init__(self, game: GameSpec) -> None:
        ai = game.ai
        if not ai.parameters or ai.searcher_with is None:
            raise PositionsError(f"{game.name}'s AI has no parameters to fit")
        self.names = list(ai.parameters)
        zero = {name: 0.0 for name in self.names}
        self._zero = ai.searcher_with(None, 0, zero)
        self._units = [ai.searcher_with(None, 0, {**zero, name: 1.0}) for name in self.names]
        self._shipped = ai.searcher(None, 0)
        self._values = [float(ai.parameters[name]) for name in self.names]
        self._checked = 0

    def of(self, board: Game[Any]) -> tuple[int, ...]:
        """The features of ``board``'s position (not over), from the first player's point of view.

        :raises PositionsError: when the shipped evaluation of a position is not the sum of its values times its
            features (checked for the first 500 positions).
        """
        sign = 1 if board.turn == 0 else -1
        base = self._zero.evaluate(board)
        features = tuple(sign * (unit.evaluate(board) - base) for unit in self._units)
        if self._checked < 500:
            self._checked += 1
            expected = sign * (self._shipped.evaluate(board) - base)
            if sum(v * f for v, f in zip(self._values, features, strict=True)) != expected:
                raise PositionsError(
                    f"the evaluation of {board.game_name} is not linear in its parameters: it cannot be fitted by "
                    "its features"
                )
        return features


def samples(games: Iterable[LabelledGame], features: Features, skip: int = 4, start: int = 0) -> Iterator[Sample]:
    """Every position of ``games`` after their first ``skip`` moves, the game over ones left out, labelled with
    their game's result; games are numbered from ``start``."""
    for index, labelled in enumerate(games, start=start):
        board = labelled.board.copy()
        while len(board.move_stack) >= skip:
            if not board.is_game_over():
                yield Sample(features.of(board), labelled.result, index)
            if not board.move_stack:
                break
            board.pop()


def _points(result: str) -> float | None:
    return {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}.get(result)


def record_files(paths: Sequence[str | Path]) -> list[Path]:
    """The record files ``paths`` name: files as given, and the PGN, SGF and GameString files of directories (not
    their subdirectories), in order.

    :raises PositionsError: naming a path that does not exist.
    """
    from ..records.detect import EXTENSIONS

    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in EXTENSIONS)
        elif path.is_file():
            found.append(path)
        else:
            raise PositionsError(f"no records at {str(path)!r}: not a file or a directory")
    return found


def recorded_games(paths: Sequence[str | Path], game: GameSpec) -> tuple[list[LabelledGame], list[str]]:
    """The finished games of the record files at ``paths`` (see :func:`record_files`), each game once (a game in
    two files, say PGN and SGF, is kept from the first), and what was left out, in words.

    :raises PositionsError: for a game that offers no reader of its records (:mod:`~hive.tune.capabilities`), or
        a path that is no records.
    """
    read = record_reader(game)
    if read is None:
        raise PositionsError(f"{game.title} offers no reader of its records: its real games cannot be read")
    games: list[LabelledGame] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for path in record_files(paths):
        try:
            for number, recorded in enumerate(read(path), start=1):
                source = f"{path.name}#{number}"
                points = _points(recorded.result)
                key = recorded.game_string()
                if points is None:
                    skipped.append(f"{source}: no result ({'; '.join(recorded.errors) or recorded.result})")
                elif key in seen:
                    skipped.append(f"{source}: the same game as one read before")
                else:
                    seen.add(key)
                    games.append(LabelledGame(source, recorded.board, points))
        except (OSError, ValueError) as err:  # a record format's errors are ValueErrors
            raise PositionsError(f"cannot read the records in {str(path)!r}: {err}") from None
    return games, skipped


def self_play(
    game: GameSpec,
    count: int,
    *,
    depth: int = 2,
    openings: int = 6,
    seed: int = 0,
    jobs: int | None = None,
    ray: bool | str = False,
) -> list[LabelledGame]:
    """``count`` games of the shipped AI against itself at ``depth``, each from a random opening of its own of
    ``openings`` moves (a pair of the arena's from one opening would be one game twice: the players are the same),
    played by the arena's runners (in this process, on ``jobs`` processes, or on Ray).

    :raises PositionsError: for a game that offers no reader of the arena's records of its games
        (:mod:`~hive.tune.capabilities`).
    """
    read = replay_reader(game)
    if read is None:
        raise PositionsError(f"{game.title} offers no reader of the arena's records: its self-play cannot be read")
    plan = MatchPlan(game, games=count, depth=depth, openings=openings, jobs=jobs, ray=ray, engine_timeout=None)
    spec = plan.check()
    player = PlayerSpec("self", "level", "medium")
    settings = plan.settings()
    rng = random.Random(seed)

    def tasks() -> Iterator[GameTask]:
        for number in range(1, count + 1):
            opening = random_opening(spec, openings, rng.randrange(2**32))
            yield GameTask(number, (player, player), ("self", "self"), opening, rng.randrange(2**32), settings)

    runner = make_runner(plan.ray, plan.jobs, count)
    try:
        records = sorted(finished_games(tasks(), runner), key=lambda record: record.number)
    finally:
        runner.close()
    played = []
    for record in records:
        winner = record.outcome.winner
        points = 0.5 if winner is None else 1.0 - winner
        (replayed,) = read([record.record])
        if len(replayed.board.move_stack) != record.moves:
            raise PositionsError(f"an arena game did not replay: {'; '.join(replayed.errors)}")
        played.append(LabelledGame(f"self-play {record.number}", replayed.board, points))
    return played


def split(count: int, holdout: float, seed: int) -> set[int]:
    """The games (of ``count``, by index) held out: a ``holdout`` share of them, drawn by ``seed``."""
    if not 0 <= holdout < 1:
        raise ValueError(f"the held-out share must be from 0 to below 1, not {holdout:g}")
    return set(random.Random(seed).sample(range(count), round(count * holdout)))


__all__ = [
    "Features",
    "LabelledGame",
    "PositionsError",
    "Sample",
    "record_files",
    "recorded_games",
    "samples",
    "self_play",
    "split",
]
