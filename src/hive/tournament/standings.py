"""Standings: points, then tie-breaks, from any list of games (a tournament's, or an arena's).

The tie-breaks, by name:

- ``sonneborn-berger``: the final points of each opponent beaten, and half those of each opponent drawn;
- ``buchholz``: the sum of the opponents' final points; ``buchholz-cut1`` leaves out the lowest of them;
- ``head-to-head``: the points scored in the games among the players still tied, counted only when each of them
  has met each other one;
- ``wins``: games won over the board.

Only games played over the board count in a tie-break. A round without one (a bye, a forfeit, a round missed by a
late join) counts for Buchholz as an opponent who scored 0, so that Cut-1 leaves it out first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .games import Game, TournamentError

TIEBREAKS = ("sonneborn-berger", "buchholz-cut1", "buchholz", "head-to-head", "wins")


@dataclass
class Standing:
    """One player's line of the standings.

    :ivar rank: its place; players tied on points and every tie-break share one.
    :ivar tiebreaks: each tie-break's value, in the order they were asked for.
    """

    rank: int
    player: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    tiebreaks: dict[str, float] = field(default_factory=dict)


def check_tiebreaks(names: Iterable[str]) -> tuple[str, ...]:
    """The tie-breaks named, checked.

    :raises TournamentError: naming an unknown or repeated one.
    """
    chosen = tuple(names)
    for name in chosen:
        if name not in TIEBREAKS:
            raise TournamentError(f"Unknown tie-break {name!r}: the tie-breaks are {', '.join(TIEBREAKS)}.")
    if len(set(chosen)) != len(chosen):
        raise TournamentError(f"A tie-break is named twice in {', '.join(chosen)}.")
    return chosen


def standings(
    players: Sequence[str],
    rounds: Iterable[Iterable[Game]],
    tiebreaks: Sequence[str] = ("sonneborn-berger", "buchholz-cut1", "head-to-head"),
    *,
    bye_points: float = 1.0,
) -> list[Standing]:
    """The standings of ``players`` after the games of ``rounds`` (unplayed games count for nothing yet), best first;
    among players tied on everything, the seeding's order.

    :raises TournamentError: naming an unknown tie-break or a game's stranger.
    """
    order = check_tiebreaks(tiebreaks)
    known = set(players)
    points = dict.fromkeys(players, 0.0)
    lines = {p: Standing(0, p, 0.0, 0, 0, 0, 0) for p in players}
    played: list[Game] = []
    slots = dict.fromkeys(players, 0)  # the rounds each player had (a game, a bye or a forfeit)
    count = 0
    for games in rounds:
        count += 1
        for game in games:
            for player in (game.first, game.second):
                if player is not None and player not in known:
                    raise TournamentError(f"{player!r} plays in round {count} but is not among the players.")
            for player in (game.first, game.second):
                if player is None:
                    continue
                got = game.points(player, bye_points)
                if got is None:
                    continue
                slots[player] += 1
                points[player] += got
                if game.played:
                    line = lines[player]
                    line.games += 1
                    line.wins += got == 1.0
                    line.draws += got == 0.5
                    line.losses += got == 0.0
            if game.played:
                played.append(game)
    rounds_done = max(slots.values(), default=0)
    for player, line in lines.items():
        line.points = points[player]
        opponents = [(g.opponent(player), g.points(player) or 0.0) for g in played if g.has(player)]
        scores = sorted(points[o] for o, _ in opponents if o is not None)
        scores = [0.0] * (rounds_done - len(scores)) + scores  # rounds without a game: an opponent of 0
        for name in order:
            if name == "sonneborn-berger":
                line.tiebreaks[name] = sum(points[o] * got for o, got in opponents if o is not None)
            elif name == "buchholz":
                line.tiebreaks[name] = sum(scores)
            elif name == "buchholz-cut1":
                line.tiebreaks[name] = sum(scores[1:])
            elif name == "wins":
                line.tiebreaks[name] = line.wins
    if "head-to-head" in order:
        _head_to_head(lines, played, order)
    seeding = {p: i for i, p in enumerate(players)}
    ranked = sorted(lines.values(), key=lambda line: (_key(line, order), seeding[line.player]))
    for i, line in enumerate(ranked):
        tied = i and _key(line, order) == _key(ranked[i - 1], order)
        line.rank = ranked[i - 1].rank if tied else i + 1
    return ranked


def _key(line: Standing, order: Sequence[str]) -> tuple[float, ...]:
    return (-line.points, *(-line.tiebreaks[name] for name in order))


def _head_to_head(lines: dict[str, Standing], played: list[Game], order: Sequence[str]) -> None:
    """Fill in ``head-to-head`` among the players tied on points and on the tie-breaks before it."""
    before = order[: order.index("head-to-head")]
    groups: dict[tuple[float, ...], list[str]] = {}
    for player, line in lines.items():
        line.tiebreaks["head-to-head"] = 0.0
        groups.setdefault((-line.points, *(-line.tiebreaks[name] for name in before)), []).append(player)
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        among = [g for g in played if g.first in members and g.second in members]
        met = {frozenset((g.first, g.second)) for g in among}
        if len(met) < len(group) * (len(group) - 1) // 2:
            continue  # not everyone met everyone: no verdict
        for game in among:
            for member in group:
                if game.has(member):
                    lines[member].tiebreaks["head-to-head"] += game.points(member) or 0.0


__all__ = ["TIEBREAKS", "Standing", "check_tiebreaks", "standings"]
