"""Tournaments in the arena: a round robin or a gauntlet among any players the arena knows, each pairing a short
match (pairs of games from shared random openings, sides swapped), in this process, in parallel processes or on
Ray; scored by :mod:`hive.tournament` and shown as a crosstable with each player's Elo against the field."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..players import PlayerSpec, check_player
from ..plugin import GameSpec
from ..tournament import Game, Standing, round_robin_rounds, standings
from .match import make_runner, player_label
from .openings import random_opening
from .plan import MatchPlan
from .runners import finished_games
from .stats import GameRecord, elo_difference, plural
from .tasks import GameTask, Settings

ROUND_ROBIN = "round-robin"
GAUNTLET = "gauntlet"
FORMATS = (ROUND_ROBIN, GAUNTLET)


def schedule(labels: Sequence[str], format: str, cycles: int = 1) -> list[tuple[str, str]]:
    """The pairings of a tournament among ``labels``, in the order they are played, the first-named moving first
    in the first game of each: a round robin's by the Berger tables (``cycles`` times), a gauntlet's the first
    player against each other one.

    :raises ValueError: naming a bad format, cycle count or number of players.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: {' or '.join(FORMATS)}")
    if format == GAUNTLET:
        if len(labels) < 2:
            raise ValueError(f"a gauntlet needs at least 2 players, not {len(labels)}")
        return [(labels[0], other) for _ in range(cycles) for other in labels[1:]]
    if len(labels) < 3:
        raise ValueError(f"a round robin needs at least 3 players, not {len(labels)} (for 2, hive match)")
    return [(g.first, g.second) for games in round_robin_rounds(labels, cycles) for g in games if g.second is not None]


def tournament_tasks(
    spec: GameSpec,
    players: dict[str, PlayerSpec],
    pairings: Sequence[tuple[str, str]],
    settings: Settings,
    *,
    games: int,
    openings: int,
    seed: int,
) -> Iterator[GameTask]:
    """Every game of the tournament in order, numbered from 1: ``games`` for each pairing, sides swapped from one to
    the next, each two sharing an opening. Each game depends only on ``seed`` and its place."""
    rng = random.Random(seed)
    number = 0
    opening: tuple[str, ...] = ()
    for first, second in pairings:
        for index in range(games):
            if index % 2 == 0:
                opening = random_opening(spec, openings, rng.randrange(2**32))
            a, b = (first, second) if index % 2 == 0 else (second, first)
            number += 1
            yield GameTask(number, (players[a], players[b]), (a, b), opening, rng.randrange(2**32), settings)


def first_points(record: GameRecord) -> float:
    """The points of the player who moved first."""
    winner = record.outcome.winner
    return 0.5 if winner is None else 1.0 - winner


@dataclass
class TournamentResult:
    """The games of an arena tournament so far, and what they add up to."""

    format: str
    players: list[str]
    pairings: list[tuple[str, str]]
    games_per_pairing: int
    seed: int
    games: list[GameRecord] = field(default_factory=list)

    @property
    def total(self) -> int:
        """The games the tournament plays."""
        return len(self.pairings) * self.games_per_pairing

    def standings(self) -> list[Standing]:
        """Points, then Sonneborn-Berger and head-to-head, by :func:`hive.tournament.standings`."""
        played = [Game(g.first, g.second, first_points(g)) for g in self.games]
        return standings(self.players, [played], ("sonneborn-berger", "head-to-head"))

    def score(self, player: str, opponent: str) -> tuple[float, int]:
        """``player``'s points against ``opponent``, and the games they played."""
        points, count = 0.0, 0
        for g in self.games:
            if {g.first, g.second} == {player, opponent}:
                count += 1
                points += first_points(g) if g.first == player else 1.0 - first_points(g)
        return points, count

    def crosstable(self) -> str:
        """The standings as a crosstable: each player's points against each opponent, its score, its Elo against
        the field with a 95 % interval (:func:`~hive.arena.stats.elo_difference`) and its Sonneborn-Berger."""
        table = self.standings()
        order = [line.player for line in table]
        width = max(len(p) for p in order)
        cells = [f"{i:>5}" for i in range(1, len(order) + 1)]
        lines = [f"{'#':>2}  {'Player':<{width}} {''.join(cells)}   Score        Elo (95% interval)       SB"]
        for line in table:
            row = []
            for opponent in order:
                points, count = self.score(line.player, opponent)
                row.append(f"{'·' if opponent == line.player else '-' if not count else f'{points:g}':>5}")
            games = line.wins + line.draws + line.losses
            share = f"{100 * line.points / games:3.0f}%" if games else "  - "
            lines.append(
                f"{line.rank:>2}  {line.player:<{width}} {''.join(row)}   {f'{line.points:g}/{games}':<7}{share}  "
                f"{_elo_text(line):<24} {line.tiebreaks['sonneborn-berger']:g}"
            )
        return "\n".join(lines)

    def summary(self) -> str:
        """The heading line and the crosstable."""
        kind = "Round robin" if self.format == ROUND_ROBIN else "Gauntlet"
        head = (
            f"{kind} of {plural(len(self.players), 'player')} after {plural(len(self.games), 'game')} of {self.total}:"
        )
        return f"{head}\n{self.crosstable()}"


def _elo_text(line: Standing) -> str:
    if not line.wins + line.draws + line.losses:
        return "-"
    estimate, low, high = elo_difference(line.wins, line.draws, line.losses)
    if math.isinf(estimate):
        return f"{'+' if estimate > 0 else '-'}inf ({low:+.0f}, {high:+.0f})"
    return f"{estimate:+.0f} ({low:+.0f}, {high:+.0f})"


def run_tournament(
    players: Sequence[str | PlayerSpec],
    plan: MatchPlan | None = None,
    *,
    format: str = ROUND_ROBIN,
    cycles: int = 1,
    on_game: Callable[[GameRecord, TournamentResult], None] | None = None,
) -> TournamentResult:
    """Play a tournament among ``players`` as ``plan`` says (its ``games`` are each pairing's): a round robin (each
    pair meets, ``cycles`` times) or a gauntlet (the first player against each other one). The plan is
    :func:`~hive.arena.run_match`'s; each game depends only on its place and the plan's seed, so every way of
    playing them gives the same games.

    :raises ValueError: naming a bad player, format or number.
    :raises ~hive.engine.EngineError: when an external engine cannot start or rejects the game.
    """
    plan = plan or MatchPlan()
    if cycles not in (1, 2):
        raise ValueError(f"cycles must be 1 or 2, not {cycles}")
    game_spec = plan.check()
    specs = [check_player(player, game_spec) for player in players]
    labels = [player_label(number, player, game_spec, plan.engine_timeout) for number, player in enumerate(specs, 1)]
    labels = _distinct(labels)
    pairings = schedule(labels, format, cycles)
    seed = plan.seed if plan.seed is not None else random.randrange(2**32)
    by_label = dict(zip(labels, specs, strict=True))
    tasks = tournament_tasks(
        game_spec, by_label, pairings, plan.settings(), games=plan.games, openings=plan.openings, seed=seed
    )
    result = TournamentResult(format, labels, pairings, plan.games, seed)
    runner = make_runner(plan.ray, plan.jobs, result.total)
    try:
        for record in finished_games(tasks, runner):
            result.games.append(record)
            if on_game is not None:
                on_game(record, result)
    finally:
        runner.close()
    result.games.sort(key=lambda g: g.number)
    return result


def _distinct(labels: list[str]) -> list[str]:
    """The labels, those used more than once numbered (``easy#1``, ``easy#2``)."""
    counts = {label: labels.count(label) for label in labels}
    return [f"{label}#{i}" if counts[label] > 1 else label for i, label in enumerate(labels, start=1)]


__all__ = ["FORMATS", "GAUNTLET", "ROUND_ROBIN", "TournamentResult", "run_tournament", "schedule", "tournament_tasks"]
